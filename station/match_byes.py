"""Byes in a team event (FSB 96B: "En tävlande (vanligen lag) erhåller den poäng som fastställs av
den Ansvariga Organisationen. Med 25-0-skalan är denna poäng vanligen 18"): a team with no
opponent in a round gets the bye's VPs on the scale the round's matches are scored on.

A bye is known in one of two ways:
- from the movement: a team of the session's teams sections that plays in no match of a round
  (it sits at a table without opponents, or the movement does not seat it). Rounds that are the
  halves of one match are one round here: a bye is per match, not per half;
- from the TD (`python -m station match bye TEAM ROUND`): a team the movement does not show, e.g.
  in a section the TD declared teams or matches the TD set on a pairs movement.

The bye's VPs are the event's own (`match byevp`, the organiser's figure, which wins), else the
profile's scoring rules' (`ScoringRules.bye_team_vp`: fsb-2007 18 on the 25-0 scale, 14 on the
WBF 20-0 scale, docs/laws/choices.md #43). A profile without a figure (dbf-2017: the Danish
sources fix none) scores no bye until the TD gives it: the director page asks for it.

Stored in `team_matches` beside the TD's matches (entries `bye/<team>/<round>` and `bye-vp`,
which `match_store` does not read as matches), so `match clear` forgets them too. Everything is
checked before it is written; otherwise MatchError and nothing changes.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from shared_rules.scoring import vp_scales
from shared_rules.scoring.byes import bye_team_vp
from shared_rules.scoring.rules import get_rules

from . import match_store
from .matches import Match, MatchError, TeamSlot
from .notices import Notice, NoticeCode
from .session_scope import stored_object

PREFIX = "bye/"
VALUE = "bye-vp"
LAW = "FSB 96B"


@dataclass(frozen=True)
class Bye:
    team: int
    rounds: tuple[int, ...]   # the movement's rounds of the match the team has no opponent in
    source: str               # "movement" or "td"
    scale: str                # the name of the scale of the round's matches (`vp_scales`)
    vp: Fraction | None       # None: IMPs only, or no figure given yet (`SessionByes.problems` says)

    @property
    def round(self) -> int:
        return self.rounds[0]

    def text(self) -> str:
        """As the files and the TD's command show it: "Team 3 bye in round 2: 14 VP (FSB 96B)"."""
        got = "no VPs (IMPs only)" if self.scale == vp_scales.NONE else \
            "VPs not set yet" if self.vp is None else f"{vp_text(self.vp)} VP"
        return f"Team {self.team} bye in round {self.round}: {got} ({LAW})"


@dataclass
class SessionByes:
    byes: list[Bye] = field(default_factory=list)
    problems: list[Notice] = field(default_factory=list)


def vp_text(value: Fraction) -> str:
    return str(int(value)) if value.denominator == 1 else f"{float(value):.2f}".rstrip("0")


def parse_vp(text: str, scale: str, what: str) -> Fraction:
    """VPs the TD types ("14", "12.5", "12,5") for `what` on the scale named `scale`: a number
    from 0 to the scale's top with at most two decimals. MatchError otherwise."""
    named = vp_scales.named(scale)
    if named is None:
        raise MatchError(f"the matches are scored in IMPs only: {what} has no VPs "
                         f"(match scale {', '.join(vp_scales.SCALES)} gives VPs)")
    raw = str(text).strip().replace(",", ".")
    if not re.fullmatch(r"\d+(\.\d+)?", raw):
        raise MatchError(f"the VPs of {what} are a number of VPs such as 14 or 12.5, not {text!r}")
    try:
        value = Fraction(Decimal(raw))
    except InvalidOperation as e:  # pragma: no cover - the pattern above lets only numbers through
        raise MatchError(f"the VPs of {what} are a number of VPs, not {text!r}") from e
    if (value * 100).denominator != 1:
        raise MatchError(f"the VPs of {what} have at most two decimals, as the VP scales do, not {text!r}")
    top = Fraction(str(named.scale.maximum))
    if value > top:
        raise MatchError(f"the VPs of {what} are at most the {named.title} scale's top of {vp_text(top)}, "
                         f"not {text}")
    return value


