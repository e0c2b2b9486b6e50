"""The schematics of the box and of the table-side hub, as data, checked by SKiDL.

Each board is a dict of parts (reference -> value, pins with their electrical type) and a dict
of nets (name -> the part pins on it). `circuit(board)` builds the SKiDL circuit from that data
with parts defined inline (no KiCad library needed), `erc(board)` runs SKiDL's electrical rules
check and returns its messages, `netlist(board)` writes a KiCad netlist a PCB tool can import.
tests/hardware/test_schematic.py runs the ERC, compares the box's nets with hardware/pinmap.json
and every reference with hardware/bom.csv.

Pin numbers are the package's (Pico: its 40 castellated pads; SOIC-8 transceiver; SSOP-20
FT231X). Footprint names are those of hardware/pcb/footprints.py, which draws each one; the PCBs
(hardware/pcb/build.py) are laid out from the netlist this module writes. `python -m hardware.schematic [box|hub] [OUT.net]` writes the netlist.
"""
from __future__ import annotations

import json
import pathlib
import sys
from dataclasses import dataclass

HERE = pathlib.Path(__file__).resolve().parent

# Electrical pin types (SKiDL's names).
IN, OUT, BI, PAS, PIN, POUT, NC = "INPUT", "OUTPUT", "BIDIR", "PASSIVE", "PWRIN", "PWROUT", "NOCONNECT"


@dataclass(frozen=True)
class Part:
    value: str
    footprint: str
    pins: tuple[tuple[str, str, str], ...]   # (number, name, type)


@dataclass(frozen=True)
class Board:
    name: str
    parts: dict[str, Part]
    nets: dict[str, list[tuple[str, str]]]
    supplied: frozenset[str]   # nets fed from outside the board (a connector): they carry power


def two(value: str, footprint: str, a: str = "1", b: str = "2") -> Part:
    return Part(value, footprint, ((a, a, PAS), (b, b, PAS)))


def diode(value: str, footprint: str) -> Part:
    return Part(value, footprint, (("1", "K", PAS), ("2", "A", PAS)))


# ST ESDA6V1-5SC6Y: five unidirectional TVS to a common ground (pin 2), 5.2 V stand-off
ESDA = Part("ESDA6V1-5SC6Y", "SOT-23-6", (("1", "IO1", PAS), ("2", "GND", PAS), ("3", "IO2", PAS),
                                         ("4", "IO3", PAS), ("5", "IO4", PAS), ("6", "IO5", PAS)))
ESDA_IO = ("1", "3", "4", "5", "6")
SM712 = Part("SM712-02HTG", "SOT-23", (("1", "IO1", PAS), ("2", "IO2", PAS), ("3", "GND", PAS)))
M8 = ("1", "+5V", PAS), ("2", "A", PAS), ("3", "GND", PAS), ("4", "B", PAS)
# TI TPS25940A eFuse (WQFN-20 RVC, exposed pad = 21): hardware/power.py `EFuse` says why and what
# sets it. DEVSLP and PGTH held low, PGOOD, IMON and FLT unused (the data sheet lets them float).
# The five OUT pins are one output, not five drivers: passive, so the ERC sees no conflict.
EFUSE = Part("TPS25940ARVCR", "WQFN-20_3x4mm_P0.5mm_EP", (
    ("1", "DEVSLP", IN), ("2", "PGOOD", NC), ("3", "PGTH", IN),
    *((str(n), "OUT", PAS) for n in range(4, 9)), *((str(n), "IN", PIN) for n in range(9, 14)),
    ("14", "EN/UVLO", IN), ("15", "OVP", IN), ("16", "GND", PIN), ("17", "ILIM", PAS), ("18", "dVdT", PAS),
    ("19", "IMON", NC), ("20", "FLT", NC), ("21", "EP", PIN)))
RS485 = Part("SN65HVD1781DR", "SOIC-8", (
    ("1", "R", OUT), ("2", "~RE", IN), ("3", "DE", IN), ("4", "D", IN),
    ("5", "GND", PIN), ("6", "A", BI), ("7", "B", BI), ("8", "VCC", PIN)))


