"""Board number -> dealer and vulnerability (Law 2, both editions).

The Law gives a table for boards 1-16 and says the series repeats for 17-32 and every following
group of 16 (2007 L2, 2017 L2). The table is kept literally rather than as a formula so that a
reader can check it against the law text line by line.
"""
from typing import Final

from shared_rules.types import SEATS, Vulnerability

VULNERABILITIES: Final[tuple[str, ...]] = tuple(v.value for v in Vulnerability)

# 2007 L2 / 2017 L2: the vulnerability of boards 1..16, in order.
_VUL_TABLE: Final = (
    "None", "NS", "EW", "All",
    "NS", "EW", "All", "None",
    "EW", "All", "None", "NS",
    "All", "None", "NS", "EW",
)


def _check(board: int) -> None:
    if isinstance(board, bool) or not isinstance(board, int) or board < 1:
        raise ValueError(f"board number must be a whole number from 1 up, not {board!r}")


def dealer(board: int) -> str:
    """Dealer of a board: N on 1, E on 2, S on 3, W on 4, repeating (Law 2)."""
    _check(board)
    return SEATS[(board - 1) % 4]


def vulnerability(board: int) -> str:
    """'None', 'NS', 'EW' or 'All' (Law 2; the 16-board series repeats from board 17)."""
    _check(board)
    return _VUL_TABLE[(board - 1) % 16]


def is_vulnerable(board: int, seat: str) -> bool:
    vul = vulnerability(board)
    return vul == "All" or (vul != "None" and seat in vul)
