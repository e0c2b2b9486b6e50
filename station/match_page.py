"""The director page's team matches: every match of the event's sessions with its running score
(the IMPs each team has won so far, boards scored, VPs once complete, a walk-over), each bye
(FSB 96B) with its VPs, each team's VP total, and what keeps a movement from holding a match or
a bye from being scored."""
from __future__ import annotations

import functools
import html
from fractions import Fraction
from typing import Any

from . import match_byes, match_store
from .director_texts import DEFAULT
from .link_texts import MATCH, text
from .match_deductions import vp_text
from .notice_texts import say
from .team_exports import imps_text


def rows(st: Any, event: str) -> list[dict[str, Any]]:
    """One dict per match of every session of the station event (oldest session first)."""
    from .exports import session_results
    from .movement import sessions
    from .session_scope import scope

    out = []
    for x in sessions(st.store, st.store.station_event_of(event)):
        sc = scope(st.store, x["id"], x["guid"])
        found = match_store.session_matches(st.store, x["guid"])
        if not found.matches and not found.problems:
            continue
        scored = match_store.scored_session(st.store, x["guid"], session_results(st.store, sc),
                                            st.store.setting("profile"))
        for s in scored:
            m, d = s.match, s.score
            out.append({"session": x["name"] or x["id"], "ident": m.ident, "home": m.home, "away": m.away,
                        "rooms": [(g.open.room.name, g.closed.room.name, g.open.room.round) for g in m.segments],
                        "scored": d.scored, "total": len(d.boards), "home_won": imps_text(d.home_won),
                        "away_won": imps_text(d.away_won), "vp": d.vp, "scale": s.scale,
                        "problems": s.problems, "source": m.source,
                        "deductions": list(s.deductions), "walkover": s.walkover})
        byes = match_byes.session_byes(st.store, x["guid"], found)
        out += [{"session": x["name"] or x["id"], "bye": b} for b in byes.byes]
        out += [{"session": x["name"] or x["id"], "problem": p} for p in [*found.problems, *byes.problems]]
    return out


def vp_totals(found: list[dict[str, Any]]) -> dict[tuple[str, int], Fraction]:
    """Each team's VPs per session: its complete matches' (net of deductions) and its byes'."""
    out: dict[tuple[str, int], Fraction] = {}
    for r in found:
        if "bye" in r and r["bye"].vp is not None:
            key = (r["session"], r["bye"].team)
            out[key] = out.get(key, Fraction(0)) + r["bye"].vp
        elif "ident" in r and r["vp"]:
            for team, vp in zip((r["home"], r["away"]), r["vp"], strict=True):
                out[(r["session"], team)] = out.get((r["session"], team), Fraction(0)) + Fraction(str(vp))
    return out


def html_section(st: Any, event: str, lang: str = DEFAULT) -> str:
    """The section of the director page, in `lang` (station/link_texts.py); '' without matches."""
    found = rows(st, event)
    if not found:
        return ""
    e = html.escape
    T = functools.partial(text, MATCH, lang=lang)
    trs, notes = [], []
    for r in found:
        if "problem" in r:
            notes.append(f'<li class="refused">{e(r["session"])}: {e(say(r["problem"], lang))}</li>')
            continue
        if "bye" in r:
            trs.append(_bye_row(r["session"], r["bye"], T, e))
            continue
        teams = T("versus", home=T("team", n=r["home"]), away=T("team", n=r["away"]))
        rooms = "; ".join(T("rooms", open=o, closed=c, round=n) for o, c, n in r["rooms"])
        vp = (f'{r["vp"][0]:.2f}–{r["vp"][1]:.2f}' if r["vp"] else
              T("imps_only") if r["scale"] == "none" else T("when_complete"))
        # the TD's VP deductions (station/match_deductions.py); the reason and the Law as the TD typed them
        docked = [T("deduction", team=T("team", n=x.team), vp=vp_text(x.vp), reason=x.reason, law=x.law)
                  for x in r["deductions"]]
        vp_html = e(vp) + "".join(f'<br><span class="deduction">{e(x)}</span>' for x in docked)
        if r["walkover"] is not None:  # FSB L109A: no board played
            absent = ", ".join(T("team", n=t) for t in r["walkover"].absent)
            vp_html += f'<br><span class="walkover">{e(T("walkover", teams=absent))}</span>'

        boards = "–" if r["walkover"] is not None else f'{r["scored"]}/{r["total"]}'
        trs.append(f'<tr class="match" id="match-{e(r["ident"])}"><td>{e(r["session"])}</td>'
                   f'<td>{e(teams)}</td><td>{e(rooms)}</td>'
                   f'<td class="boards">{boards}</td>'
                   f'<td class="imps">{e(r["home_won"])}–{e(r["away_won"])}</td><td class="vp">{vp_html}</td>'
                   f'<td>{e(T("by_td") if r["source"] == "td" else T("by_movement"))}</td></tr>')
        notes += [f'<li class="refused">{e(teams)}: {e(say(p, lang))}</li>' for p in r["problems"]]
    head = "".join(f"<th>{e(T(c))}</th>" for c in ("col_session", "col_match", "col_rooms", "col_boards",
                                                    "col_imps", "col_vp", "col_set_by"))
    totals = "".join(f'<tr class="total" data-team="{team}"><td>{e(session)}</td>'
                     f'<td>{e(T("team", n=team))}</td><td class="vp">{float(vp):.2f}</td></tr>'
                     for (session, team), vp in sorted(vp_totals(found).items()))
    table = (f'<h3>{e(T("totals_head"))}</h3><table id="vp-totals"><tr><th>{e(T("col_session"))}</th>'
             f'<th>{e(T("col_team"))}</th><th>{e(T("col_vp"))}</th></tr>{totals}</table>') if totals else ""
    matches = sum(1 for r in found if "ident" in r)
    return (f'<h2>{e(T("head", n=matches))}</h2><p>{e(T("explain"))}</p><table id="matches"><tr>{head}</tr>'
            f'{"".join(trs)}</table>' + (f'<ul id="match-problems">{"".join(notes)}</ul>' if notes else "") + table)


def _bye_row(session: str, b: match_byes.Bye, T: Any, e: Any) -> str:
    """A bye as a row of the matches' table: the team, its round, the bye's VPs (FSB 96B) or why
    there are none yet."""
    vp = (T("imps_only") if b.scale == "none" else T("bye_not_set") if b.vp is None else f"{float(b.vp):.2f}")
    return (f'<tr class="bye" id="bye-{b.team}-{b.round}"><td>{e(session)}</td>'
            f'<td>{e(T("bye", team=T("team", n=b.team)))}</td><td>{e(T("bye_round", round=b.round))}</td>'
            f'<td class="boards">–</td><td class="imps">–</td><td class="vp">{e(vp)}</td>'
            f'<td>{e(T("by_td") if b.source == "td" else T("by_movement"))}</td></tr>')
