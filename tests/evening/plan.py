"""The club evening as data: the movement, the deals, what is bid and made at every table, and
what the scoring program must end up with, computed independently with endplay (contract from
the auction, tricks double dummy from the hand record, Law 77 score) - never with our own
shared_rules.

Sections A and B: Mitchells of 7 tables numbered per direction (round 1: NS n v EW n), 2 boards
a round; tables 6 and 7 share their boards every round (table 7 plays them in the other order).
Section C: a 3-table Howell (6 pairs). A and B are one scoring group (boards 1-12, hand records
sent for section A only); C is another (boards 1-6, its own deals).
"""
from __future__ import annotations

import functools
import random
from dataclasses import dataclass, field
from fractions import Fraction

from bridgemate_dataconnector.dto import ResultDTO
from endplay.dds import calc_dd_table
from endplay.types import Bid, Contract, Deal, Denom, Penalty, Player, Vul

from shared_rules.types import Seat

SESSION = "C10BE0E1E0000000000000000000A7B2"
DATE = (2026, 11, 22)
EVENT = "club-2026-11-22"  # the station's event for the scoring program's session of that date
ROUNDS, PER_ROUND, MITCHELL_TABLES = 3, 2, 7
PIN = "2468"
# Howell: round -> [(table, ns, ew, low board)]; each pair plays each board set once, meets
# each opponent at most once, and changes direction.
HOWELL = {1: [(1, 1, 2, 1), (2, 3, 4, 3), (3, 5, 6, 5)],
          2: [(1, 6, 1, 3), (2, 4, 2, 5), (3, 5, 3, 1)],
          3: [(1, 1, 3, 5), (2, 5, 2, 3), (3, 4, 6, 1)]}


@dataclass(frozen=True)
class Slot:
    section: str
    table: int
    round: int
    boards: tuple[int, ...]
    ns: int
    ew: int


def slots() -> list[Slot]:
    out = []
    for section in "AB":
        for t in range(1, MITCHELL_TABLES + 1):
            for r in range(1, ROUNDS + 1):
                s = (min(t, 6) - 1 + r - 1) % 6  # tables 6 and 7 share a board set
                out.append(Slot(section, t, r, (2 * s + 1, 2 * s + 2), t, (t - r) % MITCHELL_TABLES + 1))
    for r, rows in HOWELL.items():
        for t, ns, ew, low in rows:
            out.append(Slot("C", t, r, (low, low + 1), ns, ew))
    return out


def group(section: str) -> int:
    return 2 if section == "C" else 1


def deals() -> dict[tuple[int, int], Deal]:
    """(scoring group, board) -> the deal (seeded, so every run is the same evening)."""
    rng = random.Random(1122)
    cards = [s + r for s in "SHDC" for r in "AKQJT98765432"]
    out = {}
    for g, n in ((1, 12), (2, 6)):
        for b in range(1, n + 1):
            rng.shuffle(cards)
            hands = [cards[i * 13:(i + 1) * 13] for i in range(4)]
            pbn = " ".join(".".join("".join(c[1] for c in h if c[0] == s) for s in "SHDC") for h in hands)
            out[(g, b)] = Deal("N:" + pbn)
    return out


def dealer(board: int) -> str:
    return Player.from_board(board).abbr


@dataclass
class Play:
    """One board at one table as the players do it: `steps` for the tablet worker, `calls` the
    auction as it stands (what endplay reads), `cards` the board whose cards were played."""
    slot: Slot
    board: int
    steps: list = field(default_factory=list)
    calls: list[str] = field(default_factory=list)
    at: int = 0      # the board the tablet had on the table (its dealer)
    cards: int = 0
    artificial: tuple[str, str] | None = None
    ruled: list[dict] | None = None  # the TD's assigned or weighted score (Law 12C1), as he gave it


DENOMS = "CDHS"


def _auction(rng: random.Random, first: str) -> list[str]:
    kind = rng.choice(["open", "open", "double", "overcall", "nt"])
    level = rng.randint(1, 3)
    bid = f"{level}{rng.choice(DENOMS)}"
    if kind == "nt":
        return [f"{level}NT", "P", "P", "P"]
    if kind == "double":
        return [bid, "X", "P", "P", "P"]
    if kind == "overcall":
        return [bid, f"{level + 1}{rng.choice(DENOMS)}", "P", "P", "P"]
    return [bid, "P", "P", "P"]


