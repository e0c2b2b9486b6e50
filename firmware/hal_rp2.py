# The rp2 backend (Raspberry Pi Pico class boards): UART (with an RS-485 driver-enable pin when
# the pin map gives one), the keypad matrix, an SSD1306 OLED or plain LEDs, a buzzer. Every pin
# comes from /pinmap.json (hardware/pinmap.json in the repository): change the wiring there,
# not here.
import json
import time

import keypad
from machine import I2C, PWM, SPI, UART, Pin
from micropython import const


def load_pinmap(path="/pinmap.json"):
    with open(path) as f:
        return json.load(f)


class Serial:
    def __init__(self, cfg):
        self.uart = UART(cfg["id"], baudrate=cfg.get("baud", 115200), tx=Pin(cfg["tx"]),
                         rx=Pin(cfg["rx"]), bits=8, parity=None, stop=1, rxbuf=512)
        de = cfg.get("de", -1)
        self.de = Pin(de, Pin.OUT, value=0) if de is not None and de >= 0 else None

    def readinto(self, buf):
        # only what the driver holds: readinto(buf) alone waits for more bytes until the
        # inter-character timeout (a millisecond or two after a frame's last byte, every time)
        n = self.uart.any()
        if not n:
            return 0
        return self.uart.readinto(buf, n if n < len(buf) else len(buf)) or 0

    def write(self, data):
        if self.de is None:
            return self.uart.write(data) or 0
        # RS-485 half duplex: drive the bus only while our bytes are on it (SPEC.md section 1),
        # and never leave the driver on, whatever happens in between
        self.de.value(1)
        try:
            n = self.uart.write(data) or 0
            self.uart.flush()
        finally:
            self.de.value(0)
        return n

    def release(self):
        if self.de is not None:
            self.de.value(0)


