"""Values as BCS writes them into the `.bws` and the scoring programs parse them (pure).

- Contract: level, strain, stake separated by spaces: `4 S`, `3 NT x`, `6 H xx`; `PASS`.
- Result: tricks against the contract: `=`, `+1`, `-2`; empty for a passed-out board.
- LeadCard / PlayData.Card: suit then rank, the ten as `10`: `H10`, `SA`.
- BiddingData.Bid: `1C`..`7NT`, `PASS`, `x`, `xx`; `SkipBid` for a turn a player lost
  (an accepted call out of rotation, 2007/2017 L29A).
- Declarer: the declaring pair's number; [NS/EW]: the declarer's seat letter.
- Remarks: `Arbitral score` for an artificial or assigned score (no contract).
- DateLog: the date at midnight; TimeLog: the time of day on Access's zero date (1899-12-30),
  both in the scoring PC's local time (Access stores no time zone).
"""
from __future__ import annotations

import calendar
import datetime
import re
import time
from typing import Any

SEATS = ("N", "E", "S", "W")
SKIP = "SkipBid"
ARBITRAL = "Arbitral score"
ACCESS_ZERO = datetime.date(1899, 12, 30)
_CONTRACT = re.compile(r"^([1-7])(NT|[CDHS])(X{0,2})$")


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
    """`HT` or `H10` -> `H10`; None -> ``."""
    if not card:
        return ""
    suit, rank = card[0].upper(), card[1:].upper()
    return suit + ("10" if rank in ("T", "10") else rank)


def bid_text(call: str) -> str:
    if call in ("P", "PASS"):
        return "PASS"
    if call in ("X", "XX"):
        return call.lower()
    return call


def lho(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 1) % 4]


def slots(calls: list[dict], dealer: str) -> list[tuple[str, str]]:
    """The auction as turns from the dealer: (seat, Bid) with `SkipBid` in each turn a player
    lost to an accepted call out of rotation. A gap in the rotation of the standing calls is
    exactly such a turn (L29A: the auction goes on as if the call had been made in turn), so
    counter k always belongs to seat dealer+k."""
    out: list[tuple[str, str]] = []
    first = SEATS.index(dealer)
    for c in calls:
        for _ in range(3):
            expected = SEATS[(first + len(out)) % 4]
            if expected == c["seat"]:
                break
            out.append((expected, SKIP))
        out.append((c["seat"], bid_text(c["call"])))
    return out


def counter_for(seat: str, done: int, dealer: str) -> int:
    """The counter of a call `seat` makes after `done` turns: its own next turn (a call out of
    rotation sits in the offender's turn, where it stands if accepted)."""
    expected = (SEATS.index(dealer) + done) % 4
    return done + (SEATS.index(seat) - expected) % 4


def stamp(iso_utc: str | None, shift_s: int = 0) -> tuple[datetime.datetime, datetime.datetime]:
    """(DateLog, TimeLog) in local time for an ISO 8601 UTC instant (`shift_s` later)."""
    try:
        epoch = calendar.timegm(time.strptime(str(iso_utc), "%Y-%m-%dT%H:%M:%SZ"))
    except ValueError:
        epoch = int(time.time())
    t = datetime.datetime.fromtimestamp(epoch + shift_s)
    return (datetime.datetime(t.year, t.month, t.day),
            datetime.datetime.combine(ACCESS_ZERO, datetime.time(t.hour, t.minute, t.second)))


def received_values(rec: dict, section_id: int, *, erased: bool = False) -> dict[str, Any]:
    """A result record (docs/interfaces.md section 3) as a ReceivedData row (without times)."""
    contract = rec.get("contract")
    adjusted = rec.get("adjusted")
    played = contract not in (None, "PASS")
    declarer = rec.get("declarer") if played else None
    return {
        "Section": section_id, "Table": rec["table"], "Round": rec["round"], "Board": rec["board"],
        "PairNS": rec["ns_pair"], "PairEW": rec["ew_pair"],
        "Declarer": (rec["ns_pair"] if declarer in ("N", "S") else rec["ew_pair"]) if declarer else 0,
        "NS/EW": declarer or "",
        "Contract": "" if adjusted and contract is None else contract_text(contract),
        "Result": result_text(contract, rec.get("tricks")),
        "LeadCard": card_text(rec.get("lead")) if played else "",
        "Remarks": ARBITRAL if adjusted and contract is None else "",
        "Processed": False, "Processed1": False, "Processed2": False, "Processed3": False,
        "Processed4": False, "Erased": erased,
    }
