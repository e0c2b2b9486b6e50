"""Which scoring-program link the station runs, for the director page: the Data Connector (per
session: results taken and when the scoring program last took one and last asked), or the `.bws`
bridge with when the scoring program last read a result (its Processed flags). Times are shown
in the station's local time, as the scoring PC's clock shows them."""
from __future__ import annotations

import calendar
import html
import json
import time
from typing import Any

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


def line(st: Any, event: str | None = None) -> str:
    """One paragraph of HTML for the director page."""
    s = integration(st, event)
    e = html.escape
    if s["integration"] != "bws":
        parts = []
        for x in s["sessions"]:
            took = (f"last took one at {e(local(x['accepted_at']))}" if x["accepted_at"]
                    else "none taken yet")
            asked = f", last asked at {e(local(x['polled_at']))}" if x["polled_at"] else ", not polled yet"
            parts.append(f'<span class="dc-session">{e(x["name"] or x["guid"])}: {x["accepted"]} results '
                         f'taken by the scoring program, {took}{asked}</span>')
        detail = "; ".join(parts) if parts else "the scoring program has not initialised a session yet"
        return (f'<p id="integration">Scoring program link: Bridgemate Data Connector (/dc-scoringprogram); '
                f'{s["accepted"]} results taken by the scoring program (times are local). {detail}.</p>'
                + scorer_items_html(st.store.scorer_items(event or st.config.event)))
    when = local(s.get("last_read_at"))
    read = (f'last read by the scoring program at {e(when)} (local time)' if when
            else "not read by the scoring program yet")
    text = (f'Scoring program link: .bws file {e(str(s.get("path")))} (Ruter, Magic Contest; the Data '
            f'Connector is off); {int(s.get("written") or 0)} results in the file, '
            f'{int(s.get("processed") or 0)} read; {read}.')
    problems = [e(s["error"])] if s.get("error") else []
    problems += [e(h) for h in s.get("held") or []]
    if problems:
        text += '<br><strong class="bws-error">' + "<br>".join(problems[:20]) + "</strong>"
    return f'<p id="integration">{text}</p>'


LEVELS = {0: "Pass", -10: "no play"}
ARTIFICIAL = ("Avg-", "Avg", "Avg+")


# the file's Denomination and Stake codes (a value of any type may be read from a damaged row)
STRAINS: dict[object, str] = {1: "C", 2: "D", 3: "H", 4: "S", 5: "NT"}
STAKES: dict[object, str] = {1: "x", 2: "xx"}


def _result_text(p: dict) -> str:
    """A ResultDTO the scoring program put, in words: `4♠= W`, `Avg+/Avg-`, `Pass`."""
    level = p.get("Level")
    if not isinstance(level, int):
        return "?"
    if -9 <= level <= -1:
        ns, ew = divmod(-level - 1, 3)
        return f"{ARTIFICIAL[ns]}/{ARTIFICIAL[ew]}"
    if level <= 0:
        return LEVELS.get(level, "?")
    strain = STRAINS.get(p.get("Denomination"), "?")
    stake = STAKES.get(p.get("Stake"), "")
    tricks = p.get("TotalTricks")
    over = tricks - level - 6 if isinstance(tricks, int) else None
    made = "=" if over == 0 else (f"{over:+d}" if over is not None else "")
    return f"{level}{strain}{stake}{made} {'-NESW'[p['DeclarerDirection']] if p.get('DeclarerDirection') in (1, 2, 3, 4) else ''}"


def scorer_items_html(items: list[dict]) -> str:
    """Results and TD calls the scoring program put (PutResults, PutTdCalls): its own, shown to
    the director apart from the tables' (they never go back to it as if a table had sent them)."""
    if not items:
        return ""
    e = html.escape
    lines = []
    for it in items[-50:]:
        where = f'table {e(it["section"])}{it["table"]}, round {it["round"]}'
        if it["kind"] == "result":
            lines.append(f'<li class="scorer-result">{where}, board {it["board"]}: '
                         f'{e(_result_text(it["payload"]))} (put {e(local(it["received_at"]))})</li>')
        else:
            p = it["payload"]
            status = {1: "launched", 2: "in progress", 3: "resolved", 4: "deferred"}.get(p.get("Status"), "?")
            lines.append(f'<li class="scorer-td-call">{where}: TD call {status} at {int(p.get("Hour") or 0):02d}:'
                         f'{int(p.get("Minute") or 0):02d} (put {e(local(it["received_at"]))})</li>')
    return (f'<h2>From the scoring program ({len(items)}{", the latest 50 shown" if len(items) > 50 else ""})</h2>'
            f'<ul id="scorer-items">{"".join(lines)}</ul>')
