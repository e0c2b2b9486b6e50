# Minimal SSD1306 128x64 I2C driver on framebuf (the part of micropython-lib's driver the box
# uses: init, text, show). Kept here so the firmware needs nothing from the network to flash.
import framebuf

_INIT = (0xAE, 0xD5, 0x80, 0xA8, 0x3F, 0xD3, 0x00, 0x40, 0x8D, 0x14, 0x20, 0x00, 0xA1, 0xC8,
         0xDA, 0x12, 0x81, 0xCF, 0xD9, 0xF1, 0xDB, 0x40, 0xA4, 0xA6, 0xAF)


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
        for c in (0x21, 0, self.width - 1, 0x22, 0, self.height // 8 - 1):
            self.command(c)
        self.i2c.writevto(self.addr, (b"\x40", self.buf))

    def lines(self, text_lines, first=0):
        """Draw up to 8 lines of 21 characters (8x8 font, 6 px pitch would need a custom font;
        the built-in 8x8 font gives 16 columns, so long lines are cut at 16)."""
        self.fb.fill(0)
        y = 0
        for i in range(first, len(text_lines)):
            if y >= self.height:
                break
            self.fb.text(text_lines[i], 0, y, 1)
            y += 8
        self.show()
