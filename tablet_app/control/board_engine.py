"""The rules engine of the board in play: built when the board starts, fed each event once
(`Table.step`), and the table's phase read from the status it answers.

The engine (`shared_rules.table.Table`) is the single source of truth for what the Laws say, the
tray under the screen included (`tray_due_at`, `visible_calls`); this module only keeps it in
step with the journal. A refused event changed nothing in the engine, so there is nothing to undo.
"""
from __future__ import annotations

from shared_rules.outcome import Accepted
from shared_rules.types import Status
from tablet_app.control.errors import EngineRefused
from tablet_app.control.reducer import Fold
from tablet_app.control.state import EngineEvent, TableState, Tray


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
    st.tray = None
    if profile.screens.enabled:
        # the session's delay, else the profile's (WBF Code of Practice: a tray back within 15 s
        # carries no implication); the engine counts it from each pass
        delay = st.session.tray_delay_s
        st.tray = Tray(profile.screens.tray_delay_s if delay is None else float(delay),
                       profile.screens.screenmates)


def feed(f: Fold, ev: EngineEvent) -> Accepted:
    """One event into the engine, classified once. A refusal raises EngineRefused (the engine's
    reason, kind and law) with the engine exactly as it was."""
    st = f.st
    engine = st.engine
    assert engine is not None
    got = engine.step(ev)
    if not isinstance(got, Accepted):
        raise EngineRefused(got)
    st.engine_events.append(ev)
    if f.replaying:
        st.estate_stale = True  # nothing reads it while replaying, mostly: built when read
    else:
        st.estate = got.state  # the live path publishes it at once
    phase_from_status(st, got.status)
    return got


def phase_from_status(st: TableState, status: Status) -> None:
    if st.phase in ("confirm", "round_end", "setup"):
        return
    if status in (Status.AWAITING_TD, Status.ADJUSTED_SCORE):
        # adjusted_score: the engine stopped the auction (2007 L17D2, 2017 L15A2(a)/L15B1);
        # nothing goes on at the table until the TD awards the score.
        st.phase = "frozen"
    elif status in (Status.ENDED, Status.PASSED_OUT):
        st.phase = "play"
    else:
        st.phase = "auction"
