"""A grid maze router for the two small boards: A* on two copper layers with vias.

Why our own: the boards are small (a keypad matrix, a Pico, a handful of SMD parts), KiCad 6 has
no scripted autorouter and Freerouting is not packaged where CI installs from. The router works
on a grid of `pitch` mm; for each of three widths (signal track, power track, via) a label map
holds, per layer and cell, which net may put that object's centre there: free (-1), one net, or
nobody (-2: too close to two nets, the board edge or a bare hole). A cell is labelled when the
object centred there would come closer than the clearance to something of another net, plus a
margin larger than half a grid diagonal, so that a straight move between two allowed cells is
allowed everywhere along it. KiCad's DRC (build.py) then checks the result exactly.

Pure numpy; knows nothing of KiCad. Coordinates in mm.
"""
from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field

import numpy as np

FREE, BLOCKED = -1, -2
LAYERS = ("F", "B")


@dataclass(frozen=True)
class Rules:
    clearance: float = 0.15
    signal: float = 0.2          # track widths
    power: float = 0.4
    via: float = 0.6             # via diameter (drill 0.3)
    edge: float = 0.3            # copper to board edge
    pitch: float = 0.2
    margin: float = 0.15         # > half a grid diagonal (0.141 at 0.2 mm)
    via_cost: float = 12.0
    hole_gap: float = 0.25       # drilled hole to drilled hole, whatever their nets
    drill: float = 0.3           # via drill
    greed: float = 1.3           # A* weight on the remaining distance: slightly longer tracks, far fewer cells searched
    across_cost: float = 1.4     # moving against a layer's preferred direction


@dataclass
class Shape:
    """A pad, a via or a piece of track: a rectangle (hw, hh), a circle (r) or a segment."""
    net: int                     # -2 for a bare hole (no net may come close)
    layers: tuple[int, ...]
    kind: str                    # "rect", "circle", "seg"
    x: float
    y: float
    hw: float = 0.0
    hh: float = 0.0
    r: float = 0.0
    x2: float = 0.0
    y2: float = 0.0


@dataclass
class Route:
    net: int
    width: float
    points: list[tuple[float, float, int]]       # (x, y, layer) along the track
    vias: list[tuple[float, float]] = field(default_factory=list)


