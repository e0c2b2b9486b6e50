"""Which scoring-program link the station runs, for the director page: the Data Connector (per
session: results taken and when the scoring program last took one and last asked), or the `.bws`
bridge with when the scoring program last read a result (its Processed flags), the file missing,
unreadable or replaced, and the TD's question about a file of another session. Times are shown
in the station's local time, as the scoring PC's clock shows them. `health` is the link's part
of /api/v1/health."""
from __future__ import annotations

import calendar
import functools
import html
import json
import time
from typing import Any

from ..director_texts import DEFAULT, seat
from ..link_texts import LINK, text
from ..notice_texts import words_for

RESULTS = 12  # the Data Connector's results queue (DataConnectorResponseData.Results)


def local(iso: str | None) -> str:
    """`2026-11-24T22:05:00Z` (UTC, as stored) -> `2026-11-24 23:05:00` in local time; '' if none."""
    if not iso:
        return ""
    try:
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(calendar.timegm(
            time.strptime(iso, "%Y-%m-%dT%H:%M:%SZ"))))
    except (ValueError, OverflowError):
        return iso


def integration(st: Any, event: str | None = None) -> dict[str, Any]:
    store = st.store
    if store.setting("integration") == "bws":
        saved = store.setting("bws/status")
        return {"integration": "bws", **(json.loads(saved) if saved else {})}
    event = event or st.config.event
    sessions = [{"guid": r[0], "name": r[1], "polled_at": r[2], "accepted_at": r[3], "accepted": int(r[4])}
                for r in store.query(
                    "SELECT s.session_guid, s.name, r.polled_at, r.accepted_at, (SELECT COUNT(*) FROM dc_accepted a "
                    "WHERE a.session_guid = s.session_guid AND a.data_type = ?) FROM dc_sessions s "
                    "LEFT JOIN dc_reads r ON r.session_guid = s.session_guid AND r.data_type = ? "
                    "WHERE s.event = ? ORDER BY s.created_at, s.session_guid", (RESULTS, RESULTS, event))]
    return {"integration": "dataconnector", "accepted": sum(s["accepted"] for s in sessions),
            "sessions": sessions}


def line(st: Any, event: str | None = None, lang: str = DEFAULT) -> str:
    """One paragraph of HTML for the director page, in `lang` (station/link_texts.py)."""
    s = integration(st, event)
    e = html.escape
    T = functools.partial(text, LINK, lang=lang)
    if s["integration"] != "bws":
        parts = []
        for x in s["sessions"]:
            took = T("dc_took", at=local(x["accepted_at"])) if x["accepted_at"] else T("dc_none_taken")
            asked = T("dc_asked", at=local(x["polled_at"])) if x["polled_at"] else T("dc_not_polled")
            parts.append(f'<span class="dc-session">'
                         f'{e(T("dc_session", name=x["name"] or x["guid"], n=x["accepted"], took=took, asked=asked))}'
                         f'</span>')
        detail = "; ".join(parts) if parts else e(T("dc_no_session"))
        head, _, tail = T("dc", n=s["accepted"], detail="\0").partition("\0")
        return (f'<p id="integration">{e(head)}{detail}{e(tail)}</p>'
                + scorer_items_html(st.store.scorer_items(event or st.config.event), lang))
    when = local(s.get("last_read_at"))
    read = T("bws_read", at=when) if when else T("bws_not_read")
    said = e(T("bws", path=str(s.get("path")), written=int(s.get("written") or 0),
               read=int(s.get("processed") or 0), when=read))
    # the bridge's own words by their code in `lang` (station/notices.py); the English a status
    # without them holds (an older station's) as it is
    problems = [e(words_for(s.get("error_notice"), s["error"], lang))] if s.get("error") else []
    problems += [e(_said(s.get("held_notices"), k, h, lang)) for k, h in enumerate(s.get("held") or [])]
    if problems:
        said += '<br><strong class="bws-error">' + "<br>".join(problems[:20]) + "</strong>"
    return f'<p id="integration">{said}</p>' + _question(s, lang) + _replaced(s, lang)


