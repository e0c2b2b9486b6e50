"""Pure functions over a list of standing calls: contract, declarer, what may be called next.

Calls here are (seat, code) pairs in the encoding of calls.py. Laws: 2007/2017 L18 (bids,
sufficiency), L19 (doubles and redoubles), L22 (end of the auction), and the definition of
declarer ("the player who, for the side that makes the final bid, first bid the denomination named
in the final bid"; 2007 Definitions, 2017 Definitions).
"""
from __future__ import annotations

from collections.abc import Sequence

from shared_rules.calls import DOUBLE, MAX_LEGAL_RANK, PASS, REDOUBLE, call_name, opponents, strain

Calls = Sequence[tuple[int, int]]


def last_bid(calls: Calls) -> tuple[int, int]:
    """(index, rank) of the last bid, or (-1, -1). L18C: sufficiency is judged against it."""
    for i in range(len(calls) - 1, -1, -1):
        if calls[i][1] >= 0:
            return i, calls[i][1]
    return -1, -1


def may_double(calls: Calls, seat: int) -> bool:
    """L19A1 (both): only the last bid, made by an opponent, with no calls other than pass since."""
    for s, code in reversed(calls):
        if code != PASS:
            return code >= 0 and opponents(s, seat)
    return False


def may_redouble(calls: Calls, seat: int) -> bool:
    """L19B1 (both): only the last double, made by an opponent, with no calls other than pass since."""
    for s, code in reversed(calls):
        if code != PASS:
            return code == DOUBLE and opponents(s, seat)
    return False


def contract(calls: Calls) -> str | None:
    """The final bid with X/XX (L19D, L22): a double or redouble is superseded only by a later
    bid (2017 L19C says "bid"; 2007's "aktivt bud" read the same way; docs/laws/auction.md)."""
    i, rank = last_bid(calls)
    if i < 0:
        return None
    suffix = ""
    for _, code in calls[i + 1:]:
        if code == DOUBLE:
            suffix = "X"
        elif code == REDOUBLE:
            suffix = "XX"
    return call_name(rank) + suffix


def declarer(calls: Calls) -> int | None:
    """First player of the side that made the final bid to name its denomination (def. declarer)."""
    i, rank = last_bid(calls)
    if i < 0:
        return None
    side = calls[i][0] & 1
    want = strain(rank)
    for s, code in calls[: i + 1]:
        if code >= 0 and s & 1 == side and strain(code) == want:
            return s
    return calls[i][0]  # unreachable: the final bid itself qualifies


def legal_calls(calls: Calls, seat: int, no_double: bool = False) -> list[str]:
    """Every call `seat` may legally make now (L18C, L19A1, L19B1)."""
    _, rank = last_bid(calls)
    out = ["P"]
    out += [call_name(r) for r in range(rank + 1, MAX_LEGAL_RANK + 1)]
    if not no_double:
        if may_double(calls, seat):
            out.append("X")
        if may_redouble(calls, seat):
            out.append("XX")
    return out
