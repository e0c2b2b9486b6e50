"""Byes (FSB 96B) and walk-overs (FSB L109A) in a team event at the station, on its store: a team
without an opponent in a round gets the bye's VPs on the scale the round's matches are scored on
(the event's own figure wins over the profile's; dbf-2017 has none and scores no bye until the TD
gives one), and a walk-over gives the absent team 0 VP and a blitz loss, the other team the
scale's figure or the TD's. The VPs and the blitz margin are the WBF 2013 scale written out in
team_play.py (never shared_rules). Bad input is refused with a clear error and nothing written.
Played through the running station over HTTP in test_team_byes_event.py."""
from __future__ import annotations

import json
from fractions import Fraction

import pytest

from station import match_byes, match_store, match_walkovers
from station.matches import MatchError
from station.notice_texts import say
from station.notices import NoticeCode
from station.store import Store

from .team_play import _wbf_table

GUID = "B" * 32


def movement(store: Store, rounds: dict[int, list[tuple[int, int, int]]], method: int = 51) -> None:
    """A teams section A: per round, (table, team NS, team EW) on boards 1-4 (0: nobody)."""
    with store.transaction() as tx:
        tx.execute("INSERT INTO dc_sections (session_guid, section, scoring_group, scoring_method, game_type) "
                   "VALUES (?, 'A', 1, ?, 30)", (GUID, method))
        for rnd, rows in rounds.items():
            for table, ns, ew in rows:
                tx.execute("INSERT INTO dc_rounds (session_guid, section, table_no, round_no, low_board, "
                           "high_board, pair_ns, pair_ew) VALUES (?, 'A', ?, ?, 1, 4, ?, ?)",
                           (GUID, table, rnd, ns, ew))


# Three teams, two rounds: team 3 sits at table 3 without opponents in round 1, team 2 is not
# seated in round 2.
THREE = {1: [(1, 1, 2), (2, 2, 1), (3, 3, 0)], 2: [(1, 1, 3), (2, 3, 1)]}


def open_store(profile: str = "fsb-2007", rounds=None, method: int = 51) -> Store:
    s = Store(":memory:")
    s.set_setting("profile", profile)
    movement(s, rounds or THREE, method)
    return s


def rows(store: Store) -> list:
    return store.query("SELECT entry, payload FROM team_matches ORDER BY entry")


def blitz(boards: int) -> int:
    """The smallest margin the WBF 2013 scale gives 20 VP for, from team_play's own table."""
    return next(m for m, vp in enumerate(_wbf_table(boards)) if vp >= 20)


def test_FSB96B_a_team_without_an_opponent_in_a_round_gets_the_bye_on_the_wbf_scale():
    s = open_store()
    got = match_byes.session_byes(s, GUID)
    assert [(b.team, b.rounds, b.source, b.scale, b.vp) for b in got.byes] == \
        [(3, (1,), "movement", "wbf", 14), (2, (2,), "movement", "wbf", 14)]  # choices #43
    assert got.problems == []
    assert got.byes[0].text() == "Team 3 bye in round 1: 14 VP (FSB 96B)"


def test_FSB96B_the_halves_of_one_match_are_one_bye():
    """Rounds 1 and 2 are the two halves of team 1 v team 2: team 3's bye is one, not two."""
    s = open_store(rounds={1: [(1, 1, 2), (2, 2, 1)], 2: [(1, 2, 1), (2, 1, 2)], 3: [(1, 1, 3), (2, 3, 1)]})
    assert [(b.team, b.rounds) for b in match_byes.session_byes(s, GUID).byes] == [(3, (1, 2)), (2, (3,))]


def test_dbf_2017_has_no_bye_figure_so_the_bye_waits_for_the_td():
    s = open_store("dbf-2017")
    got = match_byes.session_byes(s, GUID)
    assert [b.vp for b in got.byes] == [None, None]
    (notice,) = got.problems
    assert notice.code is NoticeCode.BYE_NO_VALUE
    assert "not scored until the TD gives them" in str(notice) and "match byevp VP" in str(notice)
    assert "räknas inte förrän TL anger dem" in say(notice, "sv")
    assert "regnes ikke, før TL angiver dem" in say(notice, "da")
    assert match_byes.set_value(s, GUID, "12,5") == (12.5, "wbf")
    got = match_byes.session_byes(s, GUID)
    assert [b.vp for b in got.byes] == [12.5, 12.5] and got.problems == []


