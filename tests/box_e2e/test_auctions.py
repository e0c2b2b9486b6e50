"""Four real firmware boxes (MicroPython, unix backend) on the simulated link at 115200 baud,
a tablet-side LinkMaster over pyserial, the real tablet (controller, laws engine, journal,
runner): what players key arrives at the tablet intact and in order, and every box shows it."""
import sys
import time

import pytest

from hardware.sim.table import tokens
from shared_rules.types import SEATS
from tests.conftest import ROOT

sys.path[:0] = [str(ROOT / "firmware")]
import store  # noqa: E402  (the box's own journal reader: CPython runs it too)

pytestmark = [pytest.mark.micropython, pytest.mark.slow]
HANG_S = 60  # a limit that only ends a hang, never a slow machine


def shown(t, seat):
    return t.boxes.screen(seat)


def took_in_all_from(t, seat: str) -> None:
    """Returns once the tablet has taken in everything `seat`'s box sent before this call: two
    later frames of that box have arrived (it sends one at least every 200 ms, its heartbeat,
    and the serial line keeps their order), and the table loop has handled every event the link
    delivered (none waits in the link while the loop's lock is held). A call the box sent, or
    sent twice, before this call is in the tablet's events by then; nothing needs to be sat out."""
    frames = t.master.stats()[seat]["frames"]
    deadline = time.monotonic() + HANG_S
    while t.master.stats()[seat]["frames"] < frames + 2:
        assert time.monotonic() < deadline, f"no frame from {seat}'s box for {HANG_S} s"
        time.sleep(0.005)  # how often it looks, not how long it waits
    while True:
        with t.tablet.lock:
            if t.master.quiet():
                return
        assert time.monotonic() < deadline, "the link kept work in hand"
        time.sleep(0.005)


def test_fsb_L112C_full_auctions_from_four_boxes_arrive_intact_and_in_order(real_table):
    t = real_table(profile="fsb-2007")
    # Board 1, dealer N: an alert (FSB L115B), a stop before a jump (FSB L116B), double, redouble.
    t.call("N", "1C")
    t.boxes.press("S", "ALERT")          # S alerts partner's 1C
    t.boxes.wait_screen("E", lambda s: s.calls[:1] == ["1C*"])
    t.call("E", "P")
    t.call("S", "1H")
    t.call("W", "2C")
    t.call("N", "P")
    t.call("E", "P")
    t.boxes.press("S", "STOP")
    t.call("S", "4H")
    # the next player's box counts the stop wait down and refuses a call until it is over
    t.boxes.wait_screen("W", lambda s: s.status.startswith("STOP") and s.status.endswith("YOUR TURN"))
    t.boxes.press("W", "P OK")
    t.boxes.wait_screen("W", lambda s: "STOP: wait" in s.selection)
    assert len(t.tablet.calls()) == 7, "a call during the stop wait reached the tablet"
    # FSB L116B's wait is about 10 s: the table's clock is moved on 9 s rather than sat through
    t.tablet.advance(9.0)
    t.call("W", "P", timeout=HANG_S)     # after the countdown
    for seat, call in (("N", "P"), ("E", "X"), ("S", "XX"), ("W", "P"), ("N", "P"), ("E", "P")):
        t.call(seat, call)
    want1 = "1C P 1H 2C P P 4H P P X XX P P P".split()
    assert t.tablet.calls() == want1
    assert t.tablet.over()
    for s in SEATS:
        t.boxes.wait_screen(s, lambda sc: sc.status == "AUCTION OVER" and sc.plain_calls == want1)
    # FSB L115B: the partner alerts by knocking on the table or with the alert card, so without
    # screens the whole table sees the alert, the player who made the call too
    assert [shown(t, s).calls[0] for s in SEATS] == ["1C*"] * 4
    assert shown(t, "N").calls[6] == "4H!"  # stop shown with the jump
    # Board 2, dealer E: passed out. Board 3, dealer S: 1NT - 3NT. (A result is entered for
    # each board and East-West confirm it: the tablet then puts the next board on the table.)
    assert t.tablet.new_board() == 2
    for seat in "ESWN":
        t.call(seat, "P")
    assert t.tablet.over() and t.tablet.calls() == ["P"] * 4
    assert t.tablet.new_board() == 3
    for seat, call in zip("SWNESW", "1NT P 3NT P P P".split(), strict=True):
        t.call(seat, call)
    want3 = "1NT P 3NT P P P".split()
    for s in SEATS:
        t.boxes.wait_screen(s, lambda sc: sc.plain_calls == want3 and sc.status == "AUCTION OVER")
    # in order, exactly once: the tablet's event log of calls is the keyed sequence
    keyed = want1 + ["P"] * 4 + want3
    got = [c for _, kind, c in t.tablet.events if kind == "call"]
    assert got == keyed
    assert t.tablet.rejected() == []
    assert [k for _, k, _ in t.tablet.events if k not in ("call", "hello")] == ["alert", "stop"]


