"""The schematics as checked files: SKiDL's electrical rules check is clean, every net has a
driver, the box's wiring is the pin map the firmware reads, no pad is on two nets."""
import dataclasses
import json
import subprocess
import sys
from collections import Counter

import pytest

from hardware import schematic
from tests.conftest import ROOT

PINMAP = json.loads((ROOT / "hardware" / "pinmap.json").read_text())


@pytest.mark.parametrize("name", ["box", "hub"])
@pytest.mark.slow
def test_the_erc_is_clean(name):
    assert schematic.erc(schematic.BOARDS[name]()) == []


@pytest.mark.parametrize("name", ["box", "hub"])
def test_no_pad_is_on_two_nets_and_every_pad_exists(name):
    board = schematic.BOARDS[name]()
    seen = Counter((ref, pin) for members in board.nets.values() for ref, pin in members)
    assert [k for k, n in seen.items() if n > 1] == []
    for ref, pin in seen:
        assert pin in {num for num, _, _ in board.parts[ref].pins}, (ref, pin)


@pytest.mark.slow
def test_the_erc_catches_a_forgotten_wire_and_an_unpowered_rail():
    board = schematic.box()
    stray = dataclasses.replace(board, nets={**board.nets, "STRAY": [("U1", "5")]})   # GP3: unused pad
    assert any("STRAY" in m for m in schematic.erc(stray))
    unfed = dataclasses.replace(board, supplied=frozenset({"GND"}))                  # nothing feeds VSYS
    assert any("VSYS" in m for m in schematic.erc(unfed))


def _net_of(board, ref, pin):
    return next(name for name, members in board.nets.items() if (ref, pin) in members)


def _gp_net(board, gpio):
    return _net_of(board, "U1", schematic.PICO_GP_PAD[gpio])


def test_the_box_wiring_is_the_pin_map():
    board = schematic.box()
    u = PINMAP["uart"]
    assert ("U2", "4") in board.nets[_gp_net(board, u["tx"])]          # TX -> driver input D
    assert ("U2", "1") in board.nets[_gp_net(board, u["rx"])]          # receiver output R -> RX
    assert {("U2", "2"), ("U2", "3")} <= set(board.nets[_gp_net(board, u["de"])])
    d = PINMAP["display"]["spi"]  # the module's 7 pins: VCC GND DIN CLK CS DC RST
    for pin, gpio in (("3", "mosi"), ("4", "sck"), ("5", "cs"), ("6", "dc"), ("7", "res")):
        assert ("J4", pin) in board.nets[_gp_net(board, d[gpio])], gpio
    for name, ref in (("turn", "R1"), ("stop", "R2"), ("alert", "R3")):
        assert (ref, "1") in board.nets[_gp_net(board, PINMAP["leds"][name])]
    assert ("R4", "1") in board.nets[_gp_net(board, PINMAP["buzzer"]["pin"])]
    kp = PINMAP["keypad"]
    for r, keys in enumerate(kp["keys"]):
        for c, key in enumerate(keys):
            k = 5 * r + c + 1
            if not key:
                assert f"SW{k}" not in board.parts
                continue
            # row GPIO -> 100 ohm -> diode cathode; diode anode -> switch; switch -> 100 ohm ->
            # column GPIO; the keypad side of each resistor has its TVS
            assert _net_of(board, f"D{k}", "1") == _through_resistor(board, _gp_net(board, kp["rows"][r]))
            assert _net_of(board, f"D{k}", "2") == _net_of(board, f"SW{k}", "1")
            assert _net_of(board, f"SW{k}", "3") == _through_resistor(board, _gp_net(board, kp["cols"][c]))


def _through_resistor(board, net):
    """The net on the other side of the one series resistor on `net` (the keypad side)."""
    (res,) = [ref for ref, _ in board.nets[net] if ref.startswith("R")]
    pin = next(p for r, p in board.nets[net] if r == res)
    return _net_of(board, res, "2" if pin == "1" else "1")


def test_every_keypad_line_is_protected_on_the_keypad_side():
    # A key is touched: every row and column has a series resistor and a TVS to ground, and
    # no switch or diode sits on the Pico's side of the resistor.
    board = schematic.box()
    kp = PINMAP["keypad"]
    for gpio in [*kp["rows"], *kp["cols"]]:
        mcu = _gp_net(board, gpio)
        assert sorted(ref[0] for ref, _ in board.nets[mcu]) == ["R", "U"], mcu
        keypad = _through_resistor(board, mcu)
        tvs = [ref for ref, _ in board.nets[keypad] if board.parts[ref].value == "ESDA6V1-5SC6Y"]
        assert len(tvs) == 1, keypad
        assert ("GND" in {n for n, m in board.nets.items() if (tvs[0], "2") in m})


def test_every_gpio_the_pin_map_names_is_wired_once_and_nothing_else_is():
    pm = PINMAP
    d = pm["display"]["spi"]  # MISO is claimed by machine.SPI but wired to nothing
    named = [pm["uart"]["tx"], pm["uart"]["rx"], pm["uart"]["de"], d["mosi"], d["sck"], d["cs"], d["dc"], d["res"],
             pm["leds"]["turn"], pm["leds"]["stop"], pm["leds"]["alert"], pm["buzzer"]["pin"],
             *pm["seat_jumpers"]["pins"], *pm["keypad"]["rows"], *pm["keypad"]["cols"]]
    assert len(named) == len(set(named))
    board = schematic.box()
    wired = {int(name[2:]) for num, name, typ in board.parts["U1"].pins
             if name.startswith("GP") and typ != schematic.NC}
    assert wired == set(named)
    assert pm["leds"]["link"] == 25 and 25 not in schematic.PICO_GP_PAD   # the Pico's own LED


@pytest.mark.slow
def test_a_pin_map_that_moves_a_wire_moves_the_schematic():
    moved = json.loads(json.dumps(PINMAP))
    moved["buzzer"]["pin"] = 5  # a pin the reference box leaves free (the I2C display's SCL)
    board = schematic.box(moved)
    assert ("R4", "1") in board.nets[_gp_net(board, 5)]
    assert schematic.erc(board) == []


@pytest.mark.slow
def test_the_netlist_command_writes_a_kicad_netlist(tmp_path):
    out = tmp_path / "hub.net"
    r = subprocess.run([sys.executable, "-m", "hardware.schematic", "hub", str(out)], cwd=tmp_path,
                       env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    text = out.read_text()
    assert "(export" in text and '"FT231XS-R"' in text and '"TXDEN"' in text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hub.net"]   # no SKiDL log files left behind
