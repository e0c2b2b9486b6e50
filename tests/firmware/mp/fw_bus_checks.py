# RS-485 bus mode (SPEC.md section 1) on the real box application: the box transmits only in
# reply to a frame addressed to its seat, one frame per grant, and a call keyed between grants
# waits for the next grant.
import app as A
import keys as K
from fw_fuzz_checks import VIEW, Clock, Hal, Wire

from protocol.crc16 import crc16
from protocol.frame_tools import payloads, wire_from_payload
from protocol.tablet_endpoint import TabletEndpoint

SEAT = 2


def grant(box, tab, clock):
    """The master polls this seat once; returns the box's reply bytes (possibly empty)."""
    clock.t += 1
    f = tab.output(clock.t, True)
    box.hal.serial.rx += bytes(f)
    box.step(0)
    reply = bytes(box.hal.serial.tx)
    box.hal.serial.tx = bytearray()
    if reply:
        tab.receive(reply, clock.t)
    return reply


def linked(hal, clock, grants=20, before=None):
    """A bus box on `hal` linked up with the tablet, its seat in turn in the view: the box, the
    tablet's end and the view, after `grants` grants (`before()` ahead of each)."""
    box = A.BoxApp(hal, SEAT, True)
    tab = TabletEndpoint(SEAT, 0x5151, clock.t)
    view = dict(VIEW)
    view["turn"] = "S"
    tab.set_view(view)
    for _ in range(grants):
        if before is not None:
            before()
        grant(box, tab, clock)
    return box, tab, view


def test_bus_box_is_silent_until_granted_and_sends_one_frame_per_grant():
    clock = Clock()
    box = A.BoxApp(Hal(clock), SEAT, True)
    for _ in range(500):  # half a second without a grant: not one byte on the bus
        clock.t += 1
        box.step(0)
    assert len(box.hal.serial.tx) == 0
    tab = TabletEndpoint(SEAT, 0x5151, clock.t)
    view = dict(VIEW)
    view["turn"] = "S"
    tab.set_view(view)
    for _ in range(20):
        r = grant(box, tab, clock)
        assert r.count(b"\0") <= 2  # one frame (with its optional leading flush delimiter)
    assert box.view.known and box.view.turn == SEAT
    tab.take_events()
    for k in (K.L1, K.NT, K.OK):
        box.key(k, clock.t)
    for _ in range(50):
        clock.t += 1
        box.step(0)
    assert len(box.hal.serial.tx) == 0  # keyed, but no grant yet
    got = []
    for _ in range(10):
        grant(box, tab, clock)
        got += [e["call"] for e in tab.take_events() if e["kind"] == "call"]
    assert got == ["1NT"]


def test_full_event_queue_refuses_the_call_and_keeps_nothing():
    import os

    import entry as E
    import store
    import view as V

    path = (os.getenv("FW_SCRATCH") or "/tmp") + "/fw_bus_checks_store.bin"  # a run's own folder
    try:
        os.remove(path)
    except OSError:
        pass
    clock = Clock()
    st = store.Store(path)
    box = A.BoxApp(Hal(clock), SEAT, False, st)
    box.view.known = True
    box.view.phase = V.AUCTION
    box.view.turn = SEAT
    for _ in range(16):       # no tablet: 16 director calls fill the queue
        box.key(K.TD, clock.t)
    assert box.ep.q_count == 16
    for k in (K.PASS, K.OK):
        box.key(k, clock.t)
    assert box.entry.note == E.N_QUEUE_FULL
    box.step(0)  # where a made call would be written to flash
    with open(path, "rb") as f:
        kept, used = store.parse(f.read())
    os.remove(path)
    # nothing kept for a call that was not made: the journal holds only the boot's empty record
    assert st.k == 0 and kept == [] and used == 1


