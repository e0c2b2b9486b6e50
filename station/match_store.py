"""The session's team matches from what the station holds: the scoring program's movement
(`dc_rounds` with `dc_round_teams`) and the TD's settings (`team_matches`), scored from the
tables' results (`shared_rules.scoring.team_match`). Reads only, except the TD's own commands
(`set_match`, `set_teams`, `clear`), which check everything before they write.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from shared_rules.profiles import ProfileError, load
from shared_rules.scoring import vp_scales
from shared_rules.scoring.rules import RULES
from shared_rules.scoring.team_match import (
    MatchScore,
    TeamScoreError,
    add_up,
    deduct_vp,
    score_match,
    walkover_imps_score,
    walkover_score,
)

from .matches import Match, MatchError, Room, TeamSlot, combine, derive, td_match
from .notices import Notice, NoticeCode
from .session_scope import stored_object

TEAMS_GAME = 30          # Data Connector SectionDTO.GameType_Teams
TEAM_METHODS = {40: "team_imps", 50: "team_vp", 51: "team_vp", 60: "bam", 70: "patton"}
NO_VP = (40,)            # ScoringType_TeamImps: the match score is IMPs, no VPs


# -- the Data Connector's teams movement ----------------------------------------------------------
def _team_of(r: dict, team_key: str, pair_key: str) -> int:
    return int(r.get(team_key) or 0) or int(r.get(pair_key) or 0)


def dc_slots(section: dict) -> list[TeamSlot]:
    """A SectionDTO (as sent) -> its slots with teams: TeamNS/TeamEW, else PairNS/PairEW."""
    out = []
    for t in section.get("Tables") or []:
        for r in t.get("Rounds") or []:
            low, high = int(r.get("LowBoardNumber") or 0), int(r.get("HighBoardNumber") or 0)
            mates = None
            if r.get("MatesTableSectionLetters") and r.get("MatesTableTableNumber"):
                mates = Room(str(r["MatesTableSectionLetters"]), int(r["MatesTableTableNumber"]),
                             int(r.get("MatesTableRoundNumber") or r["RoundNumber"]))
            out.append(TeamSlot(Room(section["Letters"], int(t["TableNumber"]), int(r["RoundNumber"])),
                                tuple(range(low, high + 1)) if low >= 1 and high >= low else (),
                                _team_of(r, "TeamNS", "PairNS"), _team_of(r, "TeamEW", "PairEW"), mates))
    return out


def names_teams(section: dict) -> bool:
    """Whether the section's rounds name their teams or the teammates' tables (RoundDTO TeamNS,
    TeamEW, MatesTable*): a movement that says which tables form a match."""
    return any((r.get("TeamNS") or r.get("TeamEW") or r.get("MatesTableTableNumber"))
               for t in section.get("Tables") or [] for r in t.get("Rounds") or [])


def check_dc_sections(sections: list[dict], stored: list[TeamSlot] | None = None) -> None:
    """MatchError when sections whose rounds name teams cannot be played as matches (checked
    before the Data Connector stores anything). `stored`: the session's other teams sections.
    A teams section that names no teams is taken as sent; its matches are inferred when the
    station reads it (`session_matches`), and what stops one is shown, not refused."""
    slots = [s for sec in sections if names_teams(sec) for s in dc_slots(sec)]
    if slots:
        letters = {sec["Letters"] for sec in sections}
        derive(slots + [s for s in stored or [] if s.room.section not in letters])


def write_dc_teams(tx: Any, session: str, section: dict) -> None:
    """The section's teams per round, in the transaction that writes its movement."""
    tx.execute("DELETE FROM dc_round_teams WHERE session_guid = ? AND section = ?", (session, section["Letters"]))
    for t in section.get("Tables") or []:
        for r in t.get("Rounds") or []:
            if r.get("TeamNS") or r.get("TeamEW") or r.get("MatesTableTableNumber"):
                tx.execute("INSERT INTO dc_round_teams (session_guid, section, table_no, round_no, team_ns, team_ew, "
                           "mates_section, mates_table, mates_round) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           (session, section["Letters"], int(t["TableNumber"]), int(r["RoundNumber"]),
                            int(r.get("TeamNS") or 0), int(r.get("TeamEW") or 0),
                            r.get("MatesTableSectionLetters") or None, int(r.get("MatesTableTableNumber") or 0) or None,
                            int(r.get("MatesTableRoundNumber") or 0) or None))


