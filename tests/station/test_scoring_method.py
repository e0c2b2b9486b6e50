"""The scoring program's ScoringMethod reaches the exports ("scoring method and game type
are stored and never used"). A club initialises an IMP pairs section (Butler or cross-IMPs) with the
official Data Connector client, tablets deliver results over HTTP, and the PBN `Scoring` tag and
the USEBIO event type, pair totals and traveller points are checked against IMPs computed here from
the WBF scale written out (tests/scoring/test_imp_pairs_session.py), not by the station's scorer.
A teams section is refused in both files with a line saying so, never scored as pairs."""
from fractions import Fraction

import pytest
from bridgemate_dataconnector import DataConnectorClient
from bridgemate_dataconnector.dto import (
    DataConnectorResponseData,
    InitDTO,
    ScoringGroupDTO,
)

from shared_rules.scoring import score
from station.movement import Slot
from tests.scoring.test_imp_pairs_session import wbf_imps

from .conftest import StationProcess, result_record
from .export_readers import conforming_text, games, pair_no, tags, usebio_sections, usebio_tree
from .test_dataconnector import pairs_init
from .test_export_standards import fetch

pytestmark = pytest.mark.server  # starts the results station as a process

GUID = "A0B1C2D3E4F5A6B7C8D9E0F1A2B3C4D5"
DEALER = {1: "N", 2: "E", 3: "S"}
VUL = {1: "None", 2: "NS", 3: "EW"}
# board -> table -> (contract, declarer, tricks): four NS results per board, all different.
PLAYED = {1: {1: ("4S", "N", 10), 2: ("4S", "N", 9), 3: ("3NT", "S", 10), 4: ("5C", "E", 9)},
          2: {1: ("1NT", "N", 7), 2: ("3H", "W", 9), 3: ("2S", "S", 9), 4: ("4H", "E", 10)},
          3: {1: ("6NT", "S", 12), 2: ("3NT", "N", 10), 3: ("6NT", "S", 11), 4: ("4S", "W", 8)}}


def init(method: int, game_type: int = 10) -> InitDTO:
    return pairs_init([Slot(t, 1, 1, 3, t, t) for t in (1, 2, 3, 4)], GUID, "IMP-par tisdag", method, game_type)


def ns_score(board: int, table: int) -> int:
    contract, declarer, tricks = PLAYED[board][table]
    return score(contract, declarer, tricks, VUL[board])


def club_evening(tmp_path, method: int, game_type: int = 10) -> StationProcess:
    st = StationProcess(str(tmp_path / "station.db"), tmp_path).start()
    client = DataConnectorClient("club-7", st.token, st.url)
    reply = client.initialize(init(method, game_type))
    assert reply.data_type == DataConnectorResponseData.OK, reply.serialized_data
    for board, tables in PLAYED.items():
        for t, (contract, declarer, tricks) in tables.items():
            rec = result_record(table=t, board=board, ns_pair=t, ew_pair=t, dealer=DEALER[board],
                                vulnerability=VUL[board], contract=contract, declarer=declarer, tricks=tricks,
                                score_ns=ns_score(board, t))
            code, doc = st.post_item("result", rec)
            assert code == 201, doc
    return st


def cross_expected() -> dict[int, dict[int, Fraction]]:
    """board -> table -> NS IMPs: the mean of the IMPs against every other table."""
    out = {}
    for board, tables in PLAYED.items():
        out[board] = {t: Fraction(sum(wbf_imps(ns_score(board, t) - ns_score(board, o)) for o in tables if o != t),
                                  len(tables) - 1) for t in tables}
    return out


def butler_expected() -> dict[int, dict[int, Fraction]]:
    """board -> table -> NS IMPs against the datum: four results, none dropped, the mean rounded
    half-up to 10."""
    out = {}
    for board, tables in PLAYED.items():
        mean = Fraction(sum(ns_score(board, t) for t in tables), len(tables))
        datum = int(mean / 10 + Fraction(1, 2)) * 10 if mean >= 0 else -int(-mean / 10 + Fraction(1, 2)) * 10
        out[board] = {t: Fraction(wbf_imps(ns_score(board, t) - datum)) for t in tables}
    return out


