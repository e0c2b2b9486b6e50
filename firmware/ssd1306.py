# Minimal SSD1306 / SSD1309 128x64 driver, over I2C or 4-wire SPI (the part of micropython-lib's
# driver the box uses: init and the changed parts of the frame; render.Frame draws into `buf`).
# Kept here so the firmware needs nothing from the network to flash. Which bus: /config.json's
# "display" ("spi", the reference box, or "i2c"), the pins: /pinmap.json (hardware/display.md).

# display off, clock, multiplex 64, offset 0, start line 0, [charge pump on], horizontal
# addressing, segment remap, COM scan reversed, COM pins, contrast, precharge, VCOM detect,
# resume from RAM, normal (not inverted), display on: bytes, which stay in flash on the box.
# The SSD1309 has no charge pump (its module makes the panel supply; 0x8D is no SSD1309
# command): `charge_pump=False` leaves those two bytes out (hardware/display.md).
_INIT = (b"\xae\xd5\x80\xa8\x3f\xd3\x00\x40\x8d\x14\x20\x00\xa1\xc8"
         b"\xda\x12\x81\xcf\xd9\xf1\xdb\x40\xa4\xa6\xaf")
_PUMP = 8  # where 0x8D 0x14 sits in _INIT


def init_bytes(charge_pump):
    return _INIT if charge_pump else _INIT[:_PUMP] + _INIT[_PUMP + 2:]


def _window(w, k, width, first, last, c0, c1):
    """Set the window commands in w (0x21 c0 c1 0x22 first last, from index k): columns c0..c1
    (c1 -1: the last) of pages first..last. Returns c1."""
    if c1 < 0:
        c1 = width - 1
    w[k + 1] = c0
    w[k + 2] = c1
    w[k + 4] = first
    w[k + 5] = last
    return c1


class SSD1306:
    """Over I2C: every write starts with a control byte (0x80 one command, 0x00 commands, 0x40
    display data), and a write nobody acknowledges raises OSError (a missing panel is seen)."""

    def __init__(self, i2c, addr=0x3C, width=128, height=64, charge_pump=True):
        self.i2c = i2c
        self.addr = addr
        self.width = width
        self.height = height
        # The frame sits behind one spare byte, so a run of pages goes out as one I2C write
        # straight from it: the byte before the run is set to the data control byte (0x40) for
        # the write. (writevto would join a prefix and the data into a new buffer per write on
        # rp2: heap churn on every push.)
        self.raw = bytearray(1 + width * height // 8)
        self.mv = memoryview(self.raw)
        self.buf = self.mv[1:]
        self.cmd = bytearray(2)
        self.win = bytearray(b"\x00\x21\x00\x7f\x22\x00\x07")  # columns a..b, pages c..d
        self.init_seq = init_bytes(charge_pump)
        self.init()

    def init(self):
        for c in self.init_seq:
            self.command(c)

    def command(self, c):
        self.cmd[0] = 0x80
        self.cmd[1] = c
        self.i2c.writeto(self.addr, self.cmd)

    def show_pages(self, first, last, c0=0, c1=-1):
        """Pages first..last (8-pixel rows, 128 bytes each: about 3 ms a page at 400 kHz), or
        columns c0..c1 of one page, to the panel: one write sets the window, one write carries
        the bytes."""
        c1 = _window(self.win, 1, self.width, first, last, c0, c1)
        self.i2c.writeto(self.addr, self.win)
        o = first * self.width + c0
        keep = self.raw[o]
        self.raw[o] = 0x40
        try:
            if c0 == 0 and c1 == self.width - 1:
                self.i2c.writeto(self.addr, self.mv[o:(last + 1) * self.width + 1])
            else:
                self.i2c.writeto(self.addr, self.mv[o:first * self.width + c1 + 2])
        finally:
            self.raw[o] = keep


class SSD1306SPI:
    """Over 4-wire SPI (`machine.SPI`, mode 0, MSB first): the D/C pin says whether a byte is a
    command (low) or display data (high), CS frames each write, RES resets the controller. No
    control bytes, and no acknowledge: a missing panel raises nothing (the box cannot see it;
    hal_rp2.Display writes the whole picture again now and then instead, hardware/display.md).
    A 128-byte page is 0.12 ms at the SPI clock the pin map sets (10 MHz asked, 8.9 MHz given
    by the RP2040's divider) against about 3 ms on I2C at 400 kHz."""

    def __init__(self, spi, dc, cs, res, width=128, height=64, charge_pump=False):
        self.spi = spi
        self.dc = dc
        self.cs = cs
        self.width = width
        self.height = height
        self.raw = bytearray(width * height // 8)
        self.mv = memoryview(self.raw)
        self.buf = self.mv
        # a view of each page, made once: the refresh and a bus box push a page at a time, and
        # the idle loop then allocates nothing
        self.pages = [self.mv[p * width:(p + 1) * width] for p in range(height // 8)]
        self.win = bytearray(b"\x21\x00\x7f\x22\x00\x07")  # columns a..b, pages c..d
        self.init_seq = init_bytes(charge_pump)
        cs.value(1)
        dc.value(0)
        if res is not None:
            import time

            # RES low at least 3 us resets the controller (SSD1309 datasheet); then it takes
            # commands. The module's own RC reset has long ended by the time the box gets here.
            res.value(1)
            time.sleep_ms(1)
            res.value(0)
            time.sleep_ms(1)
            res.value(1)
        self.init()

    def _write(self, dc, data):
        self.dc.value(dc)
        self.cs.value(0)
        try:
            self.spi.write(data)
        finally:
            self.cs.value(1)

    def init(self):
        self._write(0, self.init_seq)

    def show_pages(self, first, last, c0=0, c1=-1):
        """As SSD1306.show_pages: the window (6 command bytes), then the bytes."""
        c1 = _window(self.win, 0, self.width, first, last, c0, c1)
        self._write(0, self.win)
        o = first * self.width + c0
        if c0 == 0 and c1 == self.width - 1:
            self._write(1, self.pages[first] if first == last else self.mv[o:(last + 1) * self.width])
        else:
            self._write(1, self.mv[o:first * self.width + c1 + 1])
