"""File exports for scorers and archives: the glue between the store and the two writers,
station/pbn.py (PBN 2.1) and station/usebio.py (USEBIO 1.2).

This module only reads: results (latest revision of each), the scoring program's sessions,
scoring groups, hand records, players and seats, and the club's name. Everything about the
formats is in the two pure modules. An export never fails on a stored record: a record that
cannot be written is reduced to what can be (pbn/usebio mark unknown fields) and, as a last
resort, replaced by a comment, never a 500 for the whole file.
"""
from __future__ import annotations

import logging
from typing import Any

from . import __version__, pbn, usebio
from .movement import GAME_TYPES, SCORING_METHODS, numbered_per_direction
from .players import seating
from .store import Store, latest_results

log = logging.getLogger(__name__)
KEYS = ("section", "table", "round", "board")


# -- gathering ----------------------------------------------------------------------------------
def _well_formed(item: dict) -> bool:
    p = item.get("payload")
    return isinstance(p, dict) and isinstance(p.get("section"), str) and \
        all(isinstance(p.get(k), int) and not isinstance(p.get(k), bool) for k in KEYS[1:])


def sessions(store: Store, event: str, session: str | None = None) -> list[dict]:
    """The scoring program's sessions of the event, oldest first: guid, name, sections
    {letters: scoring group}, scoring {letters: {"method", "game_type"}} (station.movement's
    names: "matchpoints", "imps", "cross_imps", "team_imps" ...; "pairs", "individual", "teams")."""
    rows = store.query("SELECT session_guid, name FROM dc_sessions WHERE event = ? ORDER BY created_at, session_guid",
                       (event,))
    out = []
    for guid, name in rows:
        if session and guid != session:
            continue
        secs = store.query("SELECT section, scoring_group, scoring_method, game_type FROM dc_sections "
                           "WHERE session_guid = ?", (guid,))
        out.append({"guid": guid, "name": name, "sections": {r[0]: int(r[1]) for r in secs},
                    "scoring": {r[0]: {"method": SCORING_METHODS.get(int(r[2]), str(r[2])),
                                       "game_type": GAME_TYPES.get(int(r[3]), str(r[3]))} for r in secs}})
    return out


def session_by_section(store: Store, event: str, session: str | None = None) -> dict[str, dict]:
    """section letters -> the latest session that has them (sessions are told apart by their
    letters within one station event)."""
    out: dict[str, dict] = {}
    for s in sessions(store, event, session):
        for letters in s["sections"]:
            out[letters] = s
    return out


def event_results(store: Store, event: str, session: str | None = None) -> list[dict]:
    """The latest revision of every result of the event (Law 79C corrections replace)."""
    items = [it for it in store.items(event, "result") if _well_formed(it)]
    results = [it["payload"] for it in latest_results(items)]
    if session:
        mine = set(session_by_section(store, event, session))
        results = [r for r in results if r["section"] in mine]
    return results


def deals(store: Store, event: str, session: str | None = None) -> dict[tuple[str, int], str]:
    """(section, board) -> deal ("N:..."). A hand record sent for one section of a scoring group
    serves every section of that group (the Data Connector asks for one section per group)."""
    out: dict[tuple[str, int], str] = {}
    for s in sessions(store, event, session):
        rows = store.query("SELECT section, board, deal FROM dc_handrecords WHERE session_guid = ?", (s["guid"],))
        direct = {(r[0], int(r[1])): r[2] for r in rows}
        for (section, board), deal in direct.items():
            group = s["sections"].get(section)
            for other, g in s["sections"].items():
                if g == group and (other, board) not in direct:
                    out[(other, board)] = deal
        out.update(direct)
    # Hand records of sessions no longer known (or none at all) still serve their own section.
    if not session:
        rows = store.query("SELECT h.section, h.board, h.deal FROM dc_handrecords h JOIN dc_sessions s "
                           "ON s.session_guid = h.session_guid WHERE s.event = ?", (event,))
        for section, board, deal in rows:
            out.setdefault((section, int(board)), deal)
    return out


def seats(store: Store, event: str, session: str | None = None) -> dict[str, tuple[Any, dict]]:
    """section -> (seats_at, pair_members) from the players and participations of its session."""
    out = {}
    for letters, s in session_by_section(store, event, session).items():
        movement = [(r[0], int(r[1]), int(r[2]), int(r[3]), int(r[4])) for r in store.query(
            "SELECT section, table_no, round_no, pair_ns, pair_ew FROM dc_rounds WHERE session_guid = ? "
            "AND section = ?", (s["guid"], letters))]
        out[letters] = seating(movement, [p for p in store.participations(s["guid"]) if p["section"] == letters],
                               store.players(s["guid"]))
    return out


