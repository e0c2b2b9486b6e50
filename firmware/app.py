# The box application: keys -> call entry -> protocol endpoint -> UART, and STATE -> view ->
# display. Backend-neutral: `hal` is hal_unix.Hal or hal_rp2.Hal. The steady-state loop (no key,
# no byte, nothing due) allocates nothing: buffers are preallocated and redraws happen only on
# change.
# The path of a call, in the order the chip runs it (docs: firmware/README.md, "Timing"): the key,
# the frame out, the call kept in flash while the frame is on the wire, the STATE in, one redraw,
# the changed pages pushed at once; the garbage of that is collected after, while nothing waits.
import gc

import calls
import entry as E
import keys
import render
import view as V

from protocol import layout as L
from protocol.session import BoxEndpoint, next_epoch

# what this box tells a version 2 tablet it has (SPEC.md section 3c): vendor 0 (the reference
# box), render.ROWS text lines of render.WIDTH columns with the four suit symbols (font16.py:
# printable ASCII and the suits), every key of keys.py (codes 1..22). The golden file's `ref-box`
# CAPS is these bytes (tests/firmware/mp/fw_fuzz_checks.py)
VENDOR = 0
NAME = "ref-box"
KEYS_PRESENT = 0x7FFFFE

# After a call is made (and after its ack), the redraw waits this long for the tablet's STATE
# that shows it, so the call costs one redraw instead of two or three (a redraw and its push take
# longer on the chip than the tablet's answer). A call still unacknowledged then is kept in flash
# and shown as "sending"; one acknowledged by then is at the tablet and needs no flash write.
HOLD_MS = 40
# On a bus the garbage is collected right after a reply to a grant (main.py sets no threshold
# there): at most this often, and a box in turn, granted every other time, at most every
# GC_TURN_MS, and only when the box has made garbage since the last collection (a STATE
# applied, a key taken: `littered`). A collection takes about 4.5 ms on the chip, and a box
# alone on the line (the other seats' boxes absent) is granted again right after its reply: the
# collection then costs it that grant. An idle box answers grants without allocating
# (tests/firmware/mp/fw_bus_checks.py), so it collects nothing. (Not gc.mem_alloc() to see the
# garbage: it walks the whole heap's table, a millisecond or more on the chip, after every reply.)
GC_BUS_MS = 100
GC_TURN_MS = 1000
# the answers to a key that a new turn or call makes stale (the auction moved on)
_STALE_NOTES = (E.N_NOT_TURN, E.N_INSUFFICIENT, E.N_NOT_ALLOWED, E.N_STOP_WAIT, E.N_NO_AUCTION)


