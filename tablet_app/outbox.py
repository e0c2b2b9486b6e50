"""Store-and-forward from the table tablet to the results station (docs/interfaces.md section 4).

`Outbox` lives in the tablet journal's SQLite database, so a result is journalled and queued in
one transaction: `enqueue()` does not commit, the caller commits with its journal write. A crash
before that commit loses both (the board is still open at the table); after it, both survive.

`Deliverer` is the pump: it sends the oldest undelivered item and marks it delivered only when
the station answers that the item is durably stored (201 stored, or 200 already stored). Lost
replies, a dead station, a dead network: it retries with capped exponential backoff, and the
station's idempotency key makes the retry harmless. Restart-safe: all its state is in the table.
"""
from __future__ import annotations

import http.client
import json
import random
import sqlite3
import threading
import time
from typing import Any
from urllib.parse import urlsplit

from .http_transport import connection

SCHEMA = """CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL, item_key TEXT NOT NULL UNIQUE, payload TEXT NOT NULL,
    enqueued_at REAL NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending',   -- pending | delivered | rejected
    attempts INTEGER NOT NULL DEFAULT 0, last_error TEXT, done_at REAL)"""

KINDS = ("result", "td_call", "auction")


class OutboxError(ValueError):
    """Enqueueing something the station could never accept (and retrying would not fix)."""


