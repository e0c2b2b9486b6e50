"""Contract and declarer (L19D, L22, def. declarer) checked against endplay, an independent
implementation used only here."""
import random

from endplay.types import Bid, Contract, Penalty, Player

from shared_rules import auction
from shared_rules.calls import BID_NAME, CALL_CODE, DOUBLE, MAX_LEGAL_RANK, PASS, REDOUBLE, SEATS

_PEN = {Penalty.passed: "", Penalty.doubled: "X", Penalty.redoubled: "XX"}
_DENOM = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C", "nt": "NT"}


def random_auction(rng: random.Random, dealer: int) -> list[tuple[int, int]]:
    seq: list[tuple[int, int]] = []
    seat = dealer
    while True:
        legal = auction.legal_calls(seq, seat)
        # favour passes so auctions end, but reach every call kind
        choice = "P" if rng.random() < 0.55 else rng.choice(legal)
        seq.append((seat, CALL_CODE[choice]))
        passes = 0
        for _, c in reversed(seq):
            if c != PASS:
                break
            passes += 1
        if (passes == 3 and len(seq) > 3) or passes == 4 or (passes == 3 and any(c != PASS for _, c in seq)):
            if passes == 4 or any(c != PASS for _, c in seq):
                return seq
        seat = (seat + 1) % 4


def endplay_view(seq, dealer):
    bids = [Bid({PASS: "P", DOUBLE: "X", REDOUBLE: "XX"}.get(c) or BID_NAME[c]) for _, c in seq]
    c = Contract.from_auction(Player(dealer), bids)
    if c.is_passout():
        return None, None
    name = f"{c.level}{_DENOM[c.denom.name]}{_PEN[c.penalty]}"
    return name, SEATS[int(c.declarer)]


def test_L22_contract_and_declarer_match_endplay_on_5000_random_auctions():
    rng = random.Random(20261122)
    for _ in range(5000):
        dealer = rng.randrange(4)
        seq = random_auction(rng, dealer)
        ours = auction.contract(seq)
        decl = auction.declarer(seq)
        assert (ours, SEATS[decl] if decl is not None else None) == endplay_view(seq, dealer), seq


def test_bid_encoding_is_law_18_ranking():
    assert [BID_NAME[i] for i in range(6)] == ["1C", "1D", "1H", "1S", "1NT", "2C"]
    assert BID_NAME[MAX_LEGAL_RANK] == "7NT" and CALL_CODE["8C"] > MAX_LEGAL_RANK
