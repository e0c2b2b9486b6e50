"""The box's firmware on the chip it ships on: stock MicroPython v1.27.0 (RPI_PICO) on an
emulated RP2040, flashed as `make flash` flashes it, the rp2 backend (machine.UART, Pin, I2C,
WDT), keys pressed on the matrix, the display read from its I2C traffic, and the tablet's real
LinkMaster, controller and laws engine on the other end of the UART.

Every wait is a budget of the chip's own time (hardware/emu/harness.py): the emulator runs the
chip slower than real time, and slower still on a busy machine, which must not fail a test. A
screen is read only once its picture stands still (never between two pages of a push)."""
import pytest

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]  # the timeout only ends a hang


def flash_holds(emu, seat: str, name: str) -> bytes | None:
    try:
        return emu.flash_file(seat, name)
    except Exception:  # the emulator is writing the file back this moment: read it again
        return None


def turn_shown(sc):
    return "YOUR TURN" in sc.status


def test_boots_as_flashed_and_links_up_with_the_real_tablet(emu_rig):
    r = emu_rig(seats="N")
    boot = r.emu.wait_console("N", r"box boot seat (\S) bus (\d) on (.+) heap (\d+) native (\d)", 60)
    assert boot.group(3) == "Raspberry Pi Pico with RP2040"
    assert boot.group(1) == "N" and boot.group(2) == "0"
    # the codec's and the display's byte loops were compiled to native code on the chip itself
    assert boot.group(5) == "1"
    # the tablet's STATE reaches the display: board 1, N deals, N's turn
    sc = r.emu.wait_screen("N", lambda s: turn_shown(s) and s.call_line.startswith("N Bd1"), 60)
    assert sc.call_line.startswith("N Bd1 DN")  # seat, board, dealer
    assert sc.leds.get("turn") == 1 and sc.leds.get("link") == 1
    r.emu.press("N", "1 NT OK")
    r.wait_calls(["1NT"])
    sc = r.emu.wait_screen("N", lambda s: "1NT" in s.auction and "E to call" in s.status, 30)


def test_power_cut_between_OK_and_the_acknowledgement_loses_nothing_and_doubles_nothing(emu_rig):
    r = emu_rig(seats="N")
    r.emu.wait_screen("N", turn_shown, 60)
    with r.paused():  # the tablet journals (and so acks) nothing while the box is cut
        r.emu.press("N", "1 H OK")
        # the box has taken the call (kept in flash, then sent): it says so
        r.emu.wait_screen("N", lambda s: "1\u2665 sending" in s.call_line, 30)
        r.emu.power_off("N")
        # the emulator writes the flash file back at power-off
        r.emu.wait(lambda: bool(flash_holds(r.emu, "N", "/outbox.bin")), 10, "the call in flash after the power went")
        r.emu.power_on("N")
    r.emu.wait_console("N", r"resend kept call|link up", 60)
    r.wait_calls(["1H"], 90)
    r.emu.wait_screen("N", lambda s: "1H" in s.auction and "E to call" in s.status, 60)
    r.emu.wait_chip(1000)  # a resend after the reboot would arrive now
    assert r.calls() == ["1H"]


def test_an_i2c_fault_mid_board_leaves_the_box_calling(emu_rig):
    """A box whose module is wired for I2C (`make flash DISPLAY_BUS=i2c`): the cable comes loose
    mid-board. Nothing acknowledges, the box goes on without its display, and when the cable is
    back (the panel powers up off, its memory gone) the box sets it up and draws it again."""
    r = emu_rig(seats="N", display="i2c")
    r.emu.wait_screen("N", turn_shown, 60)
    r.emu.display_unplugged("N")  # the OLED's cable comes loose
    r.emu.press("N", "P OK")
    r.wait_calls(["P"], 120)
    r.emu.display_unplugged("N", False)  # the cable is pushed back: the screen catches up by itself
    sc = r.emu.wait_screen("N", lambda s: "E to call" in s.status, 30)
    assert sc.on, "the panel came back dark: it was not set up again"
    assert not any("box fault" in t for _, t in r.emu.console["N"]), r.emu.console["N"]


def test_the_spi_display_unplugged_mid_board_comes_back_by_itself(emu_rig):
    """The reference box: the display on 4-wire SPI, which has no acknowledge, so the box cannot
    see that the cable came loose. It goes on calling, and the panel, plugged back in dark and
    blank, shows the box's picture again within the refresh period (hal_rp2.REFRESH_MS)."""
    r = emu_rig(seats="N")
    sc = r.emu.wait_screen("N", turn_shown, 60)
    assert sc.on and sc.call_line.startswith("N Bd1")
    r.emu.display_unplugged("N")
    r.emu.press("N", "P OK")
    r.wait_calls(["P"], 120)
    r.emu.display_unplugged("N", False)  # back dark and blank, as at power-on
    # the refresh rewrites a page a loop turn: the picture is read once whole
    sc = r.emu.wait_screen("N", lambda s: s.on and "E to call" in s.status and s.call_line.startswith("N Bd1"), 60)
    assert sc.call_line.startswith("N Bd1"), sc.text
    assert not any("box fault" in t for _, t in r.emu.console["N"]), r.emu.console["N"]


def test_a_hang_is_caught_by_the_watchdog_and_the_box_comes_back(emu_rig):
    r = emu_rig(seats="N")
    r.emu.wait_screen("N", turn_shown, 60)
    r.emu.hang("N")
    r.emu.wait(lambda: any(k == "D" for k, _ in r.emu.resets["N"]), 60, "watchdog reset")
    r.emu.wait(lambda: sum(1 for _, t in r.emu.console["N"] if t.startswith("box boot")) == 2, 60,
               "second boot")
    r.emu.wait_screen("N", turn_shown, 60)
    r.emu.press("N", "2 C OK")
    r.wait_calls(["2C"], 60)

