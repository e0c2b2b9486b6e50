# Keypad matrix scanning with debounce, independent of `machine` so it can be tested with fake
# pins on the unix port. Rows are driven active one at a time; a key counts as pressed when its
# reading has been stable for `press_ms` and as released when stable for `debounce_ms` (contact
# bounce lasts a few ms; the release's longer wait keeps a bounce on release from reading as a
# second press). Only the press edge produces a key code; holding a key repeats nothing.
# The scan reads the whole matrix into one bit mask first: while no key moves (nearly always) it
# stops there, so a loop turn does not pay the per-key bookkeeping.
import keys


class Matrix:
    def __init__(self, rows, cols, codes, debounce_ms=20, active_low=True, press_ms=-1,
                 read_cols=None):
        """rows: output pins (objects with value(v)); cols: input pins (value() -> 0/1);
        codes: bytes of len(rows)*len(cols) key codes (0 = no key at that position).
        press_ms: how long a press must read steady before it counts (default debounce_ms).
        read_cols: optional function giving the columns of the driven row as a bit mask (bit c
        set: column c reads active), e.g. one read of the GPIO input register instead of one
        call per column pin."""
        self.rows = rows
        self.cols = cols
        self.codes = codes
        self.n = len(rows) * len(cols)
        self.debounce_ms = debounce_ms
        self.press_ms = debounce_ms if press_ms < 0 else press_ms
        self.on = 0 if active_low else 1
        self.off = 1 - self.on
        self.read_cols = read_cols
        self.now_bits = 0                 # the matrix as read by the last scan, bit i = key i
        self.raw = bytearray(self.n)      # last reading
        self.stable = bytearray(self.n)   # debounced state
        self.stable_bits = 0
        self.since = [0] * self.n         # ticks when raw last changed (ints: no allocation)
        self.queue = bytearray(8)
        self.qh = 0
        self.qt = 0
        for r in rows:
            r.value(self.off)

    def read(self):
        """The matrix now as a bit mask (bit row*len(cols)+col: that key reads pressed)."""
        bits = 0
        sh = 0
        nc = len(self.cols)
        on = self.on
        rc = self.read_cols
        for r in self.rows:
            r.value(on)
            if rc is not None:
                bits |= rc() << sh
            else:
                b = 1 << sh
                for c in self.cols:
                    if c.value() == on:
                        bits |= b
                    b <<= 1
            r.value(self.off)
            sh += nc
        return bits

    def scan(self, now, ticks_diff):
        """Read the matrix once; queue the key codes of debounced presses."""
        bits = self.read()
        if bits == self.now_bits and bits == self.stable_bits:
            return  # nothing pressed or released, nothing settling
        self.now_bits = bits
        settled = 0
        for i in range(self.n):
            v = (bits >> i) & 1
            if v != self.raw[i]:
                self.raw[i] = v
                self.since[i] = now
            elif v != self.stable[i] and ticks_diff(now, self.since[i]) >= (
                    self.press_ms if v else self.debounce_ms):
                self.stable[i] = v
                if v and self.codes[i] and self.qt - self.qh < len(self.queue):
                    self.queue[self.qt % len(self.queue)] = self.codes[i]
                    self.qt += 1
            if self.stable[i]:
                settled |= 1 << i
        self.stable_bits = settled

    def get(self):
        if self.qh == self.qt:
            return keys.NONE
        k = self.queue[self.qh % len(self.queue)]
        self.qh += 1
        return k


def codes_from_layout(layout):
    """The pin map's key names (rows of tokens) as the bytes Matrix takes."""
    out = bytearray()
    for row in layout:
        for tok in row:
            out.append(keys.from_token(tok) if tok else 0)
    return bytes(out)
