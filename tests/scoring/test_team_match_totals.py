"""A team match's totals as scorers show them: the IMPs each team won (the sum over boards of the
IMPs that went to it, 2007 L78B / 2017 §78B), the margin their difference, and VPs from the
margin (L78D); adjusted scores per side (2017 §12C, docs/laws/choices.md #37)."""
from __future__ import annotations

from fractions import Fraction

from shared_rules.scoring.team_match import score_match
from shared_rules.scoring.wbf_vp import WbfScale2013


def rec(score_ns: int | None, adjusted: dict | None = None) -> dict:
    return {"score_ns": score_ns, "vulnerability": "None", "adjusted": adjusted}


def artificial(ns: str, ew: str) -> dict:
    return rec(None, {"kind": "artificial", "ns": ns, "ew": ew})


# board: (room where the home team sits NS, room where it sits EW)
PLUS_10 = (rec(420), rec(-50))      # 470 to home: +10
MINUS_4 = (rec(-140), rec(-10))     # 130 to the visitors: -4 for home


def test_2017_L78B_a_match_of_plus_10_and_minus_4_is_10_to_4_a_margin_of_6():
    out = score_match({1: PLUS_10, 2: MINUS_4}, "dbf-2017", WbfScale2013())
    assert (out.home_won, out.away_won) == (10, 4)
    assert out.home_won - out.away_won == out.home_imps == 6 and out.away_imps == -6
    win = WbfScale2013().winner_vp(6, 2)
    assert out.vp == (win, round(20 - win, 2)) and win > 10
    d = out.as_dict()
    assert (d["home_won"], d["away_won"], d["home_imps"], d["away_imps"]) == (10, 4, 6, -6)


def test_2017_L78B_a_weighted_board_counts_its_net_imps_to_the_side_that_gained_them():
    """A weighted score (2017 §12C1c) nets to one fraction per board: only its gain is won."""
    half = rec(None, {"kind": "weighted", "outcomes": [{"weight": "1/2", "score_ns": 420},
                                                     {"weight": "1/2", "score_ns": -50}]})
    out = score_match({1: (half, rec(-50)), 2: MINUS_4}, "dbf-2017")
    assert out.boards[1] is not None and out.boards[1].home == 5  # 1/2 * imp(470) + 1/2 * imp(0)
    assert (out.home_won, out.away_won, out.home_imps) == (5, 4, 1)


def test_2017_L12C2b_artificial_scores_each_team_its_own_side_won_totals_its_gains():
    """docs/laws/choices.md #37: each team gets the IMPs of its own side (Avg+ +3, Avg 0, Avg-
    -3); a team's won total counts its own positive IMPs only, so a score that does not balance
    adds to one team's won total without taking from the other's, and its net IMPs (and VPs)
    are its own."""
    scale = WbfScale2013()
    # Avg+ to the home team (NS in its NS room), Avg to the visitors: +3 and 0.
    out = score_match({1: (artificial("avg+", "avg"), rec(-50)), 2: PLUS_10}, "dbf-2017", scale)
    assert (out.boards[1].home, out.boards[1].away) == (3, 0)
    assert (out.home_won, out.away_won) == (13, 0)
    assert (out.home_imps, out.away_imps) == (13, -10)
    assert out.vp == (scale.winner_vp(13, 2), round(20 - scale.winner_vp(10, 2), 2))
    # Avg- to both (2017 §12C2b: both at fault): -3 each, nothing won by either.
    out = score_match({1: (artificial("avg-", "avg-"), rec(-50)), 2: MINUS_4}, "dbf-2017", scale)
    assert (out.home_won, out.away_won) == (0, 4)
    assert (out.home_imps, out.away_imps) == (-7, 1)
    # Avg+ / Avg- balances: it is an ordinary 3-IMP board to the home team.
    out = score_match({1: (artificial("avg+", "avg-"), rec(-50))}, "dbf-2017", scale)
    assert (out.home_won, out.away_won, out.home_imps, out.away_imps) == (3, 0, 3, -3)


def test_2017_L78D_an_imps_only_match_has_won_totals_and_no_vps():
    out = score_match({1: PLUS_10, 2: MINUS_4}, "dbf-2017", None)
    assert out.complete and out.vp is None
    assert (out.home_won, out.away_won, out.home_imps) == (10, 4, 6)
    assert out.as_dict()["vp"] is None


def test_a_board_without_both_rooms_counts_in_no_total():
    out = score_match({1: PLUS_10, 2: (rec(-140), None)}, "dbf-2017", WbfScale2013())
    assert (out.home_won, out.away_won, out.scored, out.complete, out.vp) == (10, 0, 1, False, None)
    assert isinstance(out.home_won, Fraction)
