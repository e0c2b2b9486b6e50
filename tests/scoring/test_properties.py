"""Property tests (hypothesis): invariants of L77, L78A, Neuberg (FSB 98C), L78B and VP."""
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from shared_rules.scoring import score, score_board
from shared_rules.scoring.imps import cross_imps, imp
from shared_rules.scoring.matchpoints import neuberg, raw_matchpoints, top
from shared_rules.scoring.vp import WbfContinuousScale, victory_points
from tests.hypothesis_profiles import examples

SETTINGS = settings(max_examples=examples(150), deadline=None)
scores = st.integers(min_value=-760, max_value=760).map(lambda x: x * 10)
contracts = st.builds(lambda lv, st_, x: f"{lv}{st_}{x}", st.integers(1, 7), st.sampled_from(["C", "D", "H", "S", "NT"]),
                      st.sampled_from(["", "X", "XX"]))


@SETTINGS
@given(contracts, st.sampled_from("NESW"), st.integers(0, 13), st.sampled_from(["None", "NS", "EW", "All"]))
def test_2007_L77_scores_are_multiples_of_ten_within_the_table_limits_and_mirror_by_side(c, d, t, v):
    s = score(c, d, t, v)
    declarers = s if d in "NS" else -s
    assert s % 10 == 0 and -7600 <= declarers <= 3160  # the Law 77 table's limits, declarer's side
    partner = {"N": "S", "S": "N", "E": "W", "W": "E"}[d]
    assert score(c, partner, t, v) == s


@SETTINGS
@given(contracts, st.sampled_from("NS"), st.integers(0, 12), st.sampled_from(["None", "NS", "EW", "All"]))
def test_2007_L77_one_more_trick_never_scores_less(c, d, t, v):
    assert score(c, d, t + 1, v) > score(c, d, t, v)


@SETTINGS
@given(st.lists(scores, min_size=1, max_size=40))
def test_2007_L78A_matchpoints_sum_to_n_times_n_minus_one(ns):
    n = len(ns)
    assert sum(raw_matchpoints(ns)) == n * (n - 1)
    assert all(0 <= m <= top(n) for m in raw_matchpoints(ns))


@SETTINGS
@given(st.lists(scores, min_size=2, max_size=40))
def test_2007_L78A_better_score_never_gets_fewer_matchpoints(ns):
    mp = raw_matchpoints(ns)
    for a, ma in zip(ns, mp, strict=True):
        for b, mb in zip(ns, mp, strict=True):
            if a > b:
                assert ma > mb


@SETTINGS
@given(st.lists(scores, min_size=1, max_size=30), st.integers(0, 10))
def test_FSB98C_neuberg_keeps_the_board_average_at_half_the_top(ns, missing):
    n, big_n = len(ns), len(ns) + missing
    exact = [neuberg(m, n, big_n) for m in raw_matchpoints(ns)]
    assert sum(exact) == Fraction(n * top(big_n), 2)
    assert all(-1 < m <= top(big_n) + 1 for m in exact)


@SETTINGS
@given(st.lists(st.one_of(scores, st.none()), min_size=2, max_size=30))
def test_FSB98C_board_rows_ns_plus_ew_is_the_top_and_the_sum_is_constant(ns):
    records = [{"ns_pair": i, "ew_pair": 100 + i, "score_ns": s} for i, s in enumerate(ns)]
    rows = score_board(records)
    played = [r for r in rows if r["ns_mp"] is not None]
    for r in played:
        assert abs(r["ns_mp"] + r["ew_mp"] - r["top"]) < 0.11  # each rounded to one decimal
    if played:
        total = sum(r["ns_mp"] for r in played)
        assert abs(total - len(played) * rows[0]["top"] / 2) <= 0.05 * len(played) + 1e-9


@SETTINGS
@given(st.integers(-2000, 2000).map(lambda x: x * 10), st.integers(-2000, 2000).map(lambda x: x * 10))
def test_2007_L78B_imp_scale_is_odd_monotone_and_bounded(a, b):
    assert imp(-a) == -imp(a)
    assert 0 <= imp(abs(a)) <= 24
    if abs(a) <= abs(b):
        assert abs(imp(a)) <= abs(imp(b))


@SETTINGS
@given(st.lists(scores, min_size=2, max_size=12))
def test_L78D_cross_imps_sum_to_zero(ns):
    assert abs(sum(cross_imps(ns, average=False))) < 1e-9


@SETTINGS
@given(st.integers(-240, 240).map(lambda x: x / 2), st.integers(1, 64))
def test_L78D_wbf_vp_sum_to_twenty_and_favour_the_winner(margin, boards):
    a, b = victory_points(margin, 0, boards, WbfContinuousScale())
    assert abs(a + b - 20) < 1e-9
    assert (a > b) == (margin > 0) and (a == b) == (margin == 0)


weights = st.lists(st.integers(1, 6), min_size=2, max_size=3)


@SETTINGS
@given(st.lists(scores, min_size=2, max_size=15), st.lists(st.tuples(weights, st.lists(scores, min_size=3, max_size=3)),
                                                           min_size=1, max_size=3))
def test_2017_s12C1c_weighted_scores_keep_each_directions_matchpoint_sum_exact(ns, weighted):
    """With weighted scores among plain ones, every pair of results still shares 2 points."""
    from fractions import Fraction as F

    from shared_rules.scoring.adjusted import Distribution
    from shared_rules.scoring.board import _compare, _direction_mp

    values = [Distribution(((F(1), s),)) for s in ns]
    for ws, ss in weighted:
        total = sum(ws)
        values.append(Distribution(tuple((F(w, total), s) for w, s in zip(ws, ss[:len(ws)], strict=True))))
    n = len(values)
    for sign in (1, -1):
        mp = _direction_mp(values, sign, n)
        assert sum(mp) == n * (n - 1)
        # Same as the brute-force pairwise comparison.
        brute = [sum(_compare(v, w, sign) for j, w in enumerate(values) if j != i) for i, v in enumerate(values)]
        assert mp == brute
