"""The bus master's timing on a clock it does not own (hardware/sim/virtual_bus.py): the real
LinkMaster and the protocol's box endpoints on an RS-485 line in virtual time, every byte with
its wire time, a box turnaround and the USB bridge's latency timer. The clock moves only when
the master has settled (LinkMaster.settled), so what is asserted here does not depend on how
the machine schedules threads: nobody talks over anybody, a box talks only when granted, the
poll schedule of SPEC.md section 1."""
import time

import pytest

from hardware.sim.virtual_bus import VirtualBus
from protocol import calls
from protocol import messages as M
from protocol.layout import FROM_BOX

SEATS = "NESW"


def _grant(p: bytes) -> bool:
    return not p[0] & FROM_BOX and p[1] != M.STATE  # a STATE is no grant


def unasked(frames):
    """Box frames no grant to that box asked for (a box answers each grant at most once)."""
    owed = dict.fromkeys(SEATS, 0)
    out = []
    for _, _, who, p in frames:
        if who == "tablet":
            if _grant(p):
                owed[SEATS[p[0] & 3]] += 1
        elif owed[who]:
            owed[who] -= 1
        else:
            out.append(who)
    return out


class Table:
    """The application: after each call, the next seat's turn in every box's view."""

    def __init__(self, bus):
        self.bus = bus
        self.calls = []
        bus.on_events = self.events
        self.push()

    def push(self):
        turn = SEATS[len(self.calls) % 4]
        self.bus.master.send_states({s: {"turn": turn, "auction": [{"call": c} for _, c in self.calls[-8:]]}
                                     for s in SEATS}, commit=True)

    def events(self, evs):
        got = [(e.seat, e.call) for e in evs if e.kind == "call"]
        self.calls += got
        if got:
            self.push()


def auction(bridge_ms, n=24):
    bus = VirtualBus(bridge_ms=bridge_ms)
    table = Table(bus)
    t = 0.3
    bus.run_until(t)
    want = []
    for i in range(n):
        seat = SEATS[i % 4]
        call = calls.NAMES[3 + i]
        bus.boxes[seat].submit(M.CALL, calls.code(call), bus.clock.ticks_ms())
        want.append((seat, call))
        t += 0.15
        bus.run_until(t)
    return bus, table, want


@pytest.mark.parametrize("bridge_ms", [1.0, 16.0])
def test_nobody_talks_over_anybody_and_every_call_arrives_once_in_order(bridge_ms):
    """Behind the bridge at 1 ms (the tablet sets it) and at the FT231X's 16 ms default: a reply
    the bridge holds past its grant's window must not pass for the reply to the next grant to the
    same box (the master would grant the next box while this one answers)."""
    bus, table, want = auction(bridge_ms)
    try:
        frames = bus.frames()
        assert bus.collisions == [], f"{len(bus.collisions)} collisions, the first {bus.collisions[0]}"
        assert unasked(frames) == []
        assert table.calls == want
        assert len(frames) > 400
    finally:
        bus.close()


def test_the_seat_in_turn_is_granted_every_other_time_and_the_others_in_rotation():
    bus = VirtualBus(bridge_ms=1.0)
    try:
        bus.master.send_states({s: {"turn": "S"} for s in SEATS})
        bus.run_until(0.5)
        grants = [SEATS[p[0] & 3] for t, _, who, p in bus.frames() if who == "tablet" and _grant(p) and t > 0.1]
        assert len(grants) > 60
        assert all((x == "S") != (y == "S") for x, y in zip(grants, grants[1:], strict=False)), "".join(grants)
        for k in range(len(grants) - 5):
            assert set(grants[k:k + 6]) == set(SEATS), "".join(grants)
    finally:
        bus.close()


def test_settled_names_the_end_of_the_reply_window_and_the_next_grant_comes_then():
    """With West absent, the master waits out West's window (7.5 ms after the grant's last byte)
    and grants the next box at that very time, not when its thread next wakes."""
    bus = VirtualBus(bridge_ms=1.0, silent="NES")
    try:
        bus.settle()
        port = next(iter(bus.master._ports.values()))
        first = [f for f in bus.frames() if f[2] == "tablet"]
        assert first and port.waiting is not None
        due = bus.settle()
        assert due == pytest.approx(bus.line[-1][1] + 0.0075)
        bus.clock.t = due
        bus.master.wake()
        bus.settle()
        assert bus.line[-1][0] == pytest.approx(due) and bus.line[-1][2] == "tablet"
    finally:
        bus.close()


