"""A director PIN a club can trust: the attacks that found `1234` on every tablet,
592,914 guesses in 0.19 s, the PIN in clear in the journal, and an agreed 4H= changed to 13."""

import pytest

from station.records import validate_item
from tablet_app import pin, pin_lockout
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


def test_a_guesser_at_the_table_is_locked_out_and_every_try_is_journalled(make_controller, clock, boot, tmp_path):
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
        boot.advance(0.1)
    evaluated = wrong_tries_journalled(ctl)
    # 1,000 s of guessing: 3 free tries, then one each time the doubling lockout expires.
    assert accepted == [] and evaluated <= 12 and locked > 9_900
    # each wrong try went to the station as a director call it takes
    calls = [(k, p) for k, kind, p in outbox_items(ctl.outbox) if kind == "td_call" and p["reason"] == "wrong_pin"]
    assert len(calls) == evaluated
    for key, payload in calls:
        validate_item("td_call", key, payload)
    # the lockout grows with each wrong try: the next one waits twice as long as the last
    boot.advance(ctl.pin_state()["wait_s"])
    with pytest.raises(PinError):
        ctl.td_decide("0000", "accept")
    assert ctl.pin_state()["wait_s"] == pin.lockout_s(evaluated + 1) == 2 * pin.lockout_s(evaluated)
    # even the right PIN is not looked at while locked out: a guesser learns nothing
    with pytest.raises(PinLocked) as e:
        ctl.td_decide("4321", "accept")
    assert e.value.key == "pin.locked" and e.value.params["wait_s"] > 0
    # ... and a restart does not reset it: the tries are in the journal and the mark
    state = ctl.pin_state()
    ctl.journal.conn.close()
    again = make_controller(db)
    assert again.pin_state() == state and not again.check_pin("4321")
    boot.advance(state["wait_s"])
    assert again.check_pin("4321") and again.pin_state()["wrong_tries"] == 0


def three_wrong(ctl, boot):
    """Three wrong PINs: the fourth try waits FIRST_DELAY_S."""
    for _ in range(pin.FREE_TRIES):
        assert not ctl.check_pin("1111")
    assert ctl.pin_state()["wait_s"] == pin.FIRST_DELAY_S


def test_setting_the_tablets_clock_forward_does_not_end_the_lockout(make_controller, clock, boot):
    ctl = make_controller()
    ctl.setup(SESSION)
    three_wrong(ctl, boot)
    clock.advance(86_400)  # the tablet's date set a day ahead
    with pytest.raises(PinLocked):
        ctl.sign_in("4321")
    assert ctl.pin_state()["wait_s"] == pin.FIRST_DELAY_S
    clock.advance(-2 * 86_400)  # ... or back: the wait neither ends nor grows
    assert ctl.pin_state()["wait_s"] == pin.FIRST_DELAY_S
    boot.advance(pin.FIRST_DELAY_S)  # only time passing ends it
    assert ctl.check_pin("4321") and ctl.pin_state() == {"set": True, "wrong_tries": 0, "locked_until": None,
                                                         "wait_s": 0}


def test_a_restart_keeps_the_wait_left_on_the_same_boot(make_controller, boot, tmp_path):
    db = tmp_path / "t.db"
    ctl = make_controller(db)
    ctl.setup(SESSION)
    three_wrong(ctl, boot)
    boot.advance(2)
    ctl.close()
    boot.advance(1)  # the app was down for a second: the wait went on
    again = make_controller(db)
    assert again.pin_state()["wrong_tries"] == 3 and again.pin_state()["wait_s"] == 2
    boot.advance(2)
    assert not again.check_pin("2222")  # the 4th wrong try doubles the wait
    assert again.pin_state()["wait_s"] == 2 * pin.FIRST_DELAY_S


def test_a_reboot_keeps_the_wait_that_was_left(make_controller, boot, tmp_path):
    db = tmp_path / "t.db"
    ctl = make_controller(db)
    ctl.setup(SESSION)
    three_wrong(ctl, boot)
    for _ in range(3):  # three more, each after the wait: 10, 20, 40 s
        boot.advance(ctl.pin_state()["wait_s"])
        assert not ctl.check_pin("1111")
    assert ctl.pin_state()["wait_s"] == 40
    for _ in range(12):  # 12 s of waiting, the screen's clock asking as it counts down
        boot.advance(1)
        ctl.refresh_countdowns()
    left = ctl.pin_state()["wait_s"]
    assert left == 28
    ctl.close()
    boot.reboot(up_s=15)  # powered off for an hour, say: the boot clock starts again, another boot id
    again = make_controller(db)
    state = again.pin_state()
    # what was left when it was last noted (at most NOTE_EVERY_S before the power went)
    assert state["wrong_tries"] == 6 and left <= state["wait_s"] <= left + pin_lockout.NOTE_EVERY_S
    with pytest.raises(PinLocked):
        again.sign_in("4321")
    boot.advance(state["wait_s"])
    assert again.check_pin("4321")


def test_wrong_tries_on_a_full_disk_count_after_a_restart(small_disk, make_controller, boot):
    from tests.tablet.conftest import fill

    db = small_disk / "tablet.db"
    ctl = make_controller(db)
    ctl.setup(SESSION)
    journalled = ctl.journal.count()
    filler = fill(small_disk)
    for _ in range(5):  # the journal takes none of them
        boot.advance(ctl.pin_state()["wait_s"])
        assert not ctl.check_pin("1111")
    assert ctl.journal.count() == journalled and ctl.snapshot()["disk_full"]
    assert ctl.pin_state()["wrong_tries"] == 5 and ctl.pin_state()["wait_s"] == pin.lockout_s(5)
    ctl.journal.conn.close()  # the tablet restarted, the disk still full
    again = make_controller(db)
    assert again.pin_state()["wrong_tries"] == 5 and again.pin_state()["wait_s"] == pin.lockout_s(5)
    with pytest.raises(PinLocked):
        again.sign_in("4321")
    filler.unlink()  # space again: the next wrong try is journalled and counts on top
    boot.advance(pin.lockout_s(5))
    assert not again.check_pin("1111")
    assert again.pin_state()["wrong_tries"] == 6 and wrong_tries_journalled(again) == 1
    again.journal.conn.close()
    third = make_controller(db)
    assert third.pin_state()["wrong_tries"] == 6
    boot.advance(pin.lockout_s(6))
    assert third.check_pin("4321") and third.pin_state()["wrong_tries"] == 0
    third.journal.conn.close()
    assert make_controller(db).pin_state()["wrong_tries"] == 0


def test_without_its_mark_the_journal_still_holds_the_count_and_the_whole_last_wait(make_controller, boot,
                                                                                     tmp_path):
    db = tmp_path / "t.db"
    ctl = make_controller(db)
    ctl.setup(SESSION)
    three_wrong(ctl, boot)
    boot.advance(4)
    ctl.close()
    (tmp_path / "t.db.pinlock").unlink()  # deleted, or damaged
    again = make_controller(db)
    assert again.pin_state()["wrong_tries"] == 3 and again.pin_state()["wait_s"] == pin.FIRST_DELAY_S


def test_the_pin_never_appears_in_clear_in_the_journal_file(make_controller, clock, tmp_path, real_pin_cost):
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
    assert set(stored) == {"algorithm", "salt", "hash", "iterations"} and stored["iterations"] == pin.ITERATIONS >= 100_000
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
