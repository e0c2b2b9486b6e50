"""Fractional IMPs in a team match when no side is an offender (a weighted score the record does
not tie to an offender, e.g. 2017 L82C, the director's error, where both sides are treated as
non-offending): the board keeps its exact weighted IMPs (A07: weight the IMPs), the match total
keeps the fraction, and the VPs are the WBF 2013 scale's at the margin rounded half away from
zero to whole IMPs, the scale being defined for whole margins (docs/laws/choices.md #44). A07's
"avrundas till förmån för ickefelände sidan" (`vp.round_imps_favouring`) needs an offender; with
none, half away from zero treats the two teams alike, so their VPs still add up to 20.

Expected VPs come from the WBF formula worked out in 40-digit decimals
(`test_vp_beyond_scale.wbf`), not from the module under test."""
from __future__ import annotations

from fractions import Fraction

import pytest

from shared_rules.scoring.team_match import score_match
from shared_rules.scoring.vp import WbfContinuousScale
from shared_rules.scoring.wbf_vp import WbfScale2013

from .test_vp_beyond_scale import wbf


def rec(score_ns: int | None, adjusted: dict | None = None) -> dict:
    return {"score_ns": score_ns, "vulnerability": "None", "adjusted": adjusted}


def weighted(*outcomes: tuple[str, int]) -> dict:
    """A weighted score by an appeals committee (under fsb-2007 a TD may not weight, 2007 L12C1c)."""
    return rec(None, {"kind": "weighted", "ruled_by": "committee",
                      "outcomes": [{"weight": w, "score_ns": s} for w, s in outcomes]})


FLAT = (rec(420), rec(420))
# The weighted example of the Swedish TD course (2007 L12C1c): 4S by NS +620 / -100 / -200, a third
# each, against -120 in the other room: 12, 1 and -2 IMPs, 3.67 to the home team.
A07 = (weighted(("1/3", 620), ("1/3", -100), ("1/3", -200)), rec(-120))
MINUS_4 = (rec(-140), rec(-10))
# Half 1NT+1 (+120, 5 IMPs against -50) and half 1NT-1 (-50, 0 IMPs): 2.5 to the home team.
HALF_5 = (weighted(("1/2", 120), ("1/2", -50)), rec(-50))


def test_2007_L12C1c_the_match_total_keeps_the_weighted_fraction_and_the_vps_its_rounded_margin():
    out = score_match({1: A07, 2: FLAT, 3: FLAT}, "fsb-2007", WbfScale2013())
    assert out.boards[1] is not None and out.boards[1].home == Fraction(11, 3)
    assert (out.home_imps, out.away_imps) == (Fraction(11, 3), Fraction(-11, 3))
    assert out.as_dict()["home_imps"] == 3.67  # as the course writes it, and as the files print it
    assert out.vp == wbf(4, 3)  # 3.67 IMPs is a 4-IMP win


def test_2017_L82C_a_third_of_an_imp_either_way_is_a_draw():
    """3.67 won on the weighted board, 4 lost on another: a margin of -1/3, rounded to 0."""
    out = score_match({1: A07, 2: MINUS_4, 3: FLAT}, "dbf-2017", WbfScale2013())
    assert out.home_imps == Fraction(-1, 3)
    assert (out.home_won, out.away_won) == (Fraction(11, 3), 4)
    assert out.vp == (10.0, 10.0)


@pytest.mark.parametrize("home_ns_first", [True, False], ids=["home gains 2.5", "visitors gain 2.5"])
def test_2017_L82C_half_an_imp_rounds_away_from_zero_for_both_teams_alike(home_ns_first):
    board = HALF_5 if home_ns_first else (HALF_5[1], HALF_5[0])
    out = score_match({1: board, 2: FLAT}, "dbf-2017", WbfScale2013())
    gain = Fraction(5, 2) if home_ns_first else Fraction(-5, 2)
    assert (out.home_imps, out.away_imps) == (gain, -gain)
    win, lose = wbf(3, 2)  # 2.5 is a 3-IMP win; -2.5 a 3-IMP loss, not a 2-IMP one
    assert out.vp == ((win, lose) if home_ns_first else (lose, win))
    assert out.vp is not None and sum(out.vp) == 20.0


@pytest.mark.parametrize("boards", [3, 8, 16, 64])
def test_L78D_no_fraction_of_an_imp_more_ever_gives_fewer_vps(boards):
    """Every margin in hundredths of an IMP, from the draw to past the blitz: the VPs never fall,
    and the two teams' add up to 20."""
    scale = WbfScale2013()
    top = int(15 * boards**0.5) + 2
    previous = 10.0
    for hundredths in range(0, top * 100):
        margin = Fraction(hundredths, 100)
        win, lose = scale.pair(margin, 0, boards)
        assert win >= previous and win + lose == 20.0, (boards, margin)
        previous = win


def test_L78D_why_the_margin_is_rounded_first():
    """The WBF's published scale raises some whole margins above the rounded formula so that no
    IMP is worth more than the one before; the formula at a fraction just past such a margin is
    lower: over 64 boards, 119 IMPs are worth 19.97 and the formula gives 119.01 IMPs 19.96."""
    assert WbfScale2013().winner_vp(119, 64) == 19.97 == wbf(119, 64)[0]
    assert WbfContinuousScale().winner_vp(119.01, 64) == 19.96
    assert WbfScale2013().winner_vp(Fraction(11901, 100), 64) == 19.97
