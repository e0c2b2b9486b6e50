"""Durable storage for the station: one schema, two engines (SQLite by default, PostgreSQL by URL).

Every write is one transaction that is committed (SQLite: WAL with synchronous=FULL, so the
commit is on disk) before the caller replies to the tablet; that is what lets the tablet's
outbox forget an item. SQL is written once with `?` placeholders and translated for psycopg.
"""
from __future__ import annotations

import concurrent.futures
import hashlib
import hmac
import itertools
import json
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from shared_rules.records import RecordError, RefusalCode, Refused, ResultKey

from .stored import COLUMNS, Damaged, read_rows

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
    # When the scoring program last polled and last accepted a queue, per session and queue
    # (results 12, TD calls 21): the director page's "last read".
    """CREATE TABLE IF NOT EXISTS dc_reads (
        session_guid TEXT NOT NULL, data_type INTEGER NOT NULL, polled_at TEXT, accepted_at TEXT,
        PRIMARY KEY (session_guid, data_type))""",
    # Players the scoring program sent (PlayerDataDTO) and where they sit (ParticipationDTO),
    # keyed by session so two sessions with the same section letters never mix.
    """CREATE TABLE IF NOT EXISTS dc_players (
        session_guid TEXT NOT NULL, player_number TEXT NOT NULL, first_name TEXT, last_name TEXT,
        country_code TEXT, PRIMARY KEY (session_guid, player_number))""",
    """CREATE TABLE IF NOT EXISTS dc_participations (
        session_guid TEXT NOT NULL, section TEXT NOT NULL, table_no INTEGER NOT NULL,
        round_no INTEGER NOT NULL, direction TEXT NOT NULL, player_number TEXT, first_name TEXT,
        last_name TEXT, country_code TEXT,
        PRIMARY KEY (session_guid, section, table_no, round_no, direction))""",
    # Which id the tablets of a session put in their keys (docs/station.md "Events and sessions"):
    # the first session of a station event uses the event itself, each later one `<event>.<n>`,
    # so two sessions with the same section letters never share an item key. Kept apart from
    # dc_sessions, which InitializeEvent rewrites, so a session keeps its id for good.
    """CREATE TABLE IF NOT EXISTS dc_session_ids (
        session_guid TEXT PRIMARY KEY, event TEXT NOT NULL, tablet_event TEXT NOT NULL UNIQUE,
        event_guid TEXT, created_at TEXT NOT NULL)""",
    # The station event a scoring-program event (its EventGuid, else its session) belongs to when
    # the director named none at start.
    """CREATE TABLE IF NOT EXISTS dc_event_ids (
        scorer_event TEXT PRIMARY KEY, event TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL)""",
    # Bridgemate settings the scoring program sent, per section (model 2 or 3), served to the
    # tablets in their movement.
    """CREATE TABLE IF NOT EXISTS dc_settings (
        session_guid TEXT NOT NULL, section TEXT NOT NULL, model INTEGER NOT NULL, payload TEXT NOT NULL,
        PRIMARY KEY (session_guid, section, model))""",
    # Team matches (station/matches.py): the teams of each round of a teams movement as the
    # scoring program sent them (RoundDTO TeamNS, TeamEW, MatesTable*), and what the TD set
    # (`python -m station match`: a match's tables and home team, or a section declared teams).
    """CREATE TABLE IF NOT EXISTS dc_round_teams (
        session_guid TEXT NOT NULL, section TEXT NOT NULL, table_no INTEGER NOT NULL,
        round_no INTEGER NOT NULL, team_ns INTEGER NOT NULL, team_ew INTEGER NOT NULL,
        mates_section TEXT, mates_table INTEGER, mates_round INTEGER,
        PRIMARY KEY (session_guid, section, table_no, round_no))""",
    """CREATE TABLE IF NOT EXISTS team_matches (
        session_guid TEXT NOT NULL, entry TEXT NOT NULL, payload TEXT NOT NULL, created_at TEXT NOT NULL,
        PRIMARY KEY (session_guid, entry))""",
    # Results and TD calls the scoring program put (PutResults, PutTdCalls): the scoring
    # program's own, shown on the director page, never in its polls (those are the tables').
    """CREATE TABLE IF NOT EXISTS dc_scorer_items (
        id {serial}, session_guid TEXT NOT NULL, kind TEXT NOT NULL, section TEXT NOT NULL,
        table_no INTEGER NOT NULL, round_no INTEGER NOT NULL, board INTEGER NOT NULL,
        payload TEXT NOT NULL, received_at TEXT NOT NULL)""",
    # Deliveries the station refused, per table, for the director page (a refused item itself
    # is stored nowhere; this is its trace).
    # `refused`: its code and parameters (shared_rules/records/refusals.py) as JSON, for the page
    # to say it in the TD's language; NULL for a refusal without a code (a database from before).
    """CREATE TABLE IF NOT EXISTS refusals (
        id {serial}, event TEXT NOT NULL, section TEXT NOT NULL, table_no INTEGER NOT NULL,
        item_key TEXT, status INTEGER NOT NULL, error TEXT NOT NULL, at TEXT NOT NULL, refused TEXT)""",
    "CREATE INDEX IF NOT EXISTS refusals_by_table ON refusals (event, section, table_no)",
    # What each table has stored in each room (one per kind: ROOMS), kept with every insert, for
    # the quota (one row read per item, not a scan of the table's items). A database from before
    # the rooms also has `table_usage` (one count for all kinds), no longer read.
    """CREATE TABLE IF NOT EXISTS table_rooms (
        event TEXT NOT NULL, section TEXT NOT NULL, table_no INTEGER NOT NULL, kind TEXT NOT NULL,
        items INTEGER NOT NULL, bytes INTEGER NOT NULL, PRIMARY KEY (event, section, table_no, kind))""",
]



