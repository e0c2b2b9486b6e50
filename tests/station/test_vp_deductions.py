"""The TD's VP deductions in a team match at the station (FSB L109B lateness, L109C time
overrun, L109D: off the offending team alone; docs/laws/choices.md #40), and the VP scale the
event names (`match scale`, the profile's `vp_scale`). The VPs before a deduction are the WBF
2013 20-0 scale written out in team_play.py (never shared_rules); bad input is refused with a
clear error and nothing written."""
from __future__ import annotations

import json
from fractions import Fraction

import pytest

from station import match_deductions, match_store
from station.matches import MatchError
from station.store import Store

from .conftest import result_record
from .team_play import imp, wbf_vp

GUID = "D" * 32
# Team 1 sits NS at table 1 (open room), team 2 NS at table 2 (closed room), boards 1-4.
OPEN_NS = {1: 420, 2: 620, 3: -100, 4: 140}
CLOSED_NS = {1: -50, 2: 620, 3: 110, 4: 140}


def session(store: Store, method: int = 50) -> None:
    with store.transaction() as tx:
        tx.execute("INSERT INTO dc_sections (session_guid, section, scoring_group, scoring_method, game_type) "
                   "VALUES (?, 'A', 1, ?, 30)", (GUID, method))
        for table, ns, ew in ((1, 1, 2), (2, 2, 1)):
            tx.execute("INSERT INTO dc_rounds (session_guid, section, table_no, round_no, low_board, high_board, "
                       "pair_ns, pair_ew) VALUES (?, 'A', ?, 1, 1, 4, ?, ?)", (GUID, table, ns, ew))
    match_store.set_teams(store, GUID, "A")


def results(boards=(1, 2, 3, 4)) -> dict:
    out = []
    for b in boards:
        out.append(result_record(table=1, board=b, score_ns=OPEN_NS[b], ns_pair=1, ew_pair=2))
        out.append(result_record(table=2, board=b, score_ns=CLOSED_NS[b], ns_pair=2, ew_pair=1))
    return match_store.index_results(out)


def scored(store: Store) -> match_store.ScoredMatch:
    (m,) = match_store.session_matches(store, GUID).matches
    return match_store.score(store, GUID, m, results(), "fsb-2007")


@pytest.fixture
def store():
    s = Store(":memory:")
    session(s)
    yield s
    s.close()


def margin() -> int:
    """Team 1's margin over team 2 from the scores above (L78B, team_play.imp): +10, 0, -5, 0."""
    return sum(imp(OPEN_NS[b] - CLOSED_NS[b]) for b in OPEN_NS)


def test_FSB_L109D_a_deduction_comes_off_the_offending_team_alone(store):
    before = wbf_vp(margin(), 4)
    assert scored(store).score.vp == before
    ident = scored(store).match.ident
    match_deductions.add(store, GUID, ident, "2", "1", "late 1-5 minutes", "FSB L109B")
    s = scored(store)
    assert s.score.vp == (before[0], float(Fraction(str(before[1])) - 1))  # team 1 keeps its VPs
    match_deductions.add(store, GUID, ident, 1, "0,5", "slow play", "FSB L109C")
    s = scored(store)
    assert s.score.vp == (float(Fraction(str(before[0])) - Fraction(1, 2)), float(Fraction(str(before[1])) - 1))
    assert sorted(x.text() for x in s.deductions) == ["Team 1 -0.5 VP (slow play; FSB L109C)",
                                                      "Team 2 -1 VP (late 1-5 minutes; FSB L109B)"]
    assert match_deductions.remove(store, GUID, ident, 2) == 1
    assert scored(store).score.vp == (float(Fraction(str(before[0])) - Fraction(1, 2)), before[1])


def test_FSB_L109B_a_blitzed_team_docked_goes_below_nothing(store):
    """choices #40: no text stops a deduction at 0 VPs. 4 boards: the blitz is 30 IMPs."""
    ident = scored(store).match.ident
    match_deductions.add(store, GUID, ident, 2, "20", "withdrew", "2007 L90")  # the scale's top: allowed
    s = scored(store)
    assert s.score.vp[1] == float(Fraction(str(wbf_vp(margin(), 4)[1])) - 20) < 0


def test_a_deduction_before_the_match_is_complete_waits_for_the_vps(store):
    ident = scored(store).match.ident
    match_deductions.add(store, GUID, ident, 1, "2", "late 5-10 minutes", "FSB L109B")
    (m,) = match_store.session_matches(store, GUID).matches
    s = match_store.score(store, GUID, m, results((1, 2)), "fsb-2007")
    assert s.score.vp is None and [x.team for x in s.deductions] == [1]


