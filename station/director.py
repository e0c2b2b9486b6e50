"""The live director page: every table's progress (bidding, playing, waiting for result, late),
open TD calls, results as they arrive. `status()` is plain data (also served as JSON);
`render()` turns it into a self-refreshing HTML page with no scripts and no external assets.

The page is for the TD (it needs the director token): it shows every result. Players' tablets
get a board's results only through /api/v1/boards/<n>/results, after their own result
(scoring spec 6.5, Law 16).
"""
from __future__ import annotations

import calendar
import html
import time
from typing import Any

from .bws import status as bws_status
from .records import at_iso, td_call_facts
from .store import latest_results

OPEN_TD = ("launched", "in_progress", "deferred")
PHASE_LABEL = {"bidding": "bidding", "playing": "playing", "entering_result": "waiting for result",
               "result_in": "result in", "idle": "not started", "next_board": "playing (no auction log)",
               "round_done": "round done, waiting to move"}


def _epoch(iso: str) -> float:
    try:
        return calendar.timegm(time.strptime(iso, "%Y-%m-%dT%H:%M:%SZ"))
    except (ValueError, TypeError):
        return 0.0


def status(st: Any, event: str, now: float | None = None) -> dict:
    now = time.time() if now is None else now
    store = st.store
    items = store.items(event)
    tables: dict[tuple[str, int], dict] = {}

    def table(section: str, t: int) -> dict:
        return tables.setdefault((section, t), {
            "section": section, "table": t, "round": None, "board": None, "phase": "idle",
            "last_seen": None, "late": False, "results": 0, "open_td_calls": 0, "_results": set()})

    for section, t in store.tables_with_keys(event):
        table(section, t)
    td_latest: dict[tuple, dict] = {}
    for it in items:
        p = it["payload"]
        row = table(p["section"], p["table"])
        row["last_seen"] = it["received_at"]
        if it["kind"] == "td_call":
            ident, state = td_call_facts(it["key"], p)
            td_latest[ident] = {**p, "status": state, "at": at_iso(p.get("at")),
                                "note": p.get("note") or p.get("reason"), "received_at": it["received_at"]}
            if row["round"] is None:  # the call is the first news from this table
                row["round"], row["board"] = p.get("round") or None, p.get("board")
            continue
        if it["kind"] == "result":
            row["_results"].add((p["round"], p["board"]))
            row["round"], row["board"], row["phase"] = p["round"], p["board"], "result_in"
        elif (p["round"], p["board"]) not in row["_results"]:
            row["round"], row["board"], row["phase"] = p["round"], p["board"], p["phase"]
    open_calls = sorted((c for c in td_latest.values() if c["status"] in OPEN_TD),
                        key=lambda c: c["received_at"])
    for c in open_calls:
        table(c["section"], c["table"])["open_td_calls"] += 1
    rounds = [r["round"] for r in tables.values() if r["round"] is not None]
    field_round = max(rounds) if rounds else None
    late_after = st.config.late_minutes * 60
    movement = {(r[0], int(r[1]), int(r[2])): range(int(r[3]), int(r[4]) + 1) for r in store.query(
        "SELECT m.section, m.table_no, m.round_no, m.low_board, m.high_board FROM dc_rounds m "
        "JOIN dc_sessions s ON s.session_guid = m.session_guid WHERE s.event = ? AND m.low_board > 0",
        (event,))}
    for row in tables.values():
        done = row.pop("_results")
        row["results"] = len(done)
        boards = movement.get((row["section"], row["table"], row["round"] or 0))
        if row["phase"] == "result_in" and boards:
            # With the scoring program's movement the station knows what is still to play, even
            # from a tablet that sends only results.
            missing = [b for b in boards if (row["round"], b) not in done]
            if missing:
                row["phase"], row["board"] = "next_board", missing[0]
            elif field_round is not None and row["round"] < field_round:
                row["phase"] = "round_done"
        in_progress = row["phase"] in ("bidding", "playing", "entering_result", "next_board")
        quiet = row["last_seen"] is not None and now - _epoch(row["last_seen"]) > late_after
        behind = field_round is not None and row["round"] is not None and row["round"] < field_round \
            and row["phase"] not in ("result_in", "round_done")
        row["late"] = bool((in_progress and quiet) or behind)
        row["phase_label"] = PHASE_LABEL.get(row["phase"], row["phase"])
        if row["phase"] == "idle" and row["round"] is not None:
            row["phase_label"] = "in progress"  # only a TD call so far
    results = [it["payload"] | {"received_at": it["received_at"]}
               for it in latest_results([i for i in items if i["kind"] == "result"])]
    results.sort(key=lambda r: r["received_at"], reverse=True)
    return {"event": event, "generated_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now)),
            "tables": sorted(tables.values(), key=lambda r: (r["section"], r["table"])),
            "open_td_calls": open_calls, "results": results,
            "refusals": sorted((r for rs in store.refusals(event).values() for r in rs),
                               key=lambda r: r["at"], reverse=True)[:50],
            "stored_keys": [it["key"] for it in items]}


