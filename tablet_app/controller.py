"""The table controller: the tablet's brain, with no Kivy and no serial port in it.

Every input (session setup, a box event, a TD decision, a result, East-West's confirmation) is
validated, journalled, and only then applied to the in-memory state by `_apply`, the one reducer.
A restart replays the journal through the same reducer, so a `kill -9` at any moment comes back to
exactly the same table: same auction, same pending TD decision, same results waiting in the outbox.

Side effects that must happen exactly once (queueing a result in the outbox) happen in the live
input method, inside the same SQLite transaction as the journal record, never in `_apply`.
"""
from __future__ import annotations

import contextlib
import datetime
import gc
import hashlib
import hmac
import json
import pathlib
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterator
from typing import Any

from shared_rules import boards as board_rules
from shared_rules.screens import Screen, screenmates_of, tray_delay, uses_screens
from shared_rules.table import Table
from tablet_app import movement, pin, results, traveller, views
from tablet_app.journal import Journal, JournalDamaged, JournalError, StorageFull
from tablet_app.session import DEFAULT_SETTINGS, Session, SetupError

SEATS = ("N", "E", "S", "W")
CALL_KINDS = ("call", "alert", "stop", "undo", "review", "td", "hello")


CLUB_SCHEMA = "CREATE TABLE IF NOT EXISTS club_settings (id INTEGER PRIMARY KEY CHECK (id = 1), value TEXT NOT NULL)"


class Refused(ValueError):
    """An input the table does not take; the message says why. Nothing was journalled or changed.
    `key` and `params` say the same for a screen that translates (`tablet_app.i18n`)."""

    def __init__(self, message: str, key: str = "refused", **params: Any):
        super().__init__(message)
        self.key = key
        self.params = params


class PinError(Refused):
    """Wrong director PIN (journalled, and sent to the station's director page)."""

    def __init__(self, message: str = "wrong director PIN: nothing was changed", key: str = "pin.wrong",
                 **params: Any):
        super().__init__(message, key, **params)


class PinLocked(PinError):
    """Too many wrong PINs: no try is taken before `until` (epoch seconds)."""

    def __init__(self, until: float, now: float):
        wait = max(1, int(until - now + 0.999))
        super().__init__(f"too many wrong PINs: try again in {wait} s (nothing was changed)", "pin.locked",
                         until=until, wait_s=wait)
        self.until = until


class DiskFull(Refused):
    """The tablet's storage refused the write: nothing was recorded and nothing changed."""

    def __init__(self, message: str):
        super().__init__(message, "storage.full")


def _box_key(box: dict[str, Any]) -> tuple[str, int, int, int]:
    return (box["seat"], box.get("epoch", 0), box["seq"], box["box_ms"])


def lho(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 1) % 4]


def _default_engine(profile: str, board: int, policy: str | None, no_alerts_by: tuple[str, ...] = ()) -> Any:
    return Table(profile, board, policy, no_alerts_by)


def _default_profile(name: str) -> Any:
    try:
        from shared_rules import profiles
    except ImportError:
        return None
    load = getattr(profiles, "load", None)
    return load(name) if load is not None else None


def _default_outbox(conn: Any) -> Any:
    from tablet_app.outbox import Outbox

    return Outbox(conn)


