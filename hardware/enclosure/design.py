"""The enclosure's dimensions, derived: from the PCB's layout (hardware/pcb/layout.py: outline,
fixing holes, where each part sits) and the bought parts' figures (parts.py). Pure arithmetic, no
CAD: fit.py and the tests use the same numbers the solids are built from (model.py).

Axes: x along the board's width, y along its length with the cable's end at the top (board
y = 0 is the enclosure's y = BOARD_L), z up with the main PCB's bottom face at z = 0. A board
point (bx, by) from layout.py is `to_box(bx, by)`.

The stack, bottom up: the base plate; under the PCB the Pico (soldered flat by its castellations)
and the jumper headers J2 and J3 with their shunts (fitted from below: on top they would stand
through the lid); the PCB; the switches, the display module on its header, the LEDs and the
buzzer; the lid, whose top is set by the key caps: each cap stands KEY_PROUD above it. The height
inside is the larger of what stands under the PCB and what the gland's locknut needs.
"""
from __future__ import annotations

from dataclasses import dataclass

from hardware import schematic
from hardware.enclosure import parts
from hardware.pcb import layout
from hardware.pcb.footprints import FOOTPRINTS

BOARD_W, BOARD_L = layout.BOX.size
PCB = 1.6                 # board thickness (the KiCad stack-up's 1.6 mm)

# --- choices (why, in hardware/enclosure.md) -----------------------------------------------------
WALL = 2.5                # side walls: a printed wall of six 0.42 mm perimeters, stiff enough for the gland
LID = 2.0                 # the lid's plate over the keys
BASE = 2.0                # the base plate
EDGE_GAP = 1.0            # the PCB's edge to the walls (board outline +-0.2, printed walls +-0.3)
KEY_PROUD = 2.5           # a key cap's top above the lid: a fingertip finds it, a sleeve does not press it
KEY_HOLE_GAP = 0.3        # a cap to its hole in the lid, each side
OVER_PART = 0.3           # the lid's underside (or a pocket in it) over a part that stands under it
UNDER_PART = 0.5          # a part under the PCB to the base plate
WINDOW_MARGIN = 1.0       # the display window beyond the active area, each side
BEZEL_CHAMFER = 0.8       # the window's top edge, for the view from a seated player
POCKET_GAP = 0.5          # a pocket's side to the part in it
BOSS = 7.0                # boss and pillar diameter at the fixing holes
SCREW_HOLE = 3.4          # M3 clearance in the base and the pillars
RUN_OUT = 1.0             # the insert's hole goes on this far past the insert, room for the screw's tip
SKIN = 1.0                # least plastic left over a pocket or a blind hole in the lid
LED_HOLE = 3.2            # the LEDs' light holes (3 mm LEDs)
LED_SINK = 5.0            # their countersink at the top: the LED seen from the seat, not only from above
SOUND_HOLE = 1.5          # the buzzer's holes through the lid
NUT_GAP = 0.7             # the gland's locknut to the lid above and the base below


def to_box(bx: float, by: float) -> tuple[float, float]:
    return bx, BOARD_L - by


def fitted_keys() -> list[str]:
    """The switch references that are fitted (the schematic's), in key order."""
    refs = [r for r in schematic.box().parts if r.startswith("SW")]
    return sorted(refs, key=lambda r: int(r[2:]))


def key_centre(ref: str) -> tuple[float, float]:
    p = layout.BOX.places[ref]
    return to_box(p.x, p.y)


# --- heights (z) ------------------------------------------------------------------------------
PCB_TOP = PCB
PLUNGER_TOP = PCB_TOP + parts.SWITCH.height
CAP_BOTTOM = PLUNGER_TOP - parts.KEYCAP.seat
CAP_TOP = CAP_BOTTOM + parts.KEYCAP.height
LID_TOP = CAP_TOP - KEY_PROUD
LID_UNDER = LID_TOP - LID

DISPLAY_BACK = PCB_TOP + parts.DISPLAY.header
DISPLAY_BOARD_TOP = DISPLAY_BACK + parts.DISPLAY.board[2]
DISPLAY_GLASS_TOP = DISPLAY_BOARD_TOP + parts.DISPLAY.panel[2]

# Under the PCB: the tallest of the Pico and the jumper headers fitted from below.
UNDER_TALLEST = max(parts.PICO.height, parts.HEADER.height)
# The gland's locknut stands between the base and the lid with a gap to each.
NUT_NEEDS = parts.GLAND.nut_af + 2 * NUT_GAP
BASE_TOP = min(-(UNDER_TALLEST + UNDER_PART), LID_UNDER - NUT_NEEDS)
BOTTOM = BASE_TOP - BASE
HEIGHT = LID_TOP - BOTTOM
GLAND_Z = (BASE_TOP + LID_UNDER) / 2