@dataclass(frozen=True, slots=True)
class Room:
    """What one table may store of one kind in one event (session): a quota per kind, so that
    progress snapshots can never take the room a result needs (docs/station.md "Room")."""

    what: str
    items: int
    bytes: int


# A table plays at most about 40 boards in a session (a long one; 2 x 27 boards under one id is
# the most a club puts together). Each board's result, each Law 79C correction and each
# withdrawal (and the result moved to the right board) is one item: 1,000 is more than 15 for
# every board of a 60-board day, so a table that sends more is broken or hostile. A result is a
# few kB (the longest legal auction, 319 calls, about 30 kB): 16 MB is 16 kB for each of them.
# A TD call is one item when it is made and one per status change (4 at most): 1,000 is 250
# calls at one table in one session; a note is at most 2,000 characters. The tablet sends a
# progress snapshot when a board starts, when the table freezes on an irregularity, when the
# auction ends and when the result is entered: a handful a board; 2,000 is 50 a board of a
# 40-board session.
ROOMS = {
    "result": Room("results (results, corrections and withdrawals)", 1000, 16 * 1024 * 1024),
    "td_call": Room("TD calls", 1000, 4 * 1024 * 1024),
    "auction": Room("progress snapshots", 2000, 16 * 1024 * 1024),
    # Each call, alert, stop, tray pass and ruling as it happens (the live feed): some 20 a board,
    # each with the auction so far (about 1 kB a board of 12 calls).
    "auction_event": Room("auction events", 20000, 64 * 1024 * 1024),
    # The table moved to a round: one item per round (a session has at most some 30 rounds).
    "round": Room("round starts", 200, 1024 * 1024),
    # Player numbers: one entry a round, a few corrections; 200 is 20 for each of 10 rounds.
    "players": Room("player-number entries", 200, 1024 * 1024),
}
# Refusals kept per table (the newest): the page needs the latest, a flood must not grow them.
MAX_REFUSALS_PER_TABLE = 50


_secrets_lock = threading.Lock()


class StoreError(Exception):
    """A storage problem the caller reports (never a silent partial write)."""