class BoxApp:
    def __init__(self, hal, seat, bus=False, store=None):
        self.hal = hal
        # the epoch after the last boot's (kept in flash): never the previous one again
        epoch = store.boot_epoch(next_epoch) if store is not None else 0
        # the panel (render.Frame, hardware/display.md): 4 lines of 16 with the suit symbols
        caps = L.caps_body(VENDOR, 1, (L.K_BUS if bus else 0) | L.K_SUITS, render.ROWS, render.WIDTH,
                           KEYS_PRESENT, NAME)
        self.ep = BoxEndpoint(seat, epoch, bus=bus, now=hal.ticks_ms(), caps=caps)
        # the view's auction is the STATE body's own call bytes (same layout: view.F_ALERT is
        # layout.C_ALERT): apply_state copies none of them
        self.view = V.BoxView(seat, memoryview(self.ep.state_body)[L.S_AUCTION:])
        self.entry = E.CallEntry()
        self.store = store
        self.rx = bytearray(64)  # UART reads in chunks: the driver buffers the rest
        self.dirty = True
        self.seen_state = -1
        self.link_up = False
        self.stop_shown_s = -1
        self.renders = 0
        # the panel's picture, drawn into the display driver's own frame buffer when it has one
        self.frame = render.Frame(getattr(hal.display, "buf", None))
        self.redraw_at = 0  # ticks of the next try after the display did not answer
        self.heap_log = False
        self.keep = -1  # a call made and not acknowledged yet, to keep in flash after HOLD_MS
        self.keep_n = 0  # its place in the auction and its board
        self.keep_board = 0
        self.keep_at = 0  # ticks when it was made
        self.bus = bus
        self.hold_at = 0  # ticks since when a redraw waits for the STATE (0: none)
        self.idle_due = False  # a call's redraw is out: collect its garbage once idle
        # After a redraw every changed page goes at once: point to point, and on a bus where
        # that is one short write (SPI: the pages from the first changed to the last, at most
        # 1 KB, 0.9 ms on the wire, shorter than a grant may wait: serve). On a bus with the
        # panel on I2C (22.5 us a byte: 23 ms for 1 KB) the loop pushes a page per turn instead
        # (hal_rp2.Hal.wait), so no grant waits behind a whole frame.
        push = getattr(hal.display, "push", None)
        self.push_all = push if not bus or getattr(hal.display, "whole", False) else None
        # On a bus a reply must start within 5 ms of its grant or not at all (SPEC.md section 1).
        # A grant read after a long loop turn (a page pushed, a STATE received) may have waited
        # in the UART's buffer since just after the previous read: its reply could start late
        # and collide with the next box's. The rp2 backend sets late_us, the age beyond which
        # the box stays silent until the next grant; the unix port's wait returns when a byte
        # arrives, so it reads a grant at once and sets none.
        self.late_us = getattr(hal, "late_us", 0) if bus else 0
        self.read_us = hal.ticks_us() if self.late_us else 0
        self.late_grants = 0
        self.gc_at = hal.ticks_ms()
        self.littered = False  # garbage made since the last collection on a bus (after_reply)
        self.drawing = False  # a redraw until its push (after_reply collects nothing then)
        self.scan = getattr(hal, "scan", None)  # the keypad between the long steps (rp2)
        # ticks_us stamps of a call's path (config "trace": the bench's breakdown): key taken,
        # frame written, kept in flash, acknowledged, the read of the STATE's last bytes, the
        # call drawn and pushed; on a bus also each STATE's apply, draw and push ("btrace")
        self.trace = None
        if bus:
            # the line served between the parts of a redraw too (serve): a draw takes longer on
            # the chip than a grant may wait
            self.frame.between = self.between
            if self.push_all is not None and getattr(hal.display, "between", None) is not None:
                hal.display.between = self.pushed  # and right after each write of a push
        if store is not None:
            store.restore(self)

    # -- inputs ----------------------------------------------------------------------------
    def key(self, k, now):
        self.littered = True  # a key's path may allocate (the entry's notes, the event)
        if k == keys.OK and self.view.sending != calls.NONE and self.entry.sel != calls.NONE:
            # one call in flight: until the tablet has acknowledged the last one, another OK is
            # refused (a loose cable must not turn 1NT into 1NT and then 2NT), and the refused
            # call is disarmed: an OK pressed later, when the link is back, sends nothing the
            # player did not key again
            self.entry.note = E.N_ONE_IN_FLIGHT
            self.entry.clear()
            self.hal.buzzer.beep(150)
            self.dirty = True
            return
        kind = self.entry.press(k, self.view, now, self.hal.ticks_diff)
        if k == keys.OK and not kind:
            self.hal.buzzer.beep(150)  # refused: a longer buzz than the click of a made call
        if kind:
            code = self.entry.out_call if kind == E.EV_CALL else 0xFF
            # entry's EV_CALL..EV_TD are in the order of the wire's CALL..TD (SPEC.md section 3)
            if self.ep.submit(L.CALL + kind - E.EV_CALL, code, now) < 0:
                # 16 events unacknowledged (a long cable pull): the call is not made
                self.entry.note = E.N_QUEUE_FULL
            elif kind == E.EV_CALL:
                # Sent at once, kept in flash only if the tablet has not acknowledged it within
                # HOLD_MS (step). On the chip a LittleFS write costs tens of ms (a 4 KB sector
                # erase is 45 ms, with interrupts off, so the STATE's bytes would overrun the
                # UART's FIFO); an acknowledged call is in the tablet's journal and needs no copy
                # here. Lost to a power cut is only a call whose frame also never reached the
                # tablet in those 40 ms: nobody saw it, and the player keys it again.
                self.keep = code
                self.keep_n = self.view.n
                self.keep_board = self.view.board
                self.keep_at = now
                self.hold_at = now or 1
                if not self.link_up and self.store is not None:
                    self.store.add(code, self.keep_n, self.keep_board)  # no tablet: keep it now
                    self.keep = -1
            if kind == E.EV_CALL:
                self.hal.buzzer.beep(30)
                if self.trace is not None:
                    tr = self.trace
                    for i in range(1, 9):
                        tr[i] = 0
                    tr[0] = self.hal.ticks_us()
        self.dirty = True

    def apply_state(self, now):
        """The endpoint's latest STATE body (checked by protocol.layout.state_ok) into the
        preallocated view, straight from its bytes: nothing is kept but the message text."""
        v = self.view
        b = self.ep.state_body
        known_was = v.known
        v.known = True
        t = b[L.S_TURN]
        turn_was = v.turn
        v.turn = t if t < 4 else V.NO_SEAT
        f = b[L.S_FLAGS]
        v.phase = V.FROZEN if f & L.F_FROZEN else (V.ENDED if f & L.F_OVER else V.AUCTION)
        n = (b[L.S_N] << 8) | b[L.S_N + 1]
        if not b[L.S_BOARD] and not n and v.turn == V.NO_SEAT and not f & L.F_OVER:
            v.phase = V.WAITING
        v.prevent = bool(f & L.F_PREVENT)
        v.stop_jump = bool(f & L.F_STOP_JUMP)
        v.stop_opening2 = bool(f & L.F_STOP_OPENING2)
        v.lowest = b[L.S_LOWEST]  # the same codes, and 0xFF for none (calls.NONE)
        v.has_allowed = v.prevent
        if v.prevent:  # the box reads the allowed calls only when it refuses calls itself
            for i in range(calls.COUNT):
                v.allowed[i] = 1 if b[L.S_ALLOWED + (i >> 3)] & (1 << (i & 7)) else 0
        sm = (b[L.S_STOP_MS] << 8) | b[L.S_STOP_MS + 1]
        v.stop_deadline = self.hal.ticks_add(now, sm) if sm else 0
        if sm and not v.stop_deadline:
            v.stop_deadline = 1
        v.stop_lock = v.prevent
        ent = self.entry
        if known_was and b[L.S_BOARD] != v.board:
            # a selection keyed on the last board is not armed on this one; one keyed before
            # the first STATE since boot (the panel still showing the last boot's picture) is
            # of no earlier board, and stays
            ent.clear()
        if n != v.n or v.turn != turn_was:
            # the auction moved: an answer to an earlier key (INSUFFICIENT ...) is not true now
            if ent.note in _STALE_NOTES:
                ent.note = E.N_NONE
        v.board = b[L.S_BOARD]
        v.dealer = b[L.S_DEALER]
        v.vul = b[L.S_VUL]
        v.n = n  # v.auction is b[S_AUCTION:]: its n calls are in place (layout.state_ok)
        m = L.S_AUCTION + n + 1
        mlen = b[m - 1]
        v.msg = bytes(b[m:m + mlen]).decode("utf-8") if mlen else ""
        # version 3: the player's language after the message (SPEC.md section 3), else English
        v.lang = b[m + mlen] if self.ep.state_len > m + mlen else 0
        if self.store is not None:
            self.store.reconcile(self, now)
        self.dirty = True
        self.idle_due = True
        self.littered = True  # the message text, the redraw's: collected after a reply

    def resend_call(self, code, now):
        """A kept call from before a reboot whose place in the auction is still open."""
        print("resend kept call %d at %d board %d" % (code, self.view.n, self.view.board))
        self.ep.submit(L.CALL, code, now)
        self.dirty = True

    # -- the loop --------------------------------------------------------------------------
    def step(self, wait_ms=5):
        hal = self.hal
        hal.wait(wait_ms)
        now = hal.ticks_ms()
        tr = self.trace
        # the line first: on a bus a grant is answered as soon as it is read, before keys,
        # STATE or redraw (SPEC.md section 3a), and again between those steps (serve)
        self.serve(now)
        if tr is not None and not tr[5]:
            tr[8] = hal.ticks_us()  # received
        k = hal.keys.get()
        while k:
            self.key(k, now)
            k = hal.keys.get()
        self.send(now)  # point-to-point: a new call goes out at once (on a bus: at the next grant)
        if tr is not None and tr[0] and not tr[1]:
            tr[1] = hal.ticks_us()
        state = self.ep.state_seq != self.seen_state
        while self.ep.state_seq != self.seen_state:
            # (on a bus another STATE may come while one is applied: the view and the redraw
            # take the latest, so the calls drawn are the ones its fields describe)
            self.seen_state = self.ep.state_seq
            if self.ep.state_len:
                if tr is not None:
                    tr[6] = hal.ticks_us()  # received (COBS, CRC, checks, copy)
                self.apply_state(now)
                self.hold_at = 0
                if self.bus:
                    self.serve(now)
                    if tr is not None:
                        tr[9] = hal.ticks_us()  # applied
        sending = self.ep.pending_call()
        if sending != self.view.sending:
            if sending == calls.NONE and not state and self.view.sending != calls.NONE:
                # acknowledged: the tablet's STATE with the call follows on the wire; one redraw
                # for both
                self.hold_at = self.hold_at or now or 1
                if tr is not None:
                    tr[3] = hal.ticks_us()
            else:
                self.dirty = True
            self.view.sending = sending
            if self.entry.note == E.N_ONE_IN_FLIGHT:
                self.entry.note = E.N_NONE
                self.dirty = True
        if self.keep >= 0:
            if self.view.sending != self.keep:
                self.keep = -1  # acknowledged: the tablet has it
            elif not self.bus:
                self.keep_due(now)  # on a bus: right after a reply (after_reply)
        if self.hold_at and hal.ticks_diff(now, self.hold_at) >= HOLD_MS:
            self.hold_at = 0
            self.dirty = True
        up = self.ep.linked(now)
        if up != self.link_up:
            self.link_up = up
            self.dirty = True
            d = self.ep.deframer
            # one format string: on the box each separate word would be a qstr of heap
            print("link %s at %d session %d frames %d bad %d ignored %d queued %d nak %d/%d" % (
                "up" if up else "down", now, self.ep.session, d.frames,
                d.bad_crc + d.bad_cobs + d.bad_size, self.ep.ignored, self.ep.q_count,
                self.ep.naks_out, self.ep.naks_in))
        if self.store is not None and self.store.restored:
            self.store.tick(self, now)
        if self.view.stop_deadline:
            # the seconds shown; reaches 0 (and redraws) in the call that ends the wait
            s = (self.view.stop_left_ms(now, hal.ticks_diff) + 999) // 1000
            if s != self.stop_shown_s:
                self.stop_shown_s = s
                self.dirty = True
        if hal.display.failed and not self.redraw_at:
            # the display did not answer (a loose cable): the box goes on without it and draws
            # again every half second, so the screen is right once it is back
            self.redraw_at = hal.ticks_add(now, 500) or 1
        if self.redraw_at and hal.ticks_diff(now, self.redraw_at) >= 0:
            self.redraw_at = 0
            self.dirty = True
        if self.dirty and not self.hold_at:
            self.redraw(now)
            if self.scan is not None:
                self.scan()
            if self.bus:
                # the line read right before the push (the keypad before that): on a bus the
                # write is the only step between this read and the next (pushed)
                self.serve(now)
            if tr is not None and state:
                tr[7] = hal.ticks_us()  # drawn
            if self.push_all is not None:
                # the changed pages at once (point to point a run of adjacent pages per I2C
                # write), not a page per loop turn: on a bus a redraw's six pages took six turns
                self.push_all(True)
            # The picture is out: a reply from here on may be followed by the collection
            # (after_reply). One before the push (4.5 ms) delayed the picture, and the grant
            # that came meanwhile was read too late to answer.
            self.drawing = False
            if self.bus and self.push_all is not None:
                self.serve(now)
            if tr is not None and state:
                tr[5] = hal.ticks_us()
        elif self.idle_due and not self.dirty and not self.hold_at:
            # the STATE's picture is out and nothing is due: point to point its garbage goes
            # now, off the path of the next call (the heap's high-water mark is read just
            # before: the bench's). On a bus a grant may come at any time: there the garbage
            # goes right after a reply to a grant (above).
            self.idle_due = False
            if self.heap_log:
                h = gc.mem_alloc()
                if h > self.heap_log:  # a new high-water mark (few lines: USB output can stall)
                    self.heap_log = h
                    print("heap %d" % h)
            if self.push_all is not None and not self.bus:
                gc.collect()
            if self.store is not None and not self.bus:
                # point to point a page programmed now delays nothing; a new journal (an erase)
                # only when this one is nearly full: a STATE lost meanwhile comes again (RTO)
                self.store.flush()
                self.store.maintain()
            if tr is not None and tr[9] and tr[5]:
                # on a bus, every STATE's: applied, drawn (composed, the changed cells copied),
                # pushed, each with the line served after it (us)
                print("btrace %d %d %d" % (hal.ticks_diff(tr[9], tr[6]), hal.ticks_diff(tr[7], tr[9]),
                                           hal.ticks_diff(tr[5], tr[7])))
                tr[9] = 0
            if tr is not None and tr[0] and tr[5]:
                t0 = tr[0]
                for i in range(1, 9):
                    tr[i] = hal.ticks_diff(tr[i], t0) if tr[i] else -1
                print("trace %d %d %d %d %d %d %d %d %d" % (tr[1], tr[2], tr[3], tr[4], tr[5], t0,
                                                           tr[6], tr[7], tr[8]))
                tr[0] = 0

    def serve(self, now):
        """Read what the UART holds into the endpoint; on a bus, answer a grant the moment it is
        read (SPEC.md section 1: the reply starts within 5 ms of the grant or not at all), and
        then spend the window after the reply (after_reply). The loop calls this at the start
        of each turn and, on a bus, between its long steps (a STATE applied, the parts of a
        redraw), so that none of its own steps keeps a grant waiting.
        A grant's age is not known (the UART keeps no arrival time), only bounded: its bytes
        came after the last read that emptied the driver's buffer (read_us, stamped just
        before it). One read beyond late_us after that may be too old to answer in time: the
        box stays silent until the next grant rather than answer into the next box's reply."""
        hal = self.hal
        rx = self.rx
        late = self.late_us
        tr = self.trace
        got = 0
        gs = -1  # read_us before the read that brought a grant: it came after this
        drained = False  # a read emptied the UART's buffer in this call
        while True:
            since = self.read_us  # the bytes this read returns came after this
            at = hal.ticks_us() if late else 0
            n = hal.serial.readinto(rx)
            if n < len(rx):
                self.read_us = at  # emptied: the next bytes come after now
            if n:
                if not got and tr is not None and not tr[5]:
                    tr[4] = hal.ticks_us()  # if these bytes end a STATE: its receive starts here
                got += n
                self.ep.receive(rx, now, 0, n)
                if self.ep.granted and gs < 0:
                    gs = since
                if n < len(rx) and not self.ep.granted and not self.for_me():
                    # drained twice, no grant to answer and no frame for this box half read:
                    # back to the loop's work. The line may never be quiet (a new state's four
                    # STATEs go out back to back, then the grants): read on until it was, a box
                    # whose STATE came first applied it only after the three others had
                    # passed, and was the last to show it. What comes meanwhile is read at the
                    # next serve (between the long steps). The second read takes the bytes that
                    # came while the first's were taken in, so read_us is that much younger (a
                    # grant's age counts from it); a frame that may be this box's (a grant) is
                    # read to its end first.
                    if drained:
                        break
                    drained = True
                if self.scan is not None and not self.ep.granted:
                    # the keypad while a long frame comes in, but not with a grant to answer,
                    # and not after the read that ends the serve: its time would count in the
                    # age of the next grant (read_us is stamped before that read)
                    self.scan()
                continue
            if not (self.ep.granted and self.bus):
                break
            # the line is quiet (a frame that follows the grant on the wire is read first: the
            # reply goes after it, never into it)
            if late and hal.ticks_diff(hal.ticks_us(), gs) > late:
                self.ep.granted = False  # perhaps too old to answer in time: the next grant
                self.late_grants += 1
            elif self.send(now):
                self.after_reply(now)  # the reply is out; the next grant is another box's
            gs = -1
        return got

    def for_me(self):
        """A frame half read whose address is not known yet or is this box's (SPEC.md section
        2: the payload's first byte, bit 7 clear from the tablet)."""
        d = self.ep.deframer
        return d.w and (not d.n or d.raw[0] == self.ep.seat)

    def between(self):
        """On a bus, between two long steps of a turn (render.Frame.draw calls it too)."""
        self.serve(self.hal.ticks_ms())

    def pushed(self):
        """On a bus, right after each write of a push to the panel (hal_rp2.Display.push): the
        line first, then the keypad. A redraw's push on SPI is one write of up to 1 KB (1.3 ms
        on the chip with its Python), and a grant that came during it is read at once: with a
        keypad scan before the write and another after it (up to 0.9 ms each while a key
        moves), the grant was read 3.1-4 ms after the read before the write, and the box,
        which cannot tell when in that time it came, let it pass as perhaps too old to answer
        (late_us; docs/benchmarks.md, 2026-11-28, grant-letpass)."""
        self.serve(self.hal.ticks_ms())
        if self.scan is not None:
            self.scan()

    def keep_due(self, now):
        """The call made HOLD_MS ago and still not acknowledged into the flash journal (one
        page programmed: store.py)."""
        if self.hal.ticks_diff(now, self.keep_at) < HOLD_MS:
            return
        if self.store is not None:
            self.store.add(self.keep, self.keep_n, self.keep_board)
        self.keep = -1
        if self.trace is not None:
            self.trace[2] = self.hal.ticks_us()

    def after_reply(self, now):
        """On a bus, right after the box's reply to a grant: the window in which it may spend
        the chip's time. The next grant is another box's (SPEC.md section 1: the box in turn is
        granted every other time, the others in rotation), so this box's next grant is at least
        one other grant and its reply away (2 x 0.87 ms on the wire at 115200 baud, or the
        tablet's 7.5 ms wait for a box that does not answer: SPEC.md section 5 "Bus turnaround"),
        while a page programmed into flash holds the interrupts off 0.4 ms and the UART's FIFO
        keeps the 5 bytes that arrive meanwhile. So a call's record is written here, never
        between a grant and its reply; the garbage goes here too, at most every GC_BUS_MS
        (GC_TURN_MS in turn), when the box has made some (`littered`), and not while an event
        is in flight."""
        hal = self.hal
        st = self.store
        if self.keep >= 0 and self.view.sending == self.keep:
            self.keep_due(now)
        elif st is not None:
            st.flush()
            if self.keep < 0 and not self.ep.q_count and not self.view.my_turn():
                # a new journal erases a block (45 ms, interrupts off): only when this box has
                # nothing to send and is not in turn, so a grant it misses delays nothing (the
                # tablet grants it again; a STATE it misses comes again, SPEC.md section 5)
                st.maintain()
        if self.late_us and not self.ep.q_count and hal.ticks_diff(now, self.gc_at) >= (
                GC_TURN_MS if self.view.my_turn() else GC_BUS_MS) and self.littered and (
                self.ep.state_seq == self.seen_state and not self.dirty and not self.hold_at
                and not self.drawing):
            # (not with an event in flight: a collection costs the next grant, and that grant
            # carries the event's ack or its resend; nor with a STATE or a redraw still to do
            # this turn, or within one (a reply the draw sends between its steps), whose own
            # steps would then follow it unserved and cost the grant after too; MicroPython
            # still collects when it must)
            gc.collect()
            self.gc_at = hal.ticks_ms()
            self.littered = False

    def send(self, now):
        """Write what the endpoint has to send; True when it wrote a frame."""
        out = self.ep.output(now)
        sent = False
        while out is not None and len(out):
            self.hal.serial.write(out)
            sent = True
            out = self.ep.output(now)
        return sent

    def redraw(self, now):
        self.dirty = False
        v = self.view
        d = self.hal.display
        # The calls are read before the draw serves the line (on a bus: render.Frame.between),
        # as the draw reads them: a STATE read then overwrites them in place, and the next turn
        # applies and draws it.
        last_alerted = v.n > 0 and v.auction[v.n - 1] & V.F_ALERT
        if d.wants_lines:
            # the unix backend's screen file: the whole state as text, for programs (a board
            # never loads textview)
            import textview

            d.show(textview.lines(v, self.entry, now, self.hal.ticks_diff, self.link_up,
                                  self.ep.version_error),
                   self.entry.review_page if self.entry.review else -1)
        # allocation-free; the mask names the 8-pixel pages that changed: only those are pushed
        # (no collection after a reply the draw's `between` sends, nor one sent before the
        # push is written: step clears `drawing` after it)
        self.drawing = True
        mask = self.frame.draw(v, self.entry, now, self.hal.ticks_diff, self.link_up,
                               self.ep.version_error)
        d.indicate(v.my_turn(), v.stop_deadline != 0, last_alerted, self.link_up)
        d.frame(self.frame, mask)
        self.renders += 1

    def run(self):
        try:
            self.run_forever()
        finally:
            self.hal.close()

    def run_forever(self):
        while True:
            self.step(5)
