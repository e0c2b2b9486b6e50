"""The table as the journal folds it, and the types the controller's parts hand each other.

`TableState` is what more than one part reads: the session, the phase, the board in play and its
engine, the results of the round, the log, the director calls, the PIN lockout. It is never
stored: the reducer (`reducer.py`) rebuilds it from the journal at every start, and the live
path changes it only through the same reducer, after the record is journalled.

`Engine` is what the controller asks of the rules engine (`shared_rules.table.Table`), nothing
more; `Rules` is where the table's engines and regulations come from.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Literal, NotRequired, Protocol, TypedDict

from shared_rules.profiles import Profile, with_screens
from shared_rules.screens import Screen
from tablet_app.session import Session

SEATS = ("N", "E", "S", "W")
Phase = Literal["setup", "auction", "frozen", "play", "confirm", "round_end"]
EngineEvent = dict[str, Any]  # docs/table-log.md: {"t", "seat", "call"}, {"t", "td", ...}, {"t", "tray"}
EngineState = dict[str, Any]  # `Engine.state()`: docs/rules-engine.md
ResultRecord = dict[str, Any]  # docs/interfaces.md section 3, built by tablet_app.results


def lho(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 1) % 4]


class Engine(Protocol):
    """The rules engine of one board, as the controller uses it (`shared_rules.table.Table`)."""

    def apply(self, event: EngineEvent) -> EngineState:
        """Take one event and return the new state; a refused event raises and changes nothing."""

    def take(self, event: EngineEvent) -> None:
        """`apply` without building the state (a replay builds it once, when it is read)."""

    def check(self, event: EngineEvent) -> dict[str, Any] | None:
        """What a call would be, without changing anything: None for a regular call, else
        {"kind", "law", "seat", "call", "action"} ("action": "refuse" or "record")."""

    def state(self) -> EngineState: ...

    def status(self) -> str: ...

    def irregularity_count(self) -> int: ...

    def irregularities_since(self, n: int) -> list[dict[str, Any]]: ...


EngineFactory = Callable[[str, int, str | None, tuple[str, ...], bool | None], Engine]
ProfileLoader = Callable[[str], Profile]


@dataclasses.dataclass(frozen=True)
class Rules:
    """Where the table's engines and regulations come from (the controller's factories)."""

    engine_factory: EngineFactory
    profile_loader: ProfileLoader

    def engine(self, s: Session, board: int) -> Engine:
        # one place for what the engine is built from, so a rebuild can never forget a setting
        return self.engine_factory(s.profile, board, s.policy, s.no_alerts_by, s.screens)

    def profile(self, s: Session) -> Profile:
        """The session's regulation as its table plays it: screens as the organiser set them."""
        return with_screens(self.profile_loader(s.profile), s.screens)


class BoxId(TypedDict):
    """A box event's identity (protocol/SPEC.md section 4): a resent event is recognised by it."""

    seat: str
    seq: int
    box_ms: int
    epoch: NotRequired[int]  # journals from before box epochs have none


BoxKey = tuple[str, int, int, int]


def box_key(box: BoxId) -> BoxKey:
    return (box["seat"], box.get("epoch", 0), box["seq"], box["box_ms"])


class TdCall(TypedDict, total=False):
    """A call for the director: a box's TD key or UNDO, the table's own at an irregularity
    (`auto`), a wrong PIN (`pin`). `place` is [event, section, table, round] where it was made."""

    seat: str | None
    t: float | None
    board: int | None
    box: BoxId | None
    reason: str | None
    note: str
    auto: bool
    pin: bool
    place: list[Any]
    status: str  # "resolved" once it is over


class Entry(TypedDict):
    """The tricks and lead North entered, waiting for East-West."""

    tricks: int | None
    lead: str | None
    entered_at: float


def _list() -> Any:
    return dataclasses.field(default_factory=list)


def _dict() -> Any:
    return dataclasses.field(default_factory=dict)


@dataclasses.dataclass(eq=False)
class TableState:
    session: Session | None = None
    phase: Phase = "setup"
    current: int | None = None  # the board on the table (chosen, in any order)
    board_started: float = 0.0  # wall clock of the board's start: board time is seconds since
    engine: Engine | None = None
    engine_events: list[EngineEvent] = _list()
    board_events: dict[int, list[EngineEvent]] = _dict()  # board -> its engine events, this round
    call_made: str = "confirmed"  # the profile's FSB L112C rule for box calls
    screen: Screen | None = None
    entry: Entry | None = None  # tricks/lead typed by North, awaiting E-W
    done: list[ResultRecord] = _list()  # this round's result records, every revision in order
    seen_box: set[BoxKey] = dataclasses.field(default_factory=set)
    stop_shown: dict[str, float] = _dict()  # seat -> board time of the stop card not yet used
    log: list[dict[str, Any]] = _list()  # what happened, for the TD and the headless demo
    td_calls: list[TdCall] = _list()  # every call of the session: numbered from 1 for the station
    last_t: float = 0.0
    released_t: float = 0.0  # board time the director last dismissed the boxes' calls (the tray waits till then)
    progress_seq: int = 0  # "auction" items queued for the board in play
    progress_of: dict[int, int] = _dict()  # ... per board: a board left and taken up again goes on counting
    pin_wrong: int = 0  # wrong PINs in a row the journal holds (the lockout itself: pin_lockout.py)
    # player numbers confirmed at the table, every round of the session (player_numbers.py)
    player_entries: list[Any] = _list()
    # The engine's state as of its last event; while replaying it is built on first read.
    estate_built: EngineState = _dict()
    estate_stale: bool = False

    def reset(self, keep: tuple[str, ...] = ()) -> None:
        """Back to an empty table, keeping the named fields (in place: every part holds this object)."""
        fresh = TableState()
        for f in dataclasses.fields(self):
            if f.name not in keep:
                setattr(self, f.name, getattr(fresh, f.name))

    @property
    def estate(self) -> EngineState:
        if self.estate_stale:
            assert self.engine is not None
            self.estate_built, self.estate_stale = self.engine.state(), False
        return self.estate_built

    @estate.setter
    def estate(self, state: EngineState) -> None:
        self.estate_built, self.estate_stale = state, False

    @property
    def board(self) -> int | None:
        if self.session is None or self.phase in ("setup", "round_end"):
            return None
        return self.current

    def place(self) -> list[Any]:
        s = self.session
        assert s is not None
        return [s.event, s.section, s.table, s.round]

    def latest_results(self) -> dict[int, ResultRecord]:
        """Each board's latest result record this round (a withdrawn one included)."""
        return {r["board"]: r for r in self.done}

    def played(self) -> list[int]:
        """Boards of this round with a result at this table (a withdrawn one is not played)."""
        latest = self.latest_results()
        order = list(self.session.boards) if self.session else []
        return [b for b in order if b in latest and not latest[b].get("withdrawn")]

    def board_time(self, now: float) -> float:
        """Seconds since the board's start, never before the last event in its log."""
        return max(round(now - self.board_started, 2), self.last_t)
