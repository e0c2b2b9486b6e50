"""The ODBC connection to the `.bws`, through pyodbc, as on the scoring PC.

On Windows the Microsoft Access ODBC driver (the one BCS itself needs) opens the file; any
other driver is named by a connection-string template with `{path}` in it (the tests use
unixODBC's SQLite driver this way). Every statement goes through `Bws`, which keeps to the SQL
both dialects share (docs/bws.md: bracketed names, `?` markers, no LIMIT/TOP, no date literals,
booleans compared with `<> 0`, one transaction per item).
"""
from __future__ import annotations

import datetime
import os
from collections.abc import Sequence
from typing import Any

from ..notices import Notice, NoticeCode
from .schema import name

ACCESS_DRIVERS = ("Microsoft Access Driver (*.mdb, *.accdb)", "Microsoft Access Driver (*.mdb)")


class BwsError(Exception):
    """The `.bws` cannot be used now; the message is for the club's scorer (station output and
    director page). Nothing was written. `kind` names the trouble for `/api/v1/health` and the
    director page (docs/bws.md "The file replaced, missing or unreadable")."""

    kind = "error"

    def __init__(self, notice: Notice):
        super().__init__(str(notice))
        self.notice = notice  # the code and values the director page says in the TD's language


class BwsLocked(BwsError):
    """Another program holds the file locked (the scoring program compacting it, BCS running)."""

    kind = "locked"


class BwsMissing(BwsError):
    """No file at the path (the scoring program re-creating it, a file moved away)."""

    kind = "missing"


class BwsUnreadable(BwsError):
    """A file the driver cannot read as a database (empty, half written, garbage)."""

    kind = "unreadable"


class BwsNotSession(BwsError):
    """A database without the `.bws` tables the bridge needs (schema.REQUIRED)."""

    kind = "not_bws"


class BwsUnplayable(BwsError):
    """A session whose movement the tablets cannot play (session.problems)."""

    kind = "unplayable"


class BwsReplaced(BwsError):
    """The file was replaced by a different session: nothing is written until the TD answers."""

    kind = "replaced"


# What a driver says of a file that is no database (SQLite; the Access driver).
UNREADABLE = ("not a database", "unrecognized database format", "malformed", "not a valid", "encrypted")


def connection_string(path: str, template: str | None = None) -> str:
    if template:
        return template.replace("{path}", path)
    try:
        import pyodbc
    except ImportError as e:  # pragma: no cover - requirements.txt pins it
        raise BwsError(Notice.of(NoticeCode.BWS_NO_PYODBC)) from e
    drivers = [d for d in ACCESS_DRIVERS if d in pyodbc.drivers()]
    if not drivers:
        raise BwsError(Notice.of(NoticeCode.BWS_NO_DRIVER))
    return f"DRIVER={{{drivers[0]}}};DBQ={path};"


def _why(e: Exception, path: str) -> BwsError:
    text = " ".join(str(a) for a in e.args) or repr(e)
    low = text.lower()
    if "lock" in low or "in use" in low or "busy" in low:
        return BwsLocked(Notice.of(NoticeCode.BWS_LOCKED, path=path, detail=text.strip()[:200]))
    if any(w in low for w in UNREADABLE):
        return _unreadable(path, text)
    return BwsError(Notice.of(NoticeCode.BWS_DRIVER, path=path, detail=text.strip()[:300]))


def _unreadable(path: str, text: str) -> BwsUnreadable:
    return BwsUnreadable(Notice.of(NoticeCode.BWS_UNREADABLE, path=path, detail=text.strip()[:200]))


class Bws:
    """One open connection, autocommit off: the caller commits each item's rows together."""

    def __init__(self, path: str, template: str | None = None, timeout: float = 5.0):
        import pyodbc

        if not os.path.isfile(path):
            raise BwsMissing(Notice.of(NoticeCode.BWS_MISSING, path=path))
        self.path = path
        try:
            self.conn = pyodbc.connect(connection_string(path, template), autocommit=False,
                                       timeout=int(timeout))
        except pyodbc.Error as e:
            raise _why(e, path) from e
        self._error = pyodbc.Error

    def close(self) -> None:
        try:
            self.conn.close()
        except self._error:
            pass

    def __enter__(self) -> Bws:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def columns(self) -> dict[str, set[str]]:
        """Every user table and its columns, from the driver's catalogue (SQLTables/SQLColumns,
        not MSysObjects or sqlite_master: the same call on both drivers)."""
        try:
            cur = self.conn.cursor()
            tables = [r.table_name for r in cur.tables(tableType="TABLE")]
            out = {t: {r.column_name for r in cur.columns(table=t)} for t in tables}
            self.conn.rollback()
        except self._error as e:
            raise _why(e, self.path) from e
        if not out:
            # Some drivers answer a locked or garbage file's catalogue with nothing: ask a table
            # to learn why. An empty database (a file being created) is unreadable too.
            try:
                self.conn.cursor().execute(f"SELECT COUNT(*) FROM {name('RoundData')}").fetchone()
                self.conn.rollback()
            except self._error as e:
                why = _why(e, self.path)
                raise (why if isinstance(why, BwsLocked) else
                       _unreadable(self.path, " ".join(str(a) for a in e.args))) from e
        return out

    def select(self, table: str, cols: Sequence[str], where: str = "", params: Sequence[Any] = ()) -> list[tuple]:
        sql = f"SELECT {', '.join(name(c) for c in cols)} FROM {name(table)}" + (f" WHERE {where}" if where else "")
        try:
            rows = [tuple(r) for r in self.conn.cursor().execute(sql, *params).fetchall()]
            self.conn.rollback()  # end the read transaction: Access keeps read locks until then
            return rows
        except self._error as e:
            raise _why(e, self.path) from e

    def count(self, table: str, where: str = "", params: Sequence[Any] = ()) -> int:
        try:
            sql = f"SELECT COUNT(*) FROM {name(table)}" + (f" WHERE {where}" if where else "")
            n = self.conn.cursor().execute(sql, *params).fetchone()[0]
            self.conn.rollback()
            return int(n)
        except self._error as e:
            raise _why(e, self.path) from e

    def write(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> None:
        """Run the statements as one transaction: all of them are in the file, or none."""
        cur = self.conn.cursor()
        try:
            for sql, params in statements:
                cur.execute(sql, *[_param(p) for p in params])
            self.conn.commit()
        except self._error as e:
            try:
                self.conn.rollback()
            except self._error:
                pass
            raise _why(e, self.path) from e


def insert_sql(table: str, values: dict[str, Any]) -> tuple[str, list[Any]]:
    cols = list(values)
    return (f"INSERT INTO {name(table)} ({', '.join(name(c) for c in cols)}) "
            f"VALUES ({', '.join('?' for _ in cols)})", [values[c] for c in cols])


def _param(v: Any) -> Any:
    # The Access driver refuses fractional seconds ("Datetime field overflow"); BCS writes whole seconds.
    if isinstance(v, datetime.datetime):
        return v.replace(microsecond=0)
    return v
