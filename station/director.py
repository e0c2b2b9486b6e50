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
import functools
import hashlib
import html
import threading
import time
from typing import Any
from urllib.parse import quote

from shared_rules.records import Refused
from shared_rules.vocabulary import refusal_text

from . import director_calls, lan_qr, law16, match_page
from . import director_texts as tx
from .bws import status as bws_status
from .notice_texts import words_for
from .records import at_iso, td_call_facts
from .store import latest_results
from .stored import COLUMNS, Damaged, read_row

OPEN_TD = ("launched", "in_progress", "deferred")
PHASE_LABEL = {k: v["en"] for k, v in tx.PHASES.items()}  # status.json's, in English


def _epoch(iso: str) -> float:
    try:
        return calendar.timegm(time.strptime(iso, "%Y-%m-%dT%H:%M:%SZ"))
    except (ValueError, TypeError):
        return 0.0


def local_time(iso: str | None, now: float | None = None, lang: str = tx.DEFAULT) -> str:
    """A station timestamp (UTC ISO) as the TD's clock shows it: the station's local time,
    `19:45:12` today, `22 Nov 19:45` another day (the month in `lang`)."""
    if not iso:
        return ""
    epoch = _epoch(iso)
    if not epoch:
        return str(iso)
    return tx.clock(epoch, lang, time.time() if now is None else now)


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
                                       "damaged": {}, "boards": {}}
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
        if kind in ("result", "auction"):
            _note_board(ev["boards"], p)
        if kind == "result":
            row["results"].add((p["round"], p["board"]))
            row["round"], row["board"], row["phase"] = p["round"], p["board"], "result_in"
            ev["recent"].append({"id": item_id, "key": key, "kind": kind, "received_at": received_at, "payload": p})
        elif kind == "auction" and (p["round"], p["board"]) not in row["results"]:
            row["round"], row["board"], row["phase"] = p["round"], p["board"], p["phase"]
        elif kind == "round" and isinstance(p.get("round"), int) and p["round"] > (row["round"] or 0):
            # the table started a later round (docs/station.md "Law 16 at the station")
            row["round"], row["board"], row["phase"] = p["round"], None, "idle"

    def snapshot(self, store: Any, event: str) -> tuple[list[dict], list[dict], list[dict], list[Damaged]]:
        """(tables, TD calls, latest results, damaged rows) of one event, copied under the lock.
        Each TD call carries what its board's records say of it (`with_ruling`)."""
        with self.lock:
            self.catch_up(store)
            ev = self._event(event)
            tables = [dict(r, results=set(r["results"])) for r in ev["tables"].values()]
            calls = [with_ruling(c, ev["boards"]) for c in ev["td"].values()]
            return tables, calls, list(ev["recent"]), list(ev["damaged"].values())

    def damaged_count(self, store: Any) -> int:
        """Damaged rows of every event (the health check's count)."""
        with self.lock:
            self.catch_up(store)
            return sum(len(ev["damaged"]) for ev in self.events.values())


Board = tuple[Any, ...]  # section, table, round, board (as the items give them)


def _note_board(boards: dict[Board, dict], p: dict) -> None:
    """Keep a board's irregularity records (each once, the latest copy: the engine adds the
    ruling to a record once it is made) and its adjusted score, from an auction progress item or
    a result; the TD calls of the board are read against them (station/director_calls.py)."""
    if not p.get("irregularities") and not p.get("adjusted"):
        return
    b = boards.setdefault((p["section"], p["table"], p["round"], p["board"]), {"irregular": {}, "adjusted": None})
    for x in p.get("irregularities") or []:
        if isinstance(x, dict):
            # What the tablet sent is carried whole (anything may be in it): compared as text.
            b["irregular"][repr((x.get("kind"), x.get("seat"), x.get("t"), x.get("index"), x.get("call")))] = x
    if p.get("adjusted"):
        b["adjusted"] = p["adjusted"]


