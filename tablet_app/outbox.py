"""Store-and-forward from the table tablet to the results station (docs/interfaces.md section 4).

`Outbox` lives in the tablet journal's SQLite database, so a result is journalled and queued in
one transaction: `enqueue()` does not commit, the caller commits with its journal write. A crash
before that commit loses both (the board is still open at the table); after it, both survive.

`Deliverer` is the pump: it sends the oldest undelivered items and marks each delivered only when
the station answers that the item is durably stored (201 stored, or 200 already stored). Lost
replies, a dead station, a dead network: it retries with capped exponential backoff, and the
station's idempotency key makes the retry harmless. Restart-safe: all its state is in the table.
When several items wait (calls come fast: each call is an item, docs/station.md "The live feed")
they go in one request (`POST /api/v1/items/batch`), still in order: the station stops at the
first item it cannot settle and the rest are sent again.

An item the station holds as too early (425: a result of a round the table is not on yet at
the station, docs/station.md "Law 16 at the station") stays pending but waits aside
(`held_until`): the items behind it go on, and it is sent again after `HOLD_S`, or at once when
the station stores one of this table's results or its round start (either may open the round).
"""
from __future__ import annotations

import functools
import hashlib
import http.client
import json
import random
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from shared_rules.records import (
    KINDS,
    Item,
    ItemKind,
    RecordError,
    Refused,
    TableId,
    TdCallKey,
    TdCallSeries,
    to_item,
)

from . import station_items
from .http_transport import connection

SCHEMA = """CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL, item_key TEXT NOT NULL UNIQUE, payload TEXT NOT NULL,
    enqueued_at REAL NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending',   -- pending | delivered | rejected | skipped
    attempts INTEGER NOT NULL DEFAULT 0, last_error TEXT, done_at REAL, digest TEXT,
    held_until REAL,  -- a pending item the station held as too early: not sent again before this
    refused TEXT)     -- the code and params of the station's last refusal (JSON), said in the table's language"""
# What the pump last saw of the station, for the director console (Outbox.delivery()).
LINK_SCHEMA = """CREATE TABLE IF NOT EXISTS outbox_link (
    id INTEGER PRIMARY KEY CHECK (id = 1), connected INTEGER NOT NULL, last_error TEXT, at REAL NOT NULL)"""
STATES = ("pending", "delivered", "rejected", "skipped")
# The rows in each state, kept by triggers in the same transaction as the row's change: the
# console's counts are asked for at every published snapshot (each call), and a COUNT over the
# whole outbox grew with the evening (every call queues a live-feed item), so the tablet's turn
# grew with it. An outbox from before the counts is counted once when they are added.
COUNT_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS outbox_count (state TEXT PRIMARY KEY, n INTEGER NOT NULL)",
    "CREATE TRIGGER IF NOT EXISTS outbox_count_insert AFTER INSERT ON outbox BEGIN "
    "INSERT INTO outbox_count (state, n) VALUES (NEW.state, 1) "
    "ON CONFLICT (state) DO UPDATE SET n = n + 1; END",
    "CREATE TRIGGER IF NOT EXISTS outbox_count_update AFTER UPDATE OF state ON outbox "
    "WHEN OLD.state IS NOT NEW.state BEGIN "
    "UPDATE outbox_count SET n = n - 1 WHERE state = OLD.state; "
    "INSERT INTO outbox_count (state, n) VALUES (NEW.state, 1) "
    "ON CONFLICT (state) DO UPDATE SET n = n + 1; END",
    "CREATE TRIGGER IF NOT EXISTS outbox_count_delete AFTER DELETE ON outbox BEGIN "
    "UPDATE outbox_count SET n = n - 1 WHERE state = OLD.state; END",
)
RECOUNT = ("INSERT OR REPLACE INTO outbox_count (state, n) "
           "SELECT state, COUNT(*) FROM outbox GROUP BY state")
