"""Durable storage for the station: one schema, two engines (SQLite by default, PostgreSQL by URL).

Every write is one transaction that is committed (SQLite: WAL with synchronous=FULL, so the
commit is on disk) before the caller replies to the tablet; that is what lets the tablet's
outbox forget an item. SQL is written once with `?` placeholders and translated for psycopg.
"""
from __future__ import annotations

import concurrent.futures
import hashlib
import hmac
import json
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterable, Sequence
from typing import Any

# One logical schema. `{serial}` is the only dialect difference (an auto-increment id).
SCHEMA = [
    """CREATE TABLE IF NOT EXISTS table_keys (
        event TEXT NOT NULL, section TEXT NOT NULL, table_no INTEGER NOT NULL,
        key_hash TEXT NOT NULL, issued_at TEXT NOT NULL,
        PRIMARY KEY (event, section, table_no))""",
    """CREATE TABLE IF NOT EXISTS items (
        id {serial},
        item_key TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,
        event TEXT NOT NULL, section TEXT NOT NULL, table_no INTEGER NOT NULL,
        round_no INTEGER, board INTEGER, revision INTEGER,
        digest TEXT NOT NULL, payload TEXT NOT NULL, received_at TEXT NOT NULL)""",
    "CREATE INDEX IF NOT EXISTS items_by_board ON items (event, kind, section, board)",
    "CREATE INDEX IF NOT EXISTS items_by_table ON items (event, section, table_no, kind)",
    """CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value TEXT NOT NULL)""",
    # Data Connector: sessions the scoring program initialised, their movement, hand records,
    # and which queue items it has polled and accepted.
    """CREATE TABLE IF NOT EXISTS dc_sessions (
        session_guid TEXT PRIMARY KEY, event TEXT NOT NULL, name TEXT, payload TEXT NOT NULL,
        created_at TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS dc_sections (
        session_guid TEXT NOT NULL, section TEXT NOT NULL, scoring_group INTEGER NOT NULL,
        scoring_method INTEGER NOT NULL, game_type INTEGER NOT NULL,
        PRIMARY KEY (session_guid, section))""",
    """CREATE TABLE IF NOT EXISTS dc_rounds (
        session_guid TEXT NOT NULL, section TEXT NOT NULL, table_no INTEGER NOT NULL,
        round_no INTEGER NOT NULL, low_board INTEGER NOT NULL, high_board INTEGER NOT NULL,
        pair_ns INTEGER NOT NULL, pair_ew INTEGER NOT NULL,
        PRIMARY KEY (session_guid, section, table_no, round_no))""",
    """CREATE TABLE IF NOT EXISTS dc_handrecords (
        session_guid TEXT NOT NULL, section TEXT NOT NULL, board INTEGER NOT NULL,
        deal TEXT NOT NULL, payload TEXT NOT NULL,
        PRIMARY KEY (session_guid, section, board))""",
    """CREATE TABLE IF NOT EXISTS dc_polled (
        session_guid TEXT NOT NULL, data_type INTEGER NOT NULL, item_id INTEGER NOT NULL,
        PRIMARY KEY (session_guid, data_type, item_id))""",
    """CREATE TABLE IF NOT EXISTS dc_accepted (
        session_guid TEXT NOT NULL, data_type INTEGER NOT NULL, item_id INTEGER NOT NULL,
        PRIMARY KEY (session_guid, data_type, item_id))""",
]


_secrets_lock = threading.Lock()


class StoreError(Exception):
    """A storage problem the caller reports (never a silent partial write)."""


class Conflict(StoreError):
    """The idempotency key exists with different content (HTTP 409)."""


def canonical(payload: Any) -> str:
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest_of(payload: Any) -> str:
    return hashlib.sha256(canonical(payload).encode("utf-8")).hexdigest()


