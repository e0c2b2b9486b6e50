"""A director PIN a club can trust: the attacks that found `1234` on every tablet,
592,914 guesses in 0.19 s, the PIN in clear in the journal, and an agreed 4H= changed to 13."""

import pytest

from station.records import validate_item
from tablet_app import pin
from tablet_app.controller import PinError, PinLocked
from tablet_app.session import SetupError
from tests.tablet.conftest import SESSION
from tests.tablet.outbox_rows import outbox_items


def wrong_tries_journalled(ctl):
    return sum(1 for _, kind, _ in ctl.journal.records() if kind == "pin_wrong")


def test_no_built_in_pin_a_tablet_set_up_without_one_is_refused(make_controller):
    ctl = make_controller()
    bare = {k: v for k, v in SESSION.items() if k != "td_pin"}
    with pytest.raises(SetupError) as e:
        ctl.setup(bare)
    assert e.value.key == "setup.pin_missing" and ctl.journal.count() == 0
    ctl.set_club_defaults(director_pin="24680")  # typed by the TD at setup (no station)
    ctl.setup(bare)
    assert ctl.check_pin("24680") and not ctl.check_pin("1234")


def test_a_guesser_at_the_table_is_locked_out_and_every_try_is_journalled(make_controller, clock, tmp_path):
    db = tmp_path / "j.db"
    ctl = make_controller(db)
    ctl.setup(SESSION)  # PIN 4321
    # The attack: every 4-digit PIN in order, as fast as the console takes them (0.1 s each).
    accepted, locked = [], 0
    for n in range(10_000):
        guess = f"{n:04d}"
        try:
            if ctl.check_pin(guess):
                accepted.append(guess)
        except PinError:
            pass
        if ctl.pin_state()["locked_until"] is not None:
            locked += 1
        clock.advance(0.1)
    evaluated = wrong_tries_journalled(ctl)
    # 1,000 s of guessing: 3 free tries, then one each time the doubling lockout expires.
    assert accepted == [] and evaluated <= 12 and locked > 9_900
    # each wrong try went to the station as a director call it takes
    calls = [(k, p) for k, kind, p in outbox_items(ctl.outbox) if kind == "td_call" and p["reason"] == "wrong_pin"]
    assert len(calls) == evaluated
    for key, payload in calls:
        validate_item("td_call", key, payload)
    # the lockout grows with each wrong try: the next one waits twice as long as the last
    until = ctl.pin_state()["locked_until"]
    clock.t = until
    with pytest.raises(PinError):
        ctl.td_decide("0000", "accept")
    assert ctl.pin_state()["locked_until"] - clock.t == pin.lockout_s(evaluated + 1) == 2 * pin.lockout_s(evaluated)
    # even the right PIN is not looked at while locked out: a guesser learns nothing
    with pytest.raises(PinLocked) as e:
        ctl.td_decide("4321", "accept")
    assert e.value.key == "pin.locked" and e.value.params["wait_s"] > 0
    # ... and a restart does not reset it: the tries are in the journal
    state = ctl.pin_state()
    ctl.journal.conn.close()
    again = make_controller(db)
    assert again.pin_state() == state and not again.check_pin("4321")
    clock.t = state["locked_until"]
    assert again.check_pin("4321") and again.pin_state()["wrong_tries"] == 0


def test_the_pin_never_appears_in_clear_in_the_journal_file(make_controller, clock, tmp_path):
    db = tmp_path / "tablet.db"
    ctl = make_controller(db)
    ctl.setup({**SESSION, "td_pin": "73915048"})
    ctl.check_pin("11111111")
    assert ctl.check_pin("73915048")
    token = ctl.sign_in("73915048")
    assert ctl.check_pin(token)
    snap = ctl.snapshot()
    assert "73915048" not in repr(snap) and snap["session"]["td_pin"] == ""
    stored = ctl.session.td_pin
    assert set(stored) == {"algorithm", "salt", "hash", "iterations"} and stored["iterations"] >= 100_000
    ctl.close()
    data = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("tablet.db"))
    assert b"73915048" not in data and b"11111111" not in data
    assert stored["hash"].encode() in data  # the hash is what the journal keeps


def test_an_agreed_result_changed_by_the_director_leaves_who_and_why(make_controller, clock):
    ctl = make_controller()
    ctl.setup(SESSION)
    for seat, call in zip("NESWNE", ["1H", "P", "4H", "P", "P", "P"], strict=True):
        clock.advance(1)
        assert ctl.box_event(seat, "call", call=call)["ok"]
    ctl.enter_result(10)
    agreed = ctl.ew_confirm()
    # a player who does not have the PIN cannot make 4H= into 13 tricks
    with pytest.raises(PinError):
        ctl.td_correct_result("1234", 1, 13, reason="claim")
    with pytest.raises(PinError):
        ctl.td_correct_result("", 1, 13, reason="claim")
    assert [k for k, kind, _ in outbox_items(ctl.outbox) if kind == "result"] == [agreed["key"]]
    rec = ctl.td_correct_result("4321", 1, 11, reason="revoke: one trick transferred (L64A)", by="TD Erik")
    assert rec["correction"] == {"by": "TD Erik", "reason": "revoke: one trick transferred (L64A)",
                                 "previous": agreed["key"], "law": "L79C"}
    validate_item("result", rec["key"], rec)
    assert rec["key"].endswith("/2") and rec["score_ns"] == 450