def club(store: Store) -> tuple[str, str]:
    """(club name, club id): the station's configuration (`--club`, `--club-id`), else the club
    id the scoring program connected with."""
    name = store.setting("club_name") or ""
    ident = store.setting("club_id") or ""
    if not ident:
        rows = store.query("SELECT payload FROM dc_sessions ORDER BY created_at DESC LIMIT 1")
        ident = ""
        if rows:
            import json

            try:
                ident = str(json.loads(rows[0][0]).get("ClubId") or "")
            except (ValueError, AttributeError):
                ident = ""
    return name or ident, ident


def pair_ids(results: list[dict]) -> tuple[Any, Any]:
    """Functions giving a pair's id for scoring. In a Mitchell (the same pair number at two tables
    in one round: one NS, one EW) numbers repeat across directions, so ids become "NS3"/"EW3";
    in a Howell a number is one pair and stays a plain number."""
    if numbered_per_direction(((r["section"], r["round"]), r["ns_pair"], r["ew_pair"]) for r in results):
        return (lambda n: f"NS{n}"), (lambda n: f"EW{n}")
    return (lambda n: n), (lambda n: n)


# How a section is scored, by the scoring program's method (docs/station.md "Files"): the
# pairs methods the station can score, and the board method shared_rules.scoring uses for IMPs.
PAIRS_METHODS = ("matchpoints", "imps", "cross_imps")
IMP_METHOD = {"imps": "butler", "cross_imps": "cross"}
# PBN 2.1 `Scoring` keywords: MP, IMP and BAM are the standard's base keywords; Butler and
# cross-IMPs are both IMP scoring, and a team match is IMPs (VPs come from IMPs) or BAM.
PBN_SCORING = {"matchpoints": "MP", "imps": "IMP", "cross_imps": "IMP", "team_imps": "IMP", "team_vp": "IMP",
               "bam": "BAM", "patton": "BAM"}
MATCHPOINTS = {"method": "matchpoints", "game_type": "pairs"}


def section_scoring(store: Store, event: str, session: str | None = None) -> dict[str, dict]:
    """section letters -> {"method", "game_type"} as the scoring program sent it (the latest
    session with those letters); a section the scoring program never sent is matchpoints."""
    return {letters: s["scoring"].get(letters, MATCHPOINTS)
            for letters, s in session_by_section(store, event, session).items()}


def refusal(letters: str, how: dict) -> str | None:
    """Why the station does not score this section (None: it does)."""
    if how["game_type"] != "pairs" or how["method"] not in PAIRS_METHODS:
        return (f"Section {letters} ({how['game_type']}, {how['method']}) not scored: the station scores pairs "
                f"only and has no team matches")
    return None


def score_section(results: list[dict], rules: str = "fsb-2007", method: str = "matchpoints") -> dict:
    """One section's results scored by its method via shared_rules.scoring: matchpoints
    (score_pairs_session) or IMP pairs (score_imp_pairs_session, Butler or cross-IMPs)."""
    from shared_rules.scoring.board_imps import score_imp_pairs_session
    from shared_rules.scoring.session import score_pairs_session

    ns_id, ew_id = pair_ids(results)
    boards: dict[int, list[dict]] = {}
    for r in results:
        boards.setdefault(r["board"], []).append({**r, "ns_pair": ns_id(r["ns_pair"]),
                                                  "ew_pair": ew_id(r["ew_pair"])})
    if method in IMP_METHOD:
        return score_imp_pairs_session(boards, IMP_METHOD[method], rules=rules)
    return score_pairs_session(boards, rules=rules)


def scorable(rec: dict, rules: str, method: str = "matchpoints") -> bool:
    """Whether the scorer can read this record alone (a stored adjusted block may be incomplete;
    a percentage adjusted score has no IMPs)."""
    from shared_rules.scoring import score_board
    from shared_rules.scoring.board_imps import score_board_imps

    try:
        if method in IMP_METHOD:
            score_board_imps([rec], IMP_METHOD[method], rules=rules)
        else:
            score_board([rec], rules=rules)
        return isinstance(rec.get("ns_pair"), int) and isinstance(rec.get("ew_pair"), int)
    except Exception:  # noqa: BLE001 - any reason the scorer refuses is a record to leave out
        return False


