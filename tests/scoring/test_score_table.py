"""Law 77 (2007 L77 = 2017 §77) checked cell by cell.

Two independent references: `endplay`'s contract scoring, and a second implementation written
here from the law's tables in a different shape (a cumulative undertrick table,
bonuses looked up per row) rather than the formula of shared_rules/scoring/score_table.py.
"""
import itertools

import pytest
from endplay.types import Contract as EPContract
from endplay.types import Denom, Penalty, Player, Vul

from shared_rules.scoring import parse_contract, score

LEVELS = range(1, 8)
STRAINS = ["C", "D", "H", "S", "NT"]
STAKES = ["", "X", "XX"]
SEATS = ["N", "E", "S", "W"]
VULS = ["None", "NS", "EW", "All"]
ALL_BIDS = [f"{lv}{st}" for lv in LEVELS for st in STRAINS]

# Law 77 cumulative penalties, 1..13 down, as printed (from the 2007 and 2017 tables).
CUMULATIVE_DOWN = {
    (False, 0): [50, 100, 150, 200, 250, 300, 350, 400, 450, 500, 550, 600, 650],
    (False, 1): [100, 300, 500, 800, 1100, 1400, 1700, 2000, 2300, 2600, 2900, 3200, 3500],
    (False, 2): [200, 600, 1000, 1600, 2200, 2800, 3400, 4000, 4600, 5200, 5800, 6400, 7000],
    (True, 0): [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200, 1300],
    (True, 1): [200, 500, 800, 1100, 1400, 1700, 2000, 2300, 2600, 2900, 3200, 3500, 3800],
    (True, 2): [400, 1000, 1600, 2200, 2800, 3400, 4000, 4600, 5200, 5800, 6400, 7000, 7600],
}


def reference_declarer_score(level: int, strain: str, dbl: int, vul: bool, tricks: int) -> int:
    """Second implementation, straight from the rows of the L77 table."""
    need = level + 6
    if tricks < need:
        return -CUMULATIVE_DOWN[(vul, dbl)][need - tricks - 1]
    per_trick = {"C": 20, "D": 20, "H": 30, "S": 30, "NT": 30}[strain]
    odd = [per_trick] * level
    if strain == "NT":
        odd[0] = 40
    stake = {0: 1, 1: 2, 2: 4}[dbl]
    trick_points = sum(odd) * stake
    result = trick_points
    result += (500 if vul else 300) if trick_points >= 100 else 50
    if level == 6:
        result += 750 if vul else 500
    if level == 7:
        result += 1500 if vul else 1000
    result += {0: 0, 1: 50, 2: 100}[dbl]
    over = tricks - need
    overtrick = {0: per_trick, 1: 200 if vul else 100, 2: 400 if vul else 200}[dbl]
    return result + over * overtrick


def endplay_ns_score(bid: str, stake: str, declarer: str, tricks: int, vul: str) -> int:
    level = int(bid[0])
    denom = {"C": Denom.clubs, "D": Denom.diamonds, "H": Denom.hearts, "S": Denom.spades, "NT": Denom.nt}[bid[1:]]
    penalty = {"": Penalty.passed, "X": Penalty.doubled, "XX": Penalty.redoubled}[stake]
    player = {"N": Player.north, "E": Player.east, "S": Player.south, "W": Player.west}[declarer]
    contract = EPContract(level=level, denom=denom, declarer=player, penalty=penalty, result=tricks - level - 6)
    points = contract.score({"None": Vul.none, "NS": Vul.ns, "EW": Vul.ew, "All": Vul.both}[vul])
    return points if declarer in "NS" else -points


def test_2007_L77_2017_s77_every_contract_stake_vulnerability_and_trick_count_matches_endplay():
    checked = 0
    mismatches = []
    for bid, stake, declarer, vul, tricks in itertools.product(ALL_BIDS, STAKES, SEATS, VULS, range(14)):
        ours = score(bid + stake, declarer, tricks, vul)
        theirs = endplay_ns_score(bid, stake, declarer, tricks, vul)
        checked += 1
        if ours != theirs:
            mismatches.append((bid + stake, declarer, tricks, vul, ours, theirs))
    assert checked == 35 * 3 * 4 * 4 * 14
    assert mismatches == []


