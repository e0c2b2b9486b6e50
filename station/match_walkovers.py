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
figure then (`--vp`). A match scored in IMPs only has no VPs and no blitz margin: its walk-over
is IMPs, Avg+ to the team that appeared and Avg- to the absent team on each board (2007 L12C2
with L86A, 2017 §12C2; docs/laws/choices.md #46), or the margin the TD gives (`--imps`). Stored in
`team_matches` (entry `walkover/<match>`), so `match clear` forgets it; checked before it is
written, otherwise MatchError and nothing changes.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from shared_rules.scoring import vp_scales
from shared_rules.scoring.byes import walkover_team_vp
from shared_rules.scoring.rules import get_rules
from shared_rules.scoring.team_match import walkover_imps

from . import match_store
from .match_byes import parse_vp, vp_text
from .matches import Match, MatchError
from .team_exports import imps_text

PREFIX = "walkover/"
LAW = "FSB L109A"
# The IMP scale's top (2007 and 2017 L78B: 4000 points or more, 24 IMPs): no board of a match
# played can be worth more, so neither can a board of a walk-over (docs/laws/choices.md #46).
TOP_IMPS_A_BOARD = 24


@dataclass(frozen=True)
class Walkover:
    match: str                 # Match.ident
    absent: tuple[int, ...]    # the team(s) that did not appear
    vp: Fraction               # the VPs of the team that did appear (0 when scored in IMPs only)
    scale: str                 # the scale the VPs are on (`vp_scales`; NONE: IMPs only)
    by_td: bool                # the TD gave the VPs or the IMPs (else the profile's figure)
    entry: str
    # scored in IMPs only (choices #46): the IMPs the team that appeared gains, those the absent loses
    imps: tuple[Fraction, Fraction] | None = None

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
        imps = doc.get("imps")
        if imps is not None:
            if not isinstance(imps, list) or len(imps) != 2:
                return None
            imps = (Fraction(Decimal(str(imps[0]))), Fraction(Decimal(str(imps[1]))))
            if min(imps) < 0:
                return None
        elif doc["scale"] == vp_scales.NONE:
            return None  # an IMPs-only walk-over without its IMPs
        return Walkover(doc["match"], tuple(absent), vp, doc["scale"], bool(doc.get("by_td")), entry, imps)
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


def add(store: Any, session: str, ident: str, absent: str, vp: str | None = None,
        imps: str | None = None) -> Walkover:
    """Award the walk-over (module doc). `absent`: the team that did not appear, or `both`;
    `vp`: the VPs of the team that did appear, else the profile's figure; in a match scored in
    IMPs only, `imps` instead: the margin, else Avg+ / Avg- on each board."""
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
        return _add_imps(store, session, m, teams, vp, imps)
    if imps is not None and imps.strip():
        raise MatchError(f"match {m.ident} is scored in VPs: the walk-over gives the team that appeared VPs "
                         f"(--vp) and the absent team the scale's blitz loss ({LAW}), not a margin in IMPs")
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
        "vp": _decimal(value), "by_td": vp is not None and bool(vp.strip())})
    return Walkover(m.ident, teams, value, scale, vp is not None and bool(vp.strip()), entry)


def _add_imps(store: Any, session: str, m: Match, teams: tuple[int, ...], vp: str | None,
              imps: str | None) -> Walkover:
    """The walk-over of a match scored in IMPs only (docs/laws/choices.md #46)."""
    if vp is not None and vp.strip():
        raise MatchError(f"match {m.ident} is scored in IMPs only: a walk-over there has no VPs; give the IMPs "
                         f"the team that appeared wins by with --imps, or none for Avg+ / Avg- on each board "
                         f"(2007 L12C2, L86A; 2017 §12C2)")
    by_td = imps is not None and bool(imps.strip())
    if by_td:
        margin = parse_imps(str(imps), len(m.boards))
        gain, loss = margin, margin
    else:
        gain, loss = walkover_imps(len(m.boards), get_rules(match_store.rules_name(store.setting("profile"))))
    entry = f"{PREFIX}{m.ident}"
    match_store.put_entry(store, session, entry, {
        "kind": "walkover", "match": m.ident, "absent": list(teams), "scale": vp_scales.NONE, "vp": "0",
        "imps": [_decimal(gain), _decimal(loss)], "by_td": by_td})
    return Walkover(m.ident, teams, Fraction(0), vp_scales.NONE, by_td, entry, (gain, loss))


def _decimal(x: Fraction) -> str:
    return str(Decimal(x.numerator) / Decimal(x.denominator))


def parse_imps(text: str, boards: int) -> Fraction:
    """The walk-over's margin the TD types ("12", "7.5", "7,5"): more than 0 IMPs, at most 24 a
    board of the match (`TOP_IMPS_A_BOARD`), at most two decimals. MatchError otherwise."""
    raw = text.strip().replace(",", ".")
    if not re.fullmatch(r"\d{1,6}(\.\d+)?", raw):
        raise MatchError(f"the walk-over's margin is a number of IMPs such as 12 or 7.5, not {text!r}")
    value = Fraction(Decimal(raw))
    if (value * 100).denominator != 1:
        raise MatchError(f"the walk-over's margin has at most two decimals, not {text!r}")
    top = TOP_IMPS_A_BOARD * boards
    if not 0 < value <= top:
        raise MatchError(f"the walk-over's margin is more than 0 and at most {top} IMPs ({TOP_IMPS_A_BOARD} a "
                         f"board, the IMP scale's top, 2007/2017 L78B, over {boards} boards), not {text}")
    return value


def remove(store: Any, session: str, ident: str) -> int:
    m = _match(store, session, ident)
    return match_store.clear(store, session, f"{PREFIX}{m.ident}")


def describe(w: Walkover) -> str:
    """The walk-over with the VPs of the team that appeared (or, in IMPs only, the IMPs), for the
    TD's command."""
    return f"{w.text()}; {score_text(w)}" + (" (the TD's figure)" if w.by_td else "")


def score_text(w: Walkover) -> str:
    """What the walk-over gives, as the command and the files say it."""
    if w.imps is None:
        return f"the other team {vp_text(w.vp)} VP"
    gain, loss = (imps_text(x) for x in w.imps)
    basis = "" if w.by_td else " (Avg+ / Avg- on each board: 2007 L12C2, L86A; 2017 §12C2)"
    if len(w.absent) == 2:
        return f"each team loses {loss} IMPs{basis}"
    return f"the other team wins {gain} IMPs, the absent team loses {loss}{basis}"
