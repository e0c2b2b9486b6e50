"""Property tests (hypothesis): random legal auctions never raise an irregularity and always end
correctly (2007 L22A1/A2, 2017 L22A/B); random single mutations are always caught."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared_rules import auction
from shared_rules.calls import CALL_CODE, MAX_LEGAL_RANK, PASS, SEAT_INDEX, SEATS
from shared_rules.table import Table
from tests.hypothesis_profiles import examples

PROFILES = st.sampled_from(["fsb-2007", "dbf-2017", "wbf-screens-2017", "ebu", "acbl"])
SETTINGS = settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def legal_auction(data, table: Table, max_calls: int = 60, t: float = 0.0) -> float:
    """Drive `table` with legal calls chosen by hypothesis until the auction ends."""
    for _ in range(max_calls):
        state = table.state()
        if state["status"] != "bidding":
            break
        legal = state["legal_calls"]
        # bias towards pass so that auctions end
        call = "P" if data.draw(st.booleans(), label="pass?") else data.draw(st.sampled_from(legal), label="call")
        t += data.draw(st.floats(min_value=0.0, max_value=30.0, allow_nan=False), label="think")
        table.apply({"t": t, "seat": state["next"], "call": call})
    return t


@SETTINGS
@given(data=st.data(), profile=PROFILES, board=st.integers(min_value=1, max_value=64))
def test_L22_random_legal_auctions_never_raise_and_end_correctly(data, profile, board):
    table = Table(profile, board)
    legal_auction(data, table, max_calls=400)
    state = table.state()
    assert state["irregularities"] == [] and state["obligations"] == [] and state["pending"] is None
    assert state["status"] in ("ended", "passed_out")
    seq = [(SEAT_INDEX[c["seat"]], CALL_CODE[c["call"]]) for c in state["calls"]]
    assert seq[0][0] == SEAT_INDEX[state["dealer"]]
    assert all(seq[i + 1][0] == (seq[i][0] + 1) % 4 for i in range(len(seq) - 1))  # L17C rotation
    if state["status"] == "passed_out":
        assert len(seq) == 4 and all(c == PASS for _, c in seq)
        assert state["contract"] is None
    else:
        assert [c for _, c in seq[-3:]] == [PASS] * 3 and any(c != PASS for _, c in seq[:-3])
        assert state["contract"] == auction.contract(seq)
        assert state["declarer"] == SEATS[auction.declarer(seq)]


@SETTINGS
@given(data=st.data(), profile=PROFILES, board=st.integers(min_value=1, max_value=16),
       mutation=st.sampled_from(["out_of_turn", "insufficient", "inadmissible_double"]),
       policy=st.sampled_from(["record", "prevent"]))
def test_random_single_mutations_are_always_caught(data, profile, board, mutation, policy):
    table = Table(profile, board, policy)
    # a legal prefix, stopped before the end
    t = 0.0
    for _ in range(data.draw(st.integers(min_value=0, max_value=12), label="prefix")):
        state = table.state()
        legal = state["legal_calls"]
        nonfinal = [c for c in legal if c != "P"] if state["calls"] and state["calls"][-1]["call"] == "P" else legal
        if not nonfinal:
            break
        t += 1.0
        table.apply({"t": t, "seat": state["next"], "call": data.draw(st.sampled_from(nonfinal))})
    state = table.state()
    if state["status"] != "bidding":
        return
    turn = state["next"]
    last_bid = max([CALL_CODE[c["call"]] for c in state["calls"]], default=-1)
    if mutation == "out_of_turn":
        seat = data.draw(st.sampled_from([s for s in SEATS if s != turn]))
        call = data.draw(st.sampled_from(["P"] + [c for c in state["legal_calls"] if c[0].isdigit()]))
        expected = {"call_out_of_rotation", "change_of_call", "inadmissible_double"}
    elif mutation == "insufficient":
        if last_bid < 1:
            return
        seat, call = turn, auction.call_name(data.draw(st.integers(min_value=0, max_value=last_bid)))
        expected = {"insufficient_bid"}
    else:
        bad = [c for c in ("X", "XX") if c not in state["legal_calls"]]
        seat, call = turn, data.draw(st.sampled_from(bad))
        expected = {"inadmissible_double"}
    event = {"t": t + 1.0, "seat": seat, "call": call}
    verdict = table.check(event)
    assert verdict is not None and verdict["kind"] in expected
    after = table.apply(event)
    if policy == "prevent":
        assert after["refused"][-1]["kind"] in expected
        assert after["calls"] == state["calls"] and after["status"] == "bidding"
    else:
        assert after["status"] == "awaiting_td" and after["pending"]["kind"] in expected
        assert after["irregularities"][-1]["kind"] in expected and after["irregularities"][-1]["law"]


def test_call_name_round_trip():
    for name, code in CALL_CODE.items():
        assert auction.call_name(code) == name
    assert auction.call_name(MAX_LEGAL_RANK) == "7NT"