def _question(s: dict[str, Any], lang: str = DEFAULT) -> str:
    """A replaced file the earlier results do not fit: what differs, and the TD's two answers."""
    q = s.get("replaced")
    if not isinstance(q, dict) or s.get("file") != "replaced":
        return ""
    e = html.escape
    T = functools.partial(text, LINK, lang=lang)
    db = f" --db {q['db']}" if q.get("db") else ""
    more = int(q.get("count") or 0) - len(q.get("differs") or [])
    items = "".join(f"<li>{e(_said(q.get('differs_notices'), k, d, lang))}</li>"
                    for k, d in enumerate(q.get("differs") or []))
    since = T("replaced_since", at=local(q.get("since")), why=_all(q, "why", lang))
    if more > 0:
        items += f"<li>{e(T('replaced_more', n=more))}</li>"
    return (f'<div id="bws-replaced" class="bws-error"><strong>{e(T("replaced_head"))}</strong> ({e(since)}). '
            f'{e(T("replaced_wait"))}<ul>{items}</ul>'
            f'<p>{e(T("replaced_write"))} <code>python -m station bws-replaced{e(db)} '
            f'write</code> {e(T("replaced_write_held"))}<br>{e(T("replaced_leave"))} '
            f'<code>python -m station bws-replaced{e(db)} leave</code> {e(T("replaced_leave_kept"))}</p></div>')


def _replaced(s: dict[str, Any], lang: str = DEFAULT) -> str:
    """The latest replaced file taken over: when, why, and the earlier results written into it."""
    r = s.get("last_replaced")
    if not isinstance(r, dict):
        return ""
    T = functools.partial(text, LINK, lang=lang)
    if r.get("choice") == "leave":
        what = T("taken_left")
    else:
        what = T("taken_written", rewritten=int(r.get("rewritten") or 0), results=int(r.get("results") or 0),
                 found=int(r.get("found") or 0))
    said = T("taken_over", at=local(r.get("at")), why=_all(r, "why", lang), what=what)
    return f'<p id="bws-taken-over">{html.escape(said)}</p>'


def _said(notices: Any, k: int, english: Any, lang: str) -> str:
    """The `k`th of a list the status holds in English, said from its notice beside it."""
    doc = notices[k] if isinstance(notices, list) and k < len(notices) else None
    return words_for(doc, english, lang)


def _all(doc: dict[str, Any], name: str, lang: str) -> str:
    """A list the status holds (`why`), in `lang`, "; " between."""
    return "; ".join(_said(doc.get(name + "_notices"), k, x, lang) for k, x in enumerate(doc.get(name) or []))


# What /api/v1/health says of the .bws link: no path (the health check needs no login).
HEALTH_TEXT = {
    "missing": "the .bws file is missing (the scoring program re-creating it?): results are kept and written "
               "when it is back",
    "unreadable": "the .bws file cannot be read as a database",
    "not_bws": "the .bws file lacks the tables of a Bridgemate session",
    "locked": "the .bws file is locked by another program",
    "unplayable": "the movement in the .bws cannot be played by the tablets",
    "replaced": "the .bws was replaced by a file the earlier results do not fit: the TD must answer (director page)",
}
STALE_LOOKS = 20  # a bridge that has not looked at the file for this many --bws-poll periods is stuck


