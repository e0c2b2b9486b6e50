"""Results as each scoring program and reader expects them: sessions kept apart in every file,
the sections of a scoring group scored as one field (checked against a matchpoint count written
here from the definition), and USEBIO files read by two real readers' logic
(tests/station/usebio_readers.py), as a real Compscore file is."""
from __future__ import annotations

import json
import pathlib
from fractions import Fraction

import pytest
from bridgemate_dataconnector.dto import (
    HandrecordDTO,
    InitDTO,
    ParticipationDTO,
    PlayerDataDTO,
    RoundDTO,
    ScoringGroupDTO,
    SectionDTO,
    SessionDTO,
    TableDirection,
    TableDTO,
)

from shared_rules.types import SEATS
from station import dataconnector, exports
from station.server import Station, StationConfig
from station.store import Store

from .conftest import EVENT, result_record
from .export_readers import games, tags, usebio_sections, usebio_tree
from .test_dataconnector import DEAL_E, DEAL_N, DEAL_S, DEAL_W
from .usebio_readers import read_as_others_do

AFTERNOON = "A0000000000000000000000000000001"
EVENING = "E0000000000000000000000000000002"
DATA = pathlib.Path(__file__).parent / "data"


@pytest.fixture
def st(tmp_path):
    store = Store(str(tmp_path / "station.db"))
    yield Station(store, StationConfig(event=EVENT, director_token="tok", extra={"event_named": True}))
    store.close()


def dc(st, command: int, data, session: str | None = None) -> dict:
    reply = dataconnector.handle_request(st, {"Command": command, "ClubId": "club-7", "LicenceKey": "tok",
                                              "SessionGuid": session, "SerializedData": json.dumps(data)})
    return reply


def mitchell(guid: str, letters: str, tables: int, group: int = 1) -> SectionDTO:
    """One round of a Mitchell: NS n against EW n at table n, boards 1-2."""
    return SectionDTO(session_guid=guid, scoring_group_number=group, letters=letters, winners=2, game_type=10,
                      tables=[TableDTO(session_guid=guid, section_letters=letters, table_number=t, rounds=[
                          RoundDTO(session_guid=guid, section_letters=letters, table_number=t, round_number=1,
                                   low_board_number=1, high_board_number=2, pair_ns=t, pair_ew=t)])
                              for t in range(1, tables + 1)])


def session(guid: str, name: str, day: int, sections: list[SectionDTO]) -> SessionDTO:
    return SessionDTO(session_guid=guid, name=name, year=2026, month=11, day=day, scoring_groups=[
        ScoringGroupDTO(session_guid=guid, scoring_group_number=1, scoring_method=10, sections=sections)])


def people(guid: str, letters: str, tables: int, tag: str) -> tuple[list, list]:
    players, seats = [], []
    for t in range(1, tables + 1):
        for seat in SEATS:
            # cobalt reads national numbers as integers (its own players' numbers are)
            number = f"{len(tag)}{ord(tag[0])}{ord(letters)}{t}{SEATS.index(seat)}"
            players.append(PlayerDataDTO(session_guid=guid, player_number=number, first_name=seat,
                                         last_name=f"{tag}-{letters}{t}"))
            seats.append(ParticipationDTO(session_guid=guid, section_letters=letters, table_number=t, round_number=1,
                                          direction=TableDirection(SEATS.index(seat) + 1), player_number=number))
    return players, seats


def hand(guid: str, letters: str, board: int, group: int = 1) -> HandrecordDTO:
    h = HandrecordDTO(session_guid=guid, scoring_group_number=group, section_letters=letters, board_number=board)
    for seat, cards in (("north", DEAL_N), ("east", DEAL_E), ("south", DEAL_S), ("west", DEAL_W)):
        for suit, held in zip(("spades", "hearts", "diamonds", "clubs"), cards, strict=True):
            setattr(h, f"{seat}_{suit}", held)
    return h


def init(*sessions_and_people) -> dict:
    dto = InitDTO(commands=InitDTO.Command_Reset, club_id="club-7",
                  sessions=[s for s, _p, _h in sessions_and_people],
                  player_data=[x for _s, p, _h in sessions_and_people for x in p[0]],
                  participations=[x for _s, p, _h in sessions_and_people for x in p[1]],
                  handrecords=[x for _s, _p, h in sessions_and_people for x in h])
    return dto.to_dict()


def put(st, event: str, section: str, table: int, board: int, contract: str, declarer: str, tricks: int,
        score_ns: int, **over) -> dict:
    rec = result_record(table=table, board=board, ns_pair=table, ew_pair=table, contract=contract,
                        declarer=declarer, tricks=tricks, score_ns=score_ns, dealer="N" if board == 1 else "E",
                        vulnerability="None" if board == 1 else "NS", **over)
    rec.update(event=event, section=section)
    rec["key"] = f"{event}/{section}/{table}/1/{board}/1"
    st.store.put_item(rec["key"], "result", rec, event=event, section=section, table_no=table, round_no=1,
                      board=board, revision=1)
    return rec