@pytest.mark.parametrize("args, says", [
    (("A9-A8:1v2", "1", "1"), "no match 'A9-A8:1v2' in this session"),
    ((None, "3", "1"), "team 3 does not play in match"),
    ((None, "one", "1"), "the team is its number"),
    ((None, "1", "one"), "a VP deduction is a number of VPs"),
    ((None, "1", "nan"), "a VP deduction is a number of VPs"),
    ((None, "1", "1e3"), "a VP deduction is a number of VPs"),
    ((None, "1", ""), "a VP deduction is a number of VPs"),
    ((None, "1", "-1"), "0 or more"),
    ((None, "1", "0.125"), "at most two decimals"),
    ((None, "1", "20.01"), "more than the WBF 2013 20-0 scale's top of 20"),
])
def test_bad_deductions_are_refused_and_change_nothing(store, args, says):
    ident = scored(store).match.ident
    rows = store.query("SELECT entry, payload FROM team_matches")
    with pytest.raises(MatchError) as e:
        match_deductions.add(store, GUID, args[0] or ident, args[1], args[2], "late", "FSB L109B")
    assert says in str(e.value), str(e.value)
    assert store.query("SELECT entry, payload FROM team_matches") == rows
    assert scored(store).score.vp == wbf_vp(margin(), 4)


def test_deductions_together_may_not_pass_the_scale_top_and_need_a_reason_and_law(store):
    ident = scored(store).match.ident
    match_deductions.add(store, GUID, ident, 1, "15", "late", "FSB L109B")
    with pytest.raises(MatchError, match="would lose 21 VP"):
        match_deductions.add(store, GUID, ident, 1, "6", "late again", "FSB L109B")
    for reason, law in (("", "FSB L109B"), ("late", " ")):
        with pytest.raises(MatchError, match="the reason and the Law"):
            match_deductions.add(store, GUID, ident, 1, "1", reason, law)
    assert [x.vp for x in match_deductions.of_session(store, GUID)] == [15]


def test_an_imps_only_match_has_no_vps_to_deduct():
    s = Store(":memory:")
    try:
        session(s, method=40)  # Data Connector ScoringType_TeamImps
        ident = scored(s).match.ident
        with pytest.raises(MatchError, match="scored in IMPs only"):
            match_deductions.add(s, GUID, ident, 1, "1", "late", "FSB L109B")
        assert match_deductions.of_session(s, GUID) == []
    finally:
        s.close()


def test_a_damaged_stored_deduction_is_none_and_scores_as_before(store):
    ident = scored(store).match.ident
    with store.transaction() as tx:
        for n, payload in enumerate((json.dumps({"kind": "deduction", "match": ident, "team": 1, "vp": "x"}),
                                     json.dumps({"kind": "deduction", "match": ident, "team": "1", "vp": "1",
                                                 "reason": "r", "law": "l"}), "not json")):
            tx.execute("INSERT INTO team_matches (session_guid, entry, payload, created_at) VALUES (?, ?, ?, ?)",
                       (GUID, f"deduction/{ident}/1/{n + 1}", payload, "2026-11-28T00:00:00Z"))
    assert match_deductions.of_session(store, GUID) == []
    assert scored(store).score.vp == wbf_vp(margin(), 4)
    assert len(match_store.session_matches(store, GUID).matches) == 1


def test_2007_L78D_the_scale_the_event_names(store):
    """The profile names the scale (`vp_scale`, fsb-2007 and dbf-2017: the WBF 2013 scale, no
    federation table being found); the TD's `match scale none` is IMPs only, `profile` goes back."""
    from shared_rules.profiles import load

    assert load("fsb-2007").vp_scale == load("dbf-2017").vp_scale == "wbf"
    (m,) = match_store.session_matches(store, GUID).matches
    assert match_store.scale_for(store, GUID, m) == "wbf"
    store.set_setting("team_vp_scale", "none")
    assert scored(store).scale == "none" and scored(store).score.vp is None
    store.set_setting("team_vp_scale", "")
    assert scored(store).score.vp == wbf_vp(margin(), 4)


def test_match_scale_names_a_scale_a_source_gives_or_none_and_a_bad_name_changes_nothing(tmp_path, capsys):
    """`python -m station match scale`: wbf, none (IMPs only) or profile (the profile's own)."""
    from station.match_cli import main

    db = str(tmp_path / "station.db")
    s = Store(db)
    session(s)
    s.close()
    base = ["--db", db, "--session", GUID, "scale"]
    assert main([*base, "sbf-25-0"]) == 2
    assert "match scale takes one of wbf, none or profile" in capsys.readouterr().err
    s = Store(db)
    assert s.setting("team_vp_scale") is None
    s.close()
    assert main([*base, "none"]) == 0 and "IMPs only" in capsys.readouterr().out
    s = Store(db)
    assert scored(s).scale == "none" and scored(s).score.vp is None
    s.close()
    assert main([*base, "profile"]) == 0 and "the WBF 2013 20-0 VP scale" in capsys.readouterr().out
    s = Store(db)
    assert scored(s).score.vp == wbf_vp(margin(), 4)
    s.close()
