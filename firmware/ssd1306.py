# Minimal SSD1306 128x64 I2C driver on framebuf (the part of micropython-lib's driver the box
# uses: init, text, show). Kept here so the firmware needs nothing from the network to flash.
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
        self.buf = bytearray(width * height // 8)
        self.fb = framebuf.FrameBuffer(self.buf, width, height, framebuf.MONO_VLSB)
        self.cmd = bytearray(2)
        for c in _INIT:
            self.command(c)

    def command(self, c):
        self.cmd[0] = 0x80
        self.cmd[1] = c
        self.i2c.writeto(self.addr, self.cmd)

    def show(self):
        for p in range(self.height // 8):
            self.show_page(p)

    def show_page(self, p):
        """One 8-pixel row of the frame (128 bytes, about 3 ms at 400 kHz): the box pushes a
        frame a page per turn of its loop, so no grant waits behind a whole redraw."""
        for c in (0x21, 0, self.width - 1, 0x22, p, p):
            self.command(c)
        w = self.width
        self.i2c.writevto(self.addr, (b"\x40", memoryview(self.buf)[p * w:(p + 1) * w]))

    def draw(self, text_lines, first=0):
        """Draw up to 8 lines into the frame (the built-in 8x8 font: 16 columns; longer lines
        are cut at 16); show() or show_page() puts it on the panel."""
        self.fb.fill(0)
        y = 0
        for i in range(first, len(text_lines)):
            if y >= self.height:
                break
            self.fb.text(text_lines[i], 0, y, 1)
            y += 8

    def lines(self, text_lines, first=0):
        self.draw(text_lines, first)
        self.show()
