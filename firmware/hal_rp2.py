# The rp2 backend (Raspberry Pi Pico class boards): UART (with an RS-485 driver-enable pin when
# the pin map gives one), the keypad matrix, an SSD1306 OLED or plain LEDs, a buzzer. Every pin
# comes from /pinmap.json (hardware/pinmap.json in the repository): change the wiring there,
# not here.
import json
import time

import keypad
from machine import I2C, PWM, UART, Pin
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
    """OLED when one answers on I2C, else nothing but the LEDs (the box still works)."""

    wants_lines = False  # only the panel's picture (render.Frame): no text form on the box

    def __init__(self, cfg, leds):
        self.oled = None
        self.buf = None  # the driver's frame buffer: render.Frame draws straight into it
        self.leds = leds
        self.pending = 0  # mask of the frame's pages not on the panel yet (bit p: page p)
        self.lo = bytearray(8)  # and the columns of each that changed (first, last)
        self.hi = bytearray(8)
        self.lost = False  # the panel missed pages: its whole picture must go again
        self.between = None  # called between two writes of a push (the keypad's scan)
        self.failed = False
        kind = cfg.get("kind") if cfg else None
        if kind == "ssd1306" or kind == "ssd1309":
            try:
                import ssd1306

                i2c = I2C(cfg.get("i2c", 0), sda=Pin(cfg["sda"]), scl=Pin(cfg["scl"]),
                          freq=cfg.get("freq", 400000))
                # the driver's first command is the probe: one transaction where a scan makes
                # 112 (and rp2's scan bit-bangs the pins); no answer raises OSError
                self.oled = ssd1306.SSD1306(i2c, cfg.get("addr", 0x3C), cfg.get("width", 128),
                                            cfg.get("height", 64), kind == "ssd1306")
                self.buf = self.oled.buf
            except OSError:
                self.oled = None

    def frame(self, fr, mask):
        """A new picture in the buffer: the pages in `mask` changed, columns fr.lo[p]..fr.hi[p]
        of page p (render.Frame.draw). A page not pushed yet keeps both changes' columns."""
        if self.oled is None:
            return
        if self.lost:
            mask = 0xFF
            self.lost = False
            for p in range(8):
                fr.lo[p] = 0
                fr.hi[p] = 127
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
        """The changed pages to the panel: the first of them, or with `every` all of them, a
        run of adjacent whole pages in one write (point to point, right after the reply went
        out), a page that changed in part as the window of its changed columns. On a bus the
        box pushes one page per turn of its loop, so no grant waits behind a whole frame. A
        display that does not answer (a loose cable) stops the push and sets `failed`: the app
        draws again half a second later, every page, as the panel may have lost any of them."""
        while self.pending and self.oled is not None:
            m = self.pending
            p = 0
            while not m >> p & 1:
                p += 1
            q = p
            last = self.oled.width - 1
            full = self.lo[p] == 0 and self.hi[p] == last
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


_SIO_GPIO_IN = const(0xD0000004)
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
    def __init__(self, pinmap_path="/pinmap.json"):
        pm = load_pinmap(pinmap_path)  # not kept: its comments alone would cost a kilobyte
        jp = pm.get("seat_jumpers")
        self.jumper_gpios = tuple(jp.get("pins", ())) if jp else ()
        self.serial = Serial(pm["uart"])
        self.keys = keypad_matrix(pm["keypad"])
        self.leds = Leds(pm.get("leds"))
        self.display = Display(pm.get("display"), self.leds)
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
        """One scan of the keypad and one page of a pending picture (bus mode). No sleep: a loop
        turn of the app is already a few ms of chip time, and every ms asleep would be added to
        a key's debounce and to a STATE's wait before it is read (the UART has its own receive
        buffer; the box is powered by its cable, so idling buys nothing)."""
        if self.wdt is not None:
            self.wdt.feed()
        now = time.ticks_ms()
        self.scanned = now
        self.keys.scan(now, time.ticks_diff)
        self.buzzer.tick(now)
        self.display.push()

    def close(self):
        pass
