"""A club evening as a test: the official Data Connector client as the scoring
program, `python -m station` (killed and restarted mid-evening), the tablets as real controller
processes with their journals and outboxes (one killed mid-board and restarted). At the end the
scoring program's results equal an independent recomputation (endplay: contract from the
auctions played, tricks double dummy from the hand records, the Law 77 score), with nothing lost
or doubled, and the PBN and USEBIO exports read back with independent readers.

Player numbers: at table A1 the players enter their member numbers at the first board (one
typed wrong first: refused, nothing changed) and see their names; a late player the scoring
program adds with UpdateMovement sits West at B3 in round 2 and enters her number there. The
scoring program's participation and player-data polls carry the numbers, the PBN names her.

Adjusted scores (2017 L12C1): at A5 in round 1 the TD assigns 3NT by South, eight tricks, to the
board in play; at B4 in round 2 he weights 4H by East, ten tricks 60 %, nine 40 %. The scoring
program's poll has the assigned contract as the TD gave it and the weighted one as no play
(the ruling is the TD's); the PBN says both in a comment, the assigned score in its Score tag;
USEBIO shows them on the traveller, and every matchpoint of the scoring group equals an
independent recomputation (each outcome compared at its weight, Neuberg where a board has fewer
results: FSB 98C)."""
from __future__ import annotations

import json
import time
from fractions import Fraction

import pytest
from bridgemate_dataconnector import DataConnectorClient, validate_result_dto, validate_td_call_dto
from bridgemate_dataconnector.dto import (
    DataConnectorResponseData,
    ErrorType,
    PlayerDataDTO,
    ResultDTO,
    ScoringGroupDTO,
    ScoringProgramDataConnectorCommands,
    ScoringProgramRequest,
    SectionDTO,
    TableDirection,
    TdCallDTO,
)
from endplay.types import Card, Player

from shared_rules.types import SEATS
from tests.station.conftest import StationProcess
from tests.station.export_readers import conforming_text, endplay_boards, games, pair_no, tags, usebio_tree
from tests.station.test_export_standards import fetch
from tests.station.test_sessions import _director_keys as director_keys

from .club import CLUB, Worker, handrecords, init, late_arrival, people, run_all, second_session, send_all
from .plan import (
    ASSIGNED,
    C_PROFILE,
    EVENT,
    INSUFFICIENT,
    MOVED,
    PIN,
    SESSION,
    TABLET_KILLED,
    WEIGHTED,
    WITHDRAWN,
    Slot,
    deals,
    expected,
    group,
    slots,
    table_plays,
)

pytestmark = [pytest.mark.slow, pytest.mark.server]
DENOM = {1: "C", 2: "D", 3: "H", 4: "S", 5: "NT"}
LATE = PlayerDataDTO(session_guid=SESSION, club_id=CLUB, player_number="9001", first_name="Lena", last_name="Sent")
LATE_SEAT = ("B", 3, 2, "W")  # where she sits, in round 2 only
LATER = "C10BE0E1E0000000000000000000A7B3"  # the session added while the evening runs
LATER_SLOTS = [Slot("D", t, 1, (1, 2), t, t) for t in (1, 2)]  # two tables sharing boards 1-2
RANK = {10: "T", 11: "J", 12: "Q", 13: "K", 14: "A", **{n: str(n) for n in range(2, 10)}}


def ok(reply):
    assert reply.data_type == DataConnectorResponseData.OK, reply.serialized_data


def as_expected(dto: ResultDTO) -> tuple:
    """What a scoring program reads from a ResultDTO, in the shape of plan.Expected (no score)."""
    played = dto.level > 0
    lead = f"{'CDHS'[dto.lead_card_suit - 1]}{RANK[dto.lead_card_rank]}" if dto.lead_card_suit else None
    return (dto.pair_north_south, dto.pair_east_west, dto.level, DENOM[dto.denomination] if played else None,
            dto.stake if played else 0, SEATS[dto.declarer_direction - 1] if played else None,
            dto.total_tricks if played else None, lead)


