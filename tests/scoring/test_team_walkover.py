"""A walk-over in a team match (FSB L109A): the absent team gets 0 VP and loses by the scale's
blitz margin ("VP 0-25 med IMP-resultat som minimum för 0-25"), the other team gets the RA's
figure ("2) 18 VP" on the 25-0 scale; on the WBF 20-0 scale 14, as the bye of FSB 96B:
docs/laws/choices.md #45). The blitz margin is checked against the WBF's own published example
("in a 16-board match, the winners would get 15 VPs for a 20 IMP margin, but would need an
additional 40 IMPs to get the full 20 VPs", quoted in tests/scoring/test_vp_published_figures.py)
and against the formula 15 sqrt(boards) it is rounded from."""
from __future__ import annotations

import math
from fractions import Fraction

import pytest

from shared_rules.scoring import vp_scales
from shared_rules.scoring.byes import bye_team_vp, walkover_team_vp
from shared_rules.scoring.rules import RULES
from shared_rules.scoring.team_match import walkover_imps, walkover_imps_score, walkover_score

FSB = RULES["fsb-2007"]


def wbf() -> vp_scales.PairScale:
    named = vp_scales.named("wbf")
    assert named is not None
    return named.scale


def test_FSB_L109A_the_walkover_figure_is_the_byes_on_each_scale():
    assert walkover_team_vp(FSB.walkover_team_vp, "25-0") == 18.0  # "2) 18 VP"
    assert walkover_team_vp(FSB.walkover_team_vp, "wbf") == 14.0 == bye_team_vp(FSB.bye_team_vp, "wbf")
    with pytest.raises(ValueError, match="IMPs only"):
        walkover_team_vp(FSB.walkover_team_vp, "none")
    with pytest.raises(ValueError, match="walk-over on the wbf scale is not configured"):
        walkover_team_vp(RULES["dbf-2017"].walkover_team_vp, "wbf")  # the Danish sources fix none


def test_wbf_blitz_margin_is_the_wbf_example_for_16_boards():
    assert wbf().blitz(16) == 20 + 40
    assert wbf().pair(59, 0, 16)[0] < 20.0 == wbf().pair(60, 0, 16)[0]


@pytest.mark.parametrize("boards", [1, 4, 7, 8, 12, 16, 24, 32, 64])
def test_wbf_blitz_margin_is_where_the_scale_first_gives_20(boards):
    m = wbf().blitz(boards)
    assert wbf().pair(m, 0, boards) == (20.0, 0.0)
    assert wbf().pair(m - 1, 0, boards)[0] < 20.0
    assert abs(m - 15 * math.sqrt(boards)) <= 1  # B = 15 sqrt(boards), rounded to a whole margin


def test_FSB_L109A_the_absent_team_loses_by_the_blitz_with_no_vps():
    out = walkover_score(8, wbf(), (False, True), 14.0)
    blitz = Fraction(wbf().blitz(8))
    assert out.vp == (14.0, 0.0)
    assert (out.home_won, out.away_won, out.home_imps, out.away_imps) == (blitz, 0, blitz, -blitz)
    assert out.boards == {} and out.scored == 0
    home_absent = walkover_score(8, wbf(), (True, False), 12.5)
    assert home_absent.vp == (0.0, 12.5) and home_absent.away_won == blitz and home_absent.home_imps == -blitz


def test_FSB_L109A_both_teams_responsible_both_count_as_giving_the_walkover():
    """"I fall där båda lagen är medansvariga [...] räknas båda lagen som walk-over-lämnande"."""
    out = walkover_score(8, wbf(), (True, True), 14.0)
    blitz = Fraction(wbf().blitz(8))
    assert out.vp == (0.0, 0.0)
    assert (out.home_won, out.away_won, out.home_imps, out.away_imps) == (0, 0, -blitz, -blitz)


@pytest.mark.parametrize("absent, vp, says", [((False, False), 14.0, "the team that did not appear"),
                                              ((True, False), 20.01, "0 to the scale's 20"),
                                              ((True, False), -1.0, "0 to the scale's 20")])
def test_a_walkover_without_an_absent_team_or_beyond_the_scale_is_refused(absent, vp, says):
    with pytest.raises(ValueError, match=says):
        walkover_score(8, wbf(), absent, vp)


@pytest.mark.parametrize("profile", ["fsb-2007", "dbf-2017"])
def test_2007_L86A_2017_12C2b_an_imps_only_walkover_is_3_imps_a_board_each_way(profile):
    """docs/laws/choices.md #46: Avg+ to the team that appeared, Avg- to the absent one, on each
    board: "plus 3 IMP respektive minus 3 IMP" (2007 L86A), "+3 imp, henholdsvis -3 imp" (2017
    §12C2b)."""
    assert walkover_imps(4, RULES[profile]) == (12, 12)
    assert walkover_imps(16, RULES[profile]) == (48, 48)
    with pytest.raises(ValueError, match="boards to play"):
        walkover_imps(0, RULES[profile])


def test_FSB_L109A_an_imps_only_walkover_scores_no_vp_and_no_board():
    away_out = walkover_imps_score((False, True), Fraction(12), Fraction(12))
    assert (away_out.home_won, away_out.away_won, away_out.home_imps, away_out.away_imps) == (12, 0, 12, -12)
    assert away_out.vp is None and away_out.boards == {}
    home_out = walkover_imps_score((True, False), Fraction(20), Fraction(20))
    assert (home_out.home_won, home_out.away_won, home_out.home_imps, home_out.away_imps) == (0, 20, -20, 20)
    # both absent: each Avg- on each board, won by nobody (choices #37)
    both = walkover_imps_score((True, True), Fraction(12), Fraction(12))
    assert (both.home_won, both.away_won, both.home_imps, both.away_imps) == (0, 0, -12, -12)
    with pytest.raises(ValueError, match="the team that did not appear"):
        walkover_imps_score((False, False), Fraction(12), Fraction(12))
    with pytest.raises(ValueError, match="0 or more"):
        walkover_imps_score((False, True), Fraction(-1), Fraction(12))
