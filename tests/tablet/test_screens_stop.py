"""The stop behind screens at the tablet (FSB L116B with L114; profile stop.across_screen,
docs/laws/choices.md #38): the box of a player across the screen from the stop gets its stop lock
(`stop_ms` in its STATE) from the tray's arrival, which the engine keeps; the tablet shows no wait
counting down before the tray brings him the stop. On the controller's hand-wound clock."""
import pytest

from shared_rules import profiles
from shared_rules.types import TimingKind
from tests.tablet.conftest import SESSION

TRAY_DELAY_S = 20.0  # the organiser's delay: the tray stays 20 s on a side
FSB_SCREENS = {**SESSION, "profile": "fsb-2007", "policy": "record", "screens": True,
               "tray_delay_s": TRAY_DELAY_S}


def test_FSB_L116B_behind_screens_the_box_across_the_screen_is_locked_from_the_tray(make_controller, clock):
    stop = profiles.load("fsb-2007").stop
    ctl = make_controller()
    ctl.setup(FSB_SCREENS)
    clock.advance(2)
    assert ctl.box_event("N", "call", call="1C")["ok"]
    clock.advance(1)
    assert ctl.box_event("E", "stop")["ok"]
    assert ctl.box_event("E", "call", call="2S")["ok"]  # a jump, the stop shown (FSB L116B2)
    called = ctl.estate["calls"][-1]["t"]
    south = ctl.views()["S"]
    assert south["turn"] is None and south["stop_ms"] == 0  # the tray is on North-East's side
    assert ctl.snapshot()["stop_wait"] is None  # South has not seen the stop: nothing counts down
    clock.advance(TRAY_DELAY_S)
    assert ctl.tick()  # the tray passes
    assert ctl.screen is not None
    tray_t = ctl.screen["passes"][0]["t"]
    assert tray_t > called + stop.wait_s  # from East's call the wait would be over
    now = ctl.board_time()
    south = ctl.views()["S"]
    assert south["turn"] == "S"
    assert south["stop_ms"] == round((tray_t + stop.wait_s - now) * 1000) > 0
    assert ctl.snapshot()["stop_wait"]["seat"] == "S"
    # fsb-2007 locks the wait (enforcement "lock"): South's pass inside it is refused
    early = ctl.box_event("S", "call", call="P")
    assert not early["ok"] and "stop wait" in early["reason"]
    assert [c["call"] for c in ctl.estate["calls"]] == ["1C", "2S"]
    clock.advance(tray_t + stop.wait_s - stop.tolerance_s - now + 0.1)
    assert ctl.box_event("S", "call", call="P")["ok"]
    assert [c["call"] for c in ctl.estate["calls"]] == ["1C", "2S", "P"]
    flags = [(x["kind"], x["seat"]) for x in ctl.estate["timing"]]
    assert (TimingKind.STOP_WAIT_SHORT, "S") not in flags
    assert ctl.estate["calls"][-1]["t"] - tray_t == pytest.approx(stop.wait_s - stop.tolerance_s + 0.1)