def pico() -> Part:
    """Raspberry Pi Pico, its 40 edge pads. GP25 (the LED) is on the board, not on a pad."""
    gp_pads = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16,
               13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29,
               26: 31, 27: 32, 28: 34}
    pins = [(str(pad), f"GP{gp}", BI) for gp, pad in gp_pads.items()]
    pins += [(str(pad), "GND", PIN) for pad in (3, 8, 13, 18, 23, 28, 33, 38)]
    pins += [("30", "RUN", IN), ("35", "ADC_VREF", PIN), ("36", "3V3", POUT), ("37", "3V3_EN", IN),
             ("39", "VSYS", PIN), ("40", "VBUS", POUT)]
    return Part("Raspberry Pi Pico", "RPi_Pico_SMD", tuple(sorted(pins, key=lambda p: int(p[0]))))


PICO_GP_PAD = {int(name[2:]): num for num, name, _ in pico().pins if name.startswith("GP")}


def _pinmap() -> dict:
    return json.loads((HERE / "pinmap.json").read_text())


def box(pinmap: dict | None = None) -> Board:
    """One bidding box. The GPIO of every function is read from the pin map, so the schematic
    and the firmware cannot disagree about a wire (the test checks the other direction)."""
    pm = _pinmap() if pinmap is None else pinmap
    gp = PICO_GP_PAD
    parts: dict[str, Part] = {
        "U1": pico(),
        "U2": RS485,
        # the cable's open end, soldered in (no connector: none fits under the lid, and the
        # box end is never unplugged; hardware/cable.md)
        "J1": Part("cable pads", "WirePads_1x04_P3.5mm", M8),
        "J2": two("termination jumper", "PinHeader_1x02_P2.54mm"),
        "J3": Part("seat jumpers", "PinHeader_2x02_P2.54mm", tuple((n, n, PAS) for n in "1234")),
        # the display module's own 7-pin header, soldered straight into the main PCB: no cable
        # (its 8.9 MHz clock runs 2 cm over the ground plane; hardware/display.md)
        "J4": Part("display module pads", "ModulePads_1x07_P2.54mm",
                   (("1", "VCC", PAS), ("2", "GND", PAS), ("3", "DIN", PAS), ("4", "CLK", PAS),
                    ("5", "CS", PAS), ("6", "DC", PAS), ("7", "RST", PAS))),
        "D26": diode("MBR120VLSFT1G", "D_SOD-123F"),
        "D27": SM712,
        "D28": diode("SMAJ5.0A", "D_SMA"),
        # the cable's 5 V through an eFuse: overvoltage cut-off and a slow start, so neither a hot
        # plug's ring nor a wrong adapter reaches VSYS (hardware/power.py, `EFuse`)
        "U5": EFUSE, "C3": two("1u", "C_0805"), "C4": two("22n", "C_0805"),
        "R20": two("82.5k", "R_0805"), "R21": two("7.15k", "R_0805"), "R22": two("20k", "R_0805"),
        "R23": two("68.1k", "R_0805"),
        "U3": ESDA, "U4": ESDA,
        "R1": two("330", "R_0805"), "R2": two("330", "R_0805"), "R3": two("150", "R_0805"),
        "R4": two("100", "R_0805"), "R5": two("120", "R_0805"),
        "R8": two("10k", "R_0805"),
        "C1": two("100n", "C_0805"), "C2": two("10u", "C_0805"),
        "LED1": diode("green", "LED_D3.0mm"), "LED2": diode("red", "LED_D3.0mm"),
        "LED3": diode("blue", "LED_D3.0mm"),
        "BZ1": two("piezo", "Buzzer_D12.2mm_P5.0mm"),
    }
    # the display module on 4-wire SPI (hardware/display.md); SPI0's MISO pin is claimed by
    # machine.SPI but wired to nothing (the panel sends nothing back)
    uart, disp, leds = pm["uart"], pm["display"]["spi"], pm["leds"]
    nets: dict[str, list[tuple[str, str]]] = {
        "UART_TX": [("U1", gp[uart["tx"]]), ("U2", "4")],
        "UART_RX": [("U1", gp[uart["rx"]]), ("U2", "1")],
        "DE": [("U1", gp[uart["de"]]), ("U2", "3"), ("U2", "2")],
        "BUS_A": [("U2", "6"), ("J1", "2"), ("D27", "1"), ("R5", "1")],
        "BUS_B": [("U2", "7"), ("J1", "4"), ("D27", "2"), ("J2", "2")],
        "TERM": [("R5", "2"), ("J2", "1")],
        "5V_IN": [("J1", "1"), ("D28", "1"), ("C3", "1"), ("R20", "1")] + [("U5", str(n)) for n in range(9, 14)],
        "5V_SAFE": [("D26", "2")] + [("U5", str(n)) for n in range(4, 9)],
        "EF_EN": [("U5", "14"), ("R20", "2"), ("R21", "1")],
        "EF_OVP": [("U5", "15"), ("R21", "2"), ("R22", "1")],
        "EF_ILIM": [("U5", "17"), ("R23", "1")],
        "EF_DVDT": [("U5", "18"), ("C4", "1")],
        "VSYS": [("D26", "1"), ("U1", "39"), ("C2", "1"), ("J4", "1")],
        "3V3": [("U1", "36"), ("U2", "8"), ("C1", "1"), ("R8", "1")],
        "DISP_DIN": [("U1", gp[disp["mosi"]]), ("J4", "3")],
        "DISP_CLK": [("U1", gp[disp["sck"]]), ("J4", "4")],
        "DISP_CS": [("U1", gp[disp["cs"]]), ("J4", "5")],
        "DISP_DC": [("U1", gp[disp["dc"]]), ("J4", "6")],
        # driven by the firmware; R8 holds it high (out of reset) while the Pico boots
        "DISP_RST": [("U1", gp[disp["res"]]), ("J4", "7"), ("R8", "2")],
        "LED_TURN": [("U1", gp[leds["turn"]]), ("R1", "1")],
        "LED_STOP": [("U1", gp[leds["stop"]]), ("R2", "1")],
        "LED_ALERT": [("U1", gp[leds["alert"]]), ("R3", "1")],
        "LED1_A": [("R1", "2"), ("LED1", "2")],
        "LED2_A": [("R2", "2"), ("LED2", "2")],
        "LED3_A": [("R3", "2"), ("LED3", "2")],
        "BUZZER": [("U1", gp[pm["buzzer"]["pin"]]), ("R4", "1")],
        "BZ_DRIVE": [("R4", "2"), ("BZ1", "1")],
        "SEAT0": [("U1", gp[pm["seat_jumpers"]["pins"][0]]), ("J3", "1")],
        "SEAT1": [("U1", gp[pm["seat_jumpers"]["pins"][1]]), ("J3", "3")],
        "GND": [("U1", n) for n, name, _ in pico().pins if name == "GND"] + [
            ("U2", "5"), ("J1", "3"), ("D27", "3"), ("D28", "2"), ("C1", "2"), ("C2", "2"), ("C3", "2"),
            ("C4", "2"), ("R22", "2"), ("R23", "2"), ("U5", "1"), ("U5", "3"), ("U5", "16"), ("U5", "21"),
            ("U3", "2"), ("U4", "2"),
            ("J4", "2"), ("LED1", "1"), ("LED2", "1"), ("LED3", "1"),
            ("BZ1", "2"), ("J3", "2"), ("J3", "4")],
    }
    kp = pm["keypad"]
    # The keys are touched: an ESD spark to a key reaches the switch's contacts. Each row and
    # column leaves the Pico through 100 ohm (R10-R14 rows, R15-R19 columns) and meets a TVS
    # (U3 rows, U4 columns) on the keypad side: the TVS takes the surge, the resistor limits what
    # is left for the RP2040's own pin diodes.
    for r, row_gp in enumerate(kp["rows"]):
        res = f"R{10 + r}"
        parts[res] = two("100", "R_0805")
        nets[f"ROW{r}_MCU"] = [("U1", gp[row_gp]), (res, "1")]
        nets[f"ROW{r}"] = [(res, "2"), ("U3", ESDA_IO[r])]
    for c, col_gp in enumerate(kp["cols"]):
        res = f"R{15 + c}"
        parts[res] = two("100", "R_0805")
        nets[f"COL{c}_MCU"] = [("U1", gp[col_gp]), (res, "1")]
        nets[f"COL{c}"] = [(res, "2"), ("U4", ESDA_IO[c])]
    for r, keys in enumerate(kp["keys"]):
        for c, key in enumerate(keys):
            if not key:
                continue   # a spare position: no switch, no diode fitted
            k = 5 * r + c + 1
            # B3F: pads 1-2 and 3-4 are joined inside the switch; both of each pair are soldered.
            parts[f"SW{k}"] = Part(f"key {key}", "SW_PUSH_12mm", tuple((n, n, PAS) for n in "1234"))
            parts[f"D{k}"] = diode("1N4148W", "D_SOD-123")
            nets[f"ROW{r}"].append((f"D{k}", "1"))           # cathode to the row (driven low)
            nets[f"SW{k}_D"] = [(f"D{k}", "2"), (f"SW{k}", "1"), (f"SW{k}", "2")]
            nets[f"COL{c}"] += [(f"SW{k}", "3"), (f"SW{k}", "4")]
    # Pads no net uses: declared not connected, so the ERC flags any pad forgotten by mistake.
    used = {pin for members in nets.values() for ref, pin in members if ref == "U1"}
    parts["U1"] = Part(parts["U1"].value, parts["U1"].footprint, tuple(
        (n, name, typ if n in used else NC) for n, name, typ in parts["U1"].pins))
    return Board("box", parts, nets, frozenset({"5V_IN", "5V_SAFE", "VSYS", "GND"}))


