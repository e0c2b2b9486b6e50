# The rp2 backend with a stand-in `machine` module: reads the real pin map, scans the keypad
# matrix through the pins it names, drives the RS-485 enable around writes, draws on the OLED.
import sys
import time


class FakePin:
    OUT = 1
    IN = 0
    PULL_UP = 1
    PULL_DOWN = 2
    pressed = set()   # GPIO pairs (row, col) of held keys
    levels = {}

    def __init__(self, n, mode=-1, pull=None, value=None):
        self.n = n
        self.mode = mode
        if value is not None:
            FakePin.levels[n] = value

    def value(self, v=None):
        if v is not None:
            FakePin.levels[self.n] = v
            return None
        if self.mode == FakePin.IN:
            for r, c in FakePin.pressed:
                if c == self.n and FakePin.levels.get(r, 1) == 0:
                    return 0
            return 1
        return FakePin.levels.get(self.n, 0)


class FakeUART:
    log = []

    def __init__(self, id, baudrate=0, tx=None, rx=None, bits=8, parity=None, stop=1, rxbuf=0):
        self.baud = baudrate
        self.rx = bytearray()

    def any(self):
        return len(self.rx)

    def readinto(self, buf, nbytes=-1):
        n = min(len(buf), len(self.rx), len(buf) if nbytes < 0 else nbytes)
        buf[0:n] = self.rx[0:n]
        self.rx = self.rx[n:]
        return n

    def write(self, data):
        FakeUART.log.append(("write", FakePin.levels.get(2), bytes(data)))
        return len(data)

    def flush(self):
        FakeUART.log.append(("flush", FakePin.levels.get(2), b""))


class FakeI2C:
    writes = []
    fail = False  # a loose cable: nothing answers

    def __init__(self, id, sda=None, scl=None, freq=0):
        pass

    def scan(self):
        return [0x3C]

    def writeto(self, addr, buf):
        if FakeI2C.fail:
            raise OSError(5)
        FakeI2C.writes.append(bytes(buf))

    def writevto(self, addr, bufs):
        if FakeI2C.fail:
            raise OSError(5)
        FakeI2C.writes.append(b"".join(bytes(b) for b in bufs))


class FakePWM:
    def __init__(self, pin):
        self.duty = 0

    def freq(self, f):
        pass

    def duty_u16(self, d):
        self.duty = d


class FakeMachine:
    Pin = FakePin
    UART = FakeUART
    I2C = FakeI2C
    PWM = FakePWM


sys.modules["machine"] = FakeMachine

import hal_rp2  # noqa: E402
import keys as K  # noqa: E402


def pinmap_path():
    return sys.path[1] + "/hardware/pinmap.json"


def test_rp2_hal_reads_the_pin_map_and_scans_the_keypad():
    hal = hal_rp2.Hal(pinmap_path())
    pm = hal_rp2.load_pinmap(pinmap_path())
    rows = pm["keypad"]["rows"]
    cols = pm["keypad"]["cols"]
    # hold the key at row 2, col 2 of the layout ("H")
    assert pm["keypad"]["keys"][2][2] == "H"
    FakePin.pressed.add((rows[2], cols[2]))
    for _ in range(30):
        hal.wait(1)
        time.sleep_ms(1) if hasattr(time, "sleep_ms") else time.sleep(0.001)
    assert hal.keys.get() == K.H
    assert hal.keys.get() == K.NONE
    FakePin.pressed.clear()


def test_rp2_rs485_driver_enabled_only_while_sending():
    hal = hal_rp2.Hal(pinmap_path())
    FakeUART.log.clear()
    hal.serial.write(b"\x00abc\x00")
    assert FakeUART.log[0] == ("write", 1, b"\x00abc\x00")
    assert FakeUART.log[1] == ("flush", 1, b"")
    assert FakePin.levels[2] == 0  # released after the last byte left