# The pump reads the oldest pending rows, the console the refused ones: indexes keep both to
# the rows they want rather than the whole evening's outbox. The refused rows' query repeats
# TROUBLE as a term of its own, which is what lets SQLite use the partial index (named in the
# query: left to itself the planner takes the state index, and on a table cut off from the
# station every pending row).
TROUBLE = "(state = 'rejected' OR (state = 'pending' AND last_error LIKE 'HTTP %'))"
INDEX_SCHEMA = (
    "CREATE INDEX IF NOT EXISTS outbox_state ON outbox (state, id)",
    f"CREATE INDEX IF NOT EXISTS outbox_trouble ON outbox (id) WHERE {TROUBLE}",
)
# Items only a station with the live feed takes: an older station refuses their kind (422
# "kind: ..."), and they are then skipped (kept, state `skipped`, never listed as refused: the
# station has no use for them), so a new tablet works with an old station as before.
# The round start (the station's Law 16 gate, docs/station.md) too: an older station has no
# gate to open.
OPTIONAL_KINDS = frozenset({ItemKind.AUCTION_EVENT.value, ItemKind.ROUND.value})
BATCH_ITEMS = 32           # items in one request at most (the station takes up to MAX_BATCH_ITEMS)
BATCH_BYTES = 512 * 1024   # ... and about this many bytes of payload (an item alone may be bigger)
# After the table wakes the pump (an item committed) it waits this long before sending: the
# table's own work on that input (the boxes' views) comes first, and the items of a quick
# succession of inputs go together. Short against the live feed's second.
GATHER_S = 0.1

# The station's answers that no retry can change: the item is kept (for the TD), not resent.
FOR_GOOD = (400, 409, 411, 413, 422)
# The station has no room for the item now (its quota for the table's results or TD calls,
# docs/station.md "Room"): never final, the item is retried like any 5xx and listed on the
# director console as refused until the station takes it (the TD makes room at the station).
NO_ROOM = 507
# The station holds the item as too early (a result of a round the table is not on yet there):
# kept pending and sent again later, without holding up the items behind it.
TOO_EARLY = 425
HOLD_S = 20.0
# Items the station stores that may open a held result's round: then held items go again at once.
OPENERS = frozenset({ItemKind.RESULT.value, ItemKind.ROUND.value})
# A 413 is final only for what the station may drop (progress snapshots, auction events): an
# older station answered 413 for a result or TD call when the table's quota was full, and
# that result must wait for room (like 507), not be given up.
DROPPABLE = frozenset({ItemKind.AUCTION.value, ItemKind.AUCTION_EVENT.value})
# The refused rows as the console lists them, through the partial index (the patterns written in,
# not bound: SQLite compiles a statement whose LIKE pattern is bound again at every run, which
# cost more than the rest of the console's line).
REFUSED = ("SELECT kind, item_key, state, last_error, refused FROM outbox INDEXED BY outbox_trouble "
           "WHERE (state = 'rejected' OR "
           f"(state = 'pending' AND (last_error LIKE 'HTTP 4%' OR last_error LIKE 'HTTP {NO_ROOM}%'))) "
           f"AND {TROUBLE} ORDER BY id")


class OutboxError(ValueError):
    """Enqueueing something the station could never accept (and retrying would not fix)."""


def canonical(payload: Any) -> str:
    """An item's payload as queued: the same value gives the same text (and digest)."""
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(kind: str, key: str, payload: str) -> str:
    """What a damaged or edited outbox row is caught by (the journal's chain does not cover it)."""
    return hashlib.sha256(f"{kind}\n{key}\n{payload}".encode()).hexdigest()


def _schema(conn: sqlite3.Connection) -> None:
    conn.execute(SCHEMA)
    conn.execute(LINK_SCHEMA)
    cols = {r[1] for r in conn.execute("PRAGMA table_info(outbox)")}
    if "digest" not in cols:  # an outbox from before the digest: its rows as they stand
        conn.execute("ALTER TABLE outbox ADD COLUMN digest TEXT")
        for item_id, kind, key, payload in conn.execute("SELECT id, kind, item_key, payload FROM outbox").fetchall():
            conn.execute("UPDATE outbox SET digest = ? WHERE id = ?", (digest(kind, key, payload), item_id))
    if "held_until" not in cols:  # an outbox from before the Law 16 hold
        conn.execute("ALTER TABLE outbox ADD COLUMN held_until REAL")
    if "refused" not in cols:  # an outbox from before the station's refusal codes
        conn.execute("ALTER TABLE outbox ADD COLUMN refused TEXT")
    _check_columns(conn)
    if _derived_schema(conn):  # new, from before the counts, or damaged: count what is there
        conn.execute("DELETE FROM outbox_count")
        conn.execute(RECOUNT)


