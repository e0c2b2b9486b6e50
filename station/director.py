"""The live director page: every table's progress (bidding, playing, waiting for result, late),
open TD calls, results as they arrive. `status()` is plain data (also served as JSON);
`render()` turns it into a self-refreshing HTML page with no scripts and no external assets.

The page is for the TD (it needs the director token): it shows every result. Players' tablets
get a board's results only through /api/v1/boards/<n>/results, after their own result
(2007 L16C1 / 2017 L16D1: information from another table).
"""
from __future__ import annotations

import base64
import calendar
import collections
import hashlib
import html
import threading
import time
from typing import Any
from urllib.parse import quote

from . import law16, match_page
from .bws import status as bws_status
from .records import at_iso, td_call_facts
from .store import latest_results
from .stored import COLUMNS, Damaged, read_row

OPEN_TD = ("launched", "in_progress", "deferred")
PHASE_LABEL = {"bidding": "bidding", "playing": "playing", "entering_result": "waiting for result",
               "result_in": "result in", "idle": "not started", "next_board": "playing (no auction log)",
               "round_done": "round done, waiting to move"}


def _epoch(iso: str) -> float:
    try:
        return calendar.timegm(time.strptime(iso, "%Y-%m-%dT%H:%M:%SZ"))
    except (ValueError, TypeError):
        return 0.0


def local_time(iso: str | None, now: float | None = None) -> str:
    """A station timestamp (UTC ISO) as the TD's clock shows it: the station's local time,
    `19:45:12` today, `22 Nov 19:45` another day."""
    if not iso:
        return ""
    epoch = _epoch(iso)
    if not epoch:
        return str(iso)
    t = time.localtime(epoch)
    today = time.localtime(time.time() if now is None else now)
    return time.strftime("%H:%M:%S" if t[:3] == today[:3] else "%d %b %H:%M", t)


def idle_row(section: str, t: int) -> dict:
    """A table the station has heard nothing from yet."""
    return {"section": section, "table": t, "round": None, "board": None, "phase": "idle",
            "last_seen": None, "results": set()}


class Progress:
    """What the page needs, folded from the stored items as they arrive: each table's round,
    board, phase, last news and results; the TD calls; the latest results. A page refresh
    reads only the items stored since the last one (by id: items are only ever appended, one
    writer at a time), so its cost follows the number of tables, not everything stored. Kept
    in memory; after a restart the first refresh (or `warm`) folds the whole database once."""

    RECENT = 400

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.after_id = 0
        self.events: dict[str, dict] = {}

    def _event(self, event: str) -> dict:
        ev = self.events.get(event)
        if ev is None:  # made once per event, not once per folded item
            ev = self.events[event] = {"tables": {}, "td": {}, "recent": collections.deque(maxlen=self.RECENT),
                                       "damaged": {}}
        return ev

    @staticmethod
    def _table(ev: dict, section: str, t: int) -> dict:
        row = ev["tables"].get((section, t))
        if row is None:
            row = ev["tables"][(section, t)] = idle_row(section, t)
        return row

    def catch_up(self, store: Any) -> None:
        while True:
            rows = store.query(f"SELECT {COLUMNS} FROM items WHERE id > ? ORDER BY id LIMIT 5000", (self.after_id,))
            for row in rows:
                # A row no reader can use is listed as damaged, never folded (station/stored.py).
                it = read_row(row)
                if isinstance(it, Damaged):
                    self._event(it.event)["damaged"][it.id] = it
                else:
                    self._fold(it["id"], it["key"], it["kind"], it["event"], it["received_at"], it["payload"])
                self.after_id = int(row[0])
            if len(rows) < 5000:
                return

    def _fold(self, item_id: int, key: str, kind: str, event: str, received_at: str, p: dict) -> None:
        ev = self._event(event)
        row = self._table(ev, p["section"], p["table"])
        row["last_seen"] = received_at
        if kind == "td_call":
            ident, state = td_call_facts(key, p)
            ev["td"][ident] = {**p, "status": state, "at": at_iso(p["at"] if p.get("at") is not None else received_at),
                               "note": p.get("note") or p.get("reason"), "received_at": received_at}
            if row["round"] is None:  # the call is the first news from this table
                row["round"], row["board"] = p.get("round") or None, p.get("board")
        elif kind == "result":
            row["results"].add((p["round"], p["board"]))
            row["round"], row["board"], row["phase"] = p["round"], p["board"], "result_in"
            ev["recent"].append({"id": item_id, "key": key, "kind": kind, "received_at": received_at, "payload": p})
        elif kind == "auction" and (p["round"], p["board"]) not in row["results"]:
            row["round"], row["board"], row["phase"] = p["round"], p["board"], p["phase"]
        elif kind == "round" and isinstance(p.get("round"), int) and p["round"] > (row["round"] or 0):
            # the table started a later round (docs/station.md "Law 16 at the station")
            row["round"], row["board"], row["phase"] = p["round"], None, "idle"

    def snapshot(self, store: Any, event: str) -> tuple[list[dict], list[dict], list[dict], list[Damaged]]:
        """(tables, TD calls, latest results, damaged rows) of one event, copied under the lock."""
        with self.lock:
            self.catch_up(store)
            ev = self._event(event)
            tables = [dict(r, results=set(r["results"])) for r in ev["tables"].values()]
            return tables, list(ev["td"].values()), list(ev["recent"]), list(ev["damaged"].values())

    def damaged_count(self, store: Any) -> int:
        """Damaged rows of every event (the health check's count)."""
        with self.lock:
            self.catch_up(store)
            return sum(len(ev["damaged"]) for ev in self.events.values())


