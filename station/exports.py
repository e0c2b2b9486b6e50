"""File exports for scorers and archives: the glue between the store and the two writers,
station/pbn.py (PBN 2.1) and station/usebio.py (USEBIO 1.2).

This module only reads, and always one session (`session_scope`): its results (latest revision
of each), scoring groups, hand records, players and seats, its name and date, and the club. Everything about the
formats is in the two pure modules. An export never fails on a stored record: a record that
cannot be written is reduced to what can be (pbn/usebio mark unknown fields) and, as a last
resort, replaced by a comment, never a 500 for the whole file.
"""
from __future__ import annotations

import dataclasses
import datetime
import logging
from typing import TYPE_CHECKING, Any

from . import __version__, pbn, table_players, team_exports, usebio, usebio_teams
from .export_items import Damaged, session_items
from .movement import numbered_per_direction
from .players import seating
from .session_scope import SessionScope, groups, scope, stored_object
from .store import Store

if TYPE_CHECKING:
    from shared_rules.scoring.rules import ScoringRules

log = logging.getLogger(__name__)
KEYS = ("section", "table", "round", "board")


# -- gathering ----------------------------------------------------------------------------------
def session_results(store: Store, sc: SessionScope) -> list[dict]:
    """The latest revision of every result of the session (Law 79C corrections replace): the
    items its tablets stored under its own id, and no other session's."""
    return session_rows(store, sc)[0]


def session_rows(store: Store, sc: SessionScope) -> tuple[list[dict], list[Damaged]]:
    """(`session_results`, the session's stored rows the files cannot take: export_items.py)."""
    items, damaged = session_items(store, sc.tablet_event)
    return [it["payload"] for it in items], damaged


def deals(store: Store, sc: SessionScope) -> dict[tuple[str, int], str]:
    """(section, board) -> deal ("N:...") from the session's own hand records. A hand record sent
    for one section of a scoring group serves every section of that group (the Data Connector
    asks for one section per group)."""
    if sc.guid is None:
        return {}
    rows = store.query("SELECT section, board, deal FROM dc_handrecords WHERE session_guid = ?", (sc.guid,))
    direct = {(r[0], r[1]): r[2] for r in rows if isinstance(r[1], int)}  # a damaged row is no deal
    out: dict[tuple[str, int], str] = {}
    for (section, board), deal in direct.items():
        group = sc.sections.get(section)
        for other, g in sc.sections.items():
            if g == group and (other, board) not in direct:
                out[(other, board)] = deal
    out.update(direct)
    return out


def seats(store: Store, sc: SessionScope) -> dict[str, tuple[Any, dict]]:
    """section -> (seats_at, pair_members) from the session's own players and participations.
    A damaged stored row (not a number where one belongs) names nobody; the rest still do."""
    if sc.guid is None:
        return {}
    out = {}
    try:
        # the scoring program's seating, then the numbers the tables entered (the later counts)
        people = store.participations(sc.guid) + table_players.seated(store, sc.tablet_event, sc.guid)
        players = store.players(sc.guid)
    except (TypeError, ValueError) as e:
        log.error("exports: the session's players cannot be read: %r", e)
        people, players = [], {}
    for letters in sc.sections:
        movement = [(r[0], r[1], r[2], r[3], r[4]) for r in store.query(
            "SELECT section, table_no, round_no, pair_ns, pair_ew FROM dc_rounds WHERE session_guid = ? "
            "AND section = ?", (sc.guid, letters)) if all(isinstance(x, int) for x in r[1:5])]
        out[letters] = seating(movement, [p for p in people if p["section"] == letters], players)
    return out


def club(store: Store, sc: SessionScope | None = None) -> tuple[str, str]:
    """(club name, club id): the station's configuration (`--club`, `--club-id`), else the club
    id the scoring program sent with the session (its InitializeEvent's ClubId)."""
    ident = store.setting("club_id") or (sc.club_id if sc else "")
    if not ident:
        rows = store.query("SELECT payload FROM dc_sessions ORDER BY created_at DESC LIMIT 1")
        ident = str(stored_object(rows[0][0]).get("ClubId") or "") if rows else ""
    return store.setting("club_name") or ident, ident


