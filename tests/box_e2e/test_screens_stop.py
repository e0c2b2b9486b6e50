"""The stop behind screens on real boxes: four MicroPython boxes on the simulated link, the real
LinkMaster, controller and laws engine. South sits across the screen from East's stop and sees it
only when the tray brings it, so his box counts the wait down from the tray's arrival (FSB L116B
with L114; profile stop.across_screen, docs/laws/choices.md #38), not from East's call. The
table's clock is moved on (`Tablet.advance`) rather than sat through; the box counts on its own
chip clock."""
import pytest

from hardware.sim.boxes import HANG_S
from shared_rules import profiles
from shared_rules.types import TimingKind

pytestmark = [pytest.mark.micropython, pytest.mark.slow]
TRAY_DELAY_S = 120.0  # the organiser's delay (the most a session takes): the tray comes long after the stop


def test_FSB_L116B_behind_screens_the_box_across_the_screen_waits_from_the_tray(real_table):
    stop = profiles.load("fsb-2007").stop
    t = real_table(profile="fsb-2007", session={"screens": True, "tray_delay_s": TRAY_DELAY_S})
    ctl = t.tablet.ctl
    t.call("N", "1C")
    t.boxes.press("E", "STOP")
    t.call("E", "2S")  # a jump (FSB L116B2), the stop shown
    with t.tablet.lock:
        called = ctl.estate["calls"][-1]["t"]
        assert ctl.estate["calls"][-1]["stop"] is True
        assert ctl.estate["next"] == "S" and ctl.estate["stop_lock_until"] is None  # South has not seen it
        now = ctl.board_time()
    # the table's clock to just past the tray's delay on North-East's side: the tray passes
    t.tablet.advance(TRAY_DELAY_S - now + 0.5)
    t.boxes.wait_screen("S", lambda sc: sc.status.startswith("STOP") and sc.status.endswith("YOUR TURN"),
                        HANG_S)
    with t.tablet.lock:
        tray_t = ctl.screen["passes"][0]["t"]
        lock = ctl.estate["stop_lock_until"]
    assert called + stop.wait_s < tray_t  # from East's call the wait would long be over
    assert lock == tray_t + stop.wait_s
    # South keys a pass inside the wait: his box refuses it, nothing reaches the tablet
    t.boxes.press("S", "P OK")
    t.boxes.wait_screen("S", lambda sc: "STOP: wait" in sc.selection)
    assert len(t.tablet.calls()) == 2
    # after the wait South's pass is taken, and no short wait is reported
    t.tablet.advance(stop.wait_s)
    t.call("S", "P", timeout=HANG_S)
    with t.tablet.lock:
        kinds = [(x["kind"], x["seat"]) for x in ctl.estate["timing"]]
    assert (TimingKind.STOP_WAIT_SHORT, "S") not in kinds
    assert t.tablet.calls() == ["1C", "2S", "P"]