def test_the_events_own_bye_wins_over_the_profiles_and_profile_goes_back():
    s = open_store("fsb-2007")
    match_byes.set_value(s, GUID, "12")
    assert [b.vp for b in match_byes.session_byes(s, GUID).byes] == [12, 12]
    assert match_byes.set_value(s, GUID, "profile") is None
    assert [b.vp for b in match_byes.session_byes(s, GUID).byes] == [14, 14]


def test_an_events_bye_given_on_another_scale_is_not_used():
    s = open_store("fsb-2007")
    match_store.put_entry(s, GUID, "bye-vp", {"kind": "bye_vp", "scale": "25-0", "vp": "18"})
    got = match_byes.session_byes(s, GUID)
    assert [b.vp for b in got.byes] == [None, None]
    assert [p.code for p in got.problems] == [NoticeCode.BYE_VALUE_OTHER_SCALE]
    assert "given on the 25-0 scale, the matches are scored on wbf" in str(got.problems[0])


def test_an_imps_only_event_has_no_vps_for_a_bye():
    s = open_store("dbf-2017", method=40)
    got = match_byes.session_byes(s, GUID)
    assert [(b.scale, b.vp) for b in got.byes] == [("none", None), ("none", None)] and got.problems == []
    with pytest.raises(MatchError, match="scored in IMPs only"):
        match_byes.set_value(s, GUID, "12")
    assert rows(s) == []


def test_the_td_marks_a_bye_for_a_team_the_movement_does_not_seat():
    s = open_store()
    bye = match_byes.add(s, GUID, "4", "1")
    assert (bye.team, bye.rounds, bye.source, bye.vp) == (4, (1,), "td", 14)
    assert (4, (1,)) in [(b.team, b.rounds) for b in match_byes.session_byes(s, GUID).byes]
    assert match_byes.remove(s, GUID, 4, 1) == 1
    assert 4 not in [b.team for b in match_byes.session_byes(s, GUID).byes]


@pytest.mark.parametrize("team, rnd, says", [
    ("1", "1", "team 1 plays in round 1: a bye is for a team without an opponent (FSB 96B)"),
    ("3", "2", "team 3 plays in round 2"),
    ("3", "1", "team 3 already has a bye in round 1 (from the movement)"),
    ("4", "9", "movement of this session has no round 9"),
    ("four", "1", "the team's number and the round's"),
    ("0", "1", "start at 1"),
])
def test_a_bad_bye_is_refused_and_changes_nothing(team, rnd, says):
    s = open_store()
    before = rows(s)
    with pytest.raises(MatchError) as e:
        match_byes.add(s, GUID, team, rnd)
    assert says in str(e.value), str(e.value)
    assert rows(s) == before


@pytest.mark.parametrize("value, says", [("20.01", "at most the WBF 2013 20-0 scale's top of 20"),
                                         ("-1", "a number of VPs such as 14"), ("x", "a number of VPs"),
                                         ("nan", "a number of VPs"), ("12.345", "at most two decimals")])
def test_a_bye_value_outside_the_scale_is_refused_and_changes_nothing(value, says):
    s = open_store("dbf-2017")
    with pytest.raises(MatchError, match=says):
        match_byes.set_value(s, GUID, value)
    assert rows(s) == []
    assert [b.vp for b in match_byes.session_byes(s, GUID).byes] == [None, None]


def ident(s: Store, home: int, away: int) -> str:
    return next(m.ident for m in match_store.session_matches(s, GUID).matches if (m.home, m.away) == (home, away))


def scored(s: Store, home: int, away: int) -> match_store.ScoredMatch:
    m = next(m for m in match_store.session_matches(s, GUID).matches if (m.home, m.away) == (home, away))
    return match_store.score(s, GUID, m, {}, s.setting("profile"))