class Display:
    """The OLED over SPI or I2C, as /config.json's "display" says and the pin map wires it, else
    nothing but the LEDs (the box still works)."""

    wants_lines = False  # only the panel's picture (render.Frame): no text form on the box

    def __init__(self, cfg, leds, bus="spi"):
        self.oled = None
        self.buf = None  # the driver's frame buffer: render.Frame draws straight into it
        self.leds = leds
        self.pending = 0  # mask of the frame's pages not on the panel yet (bit p: page p)
        self.lo = bytearray(8)  # and the columns of each that changed (first, last)
        self.hi = bytearray(8)
        self.lost = False  # the panel missed pages: its whole picture must go again
        self.between = None  # called between two writes of a push (the keypad's scan)
        self.failed = False
        # SPI has no acknowledge: a panel whose cable came loose (and lost its power with it)
        # is not seen, and would stay dark or half drawn for the rest of the evening. So the
        # whole picture, init commands first, goes again every REFRESH_MS when no page is due
        # (1 KB at 8.9 MHz: about 1 ms of the chip's time in 2 s).
        self.refresh_ms = 0
        self.refreshed = 0
        self.whole = False  # push whole pages, not column windows (SPI: see push)
        kind = cfg.get("kind") if cfg else None
        if kind != "ssd1306" and kind != "ssd1309":
            return
        w = cfg.get("width", 128)
        h = cfg.get("height", 64)
        try:
            import ssd1306

            if bus == "i2c":
                c = cfg["i2c"]
                i2c = I2C(c.get("id", 0), sda=Pin(c["sda"]), scl=Pin(c["scl"]),
                          freq=c.get("freq", 400000))
                # the driver's first command is the probe: one transaction where a scan makes
                # 112 (and rp2's scan bit-bangs the pins); no answer raises OSError
                self.oled = ssd1306.SSD1306(i2c, c.get("addr", 0x3C), w, h, kind == "ssd1306")
            else:
                c = cfg["spi"]
                # MISO named too: rp2's machine.SPI otherwise claims SPI0's default MISO pin,
                # GP16 on a Pico, which is the turn LED here (hardware/display.md)
                spi = SPI(c.get("id", 0), baudrate=c.get("baud", 10000000), polarity=0, phase=0,
                          sck=Pin(c["sck"]), mosi=Pin(c["mosi"]), miso=Pin(c["miso"]))
                res = c.get("res", -1)
                self.oled = ssd1306.SSD1306SPI(spi, Pin(c["dc"], Pin.OUT, value=0),
                                               Pin(c["cs"], Pin.OUT, value=1),
                                               Pin(res, Pin.OUT, value=1) if res >= 0 else None,
                                               w, h, kind == "ssd1306")
                self.refresh_ms = REFRESH_MS
                self.whole = True
            self.buf = self.oled.buf
        except OSError:
            self.oled = None

    def frame(self, fr, mask):
        """A new picture in the buffer: the pages in `mask` changed, columns fr.lo[p]..fr.hi[p]
        of page p (render.Frame.draw). A page not pushed yet keeps both changes' columns."""
        if self.oled is None:
            return
        if self.lost:
            if not self._whole_due():  # it may have lost its power with the cable
                self.failed = True
                return
            self.lost = False
        for p in range(8):
            if mask >> p & 1:
                if self.pending >> p & 1:
                    if fr.lo[p] < self.lo[p]:
                        self.lo[p] = fr.lo[p]
                    if fr.hi[p] > self.hi[p]:
                        self.hi[p] = fr.hi[p]
                else:
                    self.lo[p] = fr.lo[p]
                    self.hi[p] = fr.hi[p]
        self.pending |= mask
        self.failed = False

    def push(self, every=False):
        """The changed pages to the panel: the first of them, or with `every` all of them (right
        after a redraw: point to point, and on a bus over SPI, where all of them are one write
        of at most 1 KB, 0.9 ms). Otherwise (the refresh, a bus box on I2C) one page per turn of
        its loop, so no grant waits behind a whole frame.
        On I2C (22.5 us a byte at 400 kHz) only the changed columns go: a page that changed in
        part as the window of its changed columns, a run of adjacent whole pages in one write.
        On SPI (0.9 us a byte) a write costs more in Python than its bytes on the wire, so whole
        pages go, and with `every` all pages from the first changed to the last in one write
        (a call's status, call line and round: 1 KB, 0.9 ms, against about 2.5 ms for six
        column windows).
        A display that does not answer (a loose I2C cable) stops the push and sets `failed`:
        the app draws again half a second later, every page, as the panel may have lost any of
        them (and its power: the init commands go first)."""
        while self.pending and self.oled is not None:
            m = self.pending
            p = 0
            while not m >> p & 1:
                p += 1
            q = p
            last = self.oled.width - 1
            full = self.whole or self.lo[p] == 0 and self.hi[p] == last
            if every and self.whole:
                while m >> (q + 1):
                    q += 1
            while every and full and m >> (q + 1) & 1 and self.lo[q + 1] == 0 and (
                    self.hi[q + 1] == last):
                q += 1
            try:
                if full:
                    self.oled.show_pages(p, q)
                else:
                    self.oled.show_pages(p, p, self.lo[p], self.hi[p])
            except OSError:
                self.failed = True
                self.lost = True
                self.pending = 0
                return
            self.pending = m & ~(((2 << q) - 1) ^ ((1 << p) - 1))
            if not every:
                return
            if self.between is not None:
                self.between()

    def refresh(self, now):
        """SPI only (no acknowledge, so no `failed`): every refresh_ms with no page due, the
        init commands again (a panel that lost its power is off and knows no addressing mode)
        and every page marked due, so the loop's pushes rewrite the whole picture, a page a
        turn. A panel plugged back in shows the box's picture again within refresh_ms."""
        if not self.refresh_ms or self.pending or self.oled is None:
            return
        if time.ticks_diff(now, self.refreshed) < self.refresh_ms:
            return
        self.refreshed = now
        self._whole_due()

    def _whole_due(self):
        """The init commands again (a panel that lost its power is off and knows no addressing
        mode) and every page due whole; False when the panel does not answer (I2C)."""
        try:
            self.oled.init()
        except OSError:
            return False
        for p in range(8):
            self.lo[p] = 0
            self.hi[p] = self.oled.width - 1
        self.pending = 0xFF
        return True

    def indicate(self, turn, stop, alert, link):
        if self.leds:
            self.leds.set(turn, stop, alert, link)


class Leds:
    def __init__(self, cfg):
        self.pins = []
        for name in ("turn", "stop", "alert", "link"):
            n = cfg.get(name, -1) if cfg else -1
            self.pins.append(Pin(n, Pin.OUT, value=0) if n is not None and n >= 0 else None)

    def set(self, turn, stop, alert, link):
        v = (turn, stop, alert, link)
        for i in range(4):
            if self.pins[i] is not None:
                self.pins[i].value(1 if v[i] else 0)


class Buzzer:
    def __init__(self, cfg):
        self.pwm = None
        self.until = 0
        if cfg and cfg.get("pin", -1) >= 0:
            self.pwm = PWM(Pin(cfg["pin"]))
            self.pwm.freq(cfg.get("freq", 2700))
            self.pwm.duty_u16(0)

    def beep(self, ms=60):
        if self.pwm is not None:
            self.pwm.duty_u16(32768)
            self.until = time.ticks_add(time.ticks_ms(), ms)

    def tick(self, now):
        if self.until and time.ticks_diff(now, self.until) >= 0:
            self.pwm.duty_u16(0)
            self.until = 0


class RawBlock:
    """One 4 KB block of the file system's flash, programmed directly: a page costs 0.4 ms with
    interrupts off and no erase (store.py's journal)."""

    def __init__(self, flash, block):
        self.flash = flash
        self.block = block

    def program(self, off, buf):
        self.flash.writeblocks(self.block, buf, off)  # with an offset: program only, no erase


