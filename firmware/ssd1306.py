# Minimal SSD1306 128x64 I2C driver on framebuf (the part of micropython-lib's driver the box
# uses: init, text, the changed pages). Kept here so the firmware needs nothing from the network
# to flash.
import framebuf

# display off, clock, multiplex 64, offset 0, start line 0, charge pump on, horizontal
# addressing, segment remap, COM scan reversed, COM pins, contrast, precharge, VCOM detect,
# resume from RAM, normal (not inverted), display on: bytes, which stay in flash on the box
_INIT = (b"\xae\xd5\x80\xa8\x3f\xd3\x00\x40\x8d\x14\x20\x00\xa1\xc8"
         b"\xda\x12\x81\xcf\xd9\xf1\xdb\x40\xa4\xa6\xaf")


class SSD1306:
    def __init__(self, i2c, addr=0x3C, width=128, height=64):
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
        self.fb = framebuf.FrameBuffer(self.buf, width, height, framebuf.MONO_VLSB)
        self.cmd = bytearray(2)
        self.win = bytearray(b"\x00\x21\x00\x7f\x22\x00\x07")  # columns a..b, pages c..d
        # the columns of each page that the last draw() changed (first, last)
        self.lo = bytearray(height // 8)
        self.hi = bytearray(height // 8)
        for c in _INIT:
            self.command(c)

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

    def show_page(self, p):
        self.show_pages(p, p)

    def draw(self, text_lines, first=0, changed=None):
        """Draw up to 8 lines into the frame (the built-in 8x8 font: 16 columns; longer lines
        are cut at 16); returns the mask of the pages whose text differs from `changed` (the
        lines drawn last time; None: all). show_pages() puts them on the panel."""
        fb = self.fb
        mask = 0
        row = 0
        for i in range(first, len(text_lines)):
            if row >= self.height // 8:
                break
            t = text_lines[i]
            old = None if changed is None or row >= len(changed) else changed[row]
            if old != t:
                fb.fill_rect(0, row * 8, self.width, 8, 0)
                fb.text(t, 0, row * 8, 1)
                mask |= 1 << row
                self._span(row, old, t)
            row += 1
        while row < self.height // 8:
            if changed is None or row < len(changed):
                fb.fill_rect(0, row * 8, self.width, 8, 0)
                mask |= 1 << row
                self._span(row, None, "")
            row += 1
        return mask

    def _span(self, row, old, new):
        """The columns of `row` that differ between the texts (8 per character): a new call
        changes a few characters of its auction row, and only those go over the bus."""
        last = self.width - 1
        if old is None:
            self.lo[row] = 0
            self.hi[row] = last
            return
        n = max(len(old), len(new))
        a = 0
        while a < n and a < len(old) and a < len(new) and old[a] == new[a]:
            a += 1
        b = n - 1
        while b > a and b < len(old) and b < len(new) and old[b] == new[b]:
            b -= 1
        self.lo[row] = min(a * 8, last)
        self.hi[row] = min(b * 8 + 7, last)