def test_a_grant_read_too_late_to_answer_within_5_ms_gets_no_reply_and_the_next_one_does():
    # SPEC.md section 1: a box's reply starts within 5 ms of its grant or not at all. On the
    # chip a loop turn that pushes a page or takes a STATE lasts longer than that; the box's
    # late reply then met the next box's on the line (tests/box_rp2040, bus: collisions).
    clock = Clock()
    us = [0]
    hal = Hal(clock)
    hal.ticks_us = lambda: us[0]
    hal.late_us = 3000

    def a_ms_later():
        us[0] += 1000

    box, tab, view = linked(hal, clock, before=a_ms_later)  # link up: grants read 1 ms after the previous read
    assert box.view.known and box.view.turn == SEAT
    for _ in range(3):  # linked: every grant in time is answered (a heartbeat at least)
        us[0] += 1000
        assert grant(box, tab, clock)
    box.step(0)
    us[0] += 4000  # a long turn (a page to the OLED): the grant may have waited 4 ms
    assert grant(box, tab, clock) == b""
    assert box.late_grants == 1
    us[0] += 500  # the next grant, read at once: answered
    assert grant(box, tab, clock)


def test_a_grant_that_comes_while_the_box_draws_is_answered_before_the_picture_is_done():
    # On the chip composing the picture takes longer than a grant may wait for its reply
    # (SPEC.md section 1: 5 ms), and the call drawn as SENDING falls on a grant as often as
    # not: on a bus the draw serves the line between its parts (render.Frame.between), so the
    # grant is answered before the picture goes to the display, not at the next loop turn.
    clock = Clock()
    hal = Hal(clock)
    box, tab, view = linked(hal, clock)
    assert box.view.known and grant(box, tab, clock)  # linked, nothing due: a plain grant
    fr = box.frame
    status = fr._status
    shown = []

    def status_as_a_grant_comes(*args):
        clock.t += 1
        hal.serial.rx += bytes(tab.output(clock.t, True))  # the grant, mid-draw
        return status(*args)

    def frame(f, mask):
        shown.append(bytes(hal.serial.tx))  # what the box had written when the picture was done

    fr._status = status_as_a_grant_comes
    hal.display.frame = frame
    box.dirty = True
    box.step(0)
    assert len(shown) == 1, "no redraw"
    assert shown[0], "the grant waited for the next loop turn"
    tab.receive(bytes(hal.serial.tx), clock.t)
    assert not hal.serial.rx and box.late_grants == 0


class _Panel:
    """hal_rp2.Display on SPI as the app sees it: a redraw's changed pages go in one write
    (`whole`), `between` is called after each write of a push (hal_rp2.Hal sets it to the
    keypad's scan), and the write takes WRITE_US of the chip's time; `during` runs in it."""

    wants_lines = False
    failed = False
    whole = True
    WRITE_US = 1300  # 1 KB at 8.9 MHz and the write's Python, on the emulated chip

    def __init__(self, us, log):
        self.us = us
        self.log = log
        self.between = None
        self.pending = 0
        self.during = None

    def frame(self, fr, mask):
        self.pending |= mask

    def indicate(self, turn, stop, alert, link):
        pass

    def push(self, every=False):
        if not self.pending:
            return
        self.pending = 0
        self.us[0] += self.WRITE_US
        if self.during is not None:
            self.during()
        self.log.append("write")
        if self.between is not None:
            self.between()


def test_a_grant_that_comes_while_the_redraw_goes_to_the_panel_is_answered_right_after_the_write():
    # On a bus over SPI a redraw's pages go to the panel in one write (1.3 ms on the chip). A
    # grant that comes during it is read after it, and the box bounds its age by the read
    # before the write (app.BoxApp.serve, late_us: the UART keeps no arrival time). With the
    # keypad scanned between that read and the write and again after the write (0.9 ms each
    # while a key moves, on the chip), that bound passed 3 ms and the box let the grant pass
    # (on the emulated bus most of the grants let pass). The line is now read right before the
    # write and right after it, the keypad outside the two.
    clock = Clock()
    us = [0]
    log = []
    slow = [False]

    class SlowHal(Hal):
        def scan(self):
            if slow[0]:
                us[0] += 900  # a key moving: the matrix's bookkeeping
            log.append("scan")

    hal = SlowHal(clock)
    hal.ticks_us = lambda: us[0]
    hal.late_us = 3000
    hal.display = _Panel(us, log)
    hal.display.between = hal.scan  # as hal_rp2.Hal does
    box, tab, view = linked(hal, clock)
    assert box.push_all is not None
    assert box.view.known and grant(box, tab, clock)  # linked, nothing due: a plain grant
    write = hal.serial.write

    def reply(data):
        log.append("reply")
        return write(data)

    hal.serial.write = reply

    def grant_on_the_line():
        clock.t += 1
        hal.serial.rx += bytes(tab.output(clock.t, True))

    hal.display.during = grant_on_the_line
    box.key(K.L1, clock.t)  # a level keyed: the call line changes, the picture is pushed
    slow[0] = True
    del log[:]
    box.step(0)
    assert "write" in log, "no push"
    assert box.late_grants == 0 and hal.serial.tx, "the grant that came during the write was let pass"
    after = log[log.index("write") + 1:]
    assert after[0] == "reply", "the keypad was scanned before the grant was answered: " + str(log)
    tab.receive(bytes(hal.serial.tx), clock.t)