def test_FSB_L109A_a_walkover_gives_the_absent_team_nothing_and_a_blitz_loss():
    s = open_store()
    w = match_walkovers.add(s, GUID, ident(s, 1, 2), "2")
    assert (w.absent, w.vp, w.by_td) == ((2,), 14, False)  # choices #45: 18 of 25-0 is 14 of 20-0
    got = scored(s, 1, 2)
    assert got.score.vp == (14.0, 0.0) and got.walkover == w
    assert (got.score.home_won, got.score.away_won) == (blitz(4), 0)
    assert (got.score.home_imps, got.score.away_imps) == (blitz(4), -blitz(4))
    assert match_walkovers.describe(w) == "walk-over: Team 2 did not appear (FSB L109A); the other team 14 VP"


def test_FSB_L109A_the_tds_figure_and_both_teams_absent():
    s = open_store("dbf-2017")
    with pytest.raises(MatchError, match="walk-over on the wbf scale is not configured.*give the VPs"):
        match_walkovers.add(s, GUID, ident(s, 1, 2), "1")
    assert rows(s) == []
    match_walkovers.add(s, GUID, ident(s, 1, 2), "1", "15.5")  # e.g. B's average in its other matches
    assert scored(s, 1, 2).score.vp == (0.0, 15.5)
    match_walkovers.add(s, GUID, ident(s, 1, 3), "both", "14")
    got = scored(s, 1, 3)
    assert got.score.vp == (0.0, 0.0) and (got.score.home_imps, got.score.away_imps) == (-blitz(4), -blitz(4))
    assert match_walkovers.remove(s, GUID, ident(s, 1, 3)) == 1
    assert scored(s, 1, 3).score.vp is None and scored(s, 1, 3).walkover is None


def test_FSB_L109D_a_deduction_still_comes_off_a_walkover():
    from station import match_deductions

    s = open_store()
    match_walkovers.add(s, GUID, ident(s, 1, 2), "2")
    match_deductions.add(s, GUID, ident(s, 1, 2), 1, "1", "late", "FSB L109B")
    assert scored(s, 1, 2).score.vp == (13.0, 0.0)


@pytest.mark.parametrize("match, team, vp, says", [
    ("A9-A8:1v2", "2", None, "no match 'A9-A8:1v2' in this session"),
    (None, "3", None, "team 3 does not play in match"),
    (None, "two", None, "is its number (1 or 2) or both"),
    (None, "2", "20.5", "at most the WBF 2013 20-0 scale's top of 20"),
    (None, "2", "-3", "a number of VPs"),
])
def test_a_bad_walkover_is_refused_and_changes_nothing(match, team, vp, says):
    s = open_store()
    with pytest.raises(MatchError) as e:
        match_walkovers.add(s, GUID, match or ident(s, 1, 2), team, vp)
    assert says in str(e.value), str(e.value)
    assert rows(s) == [] and scored(s, 1, 2).walkover is None


@pytest.mark.parametrize("profile", ["fsb-2007", "dbf-2017"])
def test_2007_L12C2_L86A_2017_12C2_an_imps_only_walkover_is_avg_plus_and_minus_on_each_board(profile):
    """docs/laws/choices.md #46: no VPs and no blitz margin in a match scored in IMPs only; each of
    its 4 boards is Avg+ (+3 IMPs) to the team that appeared and Avg- (-3) to the absent one."""
    s = open_store(profile, method=40)
    w = match_walkovers.add(s, GUID, ident(s, 1, 2), "2")
    assert (w.absent, w.imps, w.by_td, w.scale) == ((2,), (12, 12), False, "none")
    got = scored(s, 1, 2)
    assert got.walkover == w and got.score.vp is None and got.score.boards == {}
    assert (got.score.home_won, got.score.away_won, got.score.home_imps, got.score.away_imps) == (12, 0, 12, -12)
    assert match_walkovers.describe(w) == ("walk-over: Team 2 did not appear (FSB L109A); the other team wins 12 "
                                           "IMPs, the absent team loses 12 (Avg+ / Avg- on each board: 2007 "
                                           "L12C2, L86A; 2017 §12C2)")
    # both absent: each Avg- on each board, won by nobody (choices #37)
    match_walkovers.add(s, GUID, ident(s, 1, 3), "both")
    got = scored(s, 1, 3)
    assert (got.score.home_won, got.score.away_won, got.score.home_imps, got.score.away_imps) == (0, 0, -12, -12)
    assert match_walkovers.describe(got.walkover).endswith("each team loses 12 IMPs (Avg+ / Avg- on each board: "
                                                           "2007 L12C2, L86A; 2017 §12C2)")


