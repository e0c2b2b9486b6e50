"""The one clock of the emulated table (hardware/emu/lockstep.py), without the emulator: the
tablet's time during a stop is the CPU time its threads use, not the wall's; a stop ends only
when the tablet has settled, with the chips sent on to the tablet's next due time; a driver's
pin and bytes still on their way hold the chips. Waits here only guard against a hang."""
import threading
import time

import pytest

from hardware.emu.lockstep import OneClock

HANG_S = 60


class FakeTablet:
    def __init__(self):
        self.due: float | None = None  # what settled() says
        self.workers: list[threading.Thread] = []
        self.woken = 0

    def settled(self):
        return self.due

    def threads(self):
        return self.workers

    def wake(self):
        self.woken += 1


class Lines:
    """What the clock sends to the emulator (a stand-in: no chip runs here)."""

    def __init__(self):
        self.sent: list[str] = []
        self.cv = threading.Condition()

    def __call__(self, line):
        with self.cv:
            self.sent.append(line)
            self.cv.notify_all()

    def wait_for(self, pred):
        with self.cv:
            assert self.cv.wait_for(lambda: pred(self.sent), HANG_S), self.sent


@pytest.fixture
def clock():
    lines, tablet = Lines(), FakeTablet()
    one = OneClock(lines, lambda: 0)
    one.attach(tablet)
    yield one, tablet, lines
    one.close()


def burn(go, cpu_ns, done, used):
    """A tablet thread: when told, use this much CPU, say how much it used, then wait."""
    go.wait(HANG_S)
    t0 = time.thread_time_ns()
    while time.thread_time_ns() - t0 < cpu_ns:
        sum(range(200))
    used.append(time.thread_time_ns() - t0)
    done.wait(HANG_S)


def test_the_tablets_time_in_a_stop_is_its_threads_cpu_not_the_wall(clock):
    one, tablet, _ = clock
    go, done, used = threading.Event(), threading.Event(), []
    w = threading.Thread(target=burn, args=(go, 30_000_000, done, used))
    w.start()
    tablet.workers.append(w)
    one.stopped_at(5_000, "bridge")
    go.set()
    while not used:
        time.sleep(0.001)
    try:
        t1 = one.now_us()
        time.sleep(0.05)  # wall time passes, the tablet does nothing: its clock stands
        t2 = one.now_us()
        assert t1 - 5_000 == pytest.approx(used[0] / 1000, abs=2_000)
        assert t2 - t1 < 1_000
    finally:
        done.set()
        w.join()


def test_a_stop_ends_when_the_tablet_has_settled_and_the_chips_run_to_its_due_time(clock):
    one, tablet, lines = clock
    one.stopped_at(7_000, "due")
    assert tablet.woken == 1  # the tablet is told to look at its clock
    time.sleep(0.02)  # the thing tested: real time passes, and nothing may release the chips
    assert "A" not in " ".join(lines.sent)  # busy: the chips stand
    tablet.due = 0.0123
    lines.wait_for(lambda s: "A 12300" in s)
    assert not one.standing()
    assert one.now_us() == one.stops[-1].at_us + one.stops[-1].used_us  # it stands between stops
    # a stop at a chip time before where the tablet's clock stands starts from its clock
    one.stopped_at(6_000, "bridge")
    assert one.now_us() >= 7_000


def test_bytes_still_on_their_way_and_a_drivers_pin_hold_the_chips(clock):
    one, tablet, lines = clock
    tablet.due = 1.0
    one.stopped_at(1_000, "bridge", ready=False)  # a Y line: its bytes not yet on the tablet's line
    time.sleep(0.02)  # the thing tested: real time passes, and nothing may release the chips
    assert not any(x.startswith("A") for x in lines.sent)
    one.stopped_at(1_000, "bridge")  # the emulator's "H ... bridge" line: all handed over
    lines.wait_for(lambda s: s and s[-1] == "A 1000000")

    def answer():  # the emulator stops the chips for the pin
        lines.wait_for(lambda s: s and s[-1].startswith("B "))
        one.stopped_at(2_000, "driver", int(lines.sent[-1].split()[1]))

    threading.Thread(target=answer).start()
    with one.pinned():
        assert one.standing()
        time.sleep(0.02)  # the thing tested: real time passes, and the pin holds the chips
        assert lines.sent[-1].startswith("B ")  # settled, but pinned: no release
    lines.wait_for(lambda s: s and s[-1] == "A 1000000")


def test_a_stops_record_says_which_thread_the_tablets_time_went_to_and_how_far_ahead_it_stood(clock):
    one, tablet, lines = clock
    go, done, used = threading.Event(), threading.Event(), []
    w = threading.Thread(target=burn, args=(go, 20_000_000, done, used), name="the-link")
    w.start()
    tablet.workers.append(w)
    try:
        one.stopped_at(5_000, "bridge")
        go.set()
        while not used:
            time.sleep(0.001)
        tablet.due = 1.0
        lines.wait_for(lambda s: "A 1000000" in s)
        first = one.stops[-1]
        assert first.ahead_us == 0  # the chips stopped where the tablet's clock stood
        assert first.by_thread["the-link"] == pytest.approx(used[0] / 1000, abs=2_000)
        assert sum(first.by_thread.values()) == pytest.approx(first.used_us, abs=2_000)
        # the chips hand it bytes before its clock (5 ms + its 20 ms of work): it starts from there
        tablet.due = None
        one.stopped_at(10_000, "bridge")
        tablet.due = 2.0
        lines.wait_for(lambda s: "A 2000000" in s)
        assert one.stops[-1].ahead_us == first.at_us + first.used_us - 10_000
    finally:
        done.set()
        w.join()
