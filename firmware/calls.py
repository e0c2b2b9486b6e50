# The 38 calls as one-byte indexes, so the box never builds call strings in its poll loop.
# 0 pass, 1 double, 2 redouble, 3.. the 35 bids in rank order (1C = 3, 7NT = 37): a bid is
# sufficient exactly when its index is >= the lowest sufficient bid's index (Law 18D/27: rank
# order is level first, then C < D < H < S < NT).
PASS = 0
DOUBLE = 1
REDOUBLE = 2
FIRST_BID = 3
COUNT = 38
NONE = 255  # "no call" in byte arrays

# One table of names for the box and the codec (same codes, SPEC.md section 3): RAM is scarce.
from protocol.call_names import NAMES  # noqa: E402
from protocol.calls import HIDDEN  # noqa: E402, F401  (render uses calls.HIDDEN)


def bid(level, denom):
    """Index of the bid `level` (1..7) in denomination index `denom` (0=C .. 4=NT)."""
    return FIRST_BID + (level - 1) * 5 + denom


def is_bid(c):
    return FIRST_BID <= c < COUNT


def level(c):
    return (c - FIRST_BID) // 5 + 1


def denom(c):
    return (c - FIRST_BID) % 5


def name(c):
    if 0 <= c < COUNT:
        return NAMES[c]
    return "?"


def is_jump(c, lowest):
    """FSB L116B: a stop is required before opening at the 2-level or higher, or a jump bid.

    With `lowest` the lowest sufficient bid index (or NONE), a bid is a jump when its level
    exceeds the lowest level at which its denomination would be sufficient (the engine's
    inferred definition, docs/laws/choices.md #19). At the start of the auction lowest is 1C,
    so any bid at the 2-level or higher counts, which is FSB L116B1.
    """
    if not is_bid(c) or lowest == NONE or not is_bid(lowest):
        return False
    need = level(lowest)
    if denom(c) < denom(lowest):
        need += 1
    return level(c) > need