def raw_block(path, head):
    """The flash block that holds the data of the file at `path`, found by its first bytes
    `head` (a magic and a random nonce, store.py), or None. LittleFS keeps a file of more than
    its inline size in data blocks of its own, from the block's first byte for the first block,
    checks no CRC over them and touches them again only when the file is rewritten, so bytes
    the file left erased (0xFF) can be programmed under it and it reads them back. Two blocks
    with the head (cannot happen with a new nonce per journal) or none: None, and the store
    writes the file instead."""
    try:
        import rp2
    except ImportError:
        return None
    fl = rp2.Flash()
    buf = bytearray(len(head))
    found = -1
    for b in range(fl.ioctl(4, 0)):  # 4: the block count
        fl.readblocks(b, buf, 0)
        if buf == head:
            if found >= 0:
                return None
            found = b
    return RawBlock(fl, found) if found >= 0 else None


_SIO_GPIO_IN = const(0xD0000004)
REFRESH_MS = 2000  # the SPI panel's whole picture again this often (Display.refresh)
LATE_US = 3000
SCAN_MS = 3  # at most this long between two scans of the keypad, however long a loop turn


def _column_reader(gpios, on_low):
    """The columns of the driven row as a bit mask from one read of the RP2040's GPIO input
    register, when the column GPIOs are consecutive (the reference pin map: 11-15); else None
    (the matrix then reads each pin)."""
    first = gpios[0]
    if list(gpios) != list(range(first, first + len(gpios))) or first + len(gpios) > 30:
        return None
    try:
        from machine import mem32
    except (ImportError, AttributeError):  # a stand-in `machine` (tests)
        return None
    mask = (1 << len(gpios)) - 1
    if on_low:
        return lambda: ~(mem32[_SIO_GPIO_IN] >> first) & mask
    return lambda: (mem32[_SIO_GPIO_IN] >> first) & mask


def keypad_matrix(cfg):
    """The keypad as the pin map wires it: its get() is the key source the app reads."""
    on_low = cfg.get("active_low", True)
    pull = Pin.PULL_UP if on_low else Pin.PULL_DOWN
    rows = [Pin(n, Pin.OUT) for n in cfg["rows"]]
    cols = [Pin(n, Pin.IN, pull) for n in cfg["cols"]]
    return keypad.Matrix(rows, cols, keypad.codes_from_layout(cfg["keys"]),
                         cfg.get("debounce_ms", 20), on_low, cfg.get("press_ms", -1),
                         _column_reader(cfg["cols"], on_low))


def seat_from_jumpers(gpios):
    """Seat from two jumpers to ground on GPIOs gpios[0], gpios[1]; -1 without two."""
    pins = [Pin(n, Pin.IN, Pin.PULL_UP) for n in gpios]
    if len(pins) != 2:
        return -1
    return (0 if pins[0].value() else 2) + (0 if pins[1].value() else 1)


class Hal:
    def __init__(self, pinmap_path="/pinmap.json", display="spi"):
        """display: how the panel is wired, "spi" (the reference box) or "i2c" (/config.json's
        "display", written by `make flash`)."""
        pm = load_pinmap(pinmap_path)  # not kept: its comments alone would cost a kilobyte
        jp = pm.get("seat_jumpers")
        self.jumper_gpios = tuple(jp.get("pins", ())) if jp else ()
        self.serial = Serial(pm["uart"])
        self.keys = keypad_matrix(pm["keypad"])
        self.leds = Leds(pm.get("leds"))
        self.display = Display(pm.get("display"), self.leds, display)
        self.buzzer = Buzzer(pm.get("buzzer"))
        self.ticks_ms = time.ticks_ms
        self.ticks_diff = time.ticks_diff
        self.ticks_add = time.ticks_add
        self.ticks_us = time.ticks_us
        self.wdt = None  # main.py starts the watchdog once the box is up
        # a grant read more than this after the previous read gets no reply (app.py, bus mode):
        # 5 ms allowed (SPEC.md section 1) less the time to build a reply frame in Python
        self.late_us = LATE_US
        self.scanned = time.ticks_ms()
        self.display.between = self.scan

    def scan(self):
        """The keypad again if the last scan is SCAN_MS old: the app calls this between the long
        steps of a STATE (receive, draw, each write of the push), so a key held 60 ms is seen
        twice (press_ms) even in a loop turn that takes longer."""
        now = time.ticks_ms()
        if time.ticks_diff(now, self.scanned) >= SCAN_MS:
            self.scanned = now
            self.keys.scan(now, time.ticks_diff)

    def wait(self, ms):
        """One scan of the keypad and one page of a pending picture (the refresh; a bus box on
        I2C: app.BoxApp.push_all). No sleep: a loop
        turn of the app is already a few ms of chip time, and every ms asleep would be added to
        a key's debounce and to a STATE's wait before it is read (the UART has its own receive
        buffer; the box is powered by its cable, so idling buys nothing)."""
        if self.wdt is not None:
            self.wdt.feed()
        now = time.ticks_ms()
        self.scanned = now
        self.keys.scan(now, time.ticks_diff)
        self.buzzer.tick(now)
        self.display.refresh(now)
        self.display.push()

    def close(self):
        pass
