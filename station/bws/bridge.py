"""The bridge thread: keeps the station's movement equal to the `.bws` session and writes every
result and auction the tables send into the `.bws`, as BCS would.

One pass (on a timer, and at once when a tablet delivers a result or an auction: the bridge
listens to the station's stored items, station/listeners.py):
1. open the file through ODBC; read the session; check that the tablets can play it;
2. is it the file written into before (takeover.py)? A replaced file of the same session is
   taken over (every item written before looked for in it and written where missing); one of
   another session waits for the TD's answer, nothing written;
3. if the session changed (an added round, a new movement), put it where the station serves
   movements from (session.install);
4. for each board with items not yet written, fold its items in order (boardlog) and write the
   rows of the first unwritten item in one transaction; the station DB records the item as
   `writing` (with its last row) before, and `done` after, so a crash between the two is
   resolved by looking for that row in the file: nothing is written twice; a board whose items
   cannot be made into rows (a damaged stored item) is held with the reason, the others go on;
   the player numbers entered at the tables go into PlayerNumbers (players.py), each entry
   once (an entry written again is the same rows: the write is an update in place);
5. note the tables' current round and board in Tables (where the file has those columns);
6. look at the Processed flags: when the scoring program has read more results than before,
   that is the time shown on the director page as "last read".

Bad input (a missing, unreadable or locked file, one without the expected tables, a movement the
tablets cannot play, a file of another session) stops the pass with a message on the station's
output, the director page and /api/v1/health (status.py); nothing is written until it is put
right.
"""
from __future__ import annotations

import datetime
import json
import threading
from collections.abc import Callable
from typing import Any

from ..listeners import Ingested
from ..notices import Notice, NoticeCode, more
from . import fileid
from . import players as bws_players
from . import session as bws_session
from .boardlog import BoardLog, Row
from .odbc import Bws, BwsError, BwsMissing, BwsUnplayable, insert_sql
from .schema import name
from .takeover import SUSPECT, Watch

SCHEMA = """CREATE TABLE IF NOT EXISTS bws_items (
    guid TEXT NOT NULL, item_id INTEGER NOT NULL, state TEXT NOT NULL, check_row TEXT,
    at TEXT NOT NULL, PRIMARY KEY (guid, item_id))"""
KINDS = ("auction", "result")  # the kinds folded into a board's rows (boardlog.py)
WRITTEN = (*KINDS, "players")  # and the player numbers, into PlayerNumbers (players.py)
# An item's state in bws_items: `writing` (its rows may be in the file: look for its last row),
# `done` (in the file), `left` (kept out of the file the TD said is a new session: takeover.py).
SETTLED = ("done", "left")
# The columns of a ReceivedData row that say what the result is (not the scorer's flags or times).
RESULT_COLUMNS = ("PairNS", "PairEW", "Declarer", "NS/EW", "Contract", "Result", "LeadCard", "Remarks")


def _norm(v: Any) -> Any:
    """A value as both drivers give it back: text stripped, whole numbers as int."""
    if isinstance(v, str):
        return v.strip()
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


def _utc() -> str:
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _board_key(p: Any) -> tuple[str, int, int, int] | None:
    """(section, table, round, board) of a stored item, or None for a damaged row."""
    if not isinstance(p, dict) or not isinstance(p.get("section"), str):
        return None
    nums = [n for n in (p.get(k) for k in ("table", "round", "board"))
            if isinstance(n, int) and not isinstance(n, bool) and 0 <= n < 10_000]
    if len(nums) != 3:
        return None
    return p["section"], nums[0], nums[1], nums[2]


def _dealer(board: int) -> str:
    from shared_rules.boards import dealer

    return str(dealer(board))


def _encode(row: Row) -> str:
    table, values = row
    return json.dumps({"table": table, "values": {k: (["dt", v.isoformat()] if isinstance(v, datetime.datetime)
                                                     else v) for k, v in values.items()}})


def _decode(text: str) -> Row:
    doc = json.loads(text)
    return doc["table"], {k: (datetime.datetime.fromisoformat(v[1]) if isinstance(v, list) else v)
                          for k, v in doc["values"].items()}