class Controller:
    def __init__(
        self,
        db_path: str | pathlib.Path,
        *,
        clock: Callable[[], float] = time.time,
        engine_factory: Callable[..., Any] = _default_engine,
        profile_loader: Callable[[str], Any] = _default_profile,
        outbox_factory: Callable[[Any], Any] = _default_outbox,
        club_profile: str | None = None,
    ):
        self.clock = clock
        self.engine_factory = engine_factory
        self.profile_loader = profile_loader
        self.db_path = str(db_path)
        self.journal = Journal(db_path)
        try:
            self.outbox = outbox_factory(self.journal.conn)
        except Exception as exc:
            self.journal.conn.close()
            raise JournalDamaged(self.db_path, None, f"its outbox cannot be read ({type(exc).__name__}: {exc})") from exc
        self.listeners: list[Callable[[], None]] = []
        # What the club set (the station's movement reply, or the tablet's own setting): the
        # regulations and the director PIN's hash a new setup starts from. Never a built-in one.
        self.club: dict[str, Any] = self._load_club()
        if club_profile:
            self.set_club_defaults(profile=club_profile)
        # Checks a typed-in setup against the station before its first board
        # (station_client.station_check); None without a station.
        self.station_check: Callable[[Session], Any] | None = None
        self.station_status: dict[str, Any] | None = None
        self.storage_error: str | None = None
        # While the storage refuses writes nothing can be queued in the full file, so the
        # Deliverer (outbox.Deliverer.watch_storage) tells the station itself: from where the
        # table stood when the refusals began (`storage_since`), woken by these listeners.
        self.storage_since: dict[str, Any] | None = None
        self.storage_listeners: list[Callable[[], None]] = []
        self._tx_depth = 0
        self._tx_applied = 0
        self._safe_point = False
        self._tokens: set[str] = set()
        self._unjournalled_wrong = 0
        self._pin_fast: tuple[str, str] | None = None  # (salt, sha256) of the last good PIN, memory only
        # The station's travellers of boards this table has played, fetched at the I/O edge after
        # its own result was stored there (set_traveller): memory only, the station keeps them.
        self.travellers: dict[int, dict[str, Any]] = {}
        try:
            self._replay()
            from tablet_app.outbox import check_rows

            bad = check_rows(self.journal.conn)
        except JournalError:
            self.journal.conn.close()
            raise
        except Exception as exc:
            self.journal.conn.close()
            raise JournalDamaged(self.db_path, None, f"{type(exc).__name__}: {exc}") from exc
        if bad is not None:
            self.journal.conn.close()
            raise JournalDamaged(self.db_path, None, f"outbox item {bad} is not what was queued")
        self._resume_storage_episode()

    def _replay(self) -> None:
        """The table from the journal on disk (at start, and after a write that did not commit).
        The engine's state is built only when something reads it, not after every replayed
        event: a long journal replays in time linear in its length."""
        self._reset()
        self._replaying = True
        # The replay builds what the table keeps (records, the log, the engine's calls); what it
        # drops is freed by reference counting. The cycle collector, run every few hundred new
        # objects, would walk the kept ones again and again: it runs once, after the replay.
        collecting = gc.isenabled()
        gc.disable()
        try:
            for seq, kind, body in self.journal.records():
                try:
                    self._apply(kind, body)
                except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError) as exc:
                    # Never guess past a record we cannot apply: the TD must know the table is not
                    # what was played (e.g. a journal from a newer version).
                    raise JournalDamaged(self.db_path, seq, f"the {kind!r} record cannot be replayed ({exc})") from exc
        finally:
            self._replaying = False
            if collecting:
                gc.enable()

    # The engine's state as of its last event, built on first read after a replayed event.
    _replaying = False
    _estate: dict[str, Any] = {}
    _estate_stale = False

    @property
    def estate(self) -> dict[str, Any]:
        if self._estate_stale:
            self._estate = self.engine.state()
            self._estate_stale = False
        return self._estate

    @estate.setter
    def estate(self, state: dict[str, Any]) -> None:
        self._estate, self._estate_stale = state, False

    @classmethod
    def recover(cls, db_path: str | pathlib.Path, **kw: Any) -> Controller:
        """The TD's way on after JournalDamaged: the damaged file is kept aside, the table starts
        again from the records before the damage (the board being played when it happened may
        need replaying or the station's copy: `station_client.fetch_board_results`)."""
        from tablet_app.journal import recover

        aside, kept = recover(db_path)
        ctl = cls(db_path, **kw)
        ctl.log.append({"what": "recovered", "kept": kept, "damaged_file": str(aside)})
        return ctl

    # ------------------------------------------------------------------ derived state
    def _reset(self) -> None:
        self.session: Session | None = None
        self.board_started = 0.0
        self.engine: Any = None
        self.engine_events: list[dict[str, Any]] = []
        self.board_events: dict[int, list[dict[str, Any]]] = {}  # board -> its engine events, this round
        self.call_made = "confirmed"  # the profile's FSB L112C rule for box calls
        self.estate: dict[str, Any] = {}
        self.screen: Screen | None = None
        self.phase = "setup"  # setup, auction, frozen, play, confirm, round_end
        self.entry: dict[str, Any] | None = None  # tricks/lead typed by North, awaiting E-W
        self.done: list[dict[str, Any]] = []  # boards of this round with a confirmed result
        self.seen_box: set[tuple[str, int, int, int]] = set()
        self.stop_shown: dict[str, float] = {}
        self.log: list[dict[str, Any]] = []  # what happened, for the TD and the headless demo
        self.td_calls: list[dict[str, Any]] = []
        self.last_t = 0.0
        self.released_t = 0.0  # board time the director last dismissed the boxes' calls (the tray waits till then)
        self.progress_seq = 0  # "auction" items queued for the board in play
        self.progress_of: dict[int, int] = {}  # ... per board: a board left and taken up again goes on counting
        self.progress_step: str | None = None
        self.td_due: list[tuple[int, str]] = []  # (TD call number, status) the last record changed
        self.current: int | None = None  # the board on the table (chosen, in any order)
        self.pin_wrong = 0  # wrong PINs in a row (journalled: survives a restart)
        self.pin_locked_until = 0.0

    @property
    def board(self) -> int | None:
        if self.session is None or self.phase in ("setup", "round_end"):
            return None
        return self.current

    def played(self) -> list[int]:
        """Boards of this round with a result at this table (a withdrawn one is not played)."""
        latest: dict[int, dict[str, Any]] = {}
        for r in self.done:
            latest[r["board"]] = r
        order = list(self.session.boards) if self.session else []
        return [b for b in order if b in latest and not latest[b].get("withdrawn")]

    def _new_engine(self, s: Session, board: int) -> Any:
        # one place for what the engine is built from, so a rebuild can never forget a setting
        return self.engine_factory(s.profile, board, s.policy, s.no_alerts_by)

    def _start_engine(self) -> None:
        assert self.session is not None and self.board is not None
        self.engine = self._new_engine(self.session, self.board)
        if self._replaying:
            self._estate_stale = True  # built when read (a replayed board's state is mostly never read)
        else:
            self.estate = self.engine.state()
        self.engine_events = []
        self.board_events.pop(self.board, None)  # a board taken up again: its new auction, and the latest
        self.board_events[self.board] = self.engine_events
        self.stop_shown = {}
        profile = self.profile_loader(self.session.profile)
        self.call_made = str(getattr(profile, "call_made", "confirmed"))
        dealer = board_rules.dealer(self.board)
        self.screen = None
        if profile is not None and uses_screens(profile):
            delay = self.session.tray_delay_s
            delay = tray_delay(profile, 15.0) if delay is None else delay
            self.screen = Screen(dealer, delay, screenmates_of(profile))

    def _engine_apply(self, ev: dict[str, Any]) -> None:
        # Replaying a table without screens, nothing needs the state after each event (the
        # phase comes from the engine's status); a screen model observes every state.
        lazy = self._replaying and self.screen is None and hasattr(self.engine, "take")
        try:
            if lazy:
                self.engine.take(ev)
                state = None
            else:
                state = self.engine.apply(ev)
        except Exception as exc:  # the engine refused: rebuild it untouched from the journal
            assert self.session is not None and self.board is not None
            self.engine = self._new_engine(self.session, self.board)
            for old in self.engine_events:
                self.engine.apply(old)
            raise Refused(str(exc)) from exc  # the engine's message says what and which law
        self.engine_events.append(ev)
        if state is None:
            self._estate_stale = True
        else:
            self.estate = state
            if self.screen is not None:
                self.screen.observe(state, float(ev.get("t", 0.0)))
        self._phase_from_engine()

    def _phase_from_engine(self) -> None:
        if self.phase in ("confirm", "round_end", "setup"):
            return
        if self._estate_stale:  # the engine's own status, without building its whole state
            status = self.engine.status()
            pending = status == "awaiting_td"
        else:
            pending, status = bool(self.estate.get("pending")), self.estate.get("status")
        if pending or status in ("awaiting_td", "adjusted_score"):
            # adjusted_score: the engine stopped the auction (2007 L17D2, 2017 L15A2(a)/L15B1);
            # nothing goes on at the table until the TD awards the score.
            self.phase = "frozen"
        elif status in ("ended", "passed_out"):
            self.phase = "play"
        else:
            self.phase = "auction"

    # ------------------------------------------------------------------ the reducer
    def _apply(self, kind: str, body: dict[str, Any]) -> None:
        before = self.phase
        self._apply_record(kind, body)
        if kind == "event" and self.phase == before:
            # nearly every record: no progress step, no director call, no safe point (below)
            self.progress_step = None
            self.td_due = []
            return
        # The station's director page follows each table's progress from "auction" items. Which
        # changes produce one is decided here, for replay and live alike, so the item numbers a
        # restarted tablet uses continue where they were; only the live path queues (_record).
        step = None
        if kind == "board":
            step = "bidding"
        elif kind == "event" and self.phase == "frozen" and before != "frozen":
            step = "bidding"
        elif kind == "event" and self.phase == "play" and before in ("auction", "frozen"):
            step = "playing"
        elif kind == "result":
            step = "entering_result"
        if step is not None:
            self.progress_seq += 1
            self.progress_step = step
            if self.current is not None:
                self.progress_of[self.current] = self.progress_seq
        else:
            self.progress_step = None
        # TD calls the station follows (open on the director page until resolved), decided here
        # for replay and live alike; only the live path queues them (_record).
        self.td_due = []
        if self.phase == "frozen" and before != "frozen":
            # an irregularity: the tablet itself calls the director
            pending = self.estate.get("pending") or {}
            reason = pending.get("kind") or self.estate.get("status")
            law = pending.get("law") or self.estate.get("status_law")
            note = str(reason).replace("_", " ") + (f" ({law})" if law else "")  # for the director page
            self.td_calls.append({"seat": None, "t": (body.get("ev") or {}).get("t"), "board": self.board,
                                  "reason": reason, "note": note, "auto": True, "place": self._place()})
            self.td_due.append((len(self.td_calls), "launched"))
        elif before == "frozen" and self.phase != "frozen":
            self._resolve_td_calls(lambda c: c.get("auto"))
        elif kind == "td_attended":
            self._resolve_td_calls(lambda c: not c.get("auto"))
        elif kind in ("td_call", "pin_wrong") and self.session is not None:
            self.td_due.append((len(self.td_calls), "launched"))
        if kind in ("setup", "round_end", "adjusted", "withdrawn", "moved") or (kind == "confirm" and body.get("accepted")):
            self._safe_point = True  # the WAL is folded into the main file after this commit

    def _place(self) -> list[Any]:
        s = self.session
        assert s is not None
        return [s.event, s.section, s.table, s.round]

    def _resolve_td_calls(self, which: Callable[[dict[str, Any]], bool]) -> None:
        for n, c in enumerate(self.td_calls, 1):
            if c.get("status") != "resolved" and which(c):
                c["status"] = "resolved"
                self.td_due.append((n, "resolved"))

    def _apply_record(self, kind: str, body: dict[str, Any]) -> None:
        if kind == "event":  # nearly every record: first, and no work for what it does not hold
            ev = body["ev"]
            stop_shown = self.stop_shown
            if stop_shown and "call" in ev and ev.get("seat") in stop_shown and "stop" not in ev:
                ev = {**ev, "stop": True}
            engine = self.engine
            n_irr = engine.irregularity_count()
            self._engine_apply(ev)  # may refuse: nothing below may have happened before it
            box = body.get("box")
            if box:
                self.seen_box.add(_box_key(box))
            if stop_shown and "call" in ev:
                stop_shown.pop(ev.get("seat"), None)
            t = float(ev.get("t", 0.0))
            if t > self.last_t:
                self.last_t = t
            self.log.append({"what": "event", "board": self.board, **ev})
            if engine.irregularity_count() != n_irr:
                for irr in engine.irregularities_since(n_irr):
                    self.log.append({"what": "irregularity", "board": self.board, **irr})
            if ev.get("td") == "cancel_board":
                # 2007 L15C: the TD's reason with the consequence the engine gave it
                adjusted = self.estate.get("adjusted_score") or {}
                self.log.append({"what": "board_cancelled", "board": self.board, "reason": body.get("reason"),
                                 "law": adjusted.get("law"), "adjusted_score": adjusted})
        elif kind == "setup":
            # A director call outlives its round: the TD may attend to it after the table has
            # moved on, and the station keeps it open until he does.
            calls, wrong, until = self.td_calls, self.pin_wrong, self.pin_locked_until
            self._reset()
            self.td_calls, self.pin_wrong, self.pin_locked_until = calls, wrong, until
            self.session = Session.from_dict(body["session"])
            self.phase = "auction"
            self.log.append({"what": "setup", **body["session"]})
        elif kind == "board":
            assert self.session is not None
            # "board": the board the players (or the TD) chose; "index": journals from before
            # the choice, which took the round's boards in order.
            n = body["board"] if "board" in body else self.session.boards[body["index"]]
            if n not in self.session.boards:
                raise ValueError(f"board {n} is not in the round")
            self.current = n
            self.board_started = float(body["started_at"])
            self.progress_seq = self.progress_of.get(n, 0)
            self.phase = "auction"
            self.entry = None
            self.last_t = 0.0
            self.released_t = 0.0
            self._start_engine()
            self.log.append({"what": "board", "board": self.board, "chosen_by": body.get("by")})
        elif kind == "stop":
            self.stop_shown[body["seat"]] = body["t"]
            box = body.get("box")
            if box:
                self.seen_box.add(_box_key(box))
            self.log.append({"what": "stop", "board": self.board, "seat": body["seat"], "t": body["t"]})
        elif kind == "refused":
            box = body.get("box")
            if box:
                self.seen_box.add(_box_key(box))
            self.log.append({"what": "refused", "board": self.board, **body})
        elif kind == "td_call":
            self.td_calls.append({**body, "place": self._place()})
            self.log.append({"what": "td_call", "board": self.board, **body})
        elif kind == "result":
            self.entry = {"tricks": body["tricks"], "lead": body["lead"], "entered_at": body["entered_at"]}
            self.phase = "confirm"
            self.log.append({"what": "result", "board": self.board, **body})
        elif kind == "confirm":
            if body["accepted"]:
                self.done.append(body["record"])
                self.log.append({"what": "confirmed", "board": self.board, "score_ns": body["record"]["score_ns"]})
                self.entry = None
                self.phase = "play"  # until the next 'board' or 'round_end' record
            else:
                self.log.append({"what": "disputed", "board": self.board})
                self.entry = None
                self.phase = "play"
        elif kind == "adjusted":
            self.done.append(body["record"])
            self.entry = None
            self.phase = "play"  # until the next 'board' or 'round_end' record, in the same transaction
            self.log.append({"what": "adjusted", "board": self.board, **body["record"]["adjusted"]})
        elif kind == "correction":
            self.done.append(body["record"])
            self.log.append({"what": "correction", "board": body["record"]["board"], "key": body["record"]["key"]})
        elif kind == "td_attended":
            if self.current is not None:
                self.released_t = max(0.0, round(float(body["t"]) - self.board_started, 2))
            self.log.append({"what": "td_attended", "board": self.board, "t": body["t"]})
        elif kind == "withdrawn":
            self.done.append(body["record"])
            self.log.append({"what": "withdrawn", "board": body["record"]["board"], "key": body["record"]["key"]})
        elif kind == "moved":
            self.done.append(body["withdrawn"])
            self.done.append(body["record"])
            self.log.append({"what": "moved", "from": body["withdrawn"]["board"], "board": body["record"]["board"]})
        elif kind == "pin_wrong":
            self.pin_wrong += 1
            self.pin_locked_until = float(body["at"]) + pin.lockout_s(self.pin_wrong)
            self.log.append({"what": "pin_wrong", "tries": self.pin_wrong, "until": self.pin_locked_until})
            if self.session is not None:
                self.td_calls.append({"seat": None, "t": None, "board": self.board, "reason": "wrong_pin", "pin": True,
                                      "note": f"wrong director PIN at the table (try {self.pin_wrong} in a row)",
                                      "place": self._place()})
        elif kind == "pin_ok":
            self.pin_wrong = 0
            self.pin_locked_until = 0.0
        elif kind == "round_end":
            self.phase = "round_end"
            self.current = None
            self.log.append({"what": "round_end"})
        else:
            raise ValueError(f"unknown journal record kind {kind!r}")

    @contextlib.contextmanager
    def _tx(self) -> Iterator[None]:
        """One input: its journal records and outbox items commit together, or none of them
        does and the table in memory is rebuilt from the journal on disk. Memory never runs ahead
        of disk: a full disk refuses the input (DiskFull) with the table as it was."""
        if self._tx_depth:
            self._tx_depth += 1
            try:
                yield
            finally:
                self._tx_depth -= 1
            return
        self._tx_depth, self._tx_applied, self._safe_point = 1, 0, False
        try:
            with self.journal.transaction():
                yield
                self._queue_storage_over()
        except BaseException as exc:
            self._tx_depth = 0
            if self._tx_applied:
                self._replay()  # what was applied before the failure was never committed
            if isinstance(exc, StorageFull):
                self._storage_state(str(exc))
                raise DiskFull(f"tablet storage full: nothing was recorded ({exc})") from exc
            raise
        self._tx_depth = 0
        self._storage_state(None)
        if self._safe_point:
            self.journal.checkpoint()
        for fn in list(self.listeners):
            fn()

    def _storage_state(self, error: str | None) -> None:
        was, self.storage_error = self.storage_error, error
        if error is None:
            if self.storage_since is None:
                return
            self.storage_since = None
        elif was is not None or self.storage_since is not None:
            return  # the same episode (one remembered from before a restart included)
        else:
            # The last journalled record names the episode: nothing can be journalled until it ends.
            s = self.session
            self.storage_since = {
                "seq": self.journal._last()[0], "at": self.clock(), "board": self.board,
                "round": s.round if s is not None else 0,
                "place": [s.event, s.section, s.table] if s is not None else None}
        self._storage_mark.write(self.storage_since)
        for fn in list(self.storage_listeners):
            fn()

    def _resume_storage_episode(self) -> None:
        """At start: an episode the tablet was stopped in (`storage_mark`) is told to the
        station again, and ended at once if the storage takes a write now (space was freed
        while the tablet was off), so the director page's call does not stay open."""
        from tablet_app.storage_mark import StorageMark

        self._storage_mark = StorageMark(str(self.db_path) + ".storage")
        self.storage_since = self._storage_mark.read()
        if self.storage_since is not None:
            with contextlib.suppress(DiskFull):
                with self._tx():
                    pass  # commits the episode's call and its end (_queue_storage_over)

    def _queue_storage_over(self) -> None:
        """Inside the first transaction that commits after a storage episode: the episode's call
        and `<its key>/resolved` go into the outbox with it, so the station hears the end even
        if the tablet stops before the pump runs (the direct alarm is memory only)."""
        since = self.storage_since
        if since is None or since.get("place") is None:
            return
        from tablet_app.outbox import storage_call

        key, launch = storage_call(*since["place"], since)
        if not self.outbox.has(key + "/resolved"):
            self.outbox.enqueue("td_call", key, launch)
            self.outbox.enqueue("td_call", key + "/resolved",
                                {**launch, "key": key + "/resolved", "status": "resolved", "at": self.clock()})

    def _record(self, kind: str, body: dict[str, Any]) -> None:
        """Journal first, then apply: what is in memory never runs ahead of what is on disk."""
        with self._tx():
            self.journal.append(kind, body)
            self._apply(kind, body)
            self._tx_applied += 1
            if self.progress_step is not None:
                self._queue_progress(self.progress_step, self.clock())
            for n, status in self.td_due:
                self._queue_td_call(n, status)

    def _t(self) -> float:
        t = round(self.clock() - self.board_started, 2)
        return max(t, self.last_t)

    # ------------------------------------------------------------------ inputs
    def setup(self, session: dict[str, Any] | Session) -> None:
        """Start a round: the setup is checked (in the TD's words, SetupError with a key for the
        screen), completed with the club's regulations and PIN, checked against the station when
        there is one (`station_check`), then journalled with its first board."""
        if self.phase not in ("setup", "round_end") and self.session is not None:
            raise Refused("finish the round (or have the TD end it) before setting up a new one", "setup.round_open")
        if isinstance(session, Session):
            d = session.to_dict()
        elif isinstance(session, dict):
            d = dict(session)
        else:
            raise SetupError("the setup must be a set of named fields", "setup.not_a_setup")
        if d.get("td_pin") in (None, ""):
            # the club's PIN (the station's, or the one the TD set for this session earlier)
            if self.session is not None and self.session.td_pin:
                d["td_pin"] = self.session.td_pin
            elif self.club.get("director_pin"):
                d["td_pin"] = self.club["director_pin"]
        if not d.get("profile") and self.club.get("profile"):
            d["profile"] = self.club["profile"]
        elif not d.get("profile"):
            raise SetupError("Regulations: choose the club's regulations (no default is assumed)", "setup.profile",
                             field="profile", value="")
        s = Session.from_dict(d)
        try:
            self._new_engine(s, s.boards[0])
        except ImportError:
            raise
        except Exception as exc:
            raise SetupError(f"Regulations: the rules engine cannot run this setup ({exc})", "setup.engine",
                             field="profile", detail=str(exc)) from exc
        if self.station_check is not None:
            self._check_station(s)
        with self._tx():
            self._record("setup", {"session": s.to_dict()})
            self._record("board", {"board": s.boards[0], "started_at": self.clock(), "by": None})

    def _check_station(self, s: Session) -> None:
        """The table id and key as the outbox will deliver them, before the first board: a
        refusal is a SetupError (shown on the setup screen); a station out of reach is said in
        the snapshot (`station`) but does not stop the table (results wait in the outbox)."""
        from tablet_app.station_client import StationError, club_defaults

        assert self.station_check is not None
        tid = f"{s.event}/{s.section}/{s.table}"
        try:
            movement = self.station_check(s)
        except StationError as exc:
            self.station_status = {"ok": False, "table": tid, "reason": exc.reason, "message": str(exc)}
            if exc.reason == "refused":
                raise SetupError(f"The station refused table {tid}: {exc}", "setup.station_refused",
                                 table=tid, reason=str(exc)) from exc
            return
        self.station_status = {"ok": True, "table": tid, "reason": None, "message": None}
        if movement is not None:
            self.set_club_defaults(**club_defaults(movement))

    def set_club_defaults(self, **values: Any) -> None:
        """What the club set: `profile` (regulations), `director_pin` (hash from the station,
        or digits, hashed here). Used by the next setup that does not give its own."""
        club = dict(self.club)
        if values.get("profile"):
            club["profile"] = str(values["profile"])
        p = values.get("director_pin")
        if isinstance(p, str) and pin.valid_digits(p):
            club["director_pin"] = pin.hash_pin(p)
        elif pin.valid_hash(p):
            club["director_pin"] = p
        elif p is not None:
            raise SetupError("Director PIN: give 4 to 8 digits", "setup.pin_format", field="td_pin")
        if club != self.club:
            # the tablet's own setting: remembered for the next evening (not part of the journal's
            # table; a setup journals the values it used)
            try:
                with self.journal.transaction() as conn:
                    conn.execute(CLUB_SCHEMA)
                    conn.execute("INSERT OR REPLACE INTO club_settings (id, value) VALUES (1, ?)", (json.dumps(club),))
            except StorageFull as exc:
                raise DiskFull(f"tablet storage full: the club's settings were not kept ({exc})") from exc
            self.club = club

    def _load_club(self) -> dict[str, Any]:
        try:
            row = self.journal.conn.execute("SELECT value FROM club_settings WHERE id = 1").fetchone()
            club = json.loads(row[0]) if row else {}
        except (sqlite3.Error, ValueError, TypeError):
            return {}  # no setting (or an unreadable one): the TD chooses
        if not isinstance(club, dict):
            return {}
        return {k: v for k, v in club.items() if (k == "profile" and isinstance(v, str) and v)
                or (k == "director_pin" and pin.valid_hash(v))}

    def setup_defaults(self) -> dict[str, Any]:
        """What the setup screen starts from: the club's regulations (None: the TD must choose;
        never a built-in default) and whether a director PIN is already set by the club."""
        s = self.session
        return {"profile": self.club.get("profile") or (s.profile if s else None),
                "pin_set": bool(self.club.get("director_pin") or (s and s.td_pin)),
                "event": s.event if s else None, "section": s.section if s else None,
                "table": s.table if s else None}

    def box_event(self, seat: str, kind: str, call: str | None = None, seq: int | None = None,
                  box_ms: int | None = None, stop: bool = False, epoch: int | None = None) -> dict[str, Any]:
        """Feed one event from a box. Returns {"ok": bool, "reason": str | None, "duplicate": bool}
        and, when the storage refused it, "retry": True (nothing changed; feed it again, as the
        box re-sends it, once there is space)."""
        try:
            return self._box_event(seat, kind, call, seq, box_ms, stop, epoch)
        except DiskFull as exc:
            return {"ok": False, "reason": str(exc), "duplicate": False, "retry": True, "disk_full": True}

    def _box_event(
        self,
        seat: str,
        kind: str,
        call: str | None = None,
        seq: int | None = None,
        box_ms: int | None = None,
        stop: bool = False,
        epoch: int | None = None,
    ) -> dict[str, Any]:
        """Feed one event from a box. Returns {"ok": bool, "reason": str | None, "duplicate": bool}.

        (seat, epoch, seq, box_ms) identifies a box event: a box re-sends an event the tablet
        journalled but had not acknowledged when it died (protocol/SPEC.md section 4); the
        journal recognises it and it is not applied twice.
        """
        if seat not in SEATS:
            raise Refused(f"unknown box {seat!r}")
        if kind not in CALL_KINDS:
            raise Refused(f"unknown box event kind {kind!r}")
        box = None
        if seq is not None:
            box = {"seat": seat, "seq": int(seq), "box_ms": int(box_ms or 0), "epoch": int(epoch or 0)}
            if _box_key(box) in self.seen_box:
                return {"ok": True, "reason": None, "duplicate": True}
        if kind in ("hello", "review"):
            return {"ok": True, "reason": None, "duplicate": False}
        if self.board is None:
            return self._refuse(seat, kind, call, box, "no board is in play")
        t = self._t()
        if kind == "td":
            # journalled and queued together, or neither (_record)
            self._record("td_call", {"seat": seat, "t": t, "board": self.board, "box": box})
            return {"ok": True, "reason": None, "duplicate": False}
        if self.phase not in ("auction", "frozen"):
            return self._refuse(seat, kind, call, box, "the auction is over")
        if kind in ("alert", "call"):
            self._pass_tray(t)  # a tray due before this event is in the log before it
        if kind == "stop":
            self._record("stop", {"seat": seat, "t": t, "box": box})
            return {"ok": True, "reason": None, "duplicate": False}
        if kind == "alert":
            ev = {"t": t, "seat": seat, "alert": True}
            broken = self._alert_breaks_rules(ev)
            if broken is not None:
                # the regulations' alert rules, enforced: who alerts, the cut-off, a pair asked
                # not to alert (FSB L115) - the alert never reaches the other boxes
                why = str(broken.get("kind", "")).replace("_", " ")
                return self._refuse(seat, kind, None, box, f"{why} ({broken.get('law')})")
            return self._engine_event(ev, box)
        if kind == "undo":
            # A call once confirmed on the box is made (Law 25 applies); the box's own undo only
            # works before confirmation. An undo after confirmation calls the director.
            self._record("td_call", {"seat": seat, "t": t, "board": self.board, "box": box,
                                     "reason": "change_of_call"})
            return {"ok": True, "reason": "director called (Law 25)", "duplicate": False}
        # a call
        if not call:
            return self._refuse(seat, kind, call, box, "a call event without a call")
        ev: dict[str, Any] = {"t": t, "seat": seat, "call": call}
        if self.call_made == "taken":
            # FSB L112C: the call is made when taken from the box with visible intent. The box
            # sends a call only when it is confirmed, and its confirm is the taking (docs/tablet.md).
            ev["taken"] = True
        if stop or seat in self.stop_shown:
            ev["stop"] = True
        if self.held():
            # UNDO or the TD key on a box: nobody calls until the director has seen to it, or a
            # correction the Law still allows (L25A: before partner calls) would become impossible.
            return self._refuse(seat, kind, call, box, "the table waits for the director")
        pending = self.estate.get("pending")
        if pending:
            # The engine names the seats whose call the Law gives a meaning to while it waits
            # (acceptance by the LHO, L28B, L33); everyone else waits for the TD (L9B2).
            allowed = pending.get("may_call")
            if allowed is None:
                allowed = [{"lho": lho(pending.get("seat", "N")), "offender": pending.get("seat")}.get(pending.get("asks"))]
            if seat not in allowed:
                return self._refuse(seat, kind, call, box, "the table waits for the director")
        if self.screen is not None:
            if not self.screen.may_call(seat):
                return self._refuse(seat, kind, call, box, "the tray is on the other side of the screen")
        if hasattr(self.engine, "check"):
            # The engine says what it would refuse: every irregularity under `prevent`, and whatever
            # the policy a call inside a stop wait the profile locks (FSB L116B).
            verdict = self.engine.check(ev)
            if isinstance(verdict, dict) and (verdict.get("action") == "refuse" or self._policy() == "prevent"):
                why = str(verdict.get("kind", "irregular call")).replace("_", " ")
                law = verdict.get("law")
                return self._refuse(seat, kind, call, box, f"{why} ({law})" if law else why)
            if verdict and not isinstance(verdict, dict) and self._policy() == "prevent":
                return self._refuse(seat, kind, call, box, str(verdict))
        return self._engine_event(ev, box)

    def _alert_breaks_rules(self, ev: dict[str, Any]) -> dict[str, Any] | None:
        """The engine's verdict on an alert, tried on a copy: the flag it would raise if the
        profile's alert rules forbid this alert (a late alert is still an alert: not refused)."""
        import copy

        n = len(self.estate.get("timing", []))
        try:
            st = copy.deepcopy(self.engine).apply(ev)
        except Exception:  # the engine refuses it outright: the normal path says why
            return None
        return next((f for f in st.get("timing", [])[n:]
                     if f.get("kind") in ("alert_not_permitted", "alert_by_wrong_player")), None)

    def _policy(self) -> str | None:
        return self.estate.get("policy") or (self.session.policy if self.session else None)

    def _engine_event(self, ev: dict[str, Any], box: dict[str, Any] | None) -> dict[str, Any]:
        # Try the event on the live engine before journalling it: a refused event must not reach
        # the journal (replay would fail on it). _engine_apply rebuilds the engine on refusal.
        body = {"ev": ev, "box": box}
        try:
            with self._tx():
                self._record("event", body)
        except DiskFull:
            raise
        except Refused as exc:
            return self._refuse(ev.get("seat", ""), "call", ev.get("call"), box, str(exc))
        return {"ok": True, "reason": None, "duplicate": False}

    def _refuse(self, seat: str, kind: str, call: str | None, box: dict[str, Any] | None, reason: str) -> dict[str, Any]:
        # Journalled for the TD's record (and so a resent refused frame is recognised), no effect.
        self._record("refused", {"seat": seat, "kind": kind, "call": call, "reason": reason, "box": box})
        return {"ok": False, "reason": reason, "duplicate": False}

    def _queue_progress(self, phase: str, at: float) -> None:
        assert self.session is not None and self.board is not None
        s = self.session
        key = f"{s.event}/{s.section}/{s.table}/{s.round}/{self.board}/auction/{self.progress_seq}"
        st = self.estate
        self.outbox.enqueue("auction", key, {
            "event": s.event, "section": s.section, "table": s.table, "round": s.round, "board": self.board,
            "seq": self.progress_seq, "phase": phase,
            "calls": [{"seat": c.get("seat"), "call": c.get("call"), "alerted": bool(c.get("alerted")),
                       "stop": bool(c.get("stop")), "think": c.get("think")} for c in st.get("calls", [])],
            "irregularities": list(st.get("irregularities", [])),
            "at": datetime.datetime.fromtimestamp(at, datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        })

    def _queue_td_call(self, n: int, status: str) -> None:
        """The station's item for TD call number n of the round: the call itself when launched,
        `<its key>/resolved` when it is over (station/records.py, the tablet's form)."""
        c = self.td_calls[n - 1]
        event, section, table, round_ = c["place"]  # where the call was made, maybe a round ago
        key = f"{event}/{section}/{table}/{round_}/{c.get('board')}/td/{n}"
        payload = {"kind": "td_call", "event": event, "section": section, "table": table,
                   "round": round_, "board": c.get("board"), "seat": c.get("seat"), "t": c.get("t"),
                   "reason": c.get("reason"), "note": c.get("note"), "at": self.clock()}
        if status != "launched":
            key += "/" + status
            payload["status"] = status
        self.outbox.enqueue("td_call", key, {**payload, "key": key})

    # ------------------------------------------------------------------ the director PIN
    def check_pin(self, pin: str) -> bool:
        """True for the director's PIN (or a token from `sign_in`). A wrong PIN is journalled and
        sent to the station's director page; after a few, tries are refused until a time that
        doubles with each wrong one (False then, without looking at the PIN: `pin_state()`)."""
        try:
            self._require_pin(pin)
        except PinError:
            return False
        return True

    def sign_in(self, pin: str) -> str:
        """The director signs in on the console: a token (memory only, gone at a restart) the
        console passes instead of the PIN to the TD methods. PinError / PinLocked otherwise."""
        self._require_pin(pin)
        token = secrets.token_urlsafe(24)
        self._tokens.add(token)
        return token

    def sign_out(self, token: str | None = None) -> None:
        if token is None:
            self._tokens.clear()
        else:
            self._tokens.discard(token)

    def pin_state(self) -> dict[str, Any]:
        now = self.clock()
        until = self.pin_locked_until if self.pin_locked_until > now else None
        return {"set": bool(self.session and self.session.td_pin), "wrong_tries": self.pin_wrong,
                "locked_until": until, "wait_s": int(until - now + 0.999) if until else 0}

    def _require_pin(self, given: Any) -> None:
        if isinstance(given, str) and any(hmac.compare_digest(given, t) for t in self._tokens):
            return
        if self.session is None or not self.session.td_pin:
            raise PinError("no director PIN is set for this table yet: nothing was changed", "pin.not_set")
        now = self.clock()
        if now < self.pin_locked_until:
            raise PinLocked(self.pin_locked_until, now)  # not looked at, not counted: no guessing
        if self._pin_matches(given):
            if self.pin_wrong:
                self._record("pin_ok", {"at": now})
            return
        try:
            self._record("pin_wrong", {"at": now})
        except DiskFull:
            # Not journalled (the storage is full), but never a free guess: the lockout holds
            # in memory until the next start.
            self._unjournalled_wrong += 1
            self.pin_locked_until = max(self.pin_locked_until,
                                        now + pin.lockout_s(self.pin_wrong + self._unjournalled_wrong))
        raise PinError(key="pin.wrong", tries=self.pin_wrong + self._unjournalled_wrong)

    def _pin_matches(self, given: Any) -> bool:
        rec = self.session.td_pin if self.session else None
        if not isinstance(given, str) or not isinstance(rec, dict):
            return False
        fast = hashlib.sha256(bytes.fromhex(rec["salt"]) + given.encode()).hexdigest() if pin.valid_hash(rec) else ""
        if self._pin_fast is not None and self._pin_fast[0] == rec["hash"]:
            return hmac.compare_digest(fast, self._pin_fast[1])
        if pin.verify(given, rec):
            # a console checks the PIN at every TD action: the slow hash once per session
            self._pin_fast = (rec["hash"], fast)
            return True
        return False

    def td_decide(self, pin: str, choice: str, call: str | None = None, *, shown: list[str] | None = None,
                  stop: bool = False) -> None:
        """The TD answers the pending decision with one of its options (`call`: the replacement
        where the option needs one). `shown`: for `cancel_artificial` (2007/2017 L29C), the
        denominations the artificial call out of rotation showed, which Law 26 then uses.
        `stop`: the replacement call was made with the stop card (FSB L116B), so a jump is not
        reported as stop_missing."""
        self._require_pin(pin)
        pending = self.estate.get("pending")
        if not pending:
            raise Refused("there is no decision waiting for the director")
        ids = [o.get("id") for o in pending.get("options", [])]
        if choice not in ids:
            raise Refused(f"{choice!r} is not one of the options: {', '.join(map(str, ids))}")
        ev: dict[str, Any] = {"td": pending["kind"], "choice": choice}
        if call:
            ev["call"] = call
            if stop:
                ev["stop"] = True
        if shown is not None:
            ev["shown"] = list(shown) if isinstance(shown, list | tuple) else shown  # the engine checks it
        self._td_record(ev)

    def td_correct_call(self, pin: str, seat: str, call: str, stop: bool | None = None) -> None:
        """L25A (2007 L25A1-A4, FSB L112D; 2017 L25A1-A6): the TD lets a player replace an unintended
        call (a mis-press, reported with UNDO on the box). The engine says when it is too late.
        `stop`: whether the intended call was made with the stop card (FSB L116B); None keeps
        what the replaced call had."""
        self._require_pin(pin)
        if seat not in SEATS:
            raise Refused(f"unknown seat {seat!r}")
        if self.phase not in ("auction", "play"):
            raise Refused("a call can be corrected during the auction, or before the opening lead")
        ev: dict[str, Any] = {"td": "correct_call", "seat": seat, "call": call}
        if stop is not None:
            ev["stop"] = bool(stop)
        self._td_record(ev)

    def td_cancel_board(self, pin: str, reason: str) -> None:
        """2007 L15C: after the wrong board was bid, a call of the repeated auction differs from
        the first one: the TD cancels the board. The engine stops the auction (status
        `adjusted_score`, artificial, 2007 L15C) and the table waits until the TD awards the
        score (`td_artificial_score`). The reason is journalled with the event. Refused in 2017
        (no such rule) and while the repeated calls are the same."""
        self._require_pin(pin)
        why = self._reason(reason)
        if self.phase not in ("auction", "frozen"):
            raise Refused("the board is cancelled during the auction (2007 L15C)")
        self._td_record({"td": "cancel_board"}, reason=why)

    def _td_record(self, ev: dict[str, Any], **extra: Any) -> None:
        """Journal one TD event at the board's time now; a tray due by then passes first, so the
        events stay in time order. A refused event leaves no trace in the journal."""
        t = self._t()
        self._pass_tray(t)
        with self._tx():
            self._record("event", {"ev": {"t": t, **ev}, "box": None, **extra})

    def _td_event(self, pin: str, ev: dict[str, Any], phases: tuple[str, ...], when: str) -> None:
        """Journal one TD event for the engine; the engine refuses what the Law does not allow then
        (its message names the law), and a refused event leaves no trace in the journal."""
        self._require_pin(pin)
        if "seat" in ev and ev["seat"] not in SEATS:
            raise Refused(f"unknown seat {ev['seat']!r}")
        if self.phase not in phases:
            raise Refused(when)
        self._td_record(ev)

    def td_exposed_cards(self, pin: str, seat: str, cards: list[str], led: bool = False) -> None:
        """Law 24: the TD has found that `seat` held cards so his partner could see them (`led`: a
        card was led before the auction ended). The boxes cannot see cards: only the TD reports it."""
        self._td_event(pin, {"td": "exposed_cards", "seat": seat, "cards": list(cards), "led": bool(led)},
                       ("auction", "frozen", "play"), "cards exposed are ruled during the auction (Law 24)")

    def td_wrong_board_call(self, pin: str, seat: str) -> None:
        """2007 L17D / 2017 L15A: `seat` has called holding the cards of another board."""
        self._td_event(pin, {"td": "wrong_board_call", "seat": seat}, ("auction", "play"),
                       "a call from the wrong board is ruled during the auction (2007 L17D, 2017 L15A)")

    def td_wrong_board(self, pin: str, played_before: bool = False) -> None:
        """2007 L15C / 2017 L15B: the table is bidding a board it should not play this round;
        `played_before`: a player at the table has played it already (decides 2017 L15B1/B2)."""
        self._td_event(pin, {"td": "wrong_board", "played_before": bool(played_before)}, ("auction",),
                       "the wrong board is ruled here during the auction (2007 L15C, 2017 L15B)")

    def td_artificial_score(self, pin: str, ns: str, ew: str, law: str) -> dict[str, Any]:
        """The board cannot be played normally: the TD awards an artificial adjusted score
        (L12C2) instead of a result; it is queued like a result and the table moves on."""
        self._require_pin(pin)
        if self.session is None or self.board is None or self.phase not in ("auction", "frozen", "play", "confirm"):
            raise Refused("there is no board in play to adjust")
        rec = results.artificial_record(self.session.to_dict(), self.estate, self.board, ns, ew, law, self.clock(),
                                        self._next_revision(self.board))
        rec["td_calls"] = self._board_td_calls()
        with self._tx():
            self.outbox.enqueue("result", rec["key"], rec)
            self._record("adjusted", {"record": rec})
            self._next_board()
        return rec

    def td_correct_result(self, pin: str, board: int, tricks: int, lead: str | None = None, *,
                          reason: str | None = None, by: str = "director") -> dict[str, Any]:
        """Law 79C: the TD corrects the tricks of a result both sides agreed this round; the
        station gets a new revision of the record, saying who changed it and why."""
        self._require_pin(pin)
        why = self._reason(reason)
        previous = self._latest(board)
        rec = results.corrected_record(previous, tricks, lead, self.clock())
        rec["correction"] = {"by": str(by)[:60], "reason": why, "previous": previous["key"], "law": "L79C"}
        with self._tx():
            self.outbox.enqueue("result", rec["key"], rec)
            self._record("correction", {"record": rec})
        return rec

    def td_withdraw_result(self, pin: str, board: int, *, reason: str, by: str = "director") -> dict[str, Any]:
        """A result recorded on the wrong board (or that should not stand) is withdrawn: a new
        revision of its record marked `withdrawn`, which the scoring program sees as deleted.
        The board can then be played (chosen) again."""
        self._require_pin(pin)
        why = self._reason(reason)
        previous = self._latest(board)
        rec = results.withdrawn_record(previous, {"by": str(by)[:60], "reason": why, "previous": previous["key"]},
                                       self.clock())
        with self._tx():
            self.outbox.enqueue("result", rec["key"], rec)
            self._record("withdrawn", {"record": rec})
        return rec

    def td_move_result(self, pin: str, board: int, to_board: int, *, reason: str,
                       by: str = "director") -> dict[str, Any]:
        """The result entered for `board` was the play of `to_board` (the boards were mixed up
        at the table: 2007 L15, 2017 L15): the record on `board` is withdrawn and the same play
        is recorded on `to_board`, scored with that board's vulnerability. Both in one transaction."""
        self._require_pin(pin)
        why = self._reason(reason)
        assert self.session is not None
        if not isinstance(to_board, int) or to_board not in self.session.boards:
            raise Refused(f"board {to_board} is not one of this round's boards "
                          f"({', '.join(map(str, self.session.boards))})", "board.not_in_round", board=to_board)
        if to_board in self.played():
            raise Refused(f"board {to_board} already has a result here: withdraw it first", "board.played",
                          board=to_board)
        if to_board == self.board and self.phase in ("frozen", "play", "confirm") or (
                to_board == self.board and self.engine_events):
            raise Refused(f"board {to_board} is being bid at the table", "board.in_play", board=to_board)
        previous = self._latest(board)
        note = {"by": str(by)[:60], "reason": why, "previous": previous["key"]}
        withdrawn = results.withdrawn_record(previous, {**note, "moved_to": to_board}, self.clock())
        rec = results.moved_record(previous, to_board, self._next_revision(to_board), {**note, "moved_from": board}, self.clock())
        with self._tx():
            self.outbox.enqueue("result", withdrawn["key"], withdrawn)
            self.outbox.enqueue("result", rec["key"], rec)
            self._record("moved", {"withdrawn": withdrawn, "record": rec})
            if self.phase in ("auction",) and self.board == to_board:
                self._next_board()  # the board waiting at the table is the one just recorded
        return rec

    def _next_revision(self, board: int) -> int:
        """The revision a new record of `board` this round takes: 1, or one past the last (a
        board whose result was withdrawn or moved away and is then played again must not reuse
        the key the station already holds with the old content)."""
        return 1 + max((int(r["key"].rsplit("/", 1)[1]) for r in self.done if r["board"] == board), default=0)

    def _reason(self, reason: Any) -> str:
        if not isinstance(reason, str) or not reason.strip():
            raise Refused("say why (a few words for the scorer and the players)", "td.reason_missing")
        return reason.strip()[:200]

    def _latest(self, board: Any) -> dict[str, Any]:
        latest = [r for r in self.done if r["board"] == board]
        if not latest or latest[-1].get("withdrawn"):
            raise Refused(f"board {board} has no result at this table this round", "board.no_result", board=board)
        return latest[-1]

    # ------------------------------------------------------------------ the board on the table
    def board_choices(self) -> dict[str, Any]:
        """The round's boards, those with a result here, and the board on the table."""
        s = self.session
        return {"boards": list(s.boards) if s else [], "played": self.played(), "current": self.board}

    def choose_board(self, n: Any, pin: str | None = None) -> None:
        """The players say which board is on the table (any of the round's boards, in any order:
        shared and relayed boards). Before the first call anyone may; after it only the director
        (PIN). A board the movement does not give this table is refused before its first call
        (2007 L15, L17D; 2017 L15A, L15B)."""
        s = self.session
        if s is None:
            raise Refused("no session yet: set up the round first", "board.no_session")
        if isinstance(n, str) and n.strip().isdigit():
            n = int(n.strip())
        if isinstance(n, bool) or not isinstance(n, int) or n not in s.boards:
            raise Refused(f"board {n} is not one of this round's boards at table {s.section}{s.table} "
                          f"({', '.join(map(str, s.boards))}): check the board in the tray "
                          "(2017 L15A, 2007 L15)", "board.not_in_round", board=n,
                          boards=",".join(map(str, s.boards)))
        if n in self.played():
            raise Refused(f"board {n} already has a result at this table", "board.played", board=n)
        if self.phase == "confirm":
            raise Refused("a result is waiting for East-West: confirm it first", "board.result_waiting")
        if n == self.board:
            return
        # round_end: a board whose result was withdrawn is taken up again, nothing is under way
        started = self.phase in ("frozen", "play") or (self.phase == "auction" and bool(self.engine_events))
        if started and pin is None:
            raise Refused("the auction has started: only the director can change the board", "board.started",
                          board=self.board)
        if started:
            self._require_pin(pin)
        self._record("board", {"board": n, "started_at": self.clock(), "by": "director" if started else "players"})

    def _next_board(self) -> None:
        assert self.session is not None
        left = [b for b in self.session.boards if b not in self.played() and b != self.current]
        if left:
            self._record("board", {"board": left[0], "started_at": self.clock(), "by": None})
        else:
            self._record("round_end", {})

    def open_td_calls(self) -> list[dict[str, Any]]:
        """Director calls from the boxes of the board in play not yet attended, newest last (for
        the console; the tablet's own calls at an irregularity are the console's subject)."""
        return [c for c in self._board_td_calls()
                if not c.get("auto") and not c.get("pin") and c.get("status") != "resolved"]

    def held(self) -> bool:
        """The auction waits for the director: a box called him (TD key, or UNDO after a confirmed
        call) on the board in play, and he has not yet dismissed the call (`td_attended`)."""
        return self.phase in ("auction", "frozen") and bool(self.open_td_calls())

    def _board_td_calls(self) -> list[dict[str, Any]]:
        """Director calls made on the board in play (calls of earlier rounds are kept too)."""
        return [c for c in self.td_calls if c.get("board") == self.board and c["place"] == self._place()]

    def td_attended(self, pin: str) -> bool:
        """The director has seen to the calls from this table's boxes (he dismisses them on the
        console; signing in alone does not): the station's director page drops them and a held
        auction goes on. True if there were any."""
        self._require_pin(pin)
        if not any(not c.get("auto") and c.get("status") != "resolved" for c in self.td_calls):
            return False
        self._record("td_attended", {"t": self.clock()})
        return True

    def enter_result(self, tricks: int | None, lead: str | None = None) -> dict[str, Any]:
        """North enters tricks (and the lead). Returns the preview East-West must confirm."""
        if self.phase not in ("play", "confirm"):
            raise Refused("the result can be entered when the auction is over")
        if self.phase == "confirm":
            raise Refused("a result is already waiting for East-West to confirm")
        assert self.session is not None
        asked = self.session.setting("lead_entry")
        if asked == "none":
            lead = None  # the club does not ask for the lead (Bridgemate setting)
        tricks, lead = results.check_entry(self.estate, tricks, lead)
        if lead is None and asked in ("enter", "validate") and results.contract_of(self.estate)[0] != "PASS":
            raise Refused("enter the opening lead: the club's settings ask for it", "result.lead_missing")
        self._record("result", {"tricks": tricks, "lead": lead, "entered_at": self.clock()})
        return self.result_preview() or {}

    def result_preview(self) -> dict[str, Any] | None:
        if self.phase not in ("play", "confirm") or not self.estate:
            return None
        contract, declarer = results.contract_of(self.estate)
        tricks = self.entry["tricks"] if self.entry else None
        preview: dict[str, Any] = {
            "board": self.board,
            "contract": contract,
            "declarer": declarer,
            "vulnerability": self.estate.get("vulnerability"),
            "tricks": tricks,
            "lead": self.entry["lead"] if self.entry else None,
            "label": results.tricks_label(contract, tricks),
        }
        if self.entry is not None:
            preview["score_ns"] = results.compute_score(self.estate, tricks)
        return preview

    def ew_confirm(self, accepted: bool = True) -> dict[str, Any] | None:
        """East-West confirm (FSB 98A): the result is journalled and queued in one transaction."""
        if self.phase != "confirm" or self.entry is None or self.session is None or self.board is None:
            raise Refused("there is no result waiting for East-West")
        if not accepted:
            self._record("confirm", {"accepted": False})
            return None
        rec = results.record(
            self.session.to_dict(), self.estate, self.board, self.entry["tricks"], self.entry["lead"],
            self.entry["entered_at"], self._next_revision(self.board),
        )
        rec["td_calls"] = self._board_td_calls()
        with self._tx():
            self.outbox.enqueue("result", rec["key"], rec)
            self._record("confirm", {"accepted": True, "record": rec})
            self._next_board()
        return rec

    # ------------------------------------------------------------------ traveller (Bridgemate settings)
    def own_result(self, key: str) -> dict[str, Any] | None:
        """The table's own confirmed (or adjusted) result stored under `key`, if it is the board's
        latest and not withdrawn."""
        latest: dict[int, dict[str, Any]] = {}
        for rec in self.done:
            latest[rec["board"]] = rec
        rec = next((r for r in latest.values() if r.get("key") == key), None)
        return None if rec is None or rec.get("withdrawn") else rec

    def set_traveller(self, key: str, results: list[dict[str, Any]]) -> bool:
        """The station's results of the board this table's result `key` was on, as the I/O edge
        fetched them once the station had stored that result (2007 L16C1, 2017 L16D1: the table
        sees other results only after its own is in). Ignored (False) for a key that is not the
        table's own standing result, or when the club shows no other results."""
        s = self.session
        own = self.own_result(key)
        if s is None or own is None or s.setting("show_results") not in ("all", "round_end"):
            return False
        if not any(r.get("table") == s.table and r.get("section") == s.section for r in results):
            return False  # the station's copy lacks our own result: not the board we played
        entry = {"board": own["board"], "round": own.get("round"), "key": key, "rows": traveller.rows(results)}
        # a new dict, not an edit: the screen's thread may be reading the old one
        self.travellers = {**self.travellers, own["board"]: entry}
        return True

    def traveller_view(self) -> dict[str, Any] | None:
        """`snapshot()["traveller"]`: the last board of this round with a result and a traveller,
        when the club's `show_results` shows it now; with `score_recap` the pairs' running scores."""
        s = self.session
        if s is None or not traveller.shown(s.setting("show_results"), self.phase):
            return None
        held = self.travellers
        latest = {r["board"]: r for r in self.done}  # a withdrawn or corrected board: its last revision
        boards = [b for b, r in latest.items() if b in held and held[b]["key"] == r["key"]]
        if not boards:
            return None
        t = held[boards[-1]]
        out: dict[str, Any] = {"board": t["board"], "rows": [dict(r) for r in t["rows"]], "recap": None}
        if s.setting("score_recap"):
            lines = {b: v["rows"] for b, v in held.items()}
            out["recap"] = {"ns": traveller.running_score(lines, s.ns_pair, "NS", s.per_direction),
                            "ew": traveller.running_score(lines, s.ew_pair, "EW", s.per_direction)}
        return out

    def tick(self) -> bool:
        """Let time pass: the tray moves when due. True when what the boxes see has changed."""
        try:
            return self._pass_tray(self._t())
        except DiskFull:
            return False  # the snapshot says so; the tray passes once the journal takes it

    def _pass_tray(self, t: float) -> bool:
        """The tray passes under the screen when the screen model says it is due (FSB L114,
        2007/2017 L80B2(e)). It is journalled as the engine's `tray` event, so the engine's log
        holds every pass (a call out of rotation is ruled by the side it never left) and replay
        passes it at the same event time: the screen model moves when that event is applied. True
        when it passed."""
        scr = self.screen
        if scr is None or self.phase != "auction" or self.held():
            # held: a box called the director (TD key, UNDO after a confirmed call): the tray
            # stays, as it does while the TD rules, so a change of call is not seen across it
            return False
        due = scr.ready_at()
        if due is None or due > t:
            return False
        # not before an event already in the log, nor before the director let the table go on
        ev = {"t": max(due, self.last_t, min(self.released_t, t)), "tray": True}
        try:
            with self._tx():
                self._record("event", {"ev": ev, "box": None})
        except DiskFull:
            raise
        except Refused:
            # The engine has no tray to pass (cannot happen with the same profile): the screen
            # model still moves, so the table goes on; replay moves it at the next event.
            return scr.advance(t)
        return True

    def table_log(self, board: int | None = None) -> dict[str, Any]:
        """The board's table log (docs/table-log.md): what `python -m shared_rules replay` reads
        to rule it again. `board`: one of this round's boards played or in play (default: the
        board in play, else the last one)."""
        s = self.session
        if s is None or not self.board_events:
            raise Refused("no board has been played in this round yet", "board.none")
        n = board if board is not None else (self.current if self.current in self.board_events
                                              else list(self.board_events)[-1])
        if n not in self.board_events:
            raise Refused(f"board {n} has not been played in this round", "board.not_played", board=n)
        log: dict[str, Any] = {"profile": s.profile, "board": n}
        if s.policy is not None:
            log["policy"] = s.policy
        if s.no_alerts_by:
            log["no_alerts_by"] = list(s.no_alerts_by)
        log["table"] = {"event": s.event, "section": s.section, "table": s.table, "round": s.round}
        log["events"] = [dict(e) for e in self.board_events[n]]
        return log

    # ------------------------------------------------------------------ outputs
    def views(self) -> dict[str, dict[str, Any]]:
        return {seat: views.box_view(self, seat) for seat in SEATS}

    def tempo(self) -> list[dict[str, Any]]:
        return views.tempo_rows(self.estate)

    def next_positions(self) -> dict[str, Any] | None:
        if self.session is None:
            return None
        return movement.next_positions(self.session)

    def snapshot(self) -> dict[str, Any]:
        """Everything a screen (Kivy or text) needs to render the table, as plain data."""
        session = self.session.to_dict() if self.session else None
        if session is not None:
            session["td_pin"] = ""  # a hash is nothing to show; the next setup keeps it
        return {
            "phase": self.phase,
            "session": session,
            "board_choice": self.board_choices(),
            "delivery": self.delivery(),
            "disk_full": self.storage_error is not None,
            "storage_error": self.storage_error,
            "pin": self.pin_state(),
            "setup_defaults": self.setup_defaults(),
            "station": dict(self.station_status) if self.station_status else None,
            "board": self.board,
            "board_no": len(self.played()) + 1,  # the n-th board at this table this round
            "boards": len(self.session.boards) if self.session else 0,
            "state": self.estate,
            "screen": self.screen.to_dict() if self.screen else None,
            "result": self.result_preview(),
            "done": list(self.done),
            "next_positions": self.next_positions() if self.phase == "round_end" else None,
            "stop_shown": dict(self.stop_shown),
            "stop_wait": self.stop_wait(),
            "held": self.held(),
            "td_calls": self.open_td_calls(),
            "settings": {k: self.session.setting(k) for k in DEFAULT_SETTINGS} if self.session else None,
            "traveller": self.traveller_view(),
        }

    def delivery(self) -> dict[str, Any]:
        """The outbox as the director console shows it (refused deliveries in red)."""
        fn = getattr(self.outbox, "delivery", None)
        if fn is None:
            return {"delivered": 0, "waiting": 0, "refused": [], "last_error": None, "connected": False}
        try:
            return dict(fn())
        except Exception as exc:  # a locked or failing database: said, never a crash of the screen
            return {"delivered": 0, "waiting": 0, "refused": [], "last_error": f"outbox unreadable: {exc}",
                    "connected": False}

    def stop_wait(self) -> dict[str, Any] | None:
        """The stop wait running now (FSB L116B, 2017 L73A2 regulations): the seat that waits, the
        seconds left, and whether the profile locks that seat's box (`enforced`) or only reports."""
        st = self.estate
        until = st.get("stop_lock_until") if self.phase == "auction" else None
        if until is None or st.get("next") is None:
            return None
        remaining = round(float(until) - self._t(), 2)
        if remaining <= 0:
            return None
        return {"seat": st["next"], "remaining": remaining, "until": until,
                "enforced": st.get("stop_enforcement") == "lock"}

    def close(self) -> None:
        self.journal.close()  # checkpoints: the file alone then holds the whole journal
