"""Law 24 (cards exposed or led during the auction) and the wrong-board laws (2007 L15C/L17D,
2017 L15A/L15B): TD input events, for both editions (docs/laws/L24.md, docs/laws/L15-L17.md).

The honour test is the same card set in both editions (2007 "below a ten", 2017 "non-honour":
both define A K Q J 10 as honours), so the L24 tests run for both profiles.
"""
import copy

import pytest

from shared_rules.outcome import Refused
from shared_rules.table import EventError, Table
from shared_rules.types import SEATS, Refusal
from tests.rules.helpers import calls, last_irregularity, obligations, options, run, step, td

BOTH = pytest.mark.parametrize("profile,ed", [("fsb-2007", "2007"), ("dbf-2017", "2017")])


def exposed(seat, *cards, led=None):
    e = {"td": "exposed_cards", "seat": seat, "cards": list(cards)}
    if led is not None:
        e["led"] = led
    return e


def wrong_call(seat):
    return {"td": "wrong_board_call", "seat": seat}


def reviews(state):
    return [r["law"] for r in state["reviews"]]


# ---------------------------------------------------------------- Law 24
@BOTH
def test_L24A_single_low_card_not_led_no_further_rectification(profile, ed):
    state = run(profile, "N 1H", exposed("E", "S9"))
    assert state["obligations"] == [] and state["next"] == "E"
    irr = last_irregularity(state)
    assert irr["kind"] == "cards_exposed" and irr["law"] == f"{ed} L24" and irr["seat"] == "E"
    assert irr["ruling"] == f"{ed} L24A" and irr["resolution"] == "no_further_rectification"
    [card] = state["exposed_cards"]
    assert card["seat"] == "E" and card["cards"] == ["S9"] and card["law"] == f"{ed} L24A"
    assert card["becomes"] is None and "L50" in card["if_defender"]
    assert reviews(state) == []


@BOTH
def test_L24B_single_honour_exposed_partner_passes_next_turn(profile, ed):
    state = run(profile, "N 1H", exposed("E", "SK"))
    assert state["obligations"] == [{"seat": "W", "must_pass": "next_turn", "law": f"{ed} L24B"}]
    assert last_irregularity(state)["resolution"] == "partner_passes_next_turn"
    assert reviews(state) == [{"2007": "2007 L23", "2017": "2017 L72C"}[ed]]
    # W's next turn: only a pass; after it W is free again
    state = run(profile, "N 1H", exposed("E", "SK"), "E P", "S 1S")
    assert state["next"] == "W" and state["legal_calls"] == ["P"]
    state = run(profile, "N 1H", exposed("E", "SK"), "E P", "S 1S", "W P", "N 2H", "E P", "S P")
    assert state["obligations"] == [] and "2S" in state["legal_calls"]


@BOTH
def test_L24B_ten_is_an_honour_in_both_editions(profile, ed):
    state = run(profile, "N 1H", exposed("S", "DT"))
    assert obligations(state) == {"N": "next_turn"}
    assert state["exposed_cards"][0]["law"] == f"{ed} L24B"


@BOTH
def test_L24B_single_low_card_prematurely_led_partner_passes_next_turn(profile, ed):
    state = run(profile, "N 1H", exposed("E", "C2", led=True))
    assert state["obligations"] == [{"seat": "W", "must_pass": "next_turn", "law": f"{ed} L24B"}]
    assert state["exposed_cards"][0]["led"] is True


@BOTH
def test_L24C_two_low_cards_partner_passes_next_turn(profile, ed):
    state = run(profile, "N 1H", exposed("E", "C2", "D3"))
    assert state["obligations"] == [{"seat": "W", "must_pass": "next_turn", "law": f"{ed} L24C"}]
    assert last_irregularity(state)["ruling"] == f"{ed} L24C"
    assert state["exposed_cards"][0]["cards"] == ["C2", "D3"]


@BOTH
def test_L24B_partner_in_turn_now_must_pass_at_this_turn(profile, ed):
    # docs/laws/choices.md #9: the turn the partner is about to take counts as his next turn
    state = run(profile, "N 1H", "E P", exposed("N", "HA"))
    assert state["next"] == "S" and state["legal_calls"] == ["P"]
    state = run(profile, "N 1H", "E P", exposed("N", "HA"), "S 2H")
    assert state["pending"]["kind"] == "call_when_required_to_pass"