# -- what the station holds --------------------------------------------------------------------------
def stored_slots(store: Any, session: str, sections: set[str] | None = None) -> list[TeamSlot]:
    """The session's movement as team slots (all sections, or `sections`)."""
    rows = store.query(
        "SELECT m.section, m.table_no, m.round_no, m.low_board, m.high_board, m.pair_ns, m.pair_ew, "
        "t.team_ns, t.team_ew, t.mates_section, t.mates_table, t.mates_round FROM dc_rounds m "
        "LEFT JOIN dc_round_teams t ON t.session_guid = m.session_guid AND t.section = m.section "
        "AND t.table_no = m.table_no AND t.round_no = m.round_no WHERE m.session_guid = ?", (session,))
    out = []
    for sec, table, rnd, low, high, pns, pew, tns, tew, msec, mtab, mrnd in rows:
        if sections is not None and sec not in sections:
            continue
        try:
            mates = Room(str(msec), int(mtab), int(mrnd or rnd)) if msec and mtab else None
            out.append(TeamSlot(Room(str(sec), int(table), int(rnd)),
                                tuple(range(int(low), int(high) + 1)) if int(low) >= 1 and int(high) >= int(low)
                                else (), int(tns or 0) or int(pns), int(tew or 0) or int(pew), mates))
        except (TypeError, ValueError, OverflowError):  # a damaged stored row is no slot
            continue
    return out


def _entries(store: Any, session: str) -> list[dict]:
    """The TD's entries. A damaged stored row (no JSON object, or not an entry `set_match` or
    `set_teams` writes) is none: the files and pages that read the matches never fail on it."""
    docs = [stored_object(p) for (p,) in store.query("SELECT payload FROM team_matches WHERE session_guid = ? "
                                                     "ORDER BY created_at, entry", (session,))]
    return [d for d in docs if _entry_ok(d)]


def _room_ok(room: Any) -> bool:
    return isinstance(room, list) and len(room) == 2 and isinstance(room[0], str) and type(room[1]) is int


def _entry_ok(doc: dict) -> bool:
    if doc.get("kind") == "teams":
        return isinstance(doc.get("section"), str)
    return doc.get("kind") == "match" and _room_ok(doc.get("open")) and _room_ok(doc.get("closed")) \
        and (doc.get("rounds") is None or isinstance(doc["rounds"], list)) \
        and (doc.get("home") is None or type(doc["home"]) is int)


def teams_sections(store: Any, session: str) -> set[str]:
    """Sections played as teams: sent as teams by the scoring program, or declared by the TD."""
    sent = {str(s) for (s,) in store.query("SELECT section FROM dc_sections WHERE session_guid = ? AND "
                                           "(game_type = ? OR scoring_method IN (40, 50, 51))",
                                           (session, TEAMS_GAME))}
    sent |= {str(s) for (s,) in store.query("SELECT DISTINCT section FROM dc_round_teams WHERE session_guid = ?",
                                            (session,))}
    return sent | {e["section"] for e in _entries(store, session) if e.get("kind") == "teams"}


@dataclass
class SessionMatches:
    matches: list[Match] = field(default_factory=list)
    # why a movement holds no playable match: `str()` the English, the page says it in the TD's language
    problems: list[Notice] = field(default_factory=list)


