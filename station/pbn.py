"""PBN 2.1 export of the boards played: pure functions over plain data (no store, no I/O).

What the standard asks of an export file and how this module does it:
- Character set: PBN 2.1 allows UTF-8 when the file starts with the UTF-8 byte order mark;
  without it a reader takes the bytes as ISO 8859/1 (PBN 2.0 section 2.2), so "klöver" would read
  "klÃ¶ver". `document` starts with U+FEFF, which encodes as EF BB BF.
- Export format (sections 2.3, 3.3, 3.4): CRLF line ends, one tag pair per line, the 15 mandatory
  tags in their fixed order with "?" for an unknown value, then the supplemental tags sorted by
  name, then the Auction section, the Play section, and the supplemental sections (tables).
- `Deal` starts with the dealer (3.4.11); the Auction starts with the dealer (3.5); the Play
  section starts with the opening leader, declarer's left-hand opponent (3.6).
- Irregularities (3.9): `^I` before an accepted insufficient bid (2017 L27A1), `^S` for each turn
  lost to an accepted call out of rotation (2017 L29A). Any other irregularity, and the outcome of
  these, is a `{...}` comment on its own line after the auction line, naming the call ("1D by
  East: ..."), so every auction line keeps its four calls (3.5).
- An adjusted score (Law 12C) is a `{...}` comment after the tags saying what the TD ruled,
  also on a board played to a result. `Date` is the session's date, `Site` the club.
- AuctionTimeTable (5.2, 5.4): "?" for an unknown think time, "-" for a `^S` turn.

Every text that comes from a tablet or the scoring program goes through `text`, `value` or
`comment`: no control character (a newline would start a new tag line), quotes and backslashes
escaped inside strings (3.2), brackets and braces replaced, so no stored field can end its
string, tag or comment early and forge `[Contract "7NT"]` or `[Result "13"]`. A stored value that
is not what the record format says (a NaN think time, a contract that is no contract, a deal
that is no deal) is written as unknown, never raised.
"""
from __future__ import annotations

import math
import re
import unicodedata
from fractions import Fraction
from typing import Any

from shared_rules.records import auction_dealer
from shared_rules.types import SEATS, Seat

SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
MANDATORY = ("Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
             "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result")
BOM = "\ufeff"
CONTRACT_RE = re.compile(r"^([1-7])(NT|[CDHS])(X{0,2})$")
HAND_RE = re.compile(r"^[AKQJT98765432]*\.[AKQJT98765432]*\.[AKQJT98765432]*\.[AKQJT98765432]*$")
CARD_RE = re.compile(r"^([SHDC])(10|[AKQJT98765432])$")
DATE_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})")
VULNERABLE = {"None": "None", "NS": "NS", "EW": "EW", "All": "All", "Both": "All", "Love": "None", "-": "None"}
# Readable names for the irregularity kinds the tablet records (2017 Laws numbers in `law`).
KIND_TEXT = {
    "insufficient_bid": "Insufficient bid",
    "call_out_of_rotation": "Call out of rotation",
    "alert_not_permitted": "Alert not permitted",
    "alert_by_wrong_player": "Alert by the wrong player",
    "alert_late": "Late alert",
    "auction_stopped": "Auction stopped by the director",
    "cards_exposed": "Card exposed during the auction",
    "long_thought_after_stop": "Long hesitation after a stop",
    "stop_missing": "Skip bid without stop",
    "stop_wait_short": "Stop wait too short",
    "wrong_board": "Wrong board",
    "inadmissible_call": "Inadmissible call",
    "unauthorised_information": "Unauthorised information",
}
MAX_TEXT = 120  # keeps every line under the 255 characters of export format (2.3)
MAX_THINK = 100 * 3600.0


# -- text that cannot break out of its token ------------------------------------------------------
def text(raw: Any, limit: int = MAX_TEXT) -> str:
    """Any stored value as one line of printable text: control characters (newlines, tabs, the
    Unicode line separators) become spaces, runs of spaces one space, at most `limit` characters."""
    s = raw if isinstance(raw, str) else ("" if raw is None else str(raw))
    out = []
    for ch in s:
        cat = unicodedata.category(ch)
        out.append(" " if cat[0] in "CZ" and ch != " " or ch == BOM else ch)
    s = " ".join("".join(out).split())
    return s[:limit].rstrip()


