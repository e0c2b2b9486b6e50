"""Boards and sessions from result records: L78A, Neuberg (FSB 98C), byes (FSB 96A),
12C2(c) session cap, fouled boards (L87B / FSB 99A) through the station's entry points."""
from dataclasses import replace

import pytest

from shared_rules.scoring.board import score_board
from shared_rules.scoring.rules import RULES, get_rules
from shared_rules.scoring.session import rank, score_pairs_session


def records(ns_scores, first_ns=1, first_ew=101):
    return [{"ns_pair": first_ns + i, "ew_pair": first_ew + i, "score_ns": s} for i, s in enumerate(ns_scores)]


def test_2007_L78A_board_rows_for_the_station():
    rows = score_board(records([620, 620, 650, 170, -100, -100, 620]))
    assert [r["ns_mp"] for r in rows] == [8, 8, 12, 4, 1, 1, 8]
    assert [r["ew_mp"] for r in rows] == [4, 4, 0, 8, 11, 11, 4]
    assert rows[2]["ns_pct"] == 100.0 and rows[2]["ew_pct"] == 0.0
    assert rows[0]["top"] == 12 and rows[0]["ns_pair"] == 1 and rows[0]["ew_pair"] == 101


def test_FSB98C_board_with_a_missing_result_is_neuberg_scaled():
    rows = score_board(records([620, 620, 650, 170, -100, -100, None]))
    assert [r["ns_mp"] for r in rows] == [8.3, 8.3, 11.8, 4.8, 1.3, 1.3, None]
    assert rows[6]["ew_pct"] is None


def test_2007_L12C2_artificial_avg_plus_minus_is_out_of_the_comparison():
    rs = records([620, 620, 650, 170, -100, -100, None])
    rs[6]["adjusted"] = {"kind": "artificial", "ns": "avg+", "ew": "avg-"}
    rows = score_board(rs)
    assert [r["ns_mp"] for r in rows[:6]] == [8.3, 8.3, 11.8, 4.8, 1.3, 1.3]
    assert rows[6]["ns_mp"] == 7.2 and rows[6]["ew_mp"] == 4.8  # 60% and 40% of 12
    assert rows[6]["ns_artificial"] == "avg+" and rows[6]["ew_artificial"] == "avg-"


@pytest.mark.parametrize("profile", ["fsb-2007", "dbf-2017"])
def test_2007_L12C2a_2017_s12C2a_artificial_percentages_per_edition(profile):
    rs = records([100, 200, None])
    rs[2]["adjusted"] = {"kind": "artificial", "ns": "avg", "ew": "average plus"}
    rows = score_board(rs, rules=profile)
    assert rows[2]["ns_pct"] == 50.0 and rows[2]["ew_pct"] == 60.0
    assert get_rules(profile).artificial.imps == {"avg+": 3.0, "avg": 0.0, "avg-": -3.0}


def test_2017_s12C1_assigned_score_replaces_the_table_result():
    rs = records([620, 620, 170])
    rs[2]["vulnerability"] = "NS"
    rs[2]["adjusted"] = {"kind": "assigned", "contract": "4S", "declarer": "N", "tricks": 11}  # +650
    rows = score_board(rs)
    assert [r["ns_mp"] for r in rows] == [1, 1, 4]


def test_2007_L12C1e_split_score_each_side_compared_in_its_own_direction():
    rs = records([620, 620, 170, -100])
    # NS get +620 (assigned), EW get the table's -100 for NS (i.e. EW as if NS went down).
    rs[2]["adjusted"] = {"kind": "split", "ns": {"score_ns": 620}, "ew": {"score_ns": -100}}
    rows = score_board(rs)
    assert [r["ns_mp"] for r in rows] == [4, 4, 4, 0]
    # EW side is compared with -100: EW of tables 1-2 (NS +620) are beaten by both -100s.
    assert [r["ew_mp"] for r in rows] == [1, 1, 5, 5]
    # Non-balancing: NS + EW on the split table is not the top.
    assert rows[2]["ns_mp"] + rows[2]["ew_mp"] == 9 != rows[2]["top"]


