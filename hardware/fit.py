"""Does the box go together? Enclosure fit and display legibility as data and arithmetic.

Every dimension is in millimetres; the bought parts' come from hardware/enclosure/parts.py (each
with its source), the printed enclosure's from hardware/enclosure/design.py. `check_enclosure`
and `glyph_height_mm(...)` are pure functions; the tests in tests/hardware/ assert that the
reference build fits with its stated clearances, that the old build (0.96" OLED, 100 x 70 mm box)
did not, and that the 146 mm PCB does not go into the Hammond 1553D. The solid model's own
checks (no two parts sharing a volume, the caps in their holes, the USB socket out of reach) are
hardware/enclosure/check.py's. `python -m hardware.fit` prints the arithmetic that
hardware/enclosure.md and hardware/display.md quote.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from hardware.enclosure import parts

# --- parts (outline from the manufacturer's drawing) -------------------------------------------


@dataclass(frozen=True)
class Keypad:
    rows: int
    cols: int
    pitch: float          # centre to centre of two keys
    cap: float            # square key cap (the switch body is not larger than the cap)
    switch_height: float  # PCB top to plunger top
    cap_height: float = 0.0   # the cap, over all
    cap_seat: float = 0.0     # how far the plunger goes into the cap

    @property
    def width(self) -> float:
        return (self.cols - 1) * self.pitch + self.cap

    @property
    def depth(self) -> float:
        return (self.rows - 1) * self.pitch + self.cap

    @property
    def cap_top(self) -> float:
        """PCB top to the key cap's top: the switch, then the cap on its plunger."""
        return self.switch_height - self.cap_seat + self.cap_height


@dataclass(frozen=True)
class Module:
    name: str
    width: float
    depth: float
    height: float


@dataclass(frozen=True)
class Enclosure:
    mpn: str
    outside: tuple[float, float, float]  # length, width, height
    wall: float                          # side walls
    lid: float = 0.0                     # the lid's plate (0: as thick as the walls)
    base: float = 0.0                    # the base plate (0: as thick as the walls)

    @property
    def inside(self) -> tuple[float, float, float]:
        length, width, height = self.outside
        lid, base = self.lid or self.wall, self.base or self.wall
        return (length - 2 * self.wall, width - 2 * self.wall, height - lid - base)


@dataclass(frozen=True)
class Layout:
    """Portrait box: the cable's end wall, the display, then the keypad, along the length.

    Along z (bottom up): what stands under the main PCB (the Pico soldered flat by its
    castellations, and whatever else is fitted from below), the PCB, the switches with their caps;
    the caps come through the lid and stand `key_proud` above it."""
    enclosure: Enclosure
    keypad: Keypad
    display: Module
    connector: Module      # depth = how far it reaches into the box from the end wall; height = what it needs across
    pico: Module
    clearance: float = 3.0         # each wall to any part
    gap: float = 5.0               # display to keypad (window bezel and the lid's web)
    base_clearance: float = 1.0    # the tallest part under the PCB to the base
    under: float = 0.0             # the tallest part under the PCB (0: the Pico)
    pcb: float = 1.6
    key_proud: float = 0.0         # a key cap's top above the lid
    over_parts: float = 0.0        # the tallest part under the lid's plate (not pocketed into it) + its clearance
    display_pocket: float = 0.0    # how far the display's glass may rise into a pocket in the lid
    connector_gap: float = 1.0     # the connector (or the gland's nut) to the lid and to the base
    notes: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class Check:
    what: str
    need: float
    have: float

    @property
    def ok(self) -> bool:
        return self.need <= self.have + 1e-9

    def __str__(self) -> str:
        mark = "ok " if self.ok else "NO "
        return f"{mark}{self.what}: need {self.need:.2f} mm, have {self.have:.2f} mm (spare {self.have - self.need:+.2f})"