def session_matches(store: Any, session: str | None) -> SessionMatches:
    """Every match of the session: the movement's (teams sections) and the TD's. A movement
    changed after the TD set a match may no longer hold it: that is a problem, not a crash."""
    out = SessionMatches()
    if session is None:
        return out
    slots = stored_slots(store, session)
    sections = teams_sections(store, session)
    derived: list[Match] = []
    if sections:
        try:
            derived = derive([s for s in slots if s.room.section in sections])
        except MatchError as e:
            out.problems.append(Notice.of(NoticeCode.MATCH_IN_SECTIONS, sections=sorted(sections), why=_why(e)))
    named = []
    for entry in _entries(store, session):
        if entry.get("kind") != "match":
            continue
        o, c = tuple(entry["open"]), tuple(entry["closed"])
        try:
            named.append(td_match(slots, o, c, entry.get("rounds"), entry.get("home")))
        except MatchError as err:
            out.problems.append(Notice.of(NoticeCode.MATCH_SET_BY_TD, open=f"{o[0]}{o[1]}", closed=f"{c[0]}{c[1]}",
                                          why=_why(err)))
    try:
        out.matches = combine(derived, named)
    except MatchError as e:
        out.problems.append(e.notice or Notice.of(NoticeCode.MATCH_IN_SECTIONS, sections=sorted(sections),
                                                  why=str(e)))
        out.matches = derived
    out.matches.sort(key=lambda m: sorted(m.rooms()))
    return out


def _why(e: MatchError) -> Notice | str:
    return e.notice or str(e)


# -- the TD's commands ---------------------------------------------------------------------------------
def put_entry(store: Any, session: str, entry: str, payload: dict) -> None:
    from .store import canonical, utc_now

    with store.transaction() as tx:
        tx.execute("DELETE FROM team_matches WHERE session_guid = ? AND entry = ?", (session, entry))
        tx.execute("INSERT INTO team_matches (session_guid, entry, payload, created_at) VALUES (?, ?, ?, ?)",
                   (session, entry, canonical(payload), utc_now()))


def set_match(store: Any, session: str, open_room: tuple[str, int], closed_room: tuple[str, int],
              rounds: list[int] | None = None, home: int | None = None) -> Match:
    """Check the match against the movement and the other matches the TD set, then keep it."""
    slots = stored_slots(store, session)
    if not slots:
        raise MatchError("the scoring program has sent no movement for this session: a match is two tables of it")
    m = td_match(slots, open_room, closed_room, rounds, home)
    others = [td_match(slots, tuple(e["open"]), tuple(e["closed"]), e.get("rounds"), e.get("home"))
              for e in _entries(store, session) if e.get("kind") == "match"
              and {tuple(e["open"]), tuple(e["closed"])} != {open_room, closed_room}]
    combine([], [*others, m])
    entry = f"match/{open_room[0]}{open_room[1]}/{closed_room[0]}{closed_room[1]}"
    for e in _entries(store, session):  # the same two tables named the other way round: replaced
        if e.get("kind") == "match" and {tuple(e["open"]), tuple(e["closed"])} == {open_room, closed_room}:
            clear(store, session, f"match/{e['open'][0]}{e['open'][1]}/{e['closed'][0]}{e['closed'][1]}")
    put_entry(store, session, entry, {"kind": "match", "open": list(open_room), "closed": list(closed_room),
                                 "rounds": rounds, "home": home})
    return m


def set_teams(store: Any, session: str, section: str) -> list[Match]:
    """Declare a section teams: its matches come from its movement (checked now)."""
    slots = [s for s in stored_slots(store, session) if s.room.section == section]
    if not slots:
        raise MatchError(f"the scoring program's movement of this session has no section {section}")
    found = derive(slots)
    if not found:
        raise MatchError(f"section {section}: no two tables of its movement seat the same two teams")
    put_entry(store, session, f"teams/{section}", {"kind": "teams", "section": section})
    return found


def clear(store: Any, session: str, entry: str | None = None) -> int:
    with store.transaction() as tx:
        if entry is None:
            cur = tx.execute("DELETE FROM team_matches WHERE session_guid = ?", (session,))
        else:
            cur = tx.execute("DELETE FROM team_matches WHERE session_guid = ? AND entry = ?", (session, entry))
        return int(cur.rowcount or 0)


