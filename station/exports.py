"""File exports for scorers and archives: PBN (every board played, with auctions, alerts,
irregularities and think times) and USEBIO XML (pairs results with matchpoints).

Scoring itself is the project's one scorer, shared_rules.scoring (score_pairs_session); this
module only gathers the records and writes the formats.
"""
from __future__ import annotations

import datetime
import re
import xml.etree.ElementTree as ET
from typing import Any

from . import __version__
from .movement import numbered_per_direction
from .store import Store, latest_results

SEATS = "NESW"


# -- gathering ----------------------------------------------------------------------------------
def event_results(store: Store, event: str) -> list[dict]:
    """The latest revision of every result of the event (Law 79C corrections replace)."""
    return [it["payload"] for it in latest_results(store.items(event, "result"))]


def deals(store: Store, event: str) -> dict[tuple[str, int], str]:
    """(section, board) -> PBN deal string, from the hand records the scoring program sent."""
    rows = store.query("SELECT h.section, h.board, h.deal FROM dc_handrecords h JOIN dc_sessions s "
                       "ON s.session_guid = h.session_guid WHERE s.event = ?", (event,))
    return {(r[0], int(r[1])): r[2] for r in rows}


def pair_ids(results: list[dict]) -> tuple[Any, Any]:
    """Functions giving a pair's id for scoring. In a Mitchell (the same pair number at two tables
    in one round: one NS, one EW) numbers repeat across directions, so ids become "NS3"/"EW3";
    in a Howell a number is one pair and stays a plain number."""
    if numbered_per_direction(((r["section"], r["round"]), r["ns_pair"], r["ew_pair"]) for r in results):
        return (lambda n: f"NS{n}"), (lambda n: f"EW{n}")
    return (lambda n: n), (lambda n: n)


def score_section(results: list[dict], rules: str = "fsb-2007") -> dict:
    """Matchpoints for one section's results via shared_rules.scoring.score_pairs_session."""
    from shared_rules.scoring.session import score_pairs_session

    ns_id, ew_id = pair_ids(results)
    boards: dict[int, list[dict]] = {}
    for r in results:
        boards.setdefault(r["board"], []).append({**r, "ns_pair": ns_id(r["ns_pair"]),
                                                  "ew_pair": ew_id(r["ew_pair"])})
    return score_pairs_session(boards, rules=rules)


# -- PBN ---------------------------------------------------------------------------------------------
def _tag(name: str, value: Any) -> str:
    text = "" if value is None else str(value)
    return f'[{name} "{text.replace(chr(92), chr(92) * 2).replace(chr(34), chr(92) + chr(34))}"]'


def _pbn_call(call: str) -> str:
    return "Pass" if call in ("P", "PASS") else call


def _accepted(irr: dict) -> bool:
    return bool(irr.get("accepted")) or irr.get("resolution") == "accepted"


def irregularity_index(irr: dict, calls: list[dict]) -> int | None:
    """Which call of the auction an irregularity is about: `index` when the tablet gives it,
    else the offender's call as the engine records it (`seat` + `call`)."""
    if isinstance(irr.get("index"), int):
        return irr["index"]
    want = _pbn_call(str(irr.get("call") or ""))
    for i, c in enumerate(calls):
        if c.get("seat") == irr.get("seat") and _pbn_call(c["call"]) == want:
            return i
    return None


def skipped_turns(irr: dict) -> list[str]:
    """Turns forfeited by an accepted call out of rotation (2017 L29A): from the seat whose turn
    it was (`turn`), clockwise up to the offender."""
    if irr.get("skipped") is not None:
        return list(irr["skipped"])
    turn, seat = irr.get("turn"), irr.get("seat")
    if turn not in SEATS or seat not in SEATS:
        return []
    out, i = [], SEATS.index(turn)
    while SEATS[i] != seat:
        out.append(SEATS[i])
        i = (i + 1) % 4
    return out