def with_ruling(call: dict, boards: dict[Board, dict]) -> dict:
    """The call with the irregularity record it is about (`irregularity`) and its board's
    adjusted score (`adjusted`), when the board's records have them."""
    b = boards.get((call["section"], call["table"], call.get("round"), call.get("board")))
    if b is None:
        return dict(call)
    return dict(call, irregularity=director_calls.match(call, list(b["irregular"].values())), adjusted=b["adjusted"])


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


def refusal_words(r: dict, lang: str) -> str:
    """A refusal the station sent a table, in the TD's language from its code
    (shared_rules/vocabulary/refusals.py); in English, and for one without a code, as the station
    said it (its English names the field and the values, for the TD)."""
    said = None if lang == "en" else refusal_text(Refused.from_reply(r.get("refused")), lang)
    return said or str(r["error"])


def _held_html(held: list[str], lang: str = tx.DEFAULT) -> str:
    if not held:
        return ""
    return f'<h2>{html.escape(tx.text("held_head", lang))}</h2><ul id="held">{"".join(held)}</ul>'



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
    """One table's irregularities (from its results and auction logs, each once, as the latest
    copy has it: the ruling is added to a record once made), TD calls (every status change, each
    with what its board's records say of it) and damaged rows (station/stored.py), oldest first."""
    irregular: dict[str, dict] = {}
    boards: dict[Board, dict] = {}
    calls = []
    items, damaged = st.store.read(event, section=section, table_no=table_no)
    for it in items:
        p, received_at = it["payload"], it["received_at"]
        if it["kind"] == "td_call":
            ident, state = td_call_facts(it["key"], p)
            calls.append({"section": section, "table": table_no, "round": p.get("round"), "board": p.get("board"),
                          "status": state, "at": at_iso(p["at"] if p.get("at") is not None else received_at),
                          "seat": p.get("seat"), "t": p.get("t"), "reason": p.get("reason"),
                          "note": p.get("note"), "received_at": received_at})
            continue
        _note_board(boards, p)
        for x in p.get("irregularities") or []:
            if isinstance(x, dict):
                # What the tablet sent is carried whole (anything may be in it): compared as text.
                ident = repr((p["round"], p["board"], x.get("kind"), x.get("seat"), x.get("t"), x.get("call")))
                first = irregular.get(ident, {}).get("received_at", received_at)
                irregular[ident] = {**x, "round": p["round"], "board": p["board"], "received_at": first}
    return {"event": event, "section": section, "table": table_no, "irregularities": list(irregular.values()),
            "td_calls": [with_ruling(c, boards) for c in calls], "damaged": [d.to_json() for d in damaged]}


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


def _names_html(place: dict | None, lang: str = tx.DEFAULT) -> str:
    """`N Anna Berg – S Carl Dahl / E ... – W ...` (seats in the language's letters), escaped;
    empty without names."""
    if not place or not place["names"]:
        return ""
    n = place["names"]
    side = [" – ".join(f"{tx.seat(s, lang)} {html.escape(n[s])}" for s in pair if s in n) for pair in ("NS", "EW")]
    return " / ".join(x for x in side if x)


def _sessions_html(st: Any, event: str, lang: str = tx.DEFAULT) -> str:
    """Which id each session's tablets use (a later session's: `<event>.<n>`), for a setup typed in."""
    from .movement import sessions

    e = html.escape
    items = [f"<li>{e(x['name'] or x['guid'])} ({', '.join(map(e, x['sections']))}): "
             f"{e(tx.text('table_id', lang))} <code>{e(x['id'])}/{e(tx.text('section_table', lang))}</code></li>"
             for x in sessions(st.store, st.store.station_event_of(event))]
    return f'<ul id="sessions">{"".join(items)}</ul>' if items else ""