# -- which rounds are one match, who plays in them -------------------------------------------------------
def round_groups(slots: Iterable[TeamSlot], matches: Iterable[Match]) -> list[tuple[int, ...]]:
    """The movement's rounds, those that are halves of one match taken together."""
    parent: dict[int, int] = {s.room.round: s.room.round for s in slots}

    def root(r: int) -> int:
        while parent.setdefault(r, r) != r:
            r = parent[r]
        return r

    for m in matches:
        rounds = sorted({room.round for room in m.rooms()})
        for r in rounds[1:]:
            parent[root(r)] = root(rounds[0])
    groups: dict[int, list[int]] = {}
    for r in list(parent):
        groups.setdefault(root(r), []).append(r)
    return sorted(tuple(sorted(g)) for g in groups.values())


def _playing(group: tuple[int, ...], slots: list[TeamSlot], matches: list[Match]) -> set[int]:
    """Teams that play in those rounds: in a match, or seated against another team (a match the
    station could not pair is still played)."""
    out = {t for m in matches if any(r.round in group for r in m.rooms()) for t in (m.home, m.away)}
    return out | {t for s in slots if s.room.round in group and s.team_ns and s.team_ew for t in s.teams}


def _sections(group: tuple[int, ...], slots: list[TeamSlot]) -> set[str]:
    return {s.room.section for s in slots if s.room.round in group}


# -- what the station holds ------------------------------------------------------------------------------
def _td_entries(store: Any, session: str) -> list[tuple[int, int]]:
    out = []
    for _, doc in match_store.td_entries(store, session, PREFIX):
        if doc.get("kind") == "bye" and type(doc.get("team")) is int and type(doc.get("round")) is int:
            out.append((doc["team"], doc["round"]))
    return out  # a damaged row is none: the pages and files never fail on it


def event_value(store: Any, session: str) -> tuple[Fraction, str] | None:
    """The event's own bye (VPs, the scale they were given on), or None."""
    rows = store.query("SELECT payload FROM team_matches WHERE session_guid = ? AND entry = ?", (session, VALUE))
    if not rows:
        return None
    doc = stored_object(rows[0][0])
    try:
        if doc.get("kind") == "bye_vp" and isinstance(doc.get("scale"), str):
            return Fraction(Decimal(str(doc["vp"]))), doc["scale"]
    except (InvalidOperation, ValueError, TypeError, KeyError):
        pass
    return None


def _value(store: Any, session: str, scale: str, problems: list[Notice], teams: list[int]) -> Fraction | None:
    if scale == vp_scales.NONE:
        return None
    own = event_value(store, session)
    if own is not None:
        if own[1] == scale:
            return own[0]
        problems.append(Notice.of(NoticeCode.BYE_VALUE_OTHER_SCALE, vp=vp_text(own[0]), given=own[1], scale=scale))
        return None
    profile = store.setting("profile")
    rules = match_store.rules_name(profile)
    try:
        return Fraction(str(bye_team_vp(get_rules(rules).bye_team_vp, scale)))
    except ValueError:
        problems.append(Notice.of(NoticeCode.BYE_NO_VALUE, scale=scale, profile=profile or rules, teams=teams))
        return None


