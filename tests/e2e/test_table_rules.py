"""Rules the regulations enforce, on real boxes (MicroPython firmware over the simulated link):
the player keys early and sees the refusal; nothing reaches the auction."""
import time

from shared_rules import profiles
from shared_rules.types import SEATS


def test_fsb_L116B_stop_wait_locks_the_next_box_under_the_record_policy(table):
    stop = profiles.load("fsb-2007").stop
    t = table(profile="fsb-2007", policy="record")
    t.boxes.wait_screen("N", lambda sc: sc.status == "YOUR TURN")
    t.boxes.press("N", ["STOP"])
    t.wait(lambda c: "N" in c.stop_shown, what="stop journalled")
    t.call("N", "2S")
    t.boxes.wait_screen("E", lambda sc: sc.status.startswith("STOP"))
    # East calls at once, then again: neither call is made
    t.key("E", "3S")
    t.key("E", "P")
    # a pause, not an event: the box refuses in silence here (its screen shows nothing), so no
    # event says it has read the keys; a box that sent them would have done so within it
    time.sleep(1.0)
    assert [c["call"] for c in t.state()["calls"]] == ["2S"]
    with t.lock:
        assert t.ctl.phase == "auction"
        assert t.ctl.snapshot()["stop_wait"]["seat"] == "E"  # the tablet shows the countdown
    # FSB L116B: about 10 s (9 s kept). After it East's pass is taken: the table's clock is moved
    # on past the wait rather than sat through (the new view ends the box's own countdown, which
    # tests/firmware checks on its own clock)
    t.advance(stop.wait_s)
    t.call("E", "P")
    assert [c["call"] for c in t.state()["calls"]] == ["2S", "P"]
    with t.lock:
        refused = [x for x in t.ctl.log if x["what"] == "refused" and x.get("seat") == "E"]
        flags = [f["kind"] for f in t.ctl.estate["timing"]]
    # whether the box itself or the tablet stopped the early calls, the auction has none of them
    # and no timing flag was needed
    assert "stop_wait_short" not in flags
    assert all("stop wait" in x["reason"] for x in refused)


def test_2017_L25A_undo_on_a_box_holds_every_box_until_the_director_dismisses(table):
    t = table(policy="record")
    t.auction("N", ["1D"])
    t.boxes.press("N", ["UNDO"])  # wrong card: North meant 1H
    t.wait(lambda c: c.held(), what="auction held")
    for s in SEATS:
        t.boxes.wait_screen(s, lambda sc: "TD is coming" in sc.text)
    t.key("E", "P")  # East calls anyway: refused, or the correction would be too late
    time.sleep(0.8)  # a pause, not an event: the held box shows nothing when it refuses a key
    assert [c["call"] for c in t.state()["calls"]] == ["1D"]
    with t.lock:
        t.ctl.td_correct_call("2468", "N", "1H")
        t.ctl.td_attended("2468")
    t.all_boxes_show(["1H"])
    t.call("E", "P")
    assert [c["call"] for c in t.state()["calls"]] == ["1H", "P"]


def test_2017_L27_every_box_shows_the_insufficient_bid_the_table_is_ruling_on(table):
    t = table(policy="record")
    t.auction("N", ["1S"])
    t.key("E", "1H")
    t.wait(lambda c: c.phase == "frozen", what="table frozen")
    for s in SEATS:
        t.boxes.wait_screen(s, lambda sc: "E 1H" in sc.text)


def test_fsb_L115B_an_alert_by_the_caller_himself_is_refused_on_his_box(table):
    t = table(profile="fsb-2007", policy="record")
    t.auction("N", ["1C", "P"])
    t.boxes.press("N", ["ALERT"])  # in Sweden partner alerts (FSB L115B)
    t.boxes.wait_screen("N", lambda sc: "Partner alerts" in sc.text)
    assert not t.state()["calls"][0]["alerted"]
    t.boxes.press("S", ["ALERT"])  # South, partner, may (a late alert: East has called)
    t.wait(lambda c: c.estate["calls"][0]["alerted"], what="South's alert applied")
