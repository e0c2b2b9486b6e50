"""The live feed (vugraph): what the spectators may see of each shown table, released at its time.

The feed hears every stored item (`Station.listeners`, station/listeners.py) and catches up from
the store at start. Each item of a shown table (an auction event, a progress item, a result)
takes effect `delay` after the station received it: the tablet sent it after the call was made,
so nothing is shown before the delay has passed since the call. A table that is not shown is
never in the feed: its results are only counted, to know when a board is finished everywhere.

What a spectator sees of a board once an item has taken effect (`view`; docs/station.md "The
live feed"):
- the calls, each with its alert mark; behind screens only the calls that passed the tray (all
  four players have seen them, the item's `visible`), and the alerts' explanations only when
  the board is over at that table (each side of the screen hears its own explanation: WBF
  screen regulations, FSB L115); without screens the explanations too, as the table heard them;
- the irregularities of the calls shown, with the Law and the ruling;
- the contract once the auction is over (every player has seen the final pass);
- the deal and the result only once the board is finished at every table that plays it: both
  rooms of a team match, else every table of the movement that plays it (the hand records'
  deal never reaches a spectator who could tell a player yet to play the board).

Every change of a board's view, of a match's score and of a session's byes is one numbered event
(`seq`), taken by the station's own `LiveViews` and handed to each sink (the fan-out process that
serves the spectators: station/live_fanout.py); the push stream, the LIN and the page are built
from them there. The TD's match commands (`python -m station match deduct`, `bye`, `walkover`,
another process) change a score or a bye with no item to announce it: the feed looks at what they
keep every `WATCH_S` seconds, and at the movement's byes every `live_standing.STANDING_S`. A bye
or a walk-over is no secret: it is shown at once (station/live_standing.py).
"""
from __future__ import annotations

import datetime
import heapq
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from shared_rules import boards as board_rules

from . import live_lin, live_standing
from .listeners import Ingested
from .live_context import LiveContext
from .live_views import LiveConfig, LiveViews, NotShown, dumps

__all__ = ["LiveConfig", "LiveFeed", "NotShown", "delay_seconds", "parse_live_tables"]

LIVE_KINDS = ("auction_event", "auction", "result")
MAX_DELAY_MINUTES = 30
ENDED = ("ended", "passed_out")
WATCH_S = 1.0           # how often the TD's deductions are looked at (another process writes them)
Sink = Callable[[str, dict, str], None]  # (kind, event, its JSON): each released event, in order


def parse_live_tables(spec: str) -> frozenset[tuple[str, int]]:
    """`A:1-4,B:1,3,5-7` -> the shown tables; ValueError saying what is wrong."""
    shown: set[tuple[str, int]] = set()
    section = None
    parts = [p.strip() for p in spec.split(",")]
    if not spec.strip() or any(not p for p in parts):
        raise ValueError(f"{spec!r}: expected SECTION:TABLES[,SECTION:TABLES...], e.g. A:1-4,B:1,3")
    for part in parts:
        m = re.fullmatch(r"(?:([A-Z]{1,3}):)?(\d{1,3})(?:-(\d{1,3}))?", part)
        if not m or (m.group(1) is None and section is None):
            raise ValueError(f"{spec!r}: {part!r} is not a table range (SECTION:N or SECTION:N-M, then N or N-M)")
        section = m.group(1) or section
        lo, hi = int(m.group(2)), int(m.group(3) or m.group(2))
        if not 1 <= lo <= hi <= 999:
            raise ValueError(f"{spec!r}: {part!r} is not a range of table numbers 1-999 (low to high)")
        shown |= {(section, t) for t in range(lo, hi + 1)}  # type: ignore[misc]
    return frozenset(shown)


def delay_seconds(minutes: float) -> float:
    """The organiser's delay in seconds; ValueError outside 0 to 30 minutes."""
    if not 0 <= minutes <= MAX_DELAY_MINUTES:
        raise ValueError(f"the live delay must be 0 to {MAX_DELAY_MINUTES} minutes, not {minutes:g}")
    return minutes * 60.0