def _calls(seat: str, calls: list[str]) -> list:
    steps = []
    for c in calls:
        steps.append(["call", seat, c])
        seat = Seat.of(seat).lho.letter
    return steps


# The evening's incidents, by (section, table, round).
OUT_OF_ORDER = {("A", 7, r) for r in (1, 2, 3)} | {("B", 7, r) for r in (1, 2, 3)}
WRONG_BOARD_CAUGHT = ("A", 2, 1)
INSUFFICIENT = {("A", 4, 1): "2017 L27", ("C", 1, 2): "2007 L27"}
PASSED_OUT = ("A", 1, 2)
ADJUSTED = ("B", 5, 3)
MOVED = ("B", 3, 3)          # result entered on the wrong board, moved by the TD
WITHDRAWN = ("A", 3, 3)      # its first board's result withdrawn by the TD, the board played again
TABLET_KILLED = ("B", 1, 2)  # its worker is killed after two calls of the first board
C_PROFILE = "fsb-2007"       # section C's tablets run the 2007 laws (A and B the station's 2017)
# The TD's adjusted scores on the board in play, after its first two calls (2017 L12C1): an
# assigned 3NT by South, eight tricks; a weighted 4H by East, ten tricks 60 %, nine 40 %.
ASSIGNED = ("A", 5, 1)
WEIGHTED = ("B", 4, 2)
RULED = {ASSIGNED: [{"contract": "3NT", "declarer": "S", "tricks": 8}],
         WEIGHTED: [{"contract": "4H", "declarer": "E", "tricks": 10, "weight": 60},
                    {"contract": "4H", "declarer": "E", "tricks": 9, "weight": 40}]}


def table_plays(slot: Slot) -> tuple[list[list], list[Play]]:
    """The steps of one table's round as segments (a segment ends where the test steps in: the
    tablet killed, the scoring program polling before the TD moves a result), and its plays."""
    rng = random.Random(f"{slot.section}{slot.table}/{slot.round}")
    place = (slot.section, slot.table, slot.round)
    order = list(slot.boards)
    if place in OUT_OF_ORDER:
        order.reverse()  # the shared set: table 6 plays it first, table 7 second
    segments: list[list] = [[]]
    plays: list[Play] = []
    if place == WRONG_BOARD_CAUGHT:
        other = next(b for b in range(1, 13) if b not in slot.boards)
        segments[0].append(["refuse", other])
    if place == MOVED:
        # The players take board order[1] from the tray while the tablet shows order[0]: they
        # bid and play its cards as order[0]; the TD moves the result, then order[0] is played.
        wrong = Play(slot, order[1], at=order[0], cards=order[1])
        wrong.calls = _auction(rng, dealer(order[0]))
        wrong.steps = [["choose", order[0]], *_calls(dealer(order[0]), wrong.calls), ["result", "dd"]]
        segments[0] += wrong.steps
        segments.append([["move", order[0], order[1]]])
        plays.append(wrong)
        order = order[:1]
    for i, board in enumerate(order):
        p = Play(slot, board, at=board, cards=board)
        first = dealer(board)
        p.steps.append(["choose", board])
        if place == PASSED_OUT and i == 1:
            p.calls = ["P", "P", "P", "P"]
            p.steps += _calls(first, p.calls) + [["result", None]]
        elif place in RULED and i == 0:
            p.steps += _calls(first, ["1D", "P"]) + [["assign", RULED[place]]]
            p.ruled = RULED[place]
        elif place == ADJUSTED and i == 0:
            p.steps += _calls(first, ["1C"]) + [["adjust", "avg+", "avg-", "2017 L12C2"]]
            p.artificial = ("avg+", "avg-")
        elif place in INSUFFICIENT and i == 0:
            off = Seat.of(first).lho.letter
            p.calls = ["1H", "2C", "P", "P", "P"]  # the auction as it stands after the ruling
            p.steps += [["call", first, "1H"], ["call", off, "1C"], ["frozen", INSUFFICIENT[place]],
                        ["td", "replace", "2C"], ["td", "b1a", None], *_calls(Seat.of(off).lho.letter, ["P", "P", "P"]),
                        ["result", "dd"]]
        else:
            p.calls = _auction(rng, first)
            p.steps += _calls(first, p.calls) + [["result", "dd"]]
            if place == WITHDRAWN and i == 0:
                # the cards were found fouled after the result: the TD withdraws it, the board is
                # dealt again from the hand record and played again (the same auction and play)
                p.steps += [["withdraw", board], ["choose", board], *_calls(first, p.calls), ["result", "dd"]]
        if place == TABLET_KILLED and i == 0:
            segments[-1] += p.steps[:3]  # the board chosen and two calls made: then the tablet dies
            segments.append(p.steps[3:])
        else:
            segments[-1] += p.steps
        plays.append(p)
    return segments, plays


