"""IMPs (2007 L78B / 2017 §78B), cross-IMPs, Butler and victory points (L78D)."""
import pytest

from shared_rules.scoring.imps import IMP_BOUNDS, butler, butler_datum, cross_imps, imp, team_board
from shared_rules.scoring.vp import TableScale, WbfContinuousScale, round_imps_favouring, victory_points

# The printed L78B table: (from, to, IMPs).
L78B = [(0, 10, 0), (20, 40, 1), (50, 80, 2), (90, 120, 3), (130, 160, 4), (170, 210, 5), (220, 260, 6),
        (270, 310, 7), (320, 360, 8), (370, 420, 9), (430, 490, 10), (500, 590, 11), (600, 740, 12),
        (750, 890, 13), (900, 1090, 14), (1100, 1290, 15), (1300, 1490, 16), (1500, 1740, 17),
        (1750, 1990, 18), (2000, 2240, 19), (2250, 2490, 20), (2500, 2990, 21), (3000, 3490, 22),
        (3500, 3990, 23), (4000, 15000, 24)]


def test_2017_s78B_every_multiple_of_ten_up_to_15000_matches_the_printed_table_both_signs():
    for low, high, imps in L78B:
        for diff in range(low, high + 1, 10):
            assert imp(diff) == imps, diff
            assert imp(-diff) == -imps, diff


@pytest.mark.parametrize("diff,expected", [(10, 0), (20, 1), (170, 5), (570, 11), (740, 12), (-80, -2),
                                           (3990, 23), (4000, 24), (10760, 24)])
def test_2007_L78B_spec_appendix_a(diff, expected):
    assert imp(diff) == expected


def test_2007_L78B_scale_has_24_steps():
    assert len(IMP_BOUNDS) == 24


def test_2007_L78B_team_board_is_ns_table1_minus_ns_table2():
    assert team_board(620, -100) == 12
    assert team_board(-100, 620) == -12


def test_L78D_cross_imps_average_against_every_other_table():
    # 620 vs 620 (0), vs 170 (+10); 170 vs 620 twice (-10 each).
    assert cross_imps([620, 620, 170]) == [5.0, 5.0, -10.0]
    assert cross_imps([620, 620, 170], average=False) == [10.0, 10.0, -20.0]


def test_L78D_butler_datum_drops_top_and_bottom_and_rounds_to_ten():
    scores = [620, 620, 650, 170, -100, -100, 620]
    # drop 650 and -100: (620 + 620 + 170 - 100 + 620) / 5 = 386 -> 390
    assert butler_datum(scores) == 390
    assert butler(scores) == [imp(230), imp(230), imp(260), imp(-220), imp(-490), imp(-490), imp(230)]
    assert butler_datum([100, 200], trim=0) == 150


def test_L78D_butler_rejects_impossible_trim():
    with pytest.raises(ValueError):
        butler_datum([100, 200], trim=1)


def test_L78D_wbf_continuous_vp_is_symmetric_monotone_and_capped():
    scale = WbfContinuousScale()
    previous = 10.0
    for margin in range(0, 80):
        a, b = victory_points(margin, 0, 16, scale)
        assert a + b == pytest.approx(20.0)
        assert a >= previous
        previous = a
    assert victory_points(0, 0, 16, scale) == (10.0, 10.0)
    assert victory_points(1, 0, 16, scale) == (10.31, 9.69)
    assert victory_points(60, 0, 16, scale) == (20.0, 0.0)  # blitz at 15 * sqrt(16) = 60 IMPs
    assert victory_points(0, 75, 16, scale) == (0.0, 20.0)


def test_L78D_table_scale_configurable_25_0():
    # A made-up club table: 0-2 draw, 3+ 16-14, 10+ 20-10, 30+ 25-0 with a 25-(-)? style loser list.
    scale = TableScale(steps=(3, 10, 30), winner=(16, 20, 25), maximum=25, loser=(14, 10, 0))
    assert victory_points(2, 0, 10, scale) == (12.5, 12.5)
    assert victory_points(3, 0, 10, scale) == (16, 14)
    assert victory_points(0, 31, 10, scale) == (0, 25)


def test_L78D_table_scale_rejects_bad_tables():
    with pytest.raises(ValueError):
        TableScale(steps=(3, 10), winner=(16,), maximum=25)
    with pytest.raises(ValueError):
        TableScale(steps=(10, 3), winner=(16, 20), maximum=25)


def test_A07_weighted_imps_rounded_in_favour_of_the_non_offending_side_for_vp():
    assert round_imps_favouring(3.667, non_offending_is_a=True) == 4
    assert round_imps_favouring(3.667, non_offending_is_a=False) == 3


