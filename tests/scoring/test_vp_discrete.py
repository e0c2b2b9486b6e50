"""Discrete VP scales (2007 L78D / 2017 §78D: the conditions of contest name the scale): a table
of IMP bands, each worth whole VPs, as `vp.TableScale` holds it, tried at every band's edges,
in both directions, at the draw and beyond the top.

The tables are the two 20-point scales for Swiss team matches of 6-8 and of 9-11 boards, and the
30-point one for 6-8 boards, as printed by bridgehands.com ("Victory Points", the two scales it
calls common in North America), typed from that page. No Swedish or Danish discrete table was
found in any source (docs/laws/choices.md #41), so none is offered to events; a club that has
one configures it as a `TableScale`.
"""
from __future__ import annotations

import pytest

from shared_rules.scoring.vp import TableScale, victory_points

# (lowest IMP margin of the band, highest or None for "and more", winner's VPs)
TWENTY_6_8 = [(0, 0, 10), (1, 2, 11), (3, 4, 12), (5, 7, 13), (8, 10, 14), (11, 13, 15), (14, 16, 16),
              (17, 19, 17), (20, 23, 18), (24, 27, 19), (28, None, 20)]
TWENTY_9_11 = [(0, 0, 10), (1, 2, 11), (3, 5, 12), (6, 9, 13), (10, 13, 14), (14, 17, 15), (18, 21, 16),
               (22, 25, 17), (26, 30, 18), (31, 35, 19), (36, None, 20)]
THIRTY_6_8 = [(0, 0, 15), (1, 1, 18), (2, 2, 19), (3, 3, 20), (4, 4, 21), (5, 6, 22), (7, 8, 23), (9, 10, 24),
              (11, 13, 25), (14, 16, 26), (17, 19, 27), (20, 23, 28), (24, 27, 29), (28, None, 30)]


def scale(bands: list[tuple[int, int | None, int]], maximum: int) -> TableScale:
    """The bands as `TableScale` holds them: the lowest margin of each band above the draw."""
    return TableScale(steps=tuple(low for low, _, _ in bands[1:]), winner=tuple(float(v) for _, _, v in bands[1:]),
                      maximum=float(maximum))


@pytest.mark.parametrize("bands, maximum", [(TWENTY_6_8, 20), (TWENTY_9_11, 20), (THIRTY_6_8, 30)],
                         ids=["20-point 6-8 boards", "20-point 9-11 boards", "30-point 6-8 boards"])
def test_L78D_a_discrete_scale_gives_each_band_its_vps_at_both_edges_and_both_ways(bands, maximum):
    table = scale(bands, maximum)
    for low, high, vp in bands:
        for margin in (low, high if high is not None else low + 50):
            assert victory_points(margin, 0, 8, table) == (vp, maximum - vp), (margin, vp)
            assert victory_points(0, margin, 8, table) == (maximum - vp, vp), (margin, vp)
            assert victory_points(40 + margin, 40, 8, table) == (vp, maximum - vp), margin  # the margin counts
        if high is not None:  # one IMP more is the next band
            nxt = next(v for lo, _, v in bands if lo == high + 1)
            assert victory_points(high + 1, 0, 8, table)[0] == nxt > vp


def test_L78D_a_discrete_scale_draw_is_half_the_scale_each():
    assert victory_points(0, 0, 8, scale(TWENTY_6_8, 20)) == (10.0, 10.0)
    assert victory_points(37, 37, 8, scale(THIRTY_6_8, 30)) == (15.0, 15.0)


def test_L78D_a_discrete_scale_stops_at_its_top_however_large_the_margin():
    assert victory_points(500, 0, 8, scale(TWENTY_6_8, 20)) == (20.0, 0.0)
    assert victory_points(0, 500, 8, scale(THIRTY_6_8, 30)) == (0.0, 30.0)


def test_L78D_a_discrete_scale_looks_a_fractional_margin_up_against_whole_imp_bands():
    """A weighted margin of 2.6 IMPs has not reached the 3-IMP band (docs/scoring.md "How each VP
    scale rounds"); under a whole IMP it is still the draw's band for neither side."""
    table = scale(TWENTY_6_8, 20)
    assert victory_points(2.6, 0, 8, table) == (11.0, 9.0)
    assert victory_points(0, 2.6, 8, table) == (9.0, 11.0)
    assert victory_points(0.5, 0, 8, table) == (10.0, 10.0)


def test_L78D_the_same_margin_is_worth_less_in_a_longer_match():
    """The band depends on the match's length: 5 IMPs is 13-7 over 6-8 boards, 12-8 over 9-11."""
    assert victory_points(5, 0, 8, scale(TWENTY_6_8, 20)) == (13.0, 7.0)
    assert victory_points(5, 0, 10, scale(TWENTY_9_11, 20)) == (12.0, 8.0)