# --- plan (x, y) -------------------------------------------------------------------------------
INSIDE = (-EDGE_GAP, -EDGE_GAP, BOARD_W + EDGE_GAP, BOARD_L + EDGE_GAP)    # x0, y0, x1, y1
OUTSIDE = (INSIDE[0] - WALL, INSIDE[1] - WALL, INSIDE[2] + WALL, INSIDE[3] + WALL)
SIZE = (OUTSIDE[2] - OUTSIDE[0], OUTSIDE[3] - OUTSIDE[1], HEIGHT)
CORNER = 3.0              # the outside's vertical edges are rounded

NOTCH_X0, NOTCH_X1, NOTCH_DEPTH = layout.GLAND_NOTCH
GLAND_X = (NOTCH_X0 + NOTCH_X1) / 2
WALL_IN_Y = INSIDE[3]     # the top end wall's inner face (the gland's)
WALL_OUT_Y = OUTSIDE[3]

HOLES = tuple(to_box(x, y) for x, y in layout.BOX.holes)

# The display: the module's outline centre and the window over its active area.
DISPLAY_XY = to_box(*layout.DISPLAY_XY)
WINDOW = (parts.DISPLAY.active[0] + 2 * WINDOW_MARGIN, parts.DISPLAY.active[1] + 2 * WINDOW_MARGIN)
DISPLAY_POCKET = (parts.DISPLAY.panel[0] + 2 * POCKET_GAP, parts.DISPLAY.panel[1] + 2 * POCKET_GAP)
DISPLAY_POCKET_TOP = DISPLAY_GLASS_TOP + OVER_PART

BUZZER_XY = to_box(layout.BOX.places["BZ1"].x, layout.BOX.places["BZ1"].y)
BUZZER_POCKET = parts.BUZZER.diameter + 2 * POCKET_GAP
BUZZER_POCKET_TOP = PCB_TOP + parts.BUZZER.height + OVER_PART
LEDS = ("LED1", "LED2", "LED3")
JUMPERS = ("J2", "J3")        # the jumper headers: with their shunts on they stand HEADER.height

# The fixings: a countersunk screw from the base's bottom through a pillar and the PCB into an
# insert melted into a boss on the lid.
INSERT_BOTTOM = PCB_TOP
INSERT_TOP = INSERT_BOTTOM + parts.INSERT.length
INSERT_HOLE_TOP = INSERT_TOP + RUN_OUT
SCREW_TIP = BOTTOM + parts.SCREW.length


# Clashes between two parts on the PCB that no enclosure can mend, found by the model and left to
# the PCB's layout (hardware/enclosure.md, "Found on the PCB"): reported by check.py, not counted
# as the enclosure's. The test fails when one of them goes away, so the entry goes with it.
# None now (the buzzer under the display's edge was moved on the PCB).
KNOWN_CLASHES: dict[tuple[str, str], str] = {}


@dataclass(frozen=True)
class Part:
    """A part on the PCB as the enclosure sees it: a block over its courtyard (larger than the
    body: the check errs on the safe side), on the side it is fitted, this tall."""
    ref: str
    x0: float
    y0: float
    x1: float
    y1: float
    side: str
    height: float


# Parts modelled in their own shape (model.py), not as a block.
DRAWN = ("SW", "U1", "J4", "LED", "BZ1", "J1")


def placed_parts() -> list[Part]:
    """Every fitted part of the box as a block, in box coordinates, on the side the PCB's layout
    fits it (J2 and J3 from below)."""
    out = []
    for ref, part in schematic.box().parts.items():
        fp = FOOTPRINTS[part.footprint]
        if fp.height == 0.0:
            continue
        x0, y0, x1, y1 = layout.courtyard(part.footprint, layout.BOX.places[ref])
        side = layout.BOX.places[ref].side
        height = parts.HEADER.height if ref in JUMPERS else fp.height
        bx0, by1 = to_box(x0, y0)
        bx1, by0 = to_box(x1, y1)
        out.append(Part(ref, bx0, by0, bx1, by1, side, height))
    return out


def stack() -> list[tuple[str, float]]:
    """The heights a builder checks, bottom up (hardware/enclosure.md quotes them)."""
    return [
        ("bottom of the base", BOTTOM), ("top of the base plate", BASE_TOP),
        ("PCB bottom", 0.0), ("PCB top", PCB_TOP),
        ("switch plunger top", PLUNGER_TOP), ("display glass top", DISPLAY_GLASS_TOP),
        ("lid underside", LID_UNDER), ("lid top", LID_TOP), ("key cap top", CAP_TOP),
    ]
