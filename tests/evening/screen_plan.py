"""The screen team match of test_screen_match: what each table bids and makes, and the independent
recomputation of every score, written out here (never with shared_rules or the station):

- the score of each result: endplay's `Contract.score` (Law 77), from the contract the auction
  made (`Contract.from_auction`) and the tricks taken;
- `imp`: the IMP scale of Law 78B (the WBF table), written out below;
- `wbf_vp`: the WBF continuous 20-0 scale (WBF General Conditions of Contest, 2013): for a margin of
  M IMPs over B = 15 * sqrt(boards), the winner's VPs are 10 + 10 * (1 - t^(3M/B)) / (1 - t^3)
  with t = (sqrt(5) - 1) / 2, capped at 20, rounded to two decimals; where rounding would make an
  IMP worth more VPs than the IMP before it, the lower margin's figure is raised by 0.01 (the
  WBF's published table is so made); the loser gets 20 minus the winner's.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from endplay.types import Bid, Contract, Player, Vul

SEATS = "NESW"
PIN = "2468"
SESSION = "7EA45E55000000000000000000000C03"
EVENT = "club-2026-11-26"
BOARDS = {1: (1, 2), 2: (3, 4)}  # round: its boards; both matches play the same boards
# match: (open room, closed room, home team, away team, regulation)
MATCHES = {"A1-A2": (1, 2, 1, 2, "fsb-2007"), "A3-A4": (3, 4, 3, 4, "wbf-screens-2017")}
TABLES = (1, 2, 3, 4)  # every table on four real firmware boxes on the simulated link


def dealer(board: int) -> str:
    """Law 2: North deals board 1, East 2, South 3, West 4."""
    return SEATS[(board - 1) % 4]


def next_seat(seat: str, n: int = 1) -> str:
    return SEATS[(SEATS.index(seat) + n) % 4]


@dataclass(frozen=True)
class Play:
    """One table's board: the calls from the dealer as they stand (the auction the LIN must give
    back) and the declarer's tricks; `artificial` the TD's (NS, EW) artificial score instead."""
    calls: tuple[str, ...] = ()
    tricks: int | None = None
    artificial: tuple[str, str] | None = None


# Board 1 at table 3 (WBF): North 1NT, East's 1S is insufficient and is corrected to 2S behind the
# screen before the tray passes; the auction that stands is the one below. Board 2 at table 3:
# East alerts his own 1C (WBF: both players alert, to their screenmate). Board 1 at table 1
# (FSB): South alerts his partner's 1C to West (FSB L115B). Board 4 at table 4: the TD's
# artificial score.
PLAYS: dict[tuple[int, int], Play] = {
    (1, 1): Play(("1C", "P", "1H", "P", "2H", "P", "4H", "P", "P", "P"), 10),
    (2, 1): Play(("1NT", "P", "3NT", "P", "P", "P"), 9),
    (3, 1): Play(("1NT", "2S", "P", "P", "3NT", "P", "P", "P"), 9),
    (4, 1): Play(("1NT", "P", "3NT", "P", "P", "P"), 9),
    (1, 2): Play(("1S", "P", "2S", "P", "P", "P"), 9),
    (2, 2): Play(("1S", "X", "P", "P", "P"), 6),
    (3, 2): Play(("1C", "P", "1H", "P", "1NT", "P", "P", "P"), 7),
    (4, 2): Play(("1C", "P", "1S", "P", "2S", "P", "P", "P"), 8),
    (1, 3): Play(("1D", "P", "3NT", "P", "P", "P"), 10),
    (2, 3): Play(("P", "1S", "P", "4S", "P", "P", "P"), 9),
    (3, 3): Play(("2H", "P", "P", "P"), 7),
    (4, 3): Play(("2H", "X", "P", "P", "P"), 6),
    (1, 4): Play(("1C", "1NT", "P", "P", "P"), 7),
    (2, 4): Play(("P", "P", "P", "P")),
    (3, 4): Play(("1H", "P", "2H", "P", "P", "P"), 8),
    (4, 4): Play(artificial=("avg+", "avg-")),
}

# The alerted calls, (table, board): index in the auction (the LIN marks them `!`).
ALERTED = {(1, 1): 0, (3, 2): 0}

# The 2017 Laws' artificial scores in IMPs for each side (2017 L12C2(b): Avg+ is +3, Avg- is -3).
ARTIFICIAL_IMPS = {"avg+": 3, "avg": 0, "avg-": -3}


def ns_score(board: int, play: Play) -> int:
    """North-South's score of a played board, by endplay (Law 77)."""
    contract = Contract.from_auction(Player.find(dealer(board)), [Bid(c.lower()) for c in play.calls])
    if contract.is_passout():
        return 0
    assert play.tricks is not None
    contract.result = play.tricks - contract.level - 6
    score = contract.score(Vul.from_board(board))
    return score if contract.declarer.abbr in "NS" else -score