def _clock(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    s = int(round(seconds))
    return f"{s // 60:02d}:{s % 60:02d}"


def pbn_auction(rec: dict) -> tuple[list[str], list[str], list[str], list[str]]:
    """Auction lines (four slots a line), notes, time-table rows and irregularity comments.

    PBN 2.0 section 3.5: an alerted call carries a note reference `=n=`, explained by
    `[Note "n:text"]` after the auction; `^I` before a bid marks an accepted insufficient bid
    (2017 L27A1); `^S` fills the turn of a player skipped by an accepted call out of rotation
    (2017 L29A)."""
    calls = rec.get("auction") or []
    by_index: dict[int, list[dict]] = {}
    comments = []
    for irr in rec.get("irregularities") or []:
        index = irregularity_index(irr, calls)
        if index is not None:
            by_index.setdefault(index, []).append(irr)
        law = irr.get("ruling") or irr.get("law")
        who = f" by {irr['seat']}" if irr.get("seat") else ""
        at = f" at call {index + 1}" if index is not None else ""
        outcome = " accepted" if _accepted(irr) else (f" {irr['resolution']}" if irr.get("resolution") else "")
        comments.append(f"{{Irregularity: {irr['kind'].replace('_', ' ')}{who}{at}{outcome}"
                        f"{f' ({law})' if law else ''}}}")
    slots: list[str] = []
    notes: list[str] = []
    times: list[str] = []
    total = 0.0
    for i, c in enumerate(calls):
        prefix = ""
        for irr in by_index.get(i, []):
            if _accepted(irr) and irr["kind"] == "call_out_of_rotation":
                slots.extend("^S" for _ in skipped_turns(irr))
            if _accepted(irr) and irr["kind"] == "insufficient_bid":
                prefix = "^I "
        token = prefix + _pbn_call(c["call"])
        if c.get("alerted"):
            notes.append(f"{len(notes) + 1}:{c.get('explanation') or 'alerted'}")
            token += f" ={len(notes)}="
        slots.append(token)
        think = c.get("think")
        total += think or 0.0
        times.append(f"{_clock(think)} {_clock(total if think is not None else None)}")
    lines = [" ".join(slots[i:i + 4]) for i in range(0, len(slots), 4)]
    return lines, notes, times, comments


def pbn_game(rec: dict, deal: str | None, scoring: str = "MP") -> str:
    contract = rec.get("contract")
    played = contract not in (None, "PASS")
    date = (rec.get("entered_at") or "")[:10].replace("-", ".") or "?"
    out = [_tag("Event", rec["event"]),
           _tag("Site", "?"), _tag("Date", date), _tag("Board", rec["board"]),
           _tag("West", "?"), _tag("North", "?"), _tag("East", "?"), _tag("South", "?"),
           _tag("Dealer", rec["dealer"]), _tag("Vulnerable", rec["vulnerability"]),
           _tag("Deal", deal or "N:- - - -"), _tag("Scoring", scoring),
           _tag("Declarer", rec["declarer"] if played else ""),
           _tag("Contract", contract if played else ("Pass" if contract == "PASS" else "?")),
           _tag("Result", rec["tricks"] if played else ("" if contract == "PASS" else "?")),
           _tag("Section", rec["section"]), _tag("Table", rec["table"]), _tag("Round", rec["round"]),
           _tag("PairNS", rec["ns_pair"]), _tag("PairEW", rec["ew_pair"])]
    if rec.get("score_ns") is not None:
        out.append(_tag("Score", f"NS {rec['score_ns']}"))
    if rec.get("lead"):
        out.append(_tag("Lead", rec["lead"].replace("10", "T")))
    if rec.get("adjusted"):
        a = rec["adjusted"]
        rest = ", ".join(f"{k} {a[k]}" for k in sorted(a) if k != "kind")
        out.append(f"{{Adjusted score {a.get('kind')}: {rest}}}")
    lines, notes, times, comments = pbn_auction(rec)
    if lines:
        out.extend(comments)
        # Export format starts the auction with the dealer; ^S fills skipped turns (L29A).
        out.append(_tag("Auction", rec["dealer"]))
        out.extend(lines)
        out.extend(_tag("Note", n) for n in notes)
        out.append(_tag("AuctionTimeTable", "Time;TotalTime"))
        out.extend(times)
    return "\n".join(out)


def pbn_for_event(store: Store, event: str) -> str:
    results = sorted(event_results(store, event), key=lambda r: (r["board"], r["section"], r["round"], r["table"]))
    hands = deals(store, event)
    head = ["% PBN 2.1", "% EXPORT", f"% Creator: bidding-box station {__version__}",
            f"% Event {event}: {len(results)} results"]
    games = [pbn_game(r, hands.get((r["section"], r["board"]))) for r in results]
    # PBN export format: CRLF line ends, an empty line after each game.
    return "\r\n".join(head) + "\r\n\r\n" + "".join(g.replace("\n", "\r\n") + "\r\n\r\n" for g in games)


# -- USEBIO --------------------------------------------------------------------------------------------
def _sub(parent: ET.Element, tag: str, text: Any = None, **attrs: str) -> ET.Element:
    el = ET.SubElement(parent, tag, attrs)
    if text is not None:
        el.text = str(text)
    return el


def _contract_text(rec: dict) -> str:
    c = rec.get("contract")
    if c is None:
        return "AVE" if rec.get("adjusted") else ""
    return "PASS" if c == "PASS" else c


def usebio_for_event(store: Store, event: str, club: str = "Club", rules: str = "fsb-2007") -> str:
    """USEBIO 1.2 XML of a pairs event: participants with matchpoints and percentages, every
    board's traveller lines, hand records when known."""
    results = event_results(store, event)
    root = ET.Element("USEBIO", Version="1.2")
    club_el = _sub(root, "CLUB")
    _sub(club_el, "CLUB_NAME", club)
    ev = _sub(root, "EVENT", EVENT_TYPE="PAIRS")
    _sub(ev, "PROGRAM_NAME", "bidding-box station")
    _sub(ev, "PROGRAM_VERSION", __version__)
    _sub(ev, "EVENT_DESCRIPTION", event)
    dates = sorted(r["entered_at"][:10] for r in results if r.get("entered_at"))
    day = datetime.date.fromisoformat(dates[0]) if dates else datetime.date.today()
    _sub(ev, "DATE", day.strftime("%d/%m/%Y"))
    _sub(ev, "EVENT_IDENTIFIER", event)
    _sub(ev, "BOARD_SCORING_METHOD", "MATCH_POINTS")
    _sub(ev, "BOARDS_PLAYED", len({(r["section"], r["board"]) for r in results}))
    hands = deals(store, event)
    for section in sorted({r["section"] for r in results}):
        sec_results = [r for r in results if r["section"] == section]
        scored = score_section(sec_results, rules)
        sec = _sub(ev, "SECTION")
        _sub(sec, "SECTION_ID", section)
        parts = _sub(sec, "PARTICIPANTS")
        places = {row["pair"]: row["place"] for row in scored["ranking"]}
        for pair_id, totals in sorted(scored["pairs"].items(), key=lambda kv: str(kv[0])):
            p = _sub(parts, "PAIR")
            text = str(pair_id)
            m = re.match(r"^(NS|EW)(\d+)$", text)
            _sub(p, "PAIR_NUMBER", m.group(2) if m else text)
            if m:
                _sub(p, "DIRECTION", m.group(1))
            _sub(p, "PLACE", places.get(pair_id, ""))
            _sub(p, "TOTAL_SCORE", totals["mp"])
            _sub(p, "PERCENTAGE", totals["pct"])
            _sub(p, "BOARDS_PLAYED", totals["boards"])
        for board in sorted(scored["boards"]):
            b = _sub(sec, "BOARD")
            _sub(b, "BOARD_NUMBER", board)
            recs = [r for r in sec_results if r["board"] == board]
            for rec, row in zip(recs, scored["boards"][board], strict=True):
                tl = _sub(b, "TRAVELLER_LINE")
                _sub(tl, "NS_PAIR_NUMBER", rec["ns_pair"])
                _sub(tl, "EW_PAIR_NUMBER", rec["ew_pair"])
                _sub(tl, "CONTRACT", _contract_text(rec))
                _sub(tl, "PLAYED_BY", rec.get("declarer") or "")
                _sub(tl, "LEAD", (rec.get("lead") or "").replace("T", "10"))
                _sub(tl, "TRICKS", "" if rec.get("tricks") is None else rec["tricks"])
                _sub(tl, "SCORE", "" if rec.get("score_ns") is None else rec["score_ns"])
                _sub(tl, "NS_MATCH_POINTS", "" if row["ns_mp"] is None else row["ns_mp"])
                _sub(tl, "EW_MATCH_POINTS", "" if row["ew_mp"] is None else row["ew_mp"])
        known = sorted(b for (s, b) in hands if s == section)
        if known:
            hs = _sub(sec, "HANDSET")
            for board in known:
                hb = _sub(hs, "BOARD")
                _sub(hb, "BOARD_NUMBER", board)
                for seat, hand in zip("NESW", hands[(section, board)][2:].split(" "), strict=True):
                    h = _sub(hb, "HAND", DIRECTION={"N": "North", "E": "East", "S": "South", "W": "West"}[seat])
                    for suit, cards in zip(("SPADES", "HEARTS", "DIAMONDS", "CLUBS"), hand.split("."), strict=True):
                        _sub(h, suit, cards)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