def test_2017_L27_prevent_policy_box_refuses_insufficient_and_out_of_turn_calls(real_table):
    t = real_table()
    t.call("N", "1H")
    t.boxes.wait_screen("E", lambda s: s.status == "YOUR TURN" and len(s.calls) == 1)
    t.boxes.press("E", tokens("1C"))
    sc = t.boxes.wait_screen("E", lambda s: "INSUFFICIENT" in s.selection)
    t.boxes.press("S", "P OK")      # not S's turn
    t.boxes.wait_screen("S", lambda s: "NOT YOUR TURN" in s.selection)
    took_in_all_from(t, "E")
    took_in_all_from(t, "S")
    assert t.tablet.calls() == ["1H"]
    assert [e for e in t.tablet.events if e[1] == "call"] == [("N", "call", "1H")]
    # the selection stays: the player changes the level and confirms
    t.boxes.press("E", "2 C OK")
    assert t.tablet.wait_calls(2) == ["1H", "2C"]
    assert sc.plain_calls == ["1H"]
    assert t.tablet.rejected() == []  # the boxes refused them: nothing irregular reached the tablet


def test_2017_L27_record_policy_box_sends_insufficient_bid_and_the_table_waits_for_the_director(
        real_table):
    # Under `record` the box lets the irregular call through (the call is made); the engine
    # rules it insufficient (2017 L27) and the table waits for the director, who gives South, the
    # offender's LHO, the choice to accept it (L27A1): every box shows the call being ruled on.
    t = real_table(policy="record")
    t.call("N", "1H")
    t.boxes.wait_screen("E", lambda s: s.status == "YOUR TURN" and len(s.calls) == 1)
    t.boxes.press("E", tokens("1C"))
    t.tablet.wait_events(lambda ev: ("E", "call", "1C") in ev)
    with t.tablet.lock:
        st = t.tablet.ctl.estate
        assert t.tablet.ctl.phase == "frozen"
        assert (st["pending"]["seat"], st["pending"]["call"]) == ("E", "1C")
        assert "L27" in str(st["pending"].get("law")), st["pending"]
    assert t.tablet.calls() == ["1H"]  # not in the auction until the director rules
    assert t.tablet.rejected() == []
    for s in SEATS:
        t.boxes.wait_screen(s, lambda sc: "E 1C: wait TD" in sc.text)


def test_box_reboot_mid_auction_gets_the_auction_back(real_table):
    t = real_table()
    for seat, call in zip(SEATS, "1D P 1S P".split(), strict=True):
        t.call(seat, call)
    t.boxes.reboot("E")
    sc = t.boxes.wait_screen("E", lambda s: s.plain_calls == ["1D", "P", "1S", "P"])
    assert sc.lines[0].startswith("E Bd1")
    t.call("N", "2S")
    t.call("E", "P")  # the rebooted box takes part again
    assert t.tablet.calls() == "1D P 1S P 2S P".split()