class Scorer:
    """The scoring program: polls new results and accepts them, applying deletions."""

    def __init__(self, client: DataConnectorClient):
        self.client = client
        self.log: list[ResultDTO] = []
        self.table: dict[tuple, ResultDTO] = {}

    def poll(self, quiet: bool = True) -> None:
        """Poll new, apply, accept. `quiet`: nothing is arriving, so nothing is left after."""
        new = self.client.poll_for_results(SESSION)
        assert all(validate_result_dto(r) for r in new), [r.validation_messages for r in new]
        for r in new:
            self.log.append(r)
            key = (r.section_letters, r.table_number, r.round_number, r.board_number)
            if r.is_deleted:
                assert key in self.table, f"deleted a result the scoring program never had: {key}"
                del self.table[key]
            else:
                self.table[key] = r
        ok(self.client.accept_queue_data(SESSION, DataConnectorResponseData.Results))
        if quiet:
            assert self.client.poll_for_results(SESSION) == []


def ruled_comment(ruled: list[dict]) -> str:
    """The PBN comment the station writes for the TD's assigned or weighted score (station/pbn.py),
    from the outcomes as the TD gave them."""
    said = ", ".join((f"{o['weight']}% " if len(ruled) > 1 else "") + f"{o['contract']} by {o['declarer']}, "
                     f"{o['tricks']} tricks" for o in ruled)
    kind, law = ("weighted", "2017 L12C1(c)") if len(ruled) > 1 else ("assigned", "2017 L12C1(b)")
    return "{" + f"Adjusted score, {kind}: {said} ({law})" + "}"