def health(store: Any, now: float | None = None) -> tuple[list[str], dict[str, Any] | None]:
    """(problems, summary) of the .bws link for `/api/v1/health`; ([], None) with the Data
    Connector. A problem here degrades the station (HTTP 200, status "degraded"): the tables'
    results are safe in the station and reach the file once it is put right (docs/station.md)."""
    if store.setting("integration") != "bws":
        return [], None
    try:
        s = json.loads(store.setting("bws/status") or "{}")
    except ValueError:
        s = {}
    kind = str(s.get("file") or ("error" if s.get("error") else "unknown"))
    problems = []
    if s.get("error"):
        problems.append(HEALTH_TEXT.get(kind, "the .bws bridge cannot use the file (director page)"))
    checked = s.get("checked_at")
    poll = float(s.get("poll_s") or 3.0)
    try:
        age = (time.time() if now is None else now) - calendar.timegm(time.strptime(str(checked), "%Y-%m-%dT%H:%M:%SZ"))
    except ValueError:
        age = None
    if checked and age is not None and age > max(120.0, STALE_LOOKS * poll):
        problems.append(f"the .bws bridge has not looked at the file for {int(age)} s")
    return problems, {"kind": "bws", "file": kind, "since": s.get("error_since") if s.get("error") else None,
                      "checked_at": checked, "results_in_file": int(s.get("written") or 0),
                      "held": len(s.get("held") or []), "question": kind == "replaced"}


LEVELS = {0: "scorer_pass", -10: "scorer_no_play"}  # their words' keys (station/link_texts.py)
ARTIFICIAL = ("Avg-", "Avg", "Avg+")


# the file's Denomination and Stake codes (a value of any type may be read from a damaged row)
STRAINS: dict[object, str] = {1: "C", 2: "D", 3: "H", 4: "S", 5: "NT"}
STAKES: dict[object, str] = {1: "x", 2: "xx"}


def _result_text(p: dict, lang: str = DEFAULT) -> str:
    """A ResultDTO the scoring program put, in words: `4♠= W` (the declarer's seat as the
    language's bidding boxes print it), `Avg+/Avg-`, `Pass`."""
    level = p.get("Level")
    if not isinstance(level, int):
        return "?"
    if -9 <= level <= -1:
        ns, ew = divmod(-level - 1, 3)
        return f"{ARTIFICIAL[ns]}/{ARTIFICIAL[ew]}"
    if level <= 0:
        return text(LINK, LEVELS[level], lang=lang) if level in LEVELS else "?"
    strain = STRAINS.get(p.get("Denomination"), "?")
    stake = STAKES.get(p.get("Stake"), "")
    tricks = p.get("TotalTricks")
    over = tricks - level - 6 if isinstance(tricks, int) else None
    made = "=" if over == 0 else (f"{over:+d}" if over is not None else "")
    declarer = p.get("DeclarerDirection")
    return f"{level}{strain}{stake}{made} {seat('-NESW'[declarer], lang) if declarer in (1, 2, 3, 4) else ''}"


def scorer_items_html(items: list[dict], lang: str = DEFAULT) -> str:
    """Results and TD calls the scoring program put (PutResults, PutTdCalls): its own, shown to
    the director apart from the tables' (they never go back to it as if a table had sent them)."""
    if not items:
        return ""
    e = html.escape
    T = functools.partial(text, LINK, lang=lang)
    lines = []
    for it in items[-50:]:
        where = T("scorer_where", table=f'{it["section"]}{it["table"]}', round=it["round"])
        put = local(it["received_at"])
        if it["kind"] == "result":
            said = T("scorer_result", where=where, board=it["board"], result=_result_text(it["payload"], lang), at=put)
            lines.append(f'<li class="scorer-result">{e(said)}</li>')
        else:
            p = it["payload"]
            status = TD_STATUS.get(p.get("Status"))
            said = T("scorer_td_call", where=where, status=T(status) if status else "?", at=put,
                     time=f'{int(p.get("Hour") or 0):02d}:{int(p.get("Minute") or 0):02d}')
            lines.append(f'<li class="scorer-td-call">{e(said)}</li>')
    head = T("scorer_head", n=len(items), more=T("scorer_latest") if len(items) > 50 else "")
    return f'<h2>{e(head)}</h2><ul id="scorer-items">{"".join(lines)}</ul>'


# The Data Connector's TD-call statuses (TdCallDTO Status), by their words' keys.
TD_STATUS: dict[object, str] = {1: "td_launched", 2: "td_in_progress", 3: "td_resolved", 4: "td_deferred"}
