"""The bought parts the enclosure is built around, as data: the figures the CAD model uses and
where each comes from.

Pure data (no CAD import): `hardware/enclosure/design.py` derives the enclosure's dimensions from
these and from `hardware/pcb/layout.py`; `model.py` builds the solids; tests/hardware check that
every figure used here is quoted in hardware/bom.csv's `dimensions` column of the part's line.

A figure read from the maker's document names it in `source`. One that could not be read from the
maker's drawing while this was written carries `confirm`: what to measure or look up before the
enclosure is printed. The model is parametric: change a figure here and `make enclosure` rebuilds
the lid and the base around it, and `tests/hardware/test_enclosure.py` checks the fit again.
Millimetres throughout.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Switch:
    """A 12 x 12 mm tactile switch with a projected plunger for a key cap."""
    mpn: str
    body: float            # square body side
    body_height: float     # PCB top to the body's top
    height: float          # PCB top to the plunger's top, at rest
    plunger: float         # plunger diameter (the cap's bore takes it)
    travel: float          # the largest travel (nominal + tolerance)
    source: str
    confirm: str = ""


@dataclass(frozen=True)
class KeyCap:
    mpn: str
    side: float            # square top
    height: float          # overall
    seat: float            # how far the plunger enters the cap
    legend: float          # the flat top a legend label may cover (square)
    source: str
    confirm: str = ""


@dataclass(frozen=True)
class Display:
    mpn: str
    board: tuple[float, float, float]     # module PCB: width (x), depth (y), thickness
    panel: tuple[float, float, float]     # the OLED glass on it
    active: tuple[float, float]           # the lit area, centred on the panel
    header: float                         # the module's pin header spacer: main PCB to module PCB
    source: str
    confirm: str = ""


@dataclass(frozen=True)
class Module:
    """A board soldered flat under the main PCB (the Pico) and its micro-USB receptacle."""
    mpn: str
    board: tuple[float, float, float]
    height: float          # board + the tallest part on it (the USB receptacle)
    usb_width: float       # the receptacle across its mouth
    usb_depth: float       # the receptacle from its mouth back
    usb_overhang: float    # how far its mouth stands past the board's end
    source: str
    confirm: str = ""


@dataclass(frozen=True)
class Round:
    """An LED or a buzzer: a round body standing on the PCB."""
    mpn: str
    diameter: float
    height: float
    source: str
    confirm: str = ""


@dataclass(frozen=True)
class Header:
    """A pin header with its jumper shunt on: how far the pair stands off the PCB."""
    mpn: str
    height: float
    source: str
    confirm: str = ""


@dataclass(frozen=True)
class Gland:
    mpn: str
    thread: float          # metric thread diameter
    thread_length: float
    hole: float            # clearance hole in the wall
    body_af: float         # the body's hex across flats (outside the wall)
    body_hex: float        # the hex's thickness
    cap_diameter: float
    outside: float         # how far the gland stands out of the wall (body + cap)
    nut_af: float          # the locknut inside
    nut_thickness: float
    clamp: tuple[float, float]   # the cable diameters it seals on
    source: str
    confirm: str = ""


@dataclass(frozen=True)
class Cable:
    mpn: str
    diameter: float
    source: str
    confirm: str = ""


@dataclass(frozen=True)
class Screw:
    mpn: str
    d: float               # nominal diameter
    length: float          # countersunk: overall, head included
    head: float            # head diameter
    head_height: float
    source: str
    confirm: str = ""


@dataclass(frozen=True)
class Insert:
    mpn: str
    thread: float
    length: float
    outside: float         # the knurl's diameter: the plastic flows round it when it is melted in
    hole: float            # the hole it is pressed into
    source: str
    confirm: str = ""


# Omron B3F-4055 (B3F-4000 series, 12 x 12 mm, projected plunger, 2.55 N).
SWITCH = Switch(
    "B3F-4055", body=12.0, body_height=3.5, height=7.3, plunger=3.8, travel=0.5,
    source="Omron, Tactile Switch B3F data sheet, list of 12 x 12 mm models: B3F-4055 (B3F-4155 with "
           "ground terminal) projected plunger 7.3 mm high, body 12 x 12 x 3.5 mm",
    confirm="the plunger's diameter (3.8 here) and the travel (0.5 here, with its tolerance) on the "
            "B3F-4000 dimension drawing")

# Omron B32-1000 square key top for the B3F-4000 projected plunger.
KEYCAP = KeyCap(
    "B32-1000", side=12.0, height=6.0, seat=3.0, legend=10.0,
    source="Omron, Key Tops B32 data sheet",
    confirm="the cap's height (6.0 here) and how deep the plunger goes into it (3.0 here) on the B32 "
            "drawing: they set how far the caps stand out of the lid (design.KEY_PROUD), and the "
            "size of the cap's flat top the legend label covers (10 x 10 here)")

# Waveshare 2.42inch OLED Module (SSD1309), its 7-pin 2.54 mm header soldered into J4.
DISPLAY = Display(
    "2.42inch OLED Module", board=(61.5, 39.5, 1.6), panel=(60.5, 37.0, 2.05), active=(55.01, 27.49),
    header=2.5,
    source="Waveshare, 2.42inch OLED Module: the maker's outline drawing",
    confirm="every figure, on the maker's drawing or the module in hand: the board 61.5 x 39.5 x 1.6 (the "
            "figure the fit arithmetic has used since the display was chosen), the panel 60.5 x 37.0 x 2.05, "
            "the active area 55.01 x 27.49 and where it sits (centred here; the window gives 1 mm each "
            "way), the header's spacer 2.5, and that nothing on the module's back stands more than 1.0")

# Raspberry Pi Pico (SC0915), soldered flat under the main PCB by its castellations.
PICO = Module(
    "SC0915", board=(51.0, 21.0, 1.0), height=4.2, usb_width=8.0, usb_depth=5.6, usb_overhang=1.3,
    source="Raspberry Pi Pico Datasheet, chapter 2 Mechanical Specification (the Rev3 board): a "
           "51 x 21 mm, 1 mm thick PCB with the micro-USB port overhanging the top edge",
    confirm="the micro-USB receptacle's height (4.2 mm over all here), width (8.0), depth (5.6) and "
            "overhang (1.3) on the Pico's mechanical drawing")

LED = Round(
    "WP710A10GD", diameter=3.0, height=5.3,
    source="Kingbright WP710A10 (T-1, 3 mm) package drawing",
    confirm="the height over the PCB with the flange seated (5.3 here) on the Kingbright drawing")

BUZZER = Round(
    "PS1240P02BT", diameter=12.2, height=6.5,
    source="TDK PS1240P02BT piezo transducer data sheet",
    confirm="the height (6.5 here) and the pin pitch (5.0 on the PCB) on the PS1240 drawing")

# J2 and J3 with their shunts: fitted from the bottom side (hardware/enclosure.md says why).
HEADER = Header(
    "61300211121", height=8.5,
    source="Wurth Elektronik WR-PHD 2.54 mm pin headers 61300211121 (J2) and 61300421121 (J3) and jumper 60900213421",
    confirm="the header's plastic (2.5) plus the fitted shunt's top (6.0) on the two Wurth drawings")

# The cable gland in the top end wall: the cordset's open end comes in through it.
GLAND = Gland(
    "SKINTOP ST-M 12x1.5", thread=12.0, thread_length=8.0, hole=12.5, body_af=15.0, body_hex=5.0, cap_diameter=15.0,
    outside=17.0, nut_af=15.0, nut_thickness=5.0, clamp=(3.5, 7.0),
    source="EN 62444 (cable glands), metric size 12: M12 x 1.5 thread in a 12.5 mm clearance hole",
    confirm="on LAPP's SKINTOP ST-M and SKINTOP GMP-GL-M data sheets: the thread length (8.0 here), "
            "the body's and the locknut's across-flats (15), the body's hex (5.0 thick), the nut's "
            "thickness (5.0), the height "
            "over the wall (17.0) and that the clamping range takes the cordset's jacket")

CABLE = Cable(
    "SAC-4P-M 8MS/2.0-PUR", diameter=4.7,
    source="Phoenix Contact SAC-4P-M 8MS/2.0-PUR data sheet",
    confirm="the jacket's outside diameter (4.7 here) on the Phoenix Contact data sheet: the gland "
            "must clamp it")

# The base, the PCB and the lid are held by four screws into inserts in the lid's bosses.
SCREW = Screw(
    "ISO 10642 M3x16", d=3.0, length=16.0, head=6.72, head_height=1.86,
    source="ISO 10642:2004 (hexagon socket countersunk head screws), M3: head 6.72 mm (theoretical), "
           "head height 1.86 mm max; length 16 mm")

INSERT = Insert(
    "RX-M3x5.7", thread=3.0, length=5.7, outside=4.6, hole=4.0,
    source="ruthex threaded inserts RX-M3x5.7 product page",
    confirm="the length (5.7), the knurl (4.6) and the recommended hole (4.0) on ruthex's drawing")