@BOTH
def test_L24_L50_exposed_cards_of_a_defender_become_penalty_cards(profile, ed):
    state = run(profile, "N 1H", exposed("E", "S9"), exposed("N", "CA"), "E P", "S P", "W P")
    # N's partner S had to pass (L24B) and did; the auction ended with N declarer
    assert state["status"] == "ended" and state["declarer"] == "N"
    becomes = {x["seat"]: x["becomes"] for x in state["exposed_cards"]}
    assert becomes == {"E": "penalty_cards", "N": "returned_to_hand"}


@BOTH
def test_L24_after_the_final_pass_cards_recorded_no_pass_obligation(profile, ed):
    state = run(profile, "N 1H", "E P", "S P", "W P", exposed("W", "SA"))
    assert state["status"] == "ended" and state["obligations"] == []
    assert last_irregularity(state)["resolution"] == "no_further_rectification"
    assert state["exposed_cards"][0]["becomes"] == "penalty_cards"


@BOTH
def test_L24_refused_when_passed_out_pending_or_card_already_exposed(profile, ed):
    for specs, match in [
        (["N P", "E P", "S P", "W P"], "will not be played"),
        (["N 1H", "E 1D"], "pending"),
        (["N 1H", exposed("E", "SK")], "already exposed: SK"),
    ]:
        table = Table(profile, 1)
        for i, s in enumerate(specs):
            step(table, {"t": i, **s} if isinstance(s, dict) else {"t": i, "seat": s.split()[0], "call": s.split()[1]})
        before = table.state()
        with pytest.raises(EventError, match=match):
            step(table, {"t": 9, **exposed("W", "SK")})
        assert table.state() == before


# ---------------------------------------------------------------- cards from the wrong board
@BOTH
def test_wrong_board_call_without_later_calls_offender_calls_again(profile, ed):
    law = {"2007": "2007 L17D", "2017": "2017 L15A"}[ed]
    state = run(profile, "N 1H", "E 1S", wrong_call("E"))
    assert calls(state) == ["N 1H"] and state["next"] == "E" and state["status"] == "bidding"
    irr = last_irregularity(state)
    assert irr["kind"] == "wrong_board_call" and irr["law"] == law and irr["call"] == "1S"
    assert irr["resolution"] == "offender_calls_again"
    assert irr["ruling"] == {"2007": "2007 L17D2", "2017": "2017 L15A2(b)"}[ed]
    assert state["withdrawn"][-1]["call"] == "1S"
    assert state["withdrawn"][-1]["law"] == {"2007": "2007 L17D1, 2007 L16D", "2017": "2017 L15A1, 2017 L15A2(c), L16C"}[ed]
    # the board the cards came from: compare the call when the offender plays it
    assert {"2007": "2007 L17D3", "2017": "2017 L15A3"}[ed] in reviews(state)
    state = run(profile, "N 1H", "E 1S", wrong_call("E"), "E 2C")
    assert calls(state) == ["N 1H", "E 2C"] and state["next"] == "S" and state["pending"] is None


def test_2017_L15A1_lho_called_since_all_later_calls_cancelled_offender_calls_again():
    state = run("dbf-2017", "N 1H", "E 1S", "S 2H", wrong_call("E"))
    assert calls(state) == ["N 1H"] and state["next"] == "E"
    assert [w["call"] for w in state["withdrawn"]] == ["1S", "2H"]
    assert state["withdrawn"][1]["law"] == "2017 L15A1, 2017 L15A2(c), L16C"
    # S is free: he need not repeat 2H, whatever E calls now
    state = run("dbf-2017", "N 1H", "E 1S", "S 2H", wrong_call("E"), "E 2C", "S P")
    assert calls(state) == ["N 1H", "E 2C", "S P"] and state["obligations"] == [] and state["pending"] is None


def test_2007_L17D2_lho_called_since_same_new_call_lho_repeats_his_call():
    state = run("fsb-2007", "N 1H", "E 1S", "S 2H", wrong_call("E"))
    assert calls(state) == ["N 1H"] and state["next"] == "E"
    state = run("fsb-2007", "N 1H", "E 1S", "S 2H", wrong_call("E"), "E 1S")
    assert state["obligations"] == [{"seat": "S", "must_pass": None, "must_repeat": "2H", "law": "2007 L17D2"}]
    assert state["next"] == "S" and state["legal_calls"] == ["2H"]