class Conflict(StoreError):
    """The idempotency key exists with different content (HTTP 409)."""


class QuotaExceeded(StoreError):
    """The table has stored as much of this kind as a table can need (`ROOMS`); nothing written.
    A result or a TD call gets HTTP 507 (the tablet keeps it and retries: the TD can make room),
    a progress snapshot 413 (dropped: it only drives the director page's progress column)."""

    def __init__(self, message: str, kind: str, refused: Refused | None = None):
        super().__init__(message)
        self.kind = kind
        self.refused = refused


def _refused_json(text: Any) -> dict[str, Any] | None:
    """A refusal's stored code and parameters; None for none, or a value that does not read."""
    try:
        value = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def canonical(payload: Any) -> str:
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest_of(payload: Any) -> str:
    return hashlib.sha256(canonical(payload).encode("utf-8")).hexdigest()


def hash_key(key: str) -> str:
    # Keys are random 128-bit tokens, so a plain salted-free SHA-256 is enough to keep them
    # out of a copied database file; compare with hmac.compare_digest.
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _read_secrets(path: str) -> dict[str, str]:
    """The secrets file's names and values ({} when there is none yet); StoreError when it is
    damaged or others can read it."""
    try:
        mode = os.stat(path).st_mode
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        return {}
    except OSError as e:
        raise StoreError(f"cannot read the secrets file {path}: {e.strerror or e}") from e
    if os.name == "posix" and mode & 0o077:
        raise StoreError(f"the secrets file {path} can be read by others (mode {mode & 0o777:o}): "
                         f"chmod 600 {path}")
    try:
        kept = json.loads(text)
    except ValueError as e:
        raise StoreError(f"the secrets file {path} is damaged ({e}): restore it from a backup") from e
    if not isinstance(kept, dict) or not all(isinstance(v, str) and v for v in kept.values()):
        raise StoreError(f"the secrets file {path} is damaged (not the station's names and values): "
                         "restore it from a backup")
    return kept


def _write_secrets(path: str, kept: dict[str, str]) -> None:
    tmp = path + ".tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(kept, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as e:
        raise StoreError(f"cannot write the secrets file {path}: {e.strerror or e}") from e


def utc_now() -> str:
    # time.gmtime() with no argument reads C's time(NULL), the kernel's coarse clock, up to a timer
    # tick behind time.time(): in a second's first milliseconds it still says the second before,
    # so a stamp taken after a caller read the clock could be a second earlier than that read.
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time()))


