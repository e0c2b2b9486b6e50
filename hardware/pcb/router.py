"""A grid maze router for the two small boards: A* on two copper layers with vias.

Why our own: the boards are small (a keypad matrix, a Pico, a handful of SMD parts), KiCad 6 has
no scripted autorouter and Freerouting is not packaged where CI installs from. The router works
on a grid of `pitch` mm; for each of three widths (signal track, power track, via) a label map
holds, per layer and cell, which net may put that object's centre there: free (-1), one net, or
nobody (-2: too close to two nets, the board edge or a bare hole). A cell is labelled when the
object centred there would come closer than the clearance to something of another net, plus a
small margin: every obstacle grown by the clearance is convex with corners rounded to at least
the clearance plus half a track (0.25 mm), and a straight move is taken only between allowed
cells (a diagonal one only when both cells beside it are allowed too), so the most such a grown
obstacle can reach into a move's cell square without covering a corner of it is the sagitta of
the square's diagonal on that radius (0.073 mm at a 0.25 mm pitch): the margin covers it.
KiCad's DRC (build.py) then checks the result exactly.

Pure numpy; knows nothing of KiCad. Coordinates in mm.
"""
from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

FREE, BLOCKED = -1, -2
LAYERS = ("F", "B")
Cell = tuple[int, int, int]      # (layer, j, i): layer 0 top, 1 bottom; row j, column i