def check_enclosure(lay: Layout) -> list[Check]:
    """The arithmetic of the fit, one line per dimension. All must be ok.

    The key stack counts the caps and the lid: from the base up, what stands under the PCB, the
    PCB, the switch to its plunger and the cap above the plunger, less how far the cap stands out
    of the lid and less the lid itself, must fit the height inside."""
    in_len, in_wid, in_hgt = lay.enclosure.inside
    lid = lay.enclosure.lid or lay.enclosure.wall
    kp, disp, conn, pico = lay.keypad, lay.display, lay.connector, lay.pico
    under = lay.base_clearance + max(lay.under, pico.height) + lay.pcb     # base to the PCB's top
    length = lay.clearance + conn.depth + disp.depth + lay.gap + kp.depth + lay.clearance
    width = max(kp.width, disp.width, pico.width) + 2 * lay.clearance
    return [
        Check("length: clearance + connector + display + gap + keypad + clearance", length, in_len),
        Check("width: widest of keypad, display, Pico + 2 x clearance", width, in_wid),
        Check("height at the keys: under the PCB + PCB + switch + cap - seat - cap proud - lid",
              under + kp.cap_top - lay.key_proud - lid, in_hgt),
        Check("lid over the PCB: the tallest part under the lid's plate + its clearance", lay.over_parts, in_hgt - under),
        Check("height at the display: under the PCB + PCB + display module (its glass may rise into a pocket)",
              under + disp.height, in_hgt + lay.display_pocket),
        Check("height at the end wall: what the connector needs across + a gap each side",
              conn.height + 2 * lay.connector_gap, in_hgt),
    ]


def fits(lay: Layout) -> bool:
    return all(c.ok for c in check_enclosure(lay))


# --- display legibility -------------------------------------------------------------------------


@dataclass(frozen=True)
class Panel:
    name: str
    active_w: float   # active area (data sheet)
    active_h: float
    px_w: int
    px_h: int

    @property
    def pitch(self) -> float:
        """Vertical pixel pitch, mm: active height / rows."""
        return self.active_h / self.px_h


@dataclass(frozen=True)
class Font:
    name: str
    cell_w: int   # pixels
    cell_h: int
    cap_h: int    # rows a capital letter (and a digit) covers inside the cell


def glyph_height_mm(panel: Panel, font: Font) -> float:
    """Height of a capital letter on the panel: the size a reader sees (cell height overstates it)."""
    return font.cap_h * panel.pitch


def text_grid(panel: Panel, font: Font) -> tuple[int, int]:
    """(columns, lines) of this font on this panel."""
    return panel.px_w // font.cell_w, panel.px_h // font.cell_h


def visual_angle_arcmin(height_mm: float, distance_mm: float) -> float:
    import math
    return math.degrees(2 * math.atan(height_mm / (2 * distance_mm))) * 60


MIN_GLYPH_MM = 4.0          # call and status characters at least 4 mm tall (hardware/display.md)
READING_DISTANCE_MM = 500.0  # eye to the box at a bridge table (seated, box on the table edge)
# The box is also read from across the corner of the table, about 80 cm away (the table's
# report); a capital must then still subtend the comfortable minimum for reading text on a
# display: 20-22 arcmin (ISO 9241-303:2011, character height; ANSI/HFES 100-2007 asks 16 at
# least, 22-24 preferred). hardware/display.md quotes both.
FAR_DISTANCE_MM = 800.0
MIN_ARCMIN = 22.0

# --- the reference build -----------------------------------------------------------------------
# The bought parts' figures are hardware/enclosure/parts.py's (each with its source, or what is
# still to be confirmed on the maker's drawing); the printed enclosure's are design.py's.

# Omron B3F-4055: 12 x 12 mm body, 7.3 mm to the plunger top; Omron B32-1000 square cap 12 mm on
# the plunger. 15 mm pitch leaves 3 mm between caps: a fingertip presses one key.
KEYPAD = Keypad(rows=5, cols=5, pitch=15.0, cap=parts.KEYCAP.side, switch_height=parts.SWITCH.height,
                cap_height=parts.KEYCAP.height, cap_seat=parts.KEYCAP.seat)

# Waveshare 2.42inch OLED Module (SSD1309) on its header soldered into J4: the header's spacer,
# the module's board and the panel on it.
DISPLAY_242 = Module("2.42in SSD1309 module", parts.DISPLAY.board[0], parts.DISPLAY.board[1],
                     parts.DISPLAY.header + parts.DISPLAY.board[2] + parts.DISPLAY.panel[2])
PANEL_242 = Panel("2.42in 128x64 SSD1309", *parts.DISPLAY.active, 128, 64)

# The old choice: 0.96" SSD1306 module about 27.3 x 27.8 mm, active 21.74 x 10.86 mm.
DISPLAY_096 = Module("0.96in SSD1306 module", 27.3, 27.8, 4.0)
PANEL_096 = Panel("0.96in 128x64 SSD1306", 21.74, 10.86, 128, 64)

