"""What the live feed's spectators read: the numbered events and what they add up to.

The feed (`station/live_feed.py`, in the station's process) decides what may be shown and when,
and numbers each change of a board's view (`board`), of a match's score (`match`) or of a
session's byes (`byes`). `LiveViews` keeps those events as they are taken, in the order of their
numbers: the last `RING` of them for a spectator who reconnects (Last-Event-ID), each shown
table's boards (its LIN), each table's latest board, each match's score and each session's byes
(the page, a new spectator's snapshot). It decides nothing:
whatever it holds was released by the feed, so it shows nothing early and nothing of a table not
shown. The station keeps one (to start a fan-out process with the state as it stands); the
fan-out process (`station/live_fanout.py`) keeps another, fed from the station over a pipe, and
serves the spectators from it.
"""
from __future__ import annotations

import asyncio
import bisect
import contextlib
import json
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass

from . import live_lin

RING = 20_000           # events kept for a spectator who reconnects (Last-Event-ID)
KEEPALIVE_S = 15.0      # a comment line on an idle stream, so proxies keep it open (the default)
TICK = 0.25             # the streams are woken at most this often (each gets that moment's events at once)
BEAT_S = 5.0            # and at least this often (keep-alive comments, a stream's end), or each keep-alive


class NotShown(LookupError):
    """A table or match the organiser does not show (HTTP 404 with this sentence)."""


@dataclass(frozen=True)
class LiveConfig:
    delay_s: float = 0.0
    tables: frozenset[tuple[str, int]] | None = None  # None: every table
    keepalive_s: float = KEEPALIVE_S  # a quiet stream's comment this often (--live-keepalive)

    def shows(self, section: str, table: int) -> bool:
        return self.tables is None or (section, table) in self.tables


class _Hub:
    """The spectators' streams on one event loop wait on one asyncio.Event, renewed per wake.
    Wakes come at most every `TICK` seconds: the events of that moment go to each spectator in
    one write, so a thousand spectators cost the loop a thousand writes a tick, not a thousand
    per event. A beat every `beat_s` wakes them too, for their keep-alive comments and their end:
    one timer for all of them instead of one per spectator per wait."""

    def __init__(self, loop: asyncio.AbstractEventLoop, beat_s: float = BEAT_S):
        self.loop = loop
        self.event = asyncio.Event()
        self.due = False
        self.beat_s = beat_s
        loop.call_later(beat_s, self._beat)

    def _beat(self) -> None:
        self.wake()
        self.loop.call_later(self.beat_s, self._beat)

    def request(self) -> None:
        if not self.due:
            self.due = True
            self.loop.call_later(TICK, self.wake)

    def wake(self) -> None:
        self.due = False
        old, self.event = self.event, asyncio.Event()
        old.set()


def frame(seq: int, kind: str, data: str) -> bytes:
    """One server-sent event: `data` is the event's JSON (one line)."""
    return f"id: {seq}\nevent: {kind}\ndata: {data}\n\n".encode()


def dumps(doc: dict) -> str:
    return json.dumps(doc, separators=(",", ":"))


