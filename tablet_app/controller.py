"""The table controller: the tablet's brain, with no Kivy and no serial port in it.

Every input (session setup, a box event, a TD decision, a result, East-West's confirmation) is
validated, journalled, and only then applied to the table in memory by the reducer; a restart
replays the journal through the same reducer, so a `kill -9` at any moment comes back to exactly
the same table. The work is done by the parts in `tablet_app/control/` (one job each, listed in
its `__init__`); this class puts them together and keeps the API the screens, the link runner,
the demo and the tests use.

Threads: every input takes the controller's `lock` (the link thread's box events, the screen's
touches, the deliverer's traveller), and after each change the controller publishes an
immutable snapshot (`published`, `on_publish`) that a screen reads without any lock.
"""
from __future__ import annotations

import functools
import pathlib
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ParamSpec, TypeVar

from shared_rules import profiles
from shared_rules.records import PlayerNumbers
from shared_rules.table import Table
from shared_rules.types import SEATS, Finding
from tablet_app import pin_lockout, views
from tablet_app.control import boards, parts, td_calls
from tablet_app.control.auction import BoxReply, ScreenView, StopWait
from tablet_app.control.boards import BoardChoices
from tablet_app.control.director_pin import PinCheck, PinState
from tablet_app.control.director_session import DirectorState
from tablet_app.control.errors import DiskFull, PinError, PinLocked, Refused
from tablet_app.control.player_numbers import PlayerEntry, PlayerLookup
from tablet_app.control.result_entry import Preview, TravellerView
from tablet_app.control.round_close import Unfinished
from tablet_app.control.setup import SetupDefaults, StationCheck, StationStatus
from tablet_app.control.snapshot import Published, Snapshot, build
from tablet_app.control.state import (
    Engine,
    EngineEvent,
    EngineFactory,
    EngineState,
    Entry,
    Phase,
    ProfileLoader,
    ResultRecord,
    Rules,
    TdCall,
    Tray,
)
from tablet_app.control.station_feed import Delivery
from tablet_app.control.storage_episode import StorageSince
from tablet_app.journal import Journal, JournalDamaged, JournalError
from tablet_app.outbox import Outbox, check_rows
from tablet_app.pin_lockout import PinLockout
from tablet_app.session import Session

__all__ = ["Controller", "Refused", "PinError", "PinLocked", "DiskFull"]

P = ParamSpec("P")
R = TypeVar("R")


def _input(fn: Callable[P, R]) -> Callable[P, R]:
    """An input: taken under the controller's lock (one thread at a time changes the table)."""

    @functools.wraps(fn)
    def locked(*args: P.args, **kw: P.kwargs) -> R:
        with args[0].lock:  # type: ignore[attr-defined]
            return fn(*args, **kw)

    return locked


def _default_engine(profile: str, board: int, policy: str | None, no_alerts_by: tuple[str, ...] = (),
                    screens: bool | None = None) -> Engine:
    return Table(profile, board, policy, no_alerts_by, screens)