def _exports_html(st: Any, event: str, lang: str) -> str:
    """Each session's own files: PBN, USEBIO of the session and of each of its sections (a
    reader that takes one section at a time), linked by the scoring program's SessionGuid."""
    from .movement import sessions

    e = html.escape
    found = sessions(st.store, st.store.station_event_of(event))
    if not found:
        q = quote(event, safe="")
        return (f'<p id="exports">{e(tx.text("exports", lang))}: <a href="/export/pbn?event={q}">PBN</a> · '
                f'<a href="/export/usebio?event={q}">USEBIO XML</a></p>')
    items = []
    for x in found:
        base = f"event={quote(x['id'], safe='')}&amp;session={quote(x['guid'], safe='')}"
        per_section = "".join(f' · <a href="/export/usebio?{base}&amp;section={quote(sec, safe="")}">'
                              f"USEBIO {e(sec)}</a>" for sec in x["sections"])
        items.append(f'<li>{e(x["name"] or x["guid"])} ({e(x["id"])}): <a href="/export/pbn?{base}">PBN</a> · '
                     f'<a href="/export/usebio?{base}">USEBIO XML</a>{per_section}</li>')
    return f'<p>{e(tx.text("exports_each", lang))}</p><ul id="exports">{"".join(items)}</ul>'


def _contract_text(r: dict, lang: str = tx.DEFAULT) -> str:
    if r.get("adjusted"):
        return director_calls.adjusted_words(r["adjusted"], lang)
    if r.get("contract") in (None, "PASS"):
        return tx.text("passed_out", lang)
    return f"{r['contract']} {tx.seat(r['declarer'], lang)}"


# Tables: wide screens a grid; a phone a card per row, each cell led by its column's name
# (`data-label`), so no row runs off the screen. Long words (a key, a name) break anywhere.
_STYLE = """body{font-family:sans-serif;margin:1em} table{border-collapse:collapse}
td,th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
td,th,li,p,h1,h2,summary{overflow-wrap:anywhere}
tr.late td{background:#fcc} tr.bidding td.phase{color:#06c} tr.playing td.phase{color:#090}
tr.entering_result td.phase{color:#c60} li.td-call{color:#c00;font-weight:bold} li.refused{color:#a50}
li.damaged{color:#a00} td.ruling{color:#063}
@media (max-width:760px){table,tbody,tr,td{display:block} tr.head{display:none}
tr{border-bottom:2px solid #999;padding:4px 0} td{border:none;padding:1px 4px}
td[data-label]::before{content:attr(data-label) ": ";font-weight:bold}}"""
# The pages' only inline content, the <style> element ("\n" + _STYLE + "\n"): their
# Content-Security-Policy allows it by this hash and nothing else inline (station/server.py).
STYLE_HASH = "'sha256-" + base64.b64encode(hashlib.sha256(f"\n{_STYLE}\n".encode()).digest()).decode() + "'"


def _zone() -> str:
    return time.strftime("%Z") or time.strftime("UTC%z")


def _when(iso: str | None, lang: str) -> str:
    """A station timestamp in local time, in the language (`local_time`)."""
    return local_time(iso, lang=lang)


def _head(lang: str, *columns: str) -> str:
    return '<tr class="head">' + "".join(f"<th>{html.escape(tx.text(c, lang))}</th>" for c in columns) + "</tr>"


def _cells(lang: str, cells: list[tuple[str, str]]) -> str:
    """`<td>`s, each labelled with its column's name for the phone layout; values already HTML."""
    out = []
    for col, value in cells:
        cls = f' class="{col}"' if col in ("players", "phase", "ruling") else ""
        out.append(f'<td data-label="{html.escape(tx.text("col_" + col, lang))}"{cls}>{value}</td>')
    return "".join(out)


def _edition(st: Any) -> int | None:
    """The edition of the club's profile (`--profile`), for a Law a table named without one."""
    from shared_rules import profiles

    name = st.store.setting("profile")
    try:
        return int(profiles.load(name).edition) if name else None
    except (KeyError, ValueError, TypeError, OSError):
        return None