def session_byes(store: Any, session: str | None, found: match_store.SessionMatches | None = None) -> SessionByes:
    """Every bye of the session, from the movement and the TD, with its VPs."""
    out = SessionByes()
    if session is None:
        return out
    found = found or match_store.session_matches(store, session)
    slots = match_store.stored_slots(store, session)
    sections = match_store.teams_sections(store, session)
    teams_slots = [s for s in slots if s.room.section in sections]
    known = {t for s in teams_slots for t in s.teams if t}
    groups = round_groups(slots, found.matches)
    raw: list[tuple[int, tuple[int, ...], str]] = []
    for g in groups:
        if not any(r.round in g and r.section in sections for m in found.matches for r in m.rooms()):
            continue  # no match of the teams sections in these rounds: nothing to have a bye from
        raw += [(t, g, "movement") for t in sorted(known - _playing(g, teams_slots, found.matches))]
    for team, rnd in _td_entries(store, session):
        mine = next((x for x in groups if rnd in x), None)
        if mine is None or team in _playing(mine, slots, found.matches):
            out.problems.append(Notice.of(NoticeCode.BYE_TEAM_PLAYS, team=team, round=rnd))
        elif not any(t == team and x == mine for t, x, _ in raw):
            raw.append((team, mine, "td"))
    by_scale: dict[str, list[tuple[int, tuple[int, ...], str]]] = {}
    for t, g, src in raw:
        by_scale.setdefault(match_store.scale_for_sections(store, session, _sections(g, slots)), []).append((t, g, src))
    for scale, these in by_scale.items():
        vp = _value(store, session, scale, out.problems, sorted({t for t, _, _ in these}))
        out.byes += [Bye(t, g, src, scale, vp) for t, g, src in these]
    out.byes.sort(key=lambda b: (b.round, b.team))
    return out


# -- the TD's commands -------------------------------------------------------------------------------------
def add(store: Any, session: str, team: int | str, rnd: int | str) -> Bye:
    """The TD marks a bye: the team has no opponent in that round of the movement."""
    try:
        number, at = int(str(team).strip()), int(str(rnd).strip())
    except ValueError:
        raise MatchError(f"a bye is given as the team's number and the round's, e.g. 5 2, not {team!r} {rnd!r}") \
            from None
    if number < 1 or at < 1:
        raise MatchError("team and round numbers start at 1")
    found = match_store.session_matches(store, session)
    slots = match_store.stored_slots(store, session)
    g: tuple[int, ...] | None = next((x for x in round_groups(slots, found.matches) if at in x), None)
    if g is None:
        raise MatchError(f"the scoring program's movement of this session has no round {at}")
    if number in _playing(g, slots, found.matches):
        raise MatchError(f"team {number} plays in round {at}: a bye is for a team without an opponent (FSB 96B)")
    already = [b for b in session_byes(store, session, found).byes if b.team == number and b.rounds == g]
    if already:
        raise MatchError(f"team {number} already has a bye in round {at} (from the {already[0].source})")
    match_store.put_entry(store, session, f"{PREFIX}{number}/{g[0]}", {"kind": "bye", "team": number, "round": g[0]})
    return next(b for b in session_byes(store, session).byes if b.team == number and b.rounds == g)


def remove(store: Any, session: str, team: int, rnd: int) -> int:
    """Forget the TD's bye of the team in that round; the number forgotten (a bye from the
    movement is the movement's: it goes when the scoring program's movement changes)."""
    found = match_store.session_matches(store, session)
    g = next((x for x in round_groups(match_store.stored_slots(store, session), found.matches) if rnd in x), (rnd,))
    return match_store.clear(store, session, f"{PREFIX}{team}/{g[0]}")


def set_value(store: Any, session: str, text: str) -> tuple[Fraction, str] | None:
    """The event's own bye in VPs on the scale its matches are scored on (`profile`: back to the
    profile's figure). MatchError and nothing written for a value outside the scale."""
    if text.strip().lower() == "profile":
        match_store.clear(store, session, VALUE)
        return None
    sections = match_store.teams_sections(store, session) or {s.room.section for s in
                                                               match_store.stored_slots(store, session)}
    scale = match_store.scale_for_sections(store, session, sections)
    value = parse_vp(text, scale, "a bye")
    match_store.put_entry(store, session, VALUE, {"kind": "bye_vp", "scale": scale,
                                                  "vp": str(Decimal(value.numerator) / Decimal(value.denominator))})
    return value, scale
