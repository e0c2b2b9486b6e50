"""A journal that never lies: a tablet.db copied without its -wal, bit flips in a
checkpointed journal, an edited row (2S into 3S), and a full disk on a real small tmpfs."""
import contextlib
import json
import os
import random
import shutil
import sqlite3

import pytest

from tablet_app.controller import Controller
from tablet_app.journal import JournalDamaged, JournalError
from tests.tablet.conftest import SESSION, Clock, fill
from tests.tablet.outbox_rows import outbox_items

ROT = ("N", "E", "S", "W")


def play(ctl, clock, calls, dealer="N", seq0=None):
    i = ROT.index(dealer)
    for k, c in enumerate(calls):
        clock.advance(1.5)
        seq = None if seq0 is None else seq0 + k
        r = ctl.box_event(ROT[(i + k) % 4], "call", call=c, seq=seq, box_ms=None if seq is None else seq * 100)
        assert r["ok"], r


def evening(db, clock):
    """Two boards with results, an irregularity ruled, a third board under way."""
    ctl = Controller(db, clock=clock)
    ctl.setup({**SESSION, "policy": "record"})
    play(ctl, clock, ["1H", "P", "4H", "P", "P", "P"])
    ctl.enter_result(10, "SA")
    ctl.ew_confirm()
    play(ctl, clock, ["1NT", "1S"], dealer="E")
    ctl.td_decide("4321", "accept")
    play(ctl, clock, ["2S", "P", "P", "P"], dealer="W")
    ctl.enter_result(8)
    ctl.ew_confirm()
    play(ctl, clock, ["1C", "P"], dealer="S")
    return ctl


def table_of(ctl):
    return json.dumps([ctl.snapshot(), outbox_items(ctl.outbox)], sort_keys=True, default=str)


def test_a_tablet_db_copied_without_its_wal_keeps_the_session(tmp_path):
    clock = Clock()
    ctl = evening(tmp_path / "tablet.db", clock)
    copy_dir = tmp_path / "copy"
    copy_dir.mkdir()
    shutil.copy(tmp_path / "tablet.db", copy_dir / "tablet.db")  # the -wal left behind, tablet running
    again = Controller(copy_dir / "tablet.db", clock=clock)
    # up to the last board end: the session, both results, both queued for the station
    assert again.session == ctl.session and again.done == ctl.done
    assert [k for k, kind, _ in outbox_items(again.outbox) if kind == "result"] == [r["key"] for r in ctl.done]
    assert again.board == 3
    again.close()
    ctl.close()


def flip_positions(size, n, seed):
    rnd = random.Random(seed)
    return [(rnd.randrange(size), rnd.randrange(8)) for _ in range(n)]


@pytest.mark.slow
def test_600_bit_flips_in_a_checkpointed_journal_are_harmless_or_named(tmp_path):
    clock = Clock()
    db = tmp_path / "tablet.db"
    evening(db, clock).close()
    assert not (tmp_path / "tablet.db-wal").exists() or (tmp_path / "tablet.db-wal").stat().st_size == 0
    base = db.read_bytes()
    want = Controller(db, clock=clock)
    reference = table_of(want)
    want.close()
    db.write_bytes(base)
    outcome = {"identical": 0, "detected": 0}
    work = tmp_path / "flip.db"
    for pos, bit in flip_positions(len(base), 600, seed=12):
        data = bytearray(base)
        data[pos] ^= 1 << bit
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(str(work) + suffix)
        work.write_bytes(bytes(data))
        try:
            ctl = Controller(work, clock=clock)
        except JournalDamaged as exc:
            assert exc.seq is None or exc.seq >= 1
            assert ("record " in str(exc) or "the file" in str(exc)) and "recover" in str(exc)
            outcome["detected"] += 1
            continue
        # never a raw sqlite3 / Unicode error (the test fails on any other exception), and
        # never a different table: what opens is the table that was written
        try:
            assert table_of(ctl) == reference, f"byte {pos} bit {bit}: a different table"
        finally:
            ctl.journal.conn.close()
        outcome["identical"] += 1
    print(outcome)
    assert outcome["detected"] > 0 and outcome["identical"] > 0