@pytest.mark.parametrize("answer,status", [("differs", "adjusted_score"), ("same", "bidding")])
def test_2007_L17D2_lho_called_since_other_new_call_td_judges_if_it_differs(answer, status):
    state = run("fsb-2007", "N 1H", "E 1S", "S 2H", wrong_call("E"), "E 2C")
    assert state["pending"]["kind"] == "wrong_board_judgement" and options(state) == ["differs", "same"]
    assert state["pending"]["asks"] == "td" and state["pending"]["may_call"] == []
    state = run("fsb-2007", "N 1H", "E 1S", "S 2H", wrong_call("E"), "E 2C", td("wrong_board_judgement", answer))
    assert state["status"] == status
    if answer == "differs":
        assert state["adjusted_score"] == {"kind": "artificial", "law": "2007 L17D2, L12C2",
                                           "reason": state["adjusted_score"]["reason"]}
        assert state["next"] is None and state["legal_calls"] == []
    else:
        assert obligations(state) == {"S": "repeat 2H"} and state["adjusted_score"] is None


@pytest.mark.parametrize("profile,kind,law", [
    ("fsb-2007", "artificial", "2007 L17D2, L12C2"),
    ("dbf-2017", "adjusted", "2017 L15A2(a), L12C1"),
])
def test_wrong_board_call_partner_called_since_td_adjusts_the_score(profile, kind, law):
    table = Table(profile, 1)
    for i, e in enumerate([{"seat": "N", "call": "1H"}, {"seat": "E", "call": "1S"}, {"seat": "S", "call": "2H"},
                           {"seat": "W", "call": "2S"}, wrong_call("E")]):
        state = step(table, {"t": i, **e})
    assert state["status"] == "adjusted_score" and state["status_law"] == law
    assert state["adjusted_score"]["kind"] == kind and state["adjusted_score"]["law"] == law
    assert calls(state) == ["N 1H"] and [w["call"] for w in state["withdrawn"]] == ["1S", "2H", "2S"]
    irr = last_irregularity(state)
    assert irr["partner_called"] is True and irr["resolution"] == "adjusted_score" and irr["ruling"] == law
    before = table.state()
    with pytest.raises(EventError, match="adjusted score"):
        step(table, {"t": 9, "seat": "E", "call": "P"})
    with pytest.raises(EventError, match="adjusted score"):
        step(table, {"t": 9, "td": "correct_call", "seat": "N", "call": "1S"})
    got = table.step({"t": 9, "seat": "E", "call": "P"})
    assert isinstance(got, Refused) and got.kind == Refusal.AUCTION_STOPPED and got.law == law
    assert table.state() == before


@BOTH
def test_wrong_board_call_refused_without_a_call_or_when_ruled_twice(profile, ed):
    table = Table(profile, 1)
    step(table, {"t": 0, "seat": "N", "call": "1H"})
    before = table.state()
    with pytest.raises(EventError, match="no call"):
        step(table, {"t": 1, **wrong_call("E")})
    assert table.state() == before
    step(table, {"t": 2, **wrong_call("N")})
    step(table, {"t": 3, "seat": "N", "call": "1S"})
    before = table.state()
    with pytest.raises(EventError, match="already ruled"):
        step(table, {"t": 4, **wrong_call("N")})
    assert table.state() == before


# ---------------------------------------------------------------- the wrong board in play
@pytest.mark.parametrize("played_before", [False, True])
def test_2007_L15C_wrong_board_auction_cancelled_and_restarted(played_before):
    state = run("fsb-2007", "N 1H", "E 1S", "S 2H", {"td": "wrong_board", "played_before": played_before})
    assert calls(state) == [] and state["next"] == "N" and state["status"] == "bidding"
    wb = state["wrong_board"]
    assert wb["outcome"] == "auction_restarted" and wb["law"] == "2007 L15C"
    assert wb["earlier_calls"] == [{"seat": "N", "call": "1H"}, {"seat": "E", "call": "1S"}, {"seat": "S", "call": "2H"}]
    assert wb["differs"] is None and last_irregularity(state)["resolution"] == "auction_restarted"
    assert [w["law"] for w in state["withdrawn"]] == ["2007 L15C"] * 3


def test_2007_L15C_a_repeated_call_that_differs_is_shown_to_the_td():
    state = run("fsb-2007", "N 1H", "E 1S", {"td": "wrong_board"}, "N 1H", "E 2S")
    assert state["wrong_board"]["differs"] == {"index": 1, "seat": "E", "call": "2S", "earlier": "1S"}
    state = run("fsb-2007", "N 1H", "E 1S", {"td": "wrong_board"}, "N 1H", "E 1S")
    assert state["wrong_board"]["differs"] is None


def test_2007_L15C_restart_clears_the_first_auctions_obligations():
    state = run("fsb-2007", "N 1H", "E 1D", td("insufficient_bid", "replace", "2C"), td("insufficient_bid_judgement", "none"))
    assert obligations(state) == {"W": "rest_of_auction"}
    state = run("fsb-2007", "N 1H", "E 1D", td("insufficient_bid", "replace", "2C"), td("insufficient_bid_judgement", "none"),
                {"td": "wrong_board"})
    assert state["obligations"] == [] and state["lead_restrictions"] == [] and state["next"] == "N"