def page_language(st: Any, asked: str | None) -> str:
    """The page's language: `?lang=`, else the club's (`python -m station --language`), else English."""
    return tx.language(asked, st.store.setting("language"))


def _call_line(c: dict, lang: str, edition: int | None) -> str:
    """An open TD call, one line: where; what about; the Law; who called, and when (and the call's
    status once the TD is on it); the ruling awaited."""
    e = html.escape
    w = director_calls.words(c, c.get("irregularity"), c.get("adjusted"), lang, edition)
    where = tx.text("table_n", lang, t=f'{c["section"]}{c["table"]}') + ", " + (
        tx.text("round_board", lang, r=c["round"], b=c["board"]) if c.get("board")
        else tx.text("round_only", lang, r=c["round"]))
    state = "" if c["status"] == "launched" else f' ({tx.words("status", c["status"], lang)})'
    who = f'{w.who}, {_when(c["at"], lang)}{state}'
    parts = [p for p in (w.what, w.note if w.note != w.what else "", w.law, who, w.ruling) if p]
    return f'<li class="td-call">{e(where)}: {" — ".join(map(e, parts))}</li>'


def _address_html(st: Any, lang: str = tx.DEFAULT) -> str:
    """The address the tablets take as it is (`--station`), as the station printed it at start."""
    addr = st.config.extra.get("tablet_address")
    if not isinstance(addr, str) or not addr:
        return ""
    # the QR code beside it is for a camera app or a scanner; the SVG is drawn from the address
    # alone (no text, no script), inline, so the page asks nothing of any other server
    return f'<p id="tablet-address">{html.escape(tx.text("address", lang))}: <code>{html.escape(addr)}</code></p>' \
        f'<p id="tablet-address-qr">{lan_qr.svg_html(addr)}</p>'


