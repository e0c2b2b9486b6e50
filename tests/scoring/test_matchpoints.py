"""Matchpoints (2007 L78A / 2017 §78A) and Neuberg (FSB 98C), with worked vectors from the FSB examples."""
from fractions import Fraction

import pytest

from shared_rules.scoring.matchpoints import board_matchpoints, neuberg, raw_matchpoints, top
from shared_rules.scoring.rounding import round_half_up


def test_2007_L78A_two_for_worse_one_for_equal_zero_for_better():
    assert raw_matchpoints([620, 620, 650, 170, -100, -100, 620]) == [8, 8, 12, 4, 1, 1, 8]
    assert top(7) == 12


def test_2007_L78A_sum_is_n_times_n_minus_one_and_ew_is_top_minus_ns():
    rows = board_matchpoints([620, 620, 650, 170, -100, -100, 620])
    assert sum(ns for ns, _ in rows) == 42
    assert [ew for _, ew in rows] == [4, 4, 0, 8, 11, 11, 4]


def test_2007_L78A_passed_out_board_is_a_normal_zero_result_not_an_average():
    # S07 (the Swedish 2007 Laws, index): "ett nollresultat är inte detsamma som ett medelresultat".
    rows = board_matchpoints([0, 50, -50, 0])
    assert rows == [(3.0, 3.0), (6.0, 0.0), (0.0, 6.0), (3.0, 3.0)]


def test_FSB98C_neuberg_spec_check_sole_top_of_ten_where_eleven_expected():
    assert round_half_up(neuberg(18, 10, 11)) == 19.9


def test_FSB98C_neuberg_spec_vector_six_results_of_seven():
    rows = board_matchpoints([620, 620, 650, 170, -100, -100, None])
    assert [r[0] for r in rows[:6]] == [8.3, 8.3, 11.8, 4.8, 1.3, 1.3]
    assert rows[6] is None
    assert rows[0][1] == 3.7  # EW: top 12 - 8.333 = 3.667


def test_FSB98C_neuberg_expected_given_explicitly():
    assert board_matchpoints([620, 620, 650, 170, -100, -100], expected=7)[2] == (11.8, 0.2)


def test_FSB98C_neuberg_is_identity_on_a_full_board():
    assert neuberg(Fraction(7), 7, 7) == 7


def test_FSB98C_neuberg_lone_result_scores_half_the_top():
    assert board_matchpoints([420, None, None, None, None, None, None])[0] == (6.0, 6.0)


def test_FSB98C_one_decimal_rounds_half_away_from_zero():
    assert round_half_up(Fraction(45, 4)) == 11.3
    assert round_half_up(Fraction(-45, 4)) == -11.3
    assert round_half_up(0.25) == 0.3


def test_board_with_more_results_than_expected_is_rejected():
    with pytest.raises(ValueError):
        board_matchpoints([1, 2, 3], expected=2)