def test_a_clock_standing_at_an_absent_seats_due_time_gets_that_seat_granted():
    """An absent seat is granted again BUS_ABSENT_S after its last grant (SPEC.md section 1, poll
    schedule), and `settled()` names that time: at exactly that time the master grants it. A
    clock that stands there (the emulated table's, when the tablet's work is counted as taking
    no time) once found the seat not yet grantable, by a rounding in `now - last >= 0.1` where
    `settled()` had summed `last + 0.1`, and the master neither granted nor settled."""
    from tablet_app.link.master import BUS_ABSENT_S

    bus = VirtualBus(bridge_ms=1.0, silent="NESW")
    try:
        bus.run_until(0.05)  # the first grants, every window closed
        m = bus.master
        port = next(iter(m._ports.values()))
        # a last grant at which the two sums differ (found, so the case is there whatever T0 is)
        # (none in [1, 4) s, many in [4, 8) s)
        last = next(x for x in (bus.clock.t + k * 1e-3 for k in range(1, 100_000))
                    if (x + BUS_ABSENT_S) - x < BUS_ABSENT_S)
        with m._lock:
            port.waiting = None
            port.last_grant = dict.fromkeys(SEATS, last)
        bus.clock.t = last
        due = bus.settle()
        assert due == last + BUS_ABSENT_S
        n = len(bus.line)
        bus.clock.t = due
        m.wake()
        bus.settle()
        assert len(bus.line) > n and bus.line[-1][0] == due and bus.line[-1][2] == "tablet"
    finally:
        bus.close()


def test_on_a_clock_that_stands_while_the_link_waits_it_looks_only_when_woken():
    """A clock whose owner wakes the link when its time comes (`tick_s` None, WallClock: the
    emulated table's in lockstep, hardware/emu/lockstep.py) stands while the link waits, so the
    link thread takes no turn on a timer of the machine's: that clock counts the turns' CPU as
    the tablet's time, for nothing having happened (it put the tablet ahead of the chips by as
    much as a loaded machine made a stop last, past a reply window whose reply still lay in the
    USB bridge). And when the clock passes the link's due time while it waits (another thread's
    work), `settled()` wakes it: the next grant goes at that time."""
    bus = VirtualBus(bridge_ms=1.0, silent="NESW")
    try:
        bus.clock.tick_s = None
        m = bus.master
        turns = []
        flush = m._flush_output

        def counted():
            turns.append(bus.clock.t)
            flush()

        m._flush_output = counted
        bus.run_until(0.02)  # a grant whose window is open
        due = bus.settle()
        assert next(iter(m._ports.values())).waiting is not None
        n = len(turns)
        time.sleep(0.3)  # what the link thread does meanwhile, of its own accord: nothing
        assert len(turns) == n, f"{len(turns) - n} turns on the machine's timer"
        lines = len(bus.line)
        bus.clock.t = due + 0.001  # passed while it waited, and nobody woke it
        bus.settle()
        assert len(bus.line) > lines and bus.line[-1][0] == bus.clock.t
        assert bus.line[-1][2] == "tablet"
    finally:
        bus.close()


def test_an_event_answered_with_no_new_view_leaves_the_link_no_busy_wait():
    """A box's event holds the next grant BUS_APP_S for the application's STATEs (they then go
    first). When the application sends none (it took the event with no new view), the passed
    hold must not make the link thread look again at once: it did, a wait of 0 on every turn
    until the next STATE, a core burnt on a real hub and, on the emulated table in lockstep,
    the tablet's clock run on by those turns' CPU (hardware/emu/lockstep.py)."""
    from tablet_app.link.master import TICK_S

    bus = VirtualBus(bridge_ms=1.0)  # on_events: the application sends no view
    try:
        bus.run_until(0.3)
        bus.boxes["N"].submit(M.CALL, calls.code("1C"), bus.clock.ticks_ms())
        bus.run_until(0.35)
        assert [e.call for _, e in bus.events if e.kind == "call"] == ["1C"]
        m = bus.master
        port = next(iter(m._ports.values()))
        with m._lock:
            assert 0 < port.hold_until < bus.clock.t  # the event's hold, passed, no STATE after
            wait = m._select_timeout()
            window = port.wait_until - bus.clock.t if port.waiting is not None else TICK_S
        assert wait == min(TICK_S, window) and wait > 0
    finally:
        bus.close()
