"""The WBF 2013 20-0 scale against figures published for it, typed from those texts (not worked
out from the formula, which tests/scoring/test_vp_beyond_scale.py does): each team's VPs for
several margins of matches of 14, 16 and 20 boards, the draw and the blitz included, through the
scale the event names (`vp_scales`, 2007 L78D / 2017 §78D).

Sources:
- Ron Klinger, IBPA Bulletin, May 2013, on the 14-board scale used at the NEC Cup: "IMPs 1 and
  2 were worth 0.33 VPs each, IMPs 3 and 4 were worth 0.31 VPs each, IMP 5 = 0.30 VPs, IMPs 6
  and 7 = 0.29 VPs", and "2 IMPs = 10.66-9.34". (The same article gives "12.16-7.84" for 7 IMPs
  as a 16-board figure; it is the 14-board one its own increments add up to, so it is taken as
  such here.)
- The WBF's own example (quoted by Peninsula Bridge Club, "VPs explained"): "in a 16-board
  match, the winners would get 15 VPs for a 20 IMP margin, but would need an additional 40 IMPs
  to get the full 20 VPs".
- Bridgeclub Star (Netherlands), "Continue WP-schaal ingevoerd", the WBF continuous scale for
  20 boards: "0 IMP: 10,00 WP, 1 IMP: 10,28 WP, 2 IMP: 10,55 WP".

No Swedish (SBF) or Danish (DBf) table was found to compare (docs/laws/choices.md #41).
"""
from __future__ import annotations

from fractions import Fraction

import pytest

from shared_rules.scoring import vp_scales
from shared_rules.scoring.team_match import score_match


def pair(margin: int, boards: int) -> tuple[float, float]:
    named = vp_scales.named("wbf")
    assert named is not None
    return named.scale.pair(margin, 0, boards)


# Klinger's 14-board increments, added up from the draw: 10.33, 10.66, 10.97, 11.28, 11.58, 11.87, 12.16.
KLINGER_14 = ["0.33", "0.33", "0.31", "0.31", "0.30", "0.29", "0.29"]


def test_L78D_wbf_14_boards_as_klinger_printed_each_imp():
    running = Fraction(10)
    for margin, step in enumerate(KLINGER_14, start=1):
        running += Fraction(step)
        assert pair(margin, 14) == (float(running), float(20 - running)), margin
    assert pair(2, 14) == (10.66, 9.34) and pair(7, 14) == (12.16, 7.84)


@pytest.mark.parametrize("margin, vp", [(0, (10.0, 10.0)), (20, (15.0, 5.0)), (60, (20.0, 0.0)),
                                        (100, (20.0, 0.0))])
def test_L78D_wbf_16_boards_the_wbf_example_and_its_blitz(margin, vp):
    """15 VPs for 20 IMPs; 40 IMPs more (60) for the full 20, and nothing more beyond."""
    assert pair(margin, 16) == vp
    assert pair(-margin, 16) == (vp[1], vp[0])


def test_L78D_wbf_16_boards_one_imp_short_of_the_blitz_is_not_yet_20():
    win, lose = pair(59, 16)
    assert 15.0 < win < 20.0 and win + lose == 20.0


@pytest.mark.parametrize("margin, vp", [(0, 10.0), (1, 10.28), (2, 10.55)])
def test_L78D_wbf_20_boards_as_published_in_the_netherlands(margin, vp):
    assert pair(margin, 20) == (vp, round(20 - vp, 2))


def test_L78D_a_match_scored_on_the_named_scale_gives_the_published_figures():
    """score_match with the scale the event names: a 14-board match won by 2 IMPs on one board."""
    named = vp_scales.named("wbf")
    rec = {"contract": "1NT", "declarer": "N", "tricks": 7, "score_ns": 90, "vulnerability": "None"}
    other = dict(rec, score_ns=50)  # 40 points is 1 IMP (L78B); on two boards, a 2-IMP margin
    boards = {b: (rec, other) for b in (1, 2)}
    boards.update({b: (rec, rec) for b in range(3, 15)})
    out = score_match(boards, "fsb-2007", named.scale if named else None)
    assert out.home_imps == 2 and out.vp == (10.66, 9.34)


def test_the_scales_an_event_may_name():
    assert vp_scales.names() == ("wbf", "none") and vp_scales.named("none") is None
    with pytest.raises(ValueError, match="no VP scale 'sbf-25'"):
        vp_scales.named("sbf-25")