def value(raw: Any, limit: int = MAX_TEXT) -> str:
    """A tag value's string token (3.2): quote and backslash escaped; brackets and braces, which
    some readers take for the end of the tag or a comment, become parentheses."""
    s = text(raw, limit).translate(str.maketrans("[]{}", "()()"))
    return s.replace("\\", "\\\\").replace('"', '\\"')


def comment(raw: Any, limit: int = MAX_TEXT) -> str:
    """A brace comment (3.8) that cannot close early: braces inside become parentheses."""
    return "{" + text(raw, limit).translate(str.maketrans("{}", "()")) + "}"


def tag(name: str, raw: Any) -> str:
    return f'[{name} "{value(raw)}"]'


# -- checked fields ------------------------------------------------------------------------------------
def seat(v: Any) -> str | None:
    return v if isinstance(v, str) and v in SEATS and len(v) == 1 else None


def small_int(v: Any, lo: int, hi: int) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi else None


def contract_of(rec: dict) -> str | None:
    """"PASS", a real contract, or None (not played or not a contract)."""
    c = rec.get("contract")
    if c == "PASS" or (isinstance(c, str) and CONTRACT_RE.match(c)):
        return c
    return None


def card(v: Any) -> str | None:
    """A card as PBN writes it (suit then rank, ten as T), or None."""
    m = CARD_RE.match(v) if isinstance(v, str) else None
    return m.group(1) + ("T" if m.group(2) == "10" else m.group(2)) if m else None


def date(entered_at: Any) -> str:
    m = DATE_RE.match(entered_at) if isinstance(entered_at, str) else None
    return f"{m.group(1)}.{m.group(2)}.{m.group(3)}" if m else "????.??.??"


def deal_from(deal: Any, first: str | None) -> str | None:
    """A stored "N:h h h h" deal rotated to start with `first` (export format: the dealer)."""
    if not isinstance(deal, str) or len(deal) < 3 or deal[1] != ":" or deal[0] not in SEATS:
        return None
    hands = deal[2:].split(" ")
    if len(hands) != 4 or not all(h == "-" or HAND_RE.match(h) for h in hands):
        return None
    start = SEATS.index(deal[0])
    by_seat = {SEATS[(start + i) % 4]: h for i, h in enumerate(hands)}
    first = first or deal[0]
    order = [SEATS[(SEATS.index(first) + i) % 4] for i in range(4)]
    return first + ":" + " ".join(by_seat[s] for s in order)


def clock(seconds: Any) -> str:
    """A think time as MM:SS (HH:MM:SS from an hour on); "?" when unknown (5.2)."""
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds) \
            or not 0 <= seconds < MAX_THINK:
        return "?"
    s = int(round(seconds))
    if s >= 3600:
        return f"{s // 3600:02d}:{s % 3600 // 60:02d}:{s % 60:02d}"
    return f"{s // 60:02d}:{s % 60:02d}"


def think(c: dict) -> float | None:
    t = c.get("think")
    return float(t) if isinstance(t, (int, float)) and clock(t) != "?" else None


# -- irregularities -----------------------------------------------------------------------------------
def accepted(irr: dict) -> bool:
    return irr.get("accepted") is True or irr.get("resolution") == "accepted"


def call_token(call: Any) -> str | None:
    if call in ("P", "PASS", "Pass"):
        return "Pass"
    if call in ("X", "XX"):
        return call
    return call if isinstance(call, str) and CONTRACT_RE.match(call) and not call.endswith("X") else None


def irregularity_index(irr: dict, calls: list[dict]) -> int | None:
    """Which call an irregularity is about: `index` when the tablet gives it, else the offender's
    call as the engine records it (`seat` + `call`)."""
    i = small_int(irr.get("index"), 0, len(calls) - 1)
    if i is not None:
        return i
    want = call_token(irr.get("call"))
    for i, c in enumerate(calls):
        if want and c.get("seat") == irr.get("seat") and call_token(c.get("call")) == want:
            return i
    return None


