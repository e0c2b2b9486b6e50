"""An IMP pairs session (Butler / cross-IMPs, 2017 L78B scale with L78D methods): pair totals
checked against the WBF IMP scale written out here, independently of shared_rules.scoring.imps."""
from shared_rules.scoring.board_imps import score_imp_pairs_session

# The WBF IMP scale (2017 Law 78B), as printed: (lowest difference, IMPs).
WBF_SCALE = [(0, 0), (20, 1), (50, 2), (90, 3), (130, 4), (170, 5), (220, 6), (270, 7), (320, 8), (370, 9),
             (430, 10), (500, 11), (600, 12), (750, 13), (900, 14), (1100, 15), (1300, 16), (1500, 17),
             (1750, 18), (2000, 19), (2250, 20), (2500, 21), (3000, 22), (3500, 23), (4000, 24)]


def wbf_imps(diff: int) -> int:
    size = abs(diff)
    steps = max(i for lo, i in WBF_SCALE if size >= lo)
    return steps if diff >= 0 else -steps


def rec(ns, ew, score):
    return {"ns_pair": ns, "ew_pair": ew, "score_ns": score}


BOARDS = {1: [rec("NS1", "EW1", 620), rec("NS2", "EW2", 170), rec("NS3", "EW3", -100)],
          2: [rec("NS1", "EW2", -50), rec("NS2", "EW3", 110), rec("NS3", "EW1", 140)]}


def test_L78D_cross_imp_pairs_totals_are_the_sum_of_each_pairs_mean_imps():
    out = score_imp_pairs_session(BOARDS, "cross")
    expect: dict[str, float] = {}
    for rows in BOARDS.values():
        scores = [r["score_ns"] for r in rows]
        for i, r in enumerate(rows):
            mean = sum(wbf_imps(scores[i] - s) for j, s in enumerate(scores) if j != i) / (len(scores) - 1)
            expect[r["ns_pair"]] = expect.get(r["ns_pair"], 0) + mean
            expect[r["ew_pair"]] = expect.get(r["ew_pair"], 0) - mean
    assert {p: t["imps"] for p, t in out["pairs"].items()} == {p: round(v, 2) for p, v in expect.items()}
    assert all(t["boards"] == 2 for t in out["pairs"].values())
    # Board 1, NS1: 620 against 170 (+450: 10) and -100 (+720: 12) -> 11.
    assert out["boards"][1][0]["ns_imps"] == 11.0


def test_L78D_butler_pairs_totals_against_the_board_datum():
    out = score_imp_pairs_session(BOARDS, "butler")
    # Fewer than five results: no trimming; datum = mean rounded to 10.
    # Board 1: (620+170-100)/3 = 230; board 2: (-50+110+140)/3 = 66.7 -> 70.
    assert out["pairs"]["NS1"]["imps"] == wbf_imps(620 - 230) + wbf_imps(-50 - 70)
    assert out["pairs"]["EW1"]["imps"] == -wbf_imps(620 - 230) - wbf_imps(140 - 70)


def test_a_pair_with_no_score_on_a_board_counts_only_its_scored_boards():
    boards = {1: BOARDS[1], 2: BOARDS[2] + [rec("NS4", "EW4", None)]}
    out = score_imp_pairs_session(boards, "cross")
    assert "NS4" not in out["pairs"] and out["boards"][2][3]["ns_imps"] is None
