"""Rules the regulations enforce, enforced at the table whatever the irregularity policy, and what
the table must see while it waits for the director (a club session)."""
import pytest

from tests.tablet.conftest import SESSION

FSB = {**SESSION, "profile": "fsb-2007"}  # record policy: the profile's default


def test_fsb_L116B_stop_wait_is_a_lock_under_the_record_policy_too(make_controller, clock):
    ctl = make_controller()
    ctl.setup(FSB)  # board 1: North deals
    ctl.box_event("N", "stop", seq=1, box_ms=10)
    clock.advance(2.0)
    assert ctl.box_event("N", "call", call="2H", seq=2, box_ms=2010)["ok"]
    snap = ctl.snapshot()
    assert snap["stop_wait"]["seat"] == "E" and snap["stop_wait"]["enforced"] is True
    assert snap["stop_wait"]["remaining"] == pytest.approx(10.0)
    # East calls 6.3 s after the STOP, then tries again 2.6 s later: both refused, nothing journalled
    # in the auction, and the reason says why and which regulation
    clock.advance(6.3)
    r = ctl.box_event("E", "call", call="3H", seq=1, box_ms=8300)
    assert not r["ok"] and "FSB L116B" in r["reason"] and "stop" in r["reason"]
    assert ctl.snapshot()["stop_wait"]["remaining"] == pytest.approx(3.7)
    clock.advance(2.6)
    r = ctl.box_event("E", "call", call="P", seq=2, box_ms=10900)
    assert not r["ok"]
    assert [c["call"] for c in ctl.estate["calls"]] == ["2H"]
    assert ctl.phase == "auction"
    # the wait is over (FSB L116B: about 10 s, 9 s counts as kept): East's call is taken
    clock.advance(1.0)
    assert ctl.box_event("E", "call", call="P", seq=3, box_ms=11900)["ok"]
    assert [c["call"] for c in ctl.estate["calls"]] == ["2H", "P"]
    assert ctl.snapshot()["stop_wait"] is None


def test_fsb_L116B_the_lock_survives_a_restart(make_controller, clock, tmp_path):
    ctl = make_controller()
    ctl.setup(FSB)
    ctl.box_event("N", "call", call="2H", stop=True)
    ctl.close()
    clock.advance(3.0)
    ctl = make_controller()
    assert not ctl.box_event("E", "call", call="P")["ok"]
    assert ctl.snapshot()["stop_wait"]["remaining"] == pytest.approx(7.0)


def test_dbf_2017_stop_without_lock_takes_the_early_call_and_flags_it(make_controller, clock):
    ctl = make_controller()
    ctl.setup({**SESSION, "profile": "dbf-2017"})
    ctl.box_event("N", "call", call="2H", stop=True)
    clock.advance(2.0)
    assert ctl.box_event("E", "call", call="P")["ok"]
    assert ctl.snapshot()["stop_wait"] is None
    assert [f["kind"] for f in ctl.estate["timing"]] == ["stop_wait_short"]


def test_dbf_2017_the_countdown_is_shown_though_not_enforced(make_controller, clock):
    ctl = make_controller()
    ctl.setup({**SESSION, "profile": "dbf-2017"})
    ctl.box_event("N", "call", call="2H", stop=True)
    clock.advance(4.0)
    sw = ctl.snapshot()["stop_wait"]
    assert sw["seat"] == "E" and sw["enforced"] is False and sw["remaining"] == pytest.approx(6.0)


def calls(ctl):
    return [c["call"] for c in ctl.estate["calls"]]


@pytest.mark.parametrize("key", ["undo", "td"])
def test_2017_L25A_undo_or_td_key_holds_the_auction_until_the_director_dismisses_the_call(make_controller, clock, key):
    # East confirmed 2C meaning 2D and pressed UNDO at once; partner must not call before the
    # director comes, or the L25A correction is no longer possible.
    ctl = make_controller()
    ctl.setup(SESSION)
    ctl.box_event("N", "call", call="1NT")
    clock.advance(2)
    ctl.box_event("E", "call", call="2C")
    ctl.box_event("E", key)
    assert ctl.snapshot()["held"] is True
    views = ctl.views()
    assert all(v["frozen"] and v["message"] == "TD is coming" for v in views.values())
    assert views["S"]["allowed"] == [] or views["S"]["frozen"]
    clock.advance(2)
    r = ctl.box_event("S", "call", call="P")
    assert not r["ok"] and "director" in r["reason"]
    assert calls(ctl) == ["1NT", "2C"]
    # signing in is not dismissing: the call stays open until the director says he has seen to it
    assert ctl.check_pin("4321")
    assert ctl.snapshot()["td_calls"] and ctl.snapshot()["held"]
    ctl.td_correct_call("4321", "E", "2D")
    assert ctl.td_attended("4321") is True
    assert ctl.snapshot()["held"] is False and ctl.snapshot()["td_calls"] == []
    assert ctl.box_event("S", "call", call="P")["ok"]
    assert calls(ctl)[-2:] == ["2D", "P"]


def test_2017_L27_every_box_shows_the_insufficient_bid_while_the_table_waits(make_controller, clock):
    ctl = make_controller()
    ctl.setup({**SESSION, "policy": "record"})
    ctl.box_event("N", "call", call="1S")
    clock.advance(2)
    ctl.box_event("E", "call", call="1H")  # insufficient: South may accept it, and must see it
    assert ctl.phase == "frozen"
    for seat, v in ctl.views().items():
        assert v["frozen"] and v["message"] == "E 1H: wait TD", seat
    pending = ctl.snapshot()["state"]["pending"]
    assert (pending["seat"], pending["call"]) == ("E", "1H")


def test_2017_L29_the_call_out_of_rotation_is_on_every_box(make_controller, clock):
    ctl = make_controller()
    ctl.setup({**SESSION, "policy": "record"})
    ctl.box_event("N", "call", call="1S")
    clock.advance(2)
    ctl.box_event("W", "call", call="4H")
    assert {v["message"] for v in ctl.views().values()} == {"W 4H: wait TD"}


def test_fsb_L115B_no_alert_once_four_clubs_is_bid_and_only_partner_alerts(make_controller, clock):
    ctl = make_controller()
    ctl.setup(FSB)
    for seat, call in [("N", "1C"), ("E", "P")]:
        clock.advance(2)
        ctl.box_event(seat, "call", call=call)
    r = ctl.box_event("N", "alert")  # North alerts his own 1C: in Sweden partner alerts
    assert not r["ok"] and "FSB L115B" in r["reason"] and "wrong player" in r["reason"]
    from tablet_app.views import short_reason

    assert short_reason(r["reason"]) == "Partner alerts"  # what North's box shows for a while
    for seat, call in [("S", "4C"), ("W", "P")]:
        clock.advance(2)
        ctl.box_event(seat, "call", call=call)
    r = ctl.box_event("N", "alert")  # nothing is alerted once 4C or higher is bid (FSB L115B)
    assert not r["ok"] and "not permitted" in r["reason"]
    assert not any(c["alerted"] for c in ctl.estate["calls"])
    assert [f for f in ctl.estate["timing"] if "alert" in f["kind"]] == []  # (4C was a jump: stop missing)