def skipped_turns(irr: dict) -> list[str]:
    """Turns lost to an accepted call out of rotation (2017 L29A): from the seat whose turn it
    was (`turn`) clockwise up to the offender, or the tablet's own `skipped` list."""
    given = irr.get("skipped")
    if isinstance(given, list):
        return [s for s in given[:3] if seat(s)]
    turn, who = seat(irr.get("turn")), seat(irr.get("seat"))
    if not turn or not who:
        return []
    out, i = [], SEATS.index(turn)
    while SEATS[i] != who:
        out.append(SEATS[i])
        i = (i + 1) % 4
    return out


def irregularity_text(irr: dict) -> str:
    """"Insufficient bid by East, accepted (2017 L27A1)": the kind in words, the offender, the
    outcome and the Law."""
    kind = irr.get("kind")
    label = KIND_TEXT.get(kind) if isinstance(kind, str) else None
    if label is None:
        label = text(kind, 40).replace("_", " ").capitalize() or "Irregularity"
    who = SEAT_NAMES.get(seat(irr.get("seat")) or "", "")
    out = label + (f" by {who}" if who else "")
    if accepted(irr):
        out += ", accepted"
    elif irr.get("resolution"):
        out += ", " + text(irr.get("resolution"), 40).replace("_", " ")
    law = irr.get("ruling") or irr.get("law")
    return out + (f" ({text(law, 40)})" if law else "")


def _outcome_text(o: Any) -> str:
    """One outcome of an assigned or weighted score: `4S by N, 10 tricks` (or `NS 620`)."""
    if not isinstance(o, dict):
        return text(o, 40)
    contract = contract_of(o)
    if contract == "PASS":
        return "Pass"
    if contract is not None:
        tricks = small_int(o.get("tricks"), 0, 13)
        return f"{contract} by {seat(o.get('declarer')) or '?'}, {'?' if tricks is None else tricks} tricks"
    score = small_int(o.get("score_ns"), -99999, 99999)
    return "?" if score is None else f"NS {score}"


def _weight_text(w: Any) -> str:
    try:
        return f"{round(float(Fraction(str(w))) * 100)}%"
    except (ValueError, ZeroDivisionError, OverflowError):
        return "?%"


def _side_text(v: Any) -> str:
    """One side's value of an artificial or split score."""
    names = {"avg+": "Avg+", "avg": "Avg", "avg-": "Avg-"}
    if isinstance(v, str):
        return names.get(v, text(v, 20))
    if isinstance(v, dict):
        if "artificial" in v:
            return _side_text(v["artificial"])
        if "pct" in v:
            return f"{text(v['pct'], 10)}%"
        if isinstance(v.get("outcomes"), list):
            return ", ".join(f"{_weight_text(o.get('weight') if isinstance(o, dict) else None)} {_outcome_text(o)}"
                             for o in v["outcomes"][:8])
        return _outcome_text(v)
    return text(v, 20)


def assigned_score(rec: dict) -> int | None:
    """North-South's score of an assigned adjusted score of one contract (Law 77 on the board's
    vulnerability), else None (artificial, weighted, split or unreadable)."""
    from shared_rules.scoring import score

    adjusted = rec.get("adjusted")
    if not isinstance(adjusted, dict) or adjusted.get("kind") != "assigned":
        return None
    given = small_int(adjusted.get("score_ns"), -99999, 99999)
    contract = contract_of(adjusted)
    if given is not None or contract is None:
        return given
    declarer, tricks = seat(adjusted.get("declarer")), small_int(adjusted.get("tricks"), 0, 13)
    if contract != "PASS" and (declarer is None or tricks is None):
        return None
    try:
        return int(score(contract, declarer or "N", tricks or 0, str(rec.get("vulnerability"))))
    except ValueError:  # a vulnerability that is none of Law 2's
        return None


