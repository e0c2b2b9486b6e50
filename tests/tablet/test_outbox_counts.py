"""The director console's delivery figures (`Outbox.delivery()`, read after every input the table
takes) come from counts SQLite keeps and an index, not from a walk over the outbox, which grows
by an item per call all evening: they must still be exactly what the rows say, whichever
connection changes them (the table's, or the pump's on its own thread), after a rollback, and for
an outbox written before the counts existed."""
import sqlite3

import pytest

from tablet_app import outbox as outbox_module
from tablet_app.journal import Journal
from tablet_app.outbox import Deliverer, Outbox

TABLE = "ev/A/1"


def recount(conn: sqlite3.Connection) -> dict[str, int]:
    """The counts as the rows say, by walking them."""
    out = dict.fromkeys(outbox_module.STATES, 0)
    out.update(dict(conn.execute("SELECT state, COUNT(*) FROM outbox GROUP BY state").fetchall()))
    return out


def queue(journal: Journal, outbox: Outbox, n: int, start: int = 0, kind: str = "auction_event") -> None:
    with journal.transaction():
        for i in range(start, start + n):
            outbox.enqueue(kind, f"{TABLE}/1/1/event/{i}", {"n": i})


def settle(pump: Deliverer, key: str, status: int, reply: object) -> None:
    """The pump's own handling of the station's answer to one item, on the pump's connection."""
    db = pump._db()
    row = db.execute("SELECT id, kind, item_key, payload FROM outbox WHERE item_key = ?", (key,)).fetchone()
    pump._settle(row, status, reply)
    db.commit()


@pytest.fixture
def table(tmp_path):
    journal = Journal(tmp_path / "j.db")
    outbox = Outbox(journal.conn)
    pump = Deliverer(journal.path, "http://127.0.0.1:9", TABLE, "k" * 32)  # never started: no requests
    yield journal, outbox, pump
    pump.stop()
    journal.close()


def test_counts_follow_the_table_and_the_pump(table):
    journal, outbox, pump = table
    queue(journal, outbox, 6)
    assert outbox.counts() == recount(journal.conn) == {"pending": 6, "delivered": 0, "rejected": 0, "skipped": 0}
    settle(pump, f"{TABLE}/1/1/event/0", 201, {"stored": True})
    settle(pump, f"{TABLE}/1/1/event/1", 200, {"stored": True})
    settle(pump, f"{TABLE}/1/1/event/2", 400, {"error": "board: out of range"})  # for good
    settle(pump, f"{TABLE}/1/1/event/3", 422, {"error": "kind: unknown"})  # an older station: skipped
    settle(pump, f"{TABLE}/1/1/event/4", 507, {"error": "no room"})  # retried: still pending
    assert outbox.counts() == recount(journal.conn) == {"pending": 2, "delivered": 2, "rejected": 1, "skipped": 1}
    d = outbox.delivery()
    assert (d["delivered"], d["waiting"]) == (2, 2)
    assert [(r["key"], r["status"], r["retrying"]) for r in d["refused"]] == [
        (f"{TABLE}/1/1/event/2", 400, False), (f"{TABLE}/1/1/event/4", 507, True)]


def test_counts_after_a_rolled_back_input(table):
    journal, outbox, _ = table
    queue(journal, outbox, 2)
    with pytest.raises(RuntimeError), journal.transaction():
        outbox.enqueue("auction_event", f"{TABLE}/1/1/event/9", {"n": 9})
        raise RuntimeError("the engine refused the event")  # the input's records are rolled back
    assert outbox.counts() == recount(journal.conn) == {"pending": 2, "delivered": 0, "rejected": 0, "skipped": 0}


def test_an_outbox_from_before_the_counts_is_counted_when_opened(tmp_path):
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(outbox_module.SCHEMA.replace(",\n    held_until REAL)", ")"))  # the columns of an older outbox
    rows = [("pending", None), ("delivered", None), ("delivered", None), ("rejected", "HTTP 400: bad"),
            ("skipped", None), ("delivered", None), ("rejected", None), ("pending", "HTTP 507: no room"),
            ("pending", "station unreachable: refused")]
    for i, (state, error) in enumerate(rows):  # a rejected item without its answer: one recovered (journal.recover)
        conn.execute("INSERT INTO outbox (kind, item_key, payload, enqueued_at, state, last_error) VALUES "
                     "('auction_event', ?, '{}', 0, ?, ?)", (f"{TABLE}/1/1/event/{i}", state, error))
    conn.close()
    journal = Journal(path)
    try:
        outbox = Outbox(journal.conn)
        assert outbox.counts() == {"pending": 3, "delivered": 3, "rejected": 2, "skipped": 1}
        assert [(r["key"], r["status"]) for r in outbox.delivery()["refused"]] == [
            (f"{TABLE}/1/1/event/3", 400), (f"{TABLE}/1/1/event/6", None), (f"{TABLE}/1/1/event/7", 507)]
        queue(journal, outbox, 1, start=10)
        assert outbox.counts() == recount(journal.conn)
    finally:
        journal.close()


def test_the_delivery_figures_walk_no_outbox_rows(table):
    """What `delivery()` asks SQLite is answered from the counts and the partial index of the items
    that want attention: no statement walks the outbox's items, however many it holds."""
    journal, outbox, _ = table
    queue(journal, outbox, 50)
    statements: list[str] = []
    journal.conn.set_trace_callback(statements.append)
    try:
        outbox.delivery()
    finally:
        journal.conn.set_trace_callback(None)
    assert statements
    for sql in statements:
        plan = " / ".join(row[3] for row in journal.conn.execute("EXPLAIN QUERY PLAN " + sql).fetchall())
        walks = [step for step in plan.split(" / ") if step.startswith("SCAN outbox ") or step == "SCAN outbox"]
        assert all(step == "SCAN outbox USING INDEX outbox_attention" for step in walks), (sql, plan)
