"""The outbox's counts and refused rows, read at every snapshot the table publishes (each
call): right after any series of changes, right for an outbox written before the counts
existed, and read with work that does not grow with the evening's outbox (every call queues a
live-feed item, so a whole-table COUNT made the tablet's turn grow through the evening).

Work is counted in SQLite virtual-machine steps (a progress handler), not in time, so the test
holds on a busy machine."""
import random
import sqlite3

from tablet_app.outbox import Outbox

STATES = ("pending", "delivered", "rejected", "skipped")


def _conn() -> sqlite3.Connection:
    return sqlite3.connect(":memory:", isolation_level=None)


def _truth(conn: sqlite3.Connection) -> dict[str, int]:
    out = dict.fromkeys(STATES, 0)
    out.update(dict(conn.execute("SELECT state, COUNT(*) FROM outbox GROUP BY state").fetchall()))
    return out


def _fill(box: Outbox, n: int, start: int = 0) -> None:
    for i in range(start, start + n):
        box.enqueue("auction_event", f"ev/A/1/1/1/event/{i}", {"n": i})


def test_counts_follow_every_insert_update_and_delete():
    conn = _conn()
    box = Outbox(conn)
    rng = random.Random(7)
    _fill(box, 300)
    for _ in range(600):
        row = rng.randrange(1, 301)
        op = rng.random()
        if op < 0.8:
            conn.execute("UPDATE outbox SET state = ?, last_error = ? WHERE id = ?",
                         (rng.choice(STATES), rng.choice([None, "HTTP 422: no", "timed out"]), row))
        else:
            conn.execute("DELETE FROM outbox WHERE id = ?", (row,))
        assert box.counts() == _truth(conn)


def test_an_outbox_from_before_the_counts_is_counted_when_opened():
    conn = _conn()
    box = Outbox(conn)
    _fill(box, 50)
    conn.execute("UPDATE outbox SET state = 'delivered' WHERE id <= 30")
    # the outbox as a tablet before the counts left it: no count table, no triggers
    for name in ("outbox_count_insert", "outbox_count_update", "outbox_count_delete"):
        conn.execute(f"DROP TRIGGER {name}")
    conn.execute("DROP TABLE outbox_count")
    reopened = Outbox(conn)
    assert reopened.counts() == {"pending": 20, "delivered": 30, "rejected": 0, "skipped": 0}
    _fill(reopened, 5, start=50)
    assert reopened.counts()["pending"] == 25


def test_refused_rows_are_the_rejected_and_the_retried_4xx_and_507():
    conn = _conn()
    box = Outbox(conn)
    _fill(box, 6)
    for item_id, state, err in [(1, "rejected", "HTTP 422: bad"), (2, "pending", "HTTP 425: too early"),
                                (3, "pending", "HTTP 507: no room"), (4, "pending", "HTTP 503: busy"),
                                (5, "pending", "connection refused"), (6, "delivered", None)]:
        conn.execute("UPDATE outbox SET state = ?, last_error = ? WHERE id = ?", (state, err, item_id))
    refused = box.delivery()["refused"]
    assert [(r["key"].rsplit("/", 1)[1], r["status"], r["retrying"], r["held"]) for r in refused] == [
        ("0", 422, False, False), ("1", 425, True, True), ("2", 507, True, False)]


def _steps(conn: sqlite3.Connection, box: Outbox) -> int:
    steps = [0]

    def tick() -> int:
        steps[0] += 1
        return 0

    conn.set_progress_handler(tick, 1)
    try:
        box.delivery()
    finally:
        conn.set_progress_handler(None, 1)
    return steps[0]


def _evening(delivered: int, unreachable: int) -> tuple[sqlite3.Connection, Outbox]:
    """An outbox with `delivered` items the station has, `unreachable` pending ones tried while
    the station could not be reached, and the same three refused items."""
    conn = _conn()
    box = Outbox(conn)
    _fill(box, delivered + unreachable + 3)
    conn.execute("UPDATE outbox SET state = 'delivered' WHERE id <= ?", (delivered,))
    conn.execute("UPDATE outbox SET last_error = 'connection refused' WHERE state = 'pending'")
    last = delivered + unreachable
    conn.execute("UPDATE outbox SET state = 'rejected', last_error = 'HTTP 422: bad' WHERE id = ?", (last + 1,))
    conn.execute("UPDATE outbox SET last_error = 'HTTP 425: early' WHERE id = ?", (last + 2,))
    conn.execute("UPDATE outbox SET last_error = 'HTTP 507: full' WHERE id = ?", (last + 3,))
    return conn, box


def test_the_console_reads_do_not_grow_with_the_evenings_outbox():
    small = _steps(*_evening(delivered=10, unreachable=10))
    for delivered, unreachable in ((5000, 10), (10, 5000)):
        conn, box = _evening(delivered, unreachable)
        assert box.counts() == _truth(conn)
        assert len(box.delivery()["refused"]) == 3
        large = _steps(conn, box)
        # the same three refused rows either way: the work is that of the rows asked for
        assert large <= small + 20, (delivered, unreachable, small, large)
