import pytest

from shared_rules.screens import Screen, side_of
from tests.tablet.conftest import SESSION

SCREENS = {**SESSION, "profile": "wbf-screens-2017", "policy": "record"}


def calls_seen(view):
    return [a["call"] for a in view["auction"]]


def test_wbf_screenmates_default_north_east_and_south_west():
    assert side_of("N") == side_of("E") != side_of("S") == side_of("W")
    with pytest.raises(ValueError):
        side_of("X")


def test_wbf_tray_passes_only_after_the_profile_delay(make_controller, clock):
    ctl = make_controller()
    ctl.setup(SCREENS)
    assert ctl.screen is not None and ctl.screen.delay == 15.0
    clock.advance(2)
    assert ctl.box_event("N", "call", call="1C")["ok"]
    clock.advance(2)
    assert ctl.box_event("E", "call", call="P")["ok"]
    views = ctl.views()
    assert calls_seen(views["N"]) == ["1C", "P"]
    assert calls_seen(views["S"]) == [None, None]  # on the tray, not under the screen yet
    assert views["S"]["turn"] is None  # the tray is not on South's side
    r = ctl.box_event("S", "call", call="1H")
    assert not r["ok"] and "tray" in r["reason"]
    clock.advance(5)
    assert not ctl.tick()  # 9 s on the side: under the 15 s the Code of Practice allows
    clock.advance(7)
    assert ctl.tick()
    views = ctl.views()
    assert calls_seen(views["S"]) == ["1C", "P"] and views["S"]["turn"] == "S"
    assert calls_seen(views["N"]) == ["1C", "P"]
    assert ctl.screen.passes[0]["t"] == pytest.approx(15.0)


def test_wbf_code_of_practice_irregularity_rectified_before_tray_passes_is_never_shown(make_controller, clock):
    ctl = make_controller()
    ctl.setup(SCREENS)
    clock.advance(2)
    ctl.box_event("N", "call", call="1NT")
    clock.advance(2)
    ctl.box_event("E", "call", call="1S")  # insufficient, on North-East's side
    assert ctl.phase == "frozen"
    clock.advance(30)
    assert not ctl.tick()  # the tray never passes while a decision is pending
    assert calls_seen(ctl.views()["S"]) == [None]
    # Rectify before the tray passes: the offender corrects 1S to 2S without rectification (WBF
    # screen regulations, 2017 L80B2(e): docs/laws/choices.md #36): the auction goes on.
    ctl.td_decide("4321", "replace", call="2S")
    assert ctl.estate["irregularities"][0]["resolution"] == "corrected_behind_screen"
    assert ctl.phase == "auction"
    clock.advance(20)
    ctl.tick()
    south = ctl.views()["S"]
    shown = [c for c in calls_seen(south) if c]
    assert "1S" not in shown and shown[0] == "1NT"
    assert shown == ["1NT", "2S"]
    assert south["turn"] == "S" and not south["frozen"]


def test_screen_model_is_a_pure_function_of_event_times():
    def run():
        s = Screen("N", 15.0)
        st = {"calls": [], "status": "bidding", "next": "N", "pending": None}
        seq = [(1.0, "N", "E"), (3.0, "E", "S"), (20.0, "S", "W"), (22.0, "W", "N")]
        out = []
        for t, seat, nxt in seq:
            st = {**st, "calls": st["calls"] + [{"seat": seat, "call": "P"}], "next": nxt}
            s.observe(st, t)
            out.append((s.tray_side, len(s.visible_calls("S")), len(s.visible_calls("N"))))
        s.advance(100.0)
        return out, s.to_dict()

    assert run() == run()
    out, d = run()
    assert out[1] == (0, 0, 2)  # East called; tray still on N-E
    assert out[2] == (1, 3, 2)  # tray passed at 15 s (on the side since 0 s); South called on it
    assert [p["t"] for p in d["passes"]] == [15.0, 30.0]  # max(last call, arrival + 15 s)