@dataclass(frozen=True)
class Expected:
    ns: int
    ew: int
    level: int          # 0: passed out; -1..-9 artificial (the Data Connector's levels)
    denom: str | None
    stake: int
    declarer: str | None
    tricks: int | None
    score_ns: int | None
    lead: str | None = None  # the opening leader's first card in his hand ("SA", "HT")
    # what is matchpointed for North-South: (weight, NS score) per outcome; () for an artificial score
    outcomes: tuple[tuple[Fraction, int], ...] = ()


@functools.cache
def _dd(pbn: str):
    return calc_dd_table(Deal(pbn))


# The Data Connector's artificial levels, by NS/EW (the client's own constants).
ARTIFICIAL = {("avg+", "avg-"): ResultDTO.AvgPlusMin}


def expected(play: Play, deal_of: dict[tuple[int, int], Deal]) -> Expected:
    """What the scoring program must have for this board, from endplay alone."""
    s = play.slot
    if play.artificial:
        return Expected(s.ns, s.ew, ARTIFICIAL[play.artificial], None, 0, None, None, None)
    if play.ruled:
        outcomes = tuple((Fraction(o.get("weight", 100), 100), ns_score(o, play.board)) for o in play.ruled)
        if len(play.ruled) > 1:  # weighted: no one contract for the scoring program (Level NoPlay)
            return Expected(s.ns, s.ew, ResultDTO.ContractLevel_NoPLay, None, 0, None, None, None, outcomes=outcomes)
        o = play.ruled[0]
        return Expected(s.ns, s.ew, int(o["contract"][0]), o["contract"][1:], 0, o["declarer"], o["tricks"],
                        outcomes[0][1], outcomes=outcomes)
    contract = Contract.from_auction(Player.find(dealer(play.at)), [Bid(c.lower()) for c in play.calls])
    if contract.is_passout():
        return Expected(s.ns, s.ew, 0, None, 0, None, None, 0, outcomes=((Fraction(1), 0),))
    deal = deal_of[(group(s.section), play.cards)]
    tricks = _dd(deal.to_pbn())[contract.denom, contract.declarer]
    contract.result = tricks - contract.level - 6
    score = contract.score(Vul.from_board(play.board))
    decl = contract.declarer.abbr
    leader = Player.find(Seat.of(decl).lho.letter)
    suit, ranks = next((s, r) for s, r in zip("SHDC", deal[leader].to_pbn().split("."), strict=True) if r)
    denom = {Denom.clubs: "C", Denom.diamonds: "D", Denom.hearts: "H", Denom.spades: "S", Denom.nt: "NT"}[contract.denom]
    ns = score if decl in "NS" else -score
    return Expected(s.ns, s.ew, contract.level, denom, {Penalty.passed: 0, Penalty.doubled: 1, Penalty.redoubled: 2}[contract.penalty], decl, tricks,
                    ns, suit + ranks[0], outcomes=((Fraction(1), ns),))


def ns_score(ruled: dict, board: int) -> int:
    """North-South's Law 77 score of one outcome the TD gave, by endplay."""
    c = ruled["contract"]
    denom = {"C": Denom.clubs, "D": Denom.diamonds, "H": Denom.hearts, "S": Denom.spades, "NT": Denom.nt}[c[1:]]
    decl = Player.find(ruled["declarer"])
    contract = Contract(level=int(c[0]), denom=denom, declarer=decl, penalty=Penalty.passed,
                        result=ruled["tricks"] - int(c[0]) - 6)
    score = contract.score(Vul.from_board(board))
    return score if ruled["declarer"] in "NS" else -score

