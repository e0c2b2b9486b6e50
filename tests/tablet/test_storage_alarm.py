"""A tablet's disk fills up mid-auction: the tablet says so on its own screen, and
the station's director page must hear of it too, although nothing can be queued in the full
journal file. A real station over HTTP, the journal on a real 1 MB tmpfs filled to the last byte."""
import sqlite3
import time

import pytest

from tablet_app.controller import Controller
from tablet_app.outbox import Deliverer
from tests.station.conftest import EVENT
from tests.tablet.conftest import Clock, fill
from tests.tablet.test_journal import play

TABLE = f"{EVENT}/A/3"


def outbox_rows(db) -> list[tuple[str, str, str]]:
    with sqlite3.connect(db) as c:  # reading a full disk works; only writes fail
        return c.execute("SELECT kind, item_key, state FROM outbox ORDER BY id").fetchall()


def status_of(station) -> dict:
    """What the director page renders (status.json), over HTTP."""
    return station.request("GET", f"/director/status.json?token={station.token}")[1]


def storage_calls(s: dict) -> list[dict]:
    return [c for c in s["open_td_calls"] if c.get("reason") == "storage_full"]


def wait_for(station, d, cond, what: str) -> dict:
    deadline = time.monotonic() + 60  # ends a hang
    while time.monotonic() < deadline:
        s = status_of(station)
        if cond(s):
            return s
        time.sleep(0.05)  # how often it looks, not how long it waits
    raise AssertionError(f"the director page never showed {what}: {s['open_td_calls']}, {d.last_error}")


def test_a_full_tablet_disk_is_an_open_call_on_the_director_page_until_space_returns(station, small_disk):
    db = small_disk / "tablet.db"
    clock = Clock()
    ctl = Controller(db, clock=clock)
    d = Deliverer(str(db), station.url, TABLE, station.keys[TABLE], min_backoff=0.05,
                  max_backoff=0.2).watch_storage(ctl).start()

    def page():
        return status_of(station)

    def until(cond, what):
        return wait_for(station, d, cond, what)

    try:
        ctl.setup({"event": EVENT, "section": "A", "table": 3, "round": 1, "boards": [1, 2], "ns_pair": 3,
                   "ew_pair": 13, "profile": "dbf-2017", "td_pin": "2468", "tables": 4})
        play(ctl, clock, ["1H", "P"], seq0=1)
        assert d.drain(), d.last_error
        assert storage_calls(page()) == []
        rows_before = outbox_rows(db)

        filler = fill(small_disk)
        clock.advance(2)
        r = ctl.box_event("S", "call", call="4H", seq=3, box_ms=300)
        assert r["disk_full"] is True and ctl.snapshot()["disk_full"] is True
        s = until(lambda s: storage_calls(s), "the storage call")
        [call] = storage_calls(s)
        assert (call["section"], call["table"], call["round"], call["board"]) == ("A", 3, 1, 1)
        assert call["note"].startswith("tablet storage full")
        html = station.request("GET", f"/director?token={station.token}")[1]
        assert "Table A3, round 1, board 1: tablet storage full — the table called" in html
        # the box sends it again while the disk is still full: refused again, the same call
        assert ctl.box_event("S", "call", call="4H", seq=3, box_ms=300)["disk_full"] is True
        # a restarted deliverer (the tablet's app restarted on the full disk) says it again:
        # the same key, a duplicate at the station, not a second call
        again = Deliverer(str(db), station.url, TABLE, station.keys[TABLE]).watch_storage(ctl)
        assert again.storage_alarm() is True and again.last_error is None
        s = page()
        assert len(storage_calls(s)) == 1
        assert [k for k in s["stored_keys"] if "/storage/" in k] == [call["key"]]
        assert outbox_rows(db) == rows_before  # nothing was written to the full file

        filler.unlink()
        r = ctl.box_event("S", "call", call="4H", seq=3, box_ms=300)  # the box's resend, taken
        assert r["ok"] is True and ctl.snapshot()["disk_full"] is False
        s = until(lambda s: not storage_calls(s), "the storage call resolved")
        assert [k for k in s["stored_keys"] if "/storage/" in k] == [call["key"], call["key"] + "/resolved"]
        html = station.request("GET", f"/director?token={station.token}")[1]
        assert "tablet storage full" not in html
        # and the table's own items after the refusal go through, each once
        play(ctl, clock, ["P", "P", "P"], dealer="W", seq0=4)
        assert d.drain(), d.last_error
        assert [c["call"] for c in ctl.estate["calls"]] == ["1H", "P", "4H", "P", "P", "P"]
        rows = outbox_rows(db)
        assert {state for _, _, state in rows} == {"delivered"}
        stored = page()["stored_keys"]
        # the storage call and its end are queued too (durable), each stored once
        assert sorted(stored) == sorted(k for _, k, _ in rows)
        assert len(stored) == len(set(stored))
    finally:
        d.stop()
        ctl.close()