def test_FSB_L109A_2017_12C2d_the_tds_margin_in_an_imps_only_match():
    """The organiser's own figure (FSB L109A "andra straffsatser", 2017 §12C2d): the TD's margin,
    a gain for the team that appeared and as large a loss for the absent one (for each, both absent)."""
    s = open_store("dbf-2017", method=40)
    w = match_walkovers.add(s, GUID, ident(s, 1, 2), "1", imps="20,5")
    assert (w.imps, w.by_td) == ((Fraction("20.5"), Fraction("20.5")), True)
    got = scored(s, 1, 2)
    assert (got.score.home_won, got.score.away_won, got.score.home_imps, got.score.away_imps) == \
        (0, Fraction("20.5"), Fraction("-20.5"), Fraction("20.5"))
    assert match_walkovers.describe(w) == ("walk-over: Team 1 did not appear (FSB L109A); the other team wins "
                                           "20.50 IMPs, the absent team loses 20.50 (the TD's figure)")
    assert match_walkovers.remove(s, GUID, ident(s, 1, 2)) == 1 and scored(s, 1, 2).walkover is None


@pytest.mark.parametrize("method, team, vp, imps, says", [
    (40, "2", "14", None, "scored in IMPs only: a walk-over there has no VPs; give the IMPs"),
    (40, "2", None, "0", "more than 0 and at most 96 IMPs (24 a board"),
    (40, "2", None, "96.01", "more than 0 and at most 96 IMPs"),
    (40, "2", None, "-3", "a number of IMPs such as 12"),
    (40, "2", None, "many", "a number of IMPs such as 12"),
    (40, "2", None, "1.234", "at most two decimals"),
    (40, "3", None, "12", "team 3 does not play in match"),
    (51, "2", None, "12", "scored in VPs: the walk-over gives the team that appeared VPs (--vp)"),
])
def test_a_bad_imps_walkover_is_refused_and_changes_nothing(method, team, vp, imps, says):
    s = open_store(method=method)
    with pytest.raises(MatchError) as e:
        match_walkovers.add(s, GUID, ident(s, 1, 2), team, vp, imps)
    assert says in str(e.value), str(e.value)
    assert rows(s) == [] and scored(s, 1, 2).walkover is None


def test_the_tds_margin_is_at_most_24_imps_a_board():
    s = open_store(method=40)
    assert match_walkovers.add(s, GUID, ident(s, 1, 2), "2", imps="96").imps == (96, 96)


def test_damaged_stored_byes_and_walkovers_are_none():
    s = open_store()
    name = ident(s, 1, 2)
    with s.transaction() as tx:
        for entry, payload in (("bye/5/1", json.dumps({"kind": "bye", "team": "5", "round": 1})),
                               ("bye/6/1", "not json"),
                               ("walkover/x", json.dumps({"kind": "walkover", "match": name, "absent": 2,
                                                          "vp": "14", "scale": "wbf"})),
                               ("walkover/y", json.dumps({"kind": "walkover", "match": name, "absent": [2],
                                                          "vp": "x", "scale": "wbf"})),
                               ("walkover/z", json.dumps({"kind": "walkover", "match": name, "absent": [2],
                                                          "vp": "0", "scale": "none"})),
                               ("walkover/w", json.dumps({"kind": "walkover", "match": name, "absent": [2],
                                                          "vp": "0", "scale": "none", "imps": ["12", "-1"]})),
                               ("bye-vp", json.dumps({"kind": "bye_vp", "vp": "many", "scale": "wbf"}))):
            tx.execute("INSERT INTO team_matches (session_guid, entry, payload, created_at) VALUES (?, ?, ?, ?)",
                       (GUID, entry, payload, "2026-11-28T00:00:00Z"))
    assert [(b.team, b.vp) for b in match_byes.session_byes(s, GUID).byes] == [(3, 14), (2, 14)]
    assert match_walkovers.of_session(s, GUID) == [] and scored(s, 1, 2).walkover is None
    assert len(match_store.session_matches(s, GUID).matches) == 2