class _Trickle(Wire):
    """A bus line that is never quiet: each read of the UART finds 8 more bytes (the other
    boxes' STATEs go out back to back after this box's, SPEC.md section 1, at 11.5 bytes a ms,
    and a read of the box's takes longer than a byte's wire time)."""

    def readinto(self, buf):
        return Wire.readinto(self, memoryview(buf)[:8])


def test_a_box_on_a_bus_applies_its_state_while_the_other_boxes_states_are_still_on_the_line():
    # The tablet sends a new state's four STATEs back to back (SPEC.md section 1). A box whose
    # STATE came first used to read on until the line went quiet (the three STATEs after its
    # own, about 10 ms on the wire) before it applied and drew its own: the first box on the
    # line was the last to show the call. Read once the UART is drained, it applies at once.
    clock = Clock()
    hal = Hal(clock)
    box, tab, view = linked(hal, clock)
    assert box.view.known and box.view.n == 2
    view = dict(view)
    view["turn"] = "W"
    view["auction"] = VIEW["auction"] + [{"call": "1S", "alert": False, "stop": False}]
    tab.set_view(view)
    clock.t += 1
    mine = bytes(tab.output(clock.t, True))
    assert mine[1] != 0, "not a STATE"
    others = b""
    body = payloads(mine)[0]
    for seat in (3, 0, 1):  # the same STATE to the other seats
        p = bytearray(body[:-2])
        p[0] = seat
        c = crc16(p, 0, len(p))
        others += wire_from_payload(bytes(p) + bytes((c >> 8, c & 0xFF)))
    hal.serial = _Trickle()
    hal.serial.rx = bytearray(mine + others)
    left = []  # the line's bytes not read yet when the box applied its STATE
    apply = box.apply_state

    def applied(now):
        left.append(len(hal.serial.rx))
        apply(now)

    box.apply_state = applied
    steps = 0
    while box.view.n != 3:
        steps += 1
        assert steps < 100, "the STATE was never applied"
        box.step(0)
    read = len(others) - left[0]
    assert box.renders and left[0] >= len(others) // 2, (
        "applied only after " + str(read) + " of the other boxes' " + str(len(others)) + " bytes")
    while hal.serial.rx:  # the rest of the line is read all the same
        box.step(0)
    assert box.view.n == 3 and not hal.serial.tx, "a box spoke without a grant"


def test_a_grant_split_over_two_reads_is_answered_in_the_read_that_ends_it():
    # A box that stops reading once the UART is drained must not stop in the middle of a frame
    # that may be its grant: the grant's age counts from before its first byte (app.serve,
    # late_us), so its end read a long step later would be too old to answer on the chip.
    clock = Clock()
    hal = Hal(clock)
    box, tab, view = linked(hal, clock)
    assert box.view.known and grant(box, tab, clock)  # linked, nothing due: a plain grant
    clock.t += 1
    ping = bytes(tab.output(clock.t, True))
    assert len(ping) > 8
    hal.serial = _Trickle()
    hal.serial.rx = bytearray(ping)
    box.serve(clock.t)
    assert not hal.serial.rx and hal.serial.tx, "the grant's end was left for a later read"


