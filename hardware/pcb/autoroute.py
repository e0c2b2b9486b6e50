"""Route a whole board on router.py's grid: ground vias beside the single-sided ground pads,
every other net in a fixed order, stitching vias for the two ground planes. Pure data in, pure
data out (no KiCad): build.py hands it the pads as KiCad placed them and adds what comes back.

The plan depends only on its inputs (the pads, the outline, the rules and the code of this
module and router.py), so `key()` names it and build.py keeps it under build/: a board whose
inputs did not change is not routed again, only checked again by KiCad.
"""
from __future__ import annotations

import hashlib
import json
import math
import pathlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field

from hardware.pcb import router

HERE = pathlib.Path(__file__).resolve().parent
GND = "GND"


@dataclass
class Plan:
    routes: list[router.Route]
    stitches: list[tuple[float, float]]
    failed: list[str] = field(default_factory=list)
    attempts: int = 1
    nets: int = 0

    def to_json(self) -> str:
        return json.dumps({"routes": [asdict(r) for r in self.routes], "stitches": self.stitches,
                           "failed": self.failed, "attempts": self.attempts, "nets": self.nets})

    @classmethod
    def from_json(cls, text: str) -> Plan:
        d = json.loads(text)
        routes = [router.Route(r["net"], r["width"], [(x, y, int(layer)) for x, y, layer in r["points"]],
                               [(x, y) for x, y in r["vias"]]) for r in d["routes"]]
        return cls(routes, [(x, y) for x, y in d["stitches"]], d["failed"], d["attempts"], d["nets"])


Outline = Sequence[tuple[float, float]]


def key(size: tuple[float, float], outline: Outline, names: list[str], pads: list[tuple[str, router.Shape]],
        holes: list[tuple[float, float, float]], power: set[str], rules: router.Rules) -> str:
    """A hash of everything the plan depends on, the routing code included."""
    h = hashlib.sha256()
    for module in ("router.py", "autoroute.py"):
        h.update((HERE / module).read_bytes())
    h.update(json.dumps([list(size), [list(p) for p in outline], names, [(n, asdict(s)) for n, s in pads],
                         [list(x) for x in holes], sorted(power), asdict(rules)]).encode())
    return h.hexdigest()[:20]


def plan(size: tuple[float, float], outline: Outline, names: list[str], pads: list[tuple[str, router.Shape]],
         holes: list[tuple[float, float, float]], power: set[str], rules: router.Rules) -> Plan:
    """`names` are the nets in a fixed order (their ids are their indices), `pads` every copper
    pad with its net name ("" for none), `holes` every drilled hole as (x, y, diameter)."""
    ids = {name: i for i, name in enumerate(names)}
    base = router.Grid(size, outline, rules)
    by_net: dict[str, list[router.Shape]] = {}
    for name, shape in pads:
        base.stamp(shape)
        if name in ids:
            by_net.setdefault(name, []).append(shape)
    for x, y, d in holes:
        base.drill(x, y, d)
    bridges, terminals = join_fine_pitch(by_net, ids)
    for b in bridges:
        router.commit(base, b)
    gnd = ids.get(GND, -3)
    ground = fan_out_ground(base, gnd, by_net.get(GND, []))
    order = sorted((n for n in by_net if n != GND and len(terminals[n]) > 1),
                   key=lambda n: (n not in power, _span(by_net[n]), n))
    failed: list[str] = []
    grid = base
    for attempt in range(1, 4):
        grid = base.copy()
        routes: list[router.Route] = []
        failed = []
        for name in order:
            r = router.route_net(grid, ids[name], terminals[name], "power" if name in power else "signal")
            if r is None:
                failed.append(name)
            else:
                routes += r
        if not failed:
            break
        # rip up: the nets that found no way go first next time
        print(f"attempt {attempt}: {failed} not routed; again with them first", file=sys.stderr)
        order = failed + [n for n in order if n not in failed]
    stitches = stitch(grid, gnd) if GND in ids else []
    return Plan(bridges + ground + routes, stitches, failed, attempt, len(order))


