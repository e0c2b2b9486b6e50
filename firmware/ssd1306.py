# Minimal SSD1306 128x64 I2C driver on framebuf (the part of micropython-lib's driver the box
# uses: init, text, a page at a time). Kept here so the firmware needs nothing from the network
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
        self.buf = bytearray(width * height // 8)
        self.fb = framebuf.FrameBuffer(self.buf, width, height, framebuf.MONO_VLSB)
        # each page's I2C write, made once: pushing a frame allocates nothing
        mv = memoryview(self.buf)
        self.pages = tuple((b"\x40", mv[p * width:(p + 1) * width]) for p in range(height // 8))
        self.cmd = bytearray(2)
        for c in _INIT:
            self.command(c)

    def command(self, c):
        self.cmd[0] = 0x80
        self.cmd[1] = c
        self.i2c.writeto(self.addr, self.cmd)

    def show_page(self, p):
        """One 8-pixel row of the frame (128 bytes, about 3 ms at 400 kHz): the box pushes a
        frame a page per turn of its loop, so no grant waits behind a whole redraw."""
        self.command(0x21)  # columns 0..width-1, then page p only
        self.command(0)
        self.command(self.width - 1)
        self.command(0x22)
        self.command(p)
        self.command(p)
        self.i2c.writevto(self.addr, self.pages[p])

    def draw(self, text_lines, first=0):
        """Draw up to 8 lines into the frame (the built-in 8x8 font: 16 columns; longer lines
        are cut at 16); show_page() puts it on the panel."""
        self.fb.fill(0)
        y = 0
        for i in range(first, len(text_lines)):
            if y >= self.height:
                break
            self.fb.text(text_lines[i], 0, y, 1)
            y += 8