_progress_lock = threading.Lock()


def progress_of(st: Any) -> Progress:
    with _progress_lock:
        if getattr(st, "progress", None) is None:
            st.progress = Progress()
        return st.progress


def warm(st: Any) -> None:
    """Fold what is stored now (a station restarting on a big database), so the TD's first
    refresh is as quick as the next."""
    prog = progress_of(st)
    with prog.lock:
        prog.catch_up(st.store)


def status(st: Any, event: str, now: float | None = None, full: bool = True) -> dict:
    """Every table's progress (from `Progress`: only what arrived since the last refresh is
    read). `full`: all results and every stored key (status.json reads the database for
    those); the page needs only the latest results."""
    now = time.time() if now is None else now
    store = st.store
    folded, td_calls, recent, damaged = progress_of(st).snapshot(store, event)
    tables: dict[tuple[str, int], dict] = {(r["section"], r["table"]): r for r in folded}
    for section, t in store.tables_with_keys(event):
        tables.setdefault((section, t), idle_row(section, t))
    for row in tables.values():
        row.update(late=False, open_td_calls=0)
    open_calls = sorted((c for c in td_calls if c["status"] in OPEN_TD), key=lambda c: c["received_at"])
    for c in open_calls:
        if (c["section"], c["table"]) in tables:
            tables[(c["section"], c["table"])]["open_td_calls"] += 1
    rounds = [r["round"] for r in tables.values() if r["round"] is not None]
    field_round = max(rounds) if rounds else None
    late_after = st.config.late_minutes * 60
    movement = {(r[0], int(r[1]), int(r[2])): range(int(r[3]), int(r[4]) + 1) for r in store.query(
        "SELECT m.section, m.table_no, m.round_no, m.low_board, m.high_board FROM dc_rounds m "
        "JOIN dc_sessions s ON s.session_guid = m.session_guid WHERE s.event = ? AND m.low_board > 0",
        (event,))}
    results_count = 0
    for row in tables.values():
        done = row["results"]
        row["results"] = len(done)
        results_count += len(done)
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
    if full:
        recent = store.items(event, "result")
    results = [it["payload"] | {"received_at": it["received_at"]} for it in latest_results(recent)]
    results.sort(key=lambda r: r["received_at"], reverse=True)
    doc = {"event": event, "generated_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now)),
           "tables": sorted(tables.values(), key=lambda r: (r["section"], r["table"])),
           "open_td_calls": open_calls, "results": results if full else results[:200],
           "results_count": results_count,
           **_refusals_and_held(store, event),
           # Rows no reader can use (station/stored.py), with their keys: the TD's to look into.
           "damaged": [d.to_json() for d in sorted(damaged, key=lambda d: d.id)]}
    if full:
        doc["stored_keys"] = [r[0] if isinstance(r[0], str) else repr(r[0]) for r in store.query(
            "SELECT item_key FROM items WHERE event = ? ORDER BY id", (event,))]
    return doc


