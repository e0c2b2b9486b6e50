"""The session the scoring program wrote into the `.bws`: read it, check that the tablets can
play it, and put it where the station keeps a movement (the same tables the Data Connector
fills, so GET /api/v1/movement serves it unchanged).

`read(bws)` -> plain data; `problems(session)` -> what makes it unplayable (empty when fine);
`install(station, session, guid)` -> the station's tables and table keys.
"""
from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from .odbc import Bws
from .schema import missing

SECTION_RE = re.compile(r"^([A-Z])\1{0,2}$")
HAND_SEATS = ("North", "East", "South", "West")
HAND_SUITS = ("Spades", "Hearts", "Diamonds", "Clubs")


def _int(v: Any) -> int:
    return int(v) if v is not None else 0


def _optional(bws: Bws, present: dict[str, set[str]], table: str, wanted: list[str]) -> list[dict]:
    cols = {c.lower(): c for c in next((v for k, v in present.items() if k.lower() == table.lower()), set())}
    use = [cols[w.lower()] for w in wanted if w.lower() in cols]
    if not use:
        return []
    keys = [w for w in wanted if w.lower() in cols]
    return [dict(zip(keys, r, strict=True)) for r in bws.select(table, use)]


def read(bws: Bws) -> dict[str, Any]:
    """The whole session as plain data. Raises BwsError for a file the bridge cannot use."""
    from .odbc import BwsError

    present = bws.columns()
    lacking = missing(present)
    if lacking:
        raise BwsError(f"{bws.path} is not a Bridgemate .bws the bridge can use: missing "
                       f"{', '.join(lacking)} (create the session in the scoring program first)")
    sections = {_int(r[0]): str(r[1] or "").strip().upper() for r in bws.select("Section", ["ID", "Letter"])}
    tables = sorted({(_int(s), _int(t)) for s, t in bws.select("Tables", ["Section", "Table"])})
    rounds = sorted(tuple(_int(x) for x in r) for r in bws.select(
        "RoundData", ["Section", "Table", "Round", "NSPair", "EWPair", "LowBoard", "HighBoard"]))
    players = _optional(bws, present, "PlayerNumbers", ["Section", "Table", "Direction", "Number", "Name", "Round"])
    names = _optional(bws, present, "PlayerNames", ["ID", "Name"])
    settings = _optional(bws, present, "Settings", ["Section", "LeadCard", "BM2RecordBidding", "BM2RecordPlay"])
    hands = _optional(bws, present, "HandRecord",
                      ["Section", "Board"] + [s + u for s in HAND_SEATS for u in HAND_SUITS])
    status_cols = {c.lower() for k, v in present.items() if k.lower() == "tables" for c in v}
    return {"path": bws.path, "sections": sections, "tables": tables, "rounds": rounds,
            "players": players, "player_names": names, "settings": settings, "hands": hands,
            "table_status": {"currentround", "currentboard"} <= status_cols,
            "playdata": any(k.lower() == "playdata" for k in present)}


def fingerprint(session: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(session, sort_keys=True, default=str).encode()).hexdigest()


def problems(session: dict[str, Any]) -> list[str]:
    """What makes the movement unplayable by the tablets, one line each (empty: fine)."""
    out = []
    sections = session["sections"]
    for sid, letter in sections.items():
        if not SECTION_RE.match(letter):
            out.append(f"section {sid} has the letter {letter!r}: the tablets need A-Z, AA-ZZ or AAA-ZZZ")
    if len(set(sections.values())) != len(sections):
        out.append("two sections have the same letter")
    if not session["rounds"]:
        out.append("RoundData is empty: the scoring program has not written a movement yet")
    seen: dict[tuple[int, int, int], int] = {}
    sides: dict[tuple[int, int, str, int], int] = {}
    for s, t, r, ns, ew, low, high in session["rounds"]:
        where = f"section {sections.get(s, s)} table {t} round {r}"
        if s not in sections:
            out.append(f"RoundData names section {s}, which the Section table does not have")
            continue
        if t < 1 or r < 1:
            out.append(f"{where}: table and round numbers start at 1")
        if (s, t, r) in seen:
            out.append(f"{where} appears twice in RoundData")
        seen[(s, t, r)] = 1
        if ns < 0 or ew < 0 or (ns and ns == ew and not _per_direction(session, s, r)):
            out.append(f"{where}: pairs NS {ns} and EW {ew} cannot play each other")
        if low < 0 or high < 0 or (low or high) and (low < 1 or high < low):
            out.append(f"{where}: boards {low}-{high} are not a range the tablets can play")
        for side, pair in (("NS", ns), ("EW", ew)):
            if pair and sides.setdefault((s, r, side, pair), t) != t:
                out.append(f"{where}: pair {side} {pair} is also at table {sides[(s, r, side, pair)]} this round")
    return out


