"""Where every part of the two boards sits: outline, fixing holes and placement, as data.

Coordinates in mm from the board's top-left corner (+y down, KiCad's convention); rotation in
degrees counter-clockwise as KiCad shows it; side "B" parts are flipped to the bottom (mirrored
left-right about their position). The box's geometry follows hardware/fit.py (the keypad pitch,
the display and the Pico's outline) and the enclosure (hardware/enclosure/design.py, model.py) is built
around `BOX.size` and `BOX.holes`. `overlaps(board)` checks courtyards and the outline without
KiCad; build.py checks the same placement again with KiCad's DRC.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from hardware import fit
from hardware.pcb.footprints import FOOTPRINTS


@dataclass(frozen=True)
class Place:
    x: float
    y: float
    rot: float = 0.0
    side: str = "F"


@dataclass(frozen=True)
class BoardLayout:
    name: str
    size: tuple[float, float]                     # width (x), length (y)
    outline: tuple[tuple[float, float], ...]      # closed polygon, clockwise
    holes: tuple[tuple[float, float], ...]        # M3 fixing holes
    places: dict[str, Place]
    title: str


def _rect_outline(w: float, h: float, notch: tuple[float, float, float] | None = None):
    if notch is None:
        return ((0.0, 0.0), (w, 0.0), (w, h), (0.0, h))
    x0, x1, depth = notch
    return ((0.0, 0.0), (x0, 0.0), (x0, depth), (x1, depth), (x1, 0.0), (w, 0.0), (w, h), (0.0, h))


# --- the box ---------------------------------------------------------------------------------
KEY_PITCH = fit.KEYPAD.pitch
BOX_W, BOX_H = 80.0, 146.0
KEY_X0, KEY_Y0 = 10.0, 72.0              # centre of the top-left key (row 0, column 0)
DISPLAY_XY = (BOX_W / 2, 12.0 + fit.DISPLAY_242.depth / 2)   # centre of the module outline
GLAND_NOTCH = (31.0, 49.0, 11.0)         # x0, x1, depth: room for the cable gland's inner nut


def key_xy(row: int, col: int) -> tuple[float, float]:
    return KEY_X0 + col * KEY_PITCH, KEY_Y0 + row * KEY_PITCH


def _box_places() -> dict[str, Place]:
    p: dict[str, Place] = {
        # cable entry, the left of the gland: pads, TVS, the eFuse with its divider, ILIM resistor
        # and dVdT capacitor, then the Schottky to VSYS (U5's pads on the 0.25 mm routing grid)
        "J1": Place(27.0, 7.75, 90), "D28": Place(21.5, 6.0, 90), "C3": Place(18.0, 3.0),
        "U5": Place(13.0, 6.5, 90), "R20": Place(14.5, 2.2, 180), "R21": Place(11.0, 2.2, 180),
        "R22": Place(8.0, 6.0, 90), "R23": Place(8.0, 9.5, 90), "C4": Place(11.5, 10.5),
        "D26": Place(17.0, 11.0, 180),
        # the transceiver on the right of the gland, its bus TVS and the termination jumper
        "D27": Place(53.5, 4.0, 90), "U2": Place(60.5, 6.0), "C1": Place(60.5, 11.0),
        # J2 and J3 stand 8.5 mm with their shunts: fitted from the bottom side, or they would
        # stand through the lid (hardware/enclosure.md); through-hole, so the copper is the same
        "R5": Place(68.0, 2.5), "J2": Place(68.0, 7.5, 0, "B"),
        # the display's own header, then the Pico under the display, USB towards the inside
        "J4": Place(40.0, 14.5), "R8": Place(53.0, 17.0, 0, "B"),
        "U1": Place(40.0, 31.5, 90, "B"), "C2": Place(68.0, 24.0, 90, "B"),
        # LEDs, seat jumpers and buzzer between the display and the keys; the buzzer (12.2 mm
        # across) 0.6 mm clear of the display module's lower edge (y 51.5), its courtyard
        # 1.1 mm clear of the first key row's
        "J3": Place(8.5, 57.0, 0, "B"), "LED1": Place(25.0, 56.5), "LED2": Place(40.0, 56.5),
        "LED3": Place(55.0, 56.5), "R1": Place(25.0, 61.0), "R2": Place(40.0, 61.0),
        "R3": Place(55.0, 61.0), "BZ1": Place(71.0, 58.2), "R4": Place(62.0, 61.0),
        # keypad protection (bottom): a TVS array and five 100 ohm resistors for rows, the same for columns
        "U3": Place(32.0, 52.5), "U4": Place(48.0, 52.5),
    }
    for i in range(5):
        p[f"R{10 + i}"] = Place(14.0 + 4.0 * i, 46.0, 90, "B")
        p[f"R{15 + i}"] = Place(50.0 + 4.0 * i, 46.0, 90, "B")
    for r in range(5):
        for c in range(5):
            k = 5 * r + c + 1
            x, y = key_xy(r, c)
            p[f"SW{k}"] = Place(x, y)
            p[f"D{k}"] = Place(x, y, 0, "B")     # under its switch, on the bottom
    return p


BOX = BoardLayout("box", (BOX_W, BOX_H), _rect_outline(BOX_W, BOX_H, GLAND_NOTCH),
                  ((3.5, 3.5), (76.5, 12.0), (20.0, 142.0), (60.0, 142.0)), _box_places(),
                  "bidding box main board")

# --- the hub ---------------------------------------------------------------------------------
HUB_W, HUB_H = 100.0, 70.0


def _hub_places() -> dict[str, Place]:
    # U1 (SSOP-20, 0.65 mm pitch) with its first pad on the 0.25 mm routing grid: then every pad
    # has a grid row within 0.1 mm of its centre, room for a track between its neighbours
    p: dict[str, Place] = {
        "J1": Place(17.5, 20.0), "J2": Place(15.0, 50.0),
        "D1": Place(22.0, 13.0), "R1": Place(27.0, 11.0), "R2": Place(27.0, 15.0),
        "U1": Place(37.0, 20.175), "C1": Place(22.0, 27.0, 90), "C2": Place(31.0, 28.0),
        "C3": Place(42.0, 30.0), "U3": Place(47.0, 36.0), "C4": Place(53.0, 36.0, 90),
        "U2": Place(55.0, 20.0), "C5": Place(55.0, 27.0), "R3": Place(62.0, 15.0, 90),
        "R4": Place(65.0, 15.0, 90), "R5": Place(63.0, 26.0, 90), "C6": Place(25.0, 45.0, 90),
    }
    for k in range(4):
        y = 10.0 + 16.0 * k
        p[f"J{k + 3}"] = Place(91.0, y + 2.0, 90)
        p[f"F{k + 1}"] = Place(76.0, y)
        p[f"D{k + 6}"] = Place(84.0, y + 4.0)
        p[f"D{k + 2}"] = Place(86.5, y - 2.5, 90)
    return p


HUB = BoardLayout("hub", (HUB_W, HUB_H), _rect_outline(HUB_W, HUB_H),
                  ((3.5, 3.5), (96.5, 3.5), (3.5, 66.5), (96.5, 66.5)), _hub_places(), "bidding box table hub")

LAYOUTS = {"box": BOX, "hub": HUB}
# nets that carry a board's or a port's supply current: routed 0.4 mm wide where the pins allow
POWER = {"5V_IN", "5V_SAFE", "VSYS", "3V3", "+5V_PSU", "VBUS", "PORT1_5V", "PORT2_5V", "PORT3_5V", "PORT4_5V"}


# --- checks without KiCad --------------------------------------------------------------------

def world(place: Place, lx: float, ly: float) -> tuple[float, float]:
    """A footprint-local point on the board: KiCad's rotation (CCW on screen), then the flip."""
    a = math.radians(place.rot)
    x = lx * math.cos(a) + ly * math.sin(a)
    y = -lx * math.sin(a) + ly * math.cos(a)
    if place.side == "B":
        x = -x
    return place.x + x, place.y + y


