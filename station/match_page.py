"""The director page's team matches: every match of the event's sessions with its running score
(the IMPs each team has won so far, boards scored, VPs once complete) and what keeps a movement from holding a match."""
from __future__ import annotations

import functools
import html
from typing import Any

from . import match_store
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
                        "deductions": list(s.deductions)})
        out += [{"session": x["name"] or x["id"], "problem": p} for p in found.problems]
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
        teams = T("versus", home=T("team", n=r["home"]), away=T("team", n=r["away"]))
        rooms = "; ".join(T("rooms", open=o, closed=c, round=n) for o, c, n in r["rooms"])
        vp = (f'{r["vp"][0]:.2f}–{r["vp"][1]:.2f}' if r["vp"] else
              T("imps_only") if r["scale"] == "none" else T("when_complete"))
        # the TD's VP deductions (station/match_deductions.py); the reason and the Law as the TD typed them
        docked = [T("deduction", team=T("team", n=x.team), vp=vp_text(x.vp), reason=x.reason, law=x.law)
                  for x in r["deductions"]]
        vp_html = e(vp) + "".join(f'<br><span class="deduction">{e(x)}</span>' for x in docked)
        trs.append(f'<tr class="match" id="match-{e(r["ident"])}"><td>{e(r["session"])}</td>'
                   f'<td>{e(teams)}</td><td>{e(rooms)}</td>'
                   f'<td class="boards">{r["scored"]}/{r["total"]}</td>'
                   f'<td class="imps">{e(r["home_won"])}–{e(r["away_won"])}</td><td class="vp">{vp_html}</td>'
                   f'<td>{e(T("by_td") if r["source"] == "td" else T("by_movement"))}</td></tr>')
        notes += [f'<li class="refused">{e(teams)}: {e(say(p, lang))}</li>' for p in r["problems"]]
    head = "".join(f"<th>{e(T(c))}</th>" for c in ("col_session", "col_match", "col_rooms", "col_boards",
                                                    "col_imps", "col_vp", "col_set_by"))
    return (f'<h2>{e(T("head", n=len(trs)))}</h2><p>{e(T("explain"))}</p><table id="matches"><tr>{head}</tr>'
            f'{"".join(trs)}</table>' + (f'<ul id="match-problems">{"".join(notes)}</ul>' if notes else ""))
