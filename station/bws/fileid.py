"""Which file the `.bws` path names, so the bridge notices when the scoring program replaces it
mid-evening (Ruter, Magic Contest and Bridgemate Control Software re-create the file when the TD
restarts or re-initialises the session) and can put the earlier results into the new one.

After each look the bridge keeps what it saw (`Seen`, in the station's database). The next look
finds the file replaced when (`changes`):
- the path names another file: its device and inode differ (on Windows the volume and the NTFS
  file index): re-created, copied in, restored from a backup, compacted (Access compacts into a
  new file);
- the same file got shorter, or older (its modification time went back): overwritten in place;
- the scoring program's own name for the session differs: the `Session` table's rows (Name,
  Date, GUID), where the file has that table;
- the file has none of the station's rows any more (ReceivedData and BiddingData empty after
  the station wrote into them): re-initialised in place;
- the file was missing or unreadable at an earlier look (`Seen.suspect`).

A replaced file is then compared with the session the station took over before (`misfits`):
the same session gets the earlier results written into it where they are missing; a different
one (another session name or date, or a movement the earlier results do not fit) waits for the
TD's answer. Pure functions but `stat`.
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, dataclass
from typing import Any

from ..notices import Notice, NoticeCode

C = NoticeCode

Slot = tuple[str, int, int]           # (section letter, table, round)
Placed = tuple[int, int, int, int]    # (NS pair, EW pair, low board, high board)


@dataclass(frozen=True)
class Seen:
    """The file as the bridge last saw it. `size` and `mtime_ns` are taken after the bridge's own
    writes; `marker` is the Session table's rows; `wrote`: the station has written rows into
    this file; `suspect`: missing or unreadable since."""

    dev: int
    ino: int
    size: int
    mtime_ns: int
    marker: list[list[str]]
    wrote: bool = False
    suspect: bool = False

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str | None) -> Seen | None:
        """The stored record, or None when there is none (or it is unreadable: a first look)."""
        try:
            d = json.loads(text or "")
            return cls(int(d["dev"]), int(d["ino"]), int(d["size"]), int(d["mtime_ns"]),
                       [[str(x) for x in r] for r in d["marker"]], bool(d.get("wrote")), bool(d.get("suspect")))
        except (ValueError, TypeError, KeyError):
            return None

    def token(self) -> str:
        """A short name of this file for the TD's answer: which file the answer is about (the
        size and time change as the scoring program works, the file and its session do not)."""
        doc = json.dumps([self.dev, self.ino, self.marker])
        return hashlib.sha256(doc.encode()).hexdigest()[:8]


def stat(path: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except OSError:
        return None


def same_file(a: os.stat_result, b: os.stat_result | None) -> bool:
    return b is not None and (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def seen(st: os.stat_result, marker: list[list[str]], wrote: bool = False) -> Seen:
    return Seen(int(st.st_dev), int(st.st_ino), int(st.st_size), int(st.st_mtime_ns), marker, wrote)


def changes(before: Seen, now: Seen, emptied: bool) -> list[Notice]:
    """Why `now` is not the file seen `before` (empty: the same file, as the scoring program and
    the station left it). `emptied`: ReceivedData and BiddingData have no rows now."""
    out = []
    if before.suspect:
        out.append(Notice.of(C.FILE_WAS_MISSING))
    if (before.dev, before.ino) != (now.dev, now.ino) and (before.ino or now.ino):
        out.append(Notice.of(C.FILE_OTHER))
    elif now.size < before.size:
        out.append(Notice.of(C.FILE_SHORTER, before=before.size, now=now.size))
    elif now.mtime_ns < before.mtime_ns:
        out.append(Notice.of(C.FILE_OLDER))
    if before.marker != now.marker:
        out.append(Notice.of(C.FILE_SESSION_ROWS, before=marker_text(before.marker), now=marker_text(now.marker)))
    if emptied and before.wrote:
        out.append(Notice.of(C.FILE_EMPTIED))
    return out


def marker_text(marker: list[list[str]]) -> str:
    return "; ".join(" ".join(x for x in row if x) for row in marker) or "none"


def other_session(before: list[list[str]], now: list[list[str]]) -> Notice | None:
    """None when the Session rows may name the same session; else what differs. The name and date
    count; the GUID not (a scoring program may give a re-created file a new one)."""
    old, new = {tuple(r[:2]) for r in before}, {tuple(r[:2]) for r in now}
    if old and new and old != new:
        return Notice.of(C.FILE_OTHER_SESSION, before=marker_text(before), now=marker_text(now))
    return None


def movement(session: dict[str, Any]) -> dict[Slot, Placed]:
    """A session read from the file (session.read) as {slot: (NS, EW, low, high)}."""
    letters = session["sections"]
    return {(letters[s], t, r): (ns, ew, low, high) for s, t, r, ns, ew, low, high in session["rounds"]
            if s in letters}


def misfits(earlier: dict[Slot, Placed], now: dict[Slot, Placed],
            boards: list[tuple[str, int, int, int]]) -> list[Notice]:
    """The boards written into the earlier file that the new file's movement would not take as
    they were played: the table and round missing, other pairs there, the board no longer in its
    range (a board the earlier movement did not have there either is no difference)."""
    out = []
    for section, table, round_no, board in sorted(boards):
        slot = (section, table, round_no)
        where = {"section": section, "table": table, "round": round_no, "board": board}
        new = now.get(slot)
        if new is None:
            out.append(Notice.of(C.FILE_NO_TABLE, **where))
            continue
        ns, ew, low, high = new
        old = earlier.get(slot)
        if old is not None and (old[0], old[1]) != (ns, ew):
            out.append(Notice.of(C.FILE_OTHER_PAIRS, **where, ns=old[0], ew=old[1], new_ns=ns, new_ew=ew))
        elif not low <= board <= high and (old is None or old[2] <= board <= old[3]):
            out.append(Notice.of(C.FILE_OTHER_BOARDS, **where, low=low, high=high))
    return out