def test_rp2_display_draws_header_and_last_auction_rows():
    hal = hal_rp2.Hal(pinmap_path())
    assert hal.display.oled is not None
    FakeI2C.writes.clear()
    lines = ["N Bd1 DN V-", "YOUR TURN", ">", "N   E   S   W"] + ["1C  P   1H  P"] * 9
    hal.display.show(lines)
    assert not [w for w in FakeI2C.writes if w[0] == 0x40]  # drawn, not pushed yet
    for i in range(8):
        hal.display.push()  # a page per turn of the loop: no grant waits behind a whole frame
        pages = [w for w in FakeI2C.writes if w[0] == 0x40]
        assert len(pages) == i + 1 and len(pages[-1]) == 1 + 128
    hal.display.push()
    assert len([w for w in FakeI2C.writes if w[0] == 0x40]) == 8  # the frame is up
    assert any(b for w in FakeI2C.writes if w[0] == 0x40 for b in w[1:])  # something was drawn


def test_rp2_display_that_stops_answering_is_reported_not_raised():
    hal = hal_rp2.Hal(pinmap_path())
    hal.display.show(["N", "YOUR TURN"])
    FakeI2C.fail = True
    try:
        hal.display.push()  # no exception out of the loop: the box goes on
    finally:
        FakeI2C.fail = False
    assert hal.display.failed
    hal.display.show(["N", "YOUR TURN"])  # the app draws again later
    assert not hal.display.failed


def test_rp2_seat_jumpers():
    FakePin.levels.clear()
    assert hal_rp2.seat_from_jumpers((20, 21)) == 0  # both open: North
    FakePin.levels[99] = 0  # a "row" held at ground ...
    FakePin.pressed.add((99, 21))  # ... joined to GPIO 21: its jumper is fitted
    assert hal_rp2.seat_from_jumpers((20, 21)) == 1  # East
    FakePin.pressed.clear()
    assert hal_rp2.seat_from_jumpers(()) == -1
    assert hal_rp2.Hal(pinmap_path()).jumper_gpios == (20, 21)  # from the pin map


def test_rp2_oled_follows_the_auction_and_pages_in_review():
    hal = hal_rp2.Hal(pinmap_path())
    shown = []
    hal.display.oled.draw = lambda ls, first=0, changed=None: shown.append(list(ls)) or 0
    head = ["N Bd1 DN V-", "YOUR TURN", ">", "N   E   S   W"]
    rows = ["row" + str(i) for i in range(10)]
    hal.display.show(head + rows)          # normal: the last rows
    assert shown[-1] == head + rows[6:10], shown[-1]
    hal.display.show(head + rows, 0)       # review, first page
    assert shown[-1] == head + rows[0:4]
    hal.display.show(head + rows, 2)       # review, third page
    assert shown[-1] == head + rows[8:10]


def test_rp2_a_new_call_puts_only_the_changed_characters_on_the_i2c_bus():
    # at 400 kHz every byte to the panel costs 22.5 us of the call's way to the player's eyes
    hal = hal_rp2.Hal(pinmap_path())
    head = ["N Bd1 DN V-", "E to call", ">", "N   E   S   W"]
    hal.display.show(head + ["1C  1D"])
    hal.display.push(True)
    FakeI2C.writes.clear()
    hal.display.show(head + ["1C  1D  1H"])  # S bid 1H: "  1H", four characters of one row
    hal.display.push(True)
    data = [w for w in FakeI2C.writes if w[0] == 0x40]
    assert len(data) == 1 and len(data[0]) == 1 + 4 * 8, [len(w) for w in data]
    win = [w for w in FakeI2C.writes if w[:2] == b"\x00\x21"]
    assert win and win[-1][2:4] == bytes([6 * 8, 10 * 8 - 1]) and win[-1][5:7] == b"\x04\x04", win
    FakeI2C.writes.clear()
    hal.display.show(head[:1] + ["YOUR TURN"] + head[2:] + ["1C  1D  1H"])
    hal.display.push(True)
    data = [w for w in FakeI2C.writes if w[0] == 0x40]
    assert len(data) == 1 and len(data[0]) == 1 + 9 * 8  # "E to call" -> "YOUR TURN"
