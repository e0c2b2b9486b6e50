"""The TD's VP deductions in a team match, kept at the station: lateness (FSB L109B: "ett avdrag
av 1 VP för varje påbörjad 5-minutersperiod"), time overrun (FSB L109C), a breach of FSB 110B
or a procedural penalty the conditions give in VPs (2007/2017 L90). Each comes off the offending
team's VPs alone (FSB L109D: it "påverkar aldrig det icke-felande lagets vunna VP";
`team_match.deduct_vp`, no floor: docs/laws/choices.md #40).

Stored in `team_matches` beside the TD's matches (entry `deduction/<match>/<team>/<n>`, which
`match_store` does not read as a match), so `match clear` forgets them too. `add` checks
everything before it writes: the match is one of the session's, the team plays in it, the VPs are
a number from 0 to the scale's top (all of a team's deductions in the match together), a reason
and the Law are given; otherwise MatchError and nothing changes.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from shared_rules.scoring import vp_scales

from . import match_store
from .matches import Match, MatchError

PREFIX = "deduction/"


@dataclass(frozen=True)
class Deduction:
    match: str      # Match.ident
    team: int
    vp: Fraction
    reason: str
    law: str
    entry: str

    def text(self) -> str:
        """As the director page, the spectators and the files show it: "Team 2 -1 VP (late; FSB L109B)"."""
        return f"Team {self.team} -{vp_text(self.vp)} VP ({self.reason}; {self.law})"


def vp_text(value: Fraction) -> str:
    return str(int(value)) if value.denominator == 1 else f"{float(value):.2f}".rstrip("0")


def parse_vp(text: str) -> Fraction:
    """A number of VPs as the TD types it ("1", "0.5", "2,5"): at most two decimals, as the
    scales give VPs. MatchError otherwise (nothing else is a number of VPs)."""
    raw = str(text).strip().replace(",", ".")
    if not re.fullmatch(r"[+-]?\d+(\.\d+)?", raw):
        raise MatchError(f"a VP deduction is a number of VPs such as 1 or 0.5, not {text!r}")
    try:
        value = Fraction(Decimal(raw))
    except InvalidOperation as e:  # pragma: no cover - the pattern above lets only numbers through
        raise MatchError(f"a VP deduction is a number of VPs, not {text!r}") from e
    if value < 0:
        raise MatchError(f"a VP deduction is the VPs taken off, 0 or more, not {text!r} (FSB L109D: no bonus)")
    if (value * 100).denominator != 1:
        raise MatchError(f"a VP deduction has at most two decimals, as the VP scales do, not {text!r}")
    return value


def _read(entry: str, doc: dict) -> Deduction | None:
    """A stored deduction, or None for a damaged row (the pages and files never fail on one)."""
    try:
        if doc.get("kind") != "deduction" or type(doc.get("team")) is not int:
            return None
        vp = Fraction(Decimal(str(doc["vp"])))
        if vp < 0 or not all(isinstance(doc.get(k), str) for k in ("match", "reason", "law")):
            return None
        return Deduction(doc["match"], doc["team"], vp, doc["reason"], doc["law"], entry)
    except (KeyError, InvalidOperation, ValueError, TypeError):
        return None


def of_session(store: Any, session: str) -> list[Deduction]:
    found = (_read(e, doc) for e, doc in match_store.td_entries(store, session, PREFIX))
    return [d for d in found if d is not None]


def of_match(store: Any, session: str, match: Match) -> list[Deduction]:
    return [d for d in of_session(store, session) if d.match == match.ident]


def _match(store: Any, session: str, ident: str) -> Match:
    found = match_store.session_matches(store, session).matches
    for m in found:
        if m.ident.upper() == ident.strip().upper():
            return m
    known = ", ".join(m.ident for m in found) or "none"
    raise MatchError(f"no match {ident!r} in this session (its matches: {known})")


def add(store: Any, session: str, ident: str, team: int | str, vp: str, reason: str, law: str) -> Deduction:
    """Check the deduction (module doc), then keep it. MatchError and nothing written otherwise."""
    m = _match(store, session, ident)
    try:
        number = int(str(team).strip())
    except ValueError:
        raise MatchError(f"the team is its number ({m.home} or {m.away}), not {team!r}") from None
    if number not in (m.home, m.away):
        raise MatchError(f"team {team} does not play in match {m.ident} (teams {m.home} and {m.away})")
    value = parse_vp(vp)
    if not reason.strip() or not law.strip():
        raise MatchError("a VP deduction needs the reason and the Law it is given under, e.g. "
                         "--reason \"late 1-5 minutes\" --law \"FSB L109B\"")
    scale = match_store.scale_for(store, session, m)
    named = vp_scales.named(scale)
    if named is None:
        raise MatchError(f"match {m.ident} is scored in IMPs only: it has no VPs to deduct "
                         f"(match scale {', '.join(vp_scales.SCALES)} gives VPs)")
    before = sum((d.vp for d in of_match(store, session, m) if d.team == number), Fraction(0))
    top = Fraction(str(named.scale.maximum))
    if before + value > top:
        raise MatchError(f"team {number} would lose {vp_text(before + value)} VP in match {m.ident}, more than "
                         f"the {named.title} scale's top of {vp_text(top)}")
    used = [int(d.entry.rsplit("/", 1)[1]) for d in of_session(store, session)
            if d.entry.startswith(f"{PREFIX}{m.ident}/{number}/") and d.entry.rsplit("/", 1)[1].isdigit()]
    entry = f"{PREFIX}{m.ident}/{number}/{max(used, default=0) + 1}"
    why, under = reason.strip(), law.strip()
    match_store.put_entry(store, session, entry, {"kind": "deduction", "match": m.ident, "team": number,
                                             "vp": str(Decimal(value.numerator) / Decimal(value.denominator)),
                                             "reason": why, "law": under})
    return Deduction(m.ident, number, value, why, under, entry)


def remove(store: Any, session: str, ident: str, team: int | None = None) -> int:
    """Forget the deductions of a match (of one team of it); the number forgotten."""
    m = _match(store, session, ident)
    gone = [d for d in of_match(store, session, m) if team is None or d.team == team]
    for d in gone:
        match_store.clear(store, session, d.entry)
    return len(gone)
