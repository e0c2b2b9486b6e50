"""The controller in parts (tablet_app/control/): one handler per journal record kind, memory that
equals what a restart replays, and the immutable snapshot a screen on another thread reads."""
import copy
import json
import pathlib
import threading

import pytest

from tablet_app.control import reducer
from tablet_app.control.reducer import handles
from tests.tablet.conftest import SESSION

PIN = "4321"
FSB = {**SESSION, "profile": "fsb-2007"}
# every record kind the controller journalled before it was split (tests/tablet/old_journal.py)
OLD_KINDS = set(json.loads((pathlib.Path(__file__).parent / "data" / "evening.json").read_text())["kinds"])
# every kind added since, each replayed by its own tests (player numbers: test_player_numbers.py;
# an agreed result replaced by the TD's assigned score, Law 12C1: test_assigned_score.py)
NEW_KINDS = {"players", "reruled"}


def calls(ctl, clock, *seq, think=2.0):
    for seat, call in seq:
        clock.advance(think)
        assert ctl.box_event(seat, "call", call=call)["ok"], (seat, call)


def test_every_journal_record_kind_has_exactly_one_handler():
    import tablet_app.controller  # noqa: F401  (registers every part's handlers)

    assert set(reducer.HANDLERS) == OLD_KINDS | NEW_KINDS
    with pytest.raises(ValueError, match="two handlers"):
        handles("event")(lambda f, body: None)


def test_a_record_kind_this_version_does_not_know_is_named_never_skipped(make_controller, tmp_path):
    # a journal from a newer version: the start stops at that record (JournalDamaged), it does
    # not replay a table without it
    from tablet_app.journal import JournalDamaged

    ctl = make_controller(tmp_path / "j.db")
    ctl.setup(SESSION)
    ctl.journal.append("teleport", {"to": "table 9"})
    n = ctl.journal.count()
    ctl.close()
    with pytest.raises(JournalDamaged, match=rf"record {n}: the 'teleport' record cannot be replayed "
                                             r"\(unknown journal record kind 'teleport'\)"):
        make_controller(tmp_path / "j.db")


def test_a_result_keeps_the_director_calls_as_they_stood_when_it_was_confirmed(make_controller, clock, tmp_path):
    # East's TD key during the play; North's result is confirmed before the director comes: the
    # record (journalled and queued) holds the call open. When the director then attends to it,
    # the record in memory must not change: a restart replays it as it was journalled.
    ctl = make_controller(tmp_path / "j.db")
    ctl.setup(SESSION)
    calls(ctl, clock, ("N", "1H"), ("E", "P"), ("S", "P"), ("W", "P"))
    ctl.box_event("E", "td", seq=1, box_ms=1)
    ctl.enter_result(7)
    rec = ctl.ew_confirm()
    assert [c.get("status") for c in rec["td_calls"]] == [None]
    assert ctl.td_attended(PIN)
    assert [c.get("status") for c in ctl.done[0]["td_calls"]] == [None]
    assert ctl.td_calls[-1]["status"] == "resolved"
    again = make_controller(tmp_path / "j.db")
    assert again.done == ctl.done and again.td_calls == ctl.td_calls


def test_a_snapshot_is_published_after_each_input(make_controller, clock):
    ctl = make_controller()
    seen = []
    ctl.on_publish.append(seen.append)
    ctl.setup(SESSION)
    calls(ctl, clock, ("N", "1H"))
    ctl.box_event("S", "call", call="2C")  # refused (out of turn): journalled, published too
    assert len(seen) == 3 and seen[-1] is ctl.published
    assert dict(ctl.published) == ctl.snapshot()
    assert [c["call"] for c in seen[1]["state"]["calls"]] == ["1H"]


def test_the_published_snapshot_cannot_be_changed_and_nothing_under_it_changes_later(make_controller, clock):
    ctl = make_controller()
    ctl.setup(SESSION)
    calls(ctl, clock, ("N", "1H"), ("E", "P"), ("S", "P"), ("W", "P"))
    ctl.box_event("E", "td", seq=1, box_ms=1)
    old = ctl.published
    kept = copy.deepcopy(dict(old))
    with pytest.raises(TypeError):
        old["phase"] = "round_end"
    assert old["td_calls"] and old["phase"] == "play"
    ctl.td_attended(PIN)  # the open call is resolved
    ctl.enter_result(7)
    ctl.ew_confirm()
    calls(ctl, clock, ("E", "1NT"), ("S", "P"))  # board 2
    assert ctl.published["board"] == 2 and dict(old) == kept


def test_a_batch_of_inputs_is_published_once_at_its_end(make_controller, clock):
    ctl = make_controller()
    ctl.setup(SESSION)
    seen = []
    ctl.on_publish.append(seen.append)
    with ctl.lock, ctl.batch():
        calls(ctl, clock, ("N", "1H"), ("E", "P"), ("S", "2H"))
        assert seen == []
    assert len(seen) == 1 and [c["call"] for c in seen[0]["state"]["calls"]] == ["1H", "P", "2H"]


def test_fsb_L116B_the_published_stop_wait_counts_down_with_time_alone(make_controller, clock):
    ctl = make_controller()
    ctl.setup(FSB)
    ctl.box_event("N", "stop", seq=1, box_ms=10)
    clock.advance(2.0)
    assert ctl.box_event("N", "call", call="2H", seq=2, box_ms=2010)["ok"]
    assert ctl.published["stop_wait"]["remaining"] == pytest.approx(10.0)
    clock.advance(4.0)
    n = ctl.journal.count()
    assert ctl.refresh_countdowns()["stop_wait"]["remaining"] == pytest.approx(6.0)
    assert ctl.published["stop_wait"]["remaining"] == pytest.approx(6.0) and ctl.journal.count() == n
    clock.advance(7.0)
    assert ctl.refresh_countdowns()["stop_wait"] is None
    seen = []
    ctl.on_publish.append(seen.append)
    ctl.refresh_countdowns()  # nothing counts down: nothing is published
    assert seen == []


def test_the_published_pin_lockout_counts_down_with_time_alone(make_controller, boot):
    ctl = make_controller()
    ctl.setup(SESSION)
    while not ctl.published["pin"]["locked_until"]:
        assert not ctl.check_pin("0000")
    wait = ctl.published["pin"]["wait_s"]
    boot.advance(1.0)  # the lockout's clock (tablet_app/pin_lockout.py), not the wall clock
    assert ctl.refresh_countdowns()["pin"]["wait_s"] == wait - 1
    boot.advance(wait)
    assert ctl.refresh_countdowns()["pin"]["locked_until"] is None


def test_an_input_from_another_thread_waits_for_the_one_under_way(make_controller, clock):
    ctl = make_controller()
    ctl.setup(SESSION)
    done = threading.Event()

    def box() -> None:
        ctl.box_event("N", "call", call="1H")
        done.set()

    with ctl.lock:  # as the link thread holds it while it journals a batch of box events
        t = threading.Thread(target=box)
        t.start()
        assert not done.wait(0.2) and ctl.estate["calls"] == []
    t.join(30)
    assert done.is_set() and [c["call"] for c in ctl.estate["calls"]] == ["1H"]
