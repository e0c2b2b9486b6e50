"""The tablet's journal: an append-only SQLite (WAL) log of everything the table decided.

The table's state is never stored, only the inputs that produced it; a restart rebuilds the state by
replaying the journal through the same pure reducer. WAL with `synchronous=FULL` makes every committed
record survive a power cut: a `kill -9` between two records loses at most the record being written,
and that one was never acknowledged to a box, so the box sends it again.

A journal that never lies:
- Each record carries `chain` = SHA-256 over the previous record's chain, its own seq, kind and
  body, and the `head` row holds the last seq and chain. A flipped bit, an edited row, a lost
  last record or a damaged file is found when the journal is opened (`JournalDamaged`, naming
  the first bad record), never replayed into a different table.
- SQLite ignores, without an error, every WAL frame from the first one whose checksum fails, so
  damage in the `-wal` (a flipped bit, a cut) would roll the table back to its last checkpoint.
  The journal therefore keeps its own note of how far it has committed: the commit mark
  (`<journal>-mark`: the last seq and its chain, overwritten in place after each commit). It
  needs no fsync of its own: it is written after the commit's fsync, so whatever of it reaches
  the disk never claims more than the WAL holds. Fewer records than the mark claims is damage,
  named with where the WAL broke (tablet_app/wal_check.py). A journal copied without its mark
  is taken as it is (the mark goes with the file; a mark without the records it names does not).
- `checkpoint()` folds the WAL into the main file at safe points (board end, round end, close),
  so a `tablet.db` copied without its `-wal` still holds the session up to that point.
- `recover(path)` keeps the damaged file aside and starts a new journal from the records before
  the damage (and the outbox items whose digest still holds).

The outbox (tablet_app/outbox.py) lives in the same database file so that a result is journalled and
queued in one transaction (docs/interfaces.md section 4).
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import pathlib
import shutil
import sqlite3
import time
from collections.abc import Iterator
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS journal (
    seq   INTEGER PRIMARY KEY AUTOINCREMENT,
    kind  TEXT NOT NULL,
    body  TEXT NOT NULL,
    chain TEXT
);
CREATE TABLE IF NOT EXISTS head (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    seq   INTEGER NOT NULL,
    chain TEXT NOT NULL
);
"""
GENESIS = "0" * 64
MARK_SUFFIX = "-mark"


class JournalError(Exception):
    """The journal file is unreadable or holds a record this version cannot understand."""


class JournalDamaged(JournalError):
    """The journal is not what was written: `seq` is the first record that cannot be trusted
    (None when the file itself is damaged before any record can be read). The records before
    it are intact; `recover()` starts from them."""

    def __init__(self, path: str, seq: int | None, why: str):
        where = f"record {seq}" if seq is not None else "the file"
        super().__init__(f"the journal {path} is damaged at {where}: {why}. The table cannot go on "
                         "from it; recover from the records before the damage (the director's "
                         "console offers it) and check the board with the station's copy")
        self.path = path
        self.seq = seq
        self.why = why


class StorageFull(JournalError):
    """The tablet's storage refused a write (disk full or I/O error); nothing was committed."""


MARK_SIZE = 128


def mark_text(seq: int, chain: str) -> bytes:
    """The commit mark's bytes: seq, chain and a check of both, padded to MARK_SIZE."""
    body = f"{seq} {chain}"
    return f"{body} {hashlib.sha256(body.encode()).hexdigest()[:16]}\n".encode().ljust(MARK_SIZE, b" ")


def read_mark(text: bytes) -> tuple[int, str] | None:
    """(seq, chain) from a commit mark's bytes; None when they are not one."""
    try:
        seq, chain, check = text.decode("ascii").split()
        if mark_text(int(seq), chain) == text and int(seq) >= 0 and len(check) == 16:
            return int(seq), chain
    except (UnicodeDecodeError, ValueError):
        pass
    return None


def chain_of(prev: str, seq: int, kind: str, body: str) -> str:
    # One digest of "prev, seq, kind, body" (the same bytes as hashing them in two updates).
    return hashlib.sha256(f"{prev}\n{seq}\n{kind}\n{body}".encode()).hexdigest()


_scan = json.JSONDecoder().scan_once


def _decode(body: str) -> Any:
    """json.loads(body), without its two Python layers and whitespace matching for a body that is
    one JSON value from its first character to its last (what append writes). Anything else
    (whitespace around it, an error) goes through json.loads, so what is accepted and the error
    message are json.loads's own."""
    try:
        data, end = _scan(body, 0)
    except (StopIteration, ValueError):
        end = -1
    if end != len(body):
        data = json.loads(body)
    return data


