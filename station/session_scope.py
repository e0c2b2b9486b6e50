"""Which one of the scoring program's sessions an id names, for the exports and the director page.

A session is what the scoring program initialised (its SessionGuid): its tablets put one id in
every key (`docs/station.md` "Events and sessions": the station event for its first session,
`<event>.<n>` for each later one), so its results are exactly the items stored under that id.
Two sessions with the same section letters (an afternoon and an evening with section A) share
nothing: not their results, names, deals, session name or date.
"""
from __future__ import annotations

import datetime
import json
import re
from dataclasses import dataclass, field
from typing import Any

from .movement import GAME_TYPES, SCORING_METHODS

GUID_RE = re.compile(r"^[0-9A-F]{32}$")


class UnknownSession(LookupError):
    """The session asked for is not one the scoring program sent (HTTP 404)."""


@dataclass(frozen=True)
class SessionScope:
    """One session as the files show it. `guid` is None for tablets set up by hand (no scoring
    program): then the id's own items are the session."""

    tablet_event: str             # the id in its tablets' keys: its items' `event`
    guid: str | None = None       # the scoring program's SessionGuid
    station_event: str = ""
    name: str | None = None       # the session's name as the scoring program sent it
    day: datetime.date | None = None   # the session's date (SessionDTO Year/Month/Day)
    club_id: str = ""             # the club id the scoring program sent with the session
    sections: dict[str, int] = field(default_factory=dict)     # letters -> scoring group
    scoring: dict[str, dict[str, str]] = field(default_factory=dict)  # letters -> method, game_type


def _day(payload: dict) -> datetime.date | None:
    try:
        return datetime.date(int(payload.get("Year") or 0), int(payload.get("Month") or 0),
                             int(payload.get("Day") or 0))
    except (TypeError, ValueError, OverflowError):
        return None


def scope(store: Any, event: str, session: str | None = None) -> SessionScope:
    """The session `session` (a SessionGuid) names, else the one whose tablets use the id
    `event`; without either, the id's own items (tablets set up by hand). UnknownSession for a
    guid the scoring program never sent."""
    if session is not None:
        if not GUID_RE.match(session):
            raise UnknownSession(f"session {session[:40]!r}: a SessionGuid is 32 characters 0-9, A-F")
        rows = store.query("SELECT session_guid, tablet_event, event FROM dc_session_ids WHERE session_guid = ?",
                           (session,))
        if not rows:
            raise UnknownSession(f"the scoring program has sent no session {session}")
    else:
        rows = store.query("SELECT session_guid, tablet_event, event FROM dc_session_ids WHERE tablet_event = ?",
                           (event,))
        if not rows:
            return SessionScope(tablet_event=event, station_event=event)
    guid, tablet_event, station_event = (str(x) for x in rows[0])
    found = store.query("SELECT name, payload FROM dc_sessions WHERE session_guid = ?", (guid,))
    name, payload = (found[0][0] if isinstance(found[0][0], str) else None, stored_object(found[0][1])) \
        if found else (None, {})
    # A damaged stored row (a number that is none) is left out: the section is then scored as
    # one the scoring program never sent (matchpoints, its own group), never an error.
    secs = [r for r in store.query("SELECT section, scoring_group, scoring_method, game_type FROM dc_sections "
                                   "WHERE session_guid = ?", (guid,)) if all(isinstance(x, int) for x in r[1:4])]
    return SessionScope(
        tablet_event=tablet_event, guid=guid, station_event=station_event, name=name, day=_day(payload),
        club_id=str(payload.get("ClubId") or ""),
        sections={str(r[0]): int(r[1]) for r in secs},
        scoring={str(r[0]): {"method": SCORING_METHODS.get(int(r[2]), str(r[2])),
                             "game_type": GAME_TYPES.get(int(r[3]), str(r[3]))} for r in secs})


def stored_object(text: Any) -> dict:
    """A stored JSON object (the scoring program's SessionDTO, say), {} when damaged."""
    try:
        doc = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return {}
    return doc if isinstance(doc, dict) else {}


def groups(sc: SessionScope, letters: list[str]) -> list[list[str]]:
    """The sections of `letters` by scoring group, in letter order: sections of one group are
    scored as one (the Data Connector's ScoringGroupDTO: "the score calculation will treat these
    sections as if they were one"). A section the scoring program never sent is its own group."""
    by_group: dict[Any, list[str]] = {}
    for x in sorted(letters):
        by_group.setdefault(sc.sections.get(x, f"section {x}"), []).append(x)
    return list(by_group.values())
