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


class FakeSPI:
    """machine.SPI: each write with the D/C and CS levels it was made under (SPI has no
    acknowledge: nothing here can fail, as nothing on the wire can)."""
    writes = []  # (dc, bytes)
    made = []

    def __init__(self, id, baudrate=0, polarity=0, phase=0, sck=None, mosi=None, miso=None):
        FakeSPI.made.append((id, baudrate, sck.n, mosi.n, miso.n))

    def write(self, buf):
        assert FakePin.levels.get(CS) == 0, "a write with CS high reaches no panel"
        FakeSPI.writes.append((FakePin.levels.get(DC), bytes(buf)))


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
    SPI = FakeSPI
    PWM = FakePWM


sys.modules["machine"] = FakeMachine

import hal_rp2  # noqa: E402
import keys as K  # noqa: E402


def pinmap_path():
    return sys.path[1] + "/hardware/pinmap.json"


_SPI_PINS = hal_rp2.load_pinmap(pinmap_path())["display"]["spi"]
CS = _SPI_PINS["cs"]
DC = _SPI_PINS["dc"]


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


def pushed_pages():
    """(page, first column, its bytes) for each page window written to the panel, from the I2C
    traffic: a command write sets the window (0x21 columns c0..c1, 0x22 pages first..last), the
    data write that follows fills it, page after page."""
    out = []
    c0 = c1 = first = 0
    for w in FakeI2C.writes:
        if w[0] == 0x00 and len(w) == 7 and w[1] == 0x21 and w[4] == 0x22:
            c0, c1, first = w[2], w[3], w[5]
        elif w[0] == 0x40:
            data = w[1:]
            n = c1 - c0 + 1
            for k in range(len(data) // n):
                out.append((first + k, c0, data[k * n:(k + 1) * n]))
    return out


def frame_view(seat=0):
    import calls
    import view as V

    from protocol.calls import code

    v = V.BoxView(seat)
    v.known = True
    v.phase = V.AUCTION
    v.board = 1
    v.turn = seat
    v.auction[0] = code("1H")
    v.auction[1] = code("P")
    v.n = 2
    v.lowest = calls.bid(2, 0)
    return v


def diff(a, b):
    return a - b


def test_rp2_display_pushes_only_the_pages_that_changed():
    import entry as E
    import render

    hal = hal_rp2.Hal(pinmap_path(), "i2c")
    assert hal.display.oled is not None and hal.display.buf is hal.display.oled.buf
    fr = render.Frame(hal.display.buf)  # drawn in place: the driver's buffer is the frame
    v = frame_view(2)
    ent = E.CallEntry()
    FakeI2C.writes.clear()
    hal.display.frame(fr, fr.draw(v, ent, 0, diff))
    assert not pushed_pages()  # drawn, not pushed yet
    for i in range(8):
        hal.display.push()  # a page per turn of the loop: no grant waits behind a whole frame
        assert len(pushed_pages()) == i + 1
    hal.display.push()
    pages = pushed_pages()
    assert [p for p, _, _ in pages] == list(range(8))
    assert all(c0 == 0 and data == bytes(fr.buf[p * 128:p * 128 + 128]) for p, c0, data in pages)
    FakeI2C.writes.clear()
    ent.press(K.from_token("2"), v, 0, diff)
    ent.press(K.from_token("S"), v, 0, diff)  # only the call line changes: "2S OK?"
    hal.display.frame(fr, fr.draw(v, ent, 0, diff))
    for _ in range(8):
        hal.display.push()
    pages = pushed_pages()
    assert [p for p, _, _ in pages] == [2, 3], [p for p, _, _ in pages]
    # only the changed characters' columns go (22.5 us a byte at 400 kHz), and the spade glyph
    # of the selection is what reached the panel, at the call line's 2nd cell (x 10..19)
    import font16

    w = font16.WIDTH
    g = font16.SPADE * 2 * w
    (_, c0, top), (_, c0b, bottom) = pages
    assert c0 == c0b and 0 <= c0 <= w and len(top) < 128 and len(bottom) == len(top), (c0, len(top))
    assert top[w - c0:2 * w - c0] == bytes(font16.FONT[g:g + w])
    assert bottom[w - c0:2 * w - c0] == bytes(font16.FONT[g + w:g + 2 * w])
    for p, c0, data in pages:  # what went is what the frame holds there
        assert data == bytes(fr.buf[p * 128 + c0:p * 128 + c0 + len(data)])


def test_rp2_display_that_stops_answering_is_reported_not_raised():
    import entry as E
    import render

    hal = hal_rp2.Hal(pinmap_path(), "i2c")
    fr = render.Frame(hal.display.buf)
    v = frame_view()
    hal.display.frame(fr, fr.draw(v, E.CallEntry(), 0, diff))
    FakeI2C.fail = True
    try:
        hal.display.push()  # no exception out of the loop: the box goes on
    finally:
        FakeI2C.fail = False
    assert hal.display.failed
    FakeI2C.writes.clear()
    # the app draws again later; nothing changed in the picture, but the panel may have lost
    # any page: all of them go again
    hal.display.frame(fr, fr.draw(v, E.CallEntry(), 0, diff))
    assert not hal.display.failed
    for _ in range(9):
        hal.display.push()
    assert [(p, c0, len(d)) for p, c0, d in pushed_pages()] == [(p, 0, 128) for p in range(8)]


def spi_pages():
    """(first page, last page, their bytes) for each window written over SPI: a command write
    (D/C low) with 0x21 c0 c1 0x22 first last sets it, the data write (D/C high) that follows
    fills it. Commands that are no window (the init sequence) are returned as ("init", bytes)."""
    out = []
    win = None
    for dc, w in FakeSPI.writes:
        if dc == 0 and len(w) == 6 and w[0] == 0x21 and w[3] == 0x22:
            win = (w[4], w[5], w[1], w[2])
        elif dc == 0:
            out.append(("init", w))
        else:
            first, last, c0, c1 = win
            assert (c0, c1) == (0, 127), "SPI pushes whole pages"
            assert len(w) == (last - first + 1) * 128
            out.append((first, last, w))
    return out


def test_rp2_display_on_spi_pushes_whole_pages_in_one_write_from_the_first_changed_to_the_last():
    import entry as E
    import render

    FakeSPI.made.clear()
    FakeSPI.writes.clear()
    hal = hal_rp2.Hal(pinmap_path())  # the reference box: SPI
    sp = _SPI_PINS
    assert FakeSPI.made == [(sp["id"], sp["baud"], sp["sck"], sp["mosi"], sp["miso"])]
    # MISO is named (GP4): else rp2's machine.SPI would take SPI0's default MISO, GP16, the
    # turn LED's pin
    assert sp["miso"] != hal_rp2.load_pinmap(pinmap_path())["leds"]["turn"]
    init = spi_pages()
    assert init and init[0][0] == "init" and init[0][1][-1] == 0xAF  # display on, last
    assert 0x8D not in init[0][1]  # the SSD1309 has no charge pump command
    assert FakePin.levels[CS] == 1  # deselected between writes
    fr = render.Frame(hal.display.buf)
    v = frame_view(2)
    ent = E.CallEntry()
    hal.display.frame(fr, fr.draw(v, ent, 0, diff))
    FakeSPI.writes.clear()
    hal.display.push(True)  # point to point: everything at once, in one window
    assert [(a, b) for a, b, _ in spi_pages()] == [(0, 7)]
    assert spi_pages()[0][2] == bytes(fr.buf)
    FakeSPI.writes.clear()
    ent.press(K.from_token("2"), v, 0, diff)
    ent.press(K.from_token("S"), v, 0, diff)  # only the call line changes: pages 2 and 3
    hal.display.frame(fr, fr.draw(v, ent, 0, diff))
    hal.display.push()  # a bus box: one page a turn
    hal.display.push()
    hal.display.push()
    assert [(a, b) for a, b, _ in spi_pages()] == [(2, 2), (3, 3)]
    for a, _, data in spi_pages():
        assert data == bytes(fr.buf[a * 128:a * 128 + 128])


def test_rp2_a_bus_box_pushes_its_redraw_in_one_spi_write_in_the_same_loop_turn():
    """On a bus a redraw's pages went out one per turn of the loop (six turns for a call's
    status, call line and round). On SPI all of them are one write of at most 1 KB (0.9 ms on
    the wire): they go right after the redraw, in the turn that drew them."""
    import app as A
    import view as V

    from protocol import layout as L

    hal = hal_rp2.Hal(pinmap_path())  # the reference box: SPI
    box = A.BoxApp(hal, 2, True)
    v = box.view
    v.known = True
    v.phase = V.AUCTION
    v.board = 3
    v.turn = 1
    for _ in range(12):
        box.step(0)  # the first picture out, nothing due
    assert not hal.display.pending
    FakeSPI.writes.clear()
    v.msg = "HELLO"  # the call line
    box.ep.state_body[L.S_AUCTION] = 3  # 1C by the dealer: the round's lines
    v.n = 1
    box.dirty = True
    box.step(0)
    assert box.renders and not hal.display.pending, "pages left for later loop turns"
    pages = spi_pages()
    assert [(a, b) for a, b, _ in pages] == [(2, 7)], [(a, b) for a, b, _ in pages]
    assert pages[0][2] == bytes(box.frame.buf[256:1024])


def test_rp2_display_on_spi_rewrites_its_whole_picture_every_refresh_period():
    """SPI has no acknowledge: a panel whose cable came out and went back in (off, its memory
    lost) cannot be seen. The box sends the init commands and every page again every
    REFRESH_MS while nothing else is due, so such a panel shows the picture again."""
    import entry as E
    import render

    hal = hal_rp2.Hal(pinmap_path())
    fr = render.Frame(hal.display.buf)
    hal.display.frame(fr, fr.draw(frame_view(), E.CallEntry(), 0, diff))
    hal.display.push(True)
    t0 = time.ticks_ms()
    hal.display.refreshed = t0
    FakeSPI.writes.clear()
    hal.display.refresh(t0 + hal_rp2.REFRESH_MS - 1)
    for _ in range(9):
        hal.display.push()
    assert FakeSPI.writes == []  # not due yet
    hal.display.refresh(t0 + hal_rp2.REFRESH_MS)
    for _ in range(9):
        hal.display.push()  # a page a turn of the loop
    got = spi_pages()
    assert got[0][0] == "init" and got[0][1][-1] == 0xAF
    assert [(a, b) for a, b, _ in got[1:]] == [(p, p) for p in range(8)]
    assert b"".join(d for _, _, d in got[1:]) == bytes(fr.buf)


def test_frame_draw_allocates_nothing():
    # on the box's hot path: a new STATE or key redraws without touching the heap
    import gc

    import entry as E
    import render

    hal = hal_rp2.Hal(pinmap_path())
    fr = render.Frame(hal.display.buf)
    v = frame_view(0)
    ent = E.CallEntry()
    fr.draw(v, ent, 0, diff)
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        ent.press(K.from_token("3"), v, 0, diff)
        ent.press(K.from_token("NT"), v, 0, diff)
        m1 = fr.draw(v, ent, 0, diff)
        v.auction[2] = v.auction[0] | 0x40
        v.n = 3
        v.turn = 3
        v.stop_deadline = 5000
        m2 = fr.draw(v, ent, 1000, diff)
        for _ in range(8):
            hal.display.push()
        after = gc.mem_alloc()
    finally:
        gc.enable()
    assert m1 and m2
    assert after == before, after - before


def test_rp2_seat_jumpers():
    FakePin.levels.clear()
    assert hal_rp2.seat_from_jumpers((20, 21)) == 0  # both open: North
    FakePin.levels[99] = 0  # a "row" held at ground ...
    FakePin.pressed.add((99, 21))  # ... joined to GPIO 21: its jumper is fitted
    assert hal_rp2.seat_from_jumpers((20, 21)) == 1  # East
    FakePin.pressed.clear()
    assert hal_rp2.seat_from_jumpers(()) == -1
    assert hal_rp2.Hal(pinmap_path()).jumper_gpios == (20, 21)  # from the pin map