# -- scoring -------------------------------------------------------------------------------------------
def rules_name(profile: str | None) -> str:
    """The scoring rules for the club's profile (artificial IMPs are +3 / 0 / -3 in both)."""
    if profile in RULES:
        return str(profile)
    return "dbf-2017" if profile and "2017" in profile else "fsb-2007"


def profile_scale(profile: str | None) -> str:
    """The VP scale the club's profile names (`vp_scale`, 2007 L78D / 2017 §78D); "wbf" for a
    profile the station does not know."""
    try:
        return load(profile).vp_scale if profile else "wbf"
    except ProfileError:
        return "wbf"


def scale_for(store: Any, session: str, match: Match) -> str:
    """The name of the match's VP scale (`vp_scales.names()`): "none" (IMPs only) for Data
    Connector method 40 or the TD's `match scale none`; else the scale the TD named with `match
    scale`, or the profile's (`profile_scale`)."""
    return scale_for_sections(store, session, {r.section for r in match.rooms()})


def scale_for_sections(store: Any, session: str, sections: set[str]) -> str:
    """`scale_for` of what is played in `sections` (a match's rooms, a bye's round)."""
    chosen = store.setting("team_vp_scale")
    if chosen == vp_scales.NONE:
        return vp_scales.NONE
    rows = store.query("SELECT section, scoring_method FROM dc_sections WHERE session_guid = ?", (session,))
    methods = {m for s, m in rows if s in sections and type(m) is int}  # a damaged row says nothing
    if methods and methods <= set(NO_VP):
        return vp_scales.NONE
    return chosen if chosen in vp_scales.SCALES else profile_scale(store.setting("profile"))


@dataclass
class ScoredMatch:
    """`score.vp` is net of the TD's VP deductions (`deductions`, FSB L109B-D)."""

    match: Match
    score: MatchScore
    scale: str
    problems: list[Notice] = field(default_factory=list)
    deductions: list[Any] = field(default_factory=list)  # match_deductions.Deduction
    walkover: Any = None  # match_walkovers.Walkover: the match was not played (FSB L109A)


def index_results(results: list[dict]) -> dict[tuple[str, int, int, int], dict]:
    return {(r["section"], r["table"], r["round"], r["board"]): r for r in results}


def score(store: Any, session: str, match: Match, results: dict[tuple[str, int, int, int], dict],
          profile: str | None) -> ScoredMatch:
    """The match scored from the rooms' latest results (`index_results`)."""
    boards: dict[int, tuple[dict | None, dict | None]] = {}
    for seg in match.segments:
        ns, ew = match.home_ns(seg)
        for b in seg.boards:
            boards[b] = (results.get((ns.room.section, ns.room.table, ns.room.round, b)),
                         results.get((ew.room.section, ew.room.table, ew.room.round, b)))
    scale = scale_for(store, session, match)
    named = vp_scales.named(scale)
    problems = []
    try:
        out = score_match(boards, rules_name(profile), named.scale if named else None)
    except TeamScoreError:
        out = MatchScore()
        for b, (x, y) in sorted(boards.items()):
            try:
                out_b = score_match({b: (x, y)}, rules_name(profile))
                out.boards[b] = out_b.boards[b]
            except TeamScoreError as e:
                out.boards[b] = None
                problems.append(Notice.of(NoticeCode.MATCH_BOARD, board=b, detail=str(e)))
        add_up(out)
    walkover = _walkover(store, session, match, scale, results, problems)
    if walkover is not None:
        home, away = (t in walkover.absent for t in (match.home, match.away))
        if walkover.imps is not None:  # scored in IMPs only (docs/laws/choices.md #46)
            out = walkover_imps_score((home, away), *walkover.imps)
        elif named is not None:
            out = walkover_score(len(match.boards), named.scale, (home, away), float(walkover.vp))
    from .match_deductions import of_match

    docked = of_match(store, session, match)
    if docked and out.vp is not None:
        # FSB L109D: each deduction comes off its own team's VPs alone
        out.vp = deduct_vp(out.vp, sum((d.vp for d in docked if d.team == match.home), Fraction(0)),
                           sum((d.vp for d in docked if d.team == match.away), Fraction(0)))
    return ScoredMatch(match, out, scale, problems, docked, walkover)


