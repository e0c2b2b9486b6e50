# Keypad matrix scanning with debounce, independent of `machine` so it can be tested with fake
# pins on the unix port. Rows are driven active one at a time; a key counts as pressed when its
# reading has been stable for `debounce_ms` (contact bounce lasts a few ms; 20 ms also rejects
# a brushed key). Only the press edge produces a key code; holding a key repeats nothing.
import keys


class Matrix:
    def __init__(self, rows, cols, codes, debounce_ms=20, active_low=True):
        """rows: output pins (objects with value(v)); cols: input pins (value() -> 0/1);
        codes: bytes of len(rows)*len(cols) key codes (0 = no key at that position)."""
        self.rows = rows
        self.cols = cols
        self.codes = codes
        self.n = len(rows) * len(cols)
        self.debounce_ms = debounce_ms
        self.on = 0 if active_low else 1
        self.off = 1 - self.on
        self.raw = bytearray(self.n)      # last reading
        self.stable = bytearray(self.n)   # debounced state
        self.since = [0] * self.n         # ticks when raw last changed (ints: no allocation)
        self.queue = bytearray(8)
        self.qh = 0
        self.qt = 0
        for r in rows:
            r.value(self.off)

    def scan(self, now, ticks_diff):
        """Read the matrix once; queue the key codes of debounced presses."""
        i = 0
        for r in self.rows:
            r.value(self.on)
            for c in self.cols:
                v = 1 if c.value() == self.on else 0
                if v != self.raw[i]:
                    self.raw[i] = v
                    self.since[i] = now
                elif v != self.stable[i] and ticks_diff(now, self.since[i]) >= self.debounce_ms:
                    self.stable[i] = v
                    if v and self.codes[i] and self.qt - self.qh < len(self.queue):
                        self.queue[self.qt % len(self.queue)] = self.codes[i]
                        self.qt += 1
                i += 1
            r.value(self.off)

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
