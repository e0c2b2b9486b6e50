"""Four real firmware boxes (MicroPython, unix backend) on the simulated link at 115200 baud,
a tablet-side LinkMaster over pyserial, a scripted tablet: what players key arrives at the tablet
intact and in order, and every box shows it."""
import time

import pytest

from hardware.sim.table import tokens

pytestmark = [pytest.mark.micropython, pytest.mark.slow]


def shown(t, seat):
    return t.boxes.screen(seat)


def test_fsb_L112C_full_auctions_from_four_boxes_arrive_intact_and_in_order(sim_table):
    t = sim_table(stop_wait_ms=1500)
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
    t.call("W", "P", timeout=5)          # after the countdown
    for seat, call in (("N", "P"), ("E", "X"), ("S", "XX"), ("W", "P"), ("N", "P"), ("E", "P")):
        t.call(seat, call)
    want1 = "1C P 1H 2C P P 4H P P X XX P P P".split()
    assert t.tablet.calls() == want1
    assert t.tablet.over()
    for s in "NESW":
        t.boxes.wait_screen(s, lambda sc: sc.status == "AUCTION OVER" and sc.plain_calls == want1)
    # the alert is shown to the opponents (and the alerter), not to the player who made the call
    assert shown(t, "E").calls[0] == "1C*" and shown(t, "W").calls[0] == "1C*"
    assert shown(t, "S").calls[0] == "1C*" and shown(t, "N").calls[0] == "1C"
    assert shown(t, "N").calls[6] == "4H!"  # stop shown with the jump
    # Board 2, dealer E: passed out. Board 3, dealer S: 1NT - 3NT.
    t.tablet.new_board(2)
    for seat in "ESWN":
        t.call(seat, "P")
    assert t.tablet.over() and t.tablet.calls() == ["P"] * 4
    t.tablet.new_board(3)
    for seat, call in zip("SWNESW", "1NT P 3NT P P P".split(), strict=True):
        t.call(seat, call)
    want3 = "1NT P 3NT P P P".split()
    for s in "NESW":
        t.boxes.wait_screen(s, lambda sc: sc.plain_calls == want3 and sc.status == "AUCTION OVER")
    # in order, exactly once: the tablet's event log of calls is the keyed sequence
    keyed = want1 + ["P"] * 4 + want3
    got = [c for _, kind, c in t.tablet.events if kind == "call"]
    assert got == keyed
    assert t.tablet.rejected == []
    assert [k for _, k, _ in t.tablet.events if k not in ("call", "hello")] == ["alert", "stop"]


def test_2017_L27_prevent_policy_box_refuses_insufficient_and_out_of_turn_calls(sim_table):
    t = sim_table()
    t.call("N", "1H")
    t.boxes.wait_screen("E", lambda s: s.status == "YOUR TURN" and len(s.calls) == 1)
    t.boxes.press("E", tokens("1C"))
    sc = t.boxes.wait_screen("E", lambda s: "INSUFFICIENT" in s.selection)
    t.boxes.press("S", "P OK")      # not S's turn
    t.boxes.wait_screen("S", lambda s: "NOT YOUR TURN" in s.selection)
    time.sleep(0.3)
    assert t.tablet.calls() == ["1H"]
    assert [e for e in t.tablet.events if e[1] == "call"] == [("N", "call", "1H")]
    # the selection stays: the player changes the level and confirms
    t.boxes.press("E", "2 C OK")
    assert t.tablet.wait_calls(2) == ["1H", "2C"]
    assert sc.plain_calls == ["1H"]


def test_detect_policy_box_sends_insufficient_bid_for_the_director(sim_table):
    t = sim_table(prevent=False)
    t.call("N", "1H")
    t.boxes.wait_screen("E", lambda s: s.status == "YOUR TURN" and len(s.calls) == 1)
    t.boxes.press("E", tokens("1C"))
    deadline = time.monotonic() + 5
    while ("E", "1C") not in t.tablet.rejected:  # the scripted tablet refuses it; the engine rectifies
        assert time.monotonic() < deadline, t.tablet.events
        time.sleep(0.01)


