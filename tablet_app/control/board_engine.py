"""The rules engine of the board in play: built when the board starts, fed each event, rebuilt
untouched when it refuses one, and the table's phase read from its status.

The engine (`shared_rules.table.Table`) is the single source of truth for what the Laws say; this
module only keeps it in step with the journal. Replaying, an event is folded without building the
engine's whole state (`Engine.take`) unless a screen model must observe every state.
"""
from __future__ import annotations

from shared_rules import boards as board_rules
from shared_rules.screens import Screen, screenmates_of, tray_delay, uses_screens
from tablet_app.control.errors import Refused
from tablet_app.control.reducer import Fold
from tablet_app.control.state import EngineEvent, TableState

DEFAULT_TRAY_DELAY_S = 15.0  # WBF Code of Practice: 15 s or less on a side carries no implication


def start(f: Fold) -> None:
    """A new engine for the board on the table (a board taken up again starts a new auction)."""
    st = f.st
    assert st.session is not None and st.board is not None
    st.engine = f.rules.engine(st.session, st.board)
    if f.replaying:
        st.estate_stale = True  # built when read (a replayed board's state is mostly never read)
    else:
        st.estate = st.engine.state()
    st.engine_events = []
    st.board_events.pop(st.board, None)  # the board's new auction is its latest
    st.board_events[st.board] = st.engine_events
    st.stop_shown = {}
    profile = f.rules.profile(st.session)  # screens as the organiser set them for this table
    st.call_made = profile.call_made
    st.screen = None
    if uses_screens(profile):
        delay = st.session.tray_delay_s
        delay = tray_delay(profile, DEFAULT_TRAY_DELAY_S) if delay is None else delay
        st.screen = Screen(board_rules.dealer(st.board), delay, screenmates_of(profile))


def feed(f: Fold, ev: EngineEvent) -> None:
    """One event into the engine; a refusal (Refused, with the engine's message and law) leaves
    the engine as it was, rebuilt from the board's events."""
    st = f.st
    engine = st.engine
    assert engine is not None
    # Replaying a table without screens, nothing needs the state after each event (the phase
    # comes from the engine's status); a screen model observes every state.
    lazy = f.replaying and st.screen is None
    try:
        if lazy:
            engine.take(ev)
            state = None
        else:
            state = engine.apply(ev)
    except Exception as exc:  # the engine refused: rebuild it untouched from the journal
        assert st.session is not None and st.board is not None
        st.engine = f.rules.engine(st.session, st.board)
        for old in st.engine_events:
            st.engine.apply(old)
        raise Refused(str(exc)) from exc  # the engine's message says what and which law
    st.engine_events.append(ev)
    if state is None:
        st.estate_stale = True
    else:
        st.estate = state
        if st.screen is not None:
            st.screen.observe(state, float(ev.get("t", 0.0)))
    phase_from_engine(st)


def phase_from_engine(st: TableState) -> None:
    if st.phase in ("confirm", "round_end", "setup"):
        return
    status: str | None
    if st.estate_stale:  # the engine's own status, without building its whole state
        assert st.engine is not None
        status = st.engine.status()
        pending = status == "awaiting_td"
    else:
        pending, status = bool(st.estate.get("pending")), st.estate.get("status")
    if pending or status in ("awaiting_td", "adjusted_score"):
        # adjusted_score: the engine stopped the auction (2007 L17D2, 2017 L15A2(a)/L15B1);
        # nothing goes on at the table until the TD awards the score.
        st.phase = "frozen"
    elif status in ("ended", "passed_out"):
        st.phase = "play"
    else:
        st.phase = "auction"