PORTS = 4


def hub() -> Board:
    """The table-side hub: USB (FT231X, CBUS2 = TXDEN) to one RS-485 transceiver, bias and
    termination, and four box ports each with its own polyfuse and TVS on the 5 V and the pair."""
    ft = Part("FT231XS-R", "SSOP-20", (
        ("1", "DTR", NC), ("2", "RTS", NC), ("3", "VCCIO", PIN), ("4", "RXD", IN), ("5", "RI", NC),
        ("6", "GND", PIN), ("7", "DSR", NC), ("8", "DCD", NC), ("9", "CTS", NC), ("10", "CBUS2", OUT),
        ("11", "USBDP", BI), ("12", "USBDM", BI), ("13", "3V3OUT", POUT), ("14", "RESET", NC),
        ("15", "VCC", PIN), ("16", "GND", PIN), ("17", "CBUS1", NC), ("18", "CBUS0", NC),
        ("19", "CBUS3", NC), ("20", "TXD", OUT)))
    parts: dict[str, Part] = {
        "U1": ft,
        "U2": RS485,
        "U3": Part("TLV75533PDBVR", "SOT-23-5", (("1", "IN", PIN), ("2", "GND", PIN), ("3", "EN", IN),
                                                 ("4", "NC", NC), ("5", "OUT", POUT))),
        "J1": Part("USB-B receptacle", "USB_B_61729-0010BLF", (("1", "VBUS", PAS), ("2", "D-", PAS),
                                                               ("3", "D+", PAS), ("4", "GND", PAS),
                                                               ("5", "SHIELD", PAS), ("6", "SHIELD", PAS))),
        "J2": Part("DC jack 2.1 mm", "PJ-102AH", (("1", "+", PAS), ("2", "-", PAS), ("3", "SW", PAS))),
        "D1": Part("USBLC6-2SC6", "SOT-23-6", (("1", "IO1", PAS), ("2", "GND", PAS), ("3", "IO2", PAS),
                                               ("4", "IO2", PAS), ("5", "VBUS", PAS), ("6", "IO1", PAS))),
        "R1": two("27", "R_0805"), "R2": two("27", "R_0805"),
        "R3": two("390", "R_0805"), "R4": two("390", "R_0805"), "R5": two("120", "R_0805"),
        "C1": two("100n", "C_0805"), "C2": two("100n", "C_0805"), "C3": two("1u", "C_0805"),
        "C4": two("1u", "C_0805"), "C5": two("100n", "C_0805"), "C6": two("22u", "C_1206"),
    }
    nets: dict[str, list[tuple[str, str]]] = {
        "VBUS": [("J1", "1"), ("D1", "5"), ("U1", "15"), ("U3", "1"), ("U3", "3"), ("C1", "1"), ("C3", "1")],
        # USBLC6 pads 1-6 and 3-4 are joined inside: the lines run through it (connector side
        # on 1 and 3), so the trace cannot bypass the protection with a stub.
        "USB_DM": [("J1", "2"), ("D1", "1")],
        "USB_DP": [("J1", "3"), ("D1", "3")],
        "USB_DM_P": [("D1", "6"), ("R1", "1")],
        "USB_DP_P": [("D1", "4"), ("R2", "1")],
        "FT_DM": [("R1", "2"), ("U1", "12")],
        "FT_DP": [("R2", "2"), ("U1", "11")],
        "FT_3V3": [("U1", "13"), ("U1", "3"), ("C2", "1")],
        "3V3": [("U3", "5"), ("C4", "1"), ("U2", "8"), ("C5", "1"), ("R3", "1")],
        "TXD": [("U1", "20"), ("U2", "4")],
        "RXD": [("U1", "4"), ("U2", "1")],
        "TXDEN": [("U1", "10"), ("U2", "3"), ("U2", "2")],
        "BUS_A": [("U2", "6"), ("R3", "2"), ("R5", "1")],
        "BUS_B": [("U2", "7"), ("R4", "1"), ("R5", "2")],
        "+5V_PSU": [("J2", "1"), ("C6", "1")],
        "GND": [("J1", "4"), ("J1", "5"), ("J1", "6"), ("D1", "2"), ("U1", "6"), ("U1", "16"), ("U3", "2"),
                ("U2", "5"), ("R4", "2"), ("J2", "2"), ("J2", "3"), ("C1", "2"), ("C2", "2"), ("C3", "2"),
                ("C4", "2"), ("C5", "2"), ("C6", "2")],
    }
    for k in range(1, PORTS + 1):
        j, f, tvs, esd = f"J{k + 2}", f"F{k}", f"D{k + 5}", f"D{k + 1}"
        # the port's M8 panel receptacle (X1-X4 on the bill) is wired to these pads
        parts[j] = Part("M8 receptacle pads", "WirePads_1x04_P3.5mm", M8)
        parts[f] = two("MF-MSMF075-2", "Fuse_1812")
        parts[tvs] = diode("SMAJ5.0A", "D_SMA")
        parts[esd] = SM712
        nets["+5V_PSU"].append((f, "1"))
        nets[f"PORT{k}_5V"] = [(f, "2"), (tvs, "1"), (j, "1")]
        nets["BUS_A"] += [(j, "2"), (esd, "1")]
        nets["BUS_B"] += [(j, "4"), (esd, "2")]
        nets["GND"] += [(j, "3"), (esd, "3"), (tvs, "2")]
    return Board("hub", parts, nets, frozenset({"VBUS", "+5V_PSU", "GND"}))