def test_an_edited_row_2S_into_3S_is_detected_and_the_table_recovers_the_records_before_it(tmp_path):
    clock = Clock()
    db = tmp_path / "tablet.db"
    ctl = evening(db, clock)
    results_before = [k for k, kind, _ in outbox_items(ctl.outbox) if kind == "result"]
    ctl.close()
    conn = sqlite3.connect(db)
    seq, body = next((s, b) for s, b in conn.execute("SELECT seq, body FROM journal WHERE kind = 'event'")
                     if '"call":"2S"' in b)
    conn.execute("UPDATE journal SET body = ? WHERE seq = ?", (body.replace('"2S"', '"3S"'), seq))
    conn.commit()
    conn.close()
    with pytest.raises(JournalDamaged) as e:
        Controller(db, clock=clock)
    assert e.value.seq == seq and f"record {seq}" in str(e.value)
    again = Controller.recover(db, clock=clock)
    # the records before the damage: board 1's result and board 2's start, nothing invented
    assert [r["board"] for r in again.done] == [1] and again.board == 2
    assert [c["call"] for c in again.estate["calls"]] == ["1NT", "1S"]
    # both results already queued are kept for the station (their digests hold)
    assert [k for k, kind, _ in outbox_items(again.outbox) if kind == "result"] == results_before
    assert any(p.name.startswith("tablet.db.damaged-") for p in tmp_path.iterdir())
    assert again.log[-1]["what"] == "recovered"
    again.close()


def test_an_unreadable_file_is_a_journal_error_never_a_raw_sqlite_error(tmp_path):
    db = tmp_path / "tablet.db"
    db.write_bytes(b"SQLite format 3\x00" + os.urandom(4000))
    with pytest.raises(JournalDamaged, match="the file"):
        Controller(db)


# -- a full disk, on a real small tmpfs -------------------------------------------------------------
def test_a_full_disk_refuses_the_call_without_advancing_the_auction_and_the_resend_is_taken(small_disk):
    clock = Clock()
    db = small_disk / "tablet.db"
    ctl = Controller(db, clock=clock)
    ctl.setup(SESSION)
    play(ctl, clock, ["1H", "P"], seq0=1)
    calls_before = [c["call"] for c in ctl.estate["calls"]]
    n = ctl.journal.count()
    filler = fill(small_disk)
    clock.advance(2)
    r = ctl.box_event("S", "call", call="4H", seq=3, box_ms=300)
    # refused, said, and to be sent again: memory did not run ahead of disk
    assert r["ok"] is False and r["retry"] is True and r["disk_full"] is True
    assert "storage" in r["reason"]
    snap = ctl.snapshot()
    assert snap["disk_full"] is True and "full" in snap["storage_error"]
    assert [c["call"] for c in ctl.estate["calls"]] == calls_before and ctl.phase == "auction"
    assert ctl.journal.count() == n
    # a TD action is refused the same way, with the table unchanged
    with pytest.raises(ValueError, match="storage"):
        ctl.td_exposed_cards("4321", "E", ["SK"])
    assert [c["call"] for c in ctl.estate["calls"]] == calls_before
    # guessing the PIN while the disk is full is not free: the lockout holds in memory
    for _ in range(4):
        assert ctl.check_pin("0000") is False
    assert ctl.pin_state()["locked_until"] is not None
    # the tablet restarted on the full disk: the table as journalled, or a clear message
    try:
        other = Controller(db, clock=clock)
        assert [c["call"] for c in other.estate["calls"]] == calls_before
        other.journal.conn.close()
    except JournalError as exc:
        assert "storage" in str(exc)
    # space comes back: the box's resend of the same call is taken, once
    filler.unlink()
    r = ctl.box_event("S", "call", call="4H", seq=3, box_ms=300)
    assert r == {"ok": True, "reason": None, "duplicate": False}
    assert ctl.snapshot()["disk_full"] is False
    assert ctl.box_event("S", "call", call="4H", seq=3, box_ms=300)["duplicate"] is True
    play(ctl, clock, ["P", "P", "P"], dealer="W", seq0=4)
    assert [c["call"] for c in ctl.estate["calls"]] == ["1H", "P", "4H", "P", "P", "P"] and ctl.phase == "play"
    ctl.close()
    assert [c["call"] for c in Controller(db, clock=clock).estate["calls"]] == ["1H", "P", "4H", "P", "P", "P"]


class FakeLink:
    """The LinkMaster's side the runner uses: events handed out once, acks held until commit()."""

    def __init__(self):
        self.queue, self.commits, self.states = [], 0, {}

    def poll(self, timeout=0.0):
        out, self.queue = self.queue, []
        return out

    def commit(self):
        self.commits += 1

    def send_state(self, seat, view):
        self.states[seat] = view

    def close(self):
        pass