def _sessions_html(st: Any, event: str) -> str:
    """Which id each session's tablets use (a later session's: `<event>.<n>`), for a setup typed in."""
    from .movement import sessions

    items = [f"<li>{html.escape(x['name'] or x['guid'])} ({', '.join(map(html.escape, x['sections']))}): "
             f"table id <code>{html.escape(x['id'])}/&lt;section&gt;/&lt;table&gt;</code></li>"
             for x in sessions(st.store, event)]
    return f'<ul id="sessions">{"".join(items)}</ul>' if items else ""


def _contract_text(r: dict) -> str:
    if r.get("adjusted"):
        a = r["adjusted"]
        if a.get("kind") == "artificial":
            return f"artificial {a.get('ns')}/{a.get('ew')}"
        return f"adjusted ({a.get('kind')})"
    if r.get("contract") in (None, "PASS"):
        return "passed out"
    return f"{r['contract']} {r['declarer']}"


def render(st: Any, event: str) -> str:
    s = status(st, event)
    e = html.escape
    rows = []
    for t in s["tables"]:
        cls = "late" if t["late"] else t["phase"]
        rows.append(
            f'<tr class="table-row {e(cls)}" id="table-{e(t["section"])}{t["table"]}">'
            f'<td>{e(t["section"])}{t["table"]}</td><td>{t["round"] or ""}</td><td>{t["board"] or ""}</td>'
            f'<td class="phase">{e(t["phase_label"])}{" — LATE" if t["late"] else ""}</td>'
            f'<td>{t["results"]}</td><td>{t["open_td_calls"] or ""}</td>'
            f'<td>{e(t["last_seen"] or "")}</td></tr>')
    calls = [f'<li class="td-call">Table {e(c["section"])}{c["table"]}, round {c["round"]}'
             f'{", board " + str(c["board"]) if c.get("board") else ""}: {e(c["status"])} at {e(c["at"])}'
             f'{" — " + e(c["note"]) if c.get("note") else ""}</li>' for c in s["open_td_calls"]]
    res = [f'<tr class="result"><td>{e(r["section"])}{r["table"]}</td><td>{r["round"]}</td><td>{r["board"]}</td>'
           f'<td>{r["ns_pair"]}–{r["ew_pair"]}</td><td>{e(_contract_text(r))}</td>'
           f'<td>{"" if r.get("tricks") is None else r["tricks"]}</td>'
           f'<td>{"" if r.get("score_ns") is None else r["score_ns"]}</td><td>{e(r["received_at"])}</td></tr>'
           for r in s["results"][:200]]
    refused = [f'<li class="refused">{e(r["at"])} table {e(r["table"])}: HTTP {r["status"]} {e(r["error"])}'
               f'{" (" + e(r["key"]) + ")" if r["key"] else ""}</li>' for r in s["refusals"]]
    keys = [f"<tr><td>{e(sec)}{t}</td><td><code>{e(st.table_key(event, sec, t))}</code></td></tr>"
            for sec, t in st.store.tables_with_keys(event)]
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="5">
<title>Director — {e(event)}</title>
<style>
body{{font-family:sans-serif;margin:1em}} table{{border-collapse:collapse}} td,th{{padding:2px 8px;border-bottom:1px solid #ddd}}
tr.late td{{background:#fcc}} tr.bidding td.phase{{color:#06c}} tr.playing td.phase{{color:#090}}
tr.entering_result td.phase{{color:#c60}} li.td-call{{color:#c00;font-weight:bold}} li.refused{{color:#a50}}
</style></head><body>
<h1>Director — {e(event)}</h1>
<p>Updated {e(s["generated_at"])} (refreshes every 5 s). Exports:
<a href="/export/pbn?event={e(event)}">PBN</a> · <a href="/export/usebio?event={e(event)}">USEBIO XML</a></p>
{bws_status.line(st)}
<h2>Open TD calls ({len(calls)})</h2><ul id="td-calls">{"".join(calls) or "<li>none</li>"}</ul>
{f'<h2>Refused deliveries (the newest 50 per table)</h2><ul id="refused">{"".join(refused)}</ul>' if refused else ""}
<h2>Tables</h2>
<table id="tables"><tr><th>Table</th><th>Round</th><th>Board</th><th>Progress</th><th>Results</th><th>TD calls</th><th>Last news (UTC)</th></tr>
{"".join(rows)}</table>
<h2>Results as they arrive ({len(s["results"])})</h2>
<table id="results"><tr><th>Table</th><th>Round</th><th>Board</th><th>Pairs</th><th>Contract</th><th>Tricks</th><th>Score NS</th><th>Received</th></tr>
{"".join(res)}</table>
<details><summary>Table keys (type one into each tablet at setup)</summary>
<table id="keys">{"".join(keys)}</table>{_sessions_html(st, event)}</details>
</body></html>"""