@pytest.mark.parametrize("method, event_type, board_method, expected", [
    (ScoringGroupDTO.ScoringType_XImp3_Average, "PAIRS", "CROSS_IMPS", cross_expected),
    (ScoringGroupDTO.ScoringType_Imp3_Weighted, "BUTLER_PAIRS", "IMPS", butler_expected),
])
def test_an_imp_pairs_section_is_exported_in_imps_not_matchpoints(tmp_path, method, event_type, board_method,
                                                                  expected):
    st = club_evening(tmp_path, method)
    try:
        pbn_games = games(conforming_text(fetch(st, "/export/pbn")))
        assert len(pbn_games) == 12
        assert {dict(tags(g))["Scoring"] for g in pbn_games} == {"IMP"}

        root = usebio_tree(fetch(st, "/export/usebio"))
        ev = root.find("EVENT")
        assert ev.get("EVENT_TYPE") == event_type
        assert ev.findtext("BOARD_SCORING_METHOD") == board_method
        want = expected()
        totals = {}
        for pair in root.iter("PAIR"):
            totals[(pair.findtext("DIRECTION"), pair_no(pair.findtext("PAIR_NUMBER")))] = float(pair.findtext("TOTAL_SCORE"))
            assert pair.findtext("PERCENTAGE") is None  # IMPs: no percentage written
        assert totals == {**{("NS", t): pytest.approx(float(sum(want[b][t] for b in want)), abs=0.006)
                             for t in (1, 2, 3, 4)},
                          **{("EW", t): pytest.approx(-float(sum(want[b][t] for b in want)), abs=0.006)
                             for t in (1, 2, 3, 4)}}
        places = {(p.findtext("DIRECTION"), str(pair_no(p.findtext("PAIR_NUMBER")))): p.findtext("PLACE") for p in root.iter("PAIR")}
        best_ns = max((1, 2, 3, 4), key=lambda t: sum(want[b][t] for b in want))
        assert places[("NS", str(best_ns))] == "1"
        for board in next(iter(usebio_sections(root).values())).findall("BOARD"):
            n = int(board.findtext("BOARD_NUMBER"))
            for line in board.findall("TRAVELLER_LINE"):
                t = pair_no(line.findtext("NS_PAIR_NUMBER"))
                assert float(line.findtext("NS_MATCH_POINTS")) == pytest.approx(float(want[n][t]), abs=0.006)
                assert float(line.findtext("EW_MATCH_POINTS")) == pytest.approx(-float(want[n][t]), abs=0.006)
                assert int(line.findtext("SCORE")) == ns_score(n, t)
    finally:
        st.stop()


def test_a_teams_section_is_refused_with_a_line_saying_so_not_scored_as_pairs(tmp_path):
    st = club_evening(tmp_path, ScoringGroupDTO.ScoringType_TeamImps, game_type=30)
    try:
        text = conforming_text(fetch(st, "/export/pbn"))
        # A teams section whose movement seats no two teams the other way round: no match is
        # known, so it is not scored (docs/station.md "Team matches"), and the file says why.
        assert any(line.startswith("% Section A (teams, team_imps) not scored: no team match is known")
                   for line in text.splitlines()), text
        assert any(line.startswith("% Team matches: teams sections A:") for line in text.splitlines()), text
        assert {dict(tags(g))["Scoring"] for g in games(text)} == {"IMP"}

        raw = fetch(st, "/export/usebio")
        assert b"<!-- Section A (teams, team_imps) not scored" in raw
        root = usebio_tree(raw)
        assert next(iter(usebio_sections(root).values())).find("PARTICIPANTS").findall("PAIR") == []
        lines = list(root.iter("TRAVELLER_LINE"))
        assert len(lines) == 12
        assert all(line.findtext("NS_MATCH_POINTS") == "" and line.findtext("EW_MATCH_POINTS") == "" for line in lines)
        # The table results are still there for the scoring program.
        assert sorted(int(line.findtext("SCORE")) for line in lines) == \
            sorted(ns_score(b, t) for b in PLAYED for t in PLAYED[b])
    finally:
        st.stop()


def test_sections_scored_differently_get_their_own_pbn_scoring_and_one_usebio_method(tmp_path):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=["--tables", "B:1-4"]).start()
    try:
        dto = init(ScoringGroupDTO.ScoringType_XImp3_Average)
        section_b = init(ScoringGroupDTO.ScoringType_Pairs).sessions[0].scoring_groups[0].sections[0]
        section_b.letters, section_b.scoring_group_number = "B", 2
        for table in section_b.tables:
            table.section_letters = "B"
            for r in table.rounds:
                r.section_letters = "B"
        dto.sessions[0].scoring_groups.append(ScoringGroupDTO(
            session_guid=GUID, scoring_group_number=2, scoring_method=ScoringGroupDTO.ScoringType_Pairs,
            sections=[section_b]))
        reply = DataConnectorClient("club-7", st.token, st.url).initialize(dto)
        assert reply.data_type == DataConnectorResponseData.OK, reply.serialized_data
        for letters in "AB":
            for t, (contract, declarer, tricks) in PLAYED[1].items():
                rec = result_record(table=t, board=1, ns_pair=t, ew_pair=t, dealer="N", vulnerability="None",
                                    contract=contract, declarer=declarer, tricks=tricks, score_ns=ns_score(1, t))
                rec["section"], rec["key"] = letters, rec["key"].replace("/A/", f"/{letters}/")
                code, doc = st.post_item("result", rec)
                assert code == 201, doc

        scoring = {dict(tags(g))["Section"]: dict(tags(g))["Scoring"]
                   for g in games(conforming_text(fetch(st, "/export/pbn")))}
        assert scoring == {"A": "IMP", "B": "MP"}

        raw = fetch(st, "/export/usebio")
        assert b"<!-- Section B (matchpoints) not scored: this file is scored by cross_imps" in raw
        root = usebio_tree(raw)
        assert root.findtext("EVENT/BOARD_SCORING_METHOD") == "CROSS_IMPS"
        a, b = root.findall("EVENT/SECTION")
        assert len(a.findall("PARTICIPANTS/PAIR")) == 8 and b.findall("PARTICIPANTS/PAIR") == []
        line = a.find("BOARD/TRAVELLER_LINE")
        assert float(line.findtext("NS_MATCH_POINTS")) == float(cross_expected()[1][pair_no(line.findtext("NS_PAIR_NUMBER"))])
    finally:
        st.stop()