class Controller:
    def __init__(
        self,
        db_path: str | pathlib.Path,
        *,
        clock: Callable[[], float] = time.time,
        engine_factory: EngineFactory = _default_engine,
        profile_loader: ProfileLoader = profiles.load,
        outbox_factory: Callable[[Any], Outbox] = Outbox,
        club_profile: str | None = None,
        boot_clock: Callable[[], float] = pin_lockout.boot_clock,
        boot_id: Callable[[], str | None] = pin_lockout.boot_id,
    ):
        """`clock` is the wall clock (the journal's times); `boot_clock` and `boot_id` are what
        the PIN's lockout and the director's sitting run on (tablet_app/pin_lockout.py): setting
        the tablet's date and time does not move them."""
        self.clock = clock
        self.engine_factory = engine_factory
        self.profile_loader = profile_loader
        self.db_path = str(db_path)
        self.lock = threading.RLock()
        self.journal = Journal(db_path)
        try:
            self.outbox = outbox_factory(self.journal.conn)
        except Exception as exc:
            self.journal.conn.close()
            raise JournalDamaged(self.db_path, None, f"its outbox cannot be read ({type(exc).__name__}: {exc})") from exc
        self.listeners: list[Callable[[], None]] = []  # called after every committed input
        lockout = PinLockout(self.db_path + ".pinlock", boot_clock, boot_id)
        p = self._p = parts.assemble(self.journal, self.outbox, Rules(engine_factory, profile_loader), clock,
                                     self.listeners, lockout)
        self._st = p.st
        if club_profile:
            self.set_club_defaults(profile=club_profile)
        try:
            p.tx.replay()
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
        lockout.restore(p.st.pin_wrong)  # the wrong tries the journal holds, and those it could not
        p.storage.remember()
        p.tx.resume_storage_episode()
        p.publisher.publish()

    @classmethod
    def recover(cls, db_path: str | pathlib.Path, **kw: Any) -> Controller:
        """The TD's way on after JournalDamaged: the damaged file is kept aside, the table starts
        again from the records before the damage (the board being played when it happened may
        need replaying or the station's copy: `station_client.fetch_board_results`)."""
        from tablet_app.journal import recover

        aside, kept = recover(db_path)
        ctl = cls(db_path, **kw)
        ctl._st.log.append({"what": "recovered", "kept": kept, "damaged_file": str(aside)})
        return ctl

    # ------------------------------------------------------------------ the table's state (read-only)
    @property
    def session(self) -> Session | None:
        return self._st.session

    @property
    def phase(self) -> Phase:
        return self._st.phase

    @property
    def board(self) -> int | None:
        """The board in play (None at setup and round end)."""
        return self._st.board

    @property
    def current(self) -> int | None:
        """The board on the table."""
        return self._st.current

    @property
    def estate(self) -> EngineState:
        """The engine's state."""
        return self._st.estate

    @property
    def engine(self) -> Engine | None:
        return self._st.engine

    @property
    def engine_events(self) -> list[EngineEvent]:
        return self._st.engine_events

    @property
    def board_events(self) -> dict[int, list[EngineEvent]]:
        return self._st.board_events

    @property
    def tray(self) -> Tray | None:
        """Behind screens."""
        return self._st.tray

    @property
    def entry(self) -> Entry | None:
        return self._st.entry

    @property
    def done(self) -> list[ResultRecord]:
        return self._st.done

    @property
    def stop_shown(self) -> dict[str, float]:
        return self._st.stop_shown

    @property
    def log(self) -> list[dict[str, Any]]:
        return self._st.log

    @property
    def td_calls(self) -> list[TdCall]:
        return self._st.td_calls

    @property
    def last_t(self) -> float:
        return self._st.last_t

    @property
    def pin_wrong(self) -> int:
        return self._st.pin_wrong

    @property
    def screen(self) -> ScreenView | None:
        """Behind screens: the tray, from the engine (`snapshot()["screen"]`)."""
        return self._p.auction.screen()

    def played(self) -> list[int]:
        """Boards of this round with a result at this table (a withdrawn one is not played)."""
        return self._st.played()

    def board_time(self) -> float:
        """Seconds since the board's start (never before its last event)."""
        return self._p.auction.board_time()

    # ------------------------------------------------------------------ storage, station, club
    @property
    def storage_error(self) -> str | None:
        return self._p.storage.error

    @property
    def storage_since(self) -> StorageSince | None:
        """Where the table stood when the storage began refusing writes (None when it takes them)."""
        return self._p.storage.since

    @property
    def storage_listeners(self) -> list[Callable[[], None]]:
        """Called when a storage episode begins and ends (`outbox.Deliverer.watch_storage`)."""
        return self._p.storage.listeners

    @property
    def club(self) -> dict[str, Any]:
        return self._p.setup.club

    @property
    def station_check(self) -> StationCheck | None:
        """Checks a typed-in setup against the station before its first board
        (`station_client.station_check`); None without a station."""
        return self._p.setup.station_check

    @station_check.setter
    def station_check(self, check: StationCheck | None) -> None:
        self._p.setup.station_check = check

    @property
    def station_status(self) -> StationStatus | None:
        return self._p.setup.station_status

    @station_status.setter
    def station_status(self, status: StationStatus | None) -> None:
        with self.lock:
            self._p.setup.station_status = status
            self._p.publisher.changed()

    @property
    def travellers(self) -> dict[int, Any]:
        return self._p.results.travellers

    # ------------------------------------------------------------------ setup
    @_input
    def setup(self, session: dict[str, Any] | Session) -> None:
        """Start a round: the setup is checked (in the TD's words, SetupError with a key for the
        screen), completed with the club's regulations and PIN, checked against the station when
        there is one (`station_check`), then journalled with its first board."""
        self._p.setup.setup(session)

    @_input
    def next_round(self, session: Session) -> None:
        """The players move on (no PIN): after the last board of the round, to the next round
        of the movement once they have confirmed its pairs (`round_pairs`). Refused with a key
        for the screen when it is the director's (TableSetup.next_round)."""
        self._p.setup.next_round(session)

    @_input
    def td_end_round(self, pin: str, session: Session | None = None, leave_ruling: bool = False) -> None:
        """The director ends the round now (PIN or token) and, with `session`, starts the
        table's next round in the same transaction (its round item `by: director`); a board in
        play and the boards not played are left without a result from this table
        (`round_unfinished`, `control/round_close.py`). A ruling not finished is left only with
        `leave_ruling` (else refused, `round.ruling_pending`). Refused with a key for the screen."""
        self._p.rounds.end(pin, session, leave_ruling)

    def round_unfinished(self) -> Unfinished | None:
        """The round's boards the director's end would leave without a result (for his confirmation)."""
        with self.lock:
            return self._p.rounds.unfinished()

    @_input
    def set_club_defaults(self, **values: Any) -> None:
        """What the club set: `profile` (regulations), `director_pin` (`{"algorithm": "station"}`,
        or digits, hashed here), `director_grace_s` (the console's grace, 0-120 s: SetupError
        otherwise). Used by the next setup that does not give its own; the grace at once."""
        self._p.setup.set_club_defaults(**values)
        self._p.publisher.changed()

    def setup_defaults(self) -> SetupDefaults:
        return self._p.setup.defaults()

    # ------------------------------------------------------------------ the boxes
    @_input
    def box_event(self, seat: str, kind: str, call: str | None = None, seq: int | None = None,
                  box_ms: int | None = None, stop: bool = False, epoch: int | None = None) -> BoxReply:
        """Feed one event from a box. Returns {"ok": bool, "reason": str | None, "duplicate": bool}
        and, when the storage refused it, "retry": True (nothing changed; feed it again, as the
        box re-sends it, once there is space)."""
        return self._p.auction.box_event(seat, kind, call, seq, box_ms, stop, epoch)

    @_input
    def tick(self) -> bool:
        """Let time pass: the tray moves when due. True when what the boxes see has changed."""
        return self._p.auction.tick()

    def refresh_countdowns(self) -> Published:
        """The latest snapshot, published again if it counts down with time alone (a stop wait's
        seconds, a PIN lockout's): for a screen's clock, which takes no lock otherwise."""
        if self._p.publisher.running():
            with self.lock:
                self._p.publisher.publish()
        return self._p.publisher.latest

    def batch(self) -> Any:
        """Several inputs published as one snapshot at the end (`with ctl.lock, ctl.batch(): ...`)."""
        return self._p.publisher.batch()

    # ------------------------------------------------------------------ the board on the table
    def board_choices(self) -> BoardChoices:
        return self._p.boards.choices()

    @_input
    def choose_board(self, n: Any, pin: str | None = None) -> None:
        """The board on the table: any of the round's boards, in any order; before the first call
        anyone may say, after it only the director (PIN) (2007 L15, L17D; 2017 L15A, L15B)."""
        self._p.boards.choose(n, pin)

    # ------------------------------------------------------------------ player numbers (docs/tablet.md)
    @property
    def player_lookup(self) -> PlayerLookup | None:
        """Looks member numbers up at the station (`station_client.player_lookup`); None without one."""
        return self._p.players.lookup

    @player_lookup.setter
    def player_lookup(self, lookup: PlayerLookup | None) -> None:
        self._p.players.lookup = lookup

    @_input
    def enter_player_numbers(self, numbers: dict[str, Any], pin: str | None = None) -> PlayerEntry:
        """Seat -> member number; the names the station has for them come back for confirmation."""
        return self._p.players.enter(numbers, pin)

    @_input
    def confirm_player_numbers(self) -> PlayerNumbers:
        return self._p.players.confirm()

    @_input
    def cancel_player_numbers(self) -> None:
        self._p.players.cancel()

    def player_numbers(self) -> dict[str, dict[str, Any]]:
        """This round's confirmed numbers: seat -> {number, name}."""
        return self._p.players.entered()

    # ------------------------------------------------------------------ the director PIN
    @property
    def pin_check(self) -> PinCheck | None:
        """Asks the station for the club's PIN (`station_client.pin_checker`); None without a station."""
        return self._p.pin.pin_check

    @pin_check.setter
    def pin_check(self, check: PinCheck | None) -> None:
        self._p.pin.pin_check = check

    def check_pin(self, pin: str) -> bool:
        """True for the director's PIN (or the sitting's token). A wrong PIN is journalled and
        sent to the station's director page; after a few, tries are refused until a time that
        doubles with each wrong one (False then, without looking at the PIN: `pin_state()`).
        The station, when it checks the PIN, is asked without holding the controller's lock."""
        verdict = self._ask_station(pin)
        with self.lock:
            try:
                return self._p.pin.check(pin, verdict)
            finally:
                self._p.publisher.changed()

    def sign_in(self, pin: str) -> str:
        """The director sits down at the console: a token (memory only, gone at a restart) the
        console passes instead of the PIN to the TD methods, until he leaves it
        (`control/director_session.py`). PinError / PinLocked otherwise."""
        verdict = self._ask_station(pin)
        with self.lock:
            try:
                return self._p.pin.sign_in(pin, verdict)
            finally:
                self._p.publisher.changed()

    def _ask_station(self, pin: str) -> Any:
        with self.lock:
            ask = self._p.pin.station_question(pin)
        return ask() if ask is not None else None

    @_input
    def sign_out(self, token: str | None = None, grace: bool = True) -> None:
        """The console is left: within the club's grace (`director()["grace_s"]`) `resume` opens
        it again without the PIN; `grace=False` ends the sitting now (a timeout, the app in the
        background)."""
        self._p.pin.sessions.leave(token, grace)
        self._p.publisher.changed()

    @_input
    def resume(self, token: str | None) -> bool:
        """The console opens again: True (signed in, no PIN) if the sitting is on or within its grace."""
        ok = self._p.pin.sessions.resume(token, self._p.pin.context())
        self._p.publisher.changed()
        return ok

    @_input
    def director_touch(self, token: str | None) -> None:
        """The director touched the console: the idle sign-out's time starts again."""
        self._p.pin.sessions.touch(token)

    def director(self) -> DirectorState:
        """The console's sitting: `signed_in`, `grace_s` (counting down after he left), `grace_setting`.
        A sitting that ended by itself (idle) is published, for the console to close."""
        with self.lock:
            state = self._p.pin.director()
            if state["signed_in"] != (self._p.publisher.latest.get("director") or {}).get("signed_in", False):
                self._p.publisher.changed()
            return state

    def pin_state(self) -> PinState:
        return self._p.pin.state()

    # ------------------------------------------------------------------ director calls
    def open_td_calls(self) -> list[TdCall]:
        """Director calls from the boxes of the board in play not yet attended, newest last."""
        return td_calls.open_calls(self._st)

    def held(self) -> bool:
        """The auction waits for the director: a box called him on the board in play, and he has
        not yet dismissed the call (`td_attended`)."""
        return td_calls.held(self._st)

    @_input
    def td_attended(self, pin: str) -> bool:
        """The director has seen to the calls from this table's boxes: the station's director page
        drops them and a held auction goes on. True if there were any."""
        return self._p.tools.attended(pin)

    # ------------------------------------------------------------------ director rulings (docs/tablet.md)
    @_input
    def td_decide(self, pin: str, choice: str, call: str | None = None, *, shown: list[str] | None = None,
                  stop: bool = False) -> None:
        self._p.tools.decide(pin, choice, call, shown=shown, stop=stop)

    @_input
    def td_correct_call(self, pin: str, seat: str, call: str, stop: bool | None = None) -> None:
        self._p.tools.correct_call(pin, seat, call, stop)

    @_input
    def td_cancel_board(self, pin: str, reason: str) -> None:
        self._p.tools.cancel_board(pin, reason)

    @_input
    def td_exposed_cards(self, pin: str, seat: str, cards: list[str], led: bool = False) -> None:
        """Law 24: the TD has found that `seat` held cards so his partner could see them (`led`: a
        card was led before the auction ended). The boxes cannot see cards: only the TD reports it."""
        self._p.tools.event(pin, {"td": Finding.EXPOSED_CARDS, "seat": seat, "cards": list(cards), "led": bool(led)},
                          ("auction", "frozen", "play"), "cards exposed are ruled during the auction (Law 24)")

    @_input
    def td_wrong_board_call(self, pin: str, seat: str) -> None:
        """2007 L17D / 2017 L15A: `seat` has called holding the cards of another board."""
        self._p.tools.event(pin, {"td": Finding.WRONG_BOARD_CALL, "seat": seat}, ("auction", "play"),
                          "a call from the wrong board is ruled during the auction (2007 L17D, 2017 L15A)")

    @_input
    def td_wrong_board(self, pin: str, played_before: bool = False) -> None:
        """2007 L15C / 2017 L15B: the table is bidding a board it should not play this round;
        `played_before`: a player at the table has played it already (decides 2017 L15B1/B2)."""
        self._p.tools.event(pin, {"td": Finding.WRONG_BOARD, "played_before": bool(played_before)}, ("auction",),
                          "the wrong board is ruled here during the auction (2007 L15C, 2017 L15B)")

    @_input
    def td_artificial_score(self, pin: str, ns: str, ew: str, law: str) -> ResultRecord:
        return self._p.tools.artificial_score(pin, ns, ew, law)

    @_input
    def td_assigned_score(self, pin: str, board: int, ns: Sequence[Mapping[str, Any]],
                          ew: Sequence[Mapping[str, Any]] | None = None, *, reason: str | None = None,
                          by: str = "director") -> ResultRecord:
        """Law 12C1: the TD's assigned (one outcome) or weighted (several, in percent adding up to
        100) adjusted score for `board`, for both sides or (`ew`) each side apart; the board in
        play, or one with a result agreed this round (then `reason`). Each outcome is an
        `assigned.Outcome`: tablet_app/assigned.py."""
        return self._p.tools.assigned_score(pin, board, ns, ew, reason=reason, by=by)

    @_input
    def td_correct_result(self, pin: str, board: int, tricks: int, lead: str | None = None, *,
                          reason: str | None = None, by: str = "director") -> ResultRecord:
        return self._p.tools.correct_result(pin, board, tricks, lead, reason=reason, by=by)

    @_input
    def td_withdraw_result(self, pin: str, board: int, *, reason: str, by: str = "director") -> ResultRecord:
        return self._p.tools.withdraw_result(pin, board, reason=reason, by=by)

    @_input
    def td_move_result(self, pin: str, board: int, to_board: int, *, reason: str,
                       by: str = "director") -> ResultRecord:
        return self._p.tools.move_result(pin, board, to_board, reason=reason, by=by)

    # ------------------------------------------------------------------ the result and the traveller
    @_input
    def enter_result(self, tricks: int | None, lead: str | None = None) -> Preview:
        """North enters tricks (and the lead). Returns the preview East-West must confirm."""
        return self._p.results.enter(tricks, lead)

    def result_preview(self) -> Preview | None:
        return self._p.results.preview()

    @_input
    def ew_confirm(self, accepted: bool = True) -> ResultRecord | None:
        """East-West confirm (FSB 98A): the result is journalled and queued in one transaction."""
        return self._p.results.confirm(accepted)

    def own_result(self, key: str) -> ResultRecord | None:
        return self._p.results.own_result(key)

    @_input
    def set_traveller(self, key: str, results: list[dict[str, Any]]) -> bool:
        """The station's results of the board this table's result `key` was on, as the I/O edge
        fetched them once the station had stored that result (2007 L16C1, 2017 L16D1: the table
        sees other results only after its own is in). Ignored (False) for a key that is not the
        table's own standing result, or when the club shows no other results."""
        taken = self._p.results.set_traveller(key, results)
        if taken:
            self._p.publisher.changed()
        return taken

    def traveller_view(self) -> TravellerView | None:
        return self._p.results.traveller_view()

    # ------------------------------------------------------------------ outputs
    def table_log(self, board: int | None = None) -> dict[str, Any]:
        """The board's table log (docs/table-log.md): what `python -m shared_rules replay` reads
        to rule it again. `board`: one of this round's boards played or in play (default: the
        board in play, else the last one)."""
        return boards.table_log(self._st, board)

    def views(self) -> dict[str, dict[str, Any]]:
        return {seat: views.box_view(self, seat) for seat in SEATS}

    def tempo(self) -> list[dict[str, Any]]:
        return views.tempo_rows(self._st.estate)

    def next_positions(self) -> dict[str, Any] | None:
        if self._st.session is None:
            return None
        from tablet_app import movement

        return movement.next_positions(self._st.session)

    def stop_wait(self) -> StopWait | None:
        """The stop wait running now (FSB L116B, 2017 L73A2 regulations): the seat that waits, the
        seconds left, and whether the profile locks that seat's box (`enforced`) or only reports."""
        return self._p.auction.stop_wait()

    @_input
    def delivery(self) -> Delivery:
        """The outbox as the director console shows it (refused deliveries in red)."""
        return self._p.feed.delivery()

    @_input
    def snapshot(self) -> Snapshot:
        """Everything a screen (Kivy or text) needs to render the table, as plain data, now."""
        return build(self._p)

    @property
    def published(self) -> Published:
        """The latest snapshot the controller published: read it from any thread, without a lock."""
        return self._p.publisher.latest

    @property
    def on_publish(self) -> list[Callable[[Published], None]]:
        """Called with each new snapshot, on the thread that made the change."""
        return self._p.publisher.subscribers

    def close(self) -> None:
        self.journal.close()  # checkpoints: the file alone then holds the whole journal

