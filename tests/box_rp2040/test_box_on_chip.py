"""The box's firmware on the chip it ships on: stock MicroPython v1.27.0 (RPI_PICO) on an
emulated RP2040, flashed as `make flash` flashes it, the rp2 backend (machine.UART, Pin, I2C,
WDT), keys pressed on the matrix, the display read from its I2C traffic, and the tablet's real
LinkMaster, controller and laws engine on the other end of the UART."""
import pytest

pytestmark = [pytest.mark.slow]


def turn_shown(sc):
    return "YOUR TURN" in sc.lines[1]


def test_boots_as_flashed_and_links_up_with_the_real_tablet(emu_rig):
    r = emu_rig(seats="N")
    boot = r.emu.wait_console("N", r"box boot seat (\S) bus (\d) on (.+) heap (\d+)", 60)
    assert boot.group(3) == "Raspberry Pi Pico with RP2040"
    assert boot.group(1) == "N" and boot.group(2) == "0"
    # the tablet's STATE reaches the display: board 1, N deals, N's turn
    sc = r.emu.wait_screen("N", turn_shown, 60)
    assert sc.lines[0].startswith("N Bd1 DN")
    assert sc.leds.get("turn") == 1 and sc.leds.get("link") == 1
    r.emu.press("N", "1 NT OK")
    r.wait_calls(["1NT"])
    sc = r.emu.wait_screen("N", lambda s: "1NT" in s.text and "E to call" in s.lines[1], 30)