def test_2017_L15B2_nobody_played_it_before_auction_continues():
    state = run("dbf-2017", "N 1H", "E 1S", {"td": "wrong_board", "played_before": False}, "S 2H")
    assert calls(state) == ["N 1H", "E 1S", "S 2H"] and state["status"] == "bidding"
    assert state["wrong_board"]["outcome"] == "auction_continues" and state["adjusted_score"] is None
    assert last_irregularity(state)["ruling"] == "2017 L15B2"
    assert "L86B" in state["wrong_board"]["note"]


def test_2017_L15B1_played_before_board_cancelled_artificial_score():
    state = run("dbf-2017", "N 1H", "E 1S", {"td": "wrong_board", "played_before": True})
    assert state["status"] == "adjusted_score" and state["next"] is None
    assert state["wrong_board"]["outcome"] == "board_cancelled"
    assert state["adjusted_score"]["kind"] == "artificial"
    assert state["adjusted_score"]["law"] == "2017 L15B1, L15B3, L12C2(a)"


@BOTH
def test_wrong_board_refused_after_the_auction_or_a_second_time(profile, ed):
    table = Table(profile, 1)
    for i, c in enumerate(["1H", "P", "P", "P"]):
        step(table, {"t": i, "seat": SEATS[i], "call": c})
    before = table.state()
    with pytest.raises(EventError, match="auction is over"):
        step(table, {"t": 9, "td": "wrong_board"})
    assert table.state() == before
    table = Table(profile, 1)
    step(table, {"t": 0, "td": "wrong_board"})
    before = table.state()
    with pytest.raises(EventError, match="already ruled"):
        step(table, {"t": 1, "td": "wrong_board"})
    assert table.state() == before


# ---------------------------------------------------------------- malformed events
@pytest.mark.parametrize("event,match", [
    ({"td": "exposed_cards", "seat": "E", "cards": ["SX"]}, "unknown card 'SX'"),
    ({"td": "exposed_cards", "seat": "E", "cards": ["S10"]}, "unknown card 'S10'"),
    ({"td": "exposed_cards", "seat": "E", "cards": ["KS"]}, "unknown card"),
    ({"td": "exposed_cards", "seat": "E", "cards": [7]}, "unknown card"),
    ({"td": "exposed_cards", "seat": "E", "cards": "SK"}, "list"),
    ({"td": "exposed_cards", "seat": "E", "cards": []}, "list of 1 to 13"),
    ({"td": "exposed_cards", "seat": "E", "cards": ["SK", "SK"]}, "twice"),
    ({"td": "exposed_cards", "seat": "E"}, "list"),
    ({"td": "exposed_cards", "cards": ["SK"]}, "needs the seat"),
    ({"td": "exposed_cards", "seat": "X", "cards": ["SK"]}, "seat must be"),
    ({"td": "exposed_cards", "seat": "E", "cards": ["SK"], "led": "yes"}, "led must be"),
    ({"td": "exposed_cards", "seat": "E", "cards": ["SK"], "choice": "x"}, "takes no choice"),
    ({"td": "exposed_cards", "seat": "E", "cards": ["SK"], "played_before": True}, "played_before belongs"),
    ({"td": "wrong_board_call"}, "needs the seat"),
    ({"td": "wrong_board_call", "seat": "E", "call": "1S"}, "takes no call"),
    ({"td": "wrong_board_call", "seat": "E", "led": False}, "led belongs"),
    ({"td": "wrong_board", "played_before": "no"}, "played_before must be"),
    ({"td": "wrong_board", "seat": "N"}, "takes no seat"),
    ({"td": "wrong_board", "cards": ["SK"]}, "cards belongs"),
    ({"seat": "N", "call": "2C", "cards": ["SK"]}, "cards belongs"),
    ({"seat": "N", "call": "2C", "led": True}, "led belongs"),
    ({"td": "insufficient_bid", "choice": "accept", "played_before": True}, "played_before belongs"),
])
def test_malformed_L24_and_wrong_board_events_are_refused_and_change_nothing(event, match):
    for profile in ("fsb-2007", "dbf-2017"):
        table = Table(profile, 1)
        step(table, {"t": 0, "seat": "N", "call": "1C"})
        step(table, {"t": 1, "seat": "E", "call": "1H"})
        before = copy.deepcopy(table.state())
        with pytest.raises(EventError, match=match):
            step(table, {"t": 2, **event})
        assert table.state() == before