def test_two_sessions_with_section_A_each_export_only_their_own(st):
    """The break: the afternoon's games came out under the evening's name, deals and players,
    and no address gave the evening's file."""
    a_people, e_people = people(AFTERNOON, "A", 2, "Aft"), people(EVENING, "A", 2, "Eve")
    # The scoring program initialises the afternoon, then (the afternoon still running) the evening.
    for ok in (dc(st, 5, init((session(AFTERNOON, "Afternoon pairs", 22, [mitchell(AFTERNOON, "A", 2)]),
                               a_people, []))),
               dc(st, 5, init((session(EVENING, "Evening pairs", 23, [mitchell(EVENING, "A", 2)]), e_people,
                               [hand(EVENING, "A", 1), hand(EVENING, "A", 2)])))):
        assert ok["DataType"] == dataconnector.OK, ok
    for table in (1, 2):
        put(st, EVENT, "A", table, 1, "4H", "S", 10, 420)                # the afternoon
        put(st, f"{EVENT}.2", "A", table, 1, "3NT", "N", 9 + table, 400 + 30 * table)  # the evening
    for sid, event, name, date, last in ((AFTERNOON, EVENT, "Afternoon pairs", "2026.11.22", "Aft"),
                                         (EVENING, f"{EVENT}.2", "Evening pairs", "2026.11.23", "Eve")):
        for text in (exports.pbn_for_event(st.store, EVENT, session=sid), exports.pbn_for_event(st.store, event)):
            found = [dict(tags(g)) for g in games(text)]
            assert len(found) == 2 and {t["Event"] for t in found} == {name}
            assert {t["Date"] for t in found} == {date}                  # the session's date
            assert {t["Site"] for t in found} == {"club-7"}              # the scoring program's club id
            assert {t["Contract"] for t in found} == ({"4H"} if sid == AFTERNOON else {"3NT"})
            assert {t["North"] for t in found} == {f"{last}-A1, N", f"{last}-A2, N"}
            evening_deal = ".".join(DEAL_N) in found[0]["Deal"]
            assert evening_deal == (sid == EVENING)  # the hand records were sent for the evening only
        root = usebio_tree(exports.usebio_for_event(st.store, EVENT, session=sid).encode())
        assert root.findtext("EVENT/EVENT_DESCRIPTION") == name and root.findtext("CLUB/CLUB_ID_NUMBER") == "club-7"
        assert root.findtext("EVENT/DATE") == f"{date[8:]}/{date[5:7]}/{date[:4]}"
        names = {x.findtext("PLAYER_NAME") for x in root.iter("PLAYER")}
        assert names and all(n.endswith(f"{last}-A1") or n.endswith(f"{last}-A2") for n in names)
    with pytest.raises(LookupError, match="no session"):
        exports.pbn_for_event(st.store, EVENT, session="F" * 32)


def independent_matchpoints(boards: dict[int, dict]) -> dict:
    """From the definition (2007 L78A / 2017 §78A): on each board a result gets 2 for every
    result it beats and 1 for every tie; a board with n results where the field has N is
    scaled by Neuberg, M' = (M + 1) N / n - 1 (FSB 98C), to one decimal; a pair's total is
    the sum of its boards. `boards`: board -> {ns pair: NS score} (EW pair = the same id)."""
    big_n = max(len(b) for b in boards.values())
    total: dict = {}
    for scores in boards.values():
        n = len(scores)
        for pair, s in scores.items():
            beaten = sum(2 for other, t in scores.items() if other != pair and s > t)
            tied = sum(1 for other, t in scores.items() if other != pair and s == t)
            ns = (Fraction(beaten + tied) + 1) * big_n / n - 1
            ew = 2 * (big_n - 1) - ns
            for side, mp in (("NS", ns), ("EW", ew)):
                rounded = Fraction(int(mp * 10 + Fraction(1, 2)), 10)
                total[(pair[0], side, pair[1])] = total.get((pair[0], side, pair[1]), 0) + rounded
    return total


