"""Every footprint the two boards use, drawn as data: pads, courtyard, body height.

Pure data (no KiCad import): hardware/pcb/build.py turns each into a KiCad footprint, the tests
read the same numbers. Coordinates in mm, footprint origin at the centre, +x right, +y down
(KiCad's), seen from the top. Each footprint names where its pads come from: the maker's
recommended land pattern (IPC-7351 nominal where the maker gives none), or, marked
`confirm`, a figure to check against the named drawing before ordering boards
(hardware/pcb/README.md lists them).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pad:
    number: str
    x: float
    y: float
    w: float
    h: float
    kind: str = "smd"        # "smd" (top copper), "tht" (plated through) or "npth" (bare hole)
    drill: float = 0.0
    shape: str = "rect"      # "rect", "roundrect", "circle" or "oval"


@dataclass(frozen=True)
class Footprint:
    name: str
    pads: tuple[Pad, ...]
    courtyard: tuple[float, float, float, float]   # x0, y0, x1, y1
    height: float            # body height above the board it sits on (mm)
    source: str
    confirm: str = ""        # what must be checked against the maker's drawing, if anything


def _two(name: str, pitch: float, w: float, h: float, cy: tuple[float, float], height: float,
         source: str) -> Footprint:
    pads = (Pad("1", -pitch / 2, 0, w, h, shape="roundrect"), Pad("2", pitch / 2, 0, w, h, shape="roundrect"))
    return Footprint(name, pads, (-cy[0], -cy[1], cy[0], cy[1]), height, source)


def _gull(name: str, n: int, pitch: float, span: float, w: float, h: float, cy: tuple[float, float],
          height: float, source: str, confirm: str = "") -> Footprint:
    """Dual-row SMD package: pins 1..n/2 down the left side, the rest up the right."""
    half = n // 2
    pads = []
    for i in range(half):
        y = (i - (half - 1) / 2) * pitch
        pads.append(Pad(str(i + 1), -span / 2, y, w, h, shape="roundrect"))
        pads.append(Pad(str(n - i), span / 2, y, w, h, shape="roundrect"))
    return Footprint(name, tuple(sorted(pads, key=lambda p: int(p.number))),
                     (-cy[0], -cy[1], cy[0], cy[1]), height, source, confirm)


def _row(name: str, n: int, pitch: float, pad: float, drill: float, cy: tuple[float, float],
         height: float, source: str, confirm: str = "") -> Footprint:
    pads = tuple(Pad(str(i + 1), (i - (n - 1) / 2) * pitch, 0, pad, pad, "tht", drill,
                     "rect" if i == 0 else "circle") for i in range(n))
    return Footprint(name, pads, (-cy[0], -cy[1], cy[0], cy[1]), height, source, confirm)


def _pico() -> Footprint:
    """Raspberry Pi Pico soldered flat by its castellations. Pads 1-20 down the left edge from the
    USB end (top), 21-40 up the right edge: 2.54 mm pitch, rows 17.78 mm apart (Pico data sheet,
    mechanical drawing)."""
    pads = []
    for i in range(20):
        y = -24.13 + i * 2.54
        pads.append(Pad(str(i + 1), -8.89, y, 3.2, 1.6))
        pads.append(Pad(str(40 - i), 8.89, y, 3.2, 1.6))
    return Footprint("RPi_Pico_SMD", tuple(sorted(pads, key=lambda p: int(p.number))),
                     (-10.8, -25.8, 10.8, 25.8), 4.2,
                     "Raspberry Pi Pico data sheet: 51 x 21 mm, pads on 2.54 mm, rows 17.78 mm apart; "
                     "4.2 mm = 1 mm board + the micro-USB receptacle")


def _wqfn20() -> Footprint:
    """TI RVC (WQFN-20, 3 x 4 mm, 0.5 mm pitch) with its exposed pad as pad 21. Pads 1-6 down the
    left (long) side, 7-10 along the bottom, 11-16 up the right, 17-20 back along the top."""
    pads = []
    for k in range(6):
        y = -1.25 + 0.5 * k
        pads.append(Pad(str(1 + k), -1.45, y, 0.7, 0.25, shape="roundrect"))
        pads.append(Pad(str(16 - k), 1.45, y, 0.7, 0.25, shape="roundrect"))
    for k in range(4):
        x = -0.75 + 0.5 * k
        pads.append(Pad(str(7 + k), x, 1.95, 0.25, 0.7, shape="roundrect"))
        pads.append(Pad(str(20 - k), x, -1.95, 0.25, 0.7, shape="roundrect"))
    pads.append(Pad("21", 0.0, 0.0, 1.7, 2.7))
    return Footprint("WQFN-20_3x4mm_P0.5mm_EP", tuple(sorted(pads, key=lambda p: int(p.number))),
                     (-2.2, -2.7, 2.2, 2.7), 0.8, "TI TPS25940A, package RVC (WQFN-20 3 x 4 mm, 0.5 mm pitch)",
                     "the pad arrangement, the land sizes and the exposed pad: take them from TI's RVC0020A "
                     "land pattern (this is a placeholder drawn to the pin numbers of the pin table)")


def _switch() -> Footprint:
    pads = tuple(Pad(n, x, y, 2.2, 2.2, "tht", 1.2, "circle")
                 for n, x, y in (("1", -6.25, -2.5), ("2", 6.25, -2.5), ("3", -6.25, 2.5), ("4", 6.25, 2.5)))
    return Footprint("SW_PUSH_12mm", pads, (-7.4, -6.3, 7.4, 6.3), 7.3,
                     "Omron B3F data sheet: 12 x 12 mm body, projected plunger 7.3 mm (B3F-4055); "
                     "pins 1-2 and 3-4 joined inside",
                     "hole pattern 12.5 x 5.0 mm and the 1.2 mm drill: check the B3F-4000 PCB layout drawing")


def _usb_b() -> Footprint:
    # Mouth toward -x (the board edge). Signal pins 2.5 mm apart, rows 2.0 mm apart; shell tabs.
    pads = (Pad("1", 0.0, 1.25, 1.7, 1.7, "tht", 0.95, "rect"), Pad("2", 0.0, -1.25, 1.7, 1.7, "tht", 0.95, "circle"),
            Pad("3", -2.0, -1.25, 1.7, 1.7, "tht", 0.95, "circle"), Pad("4", -2.0, 1.25, 1.7, 1.7, "tht", 0.95, "circle"),
            Pad("5", -4.71, 6.02, 3.3, 3.3, "tht", 2.3, "circle"), Pad("6", -4.71, -6.02, 3.3, 3.3, "tht", 2.3, "circle"))
    return Footprint("USB_B_61729-0010BLF", pads, (-17.0, -8.0, 2.0, 8.0), 11.0,
                     "Amphenol ICC 61729 USB type B, right angle",
                     "every pad position and drill: take them from the Amphenol 61729-0010BLF drawing")


def _dc_jack() -> Footprint:
    pads = (Pad("1", 0.0, 0.0, 3.0, 3.0, "tht", 1.6, "rect"), Pad("2", -6.0, 0.0, 3.0, 3.0, "tht", 1.6, "circle"),
            Pad("3", -3.0, 4.7, 3.0, 3.0, "tht", 1.6, "circle"))
    return Footprint("PJ-102AH", pads, (-14.7, -5.0, 2.0, 6.5), 11.0,
                     "CUI Devices PJ-102AH 2.1 mm DC jack",
                     "slotted pins on the CUI drawing: the round 1.6 mm holes here are a placeholder")


def _hole(d: float, keep: float) -> Footprint:
    return Footprint(f"MountingHole_{d}mm", (Pad("", 0, 0, d, d, "npth", d, "circle"),),
                     (-keep, -keep, keep, keep), 0.0, "M3 clearance hole; the courtyard keeps a 5.5 mm screw head clear")


def _all() -> dict[str, Footprint]:
    fps = [
        _two("R_0805", 1.825, 1.025, 1.4, (1.7, 1.0), 0.6, "IPC-7351 nominal 2012 metric (Yageo RC0805 land pattern)"),
        _two("C_0805", 1.825, 1.025, 1.4, (1.7, 1.0), 1.35, "IPC-7351 nominal 2012 metric"),
        _two("C_1206", 2.925, 1.125, 1.75, (2.3, 1.2), 1.8, "IPC-7351 nominal 3216 metric"),
        _two("Fuse_1812", 4.2, 1.4, 3.4, (3.2, 2.0), 1.3, "Bourns MF-MSMF land pattern (1812)"),
        _two("D_SOD-123", 3.3, 0.9, 1.2, (2.4, 1.0), 1.35, "IPC-7351 SOD-123; pad 1 = cathode"),
        _two("D_SOD-123F", 3.1, 1.1, 1.2, (2.3, 1.0), 1.1, "onsemi SOD-123FL recommended footprint; pad 1 = cathode"),
        _two("D_SMA", 4.0, 2.5, 1.8, (3.5, 1.6), 2.4, "Littelfuse DO-214AC (SMA) pad layout; pad 1 = cathode"),
        Footprint("SOT-23", (Pad("1", -1.1375, -0.95, 1.325, 0.6, shape="roundrect"),
                             Pad("2", -1.1375, 0.95, 1.325, 0.6, shape="roundrect"),
                             Pad("3", 1.1375, 0.0, 1.325, 0.6, shape="roundrect")),
                  (-2.0, -1.7, 2.0, 1.7), 1.2, "IPC-7351 SOT-23 (TO-236)"),
        Footprint("SOT-23-5", tuple(Pad(n, x, y, 1.325, 0.6, shape="roundrect") for n, x, y in (
            ("1", -1.1375, -0.95), ("2", -1.1375, 0.0), ("3", -1.1375, 0.95), ("4", 1.1375, 0.95),
            ("5", 1.1375, -0.95))), (-2.0, -1.8, 2.0, 1.8), 1.45, "IPC-7351 SOT-23-5 (TI DBV)"),
        _gull("SOT-23-6", 6, 0.95, 2.275, 1.325, 0.6, (2.0, 1.8), 1.45, "ST SOT23-6L recommended footprint"),
        _gull("SOIC-8", 8, 1.27, 4.95, 1.95, 0.6, (3.75, 2.75), 1.75, "TI D (SOIC-8) land pattern"),
        _gull("SSOP-20", 20, 0.65, 7.2, 1.75, 0.42, (4.8, 3.7), 2.0, "FTDI FT231XS SSOP-20 (0.65 mm pitch)"),
        _row("PinHeader_1x02_P2.54mm", 2, 2.54, 1.7, 1.0, (2.6, 1.6), 8.5, "2.54 mm header (Wurth 613002111121)"),
        Footprint("PinHeader_2x02_P2.54mm", tuple(Pad(n, x, y, 1.7, 1.7, "tht", 1.0, "rect" if n == "1" else "circle")
                                                  for n, x, y in (("1", -1.27, -1.27), ("2", 1.27, -1.27),
                                                                  ("3", -1.27, 1.27), ("4", 1.27, 1.27))),
                  (-2.6, -2.6, 2.6, 2.6), 8.5, "2.54 mm header 2 x 2 (Wurth 61300421121)"),
        _row("ModulePads_1x07_P2.54mm", 7, 2.54, 1.7, 1.0, (9.5, 1.6), 0.0,
             "the display module's own 7-pin 2.54 mm header, soldered in",
             "the module's header position and pin order (VCC GND DIN CLK CS DC RST): check on the module"),
        _row("WirePads_1x04_P3.5mm", 4, 3.5, 2.4, 1.3, (7.0, 1.8), 0.0,
             "plated holes for 0.25 mm^2 stranded wire (1.3 mm drill)"),
        Footprint("LED_D3.0mm", (Pad("1", -1.27, 0, 1.8, 1.8, "tht", 0.9, "rect"),
                                 Pad("2", 1.27, 0, 1.8, 1.8, "tht", 0.9, "circle")),
                  (-2.4, -2.4, 2.4, 2.4), 5.3, "T-1 3 mm LED, leads 2.54 mm apart (Kingbright WP710A10)"),
        Footprint("Buzzer_D12.2mm_P5.0mm", (Pad("1", -2.5, 0, 1.6, 1.6, "tht", 0.8, "rect"),
                                            Pad("2", 2.5, 0, 1.6, 1.6, "tht", 0.8, "circle")),
                  (-6.4, -6.4, 6.4, 6.4), 6.5, "TDK PS1240P02BT: 12.2 mm diameter",
                  "pin pitch 5.0 mm and height 6.5 mm: check the PS1240 drawing"),
        _pico(), _wqfn20(), _switch(), _usb_b(), _dc_jack(), _hole(3.2, 3.0),
    ]
    return {f.name: f for f in fps}


FOOTPRINTS = _all()
# footprints that are only copper on the board: nothing to order for them
PCB_ONLY = ("WirePads_", "ModulePads_", "MountingHole_")