def _held_html(held: list[str]) -> str:
    if not held:
        return ""
    return ('<h2>Held deliveries (a result of a round the table is not on yet: taken once the table starts '
            f'that round, 2017 Law 16D1, 2007 Law 16C1)</h2><ul id="held">{"".join(held)}</ul>')


def _refusals_and_held(store: Any, event: str) -> dict[str, list[dict]]:
    """The deliveries the station refused (newest first), and apart from them those it holds as
    too early (425, station/law16.py: the tablet sends them again), each once with its latest
    reason, until it is stored."""
    every = sorted((r for rs in store.refusals(event).values() for r in rs), key=lambda r: r["at"], reverse=True)
    held: dict[str, dict] = {}
    for r in every:
        if r["status"] == law16.TOO_EARLY and r["key"] and r["key"] not in held:
            held[r["key"]] = r
    if held:
        marks = ",".join("?" * len(held))
        stored = {row[0] for row in store.query(f"SELECT item_key FROM items WHERE item_key IN ({marks})",
                                                list(held))}
        held = {k: r for k, r in held.items() if k not in stored}
    return {"refusals": [r for r in every if r["status"] != law16.TOO_EARLY][:50], "held": list(held.values())}


def table_history(st: Any, event: str, section: str, table_no: int) -> dict:
    """One table's irregularities (from its results and auction logs, each once), TD calls
    (every status change) and damaged rows (station/stored.py), oldest first."""
    irregular: dict[str, dict] = {}
    calls = []
    items, damaged = st.store.read(event, section=section, table_no=table_no)
    for it in items:
        p, received_at = it["payload"], it["received_at"]
        if it["kind"] == "td_call":
            ident, state = td_call_facts(it["key"], p)
            calls.append({"round": p.get("round"), "board": p.get("board"), "status": state,
                          "at": at_iso(p["at"] if p.get("at") is not None else received_at), "seat": p.get("seat"),
                          "note": p.get("note") or p.get("reason"), "received_at": received_at})
            continue
        for x in p.get("irregularities") or []:
            if isinstance(x, dict):
                # What the tablet sent is carried whole (anything may be in it): compared as text.
                ident = repr((p["round"], p["board"], x.get("kind"), x.get("seat"), x.get("index"), x.get("call")))
                irregular.setdefault(ident, {**x, "round": p["round"], "board": p["board"],
                                             "received_at": received_at})
    return {"event": event, "section": section, "table": table_no, "irregularities": list(irregular.values()),
            "td_calls": calls, "damaged": [d.to_json() for d in damaged]}


def seating_of(store: Any, event: str, only: Any = None) -> dict[tuple[str, int, int], dict]:
    """(section, table, round) -> {"ns", "ew", "names": {seat: "First Last"}}: who the scoring
    program's player data and participations seat at each table in each round of its movement
    (the same seating the PBN and USEBIO exports use, station/players.py). `only`: a test on
    (section, table, round), so the tables list names only the rounds it shows."""
    from .exports import seats
    from .session_scope import scope

    sc = scope(store, event)  # the session whose tablets use this id, and only its players
    seated = seats(store, sc)
    out: dict[tuple[str, int, int], dict] = {}
    for letters in seated:
        seats_at = seated[letters][0]
        for t, r, ns, ew in store.query("SELECT table_no, round_no, pair_ns, pair_ew FROM dc_rounds "
                                        "WHERE session_guid = ? AND section = ?", (sc.guid, letters)):
            if only is not None and not only(letters, int(t), int(r)):
                continue
            who = seats_at(letters, int(t), int(r), int(ns), int(ew))
            out[(letters, int(t), int(r))] = {"ns": int(ns), "ew": int(ew),
                                              "names": {k: v["full_name"] for k, v in who.items()}}
    return out


