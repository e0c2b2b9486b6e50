"""A journal written before the controller was split into parts opens and replays to the same
table, after every transaction it committed, and the live path goes on from it as that version
did (tests/tablet/old_journal.py says how the journal was made and what is compared). Where a
fix of the Laws changed what a prefix replays to, `evening.json`'s `amended` says which and why."""
import json
import pathlib
import shutil
import sqlite3
from contextlib import closing

import pytest

from tablet_app.controller import Controller
from tests.tablet.old_journal import Clock, digest, go_on, last_outbox_id, observe, outbox, prefix_copy

DATA = pathlib.Path(__file__).parent / "data"
OLD = json.loads((DATA / "evening.json").read_text())


@pytest.fixture
def old_db(tmp_path):
    db = tmp_path / "evening.db"
    shutil.copy(DATA / "evening.db", db)
    return db


def read_old() -> sqlite3.Connection:
    """The committed journal, read only: a plain connect to a WAL database writes its -shm and
    -wal beside it, in the checkout."""
    return sqlite3.connect(f"file:{DATA / 'evening.db'}?immutable=1", uri=True)


def test_the_old_journal_holds_every_record_kind():
    conn = read_old()
    kinds = {k for (k,) in conn.execute("SELECT kind FROM journal")}
    conn.close()
    assert kinds == set(OLD["kinds"]) and len(kinds) == 16


def test_an_old_journal_replays_to_the_same_table(old_db):
    ctl = Controller(old_db, clock=lambda: OLD["clock"])
    try:
        now = observe(ctl)
        for part in OLD["final"]:
            assert now[part] == OLD["final"][part], part
    finally:
        ctl.close()


def test_every_committed_state_of_the_old_journal_replays_to_the_same_table(old_db, tmp_path):
    differ = []
    for n, kind, phase, want in OLD["prefixes"]:
        copy = tmp_path / f"prefix-{n}.db"
        prefix_copy(old_db, copy, n)
        ctl = Controller(copy, clock=lambda: OLD["clock"])
        if (ctl.phase, digest(observe(ctl))) != (phase, want):
            differ.append((n, kind, ctl.phase, phase))
        ctl.close()
    assert differ == [] and len(OLD["prefixes"]) > 80


def test_the_live_path_goes_on_from_an_old_journal_as_before(old_db):
    clock = Clock(OLD["clock"])
    ctl = Controller(old_db, clock=clock)
    try:
        before = last_outbox_id(ctl.journal.conn)
        go_on(ctl, clock)
        # the station's items continue the old numbering (progress and TD calls); beside them,
        # each auction event as it happened (a kind the old version did not have), keyed by its
        # journal record, which follows the old journal's last one
        queued = outbox(ctl.journal.conn, before)
        assert [q for q in queued if q[1] != "auction_event"] == OLD["go_on"]["queued"]
        events = [q for q in queued if q[1] == "auction_event"]
        with closing(read_old()) as conn:
            last_old = conn.execute("SELECT MAX(seq) FROM journal").fetchone()[0]
        numbers = [q[2]["n"] for q in events]
        assert events and numbers == sorted(numbers) and numbers[0] > last_old
        assert all(q[0].endswith(f"/event/{q[2]['n']}") for q in events)
        now = observe(ctl)
        now["snapshot"]["delivery"]["waiting"] -= len(events)  # they wait in the outbox beside the old ones
        assert now == OLD["go_on"]["table"] and clock.t == OLD["go_on"]["clock"]
    finally:
        ctl.close()