def _columns(conn: sqlite3.Connection, table: str) -> list[tuple[Any, ...]]:
    return conn.execute(f"PRAGMA table_info({table})").fetchall()


@functools.cache
def _written_columns() -> dict[str, list[tuple[Any, ...]]]:
    """The columns SCHEMA and LINK_SCHEMA make, worked out once per process (the check below
    runs at every schema check, the pump's polls included)."""
    model = sqlite3.connect(":memory:")
    try:
        model.execute(SCHEMA)
        model.execute(LINK_SCHEMA)
        return {table: _columns(model, table) for table in ("outbox", "outbox_link")}
    finally:
        model.close()


def _check_columns(conn: sqlite3.Connection) -> None:
    """The outbox's tables have the columns SCHEMA and LINK_SCHEMA give them (names, types,
    defaults): a damaged word in the file's schema would otherwise only show later, as a query
    that fails (the console's delivery line says "unreadable") or a default state nobody
    wrote. An outbox from before a column was added has been given it above."""
    for table, written in _written_columns().items():
        if _columns(conn, table) != written:
            raise ValueError(f"the {table} table's columns are not those the tablet writes")


def _name(sql: str) -> str:
    """`CREATE <kind> IF NOT EXISTS <name> ...` -> name."""
    return sql.split(" IF NOT EXISTS ", 1)[1].split()[0]


def _stored_form(sql: str) -> str:
    return sql.replace(" IF NOT EXISTS", "", 1)


def _derived_schema(conn: sqlite3.Connection) -> bool:
    """The counts' table, its triggers and the indexes, exactly as COUNT_SCHEMA and INDEX_SCHEMA
    write them; anything else of theirs in the file (from damage: a changed word or name) is
    dropped, since a stray trigger would count twice. Writes only when something is missing
    or different (a table can be opened on a full disk). True when any was (re)made."""
    want = {_name(sql): sql for sql in COUNT_SCHEMA + INDEX_SCHEMA}
    have = {name: (kind, sql) for kind, name, sql in conn.execute(
        "SELECT type, name, sql FROM sqlite_master WHERE tbl_name IN ('outbox', 'outbox_count') "
        "AND name NOT LIKE 'sqlite_autoindex_%' AND name != 'outbox'")}
    made = False
    for name, (kind, sql) in have.items():
        if name not in want or sql != _stored_form(want[name]):
            conn.execute(f'DROP {kind.upper()} IF EXISTS "{name}"')
            made = True
    for name, sql in want.items():
        if name not in have or made:
            conn.execute(sql)
            made = made or name not in have
    return made


def check_rows(conn: sqlite3.Connection) -> int | None:
    """The id of the first outbox row that is not what was written (digest or state), else None."""
    for item_id, kind, key, payload, state, dig in conn.execute(
            "SELECT id, kind, item_key, payload, state, digest FROM outbox ORDER BY id"):
        if state not in STATES or kind not in KINDS:
            return int(item_id)
        if dig is not None and (not isinstance(payload, str) or digest(kind, key, payload) != dig):
            return int(item_id)
    return None


