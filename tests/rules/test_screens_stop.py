"""The stop behind screens, timed from the tray (FSB L116B with L114; DBf's footnote to 2017 L73A1
with 2017 L80B2(e); the WBF screen events): the player who waits after a stop sits across the
screen from it when the stop was made by East or West, and sees it only when the tray brings it,
so his pause, its lock and its report run from the tray's arrival (profile `stop.across_screen`,
docs/laws/choices.md #38). A waiter on the caller's own side sees the stop at once: his pause runs
from the call, as without screens.

Board 1: North deals; screenmates N-E and S-W; the tray starts on North-East's side. Every
expected wait is worked out here from the events' own times and the profile's figures."""
from __future__ import annotations

import dataclasses

import pytest

from shared_rules import profiles
from shared_rules.outcome import Accepted, Refused
from shared_rules.profiles import ProfileError
from shared_rules.table import Table
from shared_rules.types import TimingKind

SCREEN_PROFILES = ["fsb-2007", "dbf-2017", "wbf-screens-2017"]
CALL_T, TRAY_T = 1.0, 6.0  # East's stop and jump, the tray bringing it to South-West


def c(t: float, seat: str, call: str, stop: bool = False) -> dict:
    e = {"t": t, "seat": seat, "call": call}
    if stop:
        e["stop"] = True
    return e


TRAY = {"tray": True}


def behind_screens(profile: str, tray_t: float = TRAY_T) -> Table:
    """North 1C, East 2S with the stop (a jump: FSB L116B2, 2017 L73A1), the tray to South-West."""
    table = Table(profile, 1, screens=True)
    for e in (c(0.0, "N", "1C"), c(CALL_T, "E", "2S", stop=True), {"t": tray_t, **TRAY}):
        assert isinstance(table.step(e), Accepted), e
    return table


def stop_flags(state: dict) -> list[dict]:
    stop_kinds = (TimingKind.STOP_WAIT_SHORT, TimingKind.LONG_THOUGHT_AFTER_STOP)
    return [x for x in state["timing"] if x["kind"] in stop_kinds]


@pytest.mark.parametrize("profile", SCREEN_PROFILES)
def test_FSB_L116B_behind_screens_the_wait_across_the_screen_runs_from_the_tray(profile):
    stop = profiles.load(profile).stop
    assert stop.across_screen == "tray"
    table = Table(profile, 1, screens=True)
    table.step(c(0.0, "N", "1C"))
    table.step(c(CALL_T, "E", "2S", stop=True))
    # South has not seen East's stop: his pause has not begun, nothing counts down
    assert table.state()["next"] == "S" and table.state()["stop_lock_until"] is None
    table.step({"t": TRAY_T, **TRAY})
    assert table.state()["stop_lock_until"] == TRAY_T + stop.wait_s
    # South calls a moment under the kept wait after the tray came, long enough after the call
    t = TRAY_T + stop.wait_s - stop.tolerance_s - 0.5
    assert t - CALL_T >= stop.wait_s - stop.tolerance_s  # from the call it would have been kept
    table.take(c(t, "S", "P"))
    flags = stop_flags(table.state())
    assert [(x["kind"], x["seat"]) for x in flags] == [(TimingKind.STOP_WAIT_SHORT, "S")]
    assert flags[0]["waited"] == pytest.approx(t - TRAY_T)


@pytest.mark.parametrize("profile", SCREEN_PROFILES)
def test_FSB_L116B_behind_screens_a_wait_kept_from_the_tray_is_not_reported(profile):
    stop = profiles.load(profile).stop
    table = behind_screens(profile)
    t = TRAY_T + stop.wait_s - stop.tolerance_s + 0.25
    assert isinstance(table.step(c(t, "S", "P")), Accepted)
    assert stop_flags(table.state()) == []


@pytest.mark.parametrize("profile", SCREEN_PROFILES)
def test_L16B1_behind_screens_the_long_thought_after_a_stop_is_counted_from_the_tray(profile):
    stop = profiles.load(profile).stop
    late_tray = CALL_T + stop.long_thought_s  # the tray was slow to come back (WBF: 15 s on a side)
    table = behind_screens(profile, tray_t=late_tray)
    t = late_tray + stop.wait_s + 1.0  # long after the call, an ordinary wait after the tray
    assert t - CALL_T > stop.long_thought_s
    table.take(c(t, "S", "P"))
    assert stop_flags(table.state()) == []
    # and a long thought after the tray is one
    table = behind_screens(profile, tray_t=late_tray)
    t = late_tray + stop.long_thought_s + 1.0
    table.take(c(t, "S", "P"))
    flags = stop_flags(table.state())
    assert [x["kind"] for x in flags] == [TimingKind.LONG_THOUGHT_AFTER_STOP]
    assert flags[0]["waited"] == pytest.approx(t - late_tray)


