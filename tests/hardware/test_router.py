"""The grid router and the board planner without KiCad: tracks keep the clearance from other
nets exactly (not only on the grid), fine-pitch rows of one net are joined, a ground pad with no
room for a via reaches ground copper by a track, and a plan is the same every run."""
import math

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from hardware.pcb import autoroute, router
from tests.hypothesis_profiles import examples

RULES = router.Rules()
OUTLINE = ((0.0, 0.0), (12.0, 0.0), (12.0, 12.0), (0.0, 12.0))


def _rect(net, x, y, hw, hh, layers=(0,)):
    return router.Shape(net, layers, "rect", x, y, hw=hw, hh=hh)


def _seg_rect_distance(xa, ya, xb, yb, r: router.Shape) -> float:
    """Distance from a segment to a rectangle, sampled finely along the segment."""
    best = math.inf
    n = max(2, int(math.hypot(xb - xa, yb - ya) / 0.005))
    for k in range(n + 1):
        t = k / n
        x, y = xa + t * (xb - xa), ya + t * (yb - ya)
        dx, dy = max(abs(x - r.x) - r.hw, 0.0), max(abs(y - r.y) - r.hh, 0.0)
        best = min(best, math.hypot(dx, dy))
    return best


@settings(max_examples=examples(40), deadline=None, derandomize=True)
@given(st.floats(0.0, 0.25), st.lists(st.tuples(st.floats(4.0, 8.0), st.floats(3.0, 9.0),
                                                st.floats(0.1, 0.6), st.floats(0.1, 0.6)), max_size=6))
def test_a_track_squeezed_through_a_wall_past_other_nets_pads_keeps_the_clearance(offset, scattered):
    grid = router.Grid((12.0, 12.0), OUTLINE, RULES)
    a, b = _rect(0, 1.5, 6.0, 0.4, 0.4), _rect(0, 10.5, 6.0, 0.4, 0.4)
    # a wall of net 1 on both layers with one gap 1.0 mm wide, off the grid by `offset`, and
    # pads of net 2 scattered about it (their corners are where a diagonal step cuts closest)
    lo, hi = 5.5 + offset, 6.5 + offset
    obstacles = [_rect(1, 6.0, lo / 2, 0.3, lo / 2, (0, 1)), _rect(1, 6.0, (hi + 12.0) / 2, 0.3, (12.0 - hi) / 2, (0, 1))]
    obstacles += [_rect(2, x, y, hw, hh, (0, 1)) for x, y, hw, hh in scattered]
    for s in (a, b, *obstacles):
        grid.stamp(s)
    routes = router.route_net(grid, 0, [[a], [b]], "signal")
    assume(routes)
    for route in routes:
        for (xa, ya, la), (xb, yb, lb) in zip(route.points, route.points[1:], strict=False):
            if la != lb:
                continue
            for w in obstacles:
                gap = _seg_rect_distance(xa, ya, xb, yb, w) - route.width / 2
                assert gap >= RULES.clearance - 1e-6, ((xa, ya, xb, yb), w, gap)


def test_the_wall_test_can_find_a_way_at_all():
    grid = router.Grid((12.0, 12.0), OUTLINE, RULES)
    a, b = _rect(0, 1.5, 6.0, 0.4, 0.4), _rect(0, 10.5, 6.0, 0.4, 0.4)
    for s in (a, b, _rect(1, 6.0, 2.75, 0.3, 2.75, (0, 1)), _rect(1, 6.0, 9.375, 0.3, 2.625, (0, 1))):
        grid.stamp(s)
    routes = router.route_net(grid, 0, [[a], [b]], "signal")
    assert routes and all(5.5 < y < 6.75 for r in routes for x, y, _ in r.points if abs(x - 6.0) < 0.5)


def test_a_fine_pitch_row_of_one_net_is_one_terminal_joined_by_strips_no_wider_than_its_pads():
    row = [_rect(0, 3.0, 2.0 + 0.5 * k, 0.35, 0.125) for k in range(5)]
    other = [_rect(1, 3.0, 1.5, 0.35, 0.125), _rect(2, 3.0, 4.5, 0.35, 0.125)]
    bridges, terminals = autoroute.join_fine_pitch({"IN": row, "A": other[:1], "B": other[1:]},
                                                   {"IN": 0, "A": 1, "B": 2})
    assert len(terminals["IN"]) == 1 and len(terminals["IN"][0]) == 5
    assert len(bridges) == 4 and all(b.width == 0.25 and b.net == 0 for b in bridges)
    # a strip's round end stays inside its pad: nothing nearer the other nets than the pads are
    for b in bridges:
        for _x, y, _layer in b.points:
            assert min(abs(y - 1.5), abs(y - 4.5)) - b.width / 2 >= 0.5 - 0.125 - 1e-9


def test_a_ground_pad_with_no_room_for_a_via_reaches_ground_copper_by_a_track():
    grid = router.Grid((12.0, 12.0), OUTLINE, RULES)
    pad = _rect(0, 3.0, 6.0, 0.5, 0.5)
    anchor = router.Shape(0, (0, 1), "circle", 9.0, 6.0, r=0.8)
    for s in (pad, anchor):
        grid.stamp(s)
    grid.no_via[:, :] = True            # holes everywhere: no via may stand anywhere
    routes = autoroute.fan_out_ground(grid, 0, [pad, anchor])
    assert len(routes) == 1 and routes[0].vias == []
    end = routes[0].points[-1]
    assert math.hypot(end[0] - anchor.x, end[1] - anchor.y) <= anchor.r
    assert routes[0].points[0][2] == 0                 # on the pad's own layer


def _small_board():
    pads = [("N1", _rect(0, 2.0, 2.0, 0.5, 0.5)), ("N1", _rect(0, 10.0, 10.0, 0.5, 0.5)),
            ("N2", _rect(1, 2.0, 10.0, 0.5, 0.5)), ("N2", _rect(1, 10.0, 2.0, 0.5, 0.5)),
            ("GND", _rect(2, 6.0, 6.0, 0.5, 0.5)), ("GND", router.Shape(2, (0, 1), "circle", 6.0, 2.0, r=0.8))]
    return ((12.0, 12.0), OUTLINE, ["N1", "N2", "GND"], pads, [(6.0, 2.0, 1.0)], set(), RULES)


def test_a_plan_is_the_same_every_run_and_its_key_follows_its_inputs():
    args = _small_board()
    first, second = autoroute.plan(*args), autoroute.plan(*args)
    assert not first.failed and first.to_json() == second.to_json()
    assert autoroute.Plan.from_json(first.to_json()).to_json() == first.to_json()
    assert autoroute.key(*args) == autoroute.key(*args)
    moved = list(args)
    moved[3] = [*args[3][:-1], ("GND", router.Shape(2, (0, 1), "circle", 6.5, 2.0, r=0.8))]
    assert autoroute.key(*moved) != autoroute.key(*args)


def test_every_power_net_named_for_wide_tracks_is_a_net_of_a_board():
    from hardware import schematic
    from hardware.pcb import layout
    nets = {name for make in schematic.BOARDS.values() for name in make().nets}
    assert layout.POWER <= nets
    assert {"5V_IN", "5V_SAFE", "VSYS"} <= set(schematic.box().nets) & layout.POWER
