# Byte stream <-> payloads (SPEC.md section 2). The Deframer works in place on one preallocated
# buffer: feeding bytes and reading a payload allocate nothing.
from protocol import cobs
from protocol.crc16 import _HI, _LO
from protocol.layout import CRC, HEADER, MAX_BODY, MAX_PAYLOAD, MAX_WIRE, MIN_PAYLOAD, put_crc, put_header

try:
    # on the box: a run of data bytes decoded and summed, and a frame COBS-encoded, in native
    # code (protocol/native.py: the same loops)
    from protocol.native import cobs_encode as _native_encode  # type: ignore[attr-defined]  # exec on the box
    from protocol.native import deframe_run as _native_run  # type: ignore[attr-defined]
except (ImportError, ValueError, SyntaxError, NameError):
    _native_run = None
    _native_encode = None


class Deframer:
    """Accumulates received bytes; yields CRC-checked payloads.

    Use: `i = d.feed(data, i, n)` repeatedly while `i < n`; after each call, if `d.length` > 0,
    `d.payload[0:d.length]` is a valid payload (CRC checked, CRC bytes included).

    The bytes are COBS-decoded and CRC-summed as they arrive, a run of data bytes at a time, in
    one pass (on the box each pass over the bytes in Python costs tens of microseconds a byte):
    the CRC over a payload with its own CRC appended is 0 (CRC-16/CCITT-FALSE has no reflection
    and no final xor), so the check needs no second look at the bytes. The result is exactly
    what cobs.decode and crc16 of the whole frame would give, with the same error counts.
    """

    def __init__(self):
        # COBS decodes in place (the output never overtakes the input), so the payload is the
        # receive buffer itself: one buffer less on the box. It is valid until the next feed().
        self.raw = bytearray(MAX_WIRE)
        self.payload = self.raw
        self.length = 0
        self.frames = 0
        self.bad_crc = 0
        self.bad_cobs = 0
        self.bad_size = 0
        self.errors_seen = 0  # bumped on every discarded frame (the owner may NAK on change)
        self.native = _native_run  # None: the bytecode loop (tests compare the two)
        self.reset()

    def reset(self):
        self.n = 0  # payload bytes decoded so far
        self.w = 0  # wire bytes of this frame so far (more than MAX_WIRE: overrun)
        self.left = 0  # data bytes still due in the current COBS run (0: a code byte is next)
        self.zero = False  # the current run ends in a 0 (emitted when the next run starts)
        self.hi = 0xFF  # the CRC so far, high and low byte (crc16.py)
        self.lo = 0xFF
        self.overrun = False
        self.length = 0

    def feed(self, data, start, end):
        """Consume data[start:end] up to and including the end of the next complete frame;
        returns the index after the last byte consumed."""
        self.length = 0
        raw = self.raw
        cap = len(raw)
        th = _HI
        tl = _LO
        n = self.n
        w = self.w
        left = self.left
        zero = self.zero
        hi = self.hi
        lo = self.lo
        i = start
        while i < end:
            b = data[i]
            if b == 0:
                i += 1
                if w == 0:
                    continue  # empty frame: a flush delimiter
                m = n
                bad_cobs = left != 0  # the last run was cut short
                crc_ok = hi == 0 and lo == 0
                overrun = self.overrun
                self.overrun = False
                n = w = left = 0
                zero = False
                hi = lo = 0xFF
                if overrun or not bad_cobs and (m < MIN_PAYLOAD or m > MAX_PAYLOAD):
                    self.bad_size += 1
                elif bad_cobs:
                    self.bad_cobs += 1
                elif not crc_ok:
                    self.bad_crc += 1
                else:
                    self.frames += 1
                    self.length = m
                    break
                self.errors_seen += 1
                continue
            if self.overrun:
                i += 1  # too long for any frame: skip to its delimiter
                continue
            if left == 0:
                # a code byte: a run of b - 1 data bytes follows, then a 0 unless b is 0xFF
                i += 1
                w += 1
                if w > cap:
                    self.overrun = True
                    continue
                if zero:
                    raw[n] = 0
                    n += 1
                    j = hi
                    hi = lo ^ th[j]
                    lo = tl[j]
                left = b - 1
                zero = b != 0xFF
                continue
            # the run's data bytes that are here (a 0 among them ends the frame early)
            j = i + left
            if j > end:
                j = end
            if w + j - i > cap:
                j = i + cap - w
                if j <= i:
                    self.overrun = True
                    continue
            if self.native is not None:
                r = self.native(data, i, j, raw, n, (hi << 8) | lo, th, tl)
                k = r >> 16
                n += k
                hi = (r >> 8) & 0xFF
                lo = r & 0xFF
            else:
                n0 = n
                for k in range(i, j):
                    b = data[k]
                    if not b:
                        break
                    raw[n] = b
                    n += 1
                    b ^= hi
                    hi = lo ^ th[b]
                    lo = tl[b]
                k = n - n0
            i += k
            w += k
            left -= k
        self.n = n
        self.w = w
        self.left = left
        self.zero = zero
        self.hi = hi
        self.lo = lo
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


_cobs_encode = _native_encode if _native_encode is not None else cobs.encode
