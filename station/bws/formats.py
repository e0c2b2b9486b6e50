"""Values as BCS writes them into the `.bws` and the scoring programs parse them (pure).

- Contract: level, strain, stake separated by spaces: `4 S`, `3 NT x`, `6 H xx`; `PASS`.
- Result: tricks against the contract: `=`, `+1`, `-2`; empty for a passed-out board.
- LeadCard: suit then rank, the ten as `10`: `H10`, `SA`.
- PlayData.Card: rank then suit, the ten as `T`: `TH`, `AS` (TabPlay, which writes PlayData into
  the `.bws` as BCS does, matches these strings against its hand table: docs/bws.md).
- BiddingData.Bid: `1C`..`7NT`, `PASS`, `x`, `xx`; `SkipBid` for a turn a player lost
  (an accepted call out of rotation, 2007/2017 L29A).
- Declarer: the declaring pair's number; [NS/EW]: the declarer's seat letter.
- Remarks: what the TD gave when it is not a contract (docs/bws.md "Adjusted scores"):
  `Avg+/Avg-` (North-South's first), `Not played`, `Assigned score NS +620`, `Weighted score ...`.
- DateLog: the date at midnight; TimeLog: the time of day on Access's zero date (1899-12-30),
  both in the scoring PC's local time (Access stores no time zone).
"""
from __future__ import annotations

import calendar
import datetime
import re
import time
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

SEATS = ("N", "E", "S", "W")
SKIP = "SkipBid"
NOT_PLAYED = "Not played"
REMARKS_MAX = 127  # Remarks is a text(127) column in the file (DBF-Tools' model of the .bws)
ACCESS_ZERO = datetime.date(1899, 12, 30)
_CONTRACT = re.compile(r"^([1-7])(NT|[CDHS])(X{0,2})$")
_AVG = {"avg+": "Avg+", "avg": "Avg", "avg-": "Avg-"}


def contract_text(contract: str | None) -> str:
    if contract is None:
        return ""
    if contract == "PASS":
        return "PASS"
    m = _CONTRACT.match(contract)
    if not m:
        raise ValueError(f"not a contract: {contract!r}")
    stake = {"": "", "X": " x", "XX": " xx"}[m.group(3)]
    return f"{m.group(1)} {m.group(2)}{stake}"


def result_text(contract: str | None, tricks: int | None) -> str:
    if contract in (None, "PASS") or tricks is None:
        return ""
    diff = tricks - (int(contract[0]) + 6)
    return "=" if diff == 0 else f"{diff:+d}"


def card_text(card: str | None) -> str:
    """LeadCard: `HT` or `H10` -> `H10`; None -> ``."""
    if not card:
        return ""
    suit, rank = card[0].upper(), card[1:].upper()
    return suit + ("10" if rank in ("T", "10") else rank)


def play_card_text(card: str | None) -> str:
    """PlayData.Card: `HT` or `H10` -> `TH`, `SA` -> `AS`; None -> ``."""
    if not card:
        return ""
    suit, rank = card[0].upper(), card[1:].upper()
    return ("T" if rank in ("T", "10") else rank) + suit


def bid_text(call: str) -> str:
    if call in ("P", "PASS"):
        return "PASS"
    if call in ("X", "XX"):
        return call.lower()
    return call


def lho(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 1) % 4]


def turns(calls: list[dict], dealer: str) -> list[tuple[str, str, float]]:
    """The auction as turns from the dealer: (seat, Bid, think seconds) with `SkipBid` (no think)
    in each turn a player lost to an accepted call out of rotation. A gap in the rotation of the
    standing calls is exactly such a turn (L29A: the auction goes on as if the call had been made
    in turn), so counter k always belongs to seat dealer+k."""
    out: list[tuple[str, str, float]] = []
    first = SEATS.index(dealer)
    for c in calls:
        for _ in range(3):
            expected = SEATS[(first + len(out)) % 4]
            if expected == c["seat"]:
                break
            out.append((expected, SKIP, 0.0))
        think = c.get("think")
        out.append((c["seat"], bid_text(c["call"]),
                    float(think) if isinstance(think, (int, float)) and not isinstance(think, bool) else 0.0))
    return out


def slots(calls: list[dict], dealer: str) -> list[tuple[str, str]]:
    """`turns` without the think times."""
    return [(seat, bid) for seat, bid, _ in turns(calls, dealer)]


def turn_times(thinks: list[float], last_at: float) -> list[float]:
    """Each turn's own moment (epoch seconds): the last call was made at `last_at` (the moment
    the table reported the auction), every earlier one its successors' think times before."""
    out = [last_at] * len(thinks)
    for k in range(len(thinks) - 2, -1, -1):
        out[k] = out[k + 1] - thinks[k + 1]
    return out


def counter_for(seat: str, done: int, dealer: str) -> int:
    """The counter of a call `seat` makes after `done` turns: its own next turn (a call out of
    rotation sits in the offender's turn, where it stands if accepted)."""
    expected = (SEATS.index(dealer) + done) % 4
    return done + (SEATS.index(seat) - expected) % 4


def epoch(iso_utc: Any) -> float:
    """An ISO 8601 UTC instant (`2026-11-22T19:45:12Z`) as epoch seconds; now when it is none."""
    try:
        return float(calendar.timegm(time.strptime(str(iso_utc), "%Y-%m-%dT%H:%M:%SZ")))
    except ValueError:
        return float(int(time.time()))


