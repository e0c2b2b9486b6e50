"""The tablet's journal: an append-only SQLite (WAL) log of everything the table decided.

The table's state is never stored, only the inputs that produced it; a restart rebuilds the state by
replaying the journal through the same pure reducer. WAL with `synchronous=FULL` makes every committed
record survive a power cut: a `kill -9` between two records loses at most the record being written,
and that one was never acknowledged to a box, so the box sends it again.

The outbox (tablet_app/outbox.py) lives in the same database file so that a result is journalled and
queued in one transaction (docs/interfaces.md section 4).
"""
from __future__ import annotations

import contextlib
import json
import pathlib
import sqlite3
from collections.abc import Iterator
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS journal (
    seq  INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    body TEXT NOT NULL
);
"""


class JournalError(Exception):
    """The journal file is unreadable or holds a record this version cannot understand."""


class Journal:
    def __init__(self, path: str | pathlib.Path):
        self.path = str(path)
        # isolation_level=None: we open and close transactions ourselves (BEGIN IMMEDIATE), so
        # nothing is ever committed implicitly half-way through a record.
        self.conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=FULL")
        self.conn.executescript(SCHEMA)
        self._depth = 0

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One atomic unit: journal records plus outbox rows, all or nothing."""
        if self._depth:
            self._depth += 1
            try:
                yield self.conn
            finally:
                self._depth -= 1
            return
        self.conn.execute("BEGIN IMMEDIATE")
        self._depth = 1
        try:
            yield self.conn
        except BaseException:
            self._depth = 0
            self.conn.execute("ROLLBACK")
            raise
        self._depth = 0
        self.conn.execute("COMMIT")

    def append(self, kind: str, body: dict[str, Any]) -> int:
        with self.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO journal (kind, body) VALUES (?, ?)",
                (kind, json.dumps(body, sort_keys=True, separators=(",", ":"))),
            )
            return int(cur.lastrowid or 0)

    def records(self) -> Iterator[tuple[int, str, dict[str, Any]]]:
        for seq, kind, body in self.conn.execute("SELECT seq, kind, body FROM journal ORDER BY seq"):
            try:
                yield seq, kind, json.loads(body)
            except json.JSONDecodeError as exc:
                raise JournalError(f"journal record {seq} is not valid JSON: {exc}") from exc

    def count(self) -> int:
        return int(self.conn.execute("SELECT COUNT(*) FROM journal").fetchone()[0])

    def close(self) -> None:
        self.conn.close()