def test_A07_W2_weighted_matchpoints_100_instead_of_65():
    # A field built so the A07 figures hold: top 200 (101 results); EW +100 (the table result,
    # 5CX-1 NV) is worth 65 to EW, EW -100 20, EW +620 160, EW +650 200 (A07 example W2).
    field = [200] * 10 + [-50] * 22 + [-100] + [-140] * 27 + [-620] * 40  # NS scores
    table = {"ns_pair": "O", "ew_pair": "N", "score_ns": -100, "vulnerability": "EW"}
    rows = score_board(records(field) + [table], rules="dbf-2017")
    assert rows[-1]["top"] == 200 and rows[-1]["ew_mp"] == 65
    weighted = dict(table, adjusted={"kind": "weighted", "outcomes": [
        {"weight": "1/2", "contract": "4H", "declarer": "E", "tricks": 9},   # EW -100
        {"weight": 0.25, "contract": "4H", "declarer": "E", "tricks": 10},   # EW +620
        {"weight": 0.25, "contract": "4H", "declarer": "E", "tricks": 11},   # EW +650
    ]})
    rows = score_board(records(field) + [weighted], rules="dbf-2017")
    assert rows[-1]["ew_mp"] == 100
    # Every other pair is compared with each outcome at the same weights: the NS and EW
    # matchpoints of each direction still sum to n(n-1).
    assert sum(r["ns_mp"] for r in rows) == pytest.approx(101 * 100, abs=0.05 * 101)
    assert sum(r["ew_mp"] for r in rows) == pytest.approx(101 * 100, abs=0.05 * 101)


def test_2007_L12C1c_fsb_td_may_not_weight_but_a_committee_may():
    rs = records([100, 200])
    rs[1]["adjusted"] = {"kind": "weighted", "outcomes": [{"weight": 0.5, "score_ns": 620},
                                                          {"weight": 0.5, "score_ns": -100}]}
    with pytest.raises(ValueError, match="committee"):
        score_board(rs, rules="fsb-2007")
    rs[1]["adjusted"]["ruled_by"] = "committee"
    rows = score_board(rs, rules="fsb-2007")
    assert rows[1]["ns_mp"] == 1.0  # half the time above 100, half below


@pytest.mark.parametrize("adjusted", [
    {"kind": "bogus"}, {"kind": "artificial", "ns": "avg+"}, {"kind": "artificial", "ns": "great", "ew": "avg"},
    {"kind": "weighted", "outcomes": []}, {"kind": "weighted", "outcomes": [{"weight": 0.5, "score_ns": 100}]},
    {"kind": "assigned", "contract": "9H", "declarer": "N", "tricks": 10}, {"kind": "assigned", "score_ns": 15},
    {"kind": "split", "ns": {"pct": 120}, "ew": {"pct": 40}}, "avg+",
])
def test_bad_adjusted_blocks_are_refused_with_a_clear_error(adjusted):
    rs = records([100, 200])
    rs[1]["adjusted"] = adjusted
    rs[1]["vulnerability"] = "None"
    with pytest.raises(ValueError):
        score_board(rs, rules="dbf-2017")


def test_L87B_FSB99A_fouled_board_groups_scored_separately_neuberg():
    rs = records([500, 400, 300, 620, 600, 100, 50])
    for i, r in enumerate(rs):
        r["fouled_group"] = "A" if i < 3 else "B"
    rows = score_board(rs)
    assert [r["ns_mp"] for r in rows] == [10.7, 6.0, 1.3, 11.3, 7.8, 4.3, 0.8]  # spec: 10.7, 11.25


def test_FSB99A1_fouled_board_manual_plus_one_and_small_groups():
    rs = records([500, 400, 300, 620, 600, 100, 50])
    for i, r in enumerate(rs):
        r["fouled_group"] = i < 3
    plus_one = replace(RULES["fsb-2007"], fouled_method="fsb-plus-one")
    assert [r["ns_mp"] for r in score_board(rs, rules=plus_one)][:4] == [8, 6, 4, 9]
    small = replace(RULES["fsb-2007"], fouled_small_group_rule=True)
    rows = score_board(rs, rules=small)
    assert [r["ns_pct"] for r in rows[:3]] == [70.0, 60.0, 50.0]
    assert [r["ew_pct"] for r in rows[:3]] == [50.0, 60.0, 70.0]


def session_boards():
    # 4 tables, pairs NS1-4 / EW1-4, 3 boards; EW1 gets avg+ on board 3.
    return {
        1: [{"ns_pair": f"NS{i}", "ew_pair": f"EW{i}", "score_ns": s} for i, s in enumerate([420, 450, 420, -50], 1)],
        2: [{"ns_pair": f"NS{i}", "ew_pair": f"EW{i}", "score_ns": s} for i, s in enumerate([-110, 140, 110, -110], 1)],
        3: [{"ns_pair": f"NS{i}", "ew_pair": f"EW{i}", "score_ns": s} for i, s in enumerate([100, 200, 300, None], 1)],
    }