def test_the_runner_keeps_a_call_the_full_disk_refused_and_acks_it_only_once_journalled(small_disk):
    from types import SimpleNamespace

    from tablet_app.runner import TableRunner

    clock = Clock()
    ctl = Controller(small_disk / "tablet.db", clock=clock)
    ctl.setup(SESSION)
    link = FakeLink()
    runner = TableRunner(ctl, link=link)
    filler = fill(small_disk)
    link.queue.append(SimpleNamespace(seat="N", kind="call", call="1NT", seq=0, box_ms=500, epoch=1))
    runner.step()
    assert link.commits == 0 and len(runner.retry) == 1 and ctl.estate["calls"] == []
    runner.step()
    assert link.commits == 0 and len(runner.retry) == 1
    filler.unlink()
    runner.step()
    assert runner.retry == [] and link.commits == 1 and [c["call"] for c in ctl.estate["calls"]] == ["1NT"]
    ctl.close()


def test_a_tablet_upgraded_mid_evening_keeps_its_journal_and_its_pin_leaves_the_file(tmp_path):
    # A journal as the version before the chain wrote it: no chain, the PIN in clear, boards by index.
    db = tmp_path / "tablet.db"
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE journal (seq INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, body TEXT NOT NULL)")
    conn.execute("CREATE TABLE outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, item_key TEXT NOT NULL "
                 "UNIQUE, payload TEXT NOT NULL, enqueued_at REAL NOT NULL, state TEXT NOT NULL DEFAULT 'pending', "
                 "attempts INTEGER NOT NULL DEFAULT 0, last_error TEXT, done_at REAL)")
    old = {**SESSION, "td_pin": "86421357", "policy": None, "tables": 5, "movement": "mitchell", "next_positions": None,
           "tray_delay_s": None, "no_alerts_by": []}
    for kind, body in (("setup", {"session": old}), ("board", {"index": 1, "started_at": 1_763_800_000.0}),
                       ("event", {"ev": {"t": 2.0, "seat": "E", "call": "1H"}, "box": None})):
        conn.execute("INSERT INTO journal (kind, body) VALUES (?, ?)", (kind, json.dumps(body)))
    conn.execute("INSERT INTO outbox (kind, item_key, payload, enqueued_at) VALUES ('auction', 'k/1', '{}', 1.0)")
    conn.commit()
    conn.close()
    ctl = Controller(db, clock=Clock())
    assert ctl.board == 2 and [c["call"] for c in ctl.estate["calls"]] == ["1H"]
    assert ctl.check_pin("86421357")
    ctl.close()
    data = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("tablet.db"))
    assert b"86421357" not in data
    again = Controller(db, clock=Clock())  # chained now: opens clean, and the old outbox row is kept
    assert again.board == 2 and [k for k, _, _ in outbox_items(again.outbox)] == ["k/1"]
    again.close()


# -- what the restart's one pass over the journal must still catch (the fast replay) ------------------
def rewrite(db, fn):
    """Edit the closed journal file as a tool outside the tablet would (sqlite3, no chain)."""
    conn = sqlite3.connect(db)
    fn(conn)
    conn.commit()
    conn.close()


def closed_evening(tmp_path):
    db = tmp_path / "tablet.db"
    clock = Clock()
    ctl = evening(db, clock)
    reference = table_of(ctl)
    ctl.close()
    conn = sqlite3.connect(db)
    events = [s for (s,) in conn.execute("SELECT seq FROM journal WHERE kind = 'event' ORDER BY seq")]
    last = conn.execute("SELECT MAX(seq) FROM journal").fetchone()[0]
    conn.close()
    return db, clock, reference, events, last


def test_a_record_deleted_from_the_middle_of_the_evening_is_named(tmp_path):
    db, clock, _, events, _ = closed_evening(tmp_path)
    gone = events[5]
    rewrite(db, lambda c: c.execute("DELETE FROM journal WHERE seq = ?", (gone,)))
    with pytest.raises(JournalDamaged, match=f"record {gone} is missing") as e:
        Controller(db, clock=clock)
    assert e.value.seq == gone


def test_two_calls_swapped_in_the_journal_are_caught_at_the_first_of_them(tmp_path):
    # E's pass and S's 4H of board 1 change places, each row keeping its own chain: a reordered
    # auction that is still a legal one must not open as the table that was played.
    db, clock, _, events, _ = closed_evening(tmp_path)
    a, b = events[1], events[2]

    def swap(conn):
        (body_a,), (body_b,) = (conn.execute("SELECT body FROM journal WHERE seq = ?", (s,)).fetchone() for s in (a, b))
        conn.execute("UPDATE journal SET body = ? WHERE seq = ?", (body_b, a))
        conn.execute("UPDATE journal SET body = ? WHERE seq = ?", (body_a, b))
    rewrite(db, swap)
    with pytest.raises(JournalDamaged, match="does not match its checksum") as e:
        Controller(db, clock=clock)
    assert e.value.seq == a