class _QuietWire:
    """The UART for counting the box's own allocations: fixed buffers, copies byte by byte."""

    def __init__(self):
        self.rx = bytearray(64)
        self.n = 0
        self.i = 0
        self.tx = bytearray(256)
        self.k = 0
        self.f = self

    def feed(self, data):
        for j in range(len(data)):
            self.rx[j] = data[j]
        self.n = len(data)
        self.i = 0

    def readinto(self, buf):
        n = self.n - self.i
        if n > len(buf):
            n = len(buf)
        for j in range(n):
            buf[j] = self.rx[self.i + j]
        self.i += n
        return n

    def write(self, data):
        for j in range(len(data)):
            self.tx[self.k + j] = data[j]
        self.k += len(data)
        return len(data)


def test_an_idle_box_on_a_bus_answers_its_grants_without_making_garbage():
    # Alone on the line the box is granted back to back, and a collection (about 4.5 ms on the
    # chip) costs it the grant that comes meanwhile (SPEC.md section 1: the reply starts within
    # 5 ms or not at all). So it collects only garbage it has made (app.after_reply), and an
    # idle box answers grants without making any.
    import gc

    clock = Clock()
    hal = Hal(clock)
    box, tab, view = linked(hal, clock, 40)
    assert box.view.known and grant(box, tab, clock)
    grants = []
    for _ in range(8):  # the tablet's next grants, replayed below (a grant carries no number)
        clock.t += 1
        grants.append(bytes(tab.output(clock.t, True)))
    w = _QuietWire()
    hal.serial = w
    mem = getattr(gc, "mem_alloc", None)
    gc.collect()
    gc.disable()
    try:
        grew = 0
        answered = 0
        for k in range(400):
            g = grants[k % 8]
            w.feed(g)
            w.k = 0
            clock.t += 5
            before = mem() if mem else 0
            box.step(0)
            grew += (mem() if mem else 0) - before
            if w.k:
                answered += 1
    finally:
        gc.enable()
    assert answered == 400, answered
    assert grew == 0, grew


class _CountingGc:
    """app's `gc` for a check: counts collections."""

    def __init__(self):
        self.collected = 0

    def collect(self):
        self.collected += 1


def test_a_box_on_a_bus_collects_only_garbage_it_has_made():
    # Alone on the line the box is granted back to back, and a collection after its reply
    # (about 4.5 ms on the chip) held the next grant past the 5 ms its reply may start in
    # (SPEC.md section 1): an idle box let a grant pass every GC_BUS_MS. It makes no garbage
    # while idle (the check above), so it collects only after a STATE or a key has made some.
    clock = Clock()
    us = [0]
    hal = Hal(clock)
    hal.ticks_us = lambda: us[0]
    hal.late_us = 3000  # the rp2 backend's: on a bus the box collects after a reply
    box = A.BoxApp(hal, SEAT, True)
    tab = TabletEndpoint(SEAT, 0x5151, clock.t)
    view = dict(VIEW)
    view["turn"] = "E"  # not the box in turn (which collects at most every GC_TURN_MS)
    tab.set_view(view)
    real = A.gc
    fake = _CountingGc()
    A.gc = fake

    def grants(n, ms, answered=True):
        for _ in range(n):
            clock.t += ms
            us[0] += 1000
            assert grant(box, tab, clock) or not answered  # (a STATE is no grant)

    try:
        for _ in range(40):
            us[0] += 1000
            grant(box, tab, clock)
        assert box.view.known and not box.ep.q_count
        grants(30, 9)  # the garbage of linking up (its STATE) collected
        assert fake.collected == 1
        grants(100, 9)  # a second of grants, 10 ms apart, nothing made: no collection
        assert fake.collected == 1
        view["message"] = "board 8 next"  # a new STATE: collected after a reply
        tab.set_view(view)
        grants(20, 9, False)
        assert box.view.msg == "board 8 next" and fake.collected == 2
        grants(100, 9)  # and not again until more is made
        assert fake.collected == 2 and box.late_grants == 0
    finally:
        A.gc = real