@dataclass
class BoardState:
    """What has taken effect of one board at one table (in one session and round)."""

    tablet_event: str
    section: str
    table: int
    round: int
    board: int
    dealer: str
    vulnerability: str
    calls: list[dict] = field(default_factory=list)
    irregularities: list[dict] = field(default_factory=list)
    status: str = "bidding"
    contract: str | None = None
    declarer: str | None = None
    screens: bool = False
    visible: int | None = None
    live_items: bool = False    # the tablet sends auction events (else only progress items)
    n: int = 0                  # the last auction event / progress number taken
    result: dict | None = None  # the latest revision of the table's result (None: none, or withdrawn)
    revision: int = 0
    started: int = 0            # the feed's seq when the board first showed at the table


def _board_key(p: dict) -> tuple[str, str, int, int, int]:
    return (str(p["event"]), str(p["section"]), int(p["table"]), int(p["round"]), int(p["board"]))


class LiveFeed:
    def __init__(self, station: Any, config: LiveConfig, context: LiveContext | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.station = station
        self.store = station.store
        self.config = config
        self.context = context or LiveContext(station.store, station.config.extra.get("profile"))
        self.clock = clock
        self.event = station.config.event
        self._wake = threading.Condition()
        self._due: list[tuple[float, int, str, dict]] = []  # (due, item id, kind, payload)
        self._seen: set[int] = set()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._family: dict[str, bool] = {}
        # the fold (releaser thread only)
        self._boards: dict[tuple[str, str, int, int, int], BoardState] = {}
        self._by_board: dict[tuple[str, int], list[BoardState]] = {}
        self._finished: set[tuple[str, str, int, int, int]] = set()
        # The events' numbers go on from the station's clock at start (microseconds), not from 0:
        # no number or ETag of an earlier run comes back after a restart (the organiser may also
        # show other tables then), so a browser reconnecting with an older Last-Event-ID gets a
        # fresh snapshot and a cache never takes a new file for its old copy.
        self.first_seq = time.time_ns() // 1000
        self.views = LiveViews(config, self.event, self.first_seq)
        self.sinks: list[Sink] = []
        self._scored: dict[str, tuple[str, Any]] = {}   # match name -> (session, Match) once scored
        self._entries: object = None                  # what the TD's match entries were when last looked at
        self._standing_at = 0.0                       # when the byes and walk-overs were last read

    # -- life cycle ------------------------------------------------------------------------------
    def start(self) -> LiveFeed:
        self._unsubscribe = self.station.listeners.on_ingest(self.heard)
        self._catch_up()
        self._thread = threading.Thread(target=self._run, name="live-feed", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        with self._wake:
            self._wake.notify()
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self._thread is not None:
            self._thread.join(10)

    def _ours(self, tablet_event: str) -> bool:
        """An item of the station's event (its first session's id, or `<event>.<n>`)."""
        known = self._family.get(tablet_event)
        if known is None:
            try:
                known = self.store.station_event_of(tablet_event) == self.store.station_event_of(self.event)
            except Exception:  # noqa: BLE001 - the store cannot say: by the id's form
                known = tablet_event == self.event or tablet_event.startswith(self.event + ".")
            self._family[tablet_event] = known
        return known

    def _catch_up(self) -> None:
        """Every stored item of the event, each taking effect `delay` after it was received (the
        store keeps whole seconds: one more is added, so none takes effect early)."""
        now_wall, now = time.time(), self.clock()
        for kind in LIVE_KINDS:
            for it in self.store.items(kind=kind):
                received = _epoch(it.get("received_at"))
                due = now + self.config.delay_s if received is None else \
                    now + (received + 1.0 + self.config.delay_s - now_wall)
                self._queue(it["id"], kind, it["payload"], due)

    def heard(self, item: Ingested) -> None:
        """A new item is stored (the listeners' thread): it takes effect after the delay."""
        if item.kind in LIVE_KINDS:
            self._queue(item.id, item.kind, item.payload, self.clock() + self.config.delay_s)

    def _queue(self, item_id: int, kind: str, payload: dict, due: float) -> None:
        try:
            if not self._ours(str(payload["event"])):
                return
            shown = self.config.shows(str(payload["section"]), int(payload["table"]))
        except (KeyError, TypeError, ValueError):
            return
        if not shown and kind != "result":
            return  # nothing of a table that is not shown; its results only say when a board is over
        with self._wake:
            if item_id in self._seen:
                return
            self._seen.add(item_id)
            heapq.heappush(self._due, (due, item_id, kind, payload))
            self._wake.notify()

    def _run(self) -> None:
        watched = 0.0
        while not self._stop.is_set():
            if time.monotonic() - watched >= WATCH_S:
                watched = time.monotonic()
                self._watch_team_matches()
            with self._wake:
                now = self.clock()
                ready = []
                while self._due and self._due[0][0] <= now:
                    ready.append(heapq.heappop(self._due))
                if not ready:
                    wait = self._due[0][0] - now if self._due else WATCH_S
                    self._wake.wait(min(wait, WATCH_S))
                    continue
            for _, _, kind, payload in ready:
                try:
                    self._apply(kind, payload)
                except Exception as e:  # noqa: BLE001 - one odd item must not stop the feed
                    print(f"station: live feed could not take {kind} {payload.get('key')}: {e!r}", flush=True)

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """True once nothing is due any more (tests and the bench)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._wake:
                if not self._due:
                    return True
            time.sleep(0.01)
        return False

    # -- the fold ------------------------------------------------------------------------------
    def _state(self, p: dict) -> BoardState:
        k = _board_key(p)
        bs = self._boards.get(k)
        if bs is None:
            board = k[4]
            bs = BoardState(k[0], k[1], k[2], k[3], board, board_rules.dealer(board),
                            board_rules.vulnerability(board))
            self._boards[k] = bs
            self._by_board.setdefault((k[0], board), []).append(bs)
        return bs

    def _apply(self, kind: str, p: dict) -> None:
        k = _board_key(p)
        if kind == "result":
            self._take_result(k, p)
            return
        bs = self._state(p)
        if kind == "auction_event":
            n = int(p.get("n") or 0)
            if n <= bs.n and bs.live_items:
                return  # an older event, caught up late: the newer one said more
            bs.live_items, bs.n = True, n
            bs.calls = [c for c in p.get("calls") or [] if isinstance(c, dict)]
            bs.irregularities = [x for x in p.get("irregularities") or [] if isinstance(x, dict)]
            bs.status = str(p.get("status") or "bidding")
            bs.contract, bs.declarer = p.get("contract"), p.get("declarer")
            bs.screens, bs.visible = bool(p.get("screens")), p.get("visible")
            bs.dealer = p.get("dealer") or bs.dealer
            bs.vulnerability = p.get("vulnerability") or bs.vulnerability
        elif not bs.live_items:
            # An older tablet's progress item: its calls are public only once the auction is over
            # (it does not say what passed a screen's tray).
            seq = int(p.get("seq") or 0)
            if seq <= bs.n:
                return
            bs.n = seq
            if p.get("phase") in ("playing", "entering_result"):
                bs.calls = [c for c in p.get("calls") or [] if isinstance(c, dict)]
                bs.irregularities = [x for x in p.get("irregularities") or [] if isinstance(x, dict)]
                bs.status = "ended"
        else:
            return
        self._publish(bs)

    def _take_result(self, k: tuple[str, str, int, int, int], p: dict) -> None:
        last = str(p.get("key", "")).rsplit("/", 1)[-1]
        revision = int(p.get("revision") or (last if last.isdigit() else 1))
        shown = self.config.shows(k[1], k[2])
        bs = self._state(p) if shown else self._boards.get(k)
        if bs is not None:
            if revision < bs.revision:
                return
            bs.revision = revision
            bs.result = None if p.get("withdrawn") else p
        if p.get("withdrawn"):
            self._finished.discard(k)
        else:
            self._finished.add(k)
        # the board may now be finished everywhere: every shown table's view of it may change
        for other in self._by_board.get((k[0], k[4]), []):
            if self.config.shows(other.section, other.table):
                self._publish(other)

    def _complete(self, bs: BoardState) -> bool:
        if bs.result is None:
            return False
        group = self.context.comparison(bs.tablet_event, bs.section, bs.table, bs.round, bs.board)
        return all((bs.tablet_event, s, t, r, bs.board) in self._finished for s, t, r in group)

    def view(self, bs: BoardState) -> dict:
        """What a spectator may see of the board now (module docstring)."""
        done_here = bs.result is not None
        calls = bs.calls
        if done_here and isinstance(bs.result.get("auction"), list) and not bs.live_items:  # type: ignore[union-attr]
            calls = [c for c in bs.result["auction"] if isinstance(c, dict)]  # type: ignore[index]
        over = done_here or bs.status in ENDED
        if over or not bs.screens:
            n = len(calls)
        else:
            n = min(int(bs.visible or 0), len(calls))
        if not bs.live_items and not over:
            n = 0
        explain = done_here or not bs.screens
        shown = []
        for c in calls[:n]:
            one = {"seat": c.get("seat"), "call": c.get("call"), "alerted": bool(c.get("alerted"))}
            if explain and c.get("alerted") and c.get("explanation"):
                one["explanation"] = c["explanation"]
            shown.append(one)
        irregularities = []
        for x in bs.irregularities:
            if x.get("hidden_from"):
                # rectified behind the screen before the tray passed: the other side is never told,
                # so no spectator is either (WBF Code of Practice; docs/laws/choices.md #36)
                continue
            idx = x.get("index")
            if (isinstance(idx, int) and idx < n) or (idx is None and n == len(calls) and (over or not bs.screens)):
                irregularities.append({k: x.get(k) for k in ("kind", "seat", "call", "law", "resolution")
                                       if x.get(k) is not None})
        found = self.context.match_of(bs.tablet_event, bs.section, bs.table, bs.round)
        complete = self._complete(bs)
        result = bs.result or {}
        contract = result.get("contract") if done_here else (bs.contract if over else None)
        declarer = result.get("declarer") if done_here else (bs.declarer if over else None)
        names, pairs = self.context.seating(bs.tablet_event, bs.section, bs.table, bs.round)
        return {
            "table": f"{bs.section}{bs.table}", "section": bs.section, "table_no": bs.table,
            "session": bs.tablet_event, "round": bs.round, "board": bs.board, "dealer": bs.dealer,
            "vulnerability": bs.vulnerability,
            # in English for the LIN; the page says `names` and `pairs` in its own language
            "players": self.context.players(bs.tablet_event, bs.section, bs.table, bs.round),
            "names": names, "pairs": pairs,
            "room": found[1] if found else None, "match": _match_name(found[0]) if found else None,
            "teams": [found[0].home, found[0].away] if found else None,
            "calls": shown, "irregularities": irregularities, "screens": bs.screens,
            "status": "finished" if done_here else bs.status,
            "contract": contract if over else None, "declarer": declarer if over else None,
            "deal": self.context.deal(bs.tablet_event, bs.section, bs.board) if complete else None,
            "result": {"tricks": result.get("tricks"), "score_ns": result.get("score_ns")} if complete else None,
        }

    def _emit(self, kind: str, doc: dict) -> None:
        """One event released: the station's own views take it, then each sink (in order)."""
        data = dumps(doc)
        self.views.take(kind, doc, data)
        for sink in list(self.sinks):
            try:
                sink(kind, doc, data)
            except Exception as e:  # noqa: BLE001 - a sink's trouble is its own; the feed goes on
                print(f"station: live feed could not pass event {doc.get('seq')} on: {e!r}", flush=True)

    def _publish(self, bs: BoardState) -> None:
        view = self.view(bs)
        line = live_lin.board_line(bs.board, bs.dealer, bs.vulnerability, view["players"], view["calls"],
                                   room=view["room"], deal=view["deal"],
                                   tricks=(view["result"] or {}).get("tricks"), contract=view["contract"])
        before = self.views.board(bs.section, bs.table, (bs.tablet_event, bs.round, bs.board))
        if before is not None and {**before["view"], "started": 0} == {**view, "started": 0}:
            return
        seq = self.views.seq + 1
        bs.started = bs.started or seq
        view["started"] = bs.started
        self._emit("board", {"seq": seq, "view": view, "lin": line})
        if view["result"] is not None and view["match"] is not None:
            found = self.context.match_of(bs.tablet_event, bs.section, bs.table, bs.round)
            if found is not None:
                self._publish_match(bs.tablet_event, found[0])

    def _publish_match(self, tablet_event: str, m: Any) -> None:
        """A match's score from the boards whose results are shown (both rooms finished): the
        IMPs each team won, as the director page shows them, and the VPs less the TD's deductions."""
        from .match_store import score
        from .team_exports import imps_text

        facts = self.context.session(tablet_event)
        if facts.scope.guid is None:
            return
        results = {}
        for seg in m.segments:
            for x in (seg.open, seg.closed):
                for b in seg.boards:
                    other = self._boards.get((tablet_event, x.room.section, x.room.table, x.room.round, b))
                    if other is not None and other.result is not None and self._complete(other):
                        results[(x.room.section, x.room.table, x.room.round, b)] = other.result
        scored = score(self.store, facts.scope.guid, m, results, self.context.profile)
        name = _match_name(m)
        self._scored[name] = (tablet_event, m)
        doc_m = {"match": name, "home": m.home, "away": m.away, "boards": len(m.boards),
                 "scored": scored.score.scored, "home_won": imps_text(scored.score.home_won),
                 "away_won": imps_text(scored.score.away_won),
                 # VPs once complete, net of the TD's deductions, each shown (FSB L109B-D)
                 "vp": [f"{v:.2f}" for v in scored.score.vp] if scored.score.vp else None,
                 "deductions": [x.text() for x in scored.deductions],
                 # a match not played: its VPs with no board (FSB L109A)
                 "walkover": None if scored.walkover is None else
                 {"absent": list(scored.walkover.absent), "text": scored.walkover.text()}}
        before = self.views.match(name)
        if before is not None and {**before, "seq": 0} == {**doc_m, "seq": 0}:
            return
        self._emit("match", {"seq": self.views.seq + 1, **doc_m})

    def _watch_team_matches(self) -> None:
        """The TD's match entries changed (`python -m station match deduct/bye/walkover/...`,
        another process): every match scored so far is scored again, and a score that changed is
        an event at once, though no board's result follows (FSB L109B-D; after the last board
        none ever does); then the byes and walk-overs, also every `STANDING_S` (the movement's)."""
        try:
            now = live_standing.fingerprint(self.store)
        except Exception:  # noqa: BLE001 - the store cannot say now: looked at again next time
            return
        due = time.monotonic() - self._standing_at >= live_standing.STANDING_S
        if now == self._entries and not due:
            return
        known, self._entries = self._entries, now
        if known is not None and known != now:
            for tablet_event, m in list(self._scored.values()):
                self._publish_match(tablet_event, m)
        self._standing_at = time.monotonic()
        try:
            self._publish_standing()
        except Exception as e:  # noqa: BLE001 - one odd entry must not stop the feed
            print(f"station: live feed could not read the byes and walk-overs: {e!r}", flush=True)

    def _publish_standing(self) -> None:
        """Each session's byes (an event when they changed) and each walk-over of a match at
        tables shown (its match's score): no secret, so at once (station/live_standing.py)."""
        for tablet_event, guid in live_standing.sessions(self.store, self.event):
            byes = live_standing.byes(self.store, guid)
            before = self.views.byes(tablet_event)
            if (before is None and byes) or (before is not None and before["byes"] != byes):
                self._emit("byes", {"seq": self.views.seq + 1, "session": tablet_event, "byes": byes})
            for m in live_standing.walkover_matches(self.store, guid):
                if any(self.config.shows(section, table) for section, table in m.tables()):
                    self._publish_match(tablet_event, m)


def _match_name(m: Any) -> str:
    from .team_exports import team_name

    return f"{team_name(m.home)} v {team_name(m.away)}"


def _epoch(text: Any) -> float | None:
    try:
        return datetime.datetime.strptime(str(text), "%Y-%m-%dT%H:%M:%SZ").replace(
            tzinfo=datetime.UTC).timestamp()
    except ValueError:
        return None
