"""The director page's team matches: every match of the event's sessions with its running score
(the IMPs each team has won so far, boards scored, VPs once complete) and what keeps a movement from holding a match."""
from __future__ import annotations

import html
from typing import Any

from . import match_store
from .team_exports import imps_text, team_name


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
                        "deductions": [x.text() for x in s.deductions]})
        out += [{"session": x["name"] or x["id"], "problem": p} for p in found.problems]
    return out


def html_section(st: Any, event: str) -> str:
    found = rows(st, event)
    if not found:
        return ""
    e = html.escape
    trs, notes = [], []
    for r in found:
        if "problem" in r:
            notes.append(f'<li class="refused">{e(r["session"])}: {e(r["problem"])}</li>')
            continue
        rooms = "; ".join(f"open {e(o)}, closed {e(c)} (round {n})" for o, c, n in r["rooms"])
        vp = (f'{r["vp"][0]:.2f}–{r["vp"][1]:.2f}' if r["vp"] else
              ("IMPs only" if r["scale"] == "none" else "when complete"))
        vp += "".join(f'<br><span class="deduction">{e(x)}</span>' for x in r["deductions"])
        trs.append(f'<tr class="match" id="match-{e(r["ident"])}"><td>{e(r["session"])}</td>'
                   f'<td>{e(team_name(r["home"]))} v {e(team_name(r["away"]))}</td><td>{rooms}</td>'
                   f'<td class="boards">{r["scored"]}/{r["total"]}</td>'
                   f'<td class="imps">{e(r["home_won"])}–{e(r["away_won"])}</td><td class="vp">{vp}</td>'
                   f'<td>{"TD" if r["source"] == "td" else "movement"}</td></tr>')
        notes += [f'<li class="refused">{e(team_name(r["home"]))} v {e(team_name(r["away"]))}: {e(p)}</li>'
                  for p in r["problems"]]
    return (f'<h2>Team matches ({len(trs)})</h2><p>Home team first; the IMPs each team has won so far (the margin is '
            f'their difference); VPs on the WBF 2013 20-0 scale once every board is scored in both '
            f'rooms.</p><table id="matches"><tr><th>Session</th>'
            f'<th>Match</th><th>Rooms</th><th>Boards scored</th><th>IMPs</th><th>VP</th><th>Set by</th></tr>'
            f'{"".join(trs)}</table>' + (f'<ul id="match-problems">{"".join(notes)}</ul>' if notes else ""))
