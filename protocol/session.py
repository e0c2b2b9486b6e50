# The session rules of SPEC.md sections 4-6 and the box's end of them, pure (no I/O, no clock
# reads): the caller passes received bytes and the current millisecond tick, and writes out what
# `output(now)` returns. The box side allocates nothing in its idle loop and keeps the latest STATE
# as bytes (no dicts: they would cost the box heap per call of the auction). The tablet's end is
# protocol/tablet_endpoint.py.
import os

from protocol import VERSION_MAX, VERSION_MIN
from protocol import layout as M
from protocol.clock import ticks_add, ticks_diff
from protocol.framing import Deframer, FrameWriter

QUEUE = 16          # box events kept until acked
WINDOW = 4          # unacked box events in flight (go-back-N)
RTO_MS = 40         # retransmit when an ack does not come within this
HEARTBEAT_MS = 200  # send something at least this often (p2p)
LINK_LOSS_MS = 1000  # no valid frame for this long: link lost
HELLO_MS = 100      # HELLO retry while no session
VERSION_RETRY_MS = 2000
NAK_GAP_MS = 20     # at most one NAK per seat per this
FLUSH_IDLE_MS = 20  # after this much silence, lead a frame with 0x00


def new_epoch():
    while True:
        r = os.urandom(2)
        e = (r[0] << 8) | r[1]
        if e:
            return e


def next_epoch(prev):
    """The epoch of the boot after one with epoch `prev` (0: no earlier boot known, draw one at
    random). Never `prev` again until 65,535 boots later: a box that keeps its last epoch in
    flash cannot be taken for its own previous boot (SPEC.md section 4)."""
    if not prev:
        return new_epoch()
    return prev % 0xFFFF + 1


def ahead(a, b):
    """a >= b in 8-bit serial arithmetic."""
    return ((a - b) & 0xFF) < 128