def test_2007_L77_2017_s77_every_contract_matches_table_driven_reimplementation():
    for bid, stake, vul, tricks in itertools.product(ALL_BIDS, STAKES, (False, True), range(14)):
        level, strain, dbl = int(bid[0]), bid[1:], len(stake)
        expected = reference_declarer_score(level, strain, dbl, vul, tricks)
        # South declares; NS vulnerable iff vul.
        assert score(bid + stake, "S", tricks, "NS" if vul else "EW") == expected, (bid + stake, vul, tricks)
        # The same from East's seat: North-South's side gets the negation.
        assert score(bid + stake, "E", tricks, "EW" if vul else "NS") == -expected, (bid + stake, vul, tricks)


# Spec appendix A, declarer's score.
APPENDIX_A = [
    ("4S", 10, False, 420), ("4S", 10, True, 620), ("4SX", 10, True, 790), ("3NT", 9, True, 600),
    ("3NT", 10, False, 430), ("2D", 10, False, 130), ("1CX", 7, False, 140), ("1CX", 8, False, 240),
    ("2SX", 8, False, 470), ("2SX", 8, True, 670), ("1NTXX", 7, False, 560), ("3NTXX", 9, False, 800),
    ("5DX", 11, False, 550), ("6H", 13, False, 1010), ("6NT", 12, True, 1440), ("7NTXX", 13, True, 2980),
    ("1NTXX", 13, True, 3160), ("3NTX", 6, True, -800), ("4HX", 6, False, -800), ("4HX", 6, True, -1100),
    ("4HXX", 6, False, -1600), ("5CX", 10, False, -100), ("4C", 9, False, -50), ("4H", 9, True, -100),
    ("7NTXX", 0, True, -7600), ("7NTXX", 0, False, -7000),
]


@pytest.mark.parametrize("contract,tricks,vul,expected", APPENDIX_A)
def test_2007_L77_2017_s77_spec_appendix_a_vectors(contract, tricks, vul, expected):
    assert score(contract, "N", tricks, "All" if vul else "None") == expected
    assert score(contract, "W", tricks, "All" if vul else "None") == -expected


def test_2007_L77_2017_s77_passed_out_scores_zero_for_both_sides():
    assert score("PASS", "N", 0, "All") == 0
    assert score("pass", "", 0, "None") == 0


def test_2007_L77_vulnerability_is_the_declarers_not_the_boards():
    # 4S= by N with EW vulnerable: NS not vulnerable.
    assert score("4S", "N", 10, "EW") == 420
    assert score("4S", "N", 10, "NS") == 620
    assert score("4S", "E", 10, "NS") == -420


def test_2007_L77_overtricks_never_make_game_and_slam_needs_a_slam_bid():
    assert score("2S", "S", 12, "None") == 230  # 60 + 50 + 4*30: part score, no slam bonus
    assert score("4S", "S", 12, "None") == 480


@pytest.mark.parametrize(
    "args",
    [
        ("8H", "S", 10, "NS"), ("4Z", "S", 10, "NS"), ("4HXXX", "S", 10, "NS"), ("", "S", 10, "NS"),
        ("4H", "Q", 10, "NS"), ("4H", "S", 14, "NS"), ("4H", "S", -1, "NS"), ("4H", "S", True, "NS"),
        ("4H", "S", 10, "Red"), ("4H", "S", "10", "NS"), (None, "S", 10, "NS"), ("4H", None, 10, "NS"),
    ],
)
def test_score_rejects_malformed_input_with_value_error(args):
    with pytest.raises(ValueError):
        score(*args)


def test_contract_spellings_are_accepted():
    assert str(parse_contract("3n")) == "3NT"
    assert str(parse_contract("2dr")) == "2DXX"
    assert str(parse_contract(" 4h x ")) == "4HX"
    assert score("4H", "S", 10, "both") == 620


def test_2007_L77_breakdown_items_sum_to_the_score_for_every_contract():
    from shared_rules.scoring.score_table import declarer_score, score_breakdown

    for bid, stake, vul, tricks in itertools.product(ALL_BIDS, STAKES, (False, True), range(14)):
        contract = parse_contract(bid + stake)
        items = score_breakdown(contract, tricks, vul)
        assert sum(p for _, p in items) == declarer_score(contract, tricks, vul)
        assert all(label for label, _ in items)