def is_storage_error(exc: BaseException) -> bool:
    """A write the storage could not take (full, read-only, I/O), as opposed to a bug."""
    if not isinstance(exc, sqlite3.OperationalError | sqlite3.DatabaseError):
        return False
    text = str(exc).lower()
    return any(w in text for w in ("full", "disk i/o", "readonly", "read-only", "unable to open"))


def _hash_pin_of(body: str) -> str:
    from tablet_app import pin

    try:
        data = json.loads(body)
        digits = data["session"]["td_pin"]
    except (ValueError, KeyError, TypeError):
        return body
    if not pin.valid_digits(digits):
        return body
    data["session"]["td_pin"] = pin.hash_pin(digits)
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


class Journal:
    def __init__(self, path: str | pathlib.Path):
        self.path = str(path)
        try:
            # isolation_level=None: we open and close transactions ourselves (BEGIN IMMEDIATE), so
            # nothing is ever committed implicitly half-way through a record.
            self.conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=FULL")
            # what a rewrite replaces (an old journal's PIN in clear) does not linger in free space
            self.conn.execute("PRAGMA secure_delete=ON")
            # the file's structure (b-tree pages, free list): a damaged page is found now, not
            # in the middle of the evening
            check = self.conn.execute("PRAGMA quick_check").fetchall()
            if check != [("ok",)]:
                self.conn.close()
                raise JournalDamaged(self.path, None, f"SQLite finds its structure damaged ({check[0][0]})")
            self._migrate()
        except (sqlite3.Error, UnicodeDecodeError, ValueError, OverflowError) as exc:
            with contextlib.suppress(Exception):
                self.conn.close()
            if is_storage_error(exc) and "malformed" not in str(exc):
                raise StorageFull(f"the tablet's storage cannot open the journal {self.path}: {exc} "
                                  "(free some space and start again)") from exc
            raise JournalDamaged(self.path, None, f"SQLite cannot read it ({type(exc).__name__}: {exc})") from exc
        self._depth = 0
        self._head: tuple[int, str] | None = None
        self.mark_path = self.path + MARK_SUFFIX
        self._mark_fd: int | None = None

    def _migrate(self) -> None:
        """A journal written before the chain is chained as it stands (its PIN hashed) once."""
        have = {r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "journal" in have and "head" not in have:
            # A journal from before the chain: chain what is there as it stands.
            self.conn.executescript(SCHEMA)
            cols = {r[1] for r in self.conn.execute("PRAGMA table_info(journal)")}
            self.conn.execute("BEGIN IMMEDIATE")
            if "chain" not in cols:
                self.conn.execute("ALTER TABLE journal ADD COLUMN chain TEXT")
            prev, last = GENESIS, 0
            for seq, kind, body in self.conn.execute("SELECT seq, kind, body FROM journal ORDER BY seq").fetchall():
                if kind == "setup":
                    body = _hash_pin_of(body)  # the old journal kept the PIN in clear
                prev, last = chain_of(prev, seq, kind, body), seq
                self.conn.execute("UPDATE journal SET body = ?, chain = ? WHERE seq = ?", (body, prev, seq))
            self.conn.execute("INSERT INTO head (id, seq, chain) VALUES (1, ?, ?)", (last, prev))
            self.conn.execute("COMMIT")
        elif "journal" not in have:
            self.conn.executescript(SCHEMA)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One atomic unit: journal records plus outbox rows, all or nothing. A storage failure
        (disk full) at any point, the COMMIT included, rolls back and raises StorageFull."""
        if self._depth:
            self._depth += 1
            try:
                yield self.conn
            finally:
                self._depth -= 1
            return
        head = self._head
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise self._storage(exc) from exc
        self._depth = 1
        try:
            yield self.conn
            self.conn.execute("COMMIT")
            if self._head != head:
                self._write_mark()
        except BaseException as exc:
            self._depth = 0
            self._head = head
            with contextlib.suppress(sqlite3.Error):
                self.conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise self._storage(exc) from exc
            raise
        self._depth = 0

    def _write_mark(self) -> None:
        """After a commit (its fsync done): the last seq and chain, in place. Best effort: a
        mark that could not be written claims less than the journal holds, never more."""
        seq, chain = self._last()
        try:
            if self._mark_fd is None:
                self._mark_fd = os.open(self.mark_path, os.O_WRONLY | os.O_CREAT, 0o600)
            os.pwrite(self._mark_fd, mark_text(seq, chain), 0)
        except OSError:
            pass

    def _check_mark(self, rows: list[Any], last: int) -> None:
        """The records the commit mark says were committed are all here (and are those records)."""
        try:
            with open(self.mark_path, "rb") as f:
                text = f.read(MARK_SIZE + 1)
        except FileNotFoundError:
            return
        except OSError as exc:
            raise JournalDamaged(self.path, last + 1, f"its commit mark is damaged ({self.mark_path} cannot be "
                                                      f"read: {exc})") from exc
        claim = read_mark(text)
        if claim is None:
            raise JournalDamaged(self.path, last + 1, f"its commit mark is damaged ({self.mark_path}; record "
                                                      f"{last} is the last one found)")
        seq, chain = claim
        if seq > last:
            from tablet_app import wal_check

            _keep_as_found(self.path + "-wal")
            raise JournalDamaged(self.path, last + 1, f"records that were committed are missing (records "
                                                      f"{last + 1}-{seq}: {wal_check.describe(self.path + '-wal')})")
        if seq and rows[seq - 1][3] != chain:
            # A sound mark that names another chain: some record up to `seq` was replaced and the
            # journal chained again (or another file put in its place). Which one is unknown, so
            # none of them is vouched for.
            raise JournalDamaged(self.path, None, f"its records are not the ones that were committed (record {seq}"
                                                  f"'s checksum is not the one its commit mark {self.mark_path} "
                                                  "names: the file was edited or replaced)")

    def _storage(self, exc: sqlite3.Error) -> Exception:
        if is_storage_error(exc):
            return StorageFull(f"the tablet's storage is full or failing ({exc}): nothing was recorded")
        return exc

    def _last(self) -> tuple[int, str]:
        if self._head is None:
            row = self.conn.execute("SELECT seq, chain FROM head WHERE id = 1").fetchone()
            self._head = (int(row[0]), str(row[1])) if row else (0, GENESIS)
        return self._head

    def append(self, kind: str, body: dict[str, Any]) -> int:
        text = json.dumps(body, sort_keys=True, separators=(",", ":"))
        with self.transaction() as conn:
            last, prev = self._last()
            seq = last + 1
            chain = chain_of(prev, seq, kind, text)
            conn.execute("INSERT INTO journal (seq, kind, body, chain) VALUES (?, ?, ?, ?)", (seq, kind, text, chain))
            conn.execute("INSERT OR REPLACE INTO head (id, seq, chain) VALUES (1, ?, ?)", (seq, chain))
            self._head = (seq, chain)
            return seq

    def records(self, *, upto: int | None = None) -> Iterator[tuple[int, str, dict[str, Any]]]:
        """Every record, checked against the chain; JournalDamaged at the first one that fails.
        The whole journal is checked before the first record is handed out, so a caller never
        applies part of a journal that turns out damaged."""
        return iter(self.verified(upto=upto))

    def verified(self, *, upto: int | None = None) -> list[tuple[int, str, dict[str, Any]]]:
        out: list[tuple[int, str, dict[str, Any]]] = []
        prev, expect = GENESIS, 1
        try:
            rows = self.conn.execute("SELECT seq, kind, body, chain FROM journal ORDER BY seq").fetchall()
            head = self.conn.execute("SELECT seq, chain FROM head").fetchall()
            for name in ("journal", "head", "outbox"):
                self.conn.execute(f"SELECT COUNT(*) FROM {name}").fetchone()  # noqa: S608 (fixed names)
        except sqlite3.OperationalError as exc:
            if "no such table: outbox" not in str(exc):
                raise JournalDamaged(self.path, None, f"SQLite cannot read it ({exc})") from exc
        except (sqlite3.Error, UnicodeDecodeError, ValueError, OverflowError) as exc:
            raise JournalDamaged(self.path, None, f"SQLite cannot read it ({type(exc).__name__}: {exc})") from exc
        # One pass, the per-record cost kept to the hash and the decode a restart cannot skip: the
        # chain hashed from the stored text as chain_of does (no re-serialising), each body read
        # by the JSON scanner itself (_decode, inlined here: this loop runs once per record).
        if upto is not None:
            rows = [r for r in rows if r[0] < upto]  # in seq order: the records before `upto`
        sha256, scan = hashlib.sha256, _scan
        for seq, kind, body, chain in rows:
            if seq != expect:
                raise JournalDamaged(self.path, expect, f"record {expect} is missing (next found: {seq!r})")
            if type(kind) is not str or type(body) is not str or type(chain) is not str:
                if not isinstance(kind, str) or not isinstance(body, str) or not isinstance(chain, str):
                    raise JournalDamaged(self.path, seq, "a field is not text")
            if sha256(f"{prev}\n{seq}\n{kind}\n{body}".encode()).hexdigest() != chain:
                raise JournalDamaged(self.path, seq, "its content does not match its checksum (changed or damaged)")
            try:
                data, end = scan(body, 0)
            except (StopIteration, ValueError):
                end = -1
            if end != len(body):
                try:
                    data = _decode(body)
                except ValueError as exc:
                    raise JournalDamaged(self.path, seq, f"not readable ({exc})") from exc
            if type(data) is not dict:
                raise JournalDamaged(self.path, seq, "not a record")
            out.append((seq, kind, data))
            prev, expect = chain, seq + 1
        if upto is None:
            want = (expect - 1, prev)
            if (len(head) != 1 or (head[0][0], head[0][1]) != want) and (head or rows):
                have = head[0][0] if len(head) == 1 else None
                if isinstance(have, int) and have > want[0]:
                    raise JournalDamaged(self.path, want[0] + 1, f"records {want[0] + 1}-{have} are missing")
                raise JournalDamaged(self.path, None, "the journal's end marker does not match its last record")
            self._check_mark(rows, want[0])
            self._head = want
        return out

    def count(self) -> int:
        return int(self.conn.execute("SELECT COUNT(*) FROM journal").fetchone()[0])

    def checkpoint(self) -> bool:
        """Fold the WAL into the main file (a safe point: board end, round end, close). False
        when it could not (a reader holds the WAL, or the storage refused): nothing is lost,
        the WAL still holds the records."""
        if self._depth:
            return False
        try:
            row = self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except sqlite3.Error:
            return False
        return bool(row) and row[0] == 0

    def close(self) -> None:
        self.checkpoint()
        self.conn.close()
        if self._mark_fd is not None:
            os.close(self._mark_fd)
            self._mark_fd = None


def _keep_as_found(wal: str) -> None:
    """The damaged WAL as it was found, beside it (`-wal.damaged`): closing the journal lets
    SQLite fold what it could read into the main file and delete the WAL, and the frames after
    the damage (the records that went missing) would go with it."""
    kept = wal + ".damaged"
    with contextlib.suppress(OSError):
        if os.path.exists(wal) and os.path.getsize(wal):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(kept)
            try:
                os.link(wal, kept)
            except OSError:  # a filesystem without hard links
                shutil.copyfile(wal, kept)


def discard(path: str | pathlib.Path) -> None:
    """Remove the journal at `path` with the files kept beside it: its -wal and -shm, its commit
    mark and the storage episode's mark (control/storage_episode.py). For a run that starts
    afresh (the demo): a commit mark left behind would check the new journal against the old
    one's last record (JournalDamaged)."""
    for suffix in ("", "-wal", "-shm", ".storage", MARK_SUFFIX):
        pathlib.Path(str(path) + suffix).unlink(missing_ok=True)


def recover(path: str | pathlib.Path) -> tuple[pathlib.Path, int]:
    """Start again from a damaged journal: the file (and its -wal) is kept aside as
    `<name>.damaged-<time>`, and a new journal at `path` gets the records before the damage and
    the outbox items whose digest still holds. Returns (the kept file, records kept)."""
    from tablet_app.outbox import Outbox, sound_items

    path = pathlib.Path(path)
    aside = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%dT%H%M%S')}")
    for suffix in ("", "-wal", "-shm", MARK_SUFFIX, "-wal.damaged"):
        src = pathlib.Path(str(path) + suffix)
        if src.exists():
            os.replace(src, str(aside) + suffix)
    records: list[tuple[int, str, dict[str, Any]]] = []
    items: list[dict[str, Any]] = []
    try:
        old = Journal(aside)
    except JournalDamaged:
        old = None
    if old is not None:
        try:
            try:
                records = old.verified()
            except JournalDamaged as exc:
                records = old.verified(upto=exc.seq) if exc.seq is not None else []
            items = sound_items(old.conn)
        except (JournalDamaged, sqlite3.Error):
            pass
        finally:
            old.conn.close()
    new = Journal(path)
    outbox = Outbox(new.conn)
    with new.transaction():
        for _seq, kind, body in records:
            new.append(kind, body)
        for it in items:
            outbox.restore(it)
    new.close()
    return aside, len(records)