def test_FSB_L116B_behind_screens_the_lock_runs_from_the_tray():
    # fsb-2007 locks the wait (enforcement "lock"): a call inside it is refused, nothing changed
    stop = profiles.load("fsb-2007").stop
    table = behind_screens("fsb-2007")
    early = TRAY_T + stop.wait_s - stop.tolerance_s - 0.5
    got = table.step(c(early, "S", "P"))
    assert isinstance(got, Refused) and got.kind == TimingKind.STOP_WAIT_SHORT
    assert got.until == TRAY_T + stop.wait_s
    assert [x["call"] for x in table.state()["calls"]] == ["1C", "2S"]
    assert isinstance(table.step(c(TRAY_T + stop.wait_s - stop.tolerance_s, "S", "P")), Accepted)


@pytest.mark.parametrize("profile", SCREEN_PROFILES)
def test_FSB_L116B_behind_screens_the_screenmate_of_the_stop_waits_from_the_call(profile):
    # North's stop and jump: East, his screenmate, sees it at once; the tray has nothing to do with it
    stop = profiles.load(profile).stop
    table = Table(profile, 1, screens=True)
    table.step(c(0.0, "N", "1C"))
    table.step(c(CALL_T, "E", "P"))
    table.step({"t": 2.0, **TRAY})
    table.step(c(3.0, "S", "1H"))
    table.step(c(4.0, "W", "P"))
    table.step({"t": 5.0, **TRAY})
    table.step(c(6.0, "N", "3C", stop=True))  # a jump (2C the least)
    assert table.state()["next"] == "E" and table.state()["stop_lock_until"] == 6.0 + stop.wait_s
    t = 6.0 + stop.wait_s - stop.tolerance_s - 0.5
    table.take(c(t, "E", "P"))
    flags = stop_flags(table.state())
    assert [(x["kind"], x["seat"]) for x in flags] == [(TimingKind.STOP_WAIT_SHORT, "E")]
    assert flags[0]["waited"] == pytest.approx(t - 6.0)


def test_FSB_L116B_without_screens_the_wait_runs_from_the_call():
    stop = profiles.load("fsb-2007").stop
    table = Table("fsb-2007", 1)
    table.step(c(0.0, "N", "1C"))
    table.step(c(CALL_T, "E", "2S", stop=True))
    assert table.state()["stop_lock_until"] == CALL_T + stop.wait_s
    t = CALL_T + stop.wait_s - stop.tolerance_s - 0.5
    table.take(c(t, "S", "P"))
    assert [x["waited"] for x in stop_flags(table.state())] == [pytest.approx(t - CALL_T)]


def test_FSB_L116B_a_call_across_the_screen_before_the_tray_brought_the_stop_began_no_wait():
    # The tablet takes no call from the side without the tray; a log that has one shows the player
    # never saw the stop, so no pause began: none is reported, none locked.
    table = Table("fsb-2007", 1, screens=True)
    table.step(c(0.0, "N", "1C"))
    table.step(c(CALL_T, "E", "2S", stop=True))
    assert isinstance(table.step(c(CALL_T + 1.0, "S", "P")), Accepted)
    assert stop_flags(table.state()) == []


def test_a_profile_whose_wait_across_the_screen_runs_from_the_call(monkeypatch):
    # The start is the profile's datum, not the jurisdiction's name: the same table under a copy
    # of fsb-2007 whose stop.across_screen is "call" times South's wait from East's call.
    fsb = profiles.load("fsb-2007")
    from_call = dataclasses.replace(fsb, stop=dataclasses.replace(fsb.stop, across_screen="call"))
    real_load = profiles.load
    monkeypatch.setattr(profiles, "load", lambda name: from_call if name == "fsb-2007" else real_load(name))
    stop = from_call.stop
    table = behind_screens("fsb-2007")
    assert table.state()["stop_lock_until"] == CALL_T + stop.wait_s
    t = TRAY_T + 1.0
    table.take(c(t, "S", "P"))
    assert [x["waited"] for x in stop_flags(table.state())] == [pytest.approx(t - CALL_T)]


@pytest.mark.parametrize("value,ok", [('"tray"', "tray"), ('"call"', "call"), ('"ray"', None), ("1", None)])
def test_the_profile_field_across_screen_is_checked(tmp_path, value, ok):
    text = profiles.HERE.joinpath("fsb-2007.toml").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not line.startswith("across_screen")]
    at = lines.index("[stop]") + 1
    path = tmp_path / "p.toml"
    path.write_text("\n".join([*lines[:at], f"across_screen = {value}", *lines[at:]]), encoding="utf-8")
    if ok is None:
        with pytest.raises(ProfileError, match="stop.across_screen"):
            profiles.load_file(path)
    else:
        assert profiles.load_file(path).stop.across_screen == ok
    # left out, a profile times the wait from the call (a profile without screen rules has no
    # one across a screen)
    path.write_text("\n".join(lines), encoding="utf-8")
    assert profiles.load_file(path).stop.across_screen == "call"