def test_FSB98C_session_totals_percentages_and_shared_places():
    boards = session_boards()
    out = score_pairs_session(boards)
    assert out["top"] == 6
    # NS1: board 1 420 (3), board 2 -110 (1), board 3 100 (neuberg 0 -> (0+1)*4/3-1 = 0.3)
    assert out["boards"][3][0]["ns_mp"] == 0.3
    assert out["pairs"]["NS1"] == {"mp": 4.3, "top": 18.0, "pct": 23.89, "boards": 3, "byes": 0,
                                    "penalty": 0.0}
    assert out["pairs"]["NS4"]["boards"] == 2 and out["pairs"]["NS4"]["top"] == 12.0
    assert len(out["ranking"]) == 8
    pcts = [r["pct"] for r in out["ranking"]]
    assert pcts == sorted(pcts, reverse=True)


def test_2007_L12C2c_avg_plus_becomes_own_session_percentage_above_60():
    boards = session_boards()
    boards[3][3]["adjusted"] = {"kind": "artificial", "ns": "avg-", "ew": "avg+"}
    out = score_pairs_session(boards)
    # EW4 on the other boards: board 1 (NS -50) top 6, board 2 (NS -110) 2+2+1 = 5:
    # 11 / 12 = 91.7% > 60%, so avg+ becomes 91.7% of 6 = 5.5.
    assert out["pairs"]["EW4"]["mp"] == 16.5
    # NS4: 0 + 1 = 1 / 12 = 8.3% < 40%, so avg- becomes 8.3% of 6 = 0.5.
    assert out["pairs"]["NS4"]["mp"] == 1.5
    no_cap = replace(RULES["fsb-2007"], session_cap_12C2c=False)
    out = score_pairs_session(boards, rules=no_cap)
    assert out["pairs"]["EW4"]["mp"] == 14.6 and out["pairs"]["NS4"]["mp"] == 3.4


def test_FSB96A_bye_scores_the_pairs_own_percentage():
    boards = session_boards()
    out = score_pairs_session(boards, byes={"NS1": 1})
    assert out["pairs"]["NS1"]["top"] == 24.0
    assert out["pairs"]["NS1"]["mp"] == pytest.approx(4.3 + 1.4)  # 4.3/18 x 6 = 1.43
    assert out["pairs"]["NS1"]["pct"] == 23.75


def test_FSB96A_bye_for_a_pair_with_no_boards_is_an_error():
    with pytest.raises(ValueError):
        score_pairs_session(session_boards(), byes={"ghost": 1})


def test_FSB95_equal_totals_share_the_place():
    ranking = rank({"a": {"mp": 10, "pct": 55.0}, "b": {"mp": 10, "pct": 55.0}, "c": {"mp": 12, "pct": 60.0},
                    "d": {"mp": 5, "pct": 40.0}})
    assert [(r["pair"], r["place"]) for r in ranking] == [("c", "1"), ("a", "2-3"), ("b", "2-3"), ("d", "4")]


def test_board_edge_cases_empty_single_and_bad_expected():
    assert score_board([]) == []
    single = score_board(records([420]))
    assert single[0]["top"] == 0 and single[0]["ns_mp"] == 0 and single[0]["ns_pct"] == 50.0
    with pytest.raises(ValueError):
        score_board(records([420, 170]), expected=0)
    with pytest.raises(ValueError):
        score_board(records([420, 170]), expected=1)


def test_FSB99A3a_rotated_board_credits_the_ns_line_to_the_registered_ew_pair():
    rs = records([620, 170, -100])
    rs[1]["rotated"] = True
    rows = score_board(rs)
    assert rows[1]["ns_pair"] == 102 and rows[1]["ew_pair"] == 2 and rows[1]["rotated"] is True
    assert rows[1]["ns_mp"] == 2.0  # the NS line of 170 is the middle result


def test_FSB99A2_penalty_deducted_from_the_session_total():
    out = score_pairs_session(session_boards(), penalties={"NS1": 0.6})
    assert out["pairs"]["NS1"]["mp"] == 3.7 and out["pairs"]["NS1"]["penalty"] == 0.6
    with pytest.raises(ValueError):
        score_pairs_session(session_boards(), penalties={"nobody": 1})