def _where(values: dict[str, Any]) -> tuple[str, list[Any]]:
    """Equality on every column; Yes/No columns as literals (Access stores True as -1)."""
    parts, params = [], []
    for col, v in values.items():
        if isinstance(v, bool):
            parts.append(f"{name(col)} {'<>' if v else '='} 0")
        else:
            parts.append(f"{name(col)} = ?")
            params.append(v)
    return " AND ".join(parts), params


class Bridge:
    def __init__(self, station: Any, path: str, *, odbc: str | None = None, poll_s: float = 3.0,
                 say: Callable[[str], None] = print):
        self.station, self.path, self.odbc, self.poll_s, self.say = station, path, odbc, poll_s, say
        self.store = station.store
        self.guid = bws_session.guid_for(path)
        self.session: dict[str, Any] | None = None
        self.fingerprint: str | None = None
        self.cursor = 0
        self.by_board: dict[tuple[str, int, int, int], list[dict]] = {}
        self.todo: set[tuple[str, int, int, int]] = set()
        self.entries: list[dict] = []  # player numbers not yet in the file (players.py)
        self.table_pos: dict[tuple[int, int], tuple[int, int]] = {}
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._last_said = ""
        self._received_id: bool | None = None
        self._recheck: set[int] = set()      # items looked for again in a replaced file
        self._wrote = False                  # rows written into the file in this look
        self.damaged: list[Notice] = []      # stored items the bridge cannot place
        self.watch = Watch(self.store, self.guid, path, str(getattr(station.config, "db", "")))
        with self.store.transaction() as tx:
            tx.execute(SCHEMA)
        saved = self.store.setting("bws/status")
        self.state: dict[str, Any] = json.loads(saved) if saved else {}
        self.state.update(integration="bws", path=path, error=None, poll_s=poll_s)

    # -- thread ---------------------------------------------------------------------------------
    def start(self) -> Bridge:
        """The bridge's thread, woken by each result or auction the station stores."""
        self._unsubscribe = self.station.listeners.on_ingest(self.heard)
        self._thread = threading.Thread(target=self._run, name="bws-bridge", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        self._stop.set()
        self._wake.set()
        if self._thread:
            self._thread.join(30)

    def wake(self) -> None:
        self._wake.set()

    def heard(self, item: Ingested) -> None:
        """A tablet's item is stored: one the `.bws` gets is written at once, not at the next poll."""
        if item.kind in WRITTEN:
            self._wake.set()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.run_once()
            self._wake.wait(self.poll_s)
            self._wake.clear()

    # -- one pass -------------------------------------------------------------------------------
    def run_once(self) -> dict[str, Any]:
        now = _utc()
        was = self.state.get("file")
        self._wrote = False
        try:
            st = fileid.stat(self.path)
            if st is None:
                raise BwsMissing(Notice.of(NoticeCode.BWS_MISSING, path=self.path))
            with Bws(self.path, self.odbc) as bws:
                if not fileid.same_file(st, fileid.stat(self.path)):  # the connection's file is `st`'s
                    raise BwsError(Notice.of(NoticeCode.BWS_CHANGED_WHILE_OPEN, path=self.path))
                session = bws_session.read(bws)
                self._check_playable(session)
                self._collect()
                self._check_file(bws, session, st)
                self._load(session)
                held = self._write(bws) + self._write_players(bws)
                self._table_status(bws)
                self._read_marks(bws, now)
            self.watch.after(st, session["marker"], self._wrote)
            shown = held + self.damaged[:20]
            # each in English (the output, the API) and as its notice (the page, in the TD's language)
            self.state.update(error=None, error_notice=None, file="ok", held=[str(h) for h in shown],
                              held_notices=[h.to_json() for h in shown])
        except BwsError as e:
            self.state.update(error=str(e), error_notice=e.notice.to_json(), file=e.kind)
            if e.kind in SUSPECT:
                self.watch.suspect()
        except Exception as e:  # a bug must not stop the bridge: say it, try again next pass
            said = Notice.of(NoticeCode.BWS_INTERNAL, error=f"{type(e).__name__}: {e}")
            self.state.update(error=str(said), error_notice=said.to_json(), file="error")
        self.state["checked_at"] = now
        if not self.state.get("error"):
            self.state["error_since"] = None
        elif self.state.get("file") != was or not self.state.get("error_since"):
            self.state["error_since"] = now
        self._tell()
        self.store.set_setting("bws/status", json.dumps(self.state, sort_keys=True))
        return self.state

    def _tell(self) -> None:
        line = (f"station: .bws bridge: {self.state['error']}" if self.state.get("error") else "")
        if line and line != self._last_said:
            self.say(line)
        self._last_said = line

    def _check_playable(self, session: dict[str, Any]) -> None:
        bad = bws_session.problems(session)
        if bad:
            raise BwsUnplayable(Notice.of(NoticeCode.BWS_UNPLAYABLE, path=self.path, problems=bad[:5],
                                          more=more(len(bad) - 5)))

    def _load(self, session: dict[str, Any]) -> None:
        fp = bws_session.fingerprint(session)
        if fp == self.fingerprint:
            return
        tables = bws_session.install(self.station, session, self.guid)
        first = self.session is None
        self.session, self.fingerprint = session, fp
        self.todo |= set(self.by_board)  # held boards may now be in the movement
        rounds = {r[2] for r in session["rounds"]}
        desc = ", ".join(f"{s}: tables {', '.join(map(str, ts))}" for s, ts in sorted(tables.items()))
        self.say(f"station: .bws bridge: {'session' if first else 'changed session'} from {self.path}: "
                 f"{len(rounds)} rounds, {desc}")
        if first:
            event = self.station.config.event
            for letter, ts in sorted(tables.items()):
                for t in ts:
                    self.say(f"table {event}/{letter}/{t}  key {self.station.table_key(event, letter, t)}")
        self.state["session"] = {"sections": sorted(tables), "tables": sum(len(v) for v in tables.values()),
                                 "rounds": len(rounds), "loaded_at": _utc()}

    # -- the file replaced (takeover.py) ---------------------------------------------------------
    def _check_file(self, bws: Bws, session: dict[str, Any], st: Any) -> None:
        """Is this the file the bridge wrote into before? A replaced file of the same session is
        taken over at once; one of another session waits for the TD (BwsReplaced)."""
        found = self.watch.check(bws, session, st, self._written_boards, self.state)
        if found is None:
            return
        why, choice = found
        held_now = [it["id"] for items in self.by_board.values() for it in items]
        self._recheck = self.watch.take_over(st, session["marker"], choice, held_now)
        self.todo |= set(self.by_board)
        self.table_pos.clear()
        self._received_id = None
        self.state.update(processed=0, replaced=None, last_replaced={
            "at": _utc(), "why": [str(w) for w in why], "why_notices": [w.to_json() for w in why],
            "choice": choice, "results": sum(
                1 for items in self.by_board.values() for it in items
                if it["id"] in self._recheck and it["kind"] == "result"), "rewritten": 0, "found": 0})
        self.say(f"station: .bws bridge: {self.path} was replaced ({'; '.join(map(str, why))}); "
                 + ("what was written before is looked for in it and written where missing" if choice == "write"
                    else "the earlier results are left out of it, as the TD answered"))

    def _written_boards(self) -> list[tuple[str, int, int, int]]:
        """The boards with items written into the file before (asked only of a replaced file)."""
        states = self._states()
        return [k for k, items in self.by_board.items()
                if any(states.get(it["id"], ("",))[0] in ("done", "writing") for it in items)]

    # -- the items ----------------------------------------------------------------------------------
    def _collect(self) -> None:
        event = self.station.config.event
        for it in self.store.items(event, after_id=self.cursor):
            self.cursor = max(self.cursor, it["id"])
            if it["kind"] not in WRITTEN:
                continue
            if it["kind"] == "players":
                self.entries.append(it)
                continue
            key = _board_key(it.get("payload"))
            if key is None:  # a damaged row: said, never a reason to stop the other boards
                self.damaged.append(Notice.of(NoticeCode.HELD_DAMAGED, key=repr(str(it.get("key"))[:120])))
                continue
            self.by_board.setdefault(key, []).append(it)
            self.todo.add(key)

    def _states(self) -> dict[int, tuple[str, str | None]]:
        return {int(r[0]): (r[1], r[2]) for r in self.store.query(
            "SELECT item_id, state, check_row FROM bws_items WHERE guid = ?", (self.guid,))}

    def _mark(self, item_id: int, state: str, check_row: str | None = None) -> None:
        with self.store.transaction() as tx:
            tx.execute("DELETE FROM bws_items WHERE guid = ? AND item_id = ?", (self.guid, item_id))
            tx.execute("INSERT INTO bws_items (guid, item_id, state, check_row, at) VALUES (?, ?, ?, ?, ?)",
                       (self.guid, item_id, state, check_row, _utc()))

    def _write(self, bws: Bws) -> list[Notice]:
        assert self.session is not None
        ids = {letter: sid for sid, letter in self.session["sections"].items()}
        slots = {(r[0], r[1], r[2]) for r in self.session["rounds"]}
        states = self._states()
        held: list[Notice] = []
        for key in sorted(self.todo, key=lambda k: self.by_board[k][0]["id"]):
            section, table, round_no, board = key
            where = {"section": section, "table": table, "round": round_no, "board": board}
            sid = ids.get(section)
            if all(states.get(it["id"], ("",))[0] in SETTLED for it in self.by_board[key]):
                self.todo.discard(key)
                continue
            if sid is None or (sid, table, round_no) not in slots:
                held.append(Notice.of(NoticeCode.HELD_NOT_IN_MOVEMENT, **where))
                continue
            try:
                why = self._write_board(bws, key, sid, states)
            except BwsError:
                raise
            except Exception as e:  # one board's odd items must not keep the others out of the file
                why = Notice.of(NoticeCode.HELD_CANNOT_WRITE, **where, error=f"{type(e).__name__}: {str(e)[:120]}")
            if why:
                held.append(why)
            else:
                self.todo.discard(key)
        return held

    def _write_board(self, bws: Bws, key: tuple[str, int, int, int], sid: int,
                     states: dict[int, tuple[str, str | None]]) -> Notice | None:
        """Fold the board's items and write each one not yet written, in order. None when all
        are written; else why the rest is held."""
        log = BoardLog(sid, key[1], key[2], key[3], _dealer(key[3]))
        for it in self.by_board[key]:
            in_force = log.result
            rows = log.apply(it)
            state, check = states.get(it["id"], ("", None))
            if state in SETTLED:
                continue
            if state == "writing" and check and self._present(bws, _decode(check)):
                self._mark(it["id"], "done", check)
                self._count_recheck(it, "found")
                continue
            changed = self._changed_by_hand(bws, in_force, rows)
            if changed is not None:
                where = dict(zip(("section", "table", "round", "board"), key, strict=True))
                revision = it["key"].rsplit("/", 1)[-1]
                if changed:
                    return Notice.of(NoticeCode.HELD_CHANGED_BY_HAND, **where, changed=changed, revision=revision)
                return Notice.of(NoticeCode.HELD_NO_RESULT, **where, revision=revision)
            check = _encode(rows[-1]) if rows else None
            if rows:
                self._mark(it["id"], "writing", check)
                bws.write([insert_sql(t, v) for t, v in rows])
                self._wrote = True
                self._count_recheck(it, "rewritten")
            self._mark(it["id"], "done", check)
        return None

    def _write_players(self, bws: Bws) -> list[Notice]:
        """The player numbers entered at the tables, each entry in one transaction, oldest first;
        an entry for a round the file's movement lacks waits (said on the director page)."""
        from ..table_players import lookup

        assert self.session is not None
        if not self.entries:
            return []
        cols = {c.lower() for k, v in bws.columns().items() if k.lower() == "playernumbers" for c in v}
        if not cols:
            return [Notice.of(NoticeCode.HELD_NO_PLAYER_TABLE, n=len(self.entries))]
        ids = {letter: sid for sid, letter in self.session["sections"].items()}
        slots = {(r[0], r[1], r[2]) for r in self.session["rounds"]}
        register = {str(k): str(v) for k, v in bws_session.register(self.session).items()}
        states, left = self._states(), []
        held: list[Notice] = []
        for it in self.entries:
            p = it["payload"]
            if states.get(it["id"], ("",))[0] in SETTLED:
                continue
            sid = ids.get(p["section"])
            if sid is None or (sid, p["table"], p["round"]) not in slots:
                held.append(Notice.of(NoticeCode.HELD_PLAYERS_NOT_IN_MOVEMENT, section=p["section"], table=p["table"],
                                      round=p["round"]))
                left.append(it)
                continue
            first = min(r[2] for r in self.session["rounds"] if r[0] == sid)
            numbers = list(p["numbers"].values())
            known = lookup(self.store, self.guid, numbers)
            names = {n: register.get(n) or known.get(n) for n in numbers}
            stmts = bws_players.statements(p, sid, first, names, cols,
                                           lambda where, params: bws.count("PlayerNumbers", where, params) > 0)
            bws.write(stmts)
            self._wrote = True
            self._mark(it["id"], "done")
        self.entries = left
        return held

    def _count_recheck(self, it: dict, what: str) -> None:
        """After a replaced file was taken over: how many earlier results were written into it
        again, and how many it already had (the director page)."""
        last = self.state.get("last_replaced")
        if it["id"] in self._recheck and it["kind"] == "result" and isinstance(last, dict):
            last[what] = int(last.get(what) or 0) + 1
            self._recheck.discard(it["id"])

    def _changed_by_hand(self, bws: Bws, in_force: dict[str, Any] | None, rows: list[Row]) -> str | None:
        """Before a correction or withdrawal erases the result in force: the row the scoring
        program reads must still be the one the station wrote. What differs (None when nothing,
        '' when no result is in force any more): the scorer's own change is never erased or
        overwritten silently."""
        if in_force is None or not any(t == "ReceivedData" and v.get("Erased") for t, v in rows):
            return None
        cols = [c for c in RESULT_COLUMNS if c in in_force]
        keys = ("Section", "Table", "Round", "Board")
        where = " AND ".join(f"{name(k)} = ?" for k in keys)
        found = bws.select("ReceivedData", ["ID", "Erased", *cols] if self._has_id(bws) else ["Erased", *cols],
                           where, [in_force[k] for k in keys])
        if self._has_id(bws):
            found = [r[1:] for r in sorted(found, key=lambda r: r[0])]
        live: tuple | None = None
        for r in found:
            live = None if r[0] else tuple(r[1:])
        if live is None:
            return ""
        diffs = [f"{c} {_norm(in_force[c])!r} -> {_norm(v)!r}" for c, v in zip(cols, live, strict=True)
                 if _norm(v) != _norm(in_force[c])]
        return ", ".join(diffs) or None

    def _has_id(self, bws: Bws) -> bool:
        if self._received_id is None:
            cols = next((v for k, v in bws.columns().items() if k.lower() == "receiveddata"), set())
            self._received_id = any(c.lower() == "id" for c in cols)
        return self._received_id

    def _present(self, bws: Bws, row: Row) -> bool:
        where, params = _where(row[1])
        return bws.count(row[0], where, params) > 0

    def _table_status(self, bws: Bws) -> None:
        assert self.session is not None
        if not self.session.get("table_status"):
            return
        ids = {letter: sid for sid, letter in self.session["sections"].items()}
        latest: dict[tuple[int, int], tuple[int, tuple[int, int]]] = {}
        for (section, table, round_no, board), items in self.by_board.items():
            if section in ids:
                last = max(it["id"] for it in items)
                k = (ids[section], table)
                if k not in latest or last > latest[k][0]:
                    latest[k] = (last, (round_no, board))
        changes = [(pos, k) for k, (_, pos) in latest.items() if self.table_pos.get(k) != pos]
        if changes:
            bws.write([(f"UPDATE {name('Tables')} SET {name('CurrentRound')} = ?, {name('CurrentBoard')} = ? "
                        f"WHERE {name('Section')} = ? AND {name('Table')} = ?", [r, b, s, t])
                       for (r, b), (s, t) in changes])
            for pos, k in changes:
                self.table_pos[k] = pos

    def _read_marks(self, bws: Bws, now: str) -> None:
        live = f"{name('Erased')} = 0"
        total = bws.count("ReceivedData", live, [])
        read = bws.count("ReceivedData", f"{live} AND {name('Processed')} <> 0", [])
        if read > int(self.state.get("processed") or 0):
            self.state["last_read_at"] = now
        self.state.update(written=total, processed=read)
