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

from bridgemate_dataconnector.dto import Bridgemate2SettingsDTO

from shared_rules.types import SEATS

from ..notices import Notice, NoticeCode
from .odbc import Bws
from .schema import missing

SECTION_RE = re.compile(r"^([A-Z])\1{0,2}$")
# The Settings columns BCS keeps per section are the Data Connector's Bridgemate 2 settings, by
# the same names: the .bws's settings are served to the tablets as the Data Connector's are
# (station/movement.py settings_for). The Bridgemates' TD PIN stays in the file.
SETTINGS_DEFAULTS = {k: v for k, v in Bridgemate2SettingsDTO().to_dict().items()
                     if k not in ("SessionGuid", "SectionLetters", "ValidationMessages", "BM2PINcode")}
HAND_SEATS = ("North", "East", "South", "West")
MARKER = ("Name", "Date", "GUID")  # the Session table's columns that name the session
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
    from .odbc import BwsNotSession

    present = bws.columns()
    lacking = missing(present)
    if lacking:
        raise BwsNotSession(Notice.of(NoticeCode.BWS_NOT_SESSION, path=bws.path, missing=lacking))
    sections = {_int(r[0]): str(r[1] or "").strip().upper() for r in bws.select("Section", ["ID", "Letter"])}
    tables = sorted({(_int(s), _int(t)) for s, t in bws.select("Tables", ["Section", "Table"])})
    rounds = sorted(tuple(_int(x) for x in r) for r in bws.select(
        "RoundData", ["Section", "Table", "Round", "NSPair", "EWPair", "LowBoard", "HighBoard"]))
    players = _optional(bws, present, "PlayerNumbers", ["Section", "Table", "Direction", "Number", "Name", "Round"])
    names = _optional(bws, present, "PlayerNames", ["ID", "Name", "strID"])
    settings = _optional(bws, present, "Settings", ["Section", *SETTINGS_DEFAULTS])
    hands = _optional(bws, present, "HandRecord",
                      ["Section", "Board"] + [s + u for s in HAND_SEATS for u in HAND_SUITS])
    status_cols = {c.lower() for k, v in present.items() if k.lower() == "tables" for c in v}
    # The scoring program's own name for the session, where the file has a Session table: part
    # of the file's identity (fileid.py), so a re-initialised session is noticed.
    marker = sorted([str(r.get(k) if r.get(k) is not None else "").strip() for k in MARKER]
                    for r in _optional(bws, present, "Session", list(MARKER)))
    return {"path": bws.path, "sections": sections, "tables": tables, "rounds": rounds, "marker": marker,
            "players": players, "player_names": names, "settings": settings, "hands": hands,
            "table_status": {"currentround", "currentboard"} <= status_cols,
            "playdata": any(k.lower() == "playdata" for k in present)}


def fingerprint(session: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(session, sort_keys=True, default=str).encode()).hexdigest()


def problems(session: dict[str, Any]) -> list[Notice]:
    """What makes the movement unplayable by the tablets, one notice each (empty: fine)."""
    C = NoticeCode
    out = []
    sections = session["sections"]
    for sid, letter in sections.items():
        if not SECTION_RE.match(letter):
            out.append(Notice.of(C.MOVE_SECTION_LETTER, section=sid, letter=repr(letter)))
    if len(set(sections.values())) != len(sections):
        out.append(Notice.of(C.MOVE_LETTER_TWICE))
    if not session["rounds"]:
        out.append(Notice.of(C.MOVE_EMPTY))
    seen: dict[tuple[int, int, int], int] = {}
    sides: dict[tuple[int, int, str, int], int] = {}
    for s, t, r, ns, ew, low, high in session["rounds"]:
        where = {"section": sections.get(s, s), "table": t, "round": r}
        if s not in sections:
            out.append(Notice.of(C.MOVE_NO_SECTION, section=s))
            continue
        if t < 1 or r < 1:
            out.append(Notice.of(C.MOVE_NUMBERS, **where))
        if (s, t, r) in seen:
            out.append(Notice.of(C.MOVE_TWICE, **where))
        seen[(s, t, r)] = 1
        if ns < 0 or ew < 0 or (ns and ns == ew and not _per_direction(session, s, r)):
            out.append(Notice.of(C.MOVE_PAIRS, **where, ns=ns, ew=ew))
        if low < 0 or high < 0 or (low or high) and (low < 1 or high < low):
            out.append(Notice.of(C.MOVE_BOARDS, **where, low=low, high=high))
        for side, pair in (("NS", ns), ("EW", ew)):
            if pair and sides.setdefault((s, r, side, pair), t) != t:
                out.append(Notice.of(C.MOVE_PAIR_TWICE, **where, side=side, pair=pair,
                                     other=sides[(s, r, side, pair)]))
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