def session_day(sc: SessionScope, results: list[dict]) -> datetime.date | None:
    """The session's date as the scoring program sent it, else the earliest day a result was
    entered (tablets set up by hand)."""
    return sc.day or usebio.parse_date([r.get("entered_at") for r in results])


def pair_id(section: str, per_direction: bool, side: str, number: Any) -> Any:
    """A pair's id for scoring a scoring group as one: unique across its sections and, in a
    Mitchell (numbers repeat across directions), across directions."""
    return (section, side if per_direction else "", number)


def mitchell_sections(results: list[dict]) -> set[str]:
    """Sections numbered per direction (the same number NS at one table and EW at another in a
    round): a Mitchell. A Howell's number is one pair."""
    by_section: dict[str, list[dict]] = {}
    for r in results:
        by_section.setdefault(r["section"], []).append(r)
    return {x for x, rs in by_section.items()
            if numbered_per_direction((r["round"], r["ns_pair"], r["ew_pair"]) for r in rs
                                      if _pair_number(r.get("ns_pair")) and _pair_number(r.get("ew_pair")))}


def _pair_number(v: Any) -> bool:
    """A pair number a stored result can be scored by (not a text, a list or a flag)."""
    return isinstance(v, int) and not isinstance(v, bool)


# How a section is scored, by the scoring program's method (docs/station.md "Files"): the
# pairs methods the station can score, and the board method shared_rules.scoring uses for IMPs.
PAIRS_METHODS = ("matchpoints", "imps", "cross_imps")
IMP_METHOD = {"imps": "butler", "cross_imps": "cross"}
# PBN 2.1 `Scoring` keywords: MP, IMP and BAM are the standard's base keywords; Butler and
# cross-IMPs are both IMP scoring, and a team match is IMPs (VPs come from IMPs) or BAM.
PBN_SCORING = {"matchpoints": "MP", "imps": "IMP", "cross_imps": "IMP", "team_imps": "IMP", "team_vp": "IMP",
               "bam": "BAM", "patton": "BAM"}
MATCHPOINTS = {"method": "matchpoints", "game_type": "pairs"}


def refusal(letters: str, how: dict, matched: bool = False) -> str | None:
    """Why the station does not score this section as pairs (None: it does). `matched`: the
    section's tables play team matches, scored as such (station/team_exports.py)."""
    if matched:
        return None
    if how["game_type"] != "pairs" or how["method"] not in PAIRS_METHODS:
        return (f"Section {letters} ({how['game_type']}, {how['method']}) not scored: no team match is known "
                f"for its tables (the movement seats no two teams the other way round on the same boards; "
                f"the TD sets one with python -m station match)")
    return None


def as_ruled(rules: str) -> ScoringRules:
    """The scoring rules the station scores stored results by. Who may weight an assigned score
    (Law 12C1(c): 2017 the director; the Swedish 2007 edition a committee or the Laws Commission)
    was the table's question, under the regulation profile it played (tablet_app/assigned.py
    refuses a weighting the profile does not allow): the station scores the ruling it was sent,
    whichever table's profile it came from."""
    from shared_rules.scoring.rules import get_rules

    return dataclasses.replace(get_rules(rules), weighting_by_td=True)


def score_group(results: list[dict], rules: str = "fsb-2007", method: str = "matchpoints") -> dict:
    """The results of one scoring group (one or more sections) scored as one field via
    shared_rules.scoring: one frequency per board over every section of the group, Neuberg's N
    the largest number of results on any of its boards (FSB 98C). Pair ids are `pair_id`s."""
    from shared_rules.scoring.board_imps import score_imp_pairs_session
    from shared_rules.scoring.session import score_pairs_session

    mitchell = mitchell_sections(results)
    boards: dict[int, list[dict]] = {}
    for r in results:
        per = r["section"] in mitchell
        boards.setdefault(r["board"], []).append({**r, "ns_pair": pair_id(r["section"], per, "NS", r["ns_pair"]),
                                                  "ew_pair": pair_id(r["section"], per, "EW", r["ew_pair"])})
    if method in IMP_METHOD:
        return score_imp_pairs_session(boards, IMP_METHOD[method], rules=as_ruled(rules))
    return score_pairs_session(boards, rules=as_ruled(rules))


