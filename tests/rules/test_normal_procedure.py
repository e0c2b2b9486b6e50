"""Normal procedure, Laws 17-22 (identical in substance in 2007 and 2017)."""
import pytest

from shared_rules.table import Table
from tests.rules.helpers import calls, run, step

PROFILES = ["fsb-2007", "dbf-2017"]


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("board,dealer", [(1, "N"), (2, "E"), (3, "S"), (4, "W"), (17, "N"), (30, "E"), (99, "S")])
def test_L17B_dealer_calls_first(profile, board, dealer):
    state = Table(profile, board).state()
    assert state["dealer"] == dealer and state["next"] == dealer and state["status"] == "bidding"
    assert state["legal_calls"][0] == "P" and "1C" in state["legal_calls"] and "X" not in state["legal_calls"]


@pytest.mark.parametrize("profile", PROFILES)
def test_L17C_rotation_clockwise(profile):
    state = run(profile, "N P", "E 1C", "S P")
    assert state["next"] == "W" and state["irregularities"] == []


@pytest.mark.parametrize("profile,law", [("fsb-2007", "L22A1"), ("dbf-2017", "L22B")])
def test_passed_out_after_four_passes(profile, law):
    state = run(profile, "N P", "E P", "S P", "W P")
    assert state["status"] == "passed_out"
    assert state["contract"] is None and state["declarer"] is None and state["next"] is None
    assert state["legal_calls"] == []


@pytest.mark.parametrize("profile", PROFILES)
def test_three_passes_before_a_bid_do_not_end(profile):
    state = run(profile, "N P", "E P", "S P")
    assert state["status"] == "bidding" and state["next"] == "W"


@pytest.mark.parametrize("profile", PROFILES)
def test_L22_three_passes_after_a_bid_end_the_auction(profile):
    state = run(profile, "N 1H", "E P", "S 2H", "W P", "N P", "E P")
    assert state["status"] == "ended" and state["contract"] == "2H" and state["declarer"] == "N"


@pytest.mark.parametrize("profile", PROFILES)
def test_declarer_first_of_side_to_name_the_strain(profile):
    # S bid hearts first for NS, though N made the final bid
    state = run(profile, "N 1C", "E P", "S 1H", "W P", "N 2H", "E P", "S 4H", "W P", "N P", "E P")
    assert state["declarer"] == "S" and state["contract"] == "4H"


@pytest.mark.parametrize("profile", PROFILES)
def test_L19_double_and_redouble(profile):
    state = run(profile, "N 1S", "E X", "S XX", "W P", "N P", "E P")
    assert state["contract"] == "1SXX" and state["declarer"] == "N"
    state = run(profile, "N 1S", "E X", "S XX", "W 2C", "N P", "E P", "S P")
    assert state["contract"] == "2C" and state["declarer"] == "W"


@pytest.mark.parametrize("profile", PROFILES)
def test_L19A1_double_only_of_opponents_last_bid(profile):
    state = run(profile, "N 1S", "E P")
    assert "X" not in state["legal_calls"]  # S may not double partner's bid
    state = run(profile, "N 1S")
    assert "X" in state["legal_calls"] and "XX" not in state["legal_calls"]
    state = run(profile, "N 1S", "E X", "S P", "W P")
    assert "XX" in state["legal_calls"] and "X" not in state["legal_calls"]  # N may redouble


@pytest.mark.parametrize("profile", PROFILES)
def test_L18_lowest_bid_and_sufficiency(profile):
    state = run(profile, "N 1NT")
    assert state["lowest_bid"] == "2C"
    assert "1S" not in state["legal_calls"] and "2C" in state["legal_calls"]
    state = run(profile, "N 7NT")
    assert state["lowest_bid"] is None
    assert state["legal_calls"] == ["P", "X"]


@pytest.mark.parametrize("profile", PROFILES)
def test_every_call_records_think_time_from_turn(profile):
    table = Table(profile, 1)
    step(table, {"t": 2.5, "seat": "N", "call": "1D"})
    state = step(table, {"t": 9.0, "seat": "E", "call": "P"})
    assert [c["think"] for c in state["calls"]] == [2.5, 6.5]  # L16B / L73 tempo review


def test_state_has_every_interface_key():
    state = Table("fsb-2007", 5).state()
    for key in ("calls", "status", "contract", "declarer", "next", "irregularities", "obligations",
                "lead_restrictions", "timing", "board", "dealer", "vulnerability", "profile", "edition",
                "policy", "lowest_bid", "legal_calls", "stop_lock_until", "pending"):
        assert key in state
    assert state["vulnerability"] == "NS" and state["edition"] == 2007 and state["policy"] == "record"


def test_calls_keep_alert_and_stop_flags():
    state = run("fsb-2007", "N 1NT", "E P", "S 2C", "N !")
    assert calls(state) == ["N 1NT", "E P", "S 2C"]
    c = state["calls"][2]
    assert c["alerted"] is True and c["alerted_by"] == "N" and c["stop"] is False