class BoxEndpoint:
    """The box side of one link. `submit` an event, feed `receive`, write `output` until None."""

    def __init__(self, seat, epoch=0, bus=False, fw=1, now=0, ver_min=VERSION_MIN,
                 ver_max=VERSION_MAX, caps=None):
        """caps: the CAPS body (layout.caps_body), sent once per session of version 2 or
        later; None: a minimal one (vendor 0, this fw, no display described)."""
        self.ver_min = ver_min
        self.ver_max = ver_max
        self.seat = seat if isinstance(seat, int) else "NESW".index(seat)  # SPEC.md: N E S W = 0..3
        self.epoch = epoch or new_epoch()
        self.bus = bus
        self.fw = fw
        self.q_type = bytearray(QUEUE)
        self.q_body = bytearray(QUEUE * M.EVENT_BODY)
        self.q_first = 0        # slot of the oldest unacked event
        self.q_count = 0
        self.head_seq = 0       # seq of the oldest unacked event
        self.next_seq = 0       # seq the next submitted event gets
        self.send_seq = 0       # next seq to (re)transmit
        self.session = False
        self.version = 0
        self.version_error = False
        self.tablet_epoch = 0
        self.rx_next = 0        # next STATE seq we accept
        self.state_body = bytearray(M.MAX_BODY)  # the latest applied STATE body ...
        self.state_len = 0      # ... is state_body[0:state_len]; 0 before the first STATE
        self.state_seq = 0      # bumped on every applied STATE: redraw when it changes
        self.stop_until = now
        self.ack_due = False
        self.granted = False
        self.last_rx = ticks_add(now, -LINK_LOSS_MS - 1)
        self.last_tx = ticks_add(now, -HEARTBEAT_MS - 1)
        self.last_ev_tx = now
        self.last_hello = ticks_add(now, -VERSION_RETRY_MS - 1)
        self.deframer = Deframer()
        if caps is None:
            caps = M.caps_body(0, fw, M.K_BUS if bus else 0, 0, 0, 0, b"")
        self.caps = caps
        self.writer = FrameWriter(max(M.HELLO_BODY, len(caps)))  # the box's largest body
        self.wire = self.writer.wire
        self.body = bytearray(M.HELLO_BODY)
        self.ignored = 0        # valid frames not for us / out of place
        self.retransmits = 0
        # the box's NAK (version 2, SPEC.md section 3b): the one due, and counters
        self.nak_reason = 0
        self.nak_type = 0
        self.nak_seq = 0
        self.nak_detail = 0
        self.last_nak = ticks_add(now, -NAK_GAP_MS - 1)
        self.naks_out = 0       # NAKs sent
        self.naks_in = 0        # NAKs received from the tablet
        self.bad_seen = 0       # the deframer's errors_seen when last looked at

    # --- application side -------------------------------------------------------------------

    def submit(self, t, arg, box_ms):
        """Queue an event (type CALL..TD, arg = call code / index / 0xFF); returns its seq, or
        -1 when the queue is full (the box shows "wait")."""
        if self.q_count >= QUEUE or not M.is_event(t):
            return -1
        slot = (self.q_first + self.q_count) % QUEUE
        self.q_type[slot] = t
        o = slot * M.EVENT_BODY
        b = self.q_body
        ms = box_ms & 0xFFFFFFFF
        b[o] = ms >> 24
        b[o + 1] = (ms >> 16) & 0xFF
        b[o + 2] = (ms >> 8) & 0xFF
        b[o + 3] = ms & 0xFF
        b[o + 4] = arg & 0xFF
        self.q_count += 1
        s = self.next_seq
        self.next_seq = (s + 1) & 0xFF
        return s

    def _submit_caps(self):
        """Queue this box's CAPS as a reliable frame in the event sequence (SPEC.md section 3c):
        it is then retransmitted and acknowledged like any event. Its body is self.caps."""
        if self.q_count >= QUEUE:
            return  # a full queue: the tablet goes on with the defaults (a version 1 box's)
        slot = (self.q_first + self.q_count) % QUEUE
        self.q_type[slot] = M.CAPS
        self.q_count += 1
        self.next_seq = (self.next_seq + 1) & 0xFF

    def pending_call(self):
        """The call code of the latest CALL the tablet has not acknowledged yet, else 0xFF."""
        i = self.q_count
        while i:
            i -= 1
            slot = (self.q_first + i) % QUEUE
            if self.q_type[slot] == M.CALL:
                return self.q_body[slot * M.EVENT_BODY + 4]
        return 0xFF

    def linked(self, now):
        return self.session and ticks_diff(now, self.last_rx) < LINK_LOSS_MS

    # --- bytes in ---------------------------------------------------------------------------

    def receive(self, data, now, start=0, end=-1):
        """Feed received bytes; returns the number of valid frames for this box."""
        if end < 0:
            end = len(data)
        d = self.deframer
        i = start
        got = 0
        while i < end:
            i = d.feed(data, i, end)
            if d.length:
                if self._frame(d.payload, d.length, now):
                    got += 1
        if d.errors_seen != self.bad_seen:
            # a garbled frame: its address cannot be trusted, so on a bus it is only counted;
            # point-to-point the port is this box's own and the tablet may resend at once
            self.bad_seen = d.errors_seen
            if not self.bus:
                self._nak(M.BAD_FRAME, 0, 0, 0xFF, now)
        return got

    def _nak(self, reason, t, seq, detail, now):
        """Make a NAK due (SPEC.md section 3b): only to a tablet that speaks version 2 (a
        version 1 tablet would take it for garbage) and at most one per NAK_GAP_MS."""
        if reason != M.VERSION and (not self.session or self.version < 2):
            return
        if ticks_diff(now, self.last_nak) < NAK_GAP_MS:
            return
        self.last_nak = now
        self.nak_reason = reason
        self.nak_type = t
        self.nak_seq = seq
        self.nak_detail = detail

    def _frame(self, p, n, now):
        addr = p[0]
        if addr & 0xFC or (addr & 3) != self.seat:
            # a box's frame on the bus, another seat's, or reserved bits (a future broadcast):
            # not addressed to this box, so never NAKed
            self.ignored += 1
            return False
        t = p[1]
        blen = n - M.MIN_PAYLOAD
        if not M.body_ok(False, t, blen):
            self.ignored += 1
            if t != M.NAK:  # never a NAK of a NAK
                known = t == M.WELCOME or t == M.PING or t == M.STATE
                self._nak(M.BAD_LENGTH if known else M.UNKNOWN_TYPE, t, p[4], 0xFF, now)
            return False
        if not (p[2] or p[3]):
            self.ignored += 1  # epoch 0 is never sent: not a frame of any tablet
            if t != M.NAK:
                self._nak(M.BAD_EPOCH, t, p[4], 0xFF, now)
            return False
        if t == M.NAK and not M.nak_reason_ok(p[M.HEADER]):
            self.ignored += 1
            return False
        # check a STATE fully before touching any state: a malformed body changes nothing
        if t == M.STATE:
            # from version 3 the body ends with the player's language (SPEC.md section 3)
            f = M.state_fault(p, M.HEADER, n - M.CRC,
                              1 if self.session and self.version >= M.LANG_VERSION else 0)
            if f >= 0:
                self.ignored += 1
                # the offset in one byte: 0xFF for a field at 255 or beyond (SPEC.md section 3b)
                self._nak(M.BAD_FIELD, t, p[4], f if f < 0xFF else 0xFF, now)
                return False
        ep = (p[2] << 8) | p[3]
        seq = p[4]
        ack = p[5]
        b = M.HEADER
        if self.bus and t != M.STATE:
            # any frame for our seat but a STATE is our turn to talk, session or not (STATEs go
            # out back to back to all seats on a bus; their ack rides on the next grant's reply)
            self.granted = True
        if t == M.WELCOME:
            if (p[b + 2] << 8) | p[b + 3] != self.epoch:
                self.ignored += 1  # a stale WELCOME for an earlier boot of this box
                self._nak(M.BAD_EPOCH, t, seq, 0xFF, now)
                return False
            v = p[b]
            if v < self.ver_min or v > self.ver_max:
                self.version_error = True
                self._nak(M.VERSION, t, seq, self.ver_max, now)
                return False
            fresh = not self.session or self.tablet_epoch != ep
            self.session = True
            self.version = v
            self.version_error = False
            self.tablet_epoch = ep
            self.rx_next = p[b + 1]
            self.last_rx = now
            self._acked(ack)
            self.send_seq = self.head_seq
            if v >= 2 and fresh:
                self._submit_caps()
            return True
        if t == M.NAK:
            self.naks_in += 1
        if t == M.NAK and p[b] == M.VERSION:
            self.version_error = True
            self.last_rx = now
            return True
        if not self.session:
            self.ignored += 1
            return False
        if ep != self.tablet_epoch:
            # the tablet restarted: a new session, our unacked events stay queued
            self.session = False
            self.last_hello = ticks_add(now, -VERSION_RETRY_MS - 1)
            return True
        self.last_rx = now
        self._acked(ack)
        if t == M.NAK:
            r = p[b]
            if r == M.NO_SESSION:
                self.session = False
                self.last_hello = ticks_add(now, -VERSION_RETRY_MS - 1)
            else:
                self.send_seq = self.head_seq
        elif t == M.STATE:
            # A serial line does not reorder and the tablet only ever sends its latest STATE, so
            # any seq but the one applied last is newer (no window: the tablet may have made
            # hundreds of states while the cable was out).
            if seq != ((self.rx_next - 1) & 0xFF):
                self.rx_next = (seq + 1) & 0xFF
                body = self.state_body
                k = n - M.CRC - b
                for i in range(k):
                    body[i] = p[b + i]
                self.state_len = k
                self.state_seq += 1
                self.stop_until = ticks_add(now, (body[M.S_STOP_MS] << 8) | body[M.S_STOP_MS + 1])
            self.ack_due = True
        return True

    def _acked(self, ack):
        d = (ack - self.head_seq) & 0xFF
        if d == 0 or d > self.q_count:
            return  # nothing new, or an ack of something never sent (ignored)
        self.q_first = (self.q_first + d) % QUEUE
        self.q_count -= d
        self.head_seq = ack
        if not ahead(self.send_seq, ack):
            self.send_seq = ack

    # --- bytes out --------------------------------------------------------------------------

    def output(self, now):
        """The next frame to write (a memoryview valid until the next call), or None. Does not
        allocate in the steady state (the box's frames are small: FrameWriter.view)."""
        n = self.output_n(now)
        return self.writer.view(n) if n else None

    def output_n(self, now):
        """Like output, allocation-free: the length n of the next frame, which is
        `self.wire[0:n]` (write it with `stream.write(self.wire, n)`); 0 when there is none."""
        if self.bus:
            if not self.granted:
                return 0
            self.granted = False
            if self.nak_reason:
                return self._nak_frame(now)
            if not self.session:
                return self._hello(now)
            if self.q_count:
                return self._event(self.head_seq, now)  # stop-and-wait: one per grant
            return self._ack(now)
        if self.nak_reason:
            return self._nak_frame(now)
        if not self.session:
            wait = VERSION_RETRY_MS if self.version_error else HELLO_MS
            if ticks_diff(now, self.last_hello) >= wait:
                return self._hello(now)
            return 0
        flying = (self.send_seq - self.head_seq) & 0xFF
        if self.q_count and flying >= self.q_count or flying >= WINDOW:
            # everything sendable is in flight: go back to the oldest when its ack is overdue
            if ticks_diff(now, self.last_ev_tx) >= RTO_MS:
                self.retransmits += 1
                self.send_seq = self.head_seq
                flying = 0
        if flying < self.q_count and flying < WINDOW:
            s = self.send_seq
            self.send_seq = (s + 1) & 0xFF
            return self._event(s, now)
        if self.ack_due or ticks_diff(now, self.last_tx) >= HEARTBEAT_MS:
            return self._ack(now)
        return 0

    def _flush(self, now):
        return ticks_diff(now, self.last_tx) >= FLUSH_IDLE_MS

    def _addr(self):
        return M.FROM_BOX | self.seat

    def _hello(self, now):
        b = self.body
        b[0] = self.ver_min
        b[1] = self.ver_max
        b[2] = self.head_seq
        b[3] = 1 if self.bus else 0
        b[4] = (self.fw >> 8) & 0xFF
        b[5] = self.fw & 0xFF
        f = self.writer.build(self._addr(), M.HELLO, self.epoch, self.next_seq, self.rx_next,
                              b, M.HELLO_BODY, self._flush(now))
        self.last_hello = now
        self.last_tx = now
        return f

    def _nak_frame(self, now):
        b = self.body
        b[0] = self.nak_reason
        b[1] = self.nak_type
        b[2] = self.nak_seq
        b[3] = self.nak_detail
        self.nak_reason = 0
        self.naks_out += 1
        f = self.writer.build(self._addr(), M.BNAK, self.epoch, self.next_seq, self.rx_next,
                              b, M.BNAK_BODY, self._flush(now))
        self.last_tx = now
        return f

    def _event(self, s, now):
        k = (s - self.head_seq) & 0xFF
        slot = (self.q_first + k) % QUEUE
        w = self.writer
        sc = w.scratch
        t = self.q_type[slot]
        if t == M.CAPS:
            src = self.caps
            o = 0
            blen = len(src)
        else:
            src = self.q_body
            o = slot * M.EVENT_BODY
            blen = M.EVENT_BODY
        for i in range(blen):
            sc[M.HEADER + i] = src[o + i]
        f = w.build(self._addr(), t, self.epoch, s, self.rx_next, None, blen, self._flush(now))
        self.ack_due = False
        self.last_tx = now
        self.last_ev_tx = now
        return f

    def _ack(self, now):
        f = self.writer.build(self._addr(), M.ACK, self.epoch, self.next_seq, self.rx_next,
                              None, 0, self._flush(now))
        self.ack_due = False
        self.last_tx = now
        return f
