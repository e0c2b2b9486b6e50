"""Does the box go together? Enclosure fit and display legibility as data and arithmetic.

Every dimension is in millimetres and comes from the part's drawing or data sheet (named beside
it). `check_enclosure(layout)` and `glyph_height_mm(...)` are pure functions; the tests in
tests/hardware/ assert that the reference build fits with its stated clearances and that the
old build (0.96" OLED, 100 x 70 mm box) did not. `python -m hardware.fit` prints the arithmetic
that hardware/enclosure.md and hardware/display.md quote.
"""
from __future__ import annotations

from dataclasses import dataclass, field

# --- parts (outline from the manufacturer's drawing) -------------------------------------------


@dataclass(frozen=True)
class Keypad:
    rows: int
    cols: int
    pitch: float          # centre to centre of two keys
    cap: float            # square key cap (the switch body is not larger than the cap)
    switch_height: float  # PCB top to plunger top

    @property
    def width(self) -> float:
        return (self.cols - 1) * self.pitch + self.cap

    @property
    def depth(self) -> float:
        return (self.rows - 1) * self.pitch + self.cap


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
    wall: float                          # wall (and lid/base) thickness assumed for the inside

    @property
    def inside(self) -> tuple[float, float, float]:
        length, width, height = self.outside
        return (length - 2 * self.wall, width - 2 * self.wall, height - 2 * self.wall)


@dataclass(frozen=True)
class Layout:
    """Portrait box: the connector's end wall, the display, then the keypad, along the length.

    Along z (bottom up): base clearance, the Pico soldered flat under the main PCB by its
    castellations, the main PCB, the switches; the caps come through the lid."""
    enclosure: Enclosure
    keypad: Keypad
    display: Module
    connector: Module      # depth = how far its body reaches into the box from the end wall
    pico: Module
    clearance: float = 3.0         # each wall to any part
    gap: float = 5.0               # display to keypad (window bezel and the lid's web)
    base_clearance: float = 1.0
    pcb: float = 1.6
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
        return f"{mark}{self.what}: need {self.need:.1f} mm, have {self.have:.1f} mm (spare {self.have - self.need:+.1f})"


def check_enclosure(lay: Layout) -> list[Check]:
    """The arithmetic of the fit, one line per dimension. All must be ok."""
    in_len, in_wid, in_hgt = lay.enclosure.inside
    kp, disp, conn, pico = lay.keypad, lay.display, lay.connector, lay.pico
    length = lay.clearance + conn.depth + disp.depth + lay.gap + kp.depth + lay.clearance
    width = max(kp.width, disp.width, pico.width) + 2 * lay.clearance
    under_keys = lay.base_clearance + pico.height + lay.pcb + kp.switch_height
    under_display = lay.base_clearance + pico.height + lay.pcb + disp.height
    return [
        Check("length: clearance + connector body + display + gap + keypad + clearance", length, in_len),
        Check("width: widest of keypad, display, Pico + 2 x clearance", width, in_wid),
        Check("height under the keys: base + Pico + PCB + switch to plunger", under_keys, in_hgt),
        Check("height under the display: base + Pico + PCB + display module", under_display, in_hgt),
        Check("height at the end wall: connector body diameter + 2 x 1 mm", conn.height + 2.0, in_hgt),
        Check("Pico length under the keypad (the display end stays free for the connector)", pico.depth, kp.depth),
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


MIN_GLYPH_MM = 4.0          # issue 15: call and status characters at least 4 mm tall
READING_DISTANCE_MM = 500.0  # eye to the box at a bridge table (seated, box on the table edge)
# The box is also read from across the corner of the table, about 80 cm away (the table's
# report); a capital must then still subtend the comfortable minimum for reading text on a
# display: 20-22 arcmin (ISO 9241-303:2011, character height; ANSI/HFES 100-2007 asks 16 at
# least, 22-24 preferred). hardware/display.md quotes both.
FAR_DISTANCE_MM = 800.0
MIN_ARCMIN = 22.0

# --- the reference build -----------------------------------------------------------------------

# Omron B3F-4055: 12 x 12 mm body, 7.3 mm to the plunger top; Omron B32-1000 square cap 12 mm.
# 15 mm pitch leaves 3 mm between caps: a fingertip presses one key.
KEYPAD = Keypad(rows=5, cols=5, pitch=15.0, cap=12.0, switch_height=7.3)

# Waveshare 2.42inch OLED Module (SSD1309): module 61.5 x 39.5 mm, active 55.01 x 27.49 mm,
# about 4.5 mm thick with its MX1.25 connector (cabled to the main PCB, no pin header).
DISPLAY_242 = Module("2.42in SSD1309 module", 61.5, 39.5, 4.5)
PANEL_242 = Panel("2.42in 128x64 SSD1309", 55.01, 27.49, 128, 64)

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

# Raspberry Pi Pico: 51 x 21 mm, 1 mm board; the tallest part on its top side (the micro-USB
# receptacle) makes about 3.2 mm. Soldered flat under the main PCB, components facing down.
PICO = Module("Raspberry Pi Pico (SC0915)", 21.0, 51.0, 4.2)

# M8 A-coded 4-pole panel receptacle, rear mounted, PCB contacts (Amphenol LTW M8S-04PMMR-SF8001):
# an envelope of 10 mm body diameter and 14 mm into the box behind the wall, PCB edge included.
# Check it against the connector drawing before cutting: fit.py takes the number.
M8_RECEPTACLE = Module("M8 A-coded 4-pole receptacle", 10.0, 14.0, 10.0)
RJ45_JACK = Module("RJ45 8P8C jack", 16.0, 21.0, 13.5)

# Hammond 1553DGY handheld, 147 x 89 x 25 mm outside. Inside assumed with 3 mm walls all round
# (the lid's recess included), which is less than the drawing's: a conservative check.
HAMMOND_1553D = Enclosure("1553DGY", (147.0, 89.0, 25.0), 3.0)   # Hammond Manufacturing
# The old BOM line: 100 x 70 x 30 mm ABS box, 2 mm walls.
OLD_BOX = Enclosure("100x70x30 ABS (generic)", (100.0, 70.0, 30.0), 2.0)

FONTS_ON_PANELS = ((PANEL_096, FONT_8X8), (PANEL_242, FONT_8X8), (PANEL_242, FONT_8X16),
                   (PANEL_242, FONT_10X16))

REFERENCE = Layout(HAMMOND_1553D, KEYPAD, DISPLAY_242, M8_RECEPTACLE, PICO)
OLD = Layout(OLD_BOX, KEYPAD, DISPLAY_096, RJ45_JACK, PICO)


def report() -> str:
    lines = []
    for title, lay in (("reference build", REFERENCE), ("old build", OLD)):
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