class Grid:
    def __init__(self, size: tuple[float, float], outline, rules: Rules):
        self.rules = rules
        self.nx = int(math.ceil(size[0] / rules.pitch)) + 1
        self.ny = int(math.ceil(size[1] / rules.pitch)) + 1
        self.xs = np.arange(self.nx) * rules.pitch
        self.ys = np.arange(self.ny) * rules.pitch
        self.half = {"signal": rules.signal / 2, "power": rules.power / 2, "via": rules.via / 2}
        self.maps = {k: np.full((2, self.ny, self.nx), FREE, dtype=np.int32) for k in self.half}
        self.no_via = np.zeros((self.ny, self.nx), dtype=bool)   # too close to a drilled hole
        self._edge(outline)

    def drill(self, x: float, y: float, diameter: float) -> None:
        """A drilled hole: no via drill within the hole-to-hole gap of it, same net or not."""
        rl = self.rules
        reach = diameter / 2 + rl.hole_gap + rl.drill / 2 + rl.margin
        i0, i1 = self._ix(x - reach), self._ix(x + reach) + 1
        j0, j1 = self._iy(y - reach), self._iy(y + reach) + 1
        X, Y = np.meshgrid(self.xs[i0:i1], self.ys[j0:j1])
        self.no_via[j0:j1, i0:i1] |= np.hypot(X - x, Y - y) < reach

    def via_ok(self, net: int, i: int, j: int) -> bool:
        vm = self.maps["via"]
        return not self.no_via[j, i] and vm[0, j, i] in (FREE, net) and vm[1, j, i] in (FREE, net)

    # --- labelling ---------------------------------------------------------------------------
    def _edge(self, outline) -> None:
        X, Y = np.meshgrid(self.xs, self.ys)
        inside = np.zeros(X.shape, dtype=bool)
        dist = np.full(X.shape, np.inf)
        n = len(outline)
        for i in range(n):
            (xa, ya), (xb, yb) = outline[i], outline[(i + 1) % n]
            crosses = (ya > Y) != (yb > Y)
            with np.errstate(divide="ignore", invalid="ignore"):
                xint = xa + (Y - ya) * (xb - xa) / (yb - ya)
            inside ^= crosses & (X < xint)
            dist = np.minimum(dist, _seg_dist(X, Y, xa, ya, xb, yb))
        for key, half in self.half.items():
            bad = ~inside | (dist < self.rules.edge + half + self.rules.margin)
            self.maps[key][:, bad] = BLOCKED

    def stamp(self, s: Shape) -> None:
        rl = self.rules
        for key, half in self.half.items():
            reach = rl.clearance + half + rl.margin
            if s.kind == "seg":
                reach_box = reach + s.hw
                bx0, bx1 = min(s.x, s.x2) - reach_box, max(s.x, s.x2) + reach_box
                by0, by1 = min(s.y, s.y2) - reach_box, max(s.y, s.y2) + reach_box
            else:
                ext = max(s.hw, s.r) + reach
                ey = max(s.hh, s.r) + reach
                bx0, bx1, by0, by1 = s.x - ext, s.x + ext, s.y - ey, s.y + ey
            i0, i1 = self._ix(bx0), self._ix(bx1) + 1
            j0, j1 = self._iy(by0), self._iy(by1) + 1
            if i0 >= i1 or j0 >= j1:
                continue
            X, Y = np.meshgrid(self.xs[i0:i1], self.ys[j0:j1])
            if s.kind == "rect":
                d = np.hypot(np.maximum(abs(X - s.x) - s.hw, 0), np.maximum(abs(Y - s.y) - s.hh, 0))
            elif s.kind == "circle":
                d = np.hypot(X - s.x, Y - s.y) - s.r
            else:
                d = _seg_dist(X, Y, s.x, s.y, s.x2, s.y2) - s.hw
            near = d < reach
            for layer in s.layers:
                view = self.maps[key][layer, j0:j1, i0:i1]
                if s.net == BLOCKED:
                    view[near] = BLOCKED
                    continue
                free = near & (view == FREE)
                other = near & (view != FREE) & (view != s.net)
                view[free] = s.net
                view[other] = BLOCKED

    def _ix(self, x: float) -> int:
        return int(min(max(math.floor(x / self.rules.pitch), 0), self.nx))

    def _iy(self, y: float) -> int:
        return int(min(max(math.floor(y / self.rules.pitch), 0), self.ny))

    def cell(self, x: float, y: float) -> tuple[int, int]:
        return int(round(x / self.rules.pitch)), int(round(y / self.rules.pitch))

    def xy(self, i: int, j: int) -> tuple[float, float]:
        return i * self.rules.pitch, j * self.rules.pitch

    # --- search ------------------------------------------------------------------------------
    def search(self, net: int, width: str, starts, goals, bbox) -> list[tuple[int, int, int]] | None:
        """A* from any start cell to any goal cell, both sets of (layer, i, j)."""
        rl = self.rules
        m = self.maps[width]
        goal_set = set(goals)
        gx = np.array([g[2] for g in goals], dtype=float)
        gy = np.array([g[1] for g in goals], dtype=float)
        gmin_x, gmax_x, gmin_y, gmax_y = gx.min(), gx.max(), gy.min(), gy.max()

        def h(i: int, j: int) -> float:
            dx = max(gmin_x - i, 0, i - gmax_x)
            dy = max(gmin_y - j, 0, j - gmax_y)
            return rl.greed * (max(dx, dy) + 0.414 * min(dx, dy))

        i_lo, j_lo, i_hi, j_hi = bbox
        ok = lambda layer, i, j: i_lo <= i <= i_hi and j_lo <= j <= j_hi and m[layer, j, i] in (FREE, net)  # noqa: E731
        best: dict[tuple[int, int, int], float] = {}
        prev: dict[tuple[int, int, int], tuple[int, int, int] | None] = {}
        heap: list[tuple[float, float, tuple[int, int, int]]] = []
        for s in starts:
            if m[s] in (FREE, net):
                best[s] = 0.0
                prev[s] = None
                heapq.heappush(heap, (h(s[2], s[1]), 0.0, s))
        steps = ((1, 0, 1.0), (-1, 0, 1.0), (0, 1, 1.0), (0, -1, 1.0),
                 (1, 1, 1.414), (1, -1, 1.414), (-1, 1, 1.414), (-1, -1, 1.414))
        while heap:
            _, g, node = heapq.heappop(heap)
            if g > best.get(node, math.inf):
                continue
            if node in goal_set:
                path = []
                cur: tuple[int, int, int] | None = node
                while cur is not None:
                    path.append(cur)
                    cur = prev[cur]
                return path[::-1]
            layer, j, i = node
            for di, dj, cost in steps:
                ni, nj = i + di, j + dj
                if not ok(layer, ni, nj):
                    continue
                if di and dj and not (ok(layer, i + di, j) and ok(layer, i, j + dj)):
                    continue
                if (layer == 0 and dj and not di) or (layer == 1 and di and not dj):
                    cost *= rl.across_cost
                nxt = (layer, nj, ni)
                ng = g + cost
                if ng < best.get(nxt, math.inf):
                    best[nxt] = ng
                    prev[nxt] = node
                    heapq.heappush(heap, (ng + h(ni, nj), ng, nxt))
            if self.via_ok(net, i, j):
                nxt = (1 - layer, j, i)
                ng = g + rl.via_cost
                if ng < best.get(nxt, math.inf):
                    best[nxt] = ng
                    prev[nxt] = node
                    heapq.heappush(heap, (ng + h(i, j), ng, nxt))
        return None