# The 8x8 font the box draws today (MicroPython framebuf): capitals 7 rows of 8.
FONT_8X8 = Font("framebuf 8x8", 8, 8, 7)
# The box's font for calls and status (firmware/font16.py, Terminus Bold 16): an 8 x 16 cell (16
# columns, 4 lines on 128 x 64) whose capitals and digits cover 10 rows (measured from the font
# by tests/firmware/test_font16.py).
FONT_8X16 = Font("8x16 (capitals 10 px)", 8, 16, 10)
# The box's font now (firmware/font16.py): the top 16 rows of Terminus Bold 20, a 10 x 16 cell
# (12 columns, 4 lines on 128 x 64) whose capitals and digits cover 13 rows (measured from the
# font by tests/firmware/test_font16.py); capitals only (its lowercase would be 9 px).
FONT_10X16 = Font("10x16 capitals (capitals 13 px)", 10, 16, 13)

# Raspberry Pi Pico soldered flat under the main PCB, its parts facing down: board and USB receptacle.
PICO = Module("Raspberry Pi Pico (SC0915)", parts.PICO.board[1], parts.PICO.board[0], parts.PICO.height)

RJ45_JACK = Module("RJ45 8P8C jack", 16.0, 21.0, 13.5)

# Hammond 1553DGY handheld, 147 x 89 x 25 mm outside, 3 mm walls assumed: the earlier choice. The
# 146 mm PCB the keypad, the display and the cable's protection ended on does not go inside.
HAMMOND_1553D = Enclosure("1553DGY", (147.0, 89.0, 25.0), 3.0)   # Hammond Manufacturing
# The old BOM line: 100 x 70 x 30 mm ABS box, 2 mm walls.
OLD_BOX = Enclosure("100x70x30 ABS (generic)", (100.0, 70.0, 30.0), 2.0)

FONTS_ON_PANELS = ((PANEL_096, FONT_8X8), (PANEL_242, FONT_8X8), (PANEL_242, FONT_8X16),
                   (PANEL_242, FONT_10X16))

OLD = Layout(OLD_BOX, KEYPAD, DISPLAY_096, RJ45_JACK, PICO)
PRINTED_MPN = "enclosure-lid"


def reference() -> Layout:
    """The reference build: the printed lid and base of hardware/enclosure/, their figures from
    design.py (imported here: design reads the PCB's layout, which reads this module)."""
    from hardware.enclosure import design as d
    box = Enclosure(PRINTED_MPN, (d.SIZE[1], d.SIZE[0], d.SIZE[2]), d.WALL, d.LID, d.BASE)
    # the cable's way in: a gland in the end wall; how far its thread reaches past the wall, and
    # its locknut across (flats at the top and the bottom)
    gland = Module("M12 x 1.5 cable gland with locknut", parts.GLAND.nut_af,
                   parts.GLAND.thread_length - d.WALL, parts.GLAND.nut_af)
    return Layout(box, KEYPAD, DISPLAY_242, gland, PICO,
                  base_clearance=d.UNDER_PART, under=d.UNDER_TALLEST, key_proud=d.KEY_PROUD,
                  over_parts=parts.LED.height + d.OVER_PART,
                  display_pocket=d.DISPLAY_POCKET_TOP - d.OVER_PART - d.LID_UNDER, connector_gap=d.NUT_GAP)


def report() -> str:
    lines = []
    for title, lay in (("reference build", reference()), ("old build", OLD)):
        lines.append(f"{title}: {lay.enclosure.mpn}, inside {' x '.join(f'{v:g}' for v in lay.enclosure.inside)} mm; "
                     f"keypad {KEYPAD.width:g} x {KEYPAD.depth:g} mm; display {lay.display.name}")
        lines += [f"  {c}" for c in check_enclosure(lay)]
    for panel, font in FONTS_ON_PANELS:
        h = glyph_height_mm(panel, font)
        cols, rows = text_grid(panel, font)
        lines.append(f"{panel.name} pitch {panel.pitch:.3f} mm, {font.name}: capitals {h:.2f} mm "
                     f"({visual_angle_arcmin(h, READING_DISTANCE_MM):.0f} arcmin at {READING_DISTANCE_MM:g} mm, "
                     f"{visual_angle_arcmin(h, FAR_DISTANCE_MM):.1f} at {FAR_DISTANCE_MM:g} mm), "
                     f"{cols} x {rows} characters")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report())