def _walkover(store: Any, session: str, match: Match, scale: str, results: dict[tuple[str, int, int, int], dict],
              problems: list[Notice]) -> Any:
    """The TD's walk-over of the match (`match_walkovers`), if it still counts: given on the
    scale the match is scored on. Results that came in after it are shown, not scored."""
    from .match_walkovers import has_results, of_match

    w = of_match(store, session, match)
    if w is None:
        return None
    if w.scale != scale:
        problems.append(Notice.of(NoticeCode.WALKOVER_OTHER_SCALE, match=match.ident, given=w.scale, scale=scale))
        return None
    if has_results(match, results):
        problems.append(Notice.of(NoticeCode.WALKOVER_RESULTS, match=match.ident))
    return w


def scored_session(store: Any, session: str | None, results: list[dict], profile: str | None) -> list[ScoredMatch]:
    found = session_matches(store, session)
    if session is None:
        return []
    index = index_results(results)
    return [score(store, session, m, index, profile) for m in found.matches]


def match_of_table(matches: list[Match], section: str, table: int) -> list[Match]:
    return [m for m in matches if (section, table) in m.tables()]


# -- Law 16: no result of the other room before the match is over ---------------------------------
def _over(match: Match, results: dict[tuple[str, int, int, int], dict]) -> bool:
    return all((x.room.section, x.room.table, x.room.round, b) in results
               for seg in match.segments for x in (seg.open, seg.closed) for b in seg.boards)


def law16_visible(store: Any, event: str, section: str, table_no: int, board: int,
                  shown: list[dict]) -> list[dict]:
    """Of the board's results a table may be shown (its own is in), those it may see in a team
    match: while its own match is not over, its own result only; and never a result from a
    table whose match is still being played. 2007 L16B / 2017 L16C (extraneous information) and
    FSB 110B (a table that has finished may not get results from the table still playing),
    whatever the club's show-results setting says."""
    from .movement import item_session
    from .store import latest_results

    ref = item_session(store, event, section)
    if ref is None:
        return shown
    found = [m for m in session_matches(store, ref.guid).matches if board in m.boards]
    if not found:
        return shown
    results = index_results([it["payload"] for it in latest_results(store.items(ref.tablet_event, "result"))])
    open_tables = {t for m in found if not _over(m, results) for t in m.tables()}
    if (section, table_no) in open_tables:
        return [r for r in shown if (r.get("section"), r.get("table")) == (section, table_no)]
    return [r for r in shown if (r.get("section"), r.get("table")) not in open_tables]


def in_open_match(store: Any, event: str, section: str, table_no: int) -> bool:
    """Whether this table plays in a team match of its session (its club's show-results setting
    is then overridden: `station/movement.py`)."""
    from .movement import item_session

    ref = item_session(store, event, section)
    if ref is None:
        return False
    return any((section, table_no) in m.tables() for m in session_matches(store, ref.guid).matches)


def td_entries(store: Any, session: str, prefix: str) -> list[tuple[str, dict]]:
    """The TD's stored entries of one kind (their `entry` begins with `prefix`: deductions,
    byes, walk-overs) in the order they were made, each with its object (a damaged payload
    reads as an empty one: the pages and files never fail on it)."""
    rows = store.query("SELECT entry, payload FROM team_matches WHERE session_guid = ? AND entry LIKE ? "
                       "ORDER BY created_at, entry", (session, prefix + "%"))
    return [(str(e), stored_object(p)) for e, p in rows]