def hash_key(key: str) -> str:
    # Keys are random 128-bit tokens, so a plain salted-free SHA-256 is enough to keep them
    # out of a copied database file; compare with hmac.compare_digest.
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def utc_now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class Store:
    """Thread-safe access to the station database. Writes go through one connection under one
    lock; concurrent item writes are grouped into one transaction and one fsync (group commit,
    `put_item`), each caller answered only once that commit is durable. Reads outside a
    transaction (`query`) use a read-only connection per thread, so they neither wait for the
    write lock nor take it (SQLite WAL and PostgreSQL both let readers run beside a writer)."""

    def __init__(self, url: str):
        self.url = url
        self._lock = threading.RLock()
        self._local = threading.local()       # this thread's read connection, transaction depth
        self._readers: list[Any] = []
        self._readers_lock = threading.Lock()
        self._group: list[tuple[Any, concurrent.futures.Future]] = []
        self._group_lock = threading.Lock()
        self._group_leader = False
        if url.startswith(("postgresql://", "postgres://")):
            self.dialect = "postgresql"
            try:
                import psycopg
            except ImportError as e:  # pragma: no cover - requirements.txt pins it
                raise StoreError("PostgreSQL needs the psycopg package (requirements.txt)") from e
            self._integrity = psycopg.IntegrityError
            self._conn: Any = psycopg.connect(url, autocommit=False)
            serial = "BIGSERIAL PRIMARY KEY"
        else:
            self.dialect = "sqlite"
            path = url.removeprefix("sqlite:///") if url.startswith("sqlite:///") else url
            self._integrity = sqlite3.IntegrityError
            self._path = path
            self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            self._conn.execute("PRAGMA journal_mode=WAL")
            # FULL: the WAL is fsynced at every commit, so an acknowledged item survives power loss.
            self._conn.execute("PRAGMA synchronous=FULL")
            self._conn.execute("PRAGMA busy_timeout=10000")
            # What is deleted (a secret moved out of a database from before) is overwritten, not
            # left readable in free pages.
            self._conn.execute("PRAGMA secure_delete=ON")
            serial = "INTEGER PRIMARY KEY AUTOINCREMENT"
        with self.transaction() as cur:
            for ddl in SCHEMA:
                cur.execute(ddl.format(serial=serial))

    # -- plumbing -------------------------------------------------------------------------
    def _sql(self, sql: str) -> str:
        return sql.replace("?", "%s") if self.dialect == "postgresql" else sql

    class _Tx:
        def __init__(self, store: Store):
            self.store = store

        def __enter__(self) -> Store._Tx:
            self.store._lock.acquire()
            self.store._local.depth = getattr(self.store._local, "depth", 0) + 1
            if self.store.dialect == "sqlite":
                try:
                    self.store._conn.execute("BEGIN IMMEDIATE")
                except BaseException:  # busy, read-only: the lock must not stay taken
                    self.store._local.depth -= 1
                    self.store._lock.release()
                    raise
            self.cur = self.store._conn.cursor()
            return self

        def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
            self.cur.execute(self.store._sql(sql), tuple(params))
            return self.cur

        def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
            self.cur.executemany(self.store._sql(sql), [tuple(r) for r in rows])

        def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
            try:
                if exc_type is None:
                    self.store._conn.commit() if self.store.dialect == "postgresql" else \
                        self.store._conn.execute("COMMIT")
                elif self.store.dialect == "postgresql":
                    self.store._conn.rollback()
                elif self.store._conn.in_transaction:  # SQLite may have rolled back already (disk full)
                    self.store._conn.execute("ROLLBACK")
            finally:
                self.store._local.depth -= 1
                self.store._lock.release()

    def transaction(self) -> Store._Tx:
        return Store._Tx(self)

    def _reader(self) -> Any:
        conn = getattr(self._local, "reader", None)
        if conn is None:
            if self.dialect == "sqlite":
                conn = sqlite3.connect(self._path, check_same_thread=False, isolation_level=None)
                conn.execute("PRAGMA query_only=1")
                conn.execute("PRAGMA busy_timeout=10000")
            else:
                import psycopg
                conn = psycopg.connect(self.url, autocommit=True)
            self._local.reader = conn
            with self._readers_lock:
                self._readers.append(conn)
        return conn

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        """Rows of one read. Inside a transaction of this thread it sees that transaction's
        writes; elsewhere it reads the last commit on this thread's own read connection."""
        if getattr(self._local, "depth", 0):
            with self.transaction() as tx:
                return list(tx.execute(sql, params).fetchall())
        return list(self._reader().execute(self._sql(sql), tuple(params)).fetchall())

    def _grouped(self, write: Any) -> Any:
        """Run `write(tx)` in a transaction shared with the writes other threads hand in
        meanwhile, and return its result once that transaction is committed (durable). The
        first caller leads: it commits batch after batch until nobody waits; each write is
        inside a savepoint, so one failing write fails alone."""
        if getattr(self._local, "depth", 0):  # already inside this thread's transaction
            with self.transaction() as tx:
                return write(tx)
        done: concurrent.futures.Future = concurrent.futures.Future()
        with self._group_lock:
            self._group.append((write, done))
            lead = not self._group_leader
            self._group_leader = True
        while lead:
            with self._group_lock:
                batch, self._group = self._group, []
                if not batch:
                    self._group_leader = False
                    break
            self._commit_batch(batch)
        return done.result()

    def _commit_batch(self, batch: list[tuple[Any, concurrent.futures.Future]]) -> None:
        results: list[tuple[concurrent.futures.Future, bool, Any]] = []
        try:
            with self.transaction() as tx:
                for write, fut in batch:
                    tx.execute("SAVEPOINT item")
                    try:
                        results.append((fut, True, write(tx)))
                        tx.execute("RELEASE SAVEPOINT item")
                    except Exception as e:
                        try:
                            tx.execute("ROLLBACK TO SAVEPOINT item")
                            tx.execute("RELEASE SAVEPOINT item")
                        except Exception:
                            raise e from None  # SQLite ended the transaction itself (disk full): all fail
                        results.append((fut, False, e))
        except Exception as e:  # the commit failed (disk full, I/O error): nothing is stored
            for _, fut in batch:
                fut.set_exception(e)
            return
        for fut, ok, value in results:
            fut.set_result(value) if ok else fut.set_exception(value)

    def close(self) -> None:
        with self._lock:
            self._conn.close()
        with self._readers_lock:
            for conn in self._readers:
                try:
                    conn.close()
                except Exception:  # noqa: S110 - another thread's connection, closing anyway
                    pass
            self._readers.clear()

    # -- settings ---------------------------------------------------------------------------
    def setting(self, name: str, default: str | None = None) -> str | None:
        rows = self.query("SELECT value FROM settings WHERE name = ?", (name,))
        return rows[0][0] if rows else default

    def set_setting(self, name: str, value: str) -> None:
        with self.transaction() as tx:
            tx.execute("DELETE FROM settings WHERE name = ?", (name,))
            tx.execute("INSERT INTO settings (name, value) VALUES (?, ?)", (name, value))

    def secrets_file(self) -> str | None:
        """Where the station's secrets (director token, table-key secret) live: a file beside
        the SQLite database, readable by its owner only, so a copy of the database alone
        gives away no key. PostgreSQL: None, in the database (a server with its own access
        control, shared by the stations of a multi-hall event, which need the same secrets)."""
        return None if self.dialect == "postgresql" else self._path + ".secrets"

    def ensure_secret(self, name: str) -> str:
        path = self.secrets_file()
        if path is None:
            value = self.setting(name)
            if value is None:
                value = secrets.token_urlsafe(12)
                self.set_setting(name, value)
            return value
        with _secrets_lock:
            try:
                with open(path, encoding="utf-8") as f:
                    kept = json.load(f)
            except FileNotFoundError:
                kept = {}
            if name in kept:
                return str(kept[name])
            # A database from before kept its secrets inside: move them out (same values, so
            # printed keys and the token stay valid), else make a new one.
            value = self.setting(name) or secrets.token_urlsafe(12)
            kept[name] = value
            tmp = path + ".tmp"
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(kept, f)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
            with self.transaction() as tx:
                tx.execute("DELETE FROM settings WHERE name = ?", (name,))
            return value

    # -- table keys ---------------------------------------------------------------------------
    def register_table(self, event: str, section: str, table_no: int, key: str) -> None:
        """Make a table known for an event with its key; only the key's hash is stored."""
        with self.transaction() as tx:
            tx.execute("DELETE FROM table_keys WHERE event = ? AND section = ? AND table_no = ?",
                       (event, section, table_no))
            tx.execute("INSERT INTO table_keys (event, section, table_no, key_hash, issued_at) "
                       "VALUES (?, ?, ?, ?, ?)", (event, section, table_no, hash_key(key), utc_now()))

    def check_table_key(self, event: str, section: str, table_no: int, key: str) -> bool:
        rows = self.query("SELECT key_hash FROM table_keys WHERE event = ? AND section = ? AND table_no = ?",
                          (event, section, table_no))
        return bool(rows) and hmac.compare_digest(rows[0][0], hash_key(key))

    def tables_with_keys(self, event: str) -> list[tuple[str, int]]:
        return [(r[0], r[1]) for r in self.query(
            "SELECT section, table_no FROM table_keys WHERE event = ? ORDER BY section, table_no", (event,))]

    # -- items (results, TD calls, auction logs) --------------------------------------------
    def put_item(self, key: str, kind: str, payload: dict, *, event: str, section: str, table_no: int,
                 round_no: int | None, board: int | None, revision: int | None) -> tuple[int, bool]:
        """Store an item once. Returns (id, created). Same key and same content again: (id, False)
        and nothing written. Same key, different content: Conflict, nothing written."""
        digest = digest_of(payload)

        def write(tx: Store._Tx) -> tuple[bool, Any]:
            tx.execute(
                "INSERT INTO items (item_key, kind, event, section, table_no, round_no, board, revision, "
                "digest, payload, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (item_key) DO NOTHING",
                (key, kind, event, section, table_no, round_no, board, revision, digest,
                 canonical(payload), utc_now()))
            created = tx.cur.rowcount == 1
            return created, tx.execute("SELECT id, digest FROM items WHERE item_key = ?", (key,)).fetchone()

        created, row = self._grouped(write)
        if not created and row[1] != digest:
            raise Conflict(f"key {key!r} was already stored with different content; "
                           "a corrected result needs a new revision (Law 79C), not an edit")
        return int(row[0]), created

    def items(self, event: str | None = None, kind: str | None = None, *, section: str | None = None,
              table_no: int | None = None, board: int | None = None, after_id: int = 0) -> list[dict]:
        """Stored items as dicts: id, key, kind, received_at, payload (decoded)."""
        where, params = ["id > ?"], [after_id]
        for col, val in (("event", event), ("kind", kind), ("section", section),
                         ("table_no", table_no), ("board", board)):
            if val is not None:
                where.append(f"{col} = ?")
                params.append(val)
        rows = self.query("SELECT id, item_key, kind, received_at, payload FROM items WHERE "
                          + " AND ".join(where) + " ORDER BY id", params)
        return [{"id": int(r[0]), "key": r[1], "kind": r[2], "received_at": r[3],
                 "payload": json.loads(r[4])} for r in rows]

    def count_items(self, kind: str | None = None) -> int:
        if kind is None:
            return int(self.query("SELECT COUNT(*) FROM items")[0][0])
        return int(self.query("SELECT COUNT(*) FROM items WHERE kind = ?", (kind,))[0][0])

    def events(self) -> list[str]:
        rows = self.query("SELECT DISTINCT event FROM items UNION SELECT DISTINCT event FROM table_keys")
        return sorted(r[0] for r in rows)


def latest_results(items: list[dict]) -> list[dict]:
    """One result per (section, table, round, board): the highest revision (Law 79C corrections
    are new revisions, never edits)."""
    best: dict[tuple, dict] = {}
    for it in items:
        p = it["payload"]
        k = (p["section"], p["table"], p["round"], p["board"])
        if k not in best or _revision(it) >= _revision(best[k]):
            best[k] = it
    return sorted(best.values(), key=lambda it: it["id"])


def _revision(item: dict) -> int:
    try:
        return int(item["key"].rsplit("/", 1)[1])
    except (ValueError, IndexError):
        return 0