def test_box_reboot_mid_auction_gets_the_auction_back(sim_table):
    t = sim_table()
    for seat, call in zip("NESW", "1D P 1S P".split(), strict=True):
        t.call(seat, call)
    t.boxes.reboot("E")
    sc = t.boxes.wait_screen("E", lambda s: s.plain_calls == ["1D", "P", "1S", "P"])
    assert sc.lines[0].startswith("E Bd1")
    t.call("N", "2S")
    t.call("E", "P")  # the rebooted box takes part again
    assert t.tablet.calls() == "1D P 1S P 2S P".split()


def test_call_made_during_cable_pull_then_reboot_arrives_once(sim_table):
    t = sim_table()
    t.call("N", "1C")
    t.boxes.wait_screen("E", lambda s: s.status == "YOUR TURN" and len(s.calls) == 1)
    t.link.pull("E", 1.5)
    t.boxes.press("E", "1 H OK")          # made on the box, cannot reach the tablet yet
    flash = t.boxes.boxes["E"].store_file
    deadline = time.monotonic() + 2
    while not (flash.exists() and flash.stat().st_size):
        assert time.monotonic() < deadline, "the call was not kept on the box's flash"
        time.sleep(0.005)
    t.boxes.reboot("E")                   # RAM lost: the call survives only on flash
    assert t.tablet.wait_calls(2, timeout=8) == ["1C", "1H"]
    t.call("S", "P")
    time.sleep(0.5)
    assert t.tablet.calls() == ["1C", "1H", "P"]
    assert [c for s, k, c in t.tablet.events if k == "call" and s == "E"] == ["1H"]


def test_2017_L25A_L20_L9B_undo_review_and_td_keys_reach_the_tablet_in_order(sim_table):
    t = sim_table()
    t.call("N", "1S")
    t.boxes.press("N", "UNDO")     # "wrong card": N says 1S was unintended (Law 25A)
    t.boxes.press("E", "REVIEW")   # E asks for the auction (Law 20B)
    t.boxes.press("E", "CLR")
    t.boxes.press("S", "TD")       # S calls the director (Law 9B)
    deadline = time.monotonic() + 5
    while len([e for e in t.tablet.events if e[1] in ("undo", "review", "td")]) < 3:
        assert time.monotonic() < deadline, t.tablet.events
        time.sleep(0.01)
    got = [(s, k) for s, k, _ in t.tablet.events if k in ("undo", "review", "td")]
    assert sorted(got) == [("E", "review"), ("N", "undo"), ("S", "td")]
    assert [k for s, k, _ in t.tablet.events if s == "N" and k != "hello"] == ["call", "undo"]
    t.boxes.wait_screen("S", lambda s: "TD called" in s.selection)
    t.boxes.wait_screen("N", lambda s: "wrong card" in s.selection)


def test_a_cable_glitch_never_turns_into_a_second_call(sim_table):
    # Found in a club: the cable to N's box was loose; N keyed 1NT, saw nothing happen, keyed
    # 2NT, and when the cable made contact both reached the tablet (1NT, then 2NT out of turn).
    t = sim_table()
    t.boxes.wait_screen("N", lambda s: s.status == "YOUR TURN")
    t.link.pull("N", 4.0)
    t.boxes.press("N", "1 NT OK")
    t.boxes.wait_screen("N", lambda s: "1NT sending" in s.selection)  # the call in flight
    t.boxes.press("N", "2 NT OK")          # refused while 1NT is not acknowledged
    t.boxes.wait_screen("N", lambda s: "1NT sending" in s.selection and "2NT" not in s.text)
    assert t.tablet.wait_calls(1, timeout=8) == ["1NT"]
    time.sleep(1.0)
    assert t.tablet.calls() == ["1NT"]
    t.boxes.wait_screen("N", lambda s: "sending" not in s.selection and s.calls[:1] == ["1NT"])