def split_name(name: str) -> tuple[str, str]:
    """A .bws name -> (first, last): "Berg, Anna" as written; "Anna Berg" split at the last
    space (a name of one word is a last name)."""
    name = " ".join(str(name or "").split())
    if "," in name:
        last, _, first = name.partition(",")
        return first.strip(), last.strip()
    first, _, last = name.rpartition(" ")
    return first, last


def _number(v: Any) -> str | None:
    text = str(v if v is not None else "").strip()
    if text.endswith(".0") and text[:-2].isdigit():  # a number column read as float
        text = text[:-2]
    return text if text and text.strip("0") else None  # "" and "0": no number entered


def register(session: dict[str, Any]) -> dict[str, str]:
    """PlayerNames, the club's players by number (`ID` or `strID`) -> name as written."""
    names: dict[str, str] = {}
    for r in session["player_names"]:
        for ident in (_number(r.get("ID")), _number(r.get("strID"))):
            if ident and str(r.get("Name") or "").strip():
                names[ident] = str(r["Name"])
    return names


def people(session: dict[str, Any]) -> tuple[list[dict], list[dict]]:
    """PlayerNumbers (who sits where, a name or a number) and PlayerNames (the club's players by
    number) -> (players, seats) for Store.replace_people. A seat's own Name wins over the name
    its number has in PlayerNames; a row for round 0 or 1 seats the player for the evening (the
    player follows the pair), a later round's row that round only (station/players.py); of two
    rows for one seat and round the later one counts."""
    names = register(session)
    sections = session["sections"]
    players: dict[str, dict] = {}
    seats = []
    for r in session["players"]:
        direction = str(r.get("Direction") or "").strip().upper()[:1]
        if _int(r.get("Section")) not in sections or direction not in SEATS or _int(r.get("Table")) < 1:
            continue
        number = _number(r.get("Number"))
        full = str(r.get("Name") or "").strip() or names.get(number or "", "")
        if not (number or full):
            continue
        first, last = split_name(full) if full else ("", "")
        if number and full:
            players[number] = {"number": number, "first_name": first or None, "last_name": last}
        seats.append({"section": sections[_int(r["Section"])], "table": _int(r["Table"]),
                      "round": max(_int(r.get("Round")), 1), "direction": direction, "number": number,
                      "first_name": first or None, "last_name": last or None, "country_code": None})
    return list(players.values()), seats


def settings(session: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Settings rows -> [(section letter, Bridgemate2SettingsDTO as a dict)], Yes/No columns as
    booleans (Access stores True as -1), numbers as numbers, absent columns as the DTO's default."""
    out: dict[str, dict] = {}
    for r in session["settings"]:
        letter = session["sections"].get(_int(r.get("Section")))
        if letter is None:
            continue
        dto = dict(SETTINGS_DEFAULTS)
        for k, default in SETTINGS_DEFAULTS.items():
            if k in r and r[k] is not None:
                dto[k] = bool(r[k]) if isinstance(default, bool) else _int(r[k])
        out[letter] = dto  # two rows for one section: the later one
    return sorted(out.items())


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
        tx.execute("DELETE FROM dc_settings WHERE session_guid = ?", (guid,))
        # The session's name (PBN Event, USEBIO description) is the file's, as the scoring
        # program named the session: "Mandag" for Mandag.bws.
        tx.execute("INSERT INTO dc_sessions (session_guid, event, name, payload, created_at) VALUES (?, ?, ?, ?, ?)",
                   (guid, event, _session_name(session["path"]), canonical(payload), utc_now()))
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
        players, seats = people(session)
        station.store.replace_people(tx, guid, players, seats)
        for letter, dto in settings(session):
            tx.execute("INSERT INTO dc_settings (session_guid, section, model, payload) VALUES (?, ?, ?, ?)",
                       (guid, letter, 2, canonical({**dto, "SessionGuid": guid, "SectionLetters": letter})))
    for s, t in session["tables"]:
        if s in sections:
            by_section.setdefault(sections[s], set()).add(t)
    for letter, ts in by_section.items():
        station.register_tables(event, letter, sorted(ts))
    return {k: sorted(v) for k, v in by_section.items()}


def _session_name(path: str) -> str:
    import ntpath

    base = ntpath.basename(str(path))  # a Windows path on the scoring PC, a POSIX one in tests
    return base[:-4] if base.lower().endswith(".bws") else base or "bws"