def adjusted_text(adjusted: Any) -> str:
    """An adjusted score in words, whatever shape the stored record has (Law 12C): the TD's
    artificial score side by side, an assigned contract with its tricks, a weighted score's
    outcomes with their weights, a split score side by side; the Law after it."""
    if not isinstance(adjusted, dict):
        return "Adjusted score: " + text(adjusted, 60)
    kind = text(adjusted.get("kind"), 20) or "adjusted"
    parts = [f"{_side_text(adjusted[side])} to {side.upper()}" for side in ("ns", "ew") if side in adjusted]
    if kind in ("assigned", "weighted") and not parts:
        parts.append(_side_text(adjusted))
        rest = [f"{text(k, 20)} {text(adjusted[k], 40)}" for k in sorted(adjusted, key=str)
                if k not in ("kind", "law", "contract", "declarer", "tricks", "score_ns", "outcomes", "ruled_by")]
        if adjusted.get("ruled_by") not in (None, "td"):
            rest.append(f"ruled by {text(adjusted.get('ruled_by'), 20)}")
    else:
        rest = [f"{text(k, 20)} {text(adjusted[k], 40)}" for k in sorted(adjusted, key=str)
                if k not in ("ns", "ew", "kind", "law")]
    law = f" ({text(adjusted.get('law'), 40)})" if adjusted.get("law") else ""
    said = [p for p in parts if p != "?"]
    return f"Adjusted score, {kind}: " + (", ".join(said + rest) or "values missing") + law


# -- the auction section ---------------------------------------------------------------------------
def auction(rec: dict) -> tuple[list[str], list[str], list[str], list[str]]:
    """(auction lines, note texts, time-table rows, comments on no particular call).

    Four calls a line (3.5); a remark on a call (an irregularity, an alert past the 32 notes) is
    a comment on its own line after the line, naming the call (a comment refers to what precedes
    it, 3.8, so it says which call it is about)."""
    calls = [c for c in (rec.get("auction") or []) if isinstance(c, dict)] \
        if isinstance(rec.get("auction"), list) else []
    irregs = [i for i in (rec.get("irregularities") or []) if isinstance(i, dict)] \
        if isinstance(rec.get("irregularities"), list) else []
    by_index: dict[int, list[dict]] = {}
    loose: list[str] = []
    for irr in irregs:
        i = irregularity_index(irr, calls)
        if i is None:
            loose.append(irregularity_text(irr))
        else:
            by_index.setdefault(i, []).append(irr)
    lines: list[str] = []
    line: list[str] = []
    notes: list[str] = []
    rows: list[str] = []
    total: float | None = 0.0

    said: list[str] = []  # comments on calls of the line being written

    def put(token: str) -> None:
        line.append(token)
        if len(line) == 4:
            flush()

    def flush() -> None:
        lines.append(" ".join(line))
        lines.extend(said)
        line.clear()
        said.clear()

    for i, c in enumerate(calls):
        here = by_index.get(i, [])
        for irr in here:
            if accepted(irr) and irr.get("kind") == "call_out_of_rotation":
                for _ in skipped_turns(irr):
                    put("^S")
                    rows.append("- -")
        token = call_token(c.get("call")) or "-"
        if any(accepted(irr) and irr.get("kind") == "insufficient_bid" for irr in here):
            token = "^I " + token
        remarks = []
        if c.get("alerted") is True:
            explanation = text(c.get("explanation")) or "alerted"
            if len(notes) < 32:
                notes.append(explanation)
                token += f" ={len(notes)}="
            else:
                remarks.append("Alert: " + explanation)
        remarks += [irregularity_text(irr) for irr in here]
        if remarks:
            # Its own line after the auction line, naming the call: the line keeps its four calls.
            said.append(comment(f"{call_token(c.get('call')) or '-'} by {SEAT_NAMES.get(seat(c.get('seat')) or '', '?')}: "
                                + "; ".join(remarks), 2 * MAX_TEXT))
        put(token)
        t = think(c)
        total = total + t if total is not None and t is not None else None
        rows.append(f"{clock(t)} {clock(total)}")
    if line:
        flush()
    return lines, notes, rows, loose