def render(st: Any, event: str, lang: str | None = None) -> str:
    lang = page_language(st, lang)
    s = status(st, event, full=False)
    e = html.escape
    T = functools.partial(tx.text, lang=lang)
    q = quote(event, safe="")
    edition = _edition(st)
    shown = {(t["section"], t["table"], t["round"] or 1) for t in s["tables"]}
    seating = seating_of(st.store, event, lambda sec, t, r: (sec, t, r) in shown)
    rows = []
    for t in s["tables"]:
        # the round the table is on, else its first round in the movement
        place = seating.get((t["section"], t["table"], t["round"] or 1))
        cls = "late" if t["late"] else t["phase"]
        name = f'{t["section"]}{t["table"]}'
        phase = tx.words("phase", "in_progress" if t["phase"] == "idle" and t["round"] is not None else t["phase"],
                         lang)
        rows.append(f'<tr class="table-row {e(cls)}" id="table-{e(name)}">' + _cells(lang, [
            ("table", f'<a href="/director/table?event={q}&amp;section={quote(t["section"])}&amp;table={t["table"]}'
                      f'&amp;lang={lang}">{e(name)}</a>'),
            ("round", str(t["round"] or "")), ("board", str(t["board"] or "")),
            ("players", _names_html(place, lang)),
            ("progress", e(phase) + (f" — {e(T('late'))}" if t["late"] else "")),
            ("results", str(t["results"])), ("td_calls", str(t["open_td_calls"] or "")),
            ("last", e(_when(t["last_seen"], lang)))]) + "</tr>")
    calls = [_call_line(c, lang, edition) for c in s["open_td_calls"]]
    res = ['<tr class="result">' + _cells(lang, [
        ("table", f'{e(r["section"])}{r["table"]}'), ("round", str(r["round"])), ("board", str(r["board"])),
        ("pairs", f'{r["ns_pair"]}–{r["ew_pair"]}'), ("contract", e(_contract_text(r, lang))),
        ("tricks", "" if r.get("tricks") is None else str(r["tricks"])),
        ("score_ns", "" if r.get("score_ns") is None else str(r["score_ns"])),
        ("received", e(_when(r["received_at"], lang)))]) + "</tr>" for r in s["results"]]
    refused = [f'<li class="refused">{e(_when(r["at"], lang))} {e(T("col_table").lower())} {e(r["table"])}: '
               f'HTTP {r["status"]} {e(refusal_words(r, lang))}{" (" + e(r["key"]) + ")" if r["key"] else ""}</li>'
               for r in s["refusals"]]
    held = [f'<li class="held">{e(_when(r["at"], lang))} {e(T("col_table").lower())} {e(r["table"])}: '
            f'{e(refusal_words(r, lang))} ({e(r["key"])})</li>' for r in s["held"]]
    damaged = _damaged_html(s["damaged"], lang)
    pin_tries = _pin_tries_html(st, lang)
    keys = [f"<tr><td>{e(sec)}{t}</td><td><code>{e(key)}</code></td></tr>"
            for (sec, t), key in st.table_keys(event, st.store.tables_with_keys(event)).items()]
    more = T("latest_200") if s["results_count"] > 200 else ""
    return f"""<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8"><meta http-equiv="refresh" content="5">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{e(T("director"))} — {e(event)}</title>
<style>
{_STYLE}
</style></head><body>
<h1>{e(T("director"))} — {e(event)}</h1>
<p>{e(T("updated", at=_when(s["generated_at"], lang), zone=_zone()))}</p>
{_exports_html(st, event, lang)}
{bws_status.line(st, event, lang)}
{match_page.html_section(st, event, lang)}
<h2>{e(T("open_calls", n=len(calls)))}</h2><ul id="td-calls">{"".join(calls) or f"<li>{e(T('none'))}</li>"}</ul>
{f'<h2>{e(T("refused"))}</h2><ul id="refused">{"".join(refused)}</ul>' if refused else ""}
{_held_html(held, lang)}
{pin_tries}
{damaged}
<h2>{e(T("tables"))}</h2>
<p>{e(T("tables_hint"))}</p>
<table id="tables">{_head(lang, "col_table", "col_round", "col_board", "col_players", "col_progress", "col_results",
                          "col_td_calls", "col_last")}
{"".join(rows)}</table>
<h2>{e(T("results_head", n=s["results_count"], more=more))}</h2>
<table id="results">{_head(lang, "col_table", "col_round", "col_board", "col_pairs", "col_contract", "col_tricks",
                           "col_score_ns", "col_received")}
{"".join(res)}</table>
<details><summary>{e(T("keys"))}</summary>
{_address_html(st, lang)}
<table id="keys">{"".join(keys)}</table>{_sessions_html(st, event, lang)}</details>
</body></html>"""


def _pin_tries_html(st: Any, lang: str = tx.DEFAULT) -> str:
    """Wrong director PINs asked of the station (station/director_pin.py), by table: a guesser
    with a table key who never touches the tablet shows up here."""
    e = html.escape
    rows = [f'<li class="pin-tries">{e(tx.text("pin_row", lang, t=r["table"], n=r["wrong_tries"]))}'
            f'{e(tx.text("pin_last", lang, at=_when(_iso(r["last"]), lang))) if r.get("last") else ""}'
            f'{e(tx.text("pin_until", lang, at=_when(_iso(r["until"]), lang))) if r["until"] > time.time() else ""}</li>'
            for r in st.pin_checks.tables()]
    if not rows:
        return ""
    return f'<h2>{e(tx.text("pin_head", lang))}</h2><ul id="pin-tries">{"".join(rows)}</ul>'


def _iso(epoch: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(epoch))


