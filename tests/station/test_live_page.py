"""The spectators' page in real Chromium (headless) with the organiser's delay: a real tablet
controller delivers each call through its outbox; no call is shown before the delay has passed
since it was made (on the push stream and on the page), and every call is shown after it, the
alert marked; an irregularity and the TD's ruling are marked with the call. No speed is asserted: waits have hang-guard deadlines, and the one check that
depends on the clock (the page loaded before a call's delay ended does not show it) is made only
when the page really was read before that moment."""
from __future__ import annotations

import re
import time

import pytest

from tablet_app.controller import Controller
from tablet_app.outbox import Deliverer

from .conftest import EVENT, Chromium, StationProcess
from .live_play import Spectator, calls_of, play_auction

pytestmark = pytest.mark.server  # starts the results station as a process

DELAY_S = 6.0


def page_calls(chromium: Chromium, url: str) -> tuple[list[str], float]:
    """The calls the page shows (each cell's text, `*` on an alerted call) and when the browser
    had finished reading it."""
    dom = chromium.dump_dom(url)
    done = time.time()
    return re.findall(r'<td class="call[^"]*"[^>]*>([^<]*)</td>', dom), done


def test_the_page_shows_every_call_after_its_delay_and_none_before(tmp_path, chromium):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path,
                        extra=["--live", "--live-delay-seconds", str(DELAY_S)]).start()
    ctl = Controller(tmp_path / "t1.db")
    d = None
    spectator = Spectator(st.live_port).start()
    try:
        ctl.setup({"event": EVENT, "section": "A", "table": 1, "round": 1, "ns_pair": 1, "ew_pair": 2,
                   "profile": "dbf-2017", "policy": "record", "td_pin": "1234", "boards": [1, 2]})
        d = Deliverer(str(tmp_path / "t1.db"), st.url, f"{EVENT}/A/1", st.keys[f"{EVENT}/A/1"],
                      timeout=5, min_backoff=0.05, max_backoff=0.4).start()
        # A moment after each commit, with the calls made by then: the controller calls its
        # listeners after the commit, this one before the pump's wake, so each stamp is before the
        # station can have received what was committed (the delay runs from the station's receipt).
        # A stamp taken when the table's thread got back from the call would not be: on a busy
        # machine the pump can send the call while that thread is still at its alert.
        committed: list[tuple[float, int]] = []
        ctl.listeners.append(lambda: committed.append((time.time(), len((ctl.estate or {}).get("calls") or []))))
        ctl.listeners.append(d.wake)
        before: list[float] = []    # a moment before each call was keyed
        early: list[tuple[list[str], float]] = []

        def made(i, seat, call):
            before.append(stamp[0])
            if i == 0:
                early.append(page_calls(chromium, f"{st.url}/live/"))
            stamp[0] = time.time()

        stamp = [time.time()]
        auction = play_auction(ctl, 1, "1NTX", alert_first=True, on_call=made)
        assert d.drain(30), d.last_error
        spectator.wait(lambda s: any(len(c) == len(auction) for _, c in calls_of(s, "A1", 1)),
                       timeout=DELAY_S + 60, what="every call")
        # The stream: each call first arrived at least the delay after it was made.
        for i in range(len(auction)):
            made_at = min(t for t, n in committed if n > i)  # the commit of call i
            first = min(t for t, calls in calls_of(spectator, "A1", 1) if len(calls) > i)
            assert first - made_at >= DELAY_S, (i, first - made_at)
        # The page read before the first call's delay had passed does not show it.
        calls, read_at = early[0]
        print(f"page read {read_at - before[0]:.1f} s after the first call was keyed (delay {DELAY_S} s)")
        if read_at < before[0] + DELAY_S:
            assert calls == [], calls
        # The page now shows every call, the alerted opening bid marked.
        calls, _ = page_calls(chromium, f"{st.url}/live/")
        assert calls == ["1NT*", "X", "Pass", "Pass", "Pass"], calls
        assert [c for _, c, _ in auction] == ["1NT", "X", "P", "P", "P"]
    finally:
        spectator.stop()
        if d is not None:
            d.stop()
        ctl.close()
        st.stop()


def test_2017_L27_an_insufficient_bid_and_its_ruling_are_marked_on_the_page(tmp_path, chromium):
    """The TD's ruling at the table (East's insufficient bid accepted, 2017 L27A1) reaches the
    spectators with the call: on the stream with its Law, on the page in Chromium as a mark."""
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=["--live"]).start()
    ctl = Controller(tmp_path / "t1.db")
    d = None
    spectator = Spectator(st.live_port).start()
    try:
        ctl.setup({"event": EVENT, "section": "A", "table": 1, "round": 1, "ns_pair": 1, "ew_pair": 2,
                   "profile": "dbf-2017", "policy": "record", "td_pin": "1234", "boards": [1]})
        d = Deliverer(str(tmp_path / "t1.db"), st.url, f"{EVENT}/A/1", st.keys[f"{EVENT}/A/1"],
                      timeout=5, min_backoff=0.05, max_backoff=0.4).start()
        ctl.listeners.append(d.wake)
        ctl.choose_board(1)
        assert ctl.box_event("N", "call", call="1NT")["ok"]
        ctl.box_event("E", "call", call="1S")  # insufficient: the table stops for the TD
        ctl.td_decide("1234", "accept")          # L27A1: South accepts it
        assert ctl.box_event("S", "call", call="P")["ok"]
        assert d.drain(30), d.last_error
        spectator.wait(lambda s: any(len(c) == 3 for _, c in calls_of(s, "A1", 1)), what="the calls after the ruling")
        view = [v for _, v in spectator.boards() if v["table"] == "A1" and len(v["calls"]) == 3][-1]
        [irr] = view["irregularities"]
        assert irr["kind"] == "insufficient_bid" and irr["seat"] == "E" and irr["call"] == "1S", irr
        assert irr["law"] == "2017 L27" and irr["resolution"] == "accepted", irr
        dom = chromium.dump_dom(f"{st.url}/live/")
        marks = re.findall(r'<div class="irregularity">([^<]*)</div>', dom)
        assert marks == ["Irregularity: insufficient bid by East (1\u2660), accepted [2017 L27]"], marks
        assert re.findall(r'<td class="call[^"]*"[^>]*>([^<]*)</td>', dom) == ["1NT", "1\u2660", "Pass"]
    finally:
        spectator.stop()
        if d is not None:
            d.stop()
        ctl.close()
        st.stop()