def _seg_dist(X, Y, xa, ya, xb, yb):
    dx, dy = xb - xa, yb - ya
    ll = dx * dx + dy * dy
    if ll == 0:
        return np.hypot(X - xa, Y - ya)
    t = np.clip(((X - xa) * dx + (Y - ya) * dy) / ll, 0.0, 1.0)
    return np.hypot(X - (xa + t * dx), Y - (ya + t * dy))


def pad_cells(grid: Grid, pad: Shape, net: int, width: str) -> list[tuple[int, int, int]]:
    """Cells whose centre lies inside the pad, on the pad's layers, that the net may use."""
    out = []
    ext_x = pad.hw if pad.kind == "rect" else pad.r * 0.7
    ext_y = pad.hh if pad.kind == "rect" else pad.r * 0.7
    i0, i1 = grid.cell(pad.x - ext_x, pad.y)[0], grid.cell(pad.x + ext_x, pad.y)[0]
    j0, j1 = grid.cell(pad.x, pad.y - ext_y)[1], grid.cell(pad.x, pad.y + ext_y)[1]
    m = grid.maps[width]
    for layer in pad.layers:
        for j in range(j0, j1 + 1):
            for i in range(i0, i1 + 1):
                x, y = grid.xy(i, j)
                if abs(x - pad.x) <= ext_x and abs(y - pad.y) <= ext_y and m[layer, j, i] in (FREE, net):
                    out.append((layer, j, i))
    return out


def simplify(path: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """Keep the corners and the layer changes of a cell path."""
    if len(path) < 3:
        return path
    out = [path[0]]
    for a, b, c in zip(path, path[1:], path[2:]):
        if a[0] != b[0] or b[0] != c[0]:
            out.append(b)
            continue
        if (b[1] - a[1], b[2] - a[2]) != (c[1] - b[1], c[2] - b[2]):
            out.append(b)
    out.append(path[-1])
    return out


def route_net(grid: Grid, net: int, pads: list[Shape], width: str) -> list[Route] | None:
    """Connect the net's pads one by one to the tree grown so far (nearest pad first)."""
    pitch = grid.rules.pitch
    w = grid.rules.power if width == "power" else grid.rules.signal
    tree = [pads[0]]
    tree_cells = set(pad_cells(grid, pads[0], net, width))
    todo = pads[1:]
    routes: list[Route] = []
    while todo:
        todo.sort(key=lambda p: min(math.hypot(p.x - t.x, p.y - t.y) for t in tree))
        pad = todo.pop(0)
        starts = pad_cells(grid, pad, net, width)
        if not starts or not tree_cells:
            return None
        path = None
        for grow in (6.0, 20.0, 1e4):
            xs = [pad.x] + [t.x for t in tree]
            ys = [pad.y] + [t.y for t in tree]
            bbox = (max(int((min(xs) - grow) / pitch), 0), max(int((min(ys) - grow) / pitch), 0),
                    min(int((max(xs) + grow) / pitch), grid.nx - 1), min(int((max(ys) + grow) / pitch), grid.ny - 1))
            goals = [c for c in tree_cells if bbox[0] <= c[2] <= bbox[2] and bbox[1] <= c[1] <= bbox[3]]
            if goals:
                path = grid.search(net, width, starts, goals, bbox)
            if path:
                break
        if path is None:
            return None
        pts = simplify(path)
        route = Route(net, w, [(*grid.xy(i, j), layer) for layer, j, i in pts])
        for a, b in zip(pts, pts[1:]):
            if a[0] != b[0]:
                route.vias.append(grid.xy(a[2], a[1]))
        commit(grid, route)
        routes.append(route)
        tree.append(pad)
        tree_cells.update(pad_cells(grid, pad, net, width))
        tree_cells.update(path)
    return routes


def commit(grid: Grid, route: Route) -> None:
    for (xa, ya, la), (xb, yb, lb) in zip(route.points, route.points[1:]):
        if la == lb:
            grid.stamp(Shape(route.net, (la,), "seg", xa, ya, hw=route.width / 2, x2=xb, y2=yb))
    for x, y in route.vias:
        grid.stamp(Shape(route.net, (0, 1), "circle", x, y, r=grid.rules.via / 2))
        grid.drill(x, y, grid.rules.drill)