def join_fine_pitch(by_net: dict[str, list[router.Shape]], ids: dict[str, int]
                    ) -> tuple[list[router.Route], dict[str, list[list[router.Shape]]]]:
    """Neighbouring pads of one net in a fine-pitch row (a QFN's five IN pads) joined by a strip
    of copper as wide as the pads' narrow side, straight from centre to centre: the router then treats the row
    as one terminal and may start on whichever of its pads has room for the track."""
    bridges: list[router.Route] = []
    terminals: dict[str, list[list[router.Shape]]] = {}
    for name, shapes in by_net.items():
        group = list(range(len(shapes)))
        root = _finder(group)
        for a, pa in enumerate(shapes):
            for b in range(a + 1, len(shapes)):
                pb = shapes[b]
                if pa.kind != "rect" or pb.kind != "rect" or len(pa.layers) != 1 or pa.layers != pb.layers:
                    continue
                dx, dy = abs(pa.x - pb.x), abs(pa.y - pb.y)
                if (dx < 1e-6 and dy <= 0.55) or (dy < 1e-6 and dx <= 0.55):
                    # round ends no wider than the pads' narrow side: nothing sticks out past a pad
                    width = 2 * min(pa.hw, pa.hh, pb.hw, pb.hh)
                    layer = pa.layers[0]
                    bridges.append(router.Route(ids[name], round(width, 4),
                                                [(pa.x, pa.y, layer), (pb.x, pb.y, layer)]))
                    group[root(b)] = root(a)
        joined: dict[int, list[router.Shape]] = {}
        for k, shape in enumerate(shapes):
            joined.setdefault(root(k), []).append(shape)
        terminals[name] = list(joined.values())
    return bridges, terminals


def _finder(group: list[int]) -> Callable[[int], int]:
    def root(k: int) -> int:
        while group[k] != k:
            k = group[k]
        return k
    return root


def _span(shapes: list[router.Shape]) -> float:
    xs, ys = [s.x for s in shapes], [s.y for s in shapes]
    return round((max(xs) - min(xs)) + (max(ys) - min(ys)), 3)


def fan_out_ground(grid: router.Grid, gnd: int, pads: list[router.Shape]) -> list[router.Route]:
    """A via beside every single-sided ground pad, so both ground planes reach it: the shortest
    track from the pad to the nearest place where a via may stand. A pad with no room for one
    nearby is joined by a track to the nearest ground copper on both layers (a through-hole
    ground pad or a ground via already placed)."""
    out: list[router.Route] = []
    anchors = [p for p in pads if len(p.layers) == 2]
    for pad in pads:
        if len(pad.layers) != 1:
            continue
        r = _via_beside(grid, gnd, pad) or _to_anchor(grid, gnd, pad, anchors)
        if r is None:
            print(f"no ground via for the pad at ({pad.x:.2f}, {pad.y:.2f})", file=sys.stderr)
            continue
        router.commit(grid, r)
        out.append(r)
        for x, y in r.vias:
            anchors.append(router.Shape(gnd, (0, 1), "circle", x, y, r=grid.rules.via / 2))
    return out


def _via_beside(grid: router.Grid, gnd: int, pad: router.Shape) -> router.Route | None:
    layer = pad.layers[0]
    ci, cj = grid.cell(pad.x, pad.y)
    starts = router.pad_cells(grid, pad, gnd, "signal")
    if not starts:
        return None
    m = grid.maps["signal"][layer]
    for mm in (1.5, 2.5):   # the nearest place first: a far via takes room from the signals
        reach = int(mm / grid.rules.pitch)
        i0, j0 = max(ci - reach, 0), max(cj - reach, 0)
        i1, j1 = min(ci + reach, grid.nx - 1), min(cj + reach, grid.ny - 1)
        goals = [(layer, j, i) for j in range(j0, j1 + 1) for i in range(i0, i1 + 1)
                 if grid.via_ok(gnd, i, j) and m[j, i] in (router.FREE, gnd)]
        path = grid.search(gnd, "signal", starts, goals, (i0, j0, i1, j1)) if goals else None
        if path:
            _, j, i = path[-1]
            pts = router.simplify(path)
            return router.Route(gnd, grid.rules.signal, [(*grid.xy(i2, j2), lay2) for lay2, j2, i2 in pts],
                                [grid.xy(i, j)])
    return None


def _to_anchor(grid: router.Grid, gnd: int, pad: router.Shape, anchors: list[router.Shape]) -> router.Route | None:
    if not anchors:
        return None
    near = sorted(anchors, key=lambda a: (math.hypot(a.x - pad.x, a.y - pad.y), a.x, a.y))[:8]
    routes = router.route_net(grid, gnd, [[pad], near[:1]], "signal")
    return routes[0] if routes else None


def stitch(grid: router.Grid, gnd: int, step: float = 6.0) -> list[tuple[float, float]]:
    """Ground vias on a regular pattern wherever one fits: the two planes as one."""
    vias = []
    n = int(round(step / grid.rules.pitch))
    for j in range(n // 2, grid.ny, n):
        for i in range(n // 2, grid.nx, n):
            if grid.via_ok(gnd, i, j):
                x, y = grid.xy(i, j)
                grid.stamp(router.Shape(gnd, (0, 1), "circle", x, y, r=grid.rules.via / 2))
                grid.drill(x, y, grid.rules.drill)
                vias.append((x, y))
    return vias
