"""`python -m station match ...`: the TD's team matches, set while the station runs (the station
reads them from its database at every page view, export and board request).

  match list                          the session's matches and how they stand
  match set OPEN CLOSED [--home N]    two tables (A1 A2) as open and closed room of one match
        [--rounds 1,2]                (FSB 110A: the TD says which room is closed); the home team
                                      defaults to the team sitting NS in the open room (FSB 104A)
  match teams SECTION                 a section played as teams (a .bws says nothing of it): its
                                      matches come from its movement
  match clear [OPEN CLOSED | SECTION] forget what the TD set (all of it, deductions too, without
                                      arguments)
  match scale wbf|none|profile        VPs on the WBF 2013 20-0 scale, IMPs only, or the scale the
                                      club's profile names (the default; docs/scoring.md)
  match deduct MATCH TEAM VP          take VP off one team in a match (FSB L109B-D: off that team
        --reason TEXT --law LAW       alone), e.g. match deduct A1-A2:1v2 2 1 --reason "late"
                                      --law "FSB L109B"; MATCH as `match list` shows it
  match undeduct MATCH [TEAM]         forget the match's deductions (of one team)
  match bye TEAM ROUND                a team without an opponent in that round gets the bye's VPs
                                      (FSB 96B); the movement's own byes need no command
  match unbye TEAM ROUND              forget the TD's bye
  match byevp VP|profile              the event's own VPs for a bye on the matches' scale (the
                                      organiser's figure wins over the profile's; dbf-2017 has none)
  match walkover MATCH TEAM|both      a match not played: TEAM did not appear (FSB L109A); it gets 0
        [--vp VP | --imps IMPS]       VP, the other team the profile's figure or --vp; in a match
                                      scored in IMPs only, Avg+ / Avg- on each board (2007 L12C2,
                                      L86A; 2017 §12C2) or the margin --imps
  match unwalkover MATCH              forget the walk-over

Everything is checked against the scoring program's movement before it is kept; a bad match
(the two tables play different boards, a team at one table only) is refused with the reason
and nothing changes.
"""
from __future__ import annotations

import argparse
import sys
from typing import Any

from . import match_byes, match_deductions, match_store, match_walkovers
from .matches import MatchError, parse_room
from .team_exports import imps_text


def _session(store: Any, event: str | None, session: str | None) -> str:
    if session:
        return session.upper()
    if event:
        rows = store.query("SELECT session_guid FROM dc_session_ids WHERE tablet_event = ?", (event,))
    else:
        rows = store.query("SELECT session_guid FROM dc_session_ids ORDER BY created_at DESC")
    if not rows:
        raise MatchError("the scoring program has sent no session" + (f" for {event}" if event else "")
                         + ": team matches are set on its movement")
    return str(rows[0][0])


def _show(store: Any, session: str) -> None:
    from .session_scope import scope

    rows = store.query("SELECT tablet_event FROM dc_session_ids WHERE session_guid = ?", (session,))
    sc = scope(store, str(rows[0][0]) if rows else "", session if rows else None)
    from .exports import session_results

    found = match_store.session_matches(store, session)
    scored = match_store.scored_session(store, session, session_results(store, sc), store.setting("profile"))
    print(f"session {session} ({sc.tablet_event}): {len(scored)} team match(es)")
    for s in scored:
        m, d = s.match, s.score.as_dict()
        rooms = ", ".join(f"open {g.open.room.name} closed {g.closed.room.name} (round {g.open.room.round})"
                          for g in m.segments)
        vp = f", VP {d['vp'][0]}-{d['vp'][1]}" if d["vp"] else ""
        played = "no board played" if s.walkover is not None else f"{d['scored']}/{d['total']} boards"
        print(f"  {m.ident}: team {m.home} (home) v team {m.away}: {rooms}; set by {m.source}; "
              f"{played}, IMPs {imps_text(s.score.home_won)}-{imps_text(s.score.away_won)}{vp}")
        if s.walkover is not None:
            print(f"    {match_walkovers.describe(s.walkover)}")
        for x in s.deductions:
            print(f"    VP deduction: {x.text()}")
    byes = match_byes.session_byes(store, session, found)
    for b in byes.byes:
        print(f"  {b.text()}; set by {b.source}")
    for p in [*found.problems, *byes.problems]:
        print(f"  problem: {p}")


def _scale(store: Any, args: list[str]) -> None:
    """`match scale NAME`: a scale of `vp_scales` or none, kept as the station's setting; `profile`
    goes back to the profile's own scale."""
    from shared_rules.scoring import vp_scales

    if len(args) != 1 or args[0] not in (*vp_scales.names(), "profile"):
        raise MatchError(f"match scale takes one of {', '.join(vp_scales.names())} or profile "
                         f"(the scale the club's profile names)")
    if args[0] == "profile":
        name = match_store.profile_scale(store.setting("profile"))
        store.set_setting("team_vp_scale", "")
    else:
        name = args[0]
        store.set_setting("team_vp_scale", name)
    found = vp_scales.named(name)
    print(f"station: team matches scored with {f'the {found.title} VP scale' if found else 'IMPs only'}")