def _names_html(place: dict | None) -> str:
    """`N Anna Berg – S Carl Dahl / E ... – W ...`, escaped; empty without names."""
    if not place or not place["names"]:
        return ""
    n = place["names"]
    side = [" – ".join(f"{s} {html.escape(n[s])}" for s in pair if s in n) for pair in ("NS", "EW")]
    return " / ".join(x for x in side if x)


def _sessions_html(st: Any, event: str) -> str:
    """Which id each session's tablets use (a later session's: `<event>.<n>`), for a setup typed in."""
    from .movement import sessions

    items = [f"<li>{html.escape(x['name'] or x['guid'])} ({', '.join(map(html.escape, x['sections']))}): "
             f"table id <code>{html.escape(x['id'])}/&lt;section&gt;/&lt;table&gt;</code></li>"
             for x in sessions(st.store, st.store.station_event_of(event))]
    return f'<ul id="sessions">{"".join(items)}</ul>' if items else ""


def _exports_html(st: Any, event: str) -> str:
    """Each session's own files: PBN, USEBIO of the session and of each of its sections (a
    reader that takes one section at a time), linked by the scoring program's SessionGuid."""
    from .movement import sessions

    e = html.escape
    found = sessions(st.store, st.store.station_event_of(event))
    if not found:
        q = quote(event, safe="")
        return (f'<p id="exports">Exports: <a href="/export/pbn?event={q}">PBN</a> · '
                f'<a href="/export/usebio?event={q}">USEBIO XML</a></p>')
    items = []
    for x in found:
        base = f"event={quote(x['id'], safe='')}&amp;session={quote(x['guid'], safe='')}"
        per_section = "".join(f' · <a href="/export/usebio?{base}&amp;section={quote(sec, safe="")}">'
                              f"USEBIO {e(sec)}</a>" for sec in x["sections"])
        items.append(f'<li>{e(x["name"] or x["guid"])} ({e(x["id"])}): <a href="/export/pbn?{base}">PBN</a> · '
                     f'<a href="/export/usebio?{base}">USEBIO XML</a>{per_section}</li>')
    return f'<p>Exports, one session each:</p><ul id="exports">{"".join(items)}</ul>'


def _contract_text(r: dict) -> str:
    if r.get("adjusted"):
        a = r["adjusted"]
        if a.get("kind") == "artificial":
            return f"artificial {a.get('ns')}/{a.get('ew')}"
        return f"adjusted ({a.get('kind')})"
    if r.get("contract") in (None, "PASS"):
        return "passed out"
    return f"{r['contract']} {r['declarer']}"


_STYLE = """body{font-family:sans-serif;margin:1em} table{border-collapse:collapse}
td,th{padding:2px 8px;border-bottom:1px solid #ddd}
tr.late td{background:#fcc} tr.bidding td.phase{color:#06c} tr.playing td.phase{color:#090}
tr.entering_result td.phase{color:#c60} li.td-call{color:#c00;font-weight:bold} li.refused{color:#a50}
li.damaged{color:#a00}"""
# The pages' only inline content, the <style> element ("\n" + _STYLE + "\n"): their
# Content-Security-Policy allows it by this hash and nothing else inline (station/server.py).
STYLE_HASH = "'sha256-" + base64.b64encode(hashlib.sha256(f"\n{_STYLE}\n".encode()).digest()).decode() + "'"


def _zone() -> str:
    return time.strftime("%Z") or time.strftime("UTC%z")


