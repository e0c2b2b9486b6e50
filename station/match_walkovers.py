"""Walk-overs in a team event (FSB L109A: "Walk-over kan utdömas, när det ena laget ej ställer upp
på avtalad tid [...] Vid walk-over i en match gäller följande enligt 25-0-skalan: Det orsakande
laget A får VP 0-25 med IMP-resultat som minimum för 0-25. Det andra laget B får VP enligt det
bästa av följande tre alternativ [...] 2) 18 VP"; "I fall där båda lagen är medansvariga [...]
räknas båda lagen som walk-over-lämnande").

The TD awards it on a match of the session that has no result yet, naming the team that did not
appear (or both). The absent team gets 0 VP and loses by the scale's blitz margin; the other team
gets the VPs the TD gives, else the profile's figure on the match's scale
(`ScoringRules.walkover_team_vp`: fsb-2007 14 on the WBF 20-0 scale, docs/laws/choices.md #45).
Alternatives 1 and 3 of L109A are known at the end of the series only: the TD gives the better
figure then (`--vp`). Stored in `team_matches` (entry `walkover/<match>`), so `match clear`
forgets it; checked before it is written, otherwise MatchError and nothing changes.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from shared_rules.scoring import vp_scales
from shared_rules.scoring.byes import walkover_team_vp
from shared_rules.scoring.rules import get_rules

from . import match_store
from .match_byes import parse_vp, vp_text
from .matches import Match, MatchError

PREFIX = "walkover/"
LAW = "FSB L109A"


@dataclass(frozen=True)
class Walkover:
    match: str                 # Match.ident
    absent: tuple[int, ...]    # the team(s) that did not appear
    vp: Fraction               # the VPs of the team that did appear
    scale: str                 # the scale the VPs are on (`vp_scales`)
    by_td: bool                # the TD gave the VPs (else the profile's figure)
    entry: str

    def text(self) -> str:
        """As the files and the TD's command show it: "walk-over: Team 2 did not appear (FSB L109A)"."""
        who = " and ".join(f"Team {t}" for t in self.absent)
        return f"walk-over: {who} did not appear ({LAW})"


def _read(entry: str, doc: dict) -> Walkover | None:
    """A stored walk-over, or None for a damaged row (the pages and files never fail on one)."""
    try:
        absent = doc.get("absent")
        if doc.get("kind") != "walkover" or not isinstance(absent, list) or not absent \
                or not all(type(t) is int for t in absent) or not isinstance(doc.get("match"), str) \
                or not isinstance(doc.get("scale"), str):
            return None
        vp = Fraction(Decimal(str(doc["vp"])))
        return Walkover(doc["match"], tuple(absent), vp, doc["scale"], bool(doc.get("by_td")), entry)
    except (KeyError, InvalidOperation, ValueError, TypeError):
        return None


def of_session(store: Any, session: str) -> list[Walkover]:
    found = (_read(e, doc) for e, doc in match_store.td_entries(store, session, PREFIX))
    return [w for w in found if w is not None]


def of_match(store: Any, session: str, match: Match) -> Walkover | None:
    return next((w for w in of_session(store, session) if w.match == match.ident), None)


def session_results(store: Any, session: str) -> dict[tuple[str, int, int, int], dict]:
    """The session's latest results by (section, table, round, board), as the pages score them."""
    from .exports import session_results as results
    from .session_scope import scope

    rows = store.query("SELECT tablet_event FROM dc_session_ids WHERE session_guid = ?", (session,))
    sc = scope(store, str(rows[0][0]) if rows else "", session if rows else None)
    return match_store.index_results(results(store, sc))


def has_results(match: Match, results: dict[tuple[str, int, int, int], dict]) -> bool:
    return any((x.room.section, x.room.table, x.room.round, b) in results
               for seg in match.segments for x in (seg.open, seg.closed) for b in seg.boards)


def _match(store: Any, session: str, ident: str) -> Match:
    found = match_store.session_matches(store, session).matches
    for m in found:
        if m.ident.upper() == ident.strip().upper():
            return m
    known = ", ".join(m.ident for m in found) or "none"
    raise MatchError(f"no match {ident!r} in this session (its matches: {known})")


def add(store: Any, session: str, ident: str, absent: str, vp: str | None = None) -> Walkover:
    """Award the walk-over (module doc). `absent`: the team that did not appear, or `both`;
    `vp`: the VPs of the team that did appear, else the profile's figure."""
    m = _match(store, session, ident)
    teams: tuple[int, ...]
    if absent.strip().lower() == "both":
        teams = (m.home, m.away)
    else:
        try:
            teams = (int(absent.strip()),)
        except ValueError:
            raise MatchError(f"the team that did not appear is its number ({m.home} or {m.away}) or both, "
                             f"not {absent!r}") from None
        if teams[0] not in (m.home, m.away):
            raise MatchError(f"team {teams[0]} does not play in match {m.ident} (teams {m.home} and {m.away})")
    if has_results(m, session_results(store, session)):
        raise MatchError(f"match {m.ident} has results from its tables: a walk-over is for a match not "
                         f"played ({LAW}); the TD adjusts a played board in the scoring program")
    scale = match_store.scale_for(store, session, m)
    if scale == vp_scales.NONE:
        raise MatchError(f"match {m.ident} is scored in IMPs only: a walk-over's score is given in VPs "
                         f"({LAW}; match scale {', '.join(vp_scales.SCALES)} gives VPs)")
    if vp is not None and vp.strip():
        value = parse_vp(vp, scale, "a walk-over")
    else:
        rules = match_store.rules_name(store.setting("profile"))
        try:
            value = Fraction(str(walkover_team_vp(get_rules(rules).walkover_team_vp, scale)))
        except ValueError as e:
            raise MatchError(f"{e}: give the VPs of the team that appeared with --vp") from None
    entry = f"{PREFIX}{m.ident}"
    match_store.put_entry(store, session, entry, {
        "kind": "walkover", "match": m.ident, "absent": list(teams), "scale": scale,
        "vp": str(Decimal(value.numerator) / Decimal(value.denominator)), "by_td": vp is not None and bool(vp.strip())})
    return Walkover(m.ident, teams, value, scale, vp is not None and bool(vp.strip()), entry)


def remove(store: Any, session: str, ident: str) -> int:
    m = _match(store, session, ident)
    return match_store.clear(store, session, f"{PREFIX}{m.ident}")


def describe(w: Walkover) -> str:
    """The walk-over with the VPs of the team that appeared, for the TD's command."""
    return f"{w.text()}; the other team {vp_text(w.vp)} VP" + (" (the TD's figure)" if w.by_td else "")
