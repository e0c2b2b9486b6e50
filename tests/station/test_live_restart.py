"""The live feed across a station kill: a spectator's browser that reconnects with the event
number it had before the restart still gets every new call (the numbers of a new run never fall
below an earlier run's, even when the organiser restarts with fewer tables shown), and a call
received before the kill is still not shown before its delay has passed. No speed is asserted:
waits have hang-guard deadlines; the delay check is a lower bound, which a busy machine only
makes easier to meet."""
from __future__ import annotations

import time

import pytest

from .conftest import StationProcess
from .live_play import Spectator, calls_of
from .test_live_feed import event_item

pytestmark = pytest.mark.server  # starts the results station as a process

ONE = {"seat": "N", "call": "1C", "alerted": False, "stop": False, "think": 2.0}
PASS = {"seat": "E", "call": "P", "alerted": False, "stop": False, "think": 1.0}


def calls(n: int) -> list[dict]:
    """The first n calls of an auction: North's 1C, then passes round the table."""
    seats = "NESW"
    return [ONE] + [{**PASS, "seat": seats[i % 4]} for i in range(1, n)]


def test_a_spectator_reconnecting_after_a_restart_with_fewer_tables_shown_gets_the_next_call(tmp_path):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=["--live", "--live-tables", "A:1-2"]).start()
    # On the stream before the first call, so it sees each of table 2's changes (one who connects
    # later is given only each table's latest board, one event).
    spectator = Spectator(st.live_port).start().connected()
    try:
        # Table 2 makes many changes; table 1 one call.
        for n in range(1, 9):
            assert st.post_item("auction_event", event_item(n, calls(1 + (n - 1) % 4), None, screens=False,
                                                             table=2, board=1 + (n - 1) // 4))[0] == 201
        assert st.post_item("auction_event", event_item(1, calls(1), None, screens=False, table=1, board=1))[0] == 201
        spectator.wait(lambda s: calls_of(s, "A1", 1) and any(len(c) == 4 for _, c in calls_of(s, "A2", 2)),
                       what="both tables")
        assert [len(c) for _, c in calls_of(spectator, "A2", 2)] == [1, 2, 3, 4]  # each change, in turn
        before = int(spectator.last_id or 0)
        # The station is killed; the organiser starts it again showing table 1 only.
        st.kill()
        st.extra = ["--live", "--live-tables", "A:1"]
        st.start()
        assert st.post_item("auction_event", event_item(2, calls(2), None, screens=False, table=1, board=1))[0] == 201
        # The browser reconnected by itself with its last event number, from before the restart.
        spectator.wait(lambda s: any(len(c) == 2 for _, c in calls_of(s, "A1", 1)), what="the call after the restart")
        assert int(spectator.last_id or 0) > before
        late = [v["table"] for t, v in spectator.boards() if v["table"] == "A2" and v["calls"] and
                t > min(t for t, v in spectator.boards() if v["table"] == "A1" and len(v["calls"]) == 2)]
        assert late == []  # the table no longer shown is not sent again after the restart
    finally:
        spectator.stop()
        st.stop()


def test_a_call_received_before_a_kill_is_not_shown_before_its_delay_after_the_restart(tmp_path):
    delay = 5.0
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=["--live", "--live-delay-seconds", str(delay)]).start()
    spectator = None
    try:
        posted = time.time()
        assert st.post_item("auction_event", event_item(1, calls(1), None, screens=False, table=1, board=1))[0] == 201
        st.kill()  # at once: the call's delay has not passed
        st.start()
        restarted = time.time()
        spectator = Spectator(st.live_port).start()
        spectator.wait(lambda s: any(len(c) == 1 for _, c in calls_of(s, "A1", 1)), timeout=delay + 60,
                       what="the call after its delay")
        first = min(t for t, c in calls_of(spectator, "A1", 1) if len(c) == 1)
        print(f"restarted {restarted - posted:.1f} s after the post; shown {first - posted:.1f} s after it")
        assert first - posted >= delay
    finally:
        if spectator is not None:
            spectator.stop()
        st.stop()