def test_call_made_during_cable_pull_then_reboot_arrives_once(real_table):
    t = real_table()
    t.call("N", "1C")
    t.boxes.wait_screen("E", lambda s: s.status == "YOUR TURN" and len(s.calls) == 1)
    t.link.pull("E", 3600)                # out until plugged back below
    t.boxes.press("E", "1 H OK")          # made on the box, cannot reach the tablet yet
    flash = t.boxes.boxes["E"].store_file
    deadline = time.monotonic() + HANG_S
    while not store.parse(flash.read_bytes() if flash.exists() else None)[0]:  # the box's own reader
        assert time.monotonic() < deadline, "the call was not kept on the box's flash"
        time.sleep(0.005)  # how often it looks, not how long it waits
    t.boxes.reboot("E")                   # RAM lost: the call survives only on flash
    t.link.plug("E")
    assert t.tablet.wait_calls(2, timeout=HANG_S) == ["1C", "1H"]
    t.call("S", "P")
    while store.parse(flash.read_bytes())[0]:  # E's box saw its call in the auction: it keeps it no more
        assert time.monotonic() < deadline + HANG_S, "the call stayed on the box's flash"
        time.sleep(0.005)
    took_in_all_from(t, "E")  # a second 1H from E would be in by now
    assert t.tablet.calls() == ["1C", "1H", "P"]
    assert [c for s, k, c in t.tablet.events if k == "call" and s == "E"] == ["1H"]


def test_2017_L25A_L20_L9B_undo_review_and_td_keys_reach_the_tablet_in_order(real_table):
    t = real_table()
    t.call("N", "1S")
    t.boxes.press("N", "UNDO")     # "wrong card": N says 1S was unintended (Law 25A)
    t.boxes.press("E", "REVIEW")   # E asks for the auction (Law 20B)
    t.boxes.press("E", "CLR")
    t.boxes.press("S", "TD")       # S calls the director (Law 9B)
    t.tablet.wait_events(lambda ev: len([e for e in ev if e[1] in ("undo", "review", "td")]) >= 3)
    got = [(s, k) for s, k, _ in t.tablet.events if k in ("undo", "review", "td")]
    assert sorted(got) == [("E", "review"), ("N", "undo"), ("S", "td")]
    assert [k for s, k, _ in t.tablet.events if s == "N" and k != "hello"] == ["call", "undo"]
    t.boxes.wait_screen("S", lambda s: "TD called" in s.selection)
    t.boxes.wait_screen("N", lambda s: "wrong card" in s.selection)
    # A call confirmed on the box is made: N's UNDO calls the director (2017 L25), as S's TD key
    # does (L9B); the auction waits for him, so a correction L25A still allows stays possible.
    with t.tablet.lock:
        calls = sorted((c["seat"], c.get("reason")) for c in t.tablet.ctl.open_td_calls())
        assert calls == [("N", "change_of_call"), ("S", None)]
        assert t.tablet.ctl.held()
    assert t.tablet.calls() == ["1S"]


def test_a_cable_glitch_never_turns_into_a_second_call(real_table):
    # Found in a club: the cable to N's box was loose; N keyed 1NT, saw nothing happen, keyed
    # 2NT, and when the cable made contact both reached the tablet (1NT, then 2NT out of turn).
    t = real_table()
    t.boxes.wait_screen("N", lambda s: s.status == "YOUR TURN")
    t.link.pull("N", 3600)                 # out until plugged back below
    t.boxes.press("N", "1 NT OK")
    t.boxes.wait_screen("N", lambda s: "1NT sending" in s.selection)  # the call in flight
    t.boxes.press("N", "2 NT OK")          # refused while 1NT is not acknowledged
    t.boxes.wait_screen("N", lambda s: "1NT sending" in s.selection and "2NT" not in s.text)
    t.link.plug("N")                       # the cable makes contact again
    assert t.tablet.wait_calls(1, timeout=HANG_S) == ["1NT"]
    # 1NT acknowledged: a 2NT the box had kept back would go now, before its next frames
    t.boxes.wait_screen("N", lambda s: "sending" not in s.selection and s.calls[:1] == ["1NT"])
    took_in_all_from(t, "N")
    assert t.tablet.calls() == ["1NT"]
