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


def stop_due(c, lowest, jump, opening2):
    """Whether the regulation the tablet named wants STOP shown before bid c: `jump` a jump bid
    (2017 L73A1, FSB L116B2), `opening2` an opening at the 2-level or higher (FSB L116B1). The
    box knows no regulation of its own: both come in the STATE, from the table's profile.

    `lowest` is the lowest sufficient bid (NONE when no bid can be made); 1C means no bid has
    been made yet, so c would open. A bid is a jump when its level exceeds the lowest level at
    which its denomination would be sufficient (the engine's reading: shared_rules.calls.is_jump,
    docs/laws/choices.md #19), and an opening is never a jump.
    """
    if not is_bid(c) or lowest == NONE or not is_bid(lowest):
        return False
    if lowest == FIRST_BID:
        return opening2 and level(c) >= 2
    need = level(lowest)
    if denom(c) < denom(lowest):
        need += 1
    return jump and level(c) > need