def test_2007_L78C_aggregate_sums_points_ew_negated_and_skips_unplayed():
    from shared_rules.scoring import aggregate

    rows = [{"ns_pair": 1, "ew_pair": 2, "score_ns": 620}, {"ns_pair": 2, "ew_pair": 1, "score_ns": -100},
            {"ns_pair": 1, "ew_pair": 3, "score_ns": None}]
    assert aggregate(rows) == {1: 720, 2: -720}
    with pytest.raises(ValueError):
        aggregate([{"ns_pair": 1, "ew_pair": 2, "score_ns": "620"}])


def test_2007_L78B_team_match_totals_quotient_inputs_and_vp():
    from shared_rules.scoring.teams import team_match

    out = team_match([(620, -100), (-100, 620), (420, 420), (None, 50)], adjustments={3: (3, -3)},
                     scale=WbfContinuousScale())
    assert out["boards"] == [(12.0, -12.0), (-12.0, 12.0), (0.0, 0.0), (3.0, -3.0)]
    assert out["home_imps"] == 3.0 and out["away_imps"] == -3.0
    assert out["home_won"] == 15.0 and out["home_lost"] == 12.0
    assert out["home_boards_won"] == 2 and out["away_boards_won"] == 1
    assert out["vp"][0] > 10 > out["vp"][1]


def test_2007_L12C1e_team_match_non_balancing_adjustment_and_missing_board():
    from shared_rules.scoring.teams import team_match

    out = team_match([(790, 620), (None, 100)], adjustments={0: (-11, 6)})
    assert out["boards"] == [(-11.0, 6.0), None]
    assert out["home_imps"] == -11.0 and out["away_imps"] == 6.0


def test_WBF_vp_of_a_team_match_are_those_of_the_imps_one_team_won_over_the_other():
    """A 4-board match the home team wins by 6 IMPs (10 won, 4 lost) gets the VPs of a 6-IMP
    margin, not of the 12 between the two teams' net totals (+6 and -6)."""
    from shared_rules.scoring.team_match import score_match
    from shared_rules.scoring.wbf_vp import WbfScale2013

    def rec(score_ns: int) -> dict:
        return {"score_ns": score_ns, "vulnerability": "None", "adjusted": None}

    # board: (room where home sits NS, room where home sits EW); IMPs to home: +10, -4, 0, 0
    boards = {1: (rec(420), rec(-50)), 2: (rec(-140), rec(-10)), 3: (rec(110), rec(110)), 4: (rec(0), rec(0))}
    out = score_match(boards, "dbf-2017", WbfScale2013())
    assert (out.home_imps, out.away_imps) == (6, -6)
    win = WbfScale2013().winner_vp(6, 4)
    assert out.vp == (win, round(20 - win, 2))
    assert out.vp[0] == 13.28  # 10 + 10 (1 - t^(3*6/30)) / (1 - t^3), t = (sqrt 5 - 1) / 2


def test_2017_L12C_a_non_balancing_artificial_score_gives_each_team_the_vps_of_its_own_imps():
    """Avg+ to both sides in one room (neither at fault, 2017 L12C2): +3 IMPs to each team, so
    each team's VPs are those of its own +3, as if it had won by 3."""
    from shared_rules.scoring.team_match import score_match
    from shared_rules.scoring.wbf_vp import WbfScale2013

    both = {"score_ns": None, "vulnerability": "None", "adjusted": {"kind": "artificial", "ns": "avg+", "ew": "avg+"}}
    played = {"score_ns": 420, "vulnerability": "None", "adjusted": None}
    out = score_match({1: (played, both), 2: (played, played)}, "dbf-2017", WbfScale2013())
    assert (out.home_imps, out.away_imps) == (3, 3)
    assert out.vp == (WbfScale2013().winner_vp(3, 2),) * 2


def test_2007_L78B_team_match_vp_are_those_of_the_margin_between_the_teams():
    """Home +12, -12, 0 and the TD's +3: a 3-IMP win (15 won, 12 lost), scored as 3, not as the
    6 between the two teams' net totals (+3 and -3)."""
    from shared_rules.scoring.teams import team_match

    scale = WbfContinuousScale()
    out = team_match([(620, -100), (-100, 620), (420, 420), (None, 50)], adjustments={3: (3, -3)}, scale=scale)
    assert out["home_won"] - out["home_lost"] == 3
    assert out["vp"] == victory_points(3, 0, 4, scale)