def sound_items(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """The outbox rows that are still what was written (for recovering a damaged journal)."""
    out = []
    for kind, key, payload, state, dig, at in conn.execute(
            "SELECT kind, item_key, payload, state, digest, enqueued_at FROM outbox ORDER BY id"):
        if state in STATES and kind in KINDS and isinstance(payload, str) and digest(kind, key, payload) == dig:
            out.append({"kind": kind, "key": key, "payload": payload, "state": state, "at": at})
    return out


def storage_call(event: str, section: str, table: Any, since: dict) -> tuple[str, dict]:
    """The station's item for a storage episode that began after journal record `since["seq"]`
    (`Controller.storage_since`): posted directly while the disk is full (Deliverer.storage_alarm),
    queued with `<key>/resolved` once a write succeeds again (the controller)."""
    call = station_items.storage_call(TableId(event, section, table), since)
    return call.key.format(), call.to_json()


def _storage_key(kind: str, key: str) -> bool:
    """A storage call's key (`.../storage/<seq>[/<status>]`), which the deliverer posts itself."""
    if kind != ItemKind.TD_CALL:
        return False
    try:
        return TdCallKey.parse(key).series is TdCallSeries.STORAGE
    except RecordError:
        return False


def _check(kind: str, key: str) -> None:
    if kind not in KINDS:
        raise OutboxError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    if not isinstance(key, str) or not key:
        raise OutboxError("key must be a non-empty string")


class Outbox:
    """The queue, on the journal's own connection. Never commits: the caller owns the transaction."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn
        _schema(conn)
        self._check_indexes()
        self._check_counts()

    def _check_indexes(self) -> None:
        """The outbox's indexes hold what its rows hold (the journal's quick check at the open
        does not compare them): the pump and the console read through them, so a damaged one
        would send or show other rows. They are derived data, built again when they differ;
        damage to the rows themselves is named (check_rows, and this)."""
        if self._integrity() != [("ok",)]:
            self.conn.execute("REINDEX outbox")
            check = self._integrity()
            if check != [("ok",)]:
                raise ValueError(f"SQLite finds the outbox damaged ({check[0][0]})")

    def _integrity(self) -> list[tuple[str]]:
        return self.conn.execute("PRAGMA integrity_check(outbox)").fetchall()

    def _check_counts(self) -> None:
        """The counts are derived data: when they are not the rows' (damage to the file, which
        the journal's checks do not cover for this table), they are counted again, once, here
        at the open, so the console never shows a count the rows do not have."""
        have = dict(self.conn.execute("SELECT state, n FROM outbox_count WHERE n != 0").fetchall())
        rows = dict(self.conn.execute("SELECT state, COUNT(*) FROM outbox GROUP BY state").fetchall())
        if have != rows:
            self.conn.execute("DELETE FROM outbox_count")
            self.conn.execute(RECOUNT)

    def enqueue(self, kind: str, key: str, payload: dict) -> bool:
        """Queue one item. Returns False when the same key with the same content is already
        queued (a replayed journal is harmless); the same key with other content is an error:
        a corrected result needs a new revision (Law 79C), not an edit."""
        _check(kind, key)
        return self._insert(kind, key, canonical(payload))

    def enqueue_text(self, kind: str, key: str, body: str) -> bool:
        """`enqueue` of a payload its caller has already made text, as `canonical` makes it (the live
        feed's items, tablet_app/control/call_log.py)."""
        _check(kind, key)
        return self._insert(kind, key, body)

    def _insert(self, kind: str, key: str, body: str) -> bool:
        # one statement for a new key (nearly every item: one per call); a key already queued is
        # left as it is, and looked at
        if self.conn.execute("INSERT INTO outbox (kind, item_key, payload, enqueued_at, digest) VALUES (?, ?, ?, ?, ?) "
                             "ON CONFLICT (item_key) DO NOTHING",
                             (kind, key, body, time.time(), digest(kind, key, body))).rowcount == 1:
            return True
        row = self.conn.execute("SELECT payload FROM outbox WHERE item_key = ?", (key,)).fetchone()
        if row is None or row[0] != body:
            raise OutboxError(f"{key!r} is already queued with other content; send a new revision")
        return False

    def put(self, record: Item) -> bool:
        """Queue a record of the records package (`enqueue` with its kind, key and JSON form)."""
        return self.enqueue(*to_item(record))

    def has(self, key: str) -> bool:
        return self.conn.execute("SELECT 1 FROM outbox WHERE item_key = ?", (key,)).fetchone() is not None

    def restore(self, item: dict[str, Any]) -> None:
        """One row from `sound_items` into this (new) outbox, as it was."""
        self.conn.execute("INSERT OR IGNORE INTO outbox (kind, item_key, payload, enqueued_at, state, digest) "
                          "VALUES (?, ?, ?, ?, ?, ?)", (item["kind"], item["key"], item["payload"], item["at"],
                                                      item["state"], digest(item["kind"], item["key"], item["payload"])))

    def delivery(self) -> dict[str, Any]:
        """Where the table's items stand, for the director console: delivered and waiting
        counts, the items the station refused (for good, or an answer it keeps giving such as a
        key it does not know, or no room for a result) with its status and reason (`reason` the
        station's English; `refusal` its code and params where the station sent them, for the
        table's language: tablet_app/station_texts.py), and what the pump last heard."""
        counts = self.counts()
        refused = []
        for kind, key, state, err, code in self.conn.execute(REFUSED):
            status, reason = _http_reason(err)
            # held: the station takes it once the table is on its round (sent again meanwhile)
            refused.append({"kind": kind, "key": key, "status": status, "reason": reason, "refusal": _refusal(code),
                            "retrying": state == "pending", "held": state == "pending" and status == TOO_EARLY})
        row = self.conn.execute("SELECT connected, last_error FROM outbox_link WHERE id = 1").fetchone()
        return {"delivered": counts["delivered"], "waiting": counts["pending"], "refused": refused,
                "last_error": row[1] if row else None, "connected": bool(row[0]) if row else False}

    def counts(self) -> dict[str, int]:
        rows = self.conn.execute("SELECT state, n FROM outbox_count").fetchall()
        out = {"pending": 0, "delivered": 0, "rejected": 0, "skipped": 0}
        out.update({r[0]: r[1] for r in rows})
        return out

    def items(self, state: str | None = None) -> list[dict]:
        sql = "SELECT kind, item_key, state, attempts, last_error FROM outbox"
        rows = self.conn.execute(sql + (" WHERE state = ?" if state else "") + " ORDER BY id",
                                 (state,) if state else ()).fetchall()
        return [{"kind": r[0], "key": r[1], "state": r[2], "attempts": r[3], "error": r[4]} for r in rows]


def _answer(status: int, reply: Any) -> str:
    """The station's answer as the outbox keeps it (`_http_reason` reads it back)."""
    return f"HTTP {status}: {reply.get('error', reply) if isinstance(reply, dict) else reply}"


def _body(kind: str, key: str, payload: str) -> bytes:
    """One item as the station's door reads it (the payload as queued, byte for byte)."""
    return f'{{"kind":{json.dumps(kind)},"key":{json.dumps(key)},"payload":{payload}}}'.encode()


def _refusal_json(reply: Any) -> str | None:
    """The code and params of the station's answer, as the outbox keeps them (None without)."""
    refused = Refused.from_reply(reply)
    return json.dumps(refused.to_json()) if refused else None


def _refusal(kept: str | None) -> dict[str, Any] | None:
    """What `_refusal_json` kept, read back (None for none, or a row that does not read)."""
    try:
        refused = Refused.from_reply(json.loads(kept)) if kept else None
    except ValueError:
        return None
    return refused.to_json() if refused else None


def _http_reason(err: str | None) -> tuple[int | None, str]:
    """`HTTP 401: missing or malformed X-Table` -> (401, 'missing or malformed X-Table')."""
    text = err or ""
    if text.startswith("HTTP "):
        code, _, reason = text[5:].partition(":")
        if code.strip().isdigit():
            return int(code), reason.strip()
    return None, text


class Deliverer:
    """Background pump from the outbox to the station. `start()` / `stop()`; `wake()` after an
    enqueue to send at once; `drain(timeout)` waits until nothing is pending."""

    def __init__(self, db_path: str, station_url: str, table_id: str, table_key: str, *,
                 timeout: float = 10.0, min_backoff: float = 0.2, max_backoff: float = 15.0,
                 on_delivered: Callable[[str, str, Any], None] | None = None, batch_items: int = BATCH_ITEMS,
                 gather_s: float = GATHER_S):
        self.db_path = db_path
        # Called (kind, key, payload) after the station stored an item: e.g. the traveller fetch
        # (station_client.traveller_hook), which the station answers only after that.
        self.on_delivered = on_delivered
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
        self.batch_items = max(1, batch_items)  # items in one request at most (1: never a batch)
        self.gather_s = gather_s  # after a wake, how long to wait before sending
        self._batch: bool | None = None if batch_items > 1 else False  # the station takes batches (None: not known)
        self._skip: set[str] = set()  # optional kinds this station does not take (an older station)
        self._linked: tuple[bool, str | None] | None = None  # what `_link` last wrote
        # The storage alarm (watch_storage): the controller whose storage it watches, the key of
        # the call the station holds open, and the item being sent (kept, so a retry is identical).
        self._storage_ctl: Any = None
        self._alarm_key: str | None = None
        self._alarm_item: tuple[str, dict] | None = None

    # -- lifecycle ------------------------------------------------------------------------
    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            self._conn = sqlite3.connect(self.db_path, timeout=30, check_same_thread=False)
            self._conn.execute("PRAGMA journal_mode=WAL")
            # The pump's own writes (attempts, delivered marks) need no fsync: one lost in a power
            # cut only sends an item again, which the station answers "duplicate". An fsync here
            # would hold the database's write lock while the table journals its next call.
            self._conn.execute("PRAGMA synchronous=NORMAL")
            _schema(self._conn)
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

    def watch_storage(self, ctl: Any) -> Deliverer:
        """Tell the station when `ctl` (a Controller) reports its storage full, and again when
        it is over. The outbox lives in the same full file, so this call is posted directly,
        never queued: a `td_call` with reason `storage_full`, keyed by the last journalled
        record (`<event>/<section>/<table>/<round>/<board>/storage/<seq>`; a repeat, e.g. after
        a restart on the full disk, is the same call). Its end, `<key>/resolved`, is queued by
        the controller in the outbox (durable) when a write succeeds again."""
        self._storage_ctl = ctl
        ctl.storage_listeners.append(self.wake)
        return self

    def pending(self) -> int:
        with sqlite3.connect(self.db_path, timeout=30) as c:
            _schema(c)
            row = c.execute("SELECT n FROM outbox_count WHERE state = 'pending'").fetchone()
            return int(row[0]) if row else 0

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
                # the alarm first: while the disk is full the queued items cannot be marked sent
                sent = self.send_one() if self.storage_alarm() else None
            except Exception as e:  # the pump must outlive any surprise; retry later
                self.last_error = f"{type(e).__name__}: {e}"
                sent = None
            if sent is True:
                backoff = self.min_backoff
                continue
            if sent is False:  # nothing pending: sleep until woken
                if self._wake.wait(5.0) and self.gather_s:
                    # Woken by the table's commit: let the table finish what it does with that
                    # input (the boxes' views go out now) before this thread takes the CPU, and
                    # take what else comes meanwhile in the same request.
                    self._stop.wait(self.gather_s)
                self._wake.clear()
                continue
            # Failure: back off with jitter so a room of tablets does not hammer a restarting station.
            self._wake.wait(backoff * random.uniform(0.5, 1.0))
            self._wake.clear()
            backoff = min(backoff * 2, self.max_backoff)

    def storage_alarm(self) -> bool:
        """Post what the station must hear of the watched controller's storage (nothing is
        written to the tablet's database). False: the station was not reached; try again."""
        ctl = self._storage_ctl
        if ctl is None:
            return True
        since = ctl.storage_since
        want = self._storage_call(since) if since is not None else None
        if want is None or (self._alarm_item is not None and self._alarm_item[0] != want[0]):
            # The episode is over: the controller queued its launch and `/resolved` in the same
            # commit as the first write that succeeded, so they reach the station after any restart.
            self._alarm_key = self._alarm_item = None
        if want is None or self._alarm_key == want[0]:
            return True
        if self._alarm_item is None:
            self._alarm_item = want
        return self._post_alarm(*self._alarm_item)

    def _post_alarm(self, key: str, payload: dict) -> bool:
        body = json.dumps({"kind": "td_call", "key": key, "payload": payload}).encode()
        try:
            status, reply = self._post(body)
        except (OSError, http.client.HTTPException) as e:
            self.connected = False
            self.last_error = f"station unreachable: {e}"
            return False
        self.connected = True
        message = _answer(status, reply)
        if status not in (200, 201, *FOR_GOOD):  # 401/403, 5xx, ...: retry, as send_one
            self.last_error = message
            return False
        if status not in (200, 201, 409):  # the station will never take it: not retried
            self.last_error = f"storage alarm refused: {message}"
        # 409: the station holds this call with another `at` (the tablet restarted on the full
        # disk and the refusals began again after the same record): the same call, still open.
        self._alarm_key, self._alarm_item = key, None
        return True

    def _storage_call(self, since: dict) -> tuple[str, dict]:
        call = station_items.storage_call(TableId.parse(self.table_id), since)
        return call.key.format(), call.to_json()

    def send_one(self) -> bool | None:
        """Send the oldest pending items (one, or a batch of them; an item held as too early
        waits aside until its time). True: at least one settled (delivered, rejected for good, or
        held); False: nothing to send now; None: none settled, try later."""
        db = self._db()
        rows = db.execute("SELECT id, kind, item_key, payload FROM outbox WHERE state = 'pending' "
                          "AND (held_until IS NULL OR held_until <= ?) ORDER BY id LIMIT ?",
                          (time.time(), 1 if self._batch is False else self.batch_items)).fetchall()
        if not rows:
            return False
        rows = self._skip_unwanted(rows)
        if not rows:
            return True
        db.execute(f"UPDATE outbox SET attempts = attempts + 1 WHERE id IN ({','.join('?' * len(rows))})",
                   [r[0] for r in rows])
        db.commit()
        try:
            if len(rows) == 1 or self._batch is False:
                answers = [self._post(_body(*rows[0][1:]))]
            else:
                batch = self._post_batch(rows)
                if batch is None:  # an older station: no batches, one item at a time from now on
                    self._batch = False
                    return True
                answers = batch
        except (OSError, http.client.HTTPException) as e:
            self.connected = False
            self.last_error = f"station unreachable: {e}"
            self._note(rows[0][0], self.last_error)
            return None
        self.connected = True
        settled: list[tuple[str, str, str]] = []
        outcome: bool | None = None
        for row, (status, reply) in zip(rows, answers, strict=False):
            done = self._settle(row, status, reply)
            if done is None:
                break  # this one is retried, and so is every item behind it (the order holds)
            outcome = True
            if done:
                settled.append(row[1:])
        if any(kind in OPENERS for kind, _, _ in settled):
            # The station may be on a later round for this table now: held items go again.
            db.execute("UPDATE outbox SET held_until = NULL WHERE state = 'pending' AND held_until IS NOT NULL")
        db.commit()
        self._link(None if outcome else self.last_error)
        if outcome:
            self.last_error = None if len(settled) == len(rows) else self.last_error
        for kind, key, payload in settled:
            if self.on_delivered is not None:
                try:
                    self.on_delivered(kind, key, json.loads(payload))
                except Exception as e:  # the hook never holds up delivery
                    self.last_error = f"after delivery: {type(e).__name__}: {e}"
        return outcome

    def _skip_unwanted(self, rows: list[Any]) -> list[Any]:
        """The rows to send: items of a kind this station does not take are skipped (kept as
        `skipped`), and a batch stops before a lone item too big to share a request."""
        db = self._db()
        out: list[Any] = []
        size = 0
        for row in rows:
            if row[1] in self._skip:
                db.execute("UPDATE outbox SET state = 'skipped', done_at = ? WHERE id = ?", (time.time(), row[0]))
                continue
            size += len(row[3])
            if out and size > BATCH_BYTES:
                break
            out.append(row)
        db.commit()
        return out

    def _settle(self, row: Any, status: int, reply: Any) -> bool | None:
        """Apply the station's answer to one item (not committed). True: delivered; False:
        rejected or skipped for good; None: retried later."""
        db = self._db()
        item_id, kind, key, _ = row
        message = _answer(status, reply)
        if status in (200, 201) or (status == 409 and _storage_key(kind, key)):
            # The station committed before replying: only now may the item be forgotten. (A 409
            # for a storage call: the station already holds it, posted directly while the disk
            # was full, with another `at`; nothing is left to send.)
            db.execute("UPDATE outbox SET state = 'delivered', done_at = ?, last_error = NULL, refused = NULL "
                       "WHERE id = ?", (time.time(), item_id))
            return True
        self.last_error = message
        db.execute("UPDATE outbox SET refused = ? WHERE id = ?", (_refusal_json(reply), item_id))
        if status == 422 and kind in OPTIONAL_KINDS and message.startswith("HTTP 422: kind:"):
            # An older station: it has no live feed. Skipped, now and from now on.
            self._skip.add(kind)
            db.execute("UPDATE outbox SET state = 'skipped', done_at = ?, last_error = ? WHERE id = ?",
                       (time.time(), message, item_id))
            return False
        if status == TOO_EARLY:
            # Held (Law 16 at the station): sent again later; the items behind it go on meanwhile.
            db.execute("UPDATE outbox SET last_error = ?, held_until = ? WHERE id = ?",
                       (message, time.time() + HOLD_S, item_id))
            return False
        if status in FOR_GOOD and not (status == 413 and kind not in DROPPABLE):
            # The station will never take this item as it is; keep it (for the TD) but stop
            # retrying it, so the items behind it still get through.
            db.execute("UPDATE outbox SET state = 'rejected', done_at = ?, last_error = ? WHERE id = ?",
                       (time.time(), message, item_id))
            return False
        # 401/403 (key not set up yet), 507 or an older station's 413 (no room for a result at the
        # station), 5xx ...: retry
        db.execute("UPDATE outbox SET last_error = ? WHERE id = ?", (message, item_id))
        return None

    def _post_batch(self, rows: list[Any]) -> list[tuple[int, Any]] | None:
        """Several items in one request: each item's (status, reply), in order; an item the station
        did not get to (it stopped at one it must have again) is (0, ...), retried. None: the
        station has no batches (an older one)."""
        body = b'{"items":[' + b",".join(_body(*r[1:]) for r in rows) + b"]}"
        status, reply = self._post(body, "/api/v1/items/batch")
        if status in (404, 405) or status in FOR_GOOD:
            return None  # no batches here (an older station), or not this one: one at a time
        results = reply.get("results") if isinstance(reply, dict) else None
        if status != 200 or not isinstance(results, list):
            return [(status, reply)]  # the whole request refused (a key, the station's trouble): retried
        self._batch = True
        out = []
        for r in results[:len(rows)]:
            code = r.get("status") if isinstance(r, dict) else None
            out.append((code if isinstance(code, int) else 0, r))
        return out

    def _note(self, item_id: int, message: str) -> None:
        db = self._db()
        db.execute("UPDATE outbox SET last_error = ? WHERE id = ?", (message, item_id))
        db.commit()
        if not self.connected:
            self._link(message)

    def _link(self, error: str | None) -> None:
        if self._linked == (self.connected, error):
            return  # unchanged: no write (each one takes the database's write lock)
        self._linked = (self.connected, error)
        db = self._db()
        db.execute("INSERT OR REPLACE INTO outbox_link (id, connected, last_error, at) VALUES (1, ?, ?, ?)",
                   (int(self.connected), error, time.time()))
        db.commit()

    def _post(self, body: bytes, path: str = "/api/v1/items") -> tuple[int, Any]:
        conn = connection(self._url, self.timeout)
        try:
            conn.request("POST", (self._url.path.rstrip("/") or "") + path, body=body, headers={
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