# -- PBN ---------------------------------------------------------------------------------------------
def pbn_for_event(store: Store, event: str, session: str | None = None) -> str:
    """The PBN file (a str starting with the UTF-8 byte order mark: encode it as UTF-8)."""
    results = sorted(event_results(store, event, session),
                     key=lambda r: (r["board"], r["section"], r["round"], r["table"]))
    hands = deals(store, event, session)
    by_section = session_by_section(store, event, session)
    seated = seats(store, event, session)
    how = section_scoring(store, event, session)
    site = club(store)[0]
    games = []
    for r in results:
        names = {}
        if r["section"] in seated and isinstance(r.get("ns_pair"), int) and isinstance(r.get("ew_pair"), int):
            found = seated[r["section"]][0](r["section"], r["table"], r["round"], r["ns_pair"], r["ew_pair"])
            names = {s: p["pbn_name"] for s, p in found.items()}
        s = by_section.get(r["section"])
        ctx = {"event": (s and s["name"]) or event, "site": site, "names": names,
               "deal": hands.get((r["section"], r["board"])),
               "scoring": PBN_SCORING.get(how.get(r["section"], MATCHPOINTS)["method"], "?")}
        try:
            games.append(pbn.game(r, ctx))
        except Exception as e:  # a stored record the writer did not foresee: say so, keep the file
            log.error("PBN export: record %s/%s/%s/%s skipped: %r", *(r.get(k) for k in KEYS), e)
            games.append([pbn.comment(f"Result of section {r['section']} table {r['table']} round {r['round']} "
                                      f"board {r['board']} could not be written")])
    header = [f"Creator: bidding-box station {__version__}", f"Event {event}: {len(results)} results"]
    header += [why for letters in sorted({r["section"] for r in results})
               if (why := refusal(letters, how.get(letters, MATCHPOINTS)))]
    return pbn.document(games, header)


# -- USEBIO --------------------------------------------------------------------------------------------
def usebio_for_event(store: Store, event: str, club_name: str | None = None, rules: str = "fsb-2007",
                     session: str | None = None) -> str:
    """USEBIO 1.2 XML of a pairs event: per section the pairs (players, place, matchpoints,
    percentage), every board's traveller, hand records when known."""
    results = event_results(store, event, session)
    hands = deals(store, event, session)
    seated = seats(store, event, session)
    by_section = session_by_section(store, event, session)
    how = section_scoring(store, event, session)
    name, ident = club(store)
    letters_all = sorted({r["section"] for r in results})
    # One USEBIO EVENT has one BOARD_SCORING_METHOD: the first section the station scores sets it.
    scored_methods = [how.get(x, MATCHPOINTS)["method"] for x in letters_all
                      if refusal(x, how.get(x, MATCHPOINTS)) is None]
    method = scored_methods[0] if scored_methods else "matchpoints"
    sections = []
    for letters in letters_all:
        recs = [r for r in results if r["section"] == letters]
        mine = how.get(letters, MATCHPOINTS)
        why = refusal(letters, mine)
        if why is None and mine["method"] != method:
            why = (f"Section {letters} ({mine['method']}) not scored: this file is scored by {method}; "
                   f"export that section's session alone (&session=)")
        good = [] if why else [r for r in recs if scorable(r, rules, method)]
        try:
            scored = score_section(good, rules, method) if good else {"pairs": {}, "boards": {}}
        except Exception as e:  # noqa: BLE001 - the travellers are still worth having
            log.error("USEBIO export: section %s not scored: %r", letters, e)
            good, scored = [], {"pairs": {}, "boards": {}}
        rows_of: dict[int, Any] = {}
        counters: dict[int, int] = {}
        for r in good:
            i = counters.get(r["board"], 0)
            counters[r["board"]] = i + 1
            rows_of[id(r)] = scored["boards"][r["board"]][i]
        boards: dict[int, list] = {}
        for r in recs:
            boards.setdefault(r["board"], []).append((r, rows_of.get(id(r))))
        members = seated[letters][1] if letters in seated else {}
        per_direction = bool(good) and pair_ids(good)[0](1) == "NS1"
        players = {}
        for pair_id in scored["pairs"]:
            text = str(pair_id)
            key = (letters, text[:2], int(text[2:])) if per_direction else (letters, "", pair_id)
            players[pair_id] = [p for p in members.get(key, []) if p]
        sections.append({"id": letters, "per_direction": per_direction, "scored": scored, "boards": boards,
                         "refused": why,
                         "players": players, "hands": {b: d for (s, b), d in hands.items() if s == letters}})
    names = [s["name"] for s in by_section.values() if s.get("name")]
    doc = {"club_name": club_name or name, "club_id": ident,
           "description": " / ".join(dict.fromkeys(names)) or event,
           "identifier": event, "date": usebio.parse_date([r.get("entered_at") for r in results]),
           "program": "bidding-box station", "version": __version__,
           "boards_played": len({r["board"] for r in results}), "sections": sections, "method": method}
    return usebio.document(doc)