def scorable(rec: dict, rules: str, method: str = "matchpoints") -> bool:
    """Whether the scorer can read this record alone (a stored adjusted block may be incomplete;
    a percentage adjusted score has no IMPs)."""
    from shared_rules.scoring import score_board
    from shared_rules.scoring.board_imps import score_board_imps

    try:
        if method in IMP_METHOD:
            score_board_imps([rec], IMP_METHOD[method], rules=as_ruled(rules))
        else:
            score_board([rec], rules=as_ruled(rules))
        return isinstance(rec.get("ns_pair"), int) and isinstance(rec.get("ew_pair"), int)
    except Exception:  # noqa: BLE001 - any reason the scorer refuses is a record to leave out
        return False


def how_scored(sc: SessionScope, letters: str) -> dict:
    """{"method", "game_type"} as the scoring program sent it; a section it never sent (tablets
    set up by hand) is matchpoints."""
    return sc.scoring.get(letters, MATCHPOINTS)


# -- PBN ---------------------------------------------------------------------------------------------
def pbn_for_event(store: Store, event: str, session: str | None = None) -> str:
    """The PBN file of one session (`session_scope.scope`): a str starting with the UTF-8 byte
    order mark (encode it as UTF-8)."""
    sc = scope(store, event, session)
    results, damaged = session_rows(store, sc)
    results.sort(key=lambda r: (r["board"], r["section"], r["round"], r["table"]))
    hands = deals(store, sc)
    seated = seats(store, sc)
    site = club(store, sc)[0]
    day = session_day(sc, results)
    teams = team_exports.view(store, sc, results)
    matched = teams.sections()
    games = []
    for r in results:
        names = {}
        if r["section"] in seated and isinstance(r.get("ns_pair"), int) and isinstance(r.get("ew_pair"), int):
            found = seated[r["section"]][0](r["section"], r["table"], r["round"], r["ns_pair"], r["ew_pair"])
            names = {s: p["pbn_name"] for s, p in found.items()}
        ctx = {"event": sc.name or sc.tablet_event, "site": site, "names": names, "date": day,
               "deal": hands.get((r["section"], r["board"])),
               "scoring": PBN_SCORING.get(how_scored(sc, r["section"])["method"], "?"),
               "team": teams.games.get((r["section"], r["table"], r["round"], r["board"]))}
        if ctx["team"] and ctx["scoring"] == "MP":
            ctx["scoring"] = "IMP"  # a team match set by the TD on a section sent as pairs
        try:
            games.append(pbn.game(r, ctx))
        except Exception as e:  # a stored record the writer did not foresee: say so, keep the file
            log.error("PBN export: record %s/%s/%s/%s skipped: %r", *(r.get(k) for k in KEYS), e)
            games.append([pbn.comment(f"Result of section {r['section']} table {r['table']} round {r['round']} "
                                      f"board {r['board']} could not be written")])
    header = [f"Creator: bidding-box station {__version__}",
              f"Session {sc.name or sc.tablet_event} ({sc.tablet_event}): {len(results)} results"]
    header += [why for letters in sorted({r["section"] for r in results})
               if (why := refusal(letters, how_scored(sc, letters), letters in matched))]
    if damaged:
        # Named in the file, after the games: a comment per row (PBN 3.8), its key and why.
        header.append(f"{len(damaged)} damaged stored items are not exported (comments after the games)")
        games.append([pbn.comment(d.note(), 2 * pbn.MAX_TEXT) for d in damaged])
    return pbn.document(games, header + team_exports.header(teams))