class Store:
    """Thread-safe access to the station database. Writes go through one connection under one
    lock; concurrent item writes are grouped into one transaction and one fsync (group commit,
    `put_item`), each caller answered only once that commit is durable. Reads outside a
    transaction (`query`) use a read-only connection per thread, so they neither wait for the
    write lock nor take it (SQLite WAL and PostgreSQL both let readers run beside a writer)."""

    def __init__(self, url: str, secrets_path: str | None = None):
        self.url = url
        self._secrets_path = secrets_path  # None: `<db>.secrets` beside SQLite; PostgreSQL needs one
        self._lock = threading.RLock()
        self._local = threading.local()       # this thread's read connection, transaction depth
        self._readers: list[Any] = []
        self._readers_lock = threading.Lock()
        self._group: list[tuple[Any, concurrent.futures.Future]] = []
        self._group_lock = threading.Lock()
        self._group_leader = False
        self._path = ""  # SQLite's file; PostgreSQL has none
        if url.startswith(("postgresql://", "postgres://")):
            self.dialect = "postgresql"
            try:
                import psycopg
            except ImportError as e:  # pragma: no cover - requirements.txt pins it
                raise StoreError("PostgreSQL needs the psycopg package (requirements.txt)") from e
            self._conn: Any = psycopg.connect(url, autocommit=False)
            serial = "BIGSERIAL PRIMARY KEY"
        else:
            self.dialect = "sqlite"
            path = url.removeprefix("sqlite:///") if url.startswith("sqlite:///") else url
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
            if "refused" not in self._columns(cur, "refusals"):  # a database from before the codes
                cur.execute("ALTER TABLE refusals ADD COLUMN refused TEXT")
            # Sessions a station of an earlier version initialised get their ids, oldest first.
            for guid, event, payload in cur.execute(
                    "SELECT session_guid, event, payload FROM dc_sessions WHERE session_guid NOT IN "
                    "(SELECT session_guid FROM dc_session_ids) ORDER BY created_at, session_guid").fetchall():
                self.assign_session_id(cur, event, guid, json.loads(payload).get("EventGuid"))

    # -- plumbing -------------------------------------------------------------------------
    def _columns(self, cur: Any, table: str) -> set[str]:
        """The columns `table` has (inside the schema's transaction)."""
        if self.dialect == "postgresql":
            rows = cur.execute("SELECT column_name FROM information_schema.columns WHERE table_name = ?",
                               (table,)).fetchall()
            return {str(r[0]) for r in rows}
        return {str(r[1]) for r in cur.execute(f"PRAGMA table_info({table})").fetchall()}

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
        if getattr(self._local, "depth", 0) or (self.dialect == "sqlite" and self._path in (":memory:", "")):
            # An in-memory database (tests, fuzzing) exists on its one connection only.
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
        """Where the station's secrets (director token, table-key secret) live: never in the
        database (a copy of it, a dump of a shared PostgreSQL, gives away no key), but in a
        file readable by its owner only: the one given (`--secrets`), else `<db>.secrets`
        beside a SQLite file. PostgreSQL has no default (None): the stations of a multi-hall
        event share one database and so one secrets file, copied to each hall's computer."""
        if self._secrets_path:
            return self._secrets_path
        return None if self.dialect == "postgresql" else self._path + ".secrets"

    def _memory_secrets(self) -> dict[str, str] | None:
        """An in-memory SQLite database (tests, fuzzing) keeps nothing at rest, its secrets neither."""
        if self._secrets_path or self.dialect != "sqlite" or self._path not in (":memory:", ""):
            return None
        if not hasattr(self, "_in_memory"):
            self._in_memory: dict[str, str] = {}
        return self._in_memory

    def ensure_secret(self, name: str) -> str:
        """The secret `name` from the secrets file; made (or moved out of a database from
        before, same value) on first use. The database keeps only its SHA-256, so a secrets
        file of another database, or a missing one, is a clear StoreError, never new keys."""
        memory = self._memory_secrets()
        if memory is not None:
            return memory.setdefault(name, secrets.token_urlsafe(12))
        path = self.secrets_file()
        if path is None:
            raise StoreError("a PostgreSQL database keeps no secrets: give the station a secrets file with "
                             "--secrets FILE (made on first start; the stations of a multi-hall event use "
                             "copies of the same file)")
        with _secrets_lock:
            kept = _read_secrets(path)
            check = self.setting("secret_sha256:" + name)
            legacy = self.setting(name)
            if name in kept:
                value = kept[name]
                if check is not None and not hmac.compare_digest(hash_key(value), check):
                    raise StoreError(f"the secrets file {path} is not this database's (its {name} does not "
                                     "match): use the secrets file made with this database, or start once "
                                     "with --new-secrets to take this file's (every table key changes)")
                if check is not None and legacy is None:
                    return value
            elif legacy is None and check is not None:
                raise StoreError(f"this database's {name} is in a secrets file that is not at {path}: copy "
                                 "that file here (from the computer that first ran the station with this "
                                 "database) or give its place with --secrets; if it is lost, start once with "
                                 "--new-secrets (every table key and the director token change)")
            else:
                # A database from before kept its secrets inside: move them out (same values, so
                # printed keys and the token stay valid), else make a new one.
                value = legacy or secrets.token_urlsafe(12)
                kept[name] = value
                _write_secrets(path, kept)
            with self.transaction() as tx:
                tx.execute("DELETE FROM settings WHERE name = ? OR name = ?", (name, "secret_sha256:" + name))
                tx.execute("INSERT INTO settings (name, value) VALUES (?, ?)", ("secret_sha256:" + name, hash_key(value)))
            return value

    def forget_secrets(self) -> None:
        """The database forgets which secrets it had (their checks): the secrets file's are
        taken at the next `ensure_secret`, or new ones made. Every table key derived before and
        the director token then change; for a lost or replaced secrets file only."""
        with self.transaction() as tx:
            tx.execute("DELETE FROM settings WHERE name LIKE 'secret_sha256:%'")

    # -- table keys ---------------------------------------------------------------------------
    def register_table(self, event: str, section: str, table_no: int, key: str) -> None:
        """Make a table known for an event with its key; only the key's hash is stored."""
        with self.transaction() as tx:
            tx.execute("DELETE FROM table_keys WHERE event = ? AND section = ? AND table_no = ?",
                       (event, section, table_no))
            tx.execute("INSERT INTO table_keys (event, section, table_no, key_hash, issued_at) "
                       "VALUES (?, ?, ?, ?, ?)", (event, section, table_no, hash_key(key), utc_now()))

    def check_table_key(self, event: str, section: str, table_no: int, key: str) -> bool:
        """A session's own id (`<event>.<n>`) takes the key of its station event: one key per
        table and event, whichever session the table plays."""
        rows = self.query("SELECT key_hash FROM table_keys WHERE section = ? AND table_no = ? AND event = "
                          "COALESCE((SELECT event FROM dc_session_ids WHERE tablet_event = ?), ?)",
                          (section, table_no, event, event))
        return bool(rows) and hmac.compare_digest(rows[0][0], hash_key(key))

    def station_event_of(self, event: str) -> str:
        """The station event an id belongs to: a session's own id (`<event>.<n>`) -> its event;
        any other id is itself."""
        rows = self.query("SELECT event FROM dc_session_ids WHERE tablet_event = ?", (event,))
        return str(rows[0][0]) if rows else event

    def assign_session_id(self, tx: Store._Tx, event: str, session: str, event_guid: str | None) -> str:
        """The id a session's tablets put in their keys: the event itself for its first session,
        `<event>.<n>` for each later one, fixed once given (docs/station.md "Events and
        sessions"). Runs inside the caller's transaction."""
        row = tx.execute("SELECT tablet_event FROM dc_session_ids WHERE session_guid = ?", (session,)).fetchone()
        if row:
            return str(row[0])
        used = {r[0] for r in tx.execute("SELECT tablet_event FROM dc_session_ids").fetchall()}
        tablet_event = next(e for e in numbered(event, ".") if e not in used)
        tx.execute("INSERT INTO dc_session_ids (session_guid, event, tablet_event, event_guid, created_at) "
                   "VALUES (?, ?, ?, ?, ?)", (session, event, tablet_event, event_guid, utc_now()))
        return tablet_event

    # -- events and sessions ------------------------------------------------------------------
    def default_event(self, today: str) -> str:
        """The event when the director names none: the one the scoring program (or a director)
        set up today, else `club-<today>`; never an earlier day's (that mixes weeks)."""
        if self.setting("event_day") == today and self.setting("event"):
            return str(self.setting("event"))
        return f"club-{today}"

    def use_event(self, event: str, today: str) -> None:
        with self.transaction() as tx:
            for name, value in (("event", event), ("event_day", today)):
                tx.execute("DELETE FROM settings WHERE name = ?", (name,))
                tx.execute("INSERT INTO settings (name, value) VALUES (?, ?)", (name, value))

    def refuse(self, event: str, section: str, table_no: int, key: str | None, status: int, error: str,
               refused: dict[str, Any] | None = None) -> None:
        """Record a refused delivery for the director page (`refused`: its code and parameters);
        only the newest per table are kept."""
        with self.transaction() as tx:
            tx.execute("INSERT INTO refusals (event, section, table_no, item_key, status, error, at, refused) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       (event, section, table_no, (key or None) and key[:200], status, error[:300], utc_now(),
                        json.dumps(refused)[:2000] if refused else None))
            tx.execute("DELETE FROM refusals WHERE event = ? AND section = ? AND table_no = ? AND id NOT IN "
                       "(SELECT id FROM refusals WHERE event = ? AND section = ? AND table_no = ? "
                       "ORDER BY id DESC LIMIT ?)",
                       (event, section, table_no, event, section, table_no, MAX_REFUSALS_PER_TABLE))

    def refusals(self, event: str | None = None) -> dict[tuple[str, int], list[dict]]:
        """Refused deliveries per (section, table), newest first: {at, event, table, key, status,
        error, refused} (`refused`: the code and parameters, None without). `event` a station event
        also gives its sessions' ids."""
        where, params = "", []
        if event is not None:
            where = " WHERE event = ? OR event IN (SELECT tablet_event FROM dc_session_ids WHERE event = ?)"
            params = [event, event]
        out: dict[tuple[str, int], list[dict]] = {}
        for r in self.query("SELECT event, section, table_no, item_key, status, error, at, refused FROM refusals"
                            + where + " ORDER BY id DESC", params):
            out.setdefault((r[1], int(r[2])), []).append(
                {"at": r[6], "event": r[0], "table": f"{r[1]}{r[2]}", "key": r[3], "status": int(r[4]),
                 "error": r[5], "refused": _refused_json(r[7])})
        return out

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
            row = tx.execute("SELECT id, digest FROM items WHERE item_key = ?", (key,)).fetchone()
            if created:
                self._count(tx, kind, len(canonical(payload)), event, section, table_no)
            return created, row

        created, row = self._grouped(write)
        if not created and row[1] != digest:
            raise Conflict(f"key {key!r} was already stored with different content; "
                           "a corrected result needs a new revision (Law 79C), not an edit")
        return int(row[0]), created

    @staticmethod
    def _count(tx: Store._Tx, kind: str, size: int, event: str, section: str, table_no: int) -> None:
        """Count a new item into its table's room (`ROOMS`); QuotaExceeded when that makes it
        overflow (the caller's savepoint then takes the item back)."""
        room = ROOMS.get(kind)
        if room is None:  # not a kind the door takes: it never got this far
            raise StoreError(f"no room for items of kind {kind!r}")
        where = (event, section, table_no, kind)
        usage = tx.execute("SELECT items, bytes FROM table_rooms WHERE event = ? AND section = ? AND table_no = ? "
                           "AND kind = ?", where).fetchone()
        if usage is None:  # the room's first item, or a database from before the rooms: count once
            usage = tx.execute("SELECT COUNT(*) - 1, COALESCE(SUM(LENGTH(payload)), 0) - ? FROM items "
                               "WHERE event = ? AND section = ? AND table_no = ? AND kind = ?",
                               (size, *where)).fetchone()
            tx.execute("INSERT INTO table_rooms (event, section, table_no, kind, items, bytes) "
                       "VALUES (?, ?, ?, ?, ?, ?)", (*where, int(usage[0]), int(usage[1])))
        n, total = int(usage[0]) + 1, int(usage[1]) + size
        tx.execute("UPDATE table_rooms SET items = ?, bytes = ? WHERE event = ? AND section = ? AND table_no = ? "
                   "AND kind = ?", (n, total, *where))
        if n > room.items or total > room.bytes:
            raise QuotaExceeded(f"table {section}{table_no} has stored {n - 1} {room.what} ({(total - size) // 1024} "
                                f"kB) in {event}: the limit per table and session is {room.items} items and "
                                f"{room.bytes // 2**20} MB; nothing was stored (tell the TD)", kind,
                                Refused.of(RefusalCode.ROOM_FULL, table=f"{section}{table_no}", items=room.items,
                                           mb=room.bytes // 2**20))

    def items(self, event: str | None = None, kind: str | None = None, *, section: str | None = None,
              table_no: int | None = None, board: int | None = None, after_id: int = 0) -> list[dict]:
        """Stored items as dicts: id, key, kind, event, received_at, payload (decoded), only the
        rows that read (station/stored.py: a damaged row is left out, `damaged` lists it)."""
        return self.read(event, kind, section=section, table_no=table_no, board=board, after_id=after_id)[0]

    def damaged(self, event: str | None = None, kind: str | None = None) -> list[Damaged]:
        """The stored rows no reader can use (station/stored.py), oldest first."""
        return self.read(event, kind)[1]

    def read(self, event: str | None = None, kind: str | None = None, *, section: str | None = None,
             table_no: int | None = None, board: int | None = None,
             after_id: int = 0) -> tuple[list[dict], list[Damaged]]:
        """(the items that read, the damaged rows) of one read, oldest first (`items`, `damaged`)."""
        where: list[str] = ["id > ?"]
        params: list[str | int] = [after_id]
        for col, val in (("event", event), ("kind", kind), ("section", section),
                         ("table_no", table_no), ("board", board)):
            if val is not None:
                where.append(f"{col} = ?")
                params.append(val)
        return read_rows(self.query(f"SELECT {COLUMNS} FROM items WHERE " + " AND ".join(where) + " ORDER BY id",
                                    params))

    def count_items(self, kind: str | None = None) -> int:
        if kind is None:
            return int(self.query("SELECT COUNT(*) FROM items")[0][0])
        return int(self.query("SELECT COUNT(*) FROM items WHERE kind = ?", (kind,))[0][0])

    # -- players and seating from the scoring program --------------------------------------------
    def put_players(self, session: str, players: list[dict]) -> None:
        """Store or replace players: {"number", "first_name", "last_name", "country_code"}."""
        with self.transaction() as tx:
            self.write_players(tx, session, players)

    def put_participations(self, session: str, seats: list[dict]) -> None:
        """Seat players (or empty seats): {"section", "table", "round" (0/1: the first round),
        "direction" N/E/S/W, "number" or names, "remove", "swap"}. A swap exchanges this seat
        with its partner's seat before the new player is seated."""
        with self.transaction() as tx:
            self.write_participations(tx, session, seats)

    def replace_people(self, tx: Store._Tx, session: str, players: list[dict], seats: list[dict]) -> None:
        """The session's players and seats become exactly these, in the caller's transaction
        (the .bws bridge takes a changed session over whole)."""
        tx.execute("DELETE FROM dc_players WHERE session_guid = ?", (session,))
        tx.execute("DELETE FROM dc_participations WHERE session_guid = ?", (session,))
        self.write_players(tx, session, players)
        self.write_participations(tx, session, seats)

    @staticmethod
    def write_players(tx: Store._Tx, session: str, players: list[dict]) -> None:
        for p in players:
            tx.execute("DELETE FROM dc_players WHERE session_guid = ? AND player_number = ?",
                       (session, p["number"]))
            tx.execute("INSERT INTO dc_players (session_guid, player_number, first_name, last_name, "
                       "country_code) VALUES (?, ?, ?, ?, ?)",
                       (session, p["number"], p.get("first_name"), p.get("last_name"), p.get("country_code")))

    @staticmethod
    def write_participations(tx: Store._Tx, session: str, seats: list[dict]) -> None:
        key = "session_guid = ? AND section = ? AND table_no = ? AND round_no = ? AND direction = ?"
        for p in seats:
            where = (session, p["section"], p["table"], p["round"], p["direction"])
            if p.get("swap"):
                partner = {"N": "S", "S": "N", "E": "W", "W": "E"}[p["direction"]]
                other = (session, p["section"], p["table"], p["round"], partner)
                tx.execute(f"UPDATE dc_participations SET direction = 'swap' WHERE {key}", other)
                tx.execute(f"UPDATE dc_participations SET direction = ? WHERE {key}", (partner, *where))
                tx.execute("UPDATE dc_participations SET direction = ? WHERE session_guid = ? AND section = ? "
                           "AND table_no = ? AND round_no = ? AND direction = 'swap'", (p["direction"], *other[:4]))
                if not (p.get("number") or p.get("last_name")):
                    continue
            tx.execute(f"DELETE FROM dc_participations WHERE {key}", where)
            if not p.get("remove"):
                tx.execute("INSERT INTO dc_participations (session_guid, section, table_no, round_no, direction, "
                           "player_number, first_name, last_name, country_code) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           (*where, p.get("number"), p.get("first_name"), p.get("last_name"),
                            p.get("country_code")))

    def players(self, session: str) -> dict[str, dict]:
        rows = self.query("SELECT player_number, first_name, last_name, country_code FROM dc_players "
                          "WHERE session_guid = ?", (session,))
        return {r[0]: {"number": r[0], "first_name": r[1], "last_name": r[2], "country_code": r[3]} for r in rows}

    def participations(self, session: str) -> list[dict]:
        rows = self.query("SELECT section, table_no, round_no, direction, player_number, first_name, last_name, "
                          "country_code FROM dc_participations WHERE session_guid = ? "
                          "ORDER BY section, table_no, round_no, direction", (session,))
        return [{"section": r[0], "table": int(r[1]), "round": int(r[2]), "direction": r[3], "number": r[4],
                 "first_name": r[5], "last_name": r[6], "country_code": r[7]} for r in rows]

    def put_scorer_items(self, tx: Store._Tx, session: str, kind: str, rows: list[dict]) -> None:
        """Results ("result") or TD calls ("td_call") the scoring program put, as its DTOs
        (section, table, round, board (0 for a TD call), payload), in the caller's transaction."""
        tx.executemany("INSERT INTO dc_scorer_items (session_guid, kind, section, table_no, round_no, board, "
                       "payload, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       [(session, kind, r["section"], r["table"], r["round"], r["board"], canonical(r["payload"]),
                         utc_now()) for r in rows])

    def scorer_items(self, event: str) -> list[dict]:
        """What the scoring program put for the sessions of a station event, oldest first:
        {session, kind, section, table, round, board, payload, received_at}."""
        rows = self.query("SELECT i.session_guid, i.kind, i.section, i.table_no, i.round_no, i.board, i.payload, "
                          "i.received_at FROM dc_scorer_items i JOIN dc_session_ids s ON s.session_guid = "
                          "i.session_guid WHERE s.event = ? ORDER BY i.id", (event,))
        return [{"session": r[0], "kind": r[1], "section": r[2], "table": int(r[3]), "round": int(r[4]),
                 "board": int(r[5]), "payload": json.loads(r[6]), "received_at": r[7]} for r in rows]

    def events(self) -> list[str]:
        rows = self.query("SELECT DISTINCT event FROM items UNION SELECT DISTINCT event FROM table_keys")
        return sorted({str(r[0]) for r in rows})  # a hand-edited row may hold anything there


def numbered(name: str, sep: str) -> Iterator[str]:
    """name, name<sep>2, name<sep>3, ... (lazily: the first free one is taken)."""
    yield name
    yield from (f"{name}{sep}{n}" for n in itertools.count(2))


def latest_results(items: list[dict], withdrawn: bool = False) -> list[dict]:
    """One result per (table, round, board): the highest revision of its key (Law 79C
    corrections are new revisions, never edits). A result whose latest revision is a withdrawal
    (recorded on the wrong board) is left out, unless `withdrawn` (the Data Connector reports it
    deleted). An item whose key is not a result's (shared_rules.records) is no result."""
    best: dict[tuple, tuple[int, dict]] = {}
    for it in items:
        try:
            k = ResultKey.parse(it["key"])
        except RecordError:
            continue
        board = (k.table_id, k.round, k.board)
        if board not in best or k.revision >= best[board][0]:
            best[board] = (k.revision, it)
    return sorted((it for _, it in best.values() if withdrawn or not it["payload"].get("withdrawn")),
                  key=lambda it: it["id"])
