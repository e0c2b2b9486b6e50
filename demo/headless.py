"""The headless demo (`make run-headless`): a scripted session on the real parts, printed."""
from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from demo.common import HANG_S, PIN, ROOT, SCREEN_STILL_S, SEATS, demo_session, emulated_boxes, fresh_db
from demo.station import DemoStation, pbn_game
from shared_rules.types import OptionId


def headless(args: argparse.Namespace) -> int:
    from hardware.sim.boxes import Boxes
    from hardware.sim.link import SimLink
    from hardware.sim.table import tokens
    from tablet_app import i18n, present
    from tablet_app.controller import Controller
    from tablet_app.link import LinkMaster
    from tablet_app.link.master import WallClock
    from tablet_app.runner import RunnerThread, TableRunner

    work = ROOT / "build" / "demo"
    db = fresh_db(work)
    say = print
    on_chip = args.boxes == "rp2040"
    say(f"Headless demo: four {'emulated RP2040' if on_chip else 'MicroPython'} boxes on a "
        "simulated serial link, the tablet's controller, the laws engine (profile dbf-2017, "
        "record policy), the results station.\n")
    link: Any = None
    if on_chip:
        boxes: Any = emulated_boxes(work)
        ports = boxes.ports
    else:
        link = SimLink().start()
        boxes = Boxes(link.box_ports, work / "boxes", link=link)
        ports = link.tablet_ports
    master = None
    loop = None
    station = None
    try:
        station = DemoStation(work, db)
        say(f"Results station: {station.url} (director page {station.director_page})\n")
        if not on_chip:
            boxes.start()
        master = LinkMaster(ports, ack_on_commit=True, clock=getattr(boxes, "clock", WallClock))
        ctl = Controller(db)
        ctl.setup(demo_session("dbf-2017", "record"))
        runner = TableRunner(ctl, link=master)
        loop = RunnerThread(runner)
        # Every wait runs on the boxes' clock (the emulated chips' own time, slower than ours, or
        # the wall's): to the demo a box is as fast as it is. The limits only end a demo that hangs.
        box_clock = getattr(boxes, "clock", WallClock)
        # the unix port's screen file reads "N Bd1 DN V-", the chip's panel "N BOARD 1" and
        # "WAIT FOR TD" (its own words, hardware/display.md)
        board1 = "BOARD 1" if on_chip else "Bd1 "
        td_wait = "WAIT FOR TD" if on_chip else "DIRECTOR: wait"
        for s in SEATS:
            boxes.wait_screen(s, lambda sc: board1 in sc.text, timeout=HANG_S)

        def wait(pred: Any, what: str, timeout: float = HANG_S) -> None:
            end = box_clock.monotonic() + timeout
            while True:
                with loop.lock:
                    if pred(ctl):
                        return
                if box_clock.monotonic() > end:
                    raise TimeoutError(what)
                time.sleep(0.01)

        def turn_shown(seat: str) -> None:
            # the box holds the tablet's latest view (acknowledged) and shows that it is its turn:
            # read from the box's status line, which both box kinds show whole (the chip's
            # display shows only the latest round of the auction)
            boxes.wait_screen(seat, lambda sc: sc.status == "YOUR TURN" and master.state_acked(seat), HANG_S)

        def key(seat: str, call: str, note: str = "") -> None:
            turn_shown(seat)
            with loop.lock:
                before = ctl.journal.count()
            boxes.press(seat, tokens(call))
            wait(lambda c: c.journal.count() > before, f"{seat} {call}")
            say(f"  box {seat} keys {present.call_text(call)}{note}")

        def confirmed() -> dict[str, Any]:
            rec = ctl.ew_confirm(True)
            assert rec is not None  # East-West accepted: the result as queued
            return rec

        def table() -> None:
            with loop.lock:
                text = present.headless_table(ctl.snapshot())
            say("\n".join("    | " + line for line in text.splitlines()))

        def box_screen(seat: str, status: str) -> None:
            # The box acknowledges a STATE before it draws it, and the chip pushes a new frame
            # to its panel over some 25 ms of its own time (a few hundred ms of ours), the status
            # line first: wait for the acknowledged view's status, then for the panel to stand
            # still, so the print is the tablet's latest view whole.
            sc = boxes.wait_screen(seat, lambda sc: sc.status == status and master.state_acked(seat), HANG_S)
            since = box_clock.monotonic()
            end = since + HANG_S
            while box_clock.monotonic() - since < SCREEN_STILL_S and box_clock.monotonic() < end:
                time.sleep(0.05)
                again = boxes.screen(seat)
                if again.text != sc.text:
                    sc, since = again, box_clock.monotonic()
            say(f"  box {seat}'s display:")
            for line in sc.lines:
                say("    : " + line)

        say("== Board 1: a normal auction ==")
        for seat, call in [("N", "1H"), ("E", "P"), ("S", "2NT"), ("W", "P"), ("N", "4H"), ("E", "P"),
                           ("S", "P"), ("W", "P")]:
            key(seat, call)
        table()
        box_screen("E", "AUCTION OVER")
        with loop.lock:
            say("  North enters 10 tricks, lead the ace of spades; East-West confirm: the tricks are agreed (2017 Law 79A1; the demo table plays dbf-2017)")
            ctl.enter_result(10, "SA")
            rec = confirmed()
        say(f"  -> board 1: {present.contract_text(rec['contract'], rec['declarer'])}, {rec['tricks']} tricks, N-S {rec['score_ns']:+d}, "
            "queued for the station\n")

        say("== Board 2: an irregularity ==")
        key("E", "1NT")
        turn_shown("S")
        boxes.press("S", tokens("1S"))
        say("  box S keys 1\u2660 - insufficient over 1NT")
        wait(lambda c: c.phase == "frozen", "table frozen")
        boxes.wait_screen("W", lambda sc: sc.status == td_wait, HANG_S)
        table()
        box_screen("W", td_wait)
        with loop.lock:
            st = ctl.estate
            say("  Director console:")
            for line in present.what_happened(st):
                say("    what happened: " + line)
            for o in st["pending"]["options"]:
                say(f"    option: {i18n.option_label(st['pending']['kind'], o, 'en', present.seat_names(st['pending']))}"
                    f"  ({o['law']})")
            try:
                ctl.td_decide("0000", OptionId.REPLACE, call="2S")
            except ValueError as exc:
                say(f"  TD types PIN 0000 -> {exc}")
            say("  TD (PIN 1234): the offender replaces it with 2\u2660")
            ctl.td_decide(PIN, OptionId.REPLACE, call="2S")
            pending = ctl.estate["pending"]
            if pending:
                for o in pending["options"]:
                    say(f"    option: {i18n.option_label(pending['kind'], o, 'en', present.seat_names(pending))}"
                        f"  ({o['law']})")
                say("  TD: 2\u2660 is the lowest sufficient bid in the same denomination (L27B1(a))")
                ctl.td_decide(PIN, OptionId.B1A)
            for line in present.consequences(ctl.estate):
                say("    consequence: " + line)
        for seat, call in [("W", "P"), ("N", "P"), ("E", "P")]:
            key(seat, call)
        table()
        with loop.lock:
            ctl.enter_result(7)
            rec = confirmed()
        say(f"  -> board 2: {present.contract_text(rec['contract'], rec['declarer'])}, 7 tricks, N-S {rec['score_ns']:+d}\n")

        say("== Board 3: passed out ==")
        for seat in "SWNE":
            key(seat, "P")
        table()
        with loop.lock:
            ctl.enter_result(None)
            rec = confirmed()
            say(f"  -> board 3: passed out, N-S {rec['score_ns']:+d}\n")
            say("== Round end ==")
            pos = ctl.next_positions() or {}
            for line in present.round_end_lines(pos):
                say("  " + line)
        drained = station.deliverer.drain(30)
        with loop.lock:
            rows = ctl.journal.conn.execute(
                "SELECT item_key, state FROM outbox WHERE kind = 'result' ORDER BY id").fetchall()
            kinds = dict(ctl.journal.conn.execute(
                "SELECT kind || ' ' || state, COUNT(*) FROM outbox GROUP BY kind, state").fetchall())
        say("\n== Results and the station ==")
        say(f"    {'result':<32} {'state':<10}")
        for key_, state in rows:
            say(f"    {key_:<32} {state:<10}")
        say("    items by kind: " + ", ".join(f"{k}: {n}" for k, n in sorted(kinds.items()))
            + ("" if drained else "  (the station did not take everything in 30 s)"))
        say("\n== At the station: the PBN export the scoring program reads (board 2) ==")
        for line in pbn_game(station.pbn(), 2).splitlines():
            say("    " + line)
        say(f"\nJournal: {db} - run `make run` on a machine with a display for the Kivy tablet.")
        if args.wait and sys.stdin.isatty():
            # the station's director page is alive only while the demo runs
            input(f"\nThe station's director page: {station.director_page}\nPress Enter to stop the demo. ")
        return 0
    finally:
        if loop is not None:
            loop.stop()
        if station is not None:
            station.close()
        if master is not None:
            master.close()
        boxes.stop()
        if link is not None:
            link.close()
