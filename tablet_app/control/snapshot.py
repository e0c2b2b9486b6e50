"""What a screen renders, and how it reaches a screen on another thread.

`Snapshot` is everything a screen (Kivy or text) needs to render the table, as plain data. The
controller publishes one after each change (`Publisher.changed`, at the end of every input): a
new mapping that nobody changes afterwards, handed to the subscribers (the Kivy app keeps the
latest and redraws from it on its own thread). A screen therefore never reads the controller while
another thread changes it, and takes no lock to read.

Nested values are the controller's own only where it never changes them after building them (the
engine's state, result records, director calls: each change makes a new one).
"""
from __future__ import annotations

import contextlib
import types
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, TypedDict

from tablet_app import movement, screen_view
from tablet_app.control import td_calls
from tablet_app.control.auction import StopWait
from tablet_app.control.boards import BoardChoices
from tablet_app.control.director_pin import PinState
from tablet_app.control.director_session import DirectorState
from tablet_app.control.player_numbers import PlayerEntry
from tablet_app.control.result_entry import Preview, TravellerView
from tablet_app.control.setup import SetupDefaults, StationStatus
from tablet_app.control.state import EngineState, ResultRecord, TableState, TdCall
from tablet_app.control.station_feed import Delivery
from tablet_app.session import DEFAULT_SETTINGS, Session

if TYPE_CHECKING:
    from tablet_app.control.parts import Parts


class Snapshot(TypedDict):
    phase: str
    session: dict[str, Any] | None  # Session.to_dict(), without the PIN's hash
    board_choice: BoardChoices
    delivery: Delivery
    disk_full: bool
    storage_error: str | None
    pin: PinState
    director: DirectorState  # the console's sitting: signed in, the grace counting down
    setup_defaults: SetupDefaults
    station: StationStatus | None
    board: int | None
    board_no: int  # the n-th board at this table this round
    boards: int
    state: EngineState  # with screens: what all four may see (tablet_app/screen_view.py)
    director_state: EngineState  # the whole table, for the director's page
    screen: dict[str, Any] | None
    result: Preview | None
    done: list[ResultRecord]
    next_positions: dict[str, Any] | None
    stop_shown: dict[str, float]
    stop_wait: StopWait | None
    held: bool
    td_calls: list[TdCall]
    settings: dict[str, Any] | None
    traveller: TravellerView | None
    players: PlayersView


class PlayersView(TypedDict):
    """Player numbers (control/player_numbers.py): an entry waiting for the players' confirmation,
    this round's confirmed numbers by seat, and whether the players may enter them now."""

    waiting: PlayerEntry | None
    entered: dict[str, dict[str, Any]]
    may_enter: bool


Published = Mapping[str, Any]  # a Snapshot that cannot be changed


class SessionView:
    """`Session.to_dict()` (a deep copy, most of a snapshot's cost) once per session: a Session is
    frozen, so the same object gives the same dict."""

    def __init__(self) -> None:
        self._of: Session | None = None
        self._view: dict[str, Any] = {}

    def __call__(self, s: Session | None) -> dict[str, Any] | None:
        if s is None:
            return None
        if s is not self._of:
            view = s.to_dict()
            view["td_pin"] = ""  # a hash is nothing to show; the next setup keeps it
            self._of, self._view = s, view
        return dict(self._view)


def build(p: Parts) -> Snapshot:
    """The table now, from every part."""
    st, s = p.st, p.st.session
    session = p.session_view(s)
    station = p.setup.station_status
    return {
        "phase": st.phase,
        "session": session,
        "board_choice": p.boards.choices(),
        "delivery": p.feed.delivery(),
        "disk_full": p.storage.error is not None,
        "storage_error": p.storage.error,
        "pin": p.pin.state(),
        "director": p.pin.director(),
        "setup_defaults": p.setup.defaults(),
        "station": {**station} if station else None,
        "board": st.board,
        "board_no": len(st.played()) + 1,  # the n-th board at this table this round
        "boards": len(s.boards) if s else 0,
        # with screens the tablet shows only what all four may see (tablet_app/screen_view.py);
        # the director's page reads the whole table
        "state": _public(st) if st.screen is not None and st.estate else st.estate,
        "director_state": st.estate,
        "screen": st.screen.to_dict() if st.screen else None,
        "result": p.results.preview(),
        "done": list(st.done),
        "next_positions": movement.next_positions(s) if s is not None and st.phase == "round_end" else None,
        "stop_shown": dict(st.stop_shown),
        "stop_wait": p.auction.stop_wait(),
        "held": td_calls.held(st),
        "td_calls": td_calls.open_calls(st),
        "settings": {k: s.setting(k) for k in DEFAULT_SETTINGS} if s else None,
        "traveller": p.results.traveller_view(),
        "players": {"waiting": p.players.pending,  # replaced, never changed: a new entry is a new dict
                    "entered": p.players.entered(), "may_enter": p.players.may_enter_unaided()},
    }


def _public(st: TableState) -> EngineState:
    screen = st.screen
    assert screen is not None
    seen = min(len(screen.visible_calls(pair[0])) for pair in screen.screenmates)
    return screen_view.public_state(st.estate, seen)


class Publisher:
    def __init__(self, build: Callable[[], Snapshot]):
        self.build = build
        self.subscribers: list[Callable[[Published], None]] = []
        self.latest: Published = types.MappingProxyType({})
        self._held = 0
        self._stale = False

    def changed(self) -> None:
        """The table may have changed: publish now, or at the end of the batch."""
        if self._held:
            self._stale = True
        else:
            self.publish()

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """Several inputs, one snapshot at the end (the link thread's batch of box events, whose
        new views go to the boxes first)."""
        self._held += 1
        try:
            yield
        finally:
            self._held -= 1
            if not self._held and self._stale:
                self.publish()

    def publish(self) -> Published:
        self._stale = False
        snap = types.MappingProxyType(dict(self.build()))
        self.latest = snap
        for fn in list(self.subscribers):
            fn(snap)
        return snap

    def running(self) -> bool:
        """The latest snapshot counts down with time alone (a stop wait, a PIN lockout, the
        director's grace after he left the console)."""
        snap = self.latest
        return (bool(snap.get("stop_wait")) or bool((snap.get("pin") or {}).get("locked_until"))
                or bool((snap.get("director") or {}).get("grace_s")))