def test_items_waiting_when_the_disk_fills_neither_hold_up_the_alarm_nor_lock_the_journal(station, small_disk):
    """The deliverer cannot mark a queued item sent on a full disk: its failed write must not
    keep the file locked (the box's resend after space returns would wait on it), and the
    alarm goes first."""
    db = small_disk / "tablet.db"
    clock = Clock()
    ctl = Controller(db, clock=clock)
    d = Deliverer(str(db), station.url, TABLE, station.keys[TABLE], min_backoff=0.05,
                  max_backoff=0.2).watch_storage(ctl)
    try:
        ctl.setup({"event": EVENT, "section": "A", "table": 3, "round": 1, "boards": [1, 2], "ns_pair": 3,
                   "ew_pair": 13, "profile": "dbf-2017", "td_pin": "2468", "tables": 4})
        play(ctl, clock, ["1H", "P"], seq0=1)
        waiting = [k for _, k, state in outbox_rows(db) if state == "pending"]
        assert waiting
        filler = fill(small_disk)
        assert ctl.box_event("S", "call", call="4H", seq=3, box_ms=300)["disk_full"] is True
        d.start()
        s = wait_for(station, d, storage_calls, "the storage call")
        assert [c["reason"] for c in s["open_td_calls"]] == ["storage_full"]
        assert not any(k in s["stored_keys"] for k in waiting)  # not sent: they cannot be marked sent
        deadline = time.monotonic() + 60  # ends a hang
        while "full" not in (d.last_error or "") and time.monotonic() < deadline:
            time.sleep(0.05)  # the pump tries the waiting items against the full disk meanwhile
        assert "full" in (d.last_error or ""), d.last_error
        filler.unlink()
        r = ctl.box_event("S", "call", call="4H", seq=3, box_ms=300)
        assert r["ok"] is True, r
        assert d.drain(), d.last_error
        s = wait_for(station, d, lambda s: s["open_td_calls"] == [], "the storage call resolved")
        stored = s["stored_keys"]
        assert len(stored) == len(set(stored))
        assert sorted(stored) == sorted(k for _, k, _ in outbox_rows(db))
    finally:
        d.stop()
        ctl.close()


def test_the_storage_key_is_only_for_the_storage_call():
    """A box's TD call cannot take the storage call's key, nor the storage call a box call's."""
    from station.records import RecordError, validate_item

    base = {"kind": "td_call", "event": EVENT, "section": "A", "table": 3, "round": 1, "board": 2,
            "seat": None, "at": 1_763_800_000}
    good = f"{EVENT}/A/3/1/2/storage/7"
    validate_item("td_call", good, {**base, "key": good, "reason": "storage_full"})
    validate_item("td_call", good + "/resolved", {**base, "key": good + "/resolved", "reason": "storage_full",
                                                  "status": "resolved"})
    for key, reason in ((good, "td_key"), (f"{EVENT}/A/3/1/2/td/7", "storage_full")):
        with pytest.raises(RecordError, match="key: expected"):
            validate_item("td_call", key, {**base, "key": key, "reason": reason})


def tablet(station, db, clock) -> tuple[Controller, Deliverer]:
    """The tablet's app as `python -m tablet_app.app` wires it: controller, pump, storage alarm."""
    ctl = Controller(db, clock=clock)
    return ctl, Deliverer(str(db), station.url, TABLE, station.keys[TABLE], min_backoff=0.05,
                          max_backoff=0.2).watch_storage(ctl).start()


def disk_fills_mid_auction(station, small_disk, ctl, d, clock):
    """1H P delivered, then the disk fills and South's 4H is refused: the director page shows
    the storage call (returned, with the filler to delete)."""
    ctl.setup({"event": EVENT, "section": "A", "table": 3, "round": 1, "boards": [1, 2], "ns_pair": 3,
               "ew_pair": 13, "profile": "dbf-2017", "td_pin": "2468", "tables": 4})
    play(ctl, clock, ["1H", "P"], seq0=1)
    assert d.drain(), d.last_error
    filler = fill(small_disk)
    clock.advance(2)
    assert ctl.box_event("S", "call", call="4H", seq=3, box_ms=300)["disk_full"] is True
    [call] = storage_calls(wait_for(station, d, storage_calls, "the storage call"))
    return call, filler


def switched_off_on_a_full_disk(station, small_disk, db, clock):
    """`disk_fills_mid_auction`, then the tablet is switched off with the disk still full."""
    ctl, d = tablet(station, db, clock)
    try:
        return disk_fills_mid_auction(station, small_disk, ctl, d, clock)
    finally:
        d.stop()
        ctl.close()