def test_a_club_evening_end_to_end(tmp_path):
    the_slots = slots()
    the_deals = deals()
    plans = {(s.section, s.table, s.round): table_plays(s) for s in the_slots}
    want, ruled_at = {}, {}
    for _segments, plays in plans.values():
        for p in plays:
            if p.ruled:
                ruled_at[(p.slot.section, p.slot.table, p.slot.round, p.board)] = p.ruled
            e = expected(p, the_deals)
            for step in p.steps:
                if step[0] == "result" and step[1] == "dd":
                    step[1:] = [e.tricks, e.lead]  # North enters the tricks and the lead
            key = (p.slot.section, p.slot.table, p.slot.round, p.board)
            assert key not in want
            want[key] = e
    assert len(want) == 2 * 7 * 3 * 2 + 3 * 3 * 2

    # Started as the README says, without --event: the event is the scoring program's.
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, event=None, extra=[
        "--profile", "dbf-2017",
        "--director-pin", PIN, "--club", "Bridgeklubben Öst", "--club-id", "4711"]).start()
    workers: dict[str, Worker] = {}
    try:
        client = DataConnectorClient(CLUB, st.token, st.url)
        players, seats, name_at = people(the_slots)
        ok(client.initialize(init(the_slots)))
        ok(client.send_handrecords(SESSION, handrecords(the_deals)))
        ok(client.send_player_data(SESSION, players))
        ok(client.send_participations(SESSION, seats))
        # A scoring group naming a section the session does not have: refused, nothing changed.
        bad = ScoringGroupDTO(session_guid=SESSION, scoring_group_number=3, scoring_method=10, sections=[
            SectionDTO(session_guid=SESSION, scoring_group_number=3, letters=x, winners=2, game_type=10)
            for x in ("B", "D")])
        reply = client.update_scoring_groups([bad])
        assert reply.error_type == ErrorType.EntryUnknown and "section D" in reply.serialized_data
        scorer = Scorer(client)
        assert st.request("GET", "/api/v1/health")[1]["event"] == EVENT
        keys = director_keys(st)  # every table of the movement got its key (the director page)

        for name in "ABC":
            tables = [{"id": f"{name}/{t}", "key": keys[f"{name}{t}"]}
                      for t in range(1, (3 if name == "C" else 7) + 1)]
            workers[name] = Worker(tmp_path / f"tablets-{name}", st.url, tables, {"C": C_PROFILE}).start()
        tables_of = {(s.section, s.table) for s in the_slots}

        def segment(round_: int, n: int) -> dict[str, list]:
            return {f"{sec}/{t}": (plans[(sec, t, round_)][0][n] if n < len(plans[(sec, t, round_)][0]) else [])
                    for sec, t in tables_of}

        def setup_round() -> None:
            run_all({k: w for k, w in workers.items() if k != "D"}, {f"{sec}/{t}": [["round"]] for sec, t in tables_of})

        def drain() -> None:
            for w in list(workers.values()):
                w.send({"op": "drain"})
            for w in workers.values():
                assert w.reply()["refused"] == {}  # the station refused nothing

        # Round 1: a board not in the round caught, an insufficient bid (2017 L27), shared boards.
        setup_round()
        # Table A1's players enter their member numbers at the first board (one typed wrong first).
        a1 = {"NESW"[p.direction - 1]: p.player_number for p in seats
              if (p.section_letters, p.table_number) == ("A", 1)}
        full = {p.player_number: f"{p.first_name} {p.last_name}" for p in players}
        run_all(workers, {"A/1": [["players_bad", {"N": "70O1"}],
                                  ["players", a1, {s: full[n] for s, n in a1.items()}]]})
        # The scoring program polls and accepts while the results come in, as it does every few
        # seconds: an accept takes only what its poll returned.
        busy = send_all(workers, segment(1, 0))
        for _ in range(3):
            scorer.poll(quiet=False)
        for w in busy:
            w.reply()
        drain()
        scorer.poll()

        # Round 2: a late player, added by the scoring program, sits West at B3 and enters her
        # number. Then the station dies (SIGKILL) while the tables play and deliver; they play on.
        ok(client.update_movement(late_arrival(the_slots, "B", LATE)))
        setup_round()
        run_all(workers, {"B/3": [["players", {"W": LATE.player_number}, {"W": "Lena Sent"}]]})
        busy = send_all(workers, segment(2, 0))
        time.sleep(0.2)  # results on their way
        st.kill()
        for w in busy:
            w.reply()
        # A tablet dies mid-board (two calls made) and comes back on its journal.
        sec, table, _ = TABLET_KILLED
        workers[sec].kill()
        workers[sec].start()
        workers[sec].send({"op": "state", "table": f"{sec}/{table}"})
        state = workers[sec].reply()
        first = plans[TABLET_KILLED][1][0]
        assert (state["board"], state["phase"], state["calls"]) == (first.board, "auction", first.calls[:2])
        st.start()  # the same database, the same port
        assert st.request("GET", "/api/v1/health")[1]["event"] == EVENT  # not a new day's event
        run_all(workers, segment(2, 1))
        drain()
        scorer.poll()

        # A second session of the event, added while this one runs (AddSession): section D, two
        # tables. Its tablets set up and play while this session's tables go on into round 3;
        # neither session takes the other's tables, results or files.
        r = client.send_request(ScoringProgramRequest(
            command=ScoringProgramDataConnectorCommands.AddSession, session_guid=SESSION, serialized_data=json.dumps(
                {"EventGuid": SESSION, "Session": second_session(LATER_SLOTS, LATER, "Sen kväll").to_dict()})))
        ok(r)
        keys = director_keys(st)
        workers["D"] = Worker(tmp_path / "tablets-D", st.url, [{"id": f"D/{s.table}", "key": keys[f"D{s.table}"]}
                                                              for s in LATER_SLOTS], {}).start()
        later_plans = {s.table: table_plays(s) for s in LATER_SLOTS}
        later_want = {}
        for _segments, plays in later_plans.values():
            for p in plays:
                e = expected(p, the_deals)
                for step in p.steps:
                    if step[0] == "result" and step[1] == "dd":
                        step[1:] = [e.tricks, e.lead]
                later_want[(p.slot.table, p.board)] = e
        run_all(workers, {f"D/{s.table}": [["round"]] for s in LATER_SLOTS})
        busy = send_all(workers, {f"D/{t}": segments[0] for t, (segments, _) in later_plans.items()})

        # Round 3: a result entered on the wrong board; the scoring program takes it, then the TD
        # moves it (2017 L15) and the board is played.
        setup_round()
        for w in busy:
            w.reply()
        run_all(workers, segment(3, 0))
        drain()
        scorer.poll()
        moved_from, moved_to = plans[MOVED][1][0].at, plans[MOVED][1][0].board
        assert scorer.table[(*MOVED, moved_from)].level > 0 and (*MOVED, moved_to) not in scorer.table
        run_all(workers, segment(3, 1))
        drain()
        scorer.poll()

        def shape(e):
            return (e.ns, e.ew, e.level, e.denom, e.stake, e.declarer, e.tricks, e.lead)

        # The added session: its own results in its own poll, its own file (and none of this
        # session's in either).
        later = client.poll_for_results(LATER, all=True)
        assert {(r.section_letters, r.table_number, r.board_number): as_expected(r) for r in later} == \
            {("D", t, b): shape(e) for (t, b), e in later_want.items()}
        later_games = [dict(tags(g)) for g in games(conforming_text(fetch(st, f"/export/pbn?session={LATER}")))]
        assert sorted((g["Section"], g["Table"], g["Board"]) for g in later_games) == \
            sorted(("D", str(t), str(b)) for t, b in later_want)
        assert {g["Event"] for g in later_games} == {"Sen kväll"}

        want_shape = {k: shape(e) for k, e in want.items()}
        # What the scoring program holds after its polls (deletions applied) ...
        assert {k: as_expected(r) for k, r in scorer.table.items()} == want_shape
        # ... nothing doubled: one result a board, plus the one taken back and its replacement ...
        deleted = [(r.section_letters, r.table_number, r.round_number, r.board_number)
                   for r in scorer.log if r.is_deleted]
        withdrawn = (*WITHDRAWN, plans[WITHDRAWN][1][0].board)
        assert sorted(deleted) == sorted([(*MOVED, moved_from), withdrawn])
        assert len([r for r in scorer.log if not r.is_deleted]) == len(want) + 2
        # The TD's adjusted scores as the scoring program holds them: the assigned contract as he
        # gave it (not a contract of the table's), the weighted one as no play.
        assigned = scorer.table[(*ASSIGNED, plans[ASSIGNED][1][0].board)]
        assert (assigned.level, DENOM[assigned.denomination], SEATS[assigned.declarer_direction - 1],
                assigned.total_tricks, assigned.lead_card_suit) == (3, "NT", "S", 8, 0)
        assert scorer.table[(*WEIGHTED, plans[WEIGHTED][1][0].board)].level == ResultDTO.ContractLevel_NoPLay
        # ... and the same from a poll of everything, as a scoring program re-reading the event.
        every = client.poll_for_results(SESSION, all=True)
        live = {(r.section_letters, r.table_number, r.round_number, r.board_number): r
                for r in every if not r.is_deleted}
        assert {k: as_expected(r) for k, r in live.items()} == want_shape

        # The TD calls: the tablets called the director at each irregularity and he ruled; the
        # scoring program has each call launched and resolved, the director page none open.
        calls = client.poll_for_td_calls(SESSION, all=True)
        assert all(validate_td_call_dto(c) for c in calls)
        by_table = sorted((c.section_letters, c.table_number, c.round_number, c.status) for c in calls)
        assert by_table == sorted((sec, t, r, s) for sec, t, r in INSUFFICIENT
                                  for s in (TdCallDTO.TdCallStatus_Launched, TdCallDTO.TdCallStatus_Resolved))
        # The player numbers entered at the tables, in the scoring program's polls.
        entered = {(p.section_letters, p.table_number, p.round_number, p.direction, p.player_number)
                   for p in client.poll_for_participations(SESSION, all=True)}
        assert entered == {("A", 1, 1, TableDirection("NESW".index(s) + 1), n) for s, n in a1.items()} | \
            {("B", 3, 2, TableDirection.West, "9001")}
        named = {p.player_number: (p.first_name, p.last_name) for p in client.poll_for_player_data(SESSION, all=True)}
        assert named["9001"] == ("Lena", "Sent") and set(named) == set(a1.values()) | {"9001"}

        code, status = st.request("GET", f"/director/status.json?token={st.token}")
        assert code == 200 and status["open_td_calls"] == [] and status["refusals"] == []
        rows = {(t["section"], t["table"]): t for t in status["tables"]}
        # the added session's tables have their keys in the station's event too
        assert set(rows) == tables_of | {("D", s.table) for s in LATER_SLOTS}
        assert all(rows[k]["round"] == 3 and rows[k]["results"] == 6 and not rows[k]["late"] for k in tables_of), rows

        # PBN, read back with endplay board by board: deals from the hand records (Deal from the
        # dealer), the players' names, contract, result and the Law 77 score.
        raw = fetch(st, "/export/pbn")
        text = conforming_text(raw)
        tag_of, pbn_game = {}, {}
        for game in games(text):
            t = dict(tags(game))
            tag_of[(t["Section"], int(t["Table"]), int(t["Round"]), int(t["Board"]))] = t
            pbn_game[(t["Section"], int(t["Table"]), int(t["Round"]), int(t["Board"]))] = game
            assert t["Deal"].startswith(t["Dealer"] + ":"), t["Deal"]
        boards = endplay_boards(raw)
        assert len(boards) == len(want) == len(tag_of)
        for b in boards:
            section, table = b.info["Section"], int(b.info["Table"])
            round_ = int(b.info["Round"])
            e = want[(section, table, round_, b.board_num)]
            assert b.dealer == Player.from_board(b.board_num)
            deal = the_deals[(group(section), b.board_num)]
            assert {p: b.deal[p].to_pbn() for p in Player} == {p: deal[p].to_pbn() for p in Player}
            assert {s: b.info[n] for s, n in (("N", "North"), ("E", "East"), ("S", "South"), ("W", "West"))} == \
                {s: "Sent, Lena" if (section, table, round_, s) == LATE_SEAT else name_at(section, table, round_, s)
                 for s in SEATS}
            score = tag_of[(section, table, round_, b.board_num)].get("Score")
            ruled = ruled_at.get((section, table, round_, b.board_num))
            if ruled is not None:  # the TD's score on the board in play: no contract at the table
                game = pbn_game[(section, table, round_, b.board_num)]
                assert (tag_of[(section, table, round_, b.board_num)]["Contract"], b.contract) == ("?", None)
                assert ruled_comment(ruled) in game, (ruled, game)
                assert score == (f"NS {e.score_ns}" if len(ruled) == 1 else None), score
                continue
            if e.level < 0:
                continue  # the TD's artificial score: no contract at the table
            if e.level == 0:
                assert b.contract is None or b.contract.is_passout()
                continue
            c = b.contract
            assert (c.level, c.declarer.abbr, c.level + 6 + c.result) == (e.level, e.declarer, e.tricks)
            assert score == f"NS {e.score_ns}", (section, table, b.board_num, score, e)
            assert len(b.play) == 1 and b.play[0] == Card(e.lead)  # the Play section: the lead

        # USEBIO: the Mitchells (one scoring group) ranked per direction across A and B, the Howell as one field.
        root = usebio_tree(fetch(st, "/export/usebio"))
        secs = {s.get("SECTION_ID"): s for s in root.find("EVENT").findall("SECTION")}
        assert set(secs) == {"A", "B", "C"}
        for letters in "AB":
            pairs = {(p.findtext("DIRECTION"), pair_no(p.findtext("PAIR_NUMBER"))): p
                     for p in secs[letters].findall("PARTICIPANTS/PAIR")}
            assert set(pairs) == {(d, n) for d in ("NS", "EW") for n in range(1, 8)}
            field = {(x, p.findtext("DIRECTION"), pair_no(p.findtext("PAIR_NUMBER"))): float(p.findtext("PERCENTAGE"))
                     for x in "AB" for p in secs[x].findall("PARTICIPANTS/PAIR")}
            for (side, n), p in pairs.items():
                mine = field[(letters, side, n)]
                better = sum(v > mine for k, v in field.items() if k[1] == side)
                tied = sum(v == mine for k, v in field.items() if k[1] == side) > 1
                assert p.findtext("PLACE") == f"{better + 1}{'=' if tied else ''}"
            assert [x.findtext("PLAYER_NAME") for x in pairs[("NS", 1)].findall("PLAYER")] == \
                [f"N{letters}1 Öberg-{letters}NS1", f"S{letters}1 Öberg-{letters}NS1"]
        # Every traveller line: the pairs, the contract and the Law 77 score computed by endplay.
        lines, points = {}, {}
        for letters, sec in secs.items():
            for b in sec.findall("BOARD"):
                for tl in b.findall("TRAVELLER_LINE"):
                    key = (letters, int(b.findtext("BOARD_NUMBER")), pair_no(tl.findtext("NS_PAIR_NUMBER")))
                    assert key not in lines, key
                    lines[key] = (pair_no(tl.findtext("EW_PAIR_NUMBER")), tl.findtext("CONTRACT"), tl.findtext("SCORE"))
                    points[key] = (tl.findtext("NS_MATCH_POINTS"), tl.findtext("EW_MATCH_POINTS"))
        want_lines = {}
        for (letters, _t, _r, board), e in want.items():
            if e.level == ResultDTO.ContractLevel_NoPLay:
                shown = (e.ew, "WEIGHTED", "ADJ")  # the TD's weighted score (2017 L12C1(c))
            elif e.level < 0:
                shown = (e.ew, "AVE+", "AVE+")  # SCORE: the TD's adjusted score
            elif e.level == 0:
                shown = (e.ew, "PASS", "0")
            else:
                shown = (e.ew, f"{e.level}{e.denom}{'X' * e.stake}", str(e.score_ns))
            want_lines[(letters, board, e.ns)] = shown
        assert {k: (ew, c, s or "") for k, (ew, c, s) in lines.items()} == want_lines
        # Every matchpoint of the Mitchells' scoring group, recomputed here: each result (each
        # outcome of a weighted one, at its weight) against every other on the board, 2/1/0
        # (2007 L78A), Neuberg up to the most results any board has (FSB 98C); an artificial score
        # is not compared (2017 L12C2).
        group_one = {k: e for k, e in want.items() if k[0] in "AB"}
        most = max(sum(1 for k in group_one if k[3] == b) for b in {k[3] for k in group_one})
        for board in sorted({k[3] for k in group_one}):
            here = {k: e for k, e in group_one.items() if k[3] == board and e.outcomes}
            for k, e in here.items():
                mine = sum(w * w2 * (2 if s > s2 else 1 if s == s2 else 0) for k2, e2 in here.items() if k2 != k
                           for w, s in e.outcomes for w2, s2 in e2.outcomes)
                n = len(here)
                mp = (mine + 1) * Fraction(most, n) - 1 if n < most else mine
                got_ns, got_ew = points[(k[0], board, e.ns)]
                assert abs(float(got_ns) - float(mp)) < 0.051, (k, got_ns, float(mp))
                assert abs(float(got_ew) - (2 * (most - 1) - float(mp))) < 0.051, (k, got_ew)
        howell = secs["C"].findall("PARTICIPANTS/PAIR")
        assert sorted(pair_no(p.findtext("PAIR_NUMBER")) for p in howell) == [1, 2, 3, 4, 5, 6]
        assert {p.findtext("PLACE") for p in howell} & {"1", "1="}
    finally:
        for w in workers.values():
            w.stop()
        st.stop()
