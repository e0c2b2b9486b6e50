"""Seats and calls as small integers, so the per-call path of the engine is table look-ups.

Seats: N=0, E=1, S=2, W=3, clockwise (definition of rotation; Law 17C in both editions).
Calls: a bid is its rank 0..44 (Law 18B/18E: (level-1)*5 + strain, strain C=0 < D < H < S < NT=4);
levels 8 and 9 are representable on purpose, so that a bid above seven (Law 38) can be logged and
rectified rather than rejected as malformed. Pass, double and redouble are negative codes.
"""
from typing import Final

# The seat letters are defined in types.py; the engine has always found them here too.
from shared_rules.types import SEAT_INDEX as SEAT_INDEX
from shared_rules.types import SEATS as SEATS

STRAINS: Final = ("C", "D", "H", "S", "NT")

PASS: Final = -1
DOUBLE: Final = -2
REDOUBLE: Final = -3

MAX_LEGAL_RANK: Final = 34  # 7NT: Law 18A, a bid names one to seven odd tricks
_MAX_LOGGED_LEVEL: Final = 9


def _build() -> tuple[dict[str, int], tuple[str, ...]]:
    codes: dict[str, int] = {"P": PASS, "X": DOUBLE, "XX": REDOUBLE}
    names: list[str] = []
    for level in range(1, _MAX_LOGGED_LEVEL + 1):
        for strain in STRAINS:
            name = f"{level}{strain}"
            codes[name] = len(names)
            names.append(name)
    return codes, tuple(names)


CALL_CODE, BID_NAME = _build()


def call_name(code: int) -> str:
    if code >= 0:
        return BID_NAME[code]
    return ("P", "X", "XX")[-code - 1]


def level(rank: int) -> int:
    return rank // 5 + 1


def strain(rank: int) -> int:
    return rank % 5


def partner(seat: int) -> int:
    return (seat + 2) & 3


def lho(seat: int) -> int:
    return (seat + 1) & 3


def rho(seat: int) -> int:
    return (seat + 3) & 3


def opponents(a: int, b: int) -> bool:
    return (a - b) & 1 == 1


def min_level(last_bid: int, strain_: int) -> int:
    """Lowest level at which `strain_` is sufficient over `last_bid` (-1: no bid yet). Law 18B."""
    if last_bid < 0:
        return 1
    return level(last_bid) + (0 if strain_ > strain(last_bid) else 1)


def is_jump(rank: int, last_bid: int) -> bool:
    """A bid above the lowest sufficient level of its strain. 'Jump bid' is undefined in both
    editions (2007 L73A2, 2017 L73A1, FSB L116B2); the reading is docs/laws/choices.md #19."""
    return last_bid >= 0 and level(rank) > min_level(last_bid, strain(rank))