def render(st: Any, event: str) -> str:
    s = status(st, event, full=False)
    e = html.escape
    q = quote(event, safe="")
    shown = {(t["section"], t["table"], t["round"] or 1) for t in s["tables"]}
    seating = seating_of(st.store, event, lambda sec, t, r: (sec, t, r) in shown)
    rows = []
    for t in s["tables"]:
        # the round the table is on, else its first round in the movement
        place = seating.get((t["section"], t["table"], t["round"] or 1))
        cls = "late" if t["late"] else t["phase"]
        name = f'{t["section"]}{t["table"]}'
        rows.append(
            f'<tr class="table-row {e(cls)}" id="table-{e(name)}">'
            f'<td><a href="/director/table?event={q}&amp;section={quote(t["section"])}&amp;table={t["table"]}">'
            f'{e(name)}</a></td><td>{t["round"] or ""}</td><td>{t["board"] or ""}</td>'
            f'<td class="players">{_names_html(place)}</td><td class="phase">{e(t["phase_label"])}{" — LATE" if t["late"] else ""}</td>'
            f'<td>{t["results"]}</td><td>{t["open_td_calls"] or ""}</td>'
            f'<td>{e(local_time(t["last_seen"]))}</td></tr>')
    calls = [f'<li class="td-call">Table {e(c["section"])}{c["table"]}, round {c["round"]}'
             f'{", board " + str(c["board"]) if c.get("board") else ""}: {e(c["status"])} at {e(local_time(c["at"]))}'
             f'{" — " + e(c["note"]) if c.get("note") else ""}</li>' for c in s["open_td_calls"]]
    res = [f'<tr class="result"><td>{e(r["section"])}{r["table"]}</td><td>{r["round"]}</td><td>{r["board"]}</td>'
           f'<td>{r["ns_pair"]}–{r["ew_pair"]}</td><td>{e(_contract_text(r))}</td>'
           f'<td>{"" if r.get("tricks") is None else r["tricks"]}</td>'
           f'<td>{"" if r.get("score_ns") is None else r["score_ns"]}</td><td>{e(local_time(r["received_at"]))}</td></tr>'
           for r in s["results"]]
    refused = [f'<li class="refused">{e(local_time(r["at"]))} table {e(r["table"])}: HTTP {r["status"]} '
               f'{e(r["error"])}{" (" + e(r["key"]) + ")" if r["key"] else ""}</li>' for r in s["refusals"]]
    held = [f'<li class="held">{e(local_time(r["at"]))} table {e(r["table"])}: {e(r["error"])} ({e(r["key"])})</li>'
            for r in s["held"]]
    damaged = _damaged_html(s["damaged"])
    pin_tries = _pin_tries_html(st)
    keys = [f"<tr><td>{e(sec)}{t}</td><td><code>{e(key)}</code></td></tr>"
            for (sec, t), key in st.table_keys(event, st.store.tables_with_keys(event)).items()]
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="5">
<title>Director — {e(event)}</title>
<style>
{_STYLE}
</style></head><body>
<h1>Director — {e(event)}</h1>
<p>Updated {e(local_time(s["generated_at"]))} (station time, {e(_zone())}; refreshes every 5 s).</p>
{_exports_html(st, event)}
{bws_status.line(st, event)}
{match_page.html_section(st, event)}
<h2>Open TD calls ({len(calls)})</h2><ul id="td-calls">{"".join(calls) or "<li>none</li>"}</ul>
{f'<h2>Refused deliveries (the newest 50 per table)</h2><ul id="refused">{"".join(refused)}</ul>' if refused else ""}
{_held_html(held)}
{pin_tries}
{damaged}
<h2>Tables</h2>
<p>A table's irregularities and TD calls: click its name.</p>
<table id="tables"><tr><th>Table</th><th>Round</th><th>Board</th><th>Players</th><th>Progress</th><th>Results</th><th>TD calls</th><th>Last news</th></tr>
{"".join(rows)}</table>
<h2>Results as they arrive ({s["results_count"]}{", the latest 200 shown" if s["results_count"] > 200 else ""})</h2>
<table id="results"><tr><th>Table</th><th>Round</th><th>Board</th><th>Pairs</th><th>Contract</th><th>Tricks</th><th>Score NS</th><th>Received</th></tr>
{"".join(res)}</table>
<details><summary>Table keys (type one into each tablet at setup)</summary>
<table id="keys">{"".join(keys)}</table>{_sessions_html(st, event)}</details>
</body></html>"""


def _pin_tries_html(st: Any) -> str:
    """Wrong director PINs asked of the station (station/director_pin.py), by table: a guesser
    with a table key who never touches the tablet shows up here."""
    e = html.escape
    rows = [f'<li class="pin-tries">Table {e(r["table"])}: {r["wrong_tries"]} wrong in a row'
            f'{", last at " + e(local_time(_iso(r["last"]))) if r.get("last") else ""}'
            f'{", no try taken until " + e(local_time(_iso(r["until"]))) if r["until"] > time.time() else ""}</li>'
            for r in st.pin_checks.tables()]
    if not rows:
        return ""
    return f'<h2>Wrong director PINs at the station</h2><ul id="pin-tries">{"".join(rows)}</ul>'


def _iso(epoch: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(epoch))


def _damaged_html(damaged: list[dict], shown: int = 50) -> str:
    """The damaged rows (station/stored.py) with their keys, or nothing when there are none."""
    if not damaged:
        return ""
    e = html.escape
    items = [f'<li class="damaged">{e(local_time(d["received_at"]))} {e(d["kind"])} <code>{e(d["key"])}</code>: '
             f'{e(d["why"])}</li>' for d in damaged[:shown]]
    more = f" (the first {shown} shown)" if len(damaged) > shown else ""
    return (f'<h2>Damaged stored items ({len(damaged)}){more}</h2><p>The station cannot read these rows of its '
            f'database: they are left out of this page, the tables\' travellers and the scoring program\'s polls. '
            f'Have the table send the item again, or enter it in the scoring program.</p>'
            f'<ul id="damaged">{"".join(items)}</ul>')


def render_table(st: Any, event: str, section: str, table_no: int) -> str:
    """One table's history: every irregularity, every TD call and every damaged row of the event,
    oldest first."""
    h = table_history(st, event, section, table_no)
    e = html.escape
    irr = [f'<tr class="irregularity"><td>{x["round"] or ""}</td><td>{x["board"] or ""}</td>'
           f'<td>{e(str(x.get("kind")))}</td><td>{e(str(x.get("seat") or ""))}</td>'
           f'<td>{e(str(x.get("call") or ""))}</td><td>{e(str(x.get("law") or ""))}</td>'
           f'<td>{e(str(x.get("resolution") or x.get("ruling") or ""))}</td>'
           f'<td>{e(local_time(x["received_at"]))}</td></tr>' for x in h["irregularities"]]
    calls = [f'<tr class="td-call"><td>{c["round"] or ""}</td><td>{c["board"] or ""}</td><td>{e(str(c["status"]))}</td>'
             f'<td>{e(str(c["seat"] or ""))}</td><td>{e(str(c["note"] or ""))}</td>'
             f'<td>{e(local_time(c["at"]))}</td></tr>' for c in h["td_calls"]]
    seated = sorted((r, place) for (_sec, _t, r), place in seating_of(
        st.store, event, lambda sec, t, _r: sec == section and t == table_no).items())
    players = [f'<tr class="players"><td>{r}</td><td>{place["ns"]}</td><td>{place["ew"]}</td>'
               f'<td>{_names_html(place)}</td></tr>' for r, place in seated]
    name = f"{section}{table_no}"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Table {e(name)} — {e(event)}</title>
<style>
{_STYLE}
</style></head><body>
<h1>Table {e(name)} — {e(event)}</h1>
<p><a href="/director?event={quote(event, safe="")}">Back to all tables</a> (times: station time, {e(_zone())})</p>
<h2>Players</h2>
<table id="players"><tr><th>Round</th><th>NS pair</th><th>EW pair</th><th>Players</th></tr>{"".join(players)}</table>
<h2>Irregularities ({len(irr)})</h2>
<table id="irregularities"><tr><th>Round</th><th>Board</th><th>Irregularity</th><th>Seat</th><th>Call</th><th>Law</th>
<th>Ruling</th><th>Received</th></tr>{"".join(irr)}</table>
<h2>TD calls ({len(calls)})</h2>
<table id="td-calls"><tr><th>Round</th><th>Board</th><th>Status</th><th>Seat</th><th>Note</th><th>At</th></tr>
{"".join(calls)}</table>
{_damaged_html(h["damaged"])}
</body></html>"""