def test_a_storage_call_resolved_while_the_station_was_away_is_closed_after_the_tablet_restarts(station, small_disk):
    """The club's evening: the tablet's disk fills, the director page shows the call; the
    station's PC goes down; space is freed and the box's resend is taken; the tablet's battery
    dies before it could tell the station. Both come back: the director page must not keep a
    call open for a disk that is no longer full."""
    db = small_disk / "tablet.db"
    clock = Clock()
    ctl, d = tablet(station, db, clock)
    try:
        call, filler = disk_fills_mid_auction(station, small_disk, ctl, d, clock)

        station.kill()  # the station's PC goes down
        filler.unlink()
        r = ctl.box_event("S", "call", call="4H", seq=3, box_ms=300)  # the box's resend, taken
        assert r["ok"] is True and ctl.snapshot()["disk_full"] is False
        deadline = time.monotonic() + 60  # ends a hang
        while "unreachable" not in (d.last_error or ""):  # the pump tries the dead station meanwhile
            assert time.monotonic() < deadline, d.last_error
            time.sleep(0.05)  # how often it looks, not how long it waits
    finally:
        d.stop()  # the tablet dies: nothing more reaches the station from this run
        ctl.close()

    station.start()  # the same database, the same port
    ctl, d = tablet(station, db, clock)
    try:
        assert d.drain(), d.last_error
        s = wait_for(station, d, lambda s: not storage_calls(s), "the storage call resolved")
        assert call["key"] + "/resolved" in s["stored_keys"]
        assert [c["call"] for c in ctl.estate["calls"]] == ["1H", "P", "4H"]
        assert {state for _, _, state in outbox_rows(db)} == {"delivered"}
        assert len(s["stored_keys"]) == len(set(s["stored_keys"]))
    finally:
        d.stop()
        ctl.close()


def test_a_tablet_restarted_once_space_is_freed_closes_the_storage_call(station, small_disk):
    """The TD sees the red line, frees space and restarts the tablet (the usual remedy) before
    any call could be written: the new start must know the storage call it raised is over."""
    db, clock = small_disk / "tablet.db", Clock()
    call, filler = switched_off_on_a_full_disk(station, small_disk, db, clock)

    filler.unlink()
    clock.advance(60)
    ctl, d = tablet(station, db, clock)
    try:
        s = wait_for(station, d, lambda s: not storage_calls(s), "the storage call resolved")
        assert call["key"] + "/resolved" in s["stored_keys"]
        assert ctl.snapshot()["disk_full"] is False and ctl.storage_since is None
        assert ctl.box_event("S", "call", call="4H", seq=3, box_ms=300)["ok"] is True  # the box's resend
        assert d.drain(), d.last_error
        s = status_of(station)
        assert len(s["stored_keys"]) == len(set(s["stored_keys"]))
        assert sorted(s["stored_keys"]) == sorted(k for _, k, _ in outbox_rows(db))
    finally:
        d.stop()
        ctl.close()


def test_a_storage_call_the_station_holds_with_another_time_is_not_a_refused_item(station, small_disk):
    """The tablet restarted on the full disk without its storage mark (e.g. a filesystem that
    could not overwrite it): the refusals after the same record are the same call with another
    `at`. When space returns the outbox's copy of the call gets 409 from the station: that is
    "already known", delivered, not an item the director console lists as refused."""
    db, clock = small_disk / "tablet.db", Clock()
    call, filler = switched_off_on_a_full_disk(station, small_disk, db, clock)
    (small_disk / "tablet.db.storage").unlink()  # the mark lost
    filler.unlink()
    # Switched off, not shut down: the journal's WAL and its index stay on the disk as a power
    # cut leaves them. (The helper closes the journal cleanly, which deletes them when its
    # checkpoint fits, and SQLite cannot make the index again on a disk with no byte free.)
    power_cut = sqlite3.connect(str(db))
    power_cut.execute("SELECT count(*) FROM sqlite_master").fetchall()
    filler = fill(small_disk)  # and the page the mark held filled too
    clock.advance(30)
    ctl, d = tablet(station, db, clock)
    try:
        r = ctl.box_event("S", "call", call="4H", seq=3, box_ms=300)
        assert r.get("disk_full") is True, r
        deadline = time.monotonic() + 60  # ends a hang
        while d._alarm_key != call["key"] and time.monotonic() < deadline:
            time.sleep(0.05)  # posted again: 409 at the station, the same open call
        assert d._alarm_key == call["key"] and len(storage_calls(status_of(station))) == 1
        filler.unlink()
        assert ctl.box_event("S", "call", call="4H", seq=3, box_ms=300)["ok"] is True
        assert d.drain(), d.last_error
        s = wait_for(station, d, lambda s: not storage_calls(s), "the storage call resolved")
        assert {state for _, _, state in outbox_rows(db)} == {"delivered"}
        assert ctl.delivery()["refused"] == []
        assert sorted(s["stored_keys"]) == sorted(k for _, k, _ in outbox_rows(db))
    finally:
        d.stop()
        ctl.close()
        power_cut.close()