def stamp_at(moment: float) -> tuple[datetime.datetime, datetime.datetime]:
    """(DateLog, TimeLog) in local time for epoch seconds (whole seconds, as Access keeps them)."""
    t = datetime.datetime.fromtimestamp(int(moment))
    return (datetime.datetime(t.year, t.month, t.day),
            datetime.datetime.combine(ACCESS_ZERO, datetime.time(t.hour, t.minute, t.second)))


def stamp(iso_utc: str | None, shift_s: int = 0) -> tuple[datetime.datetime, datetime.datetime]:
    """(DateLog, TimeLog) in local time for an ISO 8601 UTC instant (`shift_s` later)."""
    return stamp_at(epoch(iso_utc) + shift_s)


# -- adjusted scores -------------------------------------------------------------------------------
def _weight(w: Any) -> str:
    try:
        f = Fraction(str(w)).limit_denominator(100)
    except (ValueError, ZeroDivisionError):
        return "?"
    return f"{round(float(f) * 100)}%"


def _outcome(o: Any) -> str:
    """One outcome of an assigned or weighted score: `4 S= N` or `NS +620`."""
    if not isinstance(o, Mapping):
        return "?"
    contract = o.get("contract")
    if isinstance(contract, str) and (contract == "PASS" or _CONTRACT.match(contract)):
        if contract == "PASS":
            return "PASS"
        tricks = o.get("tricks")
        return f"{contract_text(contract)}{result_text(contract, tricks if isinstance(tricks, int) else None)}" \
               f" {o.get('declarer') or '?'}"
    score = o.get("score_ns")
    return f"NS {score:+d}" if isinstance(score, int) and not isinstance(score, bool) else "?"


def _side(v: Any) -> str:
    """One side of an artificial or split score."""
    if isinstance(v, str):
        return _AVG.get(v.strip().lower(), v[:10])
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return f"{v:g}%"
    if isinstance(v, Mapping):
        if "artificial" in v:
            return _side(v["artificial"])
        if "pct" in v:
            return _side(v["pct"])
        if "outcomes" in v:
            return " ".join(f"{_weight(o.get('weight'))} {_outcome(o)}" for o in v["outcomes"]
                            if isinstance(o, Mapping))
        return _outcome(v)
    return "?"


def assigned_contract(adjusted: Any) -> Mapping[str, Any] | None:
    """The contract an assigned score (2007/2017 L12C1) gives, as the TD ruled it; None when the
    ruling is not one contract (points only, weighted, split, artificial)."""
    if isinstance(adjusted, Mapping) and adjusted.get("kind") == "assigned" and isinstance(adjusted.get("contract"), str):
        return adjusted
    return None


def remarks(adjusted: Any) -> str:
    """Remarks for a score the TD gave that is not one contract (docs/bws.md "Adjusted scores"):
    `Avg+/Avg-` (L12C2, North-South's first), `Assigned score NS +620` (L12C1 by points),
    `Weighted score 60% 4 S= N, 40% 4 S-1 N` (L12C1c), `Split score NS ..., EW ...` (L12C1e).
    At most REMARKS_MAX characters."""
    if not isinstance(adjusted, Mapping):
        return ""
    kind = adjusted.get("kind")
    if kind == "artificial":
        text = f"{_side(adjusted.get('ns'))}/{_side(adjusted.get('ew'))}"
    elif kind == "assigned":
        text = "Assigned score " + _outcome(adjusted)
    elif kind == "weighted":
        outcomes = adjusted.get("outcomes")
        if not isinstance(outcomes, list):
            outcomes = []
        text = "Weighted score " + ", ".join(f"{_weight(o.get('weight'))} {_outcome(o)}" for o in outcomes
                                             if isinstance(o, Mapping))
    elif kind == "split":
        text = f"Split score NS {_side(adjusted.get('ns'))}, EW {_side(adjusted.get('ew'))}"
    else:
        text = "Adjusted score"
    return text[:REMARKS_MAX]


def received_values(rec: dict, section_id: int, *, erased: bool = False) -> dict[str, Any]:
    """A result record (docs/interfaces.md section 3) as a ReceivedData row (without times). An
    assigned score with a contract is written as that contract, as the TD ruled it (not the
    table's own, which the record may keep for the audit trail); any other adjusted score has no
    contract and says what the TD gave in Remarks; a board not played and not adjusted is
    `Not played`."""
    adjusted = rec.get("adjusted")
    played: Mapping[str, Any] = rec
    if adjusted:
        played = assigned_contract(adjusted) or {}
    contract = played.get("contract")
    has_play = contract not in (None, "PASS")
    declarer = played.get("declarer") if has_play else None
    lead = rec.get("lead") if played is rec and has_play else None
    if contract is not None:
        note = ""
    else:
        note = remarks(adjusted) if adjusted else NOT_PLAYED
    return {
        "Section": section_id, "Table": rec["table"], "Round": rec["round"], "Board": rec["board"],
        "PairNS": rec["ns_pair"], "PairEW": rec["ew_pair"],
        "Declarer": (rec["ns_pair"] if declarer in ("N", "S") else rec["ew_pair"]) if declarer else 0,
        "NS/EW": declarer or "",
        "Contract": contract_text(contract),
        "Result": result_text(contract, played.get("tricks")),
        "LeadCard": card_text(lead),
        "Remarks": note,
        "Processed": False, "Processed1": False, "Processed2": False, "Processed3": False,
        "Processed4": False, "Erased": erased,
    }
