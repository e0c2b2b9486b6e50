"""Only the director rules: the console's sign-in ends when he leaves it, however that happens,
and every Law option and TD tool takes the PIN again (control/director_session.py). Found at a
club evening: after the first ruling the console went back to the auction with the director
still signed in, and the players could open every tool and pick the Law's options themselves.

Board 1: North deals. PIN 4321.
"""
import pytest

from tablet_app.control.director_session import IDLE_S
from tablet_app.controller import PinError
from tests.tablet.conftest import SESSION

DBF = {**SESSION, "profile": "dbf-2017", "policy": "record"}


def freeze(ctl, clock):
    """North 1H, East 1D: an insufficient bid (2017 L27), the table waits for the director."""
    for seat, call in (("N", "1H"), ("E", "1D")):
        clock.advance(2)
        assert ctl.box_event(seat, "call", call=call)["ok"]
    assert ctl.phase == "frozen" and ctl.estate["pending"]["kind"] == "insufficient_bid"


def refused_as_signed_out(ctl, act):
    n = ctl.journal.count()
    with pytest.raises(PinError) as e:
        act()
    # a console's stale token is no PIN guess: nothing journalled, nothing counted
    assert e.value.key == "pin.signed_out" and ctl.journal.count() == n and ctl.pin_state()["wrong_tries"] == 0


def test_2017_L27_the_ruling_made_signs_the_director_out_and_no_tool_opens_without_the_pin(make_controller, clock):
    ctl = make_controller()
    ctl.setup(DBF)
    freeze(ctl, clock)
    token = ctl.sign_in("4321")
    assert ctl.director() == {"signed_in": True, "grace_s": 0, "grace_setting": 0}
    ctl.td_decide(token, "accept")  # South accepts the insufficient bid (2017 L27A1)
    assert ctl.phase == "auction" and ctl.director()["signed_in"] is False
    assert ctl.snapshot()["director"]["signed_in"] is False
    # every tool, with the token the console still holds: refused
    refused_as_signed_out(ctl, lambda: ctl.td_correct_call(token, "E", "1NT"))
    refused_as_signed_out(ctl, lambda: ctl.td_artificial_score(token, "avg", "avg", "2017 L12C2"))
    refused_as_signed_out(ctl, lambda: ctl.td_exposed_cards(token, "S", ["C2"]))
    assert not ctl.resume(token)
    # the next irregularity, on the same board: the Law's options only after the PIN
    clock.advance(2)
    assert ctl.box_event("W", "call", call="1C")["ok"] and ctl.phase == "frozen"
    refused_as_signed_out(ctl, lambda: ctl.td_decide(token, "accept"))
    again = ctl.sign_in("4321")
    ctl.td_decide(again, "accept")
    assert ctl.phase == "auction"


def test_a_new_irregularity_signs_out_a_director_using_his_tools(make_controller, clock):
    ctl = make_controller()
    ctl.setup(DBF)
    clock.advance(2)
    assert ctl.box_event("N", "call", call="1H")["ok"]
    token = ctl.sign_in("4321")  # the Director button during the auction: the tools
    clock.advance(2)
    assert ctl.box_event("E", "call", call="1D")["ok"] and ctl.phase == "frozen"
    assert ctl.director()["signed_in"] is False
    refused_as_signed_out(ctl, lambda: ctl.td_decide(token, "accept"))


def test_leaving_the_console_signs_out_and_the_clubs_grace_lets_it_reopen_counting_down(make_controller, clock, boot):
    ctl = make_controller()
    ctl.set_club_defaults(director_grace_s=30)
    ctl.setup(DBF)
    freeze(ctl, clock)
    token = ctl.sign_in("4321")
    ctl.td_decide(token, "accept")
    # the table went on: signed out, but within the grace the console opens again without the PIN
    assert ctl.director() == {"signed_in": False, "grace_s": 30, "grace_setting": 30}
    boot.advance(10)
    assert ctl.refresh_countdowns()["director"]["grace_s"] == 20  # the screens count it down
    assert ctl.resume(token) and ctl.director()["signed_in"] is True
    ctl.td_exposed_cards(token, "S", ["C2"])  # a tool, without the PIN
    ctl.sign_out(token)  # Back
    assert ctl.director()["grace_s"] == 30
    boot.advance(30)
    assert not ctl.resume(token) and ctl.director() == {"signed_in": False, "grace_s": 0, "grace_setting": 30}
    refused_as_signed_out(ctl, lambda: ctl.td_exposed_cards(token, "S", ["C3"]))
    # the wall clock set back gives no grace back: it runs on the boot clock
    clock.advance(-3600)
    assert not ctl.resume(token)


def test_the_grace_ends_with_the_round_and_never_outlives_a_timeout_or_the_background(make_controller, clock, boot):
    ctl = make_controller()
    ctl.set_club_defaults(director_grace_s=60)
    ctl.setup({**DBF, "boards": [1]})
    token = ctl.sign_in("4321")
    for seat, call in (("N", "1H"), ("E", "P"), ("S", "P"), ("W", "P")):
        clock.advance(2)
        assert ctl.box_event(seat, "call", call=call)["ok"]
    ctl.enter_result(7)
    ctl.ew_confirm(True)
    assert ctl.phase == "round_end" and ctl.director()["signed_in"]  # his own console: not the table's doing
    ctl.sign_out(token)  # the app shows the round's end: the console is left
    assert ctl.director()["grace_s"] == 60
    ctl.setup({**DBF, "round": 3, "boards": [2], "ew_pair": 7})
    assert ctl.director()["grace_s"] == 0 and not ctl.resume(token)  # another round: ended
    # the app going to the background (or the console's own timeout) ends it with no grace
    token = ctl.sign_in("4321")
    ctl.sign_out(token, grace=False)
    assert ctl.director()["grace_s"] == 0 and not ctl.resume(token)


def test_an_unattended_console_signs_out_by_itself(make_controller, clock, boot):
    ctl = make_controller()
    ctl.setup(DBF)
    freeze(ctl, clock)
    token = ctl.sign_in("4321")
    boot.advance(IDLE_S - 1)
    ctl.director_touch(token)  # the director is reading the options
    boot.advance(IDLE_S - 1)
    assert ctl.director()["signed_in"] is True
    boot.advance(1)
    assert ctl.director()["signed_in"] is False and ctl.published["director"]["signed_in"] is False
    refused_as_signed_out(ctl, lambda: ctl.td_decide(token, "accept"))