# -- USEBIO --------------------------------------------------------------------------------------------
def usebio_for_event(store: Store, event: str, club_name: str | None = None, rules: str = "fsb-2007",
                     session: str | None = None, section: str | None = None) -> str:
    """USEBIO 1.2 XML of one session of a pairs event (`section`: of one of its sections): per
    section the pairs (players, place, points, percentage), every board's traveller, hand
    records when known. Sections of one scoring group are scored as one field."""
    sc = scope(store, event, session)
    results, damaged = session_rows(store, sc)
    if section is not None:
        if section not in sc.sections and section not in {r["section"] for r in results}:
            raise UnknownSection(f"session {sc.name or sc.tablet_event} has no section {section}")
    hands = deals(store, sc)
    seated = seats(store, sc)
    name, ident = club(store, sc)
    letters_all = sorted({r["section"] for r in results} | ({section} if section else set()))
    teams = team_exports.view(store, sc, results)
    matched = teams.sections()
    if matched and set(letters_all) <= matched:
        # Every section of the file plays team matches: a USEBIO teams event.
        event_doc = team_exports.usebio_event(teams, results, hands, seated, section)
        return usebio_teams.document({
            "club_name": club_name or name, "club_id": ident, "description": sc.name or sc.tablet_event,
            "identifier": sc.guid or sc.tablet_event, "date": session_day(sc, results),
            "program": "bidding-box station", "version": __version__, **event_doc,
            "notes": [*event_doc.get("notes", []), *(usebio.comment_text(d.note()) for d in damaged)]})
    # One USEBIO EVENT has one BOARD_SCORING_METHOD: the first section the station scores sets it.
    scored_methods = [how_scored(sc, x)["method"] for x in letters_all if refusal(x, how_scored(sc, x)) is None]
    method = scored_methods[0] if scored_methods else "matchpoints"
    mitchell = mitchell_sections(results)
    sections = []
    for group in groups(sc, letters_all):
        why_of = {}
        for x in group:
            why = refusal(x, how_scored(sc, x))
            if x in matched:
                why = f"Section {x} plays team matches: export it alone (&section={x}) for its USEBIO teams event"
            if why is None and how_scored(sc, x)["method"] != method:
                why = (f"Section {x} ({how_scored(sc, x)['method']}) not scored: this file is scored by {method}; "
                       f"export that section alone (&section={x})")
            why_of[x] = why
        good = [r for r in results if r["section"] in group and not why_of[r["section"]]
                and scorable(r, rules, method)]
        try:
            scored = score_group(good, rules, method) if good else {"pairs": {}, "boards": {}}
        except Exception as e:  # noqa: BLE001 - the travellers are still worth having
            log.error("USEBIO export: sections %s not scored: %r", group, e)
            good, scored = [], {"pairs": {}, "boards": {}}
        rows_of: dict[int, Any] = {}
        counters: dict[int, int] = {}
        for r in good:
            i = counters.get(r["board"], 0)
            counters[r["board"]] = i + 1
            rows_of[id(r)] = scored["boards"][r["board"]][i]
        for letters in group:
            if section is not None and letters != section:
                continue
            boards: dict[int, list] = {}
            for r in results:
                if r["section"] == letters:
                    boards.setdefault(r["board"], []).append((r, rows_of.get(id(r))))
            members = seated[letters][1] if letters in seated else {}
            pairs = {p: t for p, t in scored["pairs"].items() if p[0] == letters}
            sections.append({"id": letters, "per_direction": letters in mitchell, "scored": {"pairs": pairs},
                             "field": [p for p in scored["pairs"] if section is None or p[0] == section],
                             "all_pairs": scored["pairs"], "boards": boards, "refused": why_of[letters],
                             "players": {p: [m for m in members.get(p, []) if m] for p in pairs},
                             "hands": {b: d for (s, b), d in hands.items() if s == letters}})
    day = session_day(sc, results)
    doc = {"club_name": club_name or name, "club_id": ident, "description": sc.name or sc.tablet_event,
           "identifier": sc.guid or sc.tablet_event, "date": day,
           "program": "bidding-box station", "version": __version__,
           "boards_played": len({r["board"] for r in results if section is None or r["section"] == section}),
           "sections": sections, "method": method, "damaged": [d.note() for d in damaged]}
    return usebio.document(doc)


class UnknownSection(LookupError):
    """An export of a section the session does not have (HTTP 404)."""