def test_sections_of_one_scoring_group_are_matchpointed_as_one_field(st):
    """The break: A and B of one scoring group (same boards) were matchpointed apart, and every
    B pair got 50 %. Board 2 has one result fewer (A3 did not play it): Neuberg."""
    ok = dc(st, 5, init((session(EVENING, "Evening pairs", 22, [mitchell(EVENING, "A", 3), mitchell(EVENING, "B", 2)]),
                         people(EVENING, "A", 3, "Eve"), [hand(EVENING, "A", 1), hand(EVENING, "A", 2)])))
    assert ok["DataType"] == dataconnector.OK, ok
    played = {  # (section, table): board 1 (NS score), board 2
        ("A", 1): ((("4H", "S", 10), 420), (("4H", "S", 11), 650)),
        ("A", 2): ((("4H", "S", 9), -50), (("4S", "E", 10), -420)),
        ("A", 3): ((("3NT", "N", 9), 400), None),
        ("B", 1): ((("4H", "S", 10), 420), (("4H", "S", 10), 620)),
        ("B", 2): ((("5H", "S", 11), 450), (("3NT", "W", 8), 100))}
    boards: dict[int, dict] = {1: {}, 2: {}}
    for (letters, table), both in played.items():
        for board, got in zip((1, 2), both, strict=True):
            if got:
                (contract, declarer, tricks), score_ns = got
                put(st, f"{EVENT}", letters, table, board, contract, declarer, tricks, score_ns)
                boards[board][(letters, table)] = score_ns
    want = independent_matchpoints(boards)
    root = usebio_tree(exports.usebio_for_event(st.store, EVENT).encode())
    got = {}
    for letters, sec in usebio_sections(root).items():
        for p in sec.findall("PARTICIPANTS/PAIR"):
            got[(letters, p.findtext("DIRECTION"), int(p.findtext("PAIR_NUMBER")[:-2]))] = float(p.findtext("TOTAL_SCORE"))
    assert got == {k: pytest.approx(float(v), abs=0.051) for k, v in want.items()}
    assert got[("B", "NS", 2)] > got[("B", "NS", 1)]  # no longer 50 % each: compared with A too
    # The PBN of the same session carries both sections, each game once.
    assert len(games(exports.pbn_for_event(st.store, EVENT))) == 9


def test_a_hand_record_naming_a_section_its_scoring_group_lacks_changes_nothing(st):
    assert dc(st, 5, init((session(EVENING, "Evening pairs", 22, [mitchell(EVENING, "A", 2)]),
                           ([], []), [hand(EVENING, "A", 1)])))["DataType"] == dataconnector.OK
    before = st.store.query("SELECT session_guid, section, board, deal FROM dc_handrecords")
    bad = [hand(EVENING, "A", 2).to_dict(), hand(EVENING, "A", 1, group=7).to_dict()]
    reply = dc(st, dataconnector.PUT_HANDRECORDS, bad, EVENING)
    assert reply["DataType"] == dataconnector.ERROR and reply["ErrorType"] == dataconnector.E_ENTRY_UNKNOWN
    assert "scoring group 7 has no section A" in json.loads(reply["SerializedData"])
    assert st.store.query("SELECT session_guid, section, board, deal FROM dc_handrecords") == before


def test_a_one_section_session_is_read_by_cobalt_and_import_usebio(st):
    """Compscore's layout (pairs and boards in the EVENT), pairs 1NS/1EW, two players each with
    national numbers, SCORE on the adjusted line; both readers take it and read what we wrote."""
    ok = dc(st, 5, init((session(EVENING, "Evening pairs", 22, [mitchell(EVENING, "A", 3)]),
                         people(EVENING, "A", 3, "Eve"), [hand(EVENING, "A", 1), hand(EVENING, "A", 2)])))
    assert ok["DataType"] == dataconnector.OK, ok
    for table, score_ns in ((1, 420), (2, -50), (3, 450)):
        put(st, EVENT, "A", table, 1, *(("4H", "S", 10) if score_ns == 420 else ("4H", "S", 9) if score_ns < 0
                                       else ("5H", "S", 11)), score_ns)
    put(st, EVENT, "A", 1, 2, "4H", "S", 10, 420)
    put(st, EVENT, "A", 2, 2, "3NT", "N", 9, 400, adjusted={"kind": "artificial", "ns": "avg+", "ew": "avg-",
                                                              "law": "2017 L12C2"})
    put(st, EVENT, "A", 3, 2, "4S", "E", 10, -420, adjusted={"kind": "assigned", "contract": "4S", "declarer": "E",
                                                               "tricks": 9, "law": "2017 L12C1"})
    raw = exports.usebio_for_event(st.store, EVENT).encode()
    read = read_as_others_do(raw)  # ImportUsebio with its own policy too: a MATCH_POINTS pairs event
    c = read["cobalt"]
    assert sorted(c["pairs"]) == ["1EW", "1NS", "2EW", "2NS", "3EW", "3NS"] and c["club"] == "club-7"
    assert c["hand_boards"] == ["1", "2"] and str(c["date"]) == "2026-11-22"
    assert {r["player"] for r in c["records"]} == {f"369{ord('A')}{t}{s}" for t in (1, 2, 3) for s in range(4)}
    detail = c["details"]["2NS"]
    assert [(r["board"], r["score"]) for r in detail] == [(1, "-50"), (2, "ADJ")]  # adjusted: "A..."
    assert next(r for r in c["details"]["3NS"] if r["board"] == 2)["score"] == "50"  # assigned 4S-1
    assert read["import_usebio"]["events"][0]["type"] == "pairs"
    assert len(read["import_usebio"]["events"][0]["participants"]) == 6
    # A PBN game of a played board with an adjusted score says what the TD ruled.
    text = exports.pbn_for_event(st.store, EVENT)
    game = next(g for g in games(text) if '[Table "3"]' in g and '[Board "2"]' in g)
    assert any(line.startswith("{Adjusted score, assigned:") for line in game)

