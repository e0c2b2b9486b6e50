# Minimal SSD1306 / SSD1309 128x64 I2C driver (the part of micropython-lib's driver the box
# uses: init and the changed parts of the frame; render.Frame draws into `buf`). Kept here so the
# firmware needs nothing from the network to flash.

# display off, clock, multiplex 64, offset 0, start line 0, [charge pump on], horizontal
# addressing, segment remap, COM scan reversed, COM pins, contrast, precharge, VCOM detect,
# resume from RAM, normal (not inverted), display on: bytes, which stay in flash on the box.
# The SSD1309 has no charge pump (its module makes the panel supply; 0x8D is no SSD1309
# command): `charge_pump=False` leaves those two bytes out (hardware/display.md).
_INIT = (b"\xae\xd5\x80\xa8\x3f\xd3\x00\x40\x8d\x14\x20\x00\xa1\xc8"
         b"\xda\x12\x81\xcf\xd9\xf1\xdb\x40\xa4\xa6\xaf")
_PUMP = 8  # where 0x8D 0x14 sits in _INIT


class SSD1306:
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
        for i in range(len(_INIT)):
            if charge_pump or not _PUMP <= i < _PUMP + 2:
                self.command(_INIT[i])

    def command(self, c):
        self.cmd[0] = 0x80
        self.cmd[1] = c
        self.i2c.writeto(self.addr, self.cmd)

    def show_pages(self, first, last, c0=0, c1=-1):
        """Pages first..last (8-pixel rows, 128 bytes each: about 3 ms a page at 400 kHz), or
        columns c0..c1 of one page, to the panel: one write sets the window, one write carries
        the bytes."""
        w = self.win
        if c1 < 0:
            c1 = self.width - 1
        w[2] = c0
        w[3] = c1
        w[5] = first
        w[6] = last
        self.i2c.writeto(self.addr, w)
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
