"""Calls keyed as fast as the boxes allow, the way the tablet latency bench keys them (`python -m
bench tablet`): the selection, 20 ms later OK, and the next seat's call as soon as its box shows
its turn. That bench stopped with "a box did not show the call in 5 s" after 10-40 calls and a
call was feared lost between a box and the journal (the box showed "sent" and nothing in flight).
Every call made must reach the journal exactly once, in order, and show on all four boxes."""
import random
import time

import pytest

from hardware.sim.boxes import ScreenWatch
from hardware.sim.table import tokens
from shared_rules.types import SEATS

pytestmark = pytest.mark.micropython

N_CALLS = 200


def journalled_calls(t):
    with t.lock:
        recs = t.ctl.journal.verified()
    made = [(b["ev"]["seat"], b["ev"]["call"], b["box"]["epoch"], b["box"]["seq"])
            for _, kind, b in recs if kind == "event" and b.get("box") and b["ev"].get("call")]
    refused = [b for _, kind, b in recs if kind == "refused"]
    return made, refused


def all_show(t, n, timeout=60.0):  # the limit only ends a hang
    """Every box's screen shows n calls, watched as the bench watches them (ScreenWatch)."""
    watch = {s: ScreenWatch(t.boxes.boxes[s].screen_file) for s in SEATS}
    pending = set(SEATS)
    deadline = time.monotonic() + timeout
    while pending:
        for s in list(pending):
            sc = watch[s].poll()
            if sc is None:
                sc = watch[s].screen
            if len(sc.calls) == n:
                pending.discard(s)
        if time.monotonic() > deadline:
            raise TimeoutError(f"boxes {sorted(pending)} do not show {n} calls: "
                               f"{ {s: t.boxes.screen(s).text for s in pending} }")
        time.sleep(0.0005)


def test_forty_calls_keyed_at_box_speed_each_reach_the_journal_once(table):
    t = table(policy="record", boards=list(range(1, 33)))
    rng = random.Random(3)
    keyed: list[tuple[str, str]] = []
    while len(keyed) < N_CALLS:
        with t.lock:
            st, phase = t.ctl.estate, t.ctl.phase
            if phase == "play":
                # the result of a finished board, so the next one comes to the boxes
                t.ctl.enter_result(None if st.get("status") == "passed_out" else 7)
                t.ctl.ew_confirm(True)
                continue
        assert phase == "auction" and st["next"], (phase, st.get("status"))
        seat, n = st["next"], len(st["calls"])
        t.boxes.wait_screen(seat, lambda sc, n=n: sc.status == "YOUR TURN" and len(sc.calls) == n, 60)
        bids = [c for c in st["legal_calls"] if c not in ("P", "X", "XX")]
        call = "P" if (n >= 8 or not bids or rng.random() < 0.4) else bids[rng.randrange(min(3, len(bids)))]
        keys = tokens(call)
        t.boxes.press(seat, keys[:-1])
        time.sleep(0.02)  # the thing tested: a player's pace, OK a moment after the call's keys
        t.boxes.press(seat, keys[-1])
        keyed.append((seat, call))
        all_show(t, n + 1)
        t.wait(lambda c, n=n: c.phase != "auction" or len(c.estate["calls"]) == n + 1,
               what=f"{seat} {call} applied")
    made, refused = journalled_calls(t)
    assert refused == []
    assert [(s, c) for s, c, _, _ in made] == keyed
    # one journal record per box event: no (epoch, seq) twice
    assert len({(s, e, q) for s, _, e, q in made}) == len(made)