def _canonical(payload: Any) -> str:
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class Outbox:
    """The queue, on the journal's own connection. Never commits: the caller owns the transaction."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn
        conn.execute(SCHEMA)

    def enqueue(self, kind: str, key: str, payload: dict) -> bool:
        """Queue one item. Returns False when the same key with the same content is already
        queued (a replayed journal is harmless); the same key with other content is an error:
        a corrected result needs a new revision (Law 79C), not an edit."""
        if kind not in KINDS:
            raise OutboxError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
        if not isinstance(key, str) or not key:
            raise OutboxError("key must be a non-empty string")
        body = _canonical(payload)
        row = self.conn.execute("SELECT payload FROM outbox WHERE item_key = ?", (key,)).fetchone()
        if row is not None:
            if row[0] != body:
                raise OutboxError(f"{key!r} is already queued with other content; send a new revision")
            return False
        self.conn.execute("INSERT INTO outbox (kind, item_key, payload, enqueued_at) VALUES (?, ?, ?, ?)",
                          (kind, key, body, time.time()))
        return True

    def counts(self) -> dict[str, int]:
        rows = self.conn.execute("SELECT state, COUNT(*) FROM outbox GROUP BY state").fetchall()
        out = {"pending": 0, "delivered": 0, "rejected": 0}
        out.update({r[0]: r[1] for r in rows})
        return out

    def items(self, state: str | None = None) -> list[dict]:
        sql = "SELECT kind, item_key, state, attempts, last_error FROM outbox"
        rows = self.conn.execute(sql + (" WHERE state = ?" if state else "") + " ORDER BY id",
                                 (state,) if state else ()).fetchall()
        return [{"kind": r[0], "key": r[1], "state": r[2], "attempts": r[3], "error": r[4]} for r in rows]


class Deliverer:
    """Background pump from the outbox to the station. `start()` / `stop()`; `wake()` after an
    enqueue to send at once; `drain(timeout)` waits until nothing is pending."""

    def __init__(self, db_path: str, station_url: str, table_id: str, table_key: str, *,
                 timeout: float = 10.0, min_backoff: float = 0.2, max_backoff: float = 15.0):
        self.db_path = db_path
        url = urlsplit(station_url)
        if url.scheme not in ("http", "https") or not url.hostname:
            raise ValueError(f"station_url must be http(s)://host:port, not {station_url!r}")
        self._url = url
        self.table_id = table_id
        self.table_key = table_key
        self.timeout = timeout
        self.min_backoff = min_backoff
        self.max_backoff = max_backoff
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._conn: sqlite3.Connection | None = None
        self.last_error: str | None = None
        self.connected = False  # last attempt reached the station

    # -- lifecycle ------------------------------------------------------------------------
    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            self._conn = sqlite3.connect(self.db_path, timeout=30, check_same_thread=False)
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=FULL")
            self._conn.execute(SCHEMA)
            self._conn.commit()
        return self._conn

    def start(self) -> Deliverer:
        if self._thread is None or not self._thread.is_alive():
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="outbox-deliverer", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout: float = 15.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
        if self._conn is not None and (self._thread is None or not self._thread.is_alive()):
            self._conn.close()
            self._conn = None

    def wake(self) -> None:
        self._wake.set()

    def pending(self) -> int:
        with sqlite3.connect(self.db_path, timeout=30) as c:
            c.execute(SCHEMA)
            return int(c.execute("SELECT COUNT(*) FROM outbox WHERE state = 'pending'").fetchone()[0])

    def drain(self, timeout: float = 60.0) -> bool:
        """Wait until nothing is pending; True if drained in time."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.pending() == 0:
                return True
            self.wake()
            time.sleep(0.05)
        return self.pending() == 0

    # -- the pump ----------------------------------------------------------------------------
    def _run(self) -> None:
        backoff = self.min_backoff
        while not self._stop.is_set():
            try:
                sent = self.send_one()
            except Exception as e:  # the pump must outlive any surprise; retry later
                self.last_error = f"{type(e).__name__}: {e}"
                sent = None
            if sent is True:
                backoff = self.min_backoff
                continue
            if sent is False:  # nothing pending: sleep until woken
                self._wake.wait(5.0)
                self._wake.clear()
                continue
            # Failure: back off with jitter so a room of tablets does not hammer a restarting station.
            self._wake.wait(backoff * random.uniform(0.5, 1.0))
            self._wake.clear()
            backoff = min(backoff * 2, self.max_backoff)

    def send_one(self) -> bool | None:
        """Send the oldest pending item. True: settled (delivered or rejected for good); False:
        nothing pending; None: not settled, try again later."""
        db = self._db()
        row = db.execute("SELECT id, kind, item_key, payload FROM outbox WHERE state = 'pending' "
                         "ORDER BY id LIMIT 1").fetchone()
        if row is None:
            return False
        item_id, kind, key, payload = row
        body = f'{{"kind":{json.dumps(kind)},"key":{json.dumps(key)},"payload":{payload}}}'.encode()
        db.execute("UPDATE outbox SET attempts = attempts + 1 WHERE id = ?", (item_id,))
        db.commit()
        try:
            status, reply = self._post(body)
        except (OSError, http.client.HTTPException) as e:
            self.connected = False
            self.last_error = f"station unreachable: {e}"
            self._note(item_id, self.last_error)
            return None
        self.connected = True
        if status in (200, 201):
            # The station committed before replying: only now may the item be forgotten.
            db.execute("UPDATE outbox SET state = 'delivered', done_at = ?, last_error = NULL WHERE id = ?",
                       (time.time(), item_id))
            db.commit()
            self.last_error = None
            return True
        message = f"HTTP {status}: {reply.get('error', reply) if isinstance(reply, dict) else reply}"
        self.last_error = message
        if status in (400, 409, 411, 413, 422):
            # The station will never take this item as it is; keep it (for the TD) but stop
            # retrying it, so the items behind it still get through.
            db.execute("UPDATE outbox SET state = 'rejected', done_at = ?, last_error = ? WHERE id = ?",
                       (time.time(), message, item_id))
            db.commit()
            return True
        self._note(item_id, message)  # 401/403 (key not set up yet), 5xx, ...: retry
        return None

    def _note(self, item_id: int, message: str) -> None:
        db = self._db()
        db.execute("UPDATE outbox SET last_error = ? WHERE id = ?", (message, item_id))
        db.commit()

    def _post(self, body: bytes) -> tuple[int, Any]:
        conn = connection(self._url, self.timeout)
        try:
            conn.request("POST", (self._url.path.rstrip("/") or "") + "/api/v1/items", body=body, headers={
                "Content-Type": "application/json", "X-Table": self.table_id,
                "Authorization": f"Bearer {self.table_key}", "Connection": "close"})
            resp = conn.getresponse()
            data = resp.read()
        finally:
            conn.close()
        try:
            return resp.status, json.loads(data)
        except ValueError:
            return resp.status, data.decode("utf-8", "replace")[:200]