def courtyard(footprint: str, place: Place) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = FOOTPRINTS[footprint].courtyard
    pts = [world(place, x, y) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
    xs, ys = [q[0] for q in pts], [q[1] for q in pts]
    return min(xs), min(ys), max(xs), max(ys)


def _inside(outline, x: float, y: float) -> bool:
    inside = False
    n = len(outline)
    for i in range(n):
        (xa, ya), (xb, yb) = outline[i], outline[(i + 1) % n]
        if (ya > y) != (yb > y) and x < xa + (y - ya) * (xb - xa) / (yb - ya):
            inside = not inside
    return inside


def overlaps(layout: BoardLayout, footprints: dict[str, str]) -> list[str]:
    """Courtyards that overlap on one side (as KiCad's DRC sees them: a part's courtyard is on
    the side it is placed; copper clearance covers a through-hole pin under a bottom part), or leave the
    outline. `footprints` maps each reference to its footprint name (from the schematic)."""
    boxes = []
    for ref, fp in footprints.items():
        pl = layout.places[ref]
        boxes.append((ref, courtyard(fp, pl), {pl.side}))
    for i, (x, y) in enumerate(layout.holes):
        boxes.append((f"H{i + 1}", courtyard("MountingHole_3.2mm", Place(x, y)), {"F", "B"}))
    problems = []
    for i, (ra, a, sa) in enumerate(boxes):
        corners = ((a[0], a[1]), (a[2], a[1]), (a[2], a[3]), (a[0], a[3]))
        if not all(_inside(layout.outline, x, y) for x, y in corners):
            problems.append(f"{ra} leaves the board outline")
        for rb, b, sb in boxes[i + 1:]:
            if sa & sb and a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                problems.append(f"{ra} overlaps {rb}")
    return problems
