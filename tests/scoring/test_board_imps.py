"""IMP pairs (L78B scale; Butler and cross-IMPs as L78D methods) from result records."""
import pytest

from shared_rules.scoring.board_imps import score_board_imps
from shared_rules.scoring.imps import butler, cross_imps


def recs(ns):
    return [{"ns_pair": i, "ew_pair": 50 + i, "score_ns": s} for i, s in enumerate(ns)]


def test_L78D_butler_rows_match_the_plain_function_and_ew_is_the_negation():
    ns = [620, 620, 650, 170, -100, -100, 620]
    rows = score_board_imps(recs(ns), "butler")
    assert [r["ns_imps"] for r in rows] == butler(ns)
    assert all(r["ew_imps"] == -r["ns_imps"] for r in rows)


def test_L78D_cross_imps_rows_match_the_plain_function():
    ns = [620, 170, -100, 420]
    assert [r["ns_imps"] for r in score_board_imps(recs(ns), "cross")] == cross_imps(ns)


def test_2007_L86A_artificial_in_imp_pairs_is_plus_minus_three_and_out_of_the_datum():
    rs = recs([620, 620, 170, 0])
    rs[3]["score_ns"] = None
    rs[3]["adjusted"] = {"kind": "artificial", "ns": "avg+", "ew": "avg-"}
    rows = score_board_imps(rs, "butler")
    assert rows[3]["ns_imps"] == 3.0 and rows[3]["ew_imps"] == -3.0
    assert [r["ns_imps"] for r in rows[:3]] == butler([620, 620, 170])


def test_A07_weighted_score_in_imp_pairs_weights_the_imps():
    rs = recs([-120, 0])
    rs[1] = {"ns_pair": 1, "ew_pair": 51, "score_ns": None, "adjusted": {
        "kind": "weighted", "outcomes": [{"weight": "1/3", "score_ns": 620}, {"weight": "1/3", "score_ns": -100},
                                         {"weight": "1/3", "score_ns": -200}]}}
    rows = score_board_imps(rs, "cross", rules="dbf-2017")
    assert rows[1]["ns_imps"] == 3.67  # A07 W1: against -120 -> 3.667


def test_imp_pairs_bad_method_and_missing_results():
    with pytest.raises(ValueError):
        score_board_imps(recs([1, 2]), "swiss")
    rs = recs([620, 420, None])
    assert score_board_imps(rs)[2] == {"ns_pair": 2, "ew_pair": 52, "ns_imps": None, "ew_imps": None}
