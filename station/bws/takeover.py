"""The `.bws` replaced under the station: noticed at each look (fileid.py), and the new file taken
over so that nothing is lost and nothing written twice.

The bridge keeps, in the station's database, the file it writes into (`SEEN`, a fileid.Seen). At
each look `Watch.check` compares the file at the path with it:
- the same file: nothing to do;
- a replaced file of the same session (its movement takes every board written before, the
  Session rows name the same session): taken over at once with `write`;
- a replaced file the earlier results do not fit: nothing is taken over or written; the director
  page and `/api/v1/health` ask the TD, who answers with `python -m station bws-replaced write`
  (the earlier results into the new file, those its movement lacks held) or `leave` (the new
  file is a new session: no result the station holds when the answer is taken goes into it, or
  into a file that later replaces it). The answer names the file (`Seen.token`), so it never
  applies to a file put there after it was given.

Taking a file over (`take_over`) is one transaction of the station's database: with `write`,
every item written before goes back to `writing` (its last row kept), exactly as after a crash
between the file's commit and the station's: the bridge then looks for each item's last row in
the new file and writes the item only where it is missing. A compacted or restored file that has
the rows gets nothing again; a fresh one gets every earlier result once.
"""
from __future__ import annotations

import dataclasses
import datetime
import json
import re
from collections.abc import Callable
from typing import Any

from ..notices import Notice, NoticeCode, more
from . import fileid
from .odbc import Bws, BwsReplaced

SEEN = "bws/file/"     # + the session id: fileid.Seen of the file the bridge writes into (settings)
ANSWER = "bws/answer"  # the TD's answer to a file of another session: {"token", "choice"}
CHOICES = ("write", "leave")
SUSPECT = ("missing", "unreadable", "not_bws")  # what comes back after these is checked as a new file


def utc() -> str:
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class Watch:
    """The record of the file written into, for one bridge (its station store and session id)."""

    def __init__(self, store: Any, guid: str, path: str, db: str):
        # The --db the TD's command needs, as the page shows it: a PostgreSQL URL without its password.
        self.store, self.guid, self.path, self.db = store, guid, path, re.sub(r"(://[^:/@]*):[^@/]*@", r"\1@", db)
        self.name = SEEN + guid  # per file path (the session id is the path's), so another --bws starts afresh

    def seen(self) -> fileid.Seen | None:
        return fileid.Seen.from_json(self.store.setting(self.name))

    def check(self, bws: Bws, session: dict[str, Any], st: Any,
              written: Callable[[], list[tuple[str, int, int, int]]],
              state: dict[str, Any]) -> tuple[list[Notice], str] | None:
        """None: the file written into before (or the first one). Else (why it is another file,
        the choice to take it over with). Raises BwsReplaced, with the question in
        `state["replaced"]`, when the earlier results do not fit and the TD has not answered.
        `written()`: the boards with items written into the earlier file."""
        before = self.seen()
        now = fileid.seen(st, session["marker"])
        if before is None:  # the first look at a file (or a station from before this record)
            self.store.set_setting(self.name, now.to_json())
            return None
        why = fileid.changes(before, now, emptied=False)
        if not why and before.wrote and bws.count("ReceivedData") == 0 and bws.count("BiddingData") == 0:
            why = fileid.changes(before, now, emptied=True)  # counted only when nothing else says it
        if not why:
            state["replaced"] = None
            return None
        differs = [x for x in [fileid.other_session(before.marker, now.marker)] if x is not None]
        differs += fileid.misfits(self.installed(), fileid.movement(session), written())
        if not differs:
            return why, "write"
        answer = self.answer(now.token())
        if answer is None:
            asked = state.get("replaced") or {}
            # each in English (the API, the output) and as its notice (the page, in the TD's language)
            state["replaced"] = {
                "token": now.token(), "why": [str(w) for w in why], "why_notices": [w.to_json() for w in why],
                "differs": [str(d) for d in differs[:20]], "differs_notices": [d.to_json() for d in differs[:20]],
                "count": len(differs), "db": self.db,
                "since": asked.get("since") if asked.get("token") == now.token() else utc()}
            raise BwsReplaced(Notice.of(NoticeCode.BWS_REPLACED, path=self.path, why=why, first=differs[0],
                                        more=more(len(differs) - 1)))
        return why, answer

    def answer(self, token: str) -> str | None:
        """The TD's answer for the file `token` names (`python -m station bws-replaced`), if any."""
        try:
            doc = json.loads(self.store.setting(ANSWER) or "{}")
        except ValueError:
            return None
        choice = doc.get("choice") if isinstance(doc, dict) and doc.get("token") == token else None
        return choice if choice in CHOICES else None

    def take_over(self, st: Any, marker: list[list[str]], choice: str, items: list[int]) -> set[int]:
        """The file at the path becomes the one written into (one transaction). `write`: every
        item written before goes back to `writing`, to be looked for in the new file; returns
        them. `leave`: `items` (every item the station holds now) are `left`, never written into
        this file or one that replaces it."""
        now = fileid.seen(st, marker)
        recheck = {int(r[0]) for r in self.store.query(
            "SELECT item_id FROM bws_items WHERE guid = ? AND state = 'done'", (self.guid,))} \
            if choice == "write" else set()
        with self.store.transaction() as tx:
            if choice == "write":
                tx.execute("UPDATE bws_items SET state = 'writing' WHERE guid = ? AND state = 'done'", (self.guid,))
            else:
                at = utc()
                for item_id in items:
                    tx.execute("DELETE FROM bws_items WHERE guid = ? AND item_id = ?", (self.guid, item_id))
                    tx.execute("INSERT INTO bws_items (guid, item_id, state, check_row, at) VALUES (?, ?, 'left', "
                               "NULL, ?)", (self.guid, item_id, at))
            tx.execute("DELETE FROM settings WHERE name = ? OR name = ?", (self.name, ANSWER))
            tx.execute("INSERT INTO settings (name, value) VALUES (?, ?)", (self.name, now.to_json()))
        return recheck

    def suspect(self) -> None:
        """Missing or unreadable: whatever comes back at the path is checked as a replacement."""
        before = self.seen()
        if before is not None and not before.suspect:
            self.store.set_setting(self.name, dataclasses.replace(before, suspect=True).to_json())

    def after(self, st: Any, marker: list[list[str]], wrote: bool) -> None:
        """The file's size and time after the bridge's own writes (`wrote`: rows were written
        in this look), for the file it opened only (a file put in its place meanwhile is noticed
        at the next look)."""
        end = fileid.stat(self.path)
        if end is None or (end.st_dev, end.st_ino) != (st.st_dev, st.st_ino):
            return
        before = self.seen()
        if before is not None and before.suspect:
            return  # only a check (`check`, then `take_over`) clears the doubt
        seen = fileid.seen(end, marker, wrote or (before is not None and before.wrote))
        if before != seen:
            self.store.set_setting(self.name, seen.to_json())

    def installed(self) -> dict[fileid.Slot, fileid.Placed]:
        """The movement the station took over before (what it serves the tablets)."""
        out = {}
        for r in self.store.query("SELECT section, table_no, round_no, pair_ns, pair_ew, low_board, high_board "
                                  "FROM dc_rounds WHERE session_guid = ?", (self.guid,)):
            try:
                out[(str(r[0]), int(r[1]), int(r[2]))] = (int(r[3]), int(r[4]), int(r[5]), int(r[6]))
            except (TypeError, ValueError):
                continue
        return out