@dataclass(frozen=True)
class Rules:
    clearance: float = 0.15
    signal: float = 0.2          # track widths
    power: float = 0.4
    via: float = 0.6             # via diameter (drill 0.3)
    edge: float = 0.3            # copper to board edge
    pitch: float = 0.25          # 0.5 mm-pitch pads placed on the grid get a column each
    margin: float = 0.08         # > the sagitta above (0.073 mm)
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
    def __init__(self, size: tuple[float, float], outline: Sequence[tuple[float, float]], rules: Rules) -> None:
        self.rules = rules
        self.nx = int(math.ceil(size[0] / rules.pitch)) + 1
        self.ny = int(math.ceil(size[1] / rules.pitch)) + 1
        self.xs = np.arange(self.nx) * rules.pitch
        self.ys = np.arange(self.ny) * rules.pitch
        self.half = {"signal": rules.signal / 2, "power": rules.power / 2, "via": rules.via / 2}
        self.maps = {k: np.full((2, self.ny, self.nx), FREE, dtype=np.int32) for k in self.half}
        self.no_via = np.zeros((self.ny, self.nx), dtype=bool)   # too close to a drilled hole
        self._edge(outline)

    def copy(self) -> Grid:
        g = object.__new__(Grid)
        g.__dict__.update(self.__dict__)
        g.maps = {k: v.copy() for k, v in self.maps.items()}
        g.no_via = self.no_via.copy()
        return g

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
    def _edge(self, outline: Sequence[tuple[float, float]]) -> None:
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
    def search(self, net: int, width: str, starts: Sequence[Cell], goals: Sequence[Cell],
               bbox: tuple[int, int, int, int]) -> list[Cell] | None:
        """A* from any start cell to any goal cell, both sets of (layer, j, i), inside bbox
        (i0, j0, i1, j1). The window is copied once into flat Python byte strings (which cells
        the net may use, where a via may stand), so the loop touches no numpy scalar; ties are
        broken by insertion order, so a search gives the same path every run."""
        rl = self.rules
        i0, j0, i1, j1 = bbox
        allowed, via_at, w, h = self._window(net, width, bbox)
        plane = w * h

        def flat(c: tuple[int, int, int]) -> int:
            return c[0] * plane + (c[1] - j0 + 1) * w + (c[2] - i0 + 1)

        inside = [g for g in goals if i0 <= g[2] <= i1 and j0 <= g[1] <= j1]
        goal_set = {flat(g) for g in inside}
        if not goal_set:
            return None
        gx = [g[2] - i0 + 1 for g in inside]
        gy = [g[1] - j0 + 1 for g in inside]
        gx0, gx1, gy0, gy1 = min(gx), max(gx), min(gy), max(gy)
        greed, across, via_cost = rl.greed, rl.across_cost, rl.via_cost
        # (offset, cost on the top layer, cost on the bottom layer, side step a, side step b)
        steps = []
        for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)):
            diag = di != 0 and dj != 0
            c = math.sqrt(2.0) if diag else 1.0
            top = c * (across if (dj and not di) else 1.0)      # top runs along x, bottom along y
            bottom = c * (across if (di and not dj) else 1.0)
            steps.append((dj * w + di, top, bottom, di if diag else 0, dj * w if diag else 0))
        inf = math.inf
        best = [inf] * (2 * plane)
        prev = [-1] * (2 * plane)
        heap: list[tuple[float, float, int, int]] = []
        count = 0
        for s in starts:
            f = flat(s)
            if i0 <= s[2] <= i1 and j0 <= s[1] <= j1 and allowed[f] and best[f] > 0.0:
                best[f] = 0.0
                heapq.heappush(heap, (0.0, 0.0, count, f))
                count += 1
        while heap:
            _, g, _, node = heapq.heappop(heap)
            if g > best[node]:
                continue
            if node in goal_set:
                return self._unflat(node, prev, plane, w, i0, j0)
            layer = node >= plane
            for off, c_top, c_bottom, sa, sb in steps:
                nxt = node + off
                if not allowed[nxt] or (sa and not (allowed[node + sa] and allowed[node + sb])):
                    continue
                ng = g + (c_bottom if layer else c_top)
                if ng < best[nxt]:
                    best[nxt] = ng
                    prev[nxt] = node
                    rest = nxt - plane if layer else nxt
                    y, x = divmod(rest, w)
                    dx = gx0 - x if x < gx0 else (x - gx1 if x > gx1 else 0)
                    dy = gy0 - y if y < gy0 else (y - gy1 if y > gy1 else 0)
                    hh = (dx + 0.414 * dy) if dx > dy else (dy + 0.414 * dx)
                    count += 1
                    heapq.heappush(heap, (ng + greed * hh, ng, count, nxt))
            rest = node - plane if layer else node
            if via_at[rest]:
                nxt = rest if layer else node + plane
                ng = g + via_cost
                if ng < best[nxt] and allowed[nxt]:
                    best[nxt] = ng
                    prev[nxt] = node
                    y, x = divmod(rest, w)
                    dx = gx0 - x if x < gx0 else (x - gx1 if x > gx1 else 0)
                    dy = gy0 - y if y < gy0 else (y - gy1 if y > gy1 else 0)
                    hh = (dx + 0.414 * dy) if dx > dy else (dy + 0.414 * dx)
                    count += 1
                    heapq.heappush(heap, (ng + greed * hh, ng, count, nxt))
        return None

    def _window(self, net: int, width: str, bbox: tuple[int, int, int, int]) -> tuple[bytes, bytes, int, int]:
        """The window's cells the net may use (both layers) and where a via may stand, as flat
        byte strings with a border of blocked cells (so the search needs no bounds checks)."""
        i0, j0, i1, j1 = bbox
        w, h = i1 - i0 + 3, j1 - j0 + 3
        m = self.maps[width][:, j0:j1 + 1, i0:i1 + 1]
        ok = np.zeros((2, h, w), dtype=np.uint8)
        ok[:, 1:-1, 1:-1] = (m == FREE) | (m == net)
        vm = self.maps["via"][:, j0:j1 + 1, i0:i1 + 1]
        via = np.zeros((h, w), dtype=np.uint8)
        via[1:-1, 1:-1] = (~self.no_via[j0:j1 + 1, i0:i1 + 1] & ((vm[0] == FREE) | (vm[0] == net))
                           & ((vm[1] == FREE) | (vm[1] == net)))
        return ok.tobytes(), via.tobytes(), w, h

    @staticmethod
    def _unflat(node: int, prev: list[int], plane: int, w: int, i0: int, j0: int) -> list[tuple[int, int, int]]:
        path = []
        while node != -1:
            layer, rest = divmod(node, plane)
            y, x = divmod(rest, w)
            path.append((layer, y - 1 + j0, x - 1 + i0))
            node = prev[node]
        return path[::-1]


