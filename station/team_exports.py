"""The session's team matches for the files: per game the PBN team tags, and the USEBIO team
event (`station/usebio_teams.py`). Reads only (glue between match_store and the writers)."""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from shared_rules.scoring import vp_scales

from . import match_byes, match_store
from .match_byes import Bye
from .match_store import ScoredMatch
from .session_scope import SessionScope

Key = tuple[str, int, int, int]  # section, table, round, board


def imps_text(value: Fraction) -> str:
    """IMPs as written in the files: whole IMPs plain, weighted ones to two decimals."""
    from shared_rules.scoring.rounding import round_half_up

    return str(int(value)) if value.denominator == 1 else f"{round_half_up(value, 2):.2f}"


def team_name(number: int) -> str:
    return f"Team {number}"


@dataclass
class TeamView:
    scored: list[ScoredMatch] = field(default_factory=list)
    byes: list[Bye] = field(default_factory=list)
    games: dict[Key, dict[str, str]] = field(default_factory=dict)  # PBN tags per result
    problems: list[str] = field(default_factory=list)

    def sections(self) -> set[str]:
        return {r.section for s in self.scored for r in s.match.rooms()}


def view(store: Any, sc: SessionScope, results: list[dict]) -> TeamView:
    out = TeamView()
    if sc.guid is None:
        return out
    found = match_store.session_matches(store, sc.guid)
    byes = match_byes.session_byes(store, sc.guid, found)
    out.problems = [str(p) for p in [*found.problems, *byes.problems]]  # the files' English
    out.byes = byes.byes
    out.scored = match_store.scored_session(store, sc.guid, results, store.setting("profile"))
    for s in out.scored:
        m = s.match
        for seg in m.segments:
            for slot in (seg.open, seg.closed):
                room = "Open" if slot is seg.open else "Closed"
                for b in seg.boards:
                    tags = {"room": room, "home": team_name(m.home), "visit": team_name(m.away)}
                    imps = s.score.boards.get(b)
                    if imps is not None:
                        # Score and ScoreIMP are North-South's here: NS in this room is one team.
                        tags["score_imp"] = "NS " + imps_text(imps.home if slot.team_ns == m.home else imps.away)
                    out.games[(slot.room.section, slot.room.table, slot.room.round, b)] = tags
    return out


def _walkover_text(w: Any, with_text: bool = True) -> str:
    """A walk-over as the files say it; scored in IMPs only, with its IMPs (docs/laws/choices.md #46)."""
    from .match_walkovers import score_text

    if w.imps is None:
        return w.text()
    said = score_text(w) + (" (the TD's figure)" if w.by_td else "")
    return f"{w.text()}; {said}" if with_text else said


def header(v: TeamView) -> list[str]:
    """`%` lines of the PBN file: each match's running score, and what stops a match."""
    lines = []
    for s in v.scored:
        d = s.score.as_dict()
        named = vp_scales.named(s.scale)
        less = " less deductions" if s.deductions else ""
        vp = f", VP {d['vp'][0]:.2f}-{d['vp'][1]:.2f} ({named.title}{less})" if d["vp"] and named else ""
        lines.append(f"Match {team_name(s.match.home)} (home) v {team_name(s.match.away)}: "
                     f"{d['scored']} of {d['total']} boards, IMPs {imps_text(s.score.home_won)}-"
                     f"{imps_text(s.score.away_won)}{vp}")
        if s.walkover is not None:
            lines.append(f"Match {s.match.ident}: {_walkover_text(s.walkover)}")
        lines += [f"Match {s.match.ident}: VP deduction {x.text()}" for x in s.deductions]
        lines += [f"Match {s.match.ident}: {p}" for p in s.problems]
    return lines + [b.text() for b in v.byes] + [f"Team matches: {p}" for p in v.problems]