# -- one game -----------------------------------------------------------------------------------------
def game(rec: dict, ctx: dict) -> list[str]:
    """The lines of one board played at one table.

    ctx: event (name), site, names ({seat: "Last, First"}), deal ("N:..." as stored), scoring."""
    dealer = seat(rec.get("dealer"))
    contract = contract_of(rec)
    declarer = seat(rec.get("declarer"))
    played = contract not in (None, "PASS") and declarer is not None
    tricks = small_int(rec.get("tricks"), 0, 13)
    names = ctx.get("names") or {}
    board = small_int(rec.get("board"), 1, 9999)
    vul = rec.get("vulnerability")
    deal = deal_from(ctx.get("deal"), dealer) or (f"{dealer}:- - - -" if dealer else "?")
    if played:
        decl, con, res = declarer, contract, ("?" if tricks is None else tricks)
    elif contract == "PASS":
        decl, con, res = "", "Pass", ""
    else:
        decl, con, res = "?", "?", "?"
    day = ctx.get("date")
    mandatory = {"Event": text(ctx.get("event")) or "?", "Site": text(ctx.get("site")) or "?",
                 "Date": day.strftime("%Y.%m.%d") if day else date(rec.get("entered_at")),
                 "Board": "?" if board is None else board,
                 **{SEAT_NAMES[s]: text(names.get(s)) or "?" for s in SEATS},
                 "Dealer": dealer or "?", "Vulnerable": VULNERABLE.get(vul, "?") if isinstance(vul, str) else "?",
                 "Deal": deal, "Scoring": ctx.get("scoring") or "MP",
                 "Declarer": decl, "Contract": con, "Result": res}
    out = [tag(name, mandatory[name]) for name in MANDATORY]
    if rec.get("adjusted"):
        # What the TD ruled (Law 12C), also where the table's own result stands above it.
        out.append(comment(adjusted_text(rec.get("adjusted")), 2 * MAX_TEXT))
    extra: dict[str, Any] = {"Section": rec.get("section"), "Table": small_int(rec.get("table"), 1, 9999),
                             "Round": small_int(rec.get("round"), 0, 999),
                             "PairNS": small_int(rec.get("ns_pair"), 0, 9999),
                             "PairEW": small_int(rec.get("ew_pair"), 0, 9999)}
    # The board's score: the TD's where he assigned one contract (Law 12C1: it replaces the
    # table's, which the tags above still show as played); none for a score of several outcomes.
    score = assigned_score(rec) if rec.get("adjusted") else small_int(rec.get("score_ns"), -99999, 99999)
    if score is not None:
        extra["Score"] = f"NS {score}"
    team = ctx.get("team") or {}
    if team:
        # A team match (PBN 2.1 section 4): the room, the two teams, and the board's IMPs for
        # the team sitting North-South in this room (NS-prefixed, as Score is).
        extra.update(Room=team.get("room"), HomeTeam=team.get("home"), VisitTeam=team.get("visit"),
                     ScoreIMP=team.get("score_imp"))
    out.extend(tag(name, extra[name]) for name in sorted(extra) if extra[name] is not None)
    lines, notes, rows, loose = auction(rec)
    if lines or loose:
        # A result moved to another board was bid from the dealer the table had (L15).
        first = auction_dealer(rec) if dealer else None
        out.append(tag("Auction", first or dealer or "N"))
        out.extend(comment(t) for t in loose)
        out.extend(lines)
        out.extend(tag("Note", f"{i}:{n}") for i, n in enumerate(notes, 1))
    lead = card(rec.get("lead"))
    if played and lead and declarer is not None:
        out.append(tag("Play", Seat.of(declarer).lho.letter))
        out.extend([f"{lead} - - -", "*"])
    if rows and lines:
        out.append(tag("AuctionTimeTable", "Time;TotalTime"))
        out.extend(rows)
    return out


def document(games: list[list[str]], header: list[str]) -> str:
    """The whole file: the byte order mark, `%` lines, games separated by an empty line, CRLF."""
    head = [text(h, 200) for h in header]
    body = "\r\n\r\n".join("\r\n".join(g) for g in games)
    return BOM + "\r\n".join(["% PBN 2.1", "% EXPORT", *("% " + h for h in head)]) + "\r\n\r\n" \
        + (body + "\r\n" if body else "")