def _seg_dist(X: np.ndarray, Y: np.ndarray, xa: float, ya: float, xb: float, yb: float) -> np.ndarray:
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
    for a, b, c in zip(path, path[1:], path[2:], strict=False):
        if a[0] != b[0] or b[0] != c[0]:
            out.append(b)
            continue
        if (b[1] - a[1], b[2] - a[2]) != (c[1] - b[1], c[2] - b[2]):
            out.append(b)
    out.append(path[-1])
    return out


def route_net(grid: Grid, net: int, terminals: list[list[Shape]], width: str) -> list[Route] | None:
    """Connect the net's terminals (each one pad, or pads already joined in copper) one by one to
    the tree grown so far, nearest first. Each search runs from the whole tree to the new
    terminal, so A*'s estimate (the distance to that terminal) is a close one. A power net's
    connection that finds no way at its width (a fine-pitch pin has no room for a wide track)
    is made at the signal width: such a pin draws little."""
    tree = list(terminals[0])
    tree_cells: set[tuple[int, int, int]] = set()
    for pad in terminals[0]:
        tree_cells.update(pad_cells(grid, pad, net, width) or pad_cells(grid, pad, net, "signal"))
    todo = list(terminals[1:])
    routes: list[Route] = []
    while todo:
        todo.sort(key=lambda term: min(math.hypot(p.x - t.x, p.y - t.y) for p in term for t in tree))
        term = todo.pop(0)
        found = None
        for kind in dict.fromkeys((width, "signal")):
            found = _connect(grid, net, tree, tree_cells, term, kind)
            if found:
                break
        if found is None:
            return None
        route, goals, path = found
        commit(grid, route)
        routes.append(route)
        tree += term
        tree_cells.update(goals)
        tree_cells.update(path)
    return routes


def _connect(grid: Grid, net: int, tree: list[Shape], tree_cells: set[Cell], term: list[Shape],
             width: str) -> tuple[Route, list[Cell], list[Cell]] | None:
    pitch = grid.rules.pitch
    goals = [c for pad in term for c in pad_cells(grid, pad, net, width)]
    if not goals or not tree_cells:
        return None
    near = min(tree, key=lambda t: min(math.hypot(p.x - t.x, p.y - t.y) for p in term))
    path = None
    for grow in (4.0, 12.0, 1e4):
        xs = [p.x for p in term] + [near.x]
        ys = [p.y for p in term] + [near.y]
        bbox = (max(int((min(xs) - grow) / pitch), 0), max(int((min(ys) - grow) / pitch), 0),
                min(int((max(xs) + grow) / pitch) + 1, grid.nx - 1),
                min(int((max(ys) + grow) / pitch) + 1, grid.ny - 1))
        starts = sorted(c for c in tree_cells if bbox[0] <= c[2] <= bbox[2] and bbox[1] <= c[1] <= bbox[3])
        if starts:
            path = grid.search(net, width, starts, goals, bbox)
        if path:
            break
    if path is None:
        return None
    pts = simplify(path)
    route = Route(net, grid.rules.power if width == "power" else grid.rules.signal,
                  [(*grid.xy(i, j), layer) for layer, j, i in pts])
    for a, b in zip(pts, pts[1:], strict=False):
        if a[0] != b[0]:
            route.vias.append(grid.xy(a[2], a[1]))
    return route, goals, path


def commit(grid: Grid, route: Route) -> None:
    for (xa, ya, la), (xb, yb, lb) in zip(route.points, route.points[1:], strict=False):
        if la == lb:
            grid.stamp(Shape(route.net, (la,), "seg", xa, ya, hw=route.width / 2, x2=xb, y2=yb))
    for x, y in route.vias:
        grid.stamp(Shape(route.net, (0, 1), "circle", x, y, r=grid.rules.via / 2))
        grid.drill(x, y, grid.rules.drill)