BOARDS = {"box": box, "hub": hub}

# --- SKiDL -------------------------------------------------------------------------------------


def _skidl():
    import skidl
    from skidl.logger import stop_log_file_output

    stop_log_file_output()   # SKiDL opens log files named after the script in the cwd on import
    return skidl


def circuit(board: Board):
    """The SKiDL circuit of a board, parts defined inline (tool SKIDL: no KiCad library)."""
    skidl = _skidl()
    c = skidl.Circuit()
    c.no_files = True
    parts = {}
    for ref, p in board.parts.items():
        pins = [skidl.Pin(num=n, name=name, func=getattr(skidl.Pin.types, typ)) for n, name, typ in p.pins]
        parts[ref] = skidl.Part(tool=skidl.SKIDL, name=p.value, ref=ref, value=p.value,
                                footprint=p.footprint, pins=pins, circuit=c, tag=ref)
    for name, members in board.nets.items():
        net = skidl.Net(name, circuit=c)
        if name in board.supplied:
            net.drive = skidl.POWER
        for ref, num in members:
            net += parts[ref].get_pins(num)
    return c


def erc(board: Board) -> list[str]:
    """SKiDL's ERC on the board: its warnings and errors as text (empty when clean)."""
    import io
    import logging
    _skidl()
    from skidl.logger import erc_logger
    c = circuit(board)
    buf = io.StringIO()
    handler = logging.StreamHandler(buf)
    handler.setLevel(logging.WARNING)
    erc_logger.addHandler(handler)
    try:
        c.ERC()
    finally:
        erc_logger.removeHandler(handler)
    return [line for line in buf.getvalue().splitlines()
            if line.strip() and "found while running ERC" not in line]


def netlist(board: Board) -> str:
    skidl = _skidl()
    return str(circuit(board).generate_netlist(tool=skidl.KICAD8, do_backup=False))


if __name__ == "__main__":
    which = sys.argv[1] if len(sys.argv) > 1 else "box"
    text = netlist(BOARDS[which]())
    if len(sys.argv) > 2:
        pathlib.Path(sys.argv[2]).write_text(text)
    else:
        print(text)
