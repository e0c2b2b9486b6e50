# The tablet side of one seat's link (SPEC.md sections 4-6), pure like the box side in
# protocol/session.py, whose timers and sequence rules it shares. Separate from it so that the box
# loads none of it (every function loaded costs the box heap).
from protocol import VERSION_MAX, VERSION_MIN, calls
from protocol import messages as M
from protocol.clock import ticks_add, ticks_diff
from protocol.framing import Deframer, FrameWriter
from protocol.session import FLUSH_IDLE_MS, HEARTBEAT_MS, LINK_LOSS_MS, NAK_GAP_MS, RTO_MS, ahead, new_epoch

# what a box without suit glyphs shows instead (CAPS flag "suits", SPEC.md section 3c)
SUIT_LETTERS = {"\u2663": "C", "\u2666": "D", "\u2665": "H", "\u2660": "S"}


class TabletEndpoint:
    """The tablet side of one seat's link. Events arrive in order, once, via `take_events()`."""

    def __init__(self, seat, epoch=0, now=0, hold_acks=False):
        self.seat = seat if isinstance(seat, int) else calls.seat_index(seat)
        self.epoch = epoch or new_epoch()
        # hold_acks: acknowledge an event only when the application says it is safe (journalled),
        # via release(); until then the box keeps it and re-sends it, so a tablet crash between
        # delivery and journal loses nothing.
        self.hold_acks = hold_acks
        self.ack_next = 0        # the ack we advertise (== rx_next unless holding)
        self.session = False
        self.box_epoch = 0
        self.box_bus = False
        self.box_fw = 0
        self.caps = None         # the box's CAPS as a dict (version 2), None: a version 1 box
        self.caps_seq = -1       # seq of the CAPS frame (needs no journal: never held)
        self.message = ""        # the latest view's message as given (refitted when CAPS arrives;
                                 # not the whole view: on a small tablet every dict counts)
        self.lang = None         # and its language, sent from version 3 (refitted at HELLO)
        self.reports = []        # NAKs from the box, CAPS, version refusals: take_reports()
        self.refused = None      # (box epoch, ver_min, ver_max) of the last refused HELLO
        self.box_naks = 0
        self.version = 0
        self.rx_next = 0
        self.state_body = None   # bytes of the latest STATE body, None before any view
        self.state_seq = 0       # seq of the latest STATE
        self.state_next = 0
        self.state_unacked = False
        self.state_sent = False
        self.last_state_tx = now
        # bus (SPEC.md sections 1, 5): the box acks a STATE only in its reply to a grant, so
        # the STATE goes again only when a reply to a grant sent after it lacks the ack
        self.bus = False
        self.granted_since_state = False
        self.welcome_due = False
        self.nak_reason = 0
        self.nak_detail = 0
        self.last_nak = ticks_add(now, -NAK_GAP_MS - 1)
        self.ack_due = False
        self.last_rx = ticks_add(now, -LINK_LOSS_MS - 1)
        self.last_tx = ticks_add(now, -HEARTBEAT_MS - 1)
        self.events = []
        self.deframer = Deframer()
        self.writer = FrameWriter()
        self.wbody = bytearray(M.WELCOME_BODY)
        self.last_type = 0       # type of the last frame output (the bus master needs it)
        self.errors_seen = 0
        self.duplicates = 0
        self.gaps = 0
        self.ignored = 0
        self.sessions = 0

    # --- application side -------------------------------------------------------------------

    def set_view(self, view):
        """A new complete state for this seat (view dict, SPEC.md section 3); sent at once and
        re-sent until acked. Raises ValueError for a view that cannot be encoded."""
        body = M.encode_state(self.fit(view), None, self.version)
        self.message = view.get("message") or ""
        self.lang = view.get("lang")
        self.state_body = body
        if self.session:
            self._new_state_seq()

    def fit(self, view):
        """The view as this box can show it: its message through fit_message."""
        msg = view.get("message") or ""
        out = self.fit_message(msg)
        if out == msg:
            return view
        v = dict(view)
        v["message"] = out
        return v

    def fit_message(self, msg):
        """Suit symbols become letters unless the box's CAPS says it has the glyphs (a version 1
        box sent none: letters)."""
        if (self.caps and self.caps["suits"]) or not isinstance(msg, str):
            return msg
        for g in SUIT_LETTERS:
            msg = msg.replace(g, SUIT_LETTERS[g])
        return msg

    def _refit(self):
        """The current STATE body with its message fitted to the box as now known, and its
        language byte as the session's version wants it; True when that changed it."""
        b = self.state_body
        if b is None:
            return False
        mb = self.fit_message(self.message)
        mb = mb.encode("utf-8") if isinstance(mb, str) else bytes(mb)
        na = (b[M.S_N] << 8) | b[M.S_N + 1]
        o = M.S_AUCTION + na
        nb = bytes(b[:o]) + bytes([len(mb)]) + mb
        if self.version >= M.LANG_VERSION:
            nb += bytes([M.LANGS.index(self.lang) if self.lang in M.LANGS else 0])
        if nb == b:
            return False
        self.state_body = nb
        return True

    def take_reports(self):
        """What the box told about the link since the last call, for the tablet's log and the
        director: {"kind": "nak", "reason", "of_type", "of_seq", "detail"}, {"kind": "caps",
        ...CAPS fields} and {"kind": "version", "ver_min", "ver_max", "text"} (a box refused)."""
        r = self.reports
        self.reports = []
        return r

    def _new_state_seq(self):
        self.state_seq = self.state_next
        self.state_next = (self.state_next + 1) & 0xFF
        self.state_unacked = True
        self.state_sent = False
        self.granted_since_state = False

    def take_events(self):
        """Delivered events since the last call: dicts with kind, seat, epoch, seq, box_ms, call,
        index (hello events carry version, fw, bus)."""
        ev = self.events
        self.events = []
        return ev

    def connected(self, now):
        return self.session and ticks_diff(now, self.last_rx) < LINK_LOSS_MS

    def release(self, upto):
        """hold_acks: acknowledge the events with seq before `upto` (the seq after the last one
        the application has made durable). Ignored unless it moves the ack forward to at most
        what was delivered."""
        upto &= 0xFF
        if upto == self.ack_next:
            return
        if ahead(upto, self.ack_next) and ahead(self.rx_next, upto):
            self.ack_next = upto
            self.ack_due = True
            self._skip_caps()

    def _skip_caps(self):
        # a CAPS needs no journal: acknowledged as soon as everything before it is
        if self.ack_next == self.caps_seq and self.rx_next != self.ack_next:
            self.ack_next = (self.ack_next + 1) & 0xFF
            self.ack_due = True

    def state_acked(self):
        """The box of the current session has applied the latest view."""
        return self.session and self.state_body is not None and not self.state_unacked

    # --- bytes in ---------------------------------------------------------------------------

    def receive(self, data, now, start=0, end=-1):
        if end < 0:
            end = len(data)
        d = self.deframer
        i = start
        got = 0
        while i < end:
            i = d.feed(data, i, end)
            if d.length and self.frame(d.payload, d.length, now):
                got += 1
        if d.errors_seen != self.errors_seen:
            self.errors_seen = d.errors_seen
            self.bad_frame(now)
        return got

    def bad_frame(self, now):
        """A garbled frame arrived on this seat's own port (p2p): ask for a resend at once."""
        if self.session:
            self._nak(M.BAD_FRAME, self.rx_next, now)

    def _nak(self, reason, detail, now):
        if ticks_diff(now, self.last_nak) >= NAK_GAP_MS:
            self.nak_reason = reason
            self.nak_detail = detail
            self.last_nak = now

    def frame(self, p, n, now):
        """Handle one CRC-checked payload p[0:n] (the bus master dispatches by seat here)."""
        addr = p[0]
        if addr & 0x7C or not addr & M.FROM_BOX or (addr & 3) != self.seat:
            self.ignored += 1
            return False
        t = p[1]
        blen = n - M.MIN_PAYLOAD
        if not M.body_ok(True, t, blen):
            self.ignored += 1
            if self.session:
                self._nak(M.MALFORMED, t, now)
            return False
        if not (p[2] or p[3]):
            self.ignored += 1  # epoch 0 is never sent
            return False
        if t == M.CALL and p[M.HEADER + 4] >= calls.COUNT:
            self.ignored += 1
            if self.session:
                self._nak(M.MALFORMED, t, now)
            return False
        ep = (p[2] << 8) | p[3]
        seq = p[4]
        ack = p[5]
        b = M.HEADER
        if t == M.HELLO:
            lo = max(p[b], VERSION_MIN)
            hi = min(p[b + 1], VERSION_MAX)
            if lo > hi:
                self.last_nak = ticks_add(now, -NAK_GAP_MS - 1)
                self._nak(M.VERSION, VERSION_MAX, now)
                key = (ep, p[b], p[b + 1])
                if key != self.refused:  # once per box boot, not on every HELLO retry
                    self.refused = key
                    self.reports.append({
                        "kind": "version", "seat": calls.SEATS[self.seat], "ver_min": p[b],
                        "ver_max": p[b + 1],
                        "text": "box %s speaks protocol %d..%d, this tablet %d..%d: update the "
                                "box's firmware or the tablet" % (calls.SEATS[self.seat], p[b],
                                                                   p[b + 1], VERSION_MIN,
                                                                   VERSION_MAX)})
                return True
            new_box = not self.session or ep != self.box_epoch
            base = p[b + 2]
            if new_box or not ahead(self.rx_next, base):
                self.rx_next = base
                self.ack_next = base
            elif ahead(base, self.ack_next):
                self.ack_next = base  # the box's head only moves on our acks
            # else: the same box re-HELLOs (it lost our WELCOME or we restarted its session):
            # keep rx_next, so events we already delivered are still recognised as duplicates.
            self.session = True
            self.sessions += 1
            self.box_epoch = ep
            self.version = hi
            self.box_bus = bool(p[b + 3] & 1)
            self.box_fw = (p[b + 4] << 8) | p[b + 5]
            if new_box:
                self.caps = None  # a new box: what it can show is unknown until its CAPS
                self.caps_seq = -1
                self._refit()
            self.last_rx = now
            self.welcome_due = True
            self.nak_reason = 0
            if self.state_body is not None:
                self._new_state_seq()
            if new_box:
                self.events.append({"kind": "hello", "seat": calls.SEATS[self.seat], "epoch": ep,
                                    "seq": seq, "box_ms": None, "call": None, "index": None,
                                    "version": hi, "fw": self.box_fw, "bus": self.box_bus})
            return True
        if t == M.BNAK and (not self.session or ep != self.box_epoch):
            self._box_nak(p, b, now)  # e.g. VERSION: the box refused our WELCOME, no session
            return True
        if not self.session or ep != self.box_epoch:
            if self.session:
                self.session = False  # the box restarted: wait for its HELLO
            self._nak(M.NO_SESSION, 0, now)
            return False
        self.last_rx = now
        if self.state_unacked and ack == ((self.state_seq + 1) & 0xFF):
            # exactly "applied the latest": a stale ack from long ago must not look like one
            self.state_unacked = False
        elif self.state_unacked and self.granted_since_state:
            # bus: the box answered a grant that followed the STATE on the line, without its
            # ack: the STATE never reached it whole. Again, at once.
            self.state_sent = False
            self.granted_since_state = False
        if t == M.BNAK:
            self._box_nak(p, b, now)
            return True
        if M.is_event(t) or t == M.CAPS:
            if t == M.CAPS and seq == self.rx_next:
                c = M.decode_caps(p, b, n - M.CRC)
                self.rx_next = (seq + 1) & 0xFF
                if not self.hold_acks:
                    self.ack_next = self.rx_next
                self.caps_seq = seq
                self._skip_caps()
                self.ack_due = True
                if c is None:
                    self._nak(M.MALFORMED, t, now)
                    return True
                self.caps = c
                c = dict(c)
                c["kind"] = "caps"
                c["seat"] = calls.SEATS[self.seat]
                self.reports.append(c)
                if self._refit() and self.session:
                    self._new_state_seq()  # the box shows suit symbols: send them
                return True
            if seq == self.rx_next:
                self.rx_next = (seq + 1) & 0xFF
                if not self.hold_acks:
                    self.ack_next = self.rx_next
                ms = (p[b] << 24) | (p[b + 1] << 16) | (p[b + 2] << 8) | p[b + 3]
                arg = p[b + 4]
                e = {"kind": M.EVENT_KINDS[t], "seat": calls.SEATS[self.seat], "epoch": ep,
                     "seq": seq, "box_ms": ms, "call": None, "index": None}
                if t == M.CALL:
                    e["call"] = calls.NAMES[arg]
                elif t in (M.ALERT, M.UNDO) and arg != 0xFF:
                    e["index"] = arg
                self.events.append(e)
            elif ahead(self.rx_next, seq):
                self.duplicates += 1
            else:
                self.gaps += 1
                self._nak(M.OUT_OF_SEQUENCE, self.rx_next, now)
            self.ack_due = True
        return True

    def _box_nak(self, p, b, now):
        """The box could not use a frame of ours (SPEC.md section 3b): report it; a garbled one
        (BAD_FRAME) is answered at once with the latest STATE, the rest wait for the RTO."""
        r = p[b]
        if r not in M.NAK_REASONS:
            self.ignored += 1  # never a NAK of a NAK
            return
        self.box_naks += 1
        if r == M.BAD_FRAME and self.state_unacked:
            self.state_sent = False
        self.reports.append({"kind": "nak", "seat": calls.SEATS[self.seat],
                             "reason": M.NAK_REASONS[r], "of_type": p[b + 1], "of_seq": p[b + 2],
                             "detail": p[b + 3]})

    # --- bytes out --------------------------------------------------------------------------

    def output(self, now, poll=False):
        """The next frame to write, or None. With poll=True (bus master addressing the seat) a
        frame is always returned: a due STATE (not a grant: `last_type` tells), else the grant
        (WELCOME, NAK, or PING when there is nothing else)."""
        n = self.output_n(now, poll)
        return self.writer.view(n) if n else None

    def next_output_ms(self, now):
        """In how many ms `output(now)` (not polled: point to point) returns a frame if nothing
        new comes in: 0 when one is due now, else the nearer of the STATE's retransmit and the
        heartbeat; -1 when nothing comes of itself (no session). Changes nothing. For a caller
        that must know when the link next writes, e.g. a rig that runs the tablet on an emulated
        chip's clock (tablet_app/link/master.py `settled`)."""
        if self.nak_reason:
            return 0
        if not self.session:
            return -1
        if self.welcome_due or self.ack_due or self.state_unacked and not self.state_sent:
            return 0
        wait = HEARTBEAT_MS - ticks_diff(now, self.last_tx)
        if self.state_unacked and not self.bus:
            wait = min(wait, RTO_MS - ticks_diff(now, self.last_state_tx))
        return max(0, wait)

    def output_n(self, now, poll=False):
        """Like output: the frame's length n (the frame is `self.writer.wire[0:n]`), or 0."""
        if self.nak_reason:
            r = self.nak_reason
            self.nak_reason = 0
            body = self.wbody
            body[0] = r
            body[1] = self.nak_detail
            return self._build(M.NAK, self.state_next, body, M.NAK_BODY, now)
        if not self.session:
            if poll:
                return self._build(M.PING, self.state_next, None, 0, now)
            return 0
        if self.welcome_due:
            self.welcome_due = False
            body = self.wbody
            body[0] = self.version
            body[1] = self.state_seq if self.state_unacked else self.state_next
            body[2] = self.box_epoch >> 8
            body[3] = self.box_epoch & 0xFF
            return self._build(M.WELCOME, self.state_next, body, M.WELCOME_BODY, now)
        if self.state_unacked and (not self.state_sent or not self.bus
                                   and ticks_diff(now, self.last_state_tx) >= RTO_MS):
            self.state_sent = True
            self.granted_since_state = False
            self.last_state_tx = now
            sb = self.state_body
            return self._build(M.STATE, self.state_seq, sb, len(sb), now)
        if poll or self.ack_due or ticks_diff(now, self.last_tx) >= HEARTBEAT_MS:
            return self._build(M.PING, self.state_next, None, 0, now)
        return 0

    def _build(self, t, seq, body, blen, now):
        if self.bus and t != M.STATE and self.state_sent:
            self.granted_since_state = True  # on a bus every frame but a STATE is a grant
        flush = ticks_diff(now, self.last_tx) >= FLUSH_IDLE_MS
        f = self.writer.build(self.seat, t, self.epoch, seq, self.ack_next, body, blen, flush)
        self.last_type = t
        self.ack_due = False
        self.last_tx = now
        return f
