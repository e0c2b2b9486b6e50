"""Team scores at the edges of the VP scale (2007 L78D / 2017 §78D: the conditions name the scale):
margins beyond the WBF scale's top, matches of few boards, VP deductions that take a team below
nothing (FSB L109B-D), and the boards a scale counts. Every expected VP is worked out here from
the WBF's published formula (The New WBF IMP to VP Scales, WBF Scoring Panel: V = 10 + 10 (1 -
t^(3I/X)) / (1 - t^3), t = (sqrt 5 - 1) / 2, X = 15 sqrt N, "N is the number of boards played in
the current match", two decimals, no IMP worth more VPs than the one before), in decimal
arithmetic of 40 digits rather than the module's binary floats."""
from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction

import pytest

from shared_rules.scoring.team_match import deduct_vp, score_match, team_vp
from shared_rules.scoring.teams import team_match
from shared_rules.scoring.vp import WbfContinuousScale
from shared_rules.scoring.wbf_vp import WbfScale2013

CENT = Decimal("0.01")


def wbf_table(boards: int) -> list[Decimal]:
    """The winner's VPs for margins 0, 1, 2, ... up to two past the blitz, by the WBF's formula."""
    with localcontext() as ctx:
        ctx.prec = 40
        t = (Decimal(5).sqrt() - 1) / 2
        blitz = 15 * Decimal(boards).sqrt()
        top = int(blitz) + 3

        def raw(margin: int) -> Decimal:
            if margin >= blitz:
                return Decimal(20)
            v = 10 + 10 * (1 - t ** (3 * Decimal(margin) / blitz)) / (1 - t ** 3)
            return min(Decimal(20), v.quantize(CENT, ROUND_HALF_UP))

        table = [raw(m) for m in range(top)]
    changed = True
    while changed:  # the report's rule: each extra IMP is worth no more VPs than the one before
        changed = False
        for i in range(2, len(table)):
            if table[i] - table[i - 1] > table[i - 1] - table[i - 2]:
                table[i - 1] += CENT
                changed = True
    return table


def wbf(margin: int, boards: int) -> tuple[float, float]:
    """(VPs of the side `margin` IMPs ahead, VPs of the other side)."""
    table = wbf_table(boards)
    win = table[min(abs(margin), len(table) - 1)]
    return float(win), float(20 - win)


@pytest.mark.parametrize("boards", [1, 2, 3, 4, 6, 8, 16, 24])
def test_L78D_WBF_scale_beyond_its_top_is_20_to_0_and_never_more(boards):
    blitz = 15 * math.sqrt(boards)
    scale = WbfScale2013()
    for margin in (math.ceil(blitz), math.ceil(blitz) + 1, 10 * math.ceil(blitz), 1000):
        assert scale.pair(margin, 0, boards) == (20.0, 0.0), margin
        assert scale.pair(0, margin, boards) == (0.0, 20.0), margin
        assert team_vp(scale, Fraction(margin), boards) == 20.0
        assert team_vp(scale, Fraction(-margin), boards) == 0.0
        assert WbfContinuousScale().winner_vp(margin, boards) == 20.0


@pytest.mark.parametrize("boards", [1, 2, 3, 4, 5, 6, 7, 8])
def test_L78D_WBF_scale_for_a_match_of_few_boards_is_the_published_formula(boards):
    scale = WbfScale2013()
    for margin in range(0, int(15 * math.sqrt(boards)) + 4):
        want = wbf(margin, boards)
        assert scale.pair(margin, 0, boards) == (want if margin else (10.0, 10.0)), (boards, margin)
        assert scale.pair(0, margin, boards) == (want[::-1] if margin else (10.0, 10.0)), (boards, margin)


def test_L78D_a_match_of_one_board_won_by_15_imps_is_a_blitz():
    # X = 15 sqrt 1 = 15: the one-board match's blitz, 20 - 0; one IMP less is not
    assert WbfScale2013().pair(15, 0, 1) == (20.0, 0.0)
    assert WbfScale2013().pair(14, 0, 1) == wbf(14, 1) and wbf(14, 1)[0] < 20


def test_L78D_a_scale_needs_a_match_of_at_least_one_board():
    with pytest.raises(ValueError, match="number of boards"):
        WbfScale2013().pair(3, 0, 0)


def test_FSB_L109D_a_vp_deduction_comes_off_the_offender_alone_and_may_take_it_below_nothing():
    # FSB L109B: the visitors sat down 7 minutes late, 2 VP off (1 VP per period of 5 minutes
    # begun); they had lost by a blitz: 0 - 2 = -2. The home team keeps its 20 (L109D).
    vp = wbf(60, 16)
    assert vp == (20.0, 0.0)
    assert deduct_vp(vp, away=2) == (20.0, -2.0)
    # a close match: 13.28 less a 1-VP deduction is 12.28, the other side's 6.72 untouched
    close = wbf(6, 4)
    assert close == (13.28, 6.72)
    assert deduct_vp(close, home=1) == (12.28, 6.72)
    assert deduct_vp(close, home=Fraction(1, 2), away=0.25) == (12.78, 6.47)
    with pytest.raises(ValueError, match="taken off"):
        deduct_vp(close, home=-1)


def test_FSB_L109D_a_deduction_after_a_scored_match():
    def rec(score_ns: int) -> dict:
        return {"score_ns": score_ns, "vulnerability": "None", "adjusted": None}

    # home +10 on board 1 (420 v -50... 470 = 10 IMPs), nothing on board 2: a 10-IMP win over 2 boards
    out = score_match({1: (rec(420), rec(-50)), 2: (rec(110), rec(110))}, "fsb-2007", WbfScale2013())
    assert out.vp == wbf(10, 2)
    assert deduct_vp(out.vp, home=3) == (round(wbf(10, 2)[0] - 3, 2), wbf(10, 2)[1])


def test_L78D_the_scale_counts_the_boards_played_not_a_board_without_a_score():
    # 3 boards played (+12, -7, 0) and a fourth without a score or adjustment: the VPs of a
    # 3-board match won by 5 ("N is the number of boards played in the current match")
    played = [(620, -100), (-100, 170), (420, 420)]
    out = team_match([*played, (None, 50)], scale=WbfContinuousScale())
    assert out["home_imps"] == 5.0
    five = WbfContinuousScale().winner_vp(5, 3)
    assert out["vp"] == (five, round(20 - five, 2))
    assert five != WbfContinuousScale().winner_vp(5, 4)
    won = team_match([(620, 170), (420, 420), (None, None)], scale=WbfContinuousScale())
    assert won["home_imps"] == 10.0
    assert won["vp"] == (WbfContinuousScale().winner_vp(10, 2), round(20 - WbfContinuousScale().winner_vp(10, 2), 2))
    # nothing played: no VPs at all (no scale of no boards)
    assert "vp" not in team_match([(None, None)], scale=WbfContinuousScale())