def _byes_and_walkovers(store: Any, session: str, what: str, args: list[str], vp: str | None,
                        imps: str | None = None) -> None:
    if what in ("bye", "unbye"):
        if len(args) != 2:
            raise MatchError(f"match {what} needs the team and the round, e.g. 5 2")
        if what == "bye":
            print(f"station: bye kept: {match_byes.add(store, session, args[0], args[1]).text()}")
        else:
            print(f"station: {match_byes.remove(store, session, int(args[0]), int(args[1]))} bye(s) forgotten")
    elif what == "byevp":
        if len(args) != 1:
            raise MatchError("match byevp needs the VPs of a bye on the matches' scale, e.g. 12, or profile")
        got = match_byes.set_value(store, session, args[0])
        print("station: a bye gets the profile's figure" if got is None else
              f"station: a bye gets {match_byes.vp_text(got[0])} VP on the {got[1]} scale")
    elif what == "walkover":
        if len(args) != 2:
            raise MatchError("match walkover needs the match and the team that did not appear (or both), "
                             "e.g. A1-A2:1v2 2")
        w = match_walkovers.add(store, session, args[0], args[1], vp, imps)
        print(f"station: {match_walkovers.describe(w)} in match {args[0]}")
    else:
        if len(args) != 1:
            raise MatchError("match unwalkover needs the match, e.g. A1-A2:1v2")
        print(f"station: {match_walkovers.remove(store, session, args[0])} walk-over(s) forgotten")


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m station match", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--db", default="station.db", help="the station's database (default station.db)")
    p.add_argument("--event", default=None, help="the session whose tablets use this id (default: the latest)")
    p.add_argument("--session", default=None, help="the scoring program's SessionGuid")
    p.add_argument("what", choices=("list", "set", "teams", "clear", "scale", "deduct", "undeduct", "bye", "unbye",
                                     "byevp", "walkover", "unwalkover"))
    p.add_argument("args", nargs="*")
    p.add_argument("--home", type=int, default=None, help="the home team's number (set)")
    p.add_argument("--rounds", default=None, help="rounds of the match, e.g. 1,2 (set; default every common round)")
    p.add_argument("--reason", default="", help="why the VPs are taken off (deduct)")
    p.add_argument("--law", default="", help="the Law or regulation, e.g. \"FSB L109B\" (deduct)")
    p.add_argument("--vp", default=None, help="the VPs of the team that appeared (walkover)")
    p.add_argument("--imps", default=None, help="the IMPs the team that appeared wins by (walkover, a match "
                                                 "scored in IMPs only; default Avg+ / Avg- on each board)")
    a = p.parse_args(argv)
    from .store import Store

    store = Store(a.db)
    try:
        session = _session(store, a.event, a.session)
        if a.what == "set":
            if len(a.args) != 2:
                raise MatchError("match set needs the open room's table and the closed room's table, e.g. A1 A2")
            rounds = [int(x) for x in a.rounds.split(",")] if a.rounds else None
            m = match_store.set_match(store, session, parse_room(a.args[0]), parse_room(a.args[1]), rounds, a.home)
            print(f"station: match team {m.home} (home) v team {m.away} set")
        elif a.what == "teams":
            if len(a.args) != 1:
                raise MatchError("match teams needs one section's letters, e.g. A")
            found = match_store.set_teams(store, session, a.args[0].upper())
            print(f"station: section {a.args[0].upper()} is played as teams: {len(found)} match(es)")
        elif a.what == "clear":
            if len(a.args) == 2:
                (s1, t1), (s2, t2) = parse_room(a.args[0]), parse_room(a.args[1])
                n = match_store.clear(store, session, f"match/{s1}{t1}/{s2}{t2}") + \
                    match_store.clear(store, session, f"match/{s2}{t2}/{s1}{t1}")
            elif len(a.args) == 1:
                n = match_store.clear(store, session, f"teams/{a.args[0].upper()}")
            else:
                n = match_store.clear(store, session)
            print(f"station: {n} setting(s) cleared")
        elif a.what == "scale":
            _scale(store, a.args)
        elif a.what == "deduct":
            if len(a.args) != 3:
                raise MatchError("match deduct needs the match, the team and the VPs, e.g. A1-A2:1v2 2 1")
            x = match_deductions.add(store, session, a.args[0], a.args[1], a.args[2], a.reason, a.law)
            print(f"station: VP deduction kept: {x.text()} in match {x.match}")
        elif a.what == "undeduct":
            if len(a.args) not in (1, 2):
                raise MatchError("match undeduct needs the match, and a team to forget only its deductions")
            team = int(a.args[1]) if len(a.args) == 2 else None
            print(f"station: {match_deductions.remove(store, session, a.args[0], team)} VP deduction(s) forgotten")
        elif a.what != "list":
            _byes_and_walkovers(store, session, a.what, a.args, a.vp, a.imps)
        _show(store, session)
        return 0
    except (MatchError, ValueError) as e:
        print(f"station: {e}. Nothing was changed.", file=sys.stderr)
        return 2
    finally:
        store.close()
