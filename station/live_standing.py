"""What the live feed shows of a team event besides the boards: each session's byes (FSB 96B) and
the matches the TD gave as walk-overs (FSB L109A), read from the station's store.

Neither is a secret: a bye is the movement's or the TD's, a walk-over is a match nobody played,
and no player learns from them anything of a board still to be played. So they are shown as soon
as the feed sees them, with no delay: the TD's commands (`python -m station match bye/walkover`,
another process) within a second or so, as the TD's deductions are (`live_feed.WATCH_S`), a
movement's byes within `STANDING_S` of the scoring program sending the movement. A walk-over is
shown as its match's score (`live_feed`, `event: match`), only for a match at tables the feed
shows; a bye belongs to no table and is shown whatever tables the feed shows.
"""
from __future__ import annotations

from typing import Any

from shared_rules.scoring import vp_scales

from . import match_byes, match_store, match_walkovers, movement
from .matches import Match
from .team_exports import team_name

STANDING_S = 10.0   # the movement's byes are looked at this often (the TD's entries at every change)


def fingerprint(store: Any) -> tuple:
    """Every entry the TD's match commands keep (matches, byes, the bye's figure, walk-overs,
    deductions), as stored: a change means the standing may have changed."""
    return tuple(store.query("SELECT session_guid, entry, payload FROM team_matches ORDER BY session_guid, entry"))


def sessions(store: Any, event: str | None) -> list[tuple[str, str]]:
    """(the id its tablets use, its guid) of each of the scoring program's sessions of the event."""
    if not event:
        return []
    return [(str(x["id"]), str(x["guid"])) for x in movement.sessions(store, store.station_event_of(event))]


def byes(store: Any, guid: str) -> list[dict]:
    """The session's byes as the spectators see them: the team, its round, its VPs on the round's
    scale (`"14.00"`, as a match's VPs are shown; None for a round scored in IMPs only or a figure
    the TD has not given yet) and the sentence the station's files use."""
    return [{"team": b.team, "name": team_name(b.team), "round": b.round,
             "vp": None if b.vp is None or b.scale == vp_scales.NONE else f"{float(b.vp):.2f}",
             "imps_only": b.scale == vp_scales.NONE, "text": b.text()}
            for b in match_byes.session_byes(store, guid).byes]


def walkover_matches(store: Any, guid: str) -> list[Match]:
    """The session's matches the TD gave as walk-overs."""
    given = {w.match for w in match_walkovers.of_session(store, guid)}
    if not given:
        return []
    return [m for m in match_store.session_matches(store, guid).matches if m.ident in given]