def test_the_last_record_cut_off_is_named_not_replayed_as_a_shorter_evening(tmp_path):
    db, clock, _, _, last = closed_evening(tmp_path)
    rewrite(db, lambda c: c.execute("DELETE FROM journal WHERE seq = ?", (last,)))
    with pytest.raises(JournalDamaged, match=f"records {last}-{last} are missing") as e:
        Controller(db, clock=clock)
    assert e.value.seq == last


def chain_from(conn, seq):
    """Chain the journal again from record `seq` on, as a forger who knows the scheme would
    (its commit mark too: tests/tablet/test_journal_wal.py catches a forger who does not)."""
    from tablet_app.journal import GENESIS, MARK_SUFFIX, chain_of, mark_text

    prev = conn.execute("SELECT chain FROM journal WHERE seq = ?", (seq - 1,)).fetchone()
    prev = prev[0] if prev else GENESIS
    for s, kind, body in conn.execute("SELECT seq, kind, body FROM journal WHERE seq >= ? ORDER BY seq", (seq,)).fetchall():
        prev = chain_of(prev, s, kind, body)
        conn.execute("UPDATE journal SET chain = ? WHERE seq = ?", (prev, s))
    conn.execute("UPDATE head SET chain = ?", (prev,))
    path = conn.execute("PRAGMA database_list").fetchone()[2]
    last = conn.execute("SELECT seq FROM head").fetchone()[0]
    with open(path + MARK_SUFFIX, "wb") as f:
        f.write(mark_text(last, prev))


@pytest.mark.parametrize("body, why", [
    ('{"box":null,"ev":{"call":"4H","seat":"S","t":4.5', "not readable"),  # cut mid-record
    ('{"box":null,"ev":{}}x', "not readable"),  # a value, then garbage
    ('[{"box":null,"ev":{}}]', "not a record"),
    ('{"box":null,"ev":{"call":"4H","seat":"S","t":NaN}}', "cannot be replayed"),
])
def test_a_chained_record_that_is_not_one_json_record_is_named(tmp_path, body, why):
    # The chain holds (re-chained after the edit), so only the record's own reading can catch it.
    db, clock, _, events, _ = closed_evening(tmp_path)
    seq = events[2]

    def forge(conn):
        conn.execute("UPDATE journal SET body = ? WHERE seq = ?", (body, seq))
        chain_from(conn, seq)
    rewrite(db, forge)
    with pytest.raises(JournalDamaged, match=why) as e:
        Controller(db, clock=clock)
    assert e.value.seq == seq


def test_records_written_with_spaces_by_an_older_writer_replay_as_the_same_table(tmp_path):
    # json.dumps' default separators, and a space around the value: what json.loads reads, the
    # restart reads alike.
    db, clock, reference, _, _ = closed_evening(tmp_path)

    def respace(conn):
        for seq, body in conn.execute("SELECT seq, body FROM journal").fetchall():
            conn.execute("UPDATE journal SET body = ? WHERE seq = ?", (f" {json.dumps(json.loads(body))}\n", seq))
        chain_from(conn, 1)
    rewrite(db, respace)
    again = Controller(db, clock=clock)
    assert table_of(again) == reference
    again.close()


def test_the_journal_reads_each_body_exactly_as_json_loads_does():
    from tablet_app.journal import _decode

    bodies = ['{}', '{"a":1}', ' {"a":1}', '{"a":1} ', '{"a":1}\n', '{"a":1}{"b":2}', '{"a":1},{"b":2}', '[]', '"s"',
              '1', '', ' ', '{', '{"a":', '{"a":1}x', '{"a":NaN}', '{"a":Infinity}', '{"a":"\x01"}', '{"a":"\\ud800"}',
              '\ufeff{}', '{"a":1e400}', '{"a":[1,2,{"b":null}]}', 'null', '{"é":"ü"}']
    for body in bodies:
        try:
            want = ("ok", json.loads(body))
        except ValueError as exc:
            want = ("error", str(exc))
        try:
            got = ("ok", _decode(body))
        except ValueError as exc:
            got = ("error", str(exc))
        assert repr(got) == repr(want), body