def usebio_event(v: TeamView, results: list[dict], hands: dict[tuple[str, int], str], seated: dict,
                 only: str | None = None) -> dict[str, Any]:
    """The parts of `usebio_teams.document` that come from the matches (`only`: one section's)."""
    index = match_store.index_results(results)
    chosen = [s for s in v.scored if only is None or any(r.section == only for r in s.match.rooms())]
    totals: dict[int, dict[str, Any]] = {}
    matches: list[dict[str, Any]] = []
    vps = any(s.scale != vp_scales.NONE for s in chosen)
    for s in chosen:
        m, d = s.match, s.score
        boards: list[dict[str, Any]] = []
        for seg in m.segments if s.walkover is None else ():  # a walk-over: no board was played
            ns, ew = m.home_ns(seg)
            for b in seg.boards:
                imps = d.boards.get(b)
                boards.append({"number": b, "imps": "" if imps is None else imps_text(imps.home),
                               "home_ns": index.get((ns.room.section, ns.room.table, ns.room.round, b)),
                               "home_ew": index.get((ew.room.section, ew.room.table, ew.room.round, b))})
        matches.append({"round": m.segments[0].open.room.round, "home": m.home, "away": m.away,
                        "home_won": imps_text(d.home_won), "away_won": imps_text(d.away_won),
                        "vp": d.vp, "boards": sorted(boards, key=lambda x: int(x["number"]))})
        for team, mine, vp in ((m.home, d.home_imps, d.vp[0] if d.vp else None),
                               (m.away, d.away_imps, d.vp[1] if d.vp else None)):
            t = totals.setdefault(team, {"number": team, "name": team_name(team), "imps": Fraction(0),
                                         "vp": Fraction(0), "boards": 0, "players": _players(m, team, index, seated)})
            t["imps"] += mine
            t["vp"] += Fraction(str(vp)) if vp is not None else 0
            t["boards"] += d.scored
    byes = [x for x in v.byes if only is None or only in _bye_sections(v, x)]
    for bye in byes:  # FSB 96B: the bye's VPs count in the team's total; a MATCH without an opponent
        matches.append({"round": bye.round, "home": bye.team, "away": None, "home_won": None, "away_won": None,
                        "vp": None if bye.vp is None else (float(bye.vp), None), "boards": []})
        t = totals.setdefault(bye.team, {"number": bye.team, "name": team_name(bye.team), "imps": Fraction(0),
                                         "vp": Fraction(0), "boards": 0, "players": []})
        t["vp"] += bye.vp or 0
    for t in totals.values():
        t["total"] = f"{float(t['vp']):.2f}" if vps else imps_text(t["imps"])
    letters = {r.section for s in chosen for r in s.match.rooms()}
    notes = [f"Match {team_name(s.match.home)} v {team_name(s.match.away)} not complete: {s.score.scored} of "
             f"{len(s.score.boards)} boards scored; its VPs count when it is" for s in chosen
             if vps and not s.score.complete and s.walkover is None]
    notes += [f"Match {team_name(s.match.home)} v {team_name(s.match.away)}: {s.walkover.text()}, no board "
              f"played; " + ("the IMPs are the scale's blitz margin" if s.walkover.imps is None else
                             _walkover_text(s.walkover, with_text=False)) for s in chosen if s.walkover is not None]
    notes += [f"{x.text()}: a MATCH without an OPPOSING_TEAM" for x in byes]
    # USEBIO 1.2 as its team readers take it has no element for a VP deduction: the match's and
    # the team's VPs are net of it (FSB L109D), and a comment says what was taken off.
    notes += [f"Match {team_name(s.match.home)} v {team_name(s.match.away)}: VPs less the deduction "
              f"{x.text()}" for s in chosen for x in s.deductions]
    return {"teams": list(totals.values()), "matches": matches, "match_method": "VPS" if vps else "IMPS",
            "boards_played": len({b for s in chosen for b in s.match.boards}),
            "hands": {b: deal for (sec, b), deal in hands.items() if sec in letters}, "notes": notes + v.problems}


def _bye_sections(v: TeamView, b: Bye) -> set[str]:
    """The sections of the matches played in the bye's rounds (a bye belongs to their export)."""
    return {r.section for s in v.scored for r in s.match.rooms() if r.round in b.rounds}


def _players(m: Any, team: int, index: dict, seated: dict) -> list[dict]:
    """The team's four players as seated in the match's first segment (NS pair where it sits
    NS, EW pair where it sits EW)."""
    seg = m.segments[0]
    out: list[dict] = []
    for slot in (seg.open, seg.closed):
        side = "NS" if slot.team_ns == team else "EW"
        section, table, rnd = slot.room.section, slot.room.table, slot.room.round
        rec = next((index[(section, table, rnd, b)] for b in seg.boards if (section, table, rnd, b) in index), None)
        found = {}
        if section in seated and rec is not None and isinstance(rec.get("ns_pair"), int) \
                and isinstance(rec.get("ew_pair"), int):
            found = seated[section][0](section, table, rnd, rec["ns_pair"], rec["ew_pair"])
        for s in ("N", "S") if side == "NS" else ("E", "W"):
            who = found.get(s)
            out.append({"full_name": who["full_name"], "number": who.get("number")} if who else {})
    return out
