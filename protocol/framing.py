# Byte stream <-> payloads (SPEC.md section 2). The Deframer works in place on one preallocated
# buffer: feeding bytes and reading a payload allocate nothing.
from protocol import cobs
from protocol.crc16 import crc16
from protocol.layout import CRC, HEADER, MAX_BODY, MAX_PAYLOAD, MAX_WIRE, MIN_PAYLOAD, put_crc, put_header


class Deframer:
    """Accumulates received bytes; yields CRC-checked payloads.

    Use: `i = d.feed(data, i, n)` repeatedly while `i < n`; after each call, if `d.length` > 0,
    `d.payload[0:d.length]` is a valid payload (CRC checked, CRC bytes included).
    """

    def __init__(self):
        self.raw = bytearray(MAX_WIRE)
        # COBS decodes in place (the output never overtakes the input), so the payload is the
        # raw buffer itself: one buffer less on the box. It is valid until the next feed().
        self.payload = self.raw
        self.n = 0
        self.overrun = False
        self.length = 0
        self.frames = 0
        self.bad_crc = 0
        self.bad_cobs = 0
        self.bad_size = 0
        self.errors_seen = 0  # bumped on every discarded frame (the owner may NAK on change)

    def reset(self):
        self.n = 0
        self.overrun = False
        self.length = 0

    def feed(self, data, start, end):
        """Consume data[start:end] up to and including the end of the next complete frame;
        returns the index after the last byte consumed."""
        self.length = 0
        raw = self.raw
        cap = len(raw)
        i = start
        while i < end:
            b = data[i]
            i += 1
            if b != 0:
                if self.n < cap:
                    raw[self.n] = b
                    self.n += 1
                else:
                    self.overrun = True
                continue
            n = self.n
            self.n = 0
            if n == 0:
                continue  # empty frame: a flush delimiter
            if self.overrun:
                self.overrun = False
                self.bad_size += 1
                self.errors_seen += 1
                continue
            m = cobs.decode(raw, n, self.payload)
            if m < 0:
                self.bad_cobs += 1
                self.errors_seen += 1
                continue
            if m < MIN_PAYLOAD or m > MAX_PAYLOAD:
                self.bad_size += 1
                self.errors_seen += 1
                continue
            p = self.payload
            if crc16(p, 0, m - 2) != (p[m - 2] << 8) | p[m - 1]:
                self.bad_crc += 1
                self.errors_seen += 1
                continue
            self.frames += 1
            self.length = m
            return i
        return i


SMALL = 24  # wire bytes: the box's own frames (HELLO is 16, an event 15, an ACK 10)


class FrameWriter:
    """Builds wire frames (leading flush 0x00 optional, COBS, trailing 0x00) in one
    preallocated buffer: `build` returns the frame's length n; the frame is wire[0:n] until the
    next build (`mv[0:n]` is a view of it; making that view allocates, the length does not)."""

    def __init__(self, max_body=MAX_BODY):
        """max_body: the largest body this end sends (the box sends at most a HELLO's 6 bytes:
        its buffers are then a few dozen bytes instead of 800)."""
        n = HEADER + max_body + CRC
        self.scratch = bytearray(n)
        self.wire = bytearray(n + n // 254 + 3)  # COBS overhead, flush byte, delimiter
        self.mv = memoryview(self.wire)
        self._views = [None] * (min(SMALL, len(self.wire)) + 1)

    def view(self, n):
        """memoryview of wire[0:n]. The views of small frames (heartbeats, ACKs, events, HELLO:
        all <= SMALL bytes) are made once and reused, so a box's steady-state loop that calls
        `output()` allocates nothing; larger frames get a fresh view."""
        if n <= SMALL:
            v = self._views[n]
            if v is None:
                v = self.mv[0:n]
                self._views[n] = v
            return v
        return self.mv[0:n]

    def build(self, addr, t, epoch, seq, ack, body=None, blen=0, flush=False):
        """Frame with `body[0:blen]`; or, with body None, a body already written by the caller
        at scratch[HEADER:HEADER+blen]."""
        s = self.scratch
        put_header(s, addr, t, epoch, seq, ack)
        if body is not None:
            for i in range(blen):
                s[HEADER + i] = body[i]
        n = put_crc(s, HEADER + blen)
        w = self.wire
        o = 0
        if flush:
            w[0] = 0
            o = 1
        o = _cobs_encode(s, n, w, o)
        w[o] = 0
        return o + 1


_cobs_encode = cobs.encode
