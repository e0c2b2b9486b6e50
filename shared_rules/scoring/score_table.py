"""Law 77: the score of one board from its contract, declarer, tricks and vulnerability.

2007 L77 (Swedish text, FSB) and 2017 §77 (Danish text, DBf) give identical values; the 2017
layout of the undertrick table (1st / 2nd-3rd / 4th+) is used below because it reads straight
off as a list. Neither edition has honours (2007 L77, 2017 §77): none are scored.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from shared_rules.types import SEATS

STRAINS: Final = ("C", "D", "H", "S", "N")

# Common spellings on travellers and in PBN files (PBN: "Love", "Both", "-").
_VUL_ALIASES: Final = {
    "none": "None", "love": "None", "-": "None", "o": "None",
    "ns": "NS", "n-s": "NS", "n/s": "NS",
    "ew": "EW", "e-w": "EW", "e/w": "EW",
    "all": "All", "both": "All", "b": "All",
}
_PASS_WORDS: Final = ("PASS", "P", "AP", "PASSED", "PASSED OUT", "ALL PASS")
_CONTRACT_RE: Final = re.compile(r"^([1-7])(NT|N|C|D|H|S)(XX|X|R)?$")

# 2007 L77 / 2017 §77, trick score per odd trick bid and made, undoubled.
_TRICK_VALUE: Final = {"C": 20, "D": 20, "H": 30, "S": 30, "N": 30}
_NT_FIRST_TRICK_EXTRA: Final = 10  # notrump: 40 for the first trick, 30 for each later one
_GAME_THRESHOLD: Final = 100  # a trick score of 100 or more is a game (2007 L77 "utgång")
_GAME_BONUS: Final = {False: 300, True: 500}
_PART_SCORE_BONUS: Final = 50
_SLAM_BONUS: Final = {6: {False: 500, True: 750}, 7: {False: 1000, True: 1500}}
_INSULT: Final = {1: 50, 2: 100}  # for making a doubled / redoubled contract
_DOUBLED_OVERTRICK: Final = {False: 100, True: 200}  # per trick, doubled; x2 redoubled
# Undertricks, 2017 §77 layout: (1st, 2nd and 3rd, 4th and later), undoubled and doubled.
_UNDOUBLED_DOWN: Final = {False: 50, True: 100}
_DOUBLED_DOWN: Final = {False: (100, 200, 300), True: (200, 300, 300)}


@dataclass(frozen=True)
class Contract:
    """A final contract: level 1..7, strain C D H S N, doubled 0 (no), 1 (X), 2 (XX).

    `level == 0` is a passed-out board.
    """

    level: int
    strain: str = ""
    doubled: int = 0

    @property
    def passed_out(self) -> bool:
        return self.level == 0

    def __str__(self) -> str:
        if self.passed_out:
            return "PASS"
        strain = "NT" if self.strain == "N" else self.strain
        return f"{self.level}{strain}{'X' * self.doubled}"


PASSED_OUT: Final = Contract(0)


def parse_contract(text: str) -> Contract:
    """'4H', '3NT', '3N', '7SXX', '2DR' (R = redoubled), 'PASS' -> Contract. ValueError otherwise."""
    if not isinstance(text, str):
        raise ValueError(f"contract must be text like '4H', '3NTX' or 'PASS', not {text!r}")
    cleaned = text.strip().upper().replace(" ", "")
    if text.strip().upper() in _PASS_WORDS or cleaned in _PASS_WORDS:
        return PASSED_OUT
    cleaned = cleaned.replace("*", "X")
    match = _CONTRACT_RE.match(cleaned)
    if match is None:
        raise ValueError(
            f"contract {text!r} not understood: give level 1-7, strain C D H S NT, "
            "then X or XX if doubled (e.g. '4H', '3NTX', '7SXX'), or PASS"
        )
    level, strain, dbl = match.groups()
    doubled = {None: 0, "X": 1, "XX": 2, "R": 2}[dbl]
    return Contract(int(level), strain[0], doubled)


def parse_vulnerability(text: str) -> str:
    """'None', 'NS', 'EW', 'All' (and common spellings such as 'Both', 'Love') -> canonical form."""
    if not isinstance(text, str) or text.strip().lower() not in _VUL_ALIASES:
        raise ValueError(f"vulnerability must be one of None, NS, EW, All, not {text!r}")
    return _VUL_ALIASES[text.strip().lower()]


def parse_declarer(text: str) -> str:
    if not isinstance(text, str) or text.strip().upper() not in SEATS:
        raise ValueError(f"declarer must be one of N, E, S, W, not {text!r}")
    return text.strip().upper()


def check_tricks(tricks: int) -> int:
    if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 <= tricks <= 13:
        raise ValueError(f"tricks taken by declarer's side must be a whole number 0-13, not {tricks!r}")
    return tricks


def is_vulnerable(vulnerability: str, seat: str) -> bool:
    return vulnerability == "All" or (vulnerability != "None" and seat in vulnerability)


def trick_score(contract: Contract) -> int:
    """Trick score of the odd tricks bid (2007 L77 / 2017 §77); decides game or part score."""
    value = _TRICK_VALUE[contract.strain] * contract.level
    if contract.strain == "N":
        value += _NT_FIRST_TRICK_EXTRA
    return value * (1 << contract.doubled)


def score_breakdown(contract: Contract, tricks: int, vulnerable: bool) -> list[tuple[str, int]]:
    """The items of the Law 77 score for declarer's side, as a TD reads them out.

    Undertricks are negative (the defenders score them). A passed-out board has no items.
    """
    if contract.passed_out:
        return []  # 2007 L77 last line, 2017 §77 "Passspil": both sides score 0
    need = contract.level + 6
    stake = ("", " doubled", " redoubled")[contract.doubled]
    if tricks >= need:
        made = trick_score(contract)
        items = [(f"trick score {contract.level}{'NT' if contract.strain == 'N' else contract.strain}{stake}", made)]
        if made >= _GAME_THRESHOLD:
            items.append(("game bonus" + (" vulnerable" if vulnerable else ""), _GAME_BONUS[vulnerable]))
        else:
            items.append(("part-score bonus", _PART_SCORE_BONUS))
        # Slam bonuses need the slam bid (2007 L77 "bjuden och hemspelad").
        if contract.level in _SLAM_BONUS:
            name = "small slam" if contract.level == 6 else "grand slam"
            items.append((f"{name} bonus", _SLAM_BONUS[contract.level][vulnerable]))
        if contract.doubled:
            items.append(("for making a doubled contract" if contract.doubled == 1
                          else "for making a redoubled contract", _INSULT[contract.doubled]))
        over = tricks - need
        if over:
            each = (_DOUBLED_OVERTRICK[vulnerable] * contract.doubled if contract.doubled
                    else _TRICK_VALUE[contract.strain])
            items.append((f"{over} overtrick{'s' if over > 1 else ''} x {each}", over * each))
        return items
    down = need - tricks
    if not contract.doubled:
        each = _UNDOUBLED_DOWN[vulnerable]
        return [(f"{down} undertrick{'s' if down > 1 else ''} x {each}", -down * each)]
    first, second_third, later = _DOUBLED_DOWN[vulnerable]
    items = [(f"1st undertrick{stake}", -first * contract.doubled)]
    if down >= 2:
        n = min(down - 1, 2)
        items.append((f"{'2nd' if n == 1 else '2nd-3rd'} undertrick{'s' if n > 1 else ''}{stake}",
                      -second_third * n * contract.doubled))
    if down >= 4:
        n = down - 3
        items.append((f"4th{' and later' if n > 1 else ''} undertrick{'s' if n > 1 else ''}{stake}",
                      -later * n * contract.doubled))  # redoubled = twice the doubled penalty
    return items


def declarer_score(contract: Contract, tricks: int, vulnerable: bool) -> int:
    """Law 77 score for declarer's side (negative: the defenders score it)."""
    return sum(points for _, points in score_breakdown(contract, tricks, vulnerable))


def score(contract: str, declarer: str, tricks: int, vulnerability: str) -> int:
    """Law 77 score from North-South's side (docs/interfaces.md section 2).

    `contract` like '4H', '3NTX', '7SXX' or 'PASS' (passed out scores 0); `declarer` N E S W
    (ignored for PASS); `tricks` 0..13 taken by declarer's side; `vulnerability` None NS EW All.
    Bad input raises ValueError with a message a TD can act on.
    """
    parsed = parse_contract(contract)
    vul = parse_vulnerability(vulnerability)
    if parsed.passed_out:
        return 0
    seat = parse_declarer(declarer)
    check_tricks(tricks)
    points = declarer_score(parsed, tricks, is_vulnerable(vul, seat))
    return points if seat in ("N", "S") else -points