IMP_SCALE = [20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300, 1500, 1750,
             2000, 2250, 2500, 3000, 3500, 4000]  # Law 78B: the lowest difference of 1, 2, ... 24 IMPs


def imp(difference: int) -> int:
    n = sum(1 for low in IMP_SCALE if abs(difference) >= low)
    return n if difference >= 0 else -n


def board_imps(board: int) -> dict[str, tuple[int, int]]:
    """Per match, (home, away) IMPs of a board: the home team sits NS in the open room and EW in the
    closed room (Law 78B: the difference of the two NS scores), an artificial score counted per
    side whatever the other room did."""
    out = {}
    for name, (open_, closed, _home, _away, _reg) in MATCHES.items():
        o, c = PLAYS[(open_, board)], PLAYS[(closed, board)]
        if o.artificial is None and c.artificial is None:
            d = imp(ns_score(board, o) - ns_score(board, c))
            out[name] = (d, -d)
        else:
            home = away = 0
            for play, home_side in ((o, 0), (c, 1)):
                if play.artificial is None:
                    continue
                ns, ew = (ARTIFICIAL_IMPS[x] for x in play.artificial)
                home += (ns, ew)[home_side]
                away += (ew, ns)[home_side]
            # a room played normally beside an artificial one adds nothing (no comparison)
            out[name] = (home, away)
    return out


def margin(name: str) -> int:
    """The match's IMP margin, home minus away: each board's IMPs go to the team that gained them
    (a normal board's d IMPs to one team only; an artificial score's Avg- of -3 to one side is the
    other side's 3), and the margin is what the home team won less what the visitors won."""
    won = [0, 0]
    for board in sorted({b for bs in BOARDS.values() for b in bs}):
        home, away = board_imps(board)[name]
        if home + away == 0:  # balanced: the board's IMPs, to the side they went to
            won[0 if home > 0 else 1] += abs(home)
        else:  # not balanced: each side's own gain or loss (not in this match)
            raise AssertionError(f"board {board}: a non-balancing score is not in this match")
    return won[0] - won[1]


def wbf_vp(margin: int, boards: int) -> tuple[float, float]:
    """(winner's, loser's) VPs on the WBF continuous scale, the side `margin` IMPs ahead first when
    margin >= 0 (the home team's VPs first)."""
    t = (math.sqrt(5) - 1) / 2
    blitz = 15 * math.sqrt(boards)

    def raw(m: int) -> Decimal:
        v = 10 + 10 * (1 - t ** (3 * m / blitz)) / (1 - t ** 3)
        return min(Decimal(20), Decimal(repr(v)).quantize(Decimal("0.01"), ROUND_HALF_UP))

    table = [raw(m) for m in range(0, int(blitz) + 3)]
    changed = True
    while changed:  # no IMP worth more VPs than the one before it
        changed = False
        for i in range(2, len(table)):
            if table[i] - table[i - 1] > table[i - 1] - table[i - 2]:
                table[i - 1] += Decimal("0.01")
                changed = True
    win = table[min(abs(margin), len(table) - 1)]
    a, b = float(win), float(Decimal(20) - win)
    return (a, b) if margin >= 0 else (b, a)