def _per_direction(session: dict[str, Any], section: int, round_no: int) -> bool:
    ns = {x[3] for x in session["rounds"] if x[0] == section and x[2] == round_no}
    ew = {x[4] for x in session["rounds"] if x[0] == section and x[2] == round_no}
    return len(ns & ew) > 1  # a Mitchell numbers pairs per direction: NS 3 and EW 3 are two pairs


def guid_for(path: str) -> str:
    """A stable session id for this file (32 upper-case hex digits, as the Data Connector's)."""
    import os

    return hashlib.md5(os.path.abspath(path).encode()).hexdigest().upper()  # noqa: S324 - an id, not security


def deal(hand: dict[str, Any]) -> str | None:
    """HandRecord row -> `N:AKQ.JT9.. ...` or None when incomplete."""
    hands = []
    for seat in HAND_SEATS:
        suits = []
        for suit in HAND_SUITS:
            cards = str(hand.get(seat + suit) or "").upper().replace("10", "T").replace(" ", "")
            if not re.fullmatch(r"[AKQJT98765432]*", cards):
                return None
            suits.append(cards)
        hands.append(".".join(suits))
    if sum(len(h) - 3 for h in hands) != 52 or any(len(h) - 3 != 13 for h in hands):
        return None
    return "N:" + " ".join(hands)


def install(station: Any, session: dict[str, Any], guid: str) -> dict[str, list[int]]:
    """Write the session into the station's movement tables (one transaction) and give every
    table its key. Returns {section letter: [tables]} of the tables the movement has."""
    from ..store import canonical, utc_now

    event = station.config.event
    sections = session["sections"]
    payload = {"source": "bws", "path": session["path"], "players": session["players"],
               "player_names": session["player_names"], "settings": session["settings"]}
    by_section: dict[str, set[int]] = {}
    with station.store.transaction() as tx:
        tx.execute("DELETE FROM dc_sessions WHERE session_guid = ?", (guid,))
        tx.execute("DELETE FROM dc_sections WHERE session_guid = ?", (guid,))
        tx.execute("DELETE FROM dc_rounds WHERE session_guid = ?", (guid,))
        tx.execute("DELETE FROM dc_handrecords WHERE session_guid = ?", (guid,))
        tx.execute("INSERT INTO dc_sessions (session_guid, event, name, payload, created_at) VALUES (?, ?, ?, ?, ?)",
                   (guid, event, "bws", canonical(payload), utc_now()))
        # The id this session's tablets put in their keys (docs/station.md "Events and sessions").
        station.store.assign_session_id(tx, event, guid, None)
        for letter in sorted(sections.values()):
            tx.execute("INSERT INTO dc_sections (session_guid, section, scoring_group, scoring_method, game_type) "
                       "VALUES (?, ?, ?, ?, ?)", (guid, letter, 1, 10, 10))
        for s, t, r, ns, ew, low, high in session["rounds"]:
            tx.execute("INSERT INTO dc_rounds (session_guid, section, table_no, round_no, low_board, high_board, "
                       "pair_ns, pair_ew) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       (guid, sections[s], t, r, low, high, ns, ew))
            by_section.setdefault(sections[s], set()).add(t)
        for h in session["hands"]:
            d = deal(h)
            if d and _int(h.get("Section")) in sections:
                tx.execute("INSERT INTO dc_handrecords (session_guid, section, board, deal, payload) "
                           "VALUES (?, ?, ?, ?, ?)", (guid, sections[_int(h["Section"])], _int(h["Board"]), d,
                                                      canonical({"source": "bws"})))
    for s, t in session["tables"]:
        if s in sections:
            by_section.setdefault(sections[s], set()).add(t)
    for letter, ts in by_section.items():
        station.register_tables(event, letter, sorted(ts))
    return {k: sorted(v) for k, v in by_section.items()}