class LiveViews:
    """The events taken so far and what they add up to. Thread-safe: events are taken on one
    thread, read by the HTTP side's."""

    def __init__(self, config: LiveConfig, event: str, seq: int):
        self.config = config
        self.event = event
        self.seq = seq                          # the last event's number (events go on from here)
        self._floor = seq                       # a spectator behind this missed events no longer kept
        self._lock = threading.RLock()
        self._frames: list[bytes] = []
        self._seqs: list[int] = []              # each frame's number (ascending)
        self._boards: dict[tuple[str, int], dict[tuple[str, int, int], dict]] = {}  # table -> board -> event
        self._changed: dict[tuple[str, int], int] = {}   # table -> seq of its last change
        self._latest: dict[tuple[str, int], tuple[dict, bytes]] = {}  # table -> its latest board's event
        self._matches: dict[str, tuple[dict, bytes]] = {}
        self._byes: dict[str, tuple[dict, bytes]] = {}   # session -> its byes' last event
        self._after_cache: tuple[int, int, bytes] | None = None  # (after, up to, the frames)
        self._hubs: dict[asyncio.AbstractEventLoop, _Hub] = {}

    # -- taking events -----------------------------------------------------------------------------
    def take(self, kind: str, doc: dict, data: str | None = None) -> bool:
        """Keep one event (`doc` with its `seq`; `data` its JSON if already made). False for one
        not newer than the last taken (nothing changes)."""
        seq = int(doc["seq"])
        one = frame(seq, kind, data if data is not None else dumps(doc))
        with self._lock:
            if seq <= self.seq:
                return False
            self.seq = seq
            self._frames.append(one)
            self._seqs.append(seq)
            if kind == "board":
                view = doc["view"]
                table = (str(view["section"]), int(view["table_no"]))
                self._boards.setdefault(table, {})[(str(view["session"]), int(view["round"]), int(view["board"]))] = doc
                self._changed[table] = seq
                latest = self._latest.get(table)
                if latest is None or latest[0]["view"]["started"] <= view["started"]:
                    self._latest[table] = (doc, one)  # an earlier board's late news does not take its place
            elif kind == "match":
                self._matches[str(doc["match"])] = (doc, one)
            elif kind == "byes":
                self._byes[str(doc["session"])] = (doc, one)
            if len(self._frames) > 2 * RING:
                drop = len(self._frames) - RING
                self._floor = self._seqs[drop - 1]
                del self._frames[:drop], self._seqs[:drop]
        self._wake_streams()
        return True

    def board(self, section: str, table: int, key: tuple[str, int, int]) -> dict | None:
        """The board's last event (`key`: session, round, board), or None."""
        with self._lock:
            return self._boards.get((section, table), {}).get(key)

    def match(self, name: str) -> dict | None:
        with self._lock:
            found = self._matches.get(name)
            return found[0] if found else None

    def byes(self, session: str) -> dict | None:
        """The session's byes' last event, or None."""
        with self._lock:
            found = self._byes.get(session)
            return found[0] if found else None

    def state(self) -> list[tuple[str, dict]]:
        """Every board's, match's and session's byes' last event, in order: taken by an empty
        `LiveViews` in that order, they give it this one's state (a fan-out process started or
        started again)."""
        with self._lock:
            docs = [("board", d) for boards in self._boards.values() for d in boards.values()]
            docs += [("match", d) for d, _ in self._matches.values()]
            docs += [("byes", d) for d, _ in self._byes.values()]
        return sorted(docs, key=lambda x: int(x[1]["seq"]))

    def _wake_streams(self) -> None:
        for hub in list(self._hubs.values()):
            with contextlib.suppress(RuntimeError):  # a loop that has closed
                hub.loop.call_soon_threadsafe(hub.request)

    # -- what the spectators read ------------------------------------------------------------------
    def snapshot(self) -> bytes:
        """The latest board of every shown table, every match's score and every session's byes,
        as stream events."""
        with self._lock:
            frames = sorted([*(f for _, f in self._latest.values()), *(f for _, f in self._matches.values()),
                             *(f for _, f in self._byes.values())], key=lambda f: int(f.split(b"\n", 1)[0][4:]))
            return b"".join(frames) + f"id: {self.seq}\nevent: snapshot\ndata: {{\"seq\": {self.seq}}}\n\n".encode()

    def frames_after(self, seq: int) -> tuple[bytes, int]:
        """The events after `seq` (a snapshot when those are no longer kept), and the last seq."""
        with self._lock:
            if seq == self.seq:
                return b"", self.seq
            if seq < self._floor or seq > self.seq:  # no longer kept, or another run's number
                return self.snapshot(), self.seq
            # The spectators woken by one tick are mostly at the same point: they share one chunk
            # (the HTTP side then frames it once, too).
            cached = self._after_cache
            if cached is not None and cached[0] == seq and cached[1] == self.seq:
                return cached[2], self.seq
            data = b"".join(self._frames[bisect.bisect_right(self._seqs, seq):])
            self._after_cache = (seq, self.seq, data)
            return data, self.seq

    async def stream(self, after: int | None, hold_s: float = 600.0, once: bool = False) -> AsyncIterator[bytes]:
        """Server-sent events: the snapshot (or what came after `after`), then each event as it
        is taken, a keep-alive comment when quiet; ends after `hold_s` (the client reconnects
        with Last-Event-ID) or, `once`, after the first events (the cacheable long poll)."""
        loop = asyncio.get_running_loop()
        hub = self._hubs.get(loop)
        if hub is None:
            hub = self._hubs.setdefault(loop, _Hub(loop, min(BEAT_S, self.config.keepalive_s)))
        end = loop.time() + hold_s
        yield b"retry: 1000\n\n"
        if after is None:
            with self._lock:
                seq = self.seq
                first = self.snapshot()
            yield first
            if once:
                return
        else:
            seq = after
        sent = loop.time()
        while loop.time() < end:
            data, seq_now = self.frames_after(seq)
            if data:
                seq, sent = seq_now, loop.time()
                yield data
                if once:
                    return
                continue
            if once:  # the long poll ends on time (a cache in front holds the others meanwhile)
                try:
                    async with asyncio.timeout(max(0.0, end - loop.time())):
                        await hub.event.wait()
                except TimeoutError:
                    return
                continue
            if loop.time() - sent >= self.config.keepalive_s:
                sent = loop.time()
                yield b": keep-alive\n\n"
            await hub.event.wait()  # the next tick with news, or the beat

    def table_lin(self, section: str, table: int) -> tuple[str, str]:
        """(the table's boards so far as LIN, its ETag)."""
        if not self.config.shows(section, table):
            raise NotShown(f"table {section}{table} is not shown in the live feed")
        with self._lock:
            boards = self._boards.get((section, table), {})
            # in the boards' order (a fan-out process started later took them in the order of their last change)
            text = "".join(d["lin"] + "\n" for _, d in sorted(boards.items()))
            return text, f'"{section}{table}-{self._changed.get((section, table), 0)}"'

    def match_lin(self, open_room: tuple[str, int], closed_room: tuple[str, int]) -> tuple[str, str]:
        """(both rooms' boards as one vugraph file, its ETag) of the match played at these tables."""
        for room in (open_room, closed_room):
            if not self.config.shows(*room):
                raise NotShown(f"table {room[0]}{room[1]} is not shown in the live feed, so neither is its match")
        with self._lock:
            rooms = {open_room: self._boards.get(open_room, {}), closed_room: self._boards.get(closed_room, {})}
            head = None
            lines = []
            for boards in rooms.values():
                for (_, _, board), doc in boards.items():
                    view = doc["view"]
                    if view["match"] is not None and head is None:
                        head = view
                    lines.append((board, 0 if view["room"] == "Open" else 1, doc["lin"]))
            if head is None:
                raise NotShown(f"no match is being played at tables {open_room[0]}{open_room[1]} and "
                               f"{closed_room[0]}{closed_room[1]}")
            etag = f'"m{open_room[0]}{open_room[1]}-{max(self._changed.get(r, 0) for r in rooms)}"'
        boards_seen = sorted({b for b, _, _ in lines})
        home, _, away = str(head["match"]).partition(" v ")
        text = live_lin.match_header(self.event, f"{open_room[0]}{open_room[1]} v {closed_room[0]}{closed_room[1]}",
                                     "I", boards_seen, home, away) + "\n"
        return text + "".join(line + "\n" for _, _, line in sorted(lines)), etag

    def page_state(self) -> tuple[list[dict], list[dict], list[dict], int]:
        """(the latest board event of each shown table, each match's score event, each session's
        byes event, the last seq)."""
        with self._lock:
            return ([doc for doc, _ in self._latest.values()], [doc for doc, _ in self._matches.values()],
                    [doc for doc, _ in self._byes.values()], self.seq)
