# The box application: keys -> call entry -> protocol endpoint -> UART, and STATE -> view ->
# display. Backend-neutral: `hal` is hal_unix.Hal or hal_rp2.Hal. The steady-state loop (no key,
# no byte, nothing due) allocates nothing: buffers are preallocated and redraws happen only on
# change.
import calls
import entry as E
import keys
import render
import view as V

from protocol import messages as M
from protocol.session import BoxEndpoint

_KIND = (0, M.CALL, M.STOP, M.ALERT, M.UNDO, M.REVIEW, M.TD)  # indexed by entry.EV_*
_SEATS = "NESW"
_VULS = ("None", "NS", "EW", "All")


class BoxApp:
    def __init__(self, hal, seat, bus=False, store=None):
        self.hal = hal
        self.seat = seat
        self.view = V.BoxView(seat)
        self.entry = E.CallEntry()
        self.ep = BoxEndpoint(seat, bus=bus, now=hal.ticks_ms())
        self.store = store
        self.rx = bytearray(256)
        self.dirty = True
        self.seen_state = -1
        self.link_up = False
        self.stop_shown_s = -1
        self.state_count = 0
        self.renders = 0
        if store is not None:
            store.restore(self)

    # -- inputs ----------------------------------------------------------------------------
    def key(self, k, now):
        kind = self.entry.press(k, self.view, now, self.hal.ticks_diff)
        if k == keys.OK and not kind:
            self.hal.buzzer.beep(150)  # refused: a longer buzz than the click of a made call
        if kind:
            code = self.entry.out_call if kind == E.EV_CALL else 0xFF
            if kind == E.EV_CALL and self.store is not None:
                # kept before it is sent: a reboot in between must not lose it
                self.store.add(code, self.view.n, self.view.board)
            if self.ep.submit(_KIND[kind], code, now) < 0:
                # 16 events unacknowledged (a long cable pull): the call is not made
                self.entry.note = E.N_QUEUE_FULL
                if kind == E.EV_CALL and self.store is not None:
                    self.store.forget_last()
            if kind == E.EV_CALL:
                self.hal.buzzer.beep(30)
        self.dirty = True

    def apply_state(self, d, now):
        """A decoded STATE (protocol.messages.decode_state) into the preallocated view."""
        v = self.view
        v.known = True
        t = d["turn"]
        v.turn = _SEATS.find(t) if t else V.NO_SEAT
        v.phase = V.FROZEN if d["frozen"] else (V.ENDED if d["over"] else V.AUCTION)
        if not d["board"] and not d["auction"] and v.turn == V.NO_SEAT and not d["over"]:
            v.phase = V.WAITING
        v.prevent = d["prevent"]
        low = d["lowest"]
        v.lowest = calls.parse(low) if low else calls.NONE
        al = d["allowed"]
        for i in range(calls.COUNT):
            v.allowed[i] = 0
        for c in al:
            v.allowed[calls.parse(c)] = 1
        v.has_allowed = v.prevent
        sm = d["stop_ms"]
        v.stop_deadline = self.hal.ticks_add(now, sm) if sm else 0
        if sm and not v.stop_deadline:
            v.stop_deadline = 1
        v.stop_lock = v.prevent
        v.board = d["board"]
        v.dealer = _SEATS.find(d["dealer"])
        v.vul = _VULS.index(d["vul"])
        a = d["auction"]
        n = len(a)
        if n > V.MAX_CALLS:
            n = V.MAX_CALLS
        for i in range(n):
            e = a[i]
            c = e["call"]
            v.auction[i] = calls.parse(c) if c else render.HIDDEN
            v.flags[i] = (V.F_ALERT if e["alert"] else 0) | (V.F_STOP if e["stop"] else 0)
        v.n = n
        v.msg = d["message"]
        self.state_count += 1
        if self.store is not None:
            self.store.reconcile(self, now)
        self.dirty = True

    def resend_call(self, code, now):
        """A kept call from before a reboot whose place in the auction is still open."""
        print("resend kept call", code, "at", self.view.n, "board", self.view.board,
              "states", self.state_count)
        self.ep.submit(M.CALL, code, now)
        self.dirty = True

    # -- the loop --------------------------------------------------------------------------
    def step(self, wait_ms=5):
        hal = self.hal
        hal.wait(wait_ms)
        now = hal.ticks_ms()
        n = hal.serial.readinto(self.rx)
        while n:
            self.ep.receive(self.rx, now, 0, n)
            n = hal.serial.readinto(self.rx)
        k = hal.keys.get()
        while k:
            self.key(k, now)
            k = hal.keys.get()
        out = self.ep.output(now)
        while out is not None and len(out):
            hal.serial.write(out)
            out = self.ep.output(now)
        if self.ep.state_seq != self.seen_state:
            self.seen_state = self.ep.state_seq
            if self.ep.state is not None:
                self.apply_state(self.ep.state, now)
        up = self.ep.linked(now)
        if up != self.link_up:
            self.link_up = up
            self.dirty = True
            d = self.ep.deframer
            print("link", "up" if up else "down", "at", now, "session", self.ep.session,
                  "frames", d.frames, "bad", d.bad_crc + d.bad_cobs + d.bad_size,
                  "ignored", self.ep.ignored, "queued", self.ep.q_count)
        if self.store is not None and self.store.restored:
            self.store.tick(self, now)
        if self.view.stop_deadline:
            # the seconds shown; reaches 0 (and redraws) in the call that ends the wait
            s = (self.view.stop_left_ms(now, hal.ticks_diff) + 999) // 1000
            if s != self.stop_shown_s:
                self.stop_shown_s = s
                self.dirty = True
        if self.dirty:
            self.redraw(now)

    def redraw(self, now):
        self.dirty = False
        lines = render.lines(self.view, self.entry, now, self.hal.ticks_diff)
        if self.ep.version_error:
            lines[1] = "update firmware"  # the tablet speaks no protocol version we know
        elif not self.link_up:
            lines[1] = "no link " + lines[1]
        v = self.view
        last_alerted = v.n > 0 and v.flags[v.n - 1] & V.F_ALERT
        self.hal.display.indicate(v.my_turn(), v.stop_deadline != 0, last_alerted, self.link_up)
        self.hal.display.show(lines, self.entry.review_page if self.entry.review else -1)
        self.renders += 1

    def run(self):
        try:
            while True:
                self.step(5)
        finally:
            self.hal.close()
