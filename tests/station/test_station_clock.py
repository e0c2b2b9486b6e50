"""The station stamps what happens (an item received, the scoring program's poll and accept of the
Data Connector, shown on the director page) with the clock everyone else reads: a stamp taken
after a clock read is never a second before it."""
from __future__ import annotations

import calendar
import time

from station.store import utc_now


def stamped() -> int:
    return calendar.timegm(time.strptime(utc_now(), "%Y-%m-%dT%H:%M:%SZ"))


def test_a_stamp_taken_after_a_clock_read_is_never_a_second_before_it():
    """C's time(NULL) (what time.gmtime() reads with no argument) is the kernel's coarse clock,
    which lags the clock of time.time() and datetime.now() by up to a timer tick (a few ms): in
    the first milliseconds of a second it still says the second before. So the loop reads both
    clocks across a second's start, and counts only a crossing it saw within 3 ms of that start
    (a busy machine that kept it away longer has it try the next second)."""
    for _ in range(300):  # the limit only ends a hang: one of the first few crossings does on any machine
        start = int(time.time()) + 1
        time.sleep(max(0.0, start - 0.01 - time.time()))  # not the thing tested: spares the CPU until then
        seen_early = False
        while (before := time.time()) < start + 0.01:
            assert stamped() >= int(before), (utc_now(), before)
            seen_early |= start <= before < start + 0.003
        if seen_early:
            return
    raise AssertionError("never read the clock within 3 ms of a second's start")