def _damaged_html(damaged: list[dict], lang: str = tx.DEFAULT, shown: int = 50) -> str:
    """The damaged rows (station/stored.py) with their keys, or nothing when there are none."""
    if not damaged:
        return ""
    e = html.escape
    # the kind in words (a kind no station knows, as stored)
    items = [f'<li class="damaged">{e(_when(d["received_at"], lang))} {e(tx.words("kind", d["kind"], lang))} '
             f'<code>{e(d["key"])}</code>: '
             f'{e(words_for(d.get("notice"), d["why"], lang))}</li>' for d in damaged[:shown]]
    more = tx.text("damaged_more", lang, n=shown) if len(damaged) > shown else ""
    return (f'<h2>{e(tx.text("damaged_head", lang, n=len(damaged), more=more))}</h2>'
            f'<p>{e(tx.text("damaged_text", lang))}</p><ul id="damaged">{"".join(items)}</ul>')


def render_table(st: Any, event: str, section: str, table_no: int, lang: str | None = None) -> str:
    """One table's history: every irregularity, every TD call and every damaged row of the event,
    oldest first, in the TD's language."""
    lang = page_language(st, lang)
    h = table_history(st, event, section, table_no)
    e = html.escape
    T = functools.partial(tx.text, lang=lang)
    edition = _edition(st)
    irr = ['<tr class="irregularity">' + _cells(lang, [
        ("round", str(x["round"] or "")), ("board", str(x["board"] or "")),
        ("irregularity", e(tx.words("irregularity", str(x.get("kind")), lang))),
        ("seat", e(tx.seat(x.get("seat"), lang))), ("call", e(str(x.get("call") or ""))),
        ("law", e(tx.law(x.get("law"), lang, edition))),
        ("ruling", e(director_calls.ruling_words(x, None, lang, edition))),
        ("received", e(_when(x["received_at"], lang)))]) + "</tr>" for x in h["irregularities"]]
    calls = []
    for c in h["td_calls"]:
        w = director_calls.words(c, c.get("irregularity"), c.get("adjusted"), lang, edition)
        calls.append('<tr class="td-call">' + _cells(lang, [
            ("round", str(c["round"] or "")), ("board", str(c["board"] or "")),
            ("status", e(tx.words("status", c["status"], lang))), ("seat", e(w.who)),
            ("irregularity", e(w.what)), ("law", e(w.law)), ("ruling", e(w.ruling)), ("note", e(w.note)),
            ("at", e(_when(c["at"], lang)))]) + "</tr>")
    seated = sorted((r, place) for (_sec, _t, r), place in seating_of(
        st.store, event, lambda sec, t, _r: sec == section and t == table_no).items())
    players = ['<tr class="players">' + _cells(lang, [("round", str(r)), ("ns_pair", str(place["ns"])),
                                                       ("ew_pair", str(place["ew"])),
                                                       ("players", _names_html(place, lang))]) + "</tr>"
               for r, place in seated]
    name = f"{section}{table_no}"
    title = T("table_n", t=name)
    return f"""<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{e(title)} — {e(event)}</title>
<style>
{_STYLE}
</style></head><body>
<h1>{e(title)} — {e(event)}</h1>
<p><a href="/director?event={quote(event, safe="")}&amp;lang={lang}">{e(T("back"))}</a> ({e(T("times", zone=_zone()))})</p>
<h2>{e(T("col_players"))}</h2>
<table id="players">{_head(lang, "col_round", "col_ns_pair", "col_ew_pair", "col_players")}{"".join(players)}</table>
<h2>{e(T("irregularities", n=len(irr)))}</h2>
<table id="irregularities">{_head(lang, "col_round", "col_board", "col_irregularity", "col_seat", "col_call",
                                  "col_law", "col_ruling", "col_received")}{"".join(irr)}</table>
<h2>{e(T("td_calls", n=len(calls)))}</h2>
<table id="td-calls">{_head(lang, "col_round", "col_board", "col_status", "col_seat", "col_irregularity", "col_law",
                            "col_ruling", "col_note", "col_at")}
{"".join(calls)}</table>
{_damaged_html(h["damaged"], lang)}
</body></html>"""
