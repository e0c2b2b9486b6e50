"""Every branch of the decision trees of Laws 25-39 (docs/laws/), for both editions.

Test names carry the law and the edition; where both editions agree the test runs for both
profiles (fsb-2007 = 2007 Laws, dbf-2017 = 2017 Laws).
"""
import pytest

from shared_rules.outcome import Refused
from shared_rules.table import EventError, Table
from tests.rules.helpers import calls, last_irregularity, obligations, options, run, td

BOTH = pytest.mark.parametrize("profile,ed", [("fsb-2007", "2007"), ("dbf-2017", "2017")])


def leads(state):
    return [(lr["offender"], lr["kind"], lr["law"]) for lr in state["lead_restrictions"]]


# ---------------------------------------------------------------- Law 25: change of call
@BOTH
def test_L25_second_call_at_lhos_turn_is_a_change_of_call(profile, ed):
    state = run(profile, "N 1C", "E 1D", "E 1H")
    assert state["status"] == "awaiting_td"
    assert state["pending"]["kind"] == "change_of_call" and state["pending"]["asks"] == "lho"
    assert options(state) == ["unintended", "accept", "cancel"]
    assert last_irregularity(state)["law"] == f"{ed} L25"


@BOTH
def test_L25A_unintended_call_replaced_no_lead_restriction(profile, ed):
    state = run(profile, "N 1C", "E 1D", "E 1H", td("change_of_call", "unintended"))
    assert calls(state) == ["N 1C", "E 1H"] and state["next"] == "S"
    assert state["lead_restrictions"] == [] and state["obligations"] == []
    assert last_irregularity(state)["ruling"].startswith(f"{ed} L25A")


@BOTH
def test_L25B1_lho_accepts_change_by_calling(profile, ed):
    state = run(profile, "N 1C", "E 1D", "E 1H", "S P")
    assert calls(state) == ["N 1C", "E 1H", "S P"] and state["next"] == "W"
    assert last_irregularity(state)["ruling"] == f"{ed} L25B1"
    assert state["withdrawn"][0]["call"] == "1D"
    assert leads(state)[0][0] == "E"  # L26 may apply (2017 L25B1; 2007 §10.3 #10)


@pytest.mark.parametrize("profile,lead", [("fsb-2007", False), ("dbf-2017", True)])
def test_L25B2_change_cancelled_first_call_stands(profile, lead):
    state = run(profile, "N 1C", "E 1D", "E 1H", td("change_of_call", "cancel"))
    assert calls(state) == ["N 1C", "E 1D"] and state["next"] == "S"
    assert bool(state["lead_restrictions"]) is lead  # 2017 L25B2 "L26 may apply"; 2007 silent


@BOTH
def test_L25A_td_correct_call_withdraws_lhos_call(profile, ed):
    state = run(profile, "N 1C", "E 1D", "S 1S", {"td": "correct_call", "seat": "E", "call": "1H"})
    assert calls(state) == ["N 1C", "E 1H"] and state["next"] == "S"
    assert [w["call"] for w in state["withdrawn"]] == ["1S", "1D"]


@BOTH
def test_L25A_too_late_once_partner_has_called(profile, ed):
    table = Table(profile, 1)
    for i, c in enumerate(["1C", "1D", "P", "P"]):
        table.apply({"t": i, "seat": "NESW"[i], "call": c})
    before = table.state()
    with pytest.raises(EventError, match="too late"):
        table.apply({"t": 5, "td": "correct_call", "seat": "E", "call": "1H"})
    assert table.state() == before


@pytest.mark.parametrize("profile,law", [("fsb-2007", "2007 L25A3"), ("dbf-2017", "2017 L25A5")])
def test_L25A_correction_after_the_auction_ended_reopens_it(profile, law):
    state = run(profile, "N P", "E P", "S P", "W P", {"td": "correct_call", "seat": "W", "call": "1S"})
    assert state["status"] == "bidding" and calls(state)[-1] == "W 1S" and state["next"] == "N"
    assert last_irregularity(state)["ruling"].startswith(law)


# ---------------------------------------------------------------- Law 27: insufficient bid
@BOTH
def test_L27_insufficient_bid_detected(profile, ed):
    state = run(profile, "N 1H", "E 1D")
    assert state["pending"]["kind"] == "insufficient_bid" and state["pending"]["seat"] == "E"
    assert options(state) == ["accept", "replace", "unintended"]
    assert state["next"] is None and state["legal_calls"] == []


@BOTH
def test_L27A1_lho_accepts_by_calling(profile, ed):
    state = run(profile, "N 1H", "E 1D", "S P")
    assert calls(state) == ["N 1H", "E 1D", "S P"] and state["next"] == "W"
    assert last_irregularity(state)["ruling"] == f"{ed} L27A1"
    assert state["lowest_bid"] == "1H"  # sufficiency now against the accepted 1D


@BOTH
def test_L27B1a_lowest_sufficient_same_denomination(profile, ed):
    state = run(profile, "N 1H", "E 1D", td("insufficient_bid", "replace", "2D"))
    assert state["pending"]["kind"] == "insufficient_bid_judgement" and options(state) == ["b1a", "b1b", "none"]
    state = run(profile, "N 1H", "E 1D", td("insufficient_bid", "replace", "2D"), td("insufficient_bid_judgement", "b1a"))
    assert calls(state) == ["N 1H", "E 2D"] and state["obligations"] == [] and state["lead_restrictions"] == []
    assert any(r["law"] == f"{ed} L27D" for r in state["reviews"])


@pytest.mark.parametrize("profile,offered", [("fsb-2007", False), ("dbf-2017", True)])
def test_L27B1a_only_lowest_same_strain_in_2007_any_bid_showing_it_in_2017(profile, offered):
    state = run(profile, "N 1H", "E 1D", td("insufficient_bid", "replace", "3D"))
    assert ("b1a" in options(state)) is offered


@BOTH
def test_L27B1b_same_meaning_or_comparable_call_no_rectification(profile, ed):
    state = run(profile, "N 1H", "E 1D", td("insufficient_bid", "replace", "X"), td("insufficient_bid_judgement", "b1b"))
    assert calls(state) == ["N 1H", "E X"] and state["obligations"] == []
    assert last_irregularity(state)["ruling"].startswith(f"{ed} L27B1(b)")


@BOTH
def test_L27B2_other_replacement_partner_passes_rest(profile, ed):
    state = run(profile, "N 1H", "E 1D", td("insufficient_bid", "replace", "1NT"), td("insufficient_bid_judgement", "none"))
    assert calls(state) == ["N 1H", "E 1NT"]
    assert obligations(state) == {"W": "rest_of_auction"}
    assert leads(state) and leads(state)[0][0] == "E"
    assert any(r["law"] == {"2007": "2007 L23", "2017": "2017 L72C"}[ed] for r in state["reviews"])


@BOTH
def test_L27B2_pass_replacement(profile, ed):
    state = run(profile, "N 1H", "E 1D", td("insufficient_bid", "replace", "P"), td("insufficient_bid_judgement", "none"))
    assert calls(state) == ["N 1H", "E P"] and obligations(state) == {"W": "rest_of_auction"}
    assert last_irregularity(state)["ruling"] == f"{ed} L27B2"


@BOTH
def test_L27B3_double_not_same_meaning_cancelled(profile, ed):
    state = run(profile, "N 1H", "E 1D", td("insufficient_bid", "replace", "X"), td("insufficient_bid_judgement", "none"))
    assert calls(state) == ["N 1H"] and state["next"] == "E"
    assert obligations(state) == {"E": "no_double", "W": "rest_of_auction"}
    assert "X" not in state["legal_calls"] and "P" in state["legal_calls"]
    assert last_irregularity(state)["ruling"] == f"{ed} L27B3"


@BOTH
def test_L27B4_another_insufficient_bid(profile, ed):
    state = run(profile, "N 1H", "E 1D", td("insufficient_bid", "replace", "1C"))
    assert state["pending"]["kind"] == "insufficient_bid" and state["pending"]["law"] == f"{ed} L27B4"
    accepted = run(profile, "N 1H", "E 1D", td("insufficient_bid", "replace", "1C"), "S P")
    assert calls(accepted) == ["N 1H", "E 1C", "S P"]
    replaced = run(profile, "N 1H", "E 1D", td("insufficient_bid", "replace", "1C"), td("insufficient_bid", "replace", "2C"))
    assert calls(replaced) == ["N 1H", "E 2C"] and obligations(replaced) == {"W": "rest_of_auction"}


@BOTH
def test_L27B3_double_refused_after_B4(profile, ed):
    table = Table(profile, 1)
    for e in [{"t": 0, "seat": "N", "call": "1H"}, {"t": 1, "seat": "E", "call": "1D"},
              {"t": 2, "td": "insufficient_bid", "choice": "replace", "call": "1C"}]:
        table.apply(e)
    before = table.state()
    with pytest.raises(EventError, match="L27B3"):
        table.apply({"t": 3, "td": "insufficient_bid", "choice": "replace", "call": "X"})
    assert table.state() == before


@BOTH
def test_L27C_offender_replaces_before_the_ruling(profile, ed):
    state = run(profile, "N 1H", "E 1D", "E 2D")
    assert state["pending"]["kind"] == "insufficient_bid_judgement" and state["pending"]["law"] == f"{ed} L27C"


@BOTH
def test_L27_with_L25A_unintended_insufficient_bid(profile, ed):
    state = run(profile, "N 1H", "E 1D", td("insufficient_bid", "unintended", "2H"))
    assert calls(state) == ["N 1H", "E 2H"] and state["obligations"] == []


# ---------------------------------------------------------------- Laws 28, 29: out of rotation
@BOTH
def test_L28A_call_at_rhos_turn_when_rho_must_pass(profile, ed):
    # W passes at S's turn (RHO's turn): L30A in both editions, W must pass at his next turn.
    # N then calls without waiting for W's pass: in rotation, W deemed to have passed.
    state = run(profile, *_cancel("N P", "E P", "W P"), "S 1C", "N 1D")
    assert calls(state)[-2:] == ["W P", "N 1D"] and state["calls"][-2]["deemed"] is True
    assert state["next"] == "E" and state["obligations"] == [] and state["pending"] is None


@BOTH
def test_L28B_player_in_turn_calls_over_out_of_turn_call(profile, ed):
    state = run(profile, "N 1S", "S 2S", "E P")
    assert calls(state) == ["N 1S", "E P"] and state["next"] == "S"
    assert last_irregularity(state)["ruling"] == f"{ed} L28B" and state["obligations"] == []
    assert state["lead_restrictions"] == []


@BOTH
def test_L29A_lho_accepts_out_of_turn_call(profile, ed):
    state = run(profile, "N 1S", "S 2S", "W P")
    assert calls(state) == ["N 1S", "S 2S", "W P"] and state["next"] == "N"
    assert state["calls"][1]["in_rotation"] is False
    assert last_irregularity(state)["ruling"] == f"{ed} L29A"


@BOTH
def test_L29_pending_lists_who_is_in_turn(profile, ed):
    state = run(profile, "N 1S", "S 2S")
    assert state["pending"]["kind"] == "call_out_of_rotation" and state["pending"]["in_turn"] == "E"
    assert options(state) == ["accept", "cancel", "cancel_artificial"]  # L29C for a bid
    assert last_irregularity(state)["position"] == "rho"


def _cancel(*specs):
    return [*specs, td("call_out_of_rotation", "cancel")]


# ---------------------------------------------------------------- Law 30: pass out of rotation
@pytest.mark.parametrize("specs,position", [(["E P"], "rho"), (["S P"], "partner"), (["W P"], "lho")])
def test_2007_L30A_pass_before_any_bid_offender_passes_next_turn(specs, position):
    state = run("fsb-2007", *_cancel(*specs))
    offender = specs[0][0]
    assert obligations(state) == {offender: "next_turn"} and state["next"] == "N"
    assert last_irregularity(state)["ruling"] == "2007 L30A" and last_irregularity(state)["position"] == position


def test_2007_L30B1_pass_at_rhos_turn_after_a_bid():
    state = run("fsb-2007", *_cancel("N 1S", "S P"))
    assert obligations(state) == {"S": "next_turn"} and last_irregularity(state)["ruling"] == "2007 L30B1"


def test_2007_L30B2_pass_at_partners_turn_after_a_bid():
    state = run("fsb-2007", *_cancel("N 1S", "W P"))
    assert obligations(state) == {"W": "rest_of_auction", "E": "no_double"}
    assert "X" not in state["legal_calls"] and "2H" in state["legal_calls"]
    assert last_irregularity(state)["ruling"] == "2007 L30B2"


def test_2017_L30A_pass_at_rhos_turn():
    state = run("dbf-2017", *_cancel("N 1S", "S P"))
    assert obligations(state) == {"S": "next_turn"} and last_irregularity(state)["ruling"] == "2017 L30A"


@pytest.mark.parametrize("answer,expected", [("yes", {}), ("no", {"E": "next_turn"})])
def test_2017_L30B1_pass_at_partners_turn_comparable_test(answer, expected):
    state = run("dbf-2017", *_cancel("N 1S", "W P"), "E X", "S P", "W 2H")
    assert state["pending"]["kind"] == "oot_judgement" and options(state) == ["yes", "no"]
    state = run("dbf-2017", *_cancel("N 1S", "W P"), "E X", "S P", "W 2H", td("oot_judgement", answer))
    assert obligations(state) == expected
    assert bool(state["lead_restrictions"]) is (answer == "no")


def test_2017_L30B1_pass_at_lhos_turn_before_any_call():
    state = run("dbf-2017", *_cancel("W P"))
    assert state["obligations"] == [] and state["next"] == "N"
    state = run("dbf-2017", *_cancel("W P"), "N 1C", "E P", "S P", "W P")
    assert state["pending"]["kind"] == "oot_judgement"


@BOTH
def test_L30C_artificial_pass_is_treated_as_a_bid(profile, ed):
    state = run(profile, "N 1S", "W P", td("call_out_of_rotation", "cancel_artificial"))
    assert last_irregularity(state)["ruling"] == f"{ed} L31B"


# ---------------------------------------------------------------- Law 31: bid out of rotation
@BOTH
def test_L31A1_rho_passes_offender_must_repeat(profile, ed):
    state = run(profile, *_cancel("E 1H"), "N P")
    assert obligations(state) == {"E": "repeat 1H"} and state["legal_calls"] == ["1H"]
    state = run(profile, *_cancel("E 1H"), "N P", "E 1H")
    assert state["obligations"] == [] and state["next"] == "S" and state["pending"] is None


@BOTH
def test_L31A1_repeat_not_made_td_decides(profile, ed):
    state = run(profile, *_cancel("E 1H"), "N P", "E 1S")
    assert state["pending"]["kind"] == "repeat_not_made" and options(state) == ["stand", "cancel"]
    state = run(profile, *_cancel("E 1H"), "N P", "E 1S", td("repeat_not_made", "stand"))
    assert calls(state)[-1] == "E 1S" and state["obligations"] == []


# "no" with E 2H would be the TD finding the 1H artificial; a natural 2C keeps L26A2 in play (with
# a natural 2H, hearts are specified in the legal auction: 2007 L26A1, no restriction).
@pytest.mark.parametrize("new,answer,expected,lead", [("2H", "yes", {"W": "next_turn"}, False),
                                                      ("2C", "no", {"W": "rest_of_auction"}, True)])
def test_2007_L31A2_rho_bids_same_denomination_test(new, answer, expected, lead):
    state = run("fsb-2007", *_cancel("E 1H"), "N 1S", f"E {new}", td("oot_judgement", answer))
    assert obligations(state) == expected and bool(state["lead_restrictions"]) is lead
    assert last_irregularity(state)["ruling"].endswith("2007 L31A2(a)" if answer == "yes" else "2007 L31A2(b)")


@pytest.mark.parametrize("answer,expected", [("yes", {}), ("no", {"W": "next_turn"})])
def test_2017_L31A2_rho_bids_comparable_test(answer, expected):
    state = run("dbf-2017", *_cancel("E 1H"), "N 1S", "E 2H", td("oot_judgement", answer))
    assert obligations(state) == expected
    if answer == "yes":
        assert any(r["law"] == "2017 L23C" for r in state["reviews"])


def test_2007_L31B_bid_at_partners_turn_partner_passes_rest():
    state = run("fsb-2007", *_cancel("N 1C", "W 1S"))
    assert obligations(state) == {"E": "rest_of_auction"} and leads(state)[0][:2] == ("W", "require_or_prohibit_suit")


def test_2017_L31B_bid_at_partners_turn_partner_free_then_comparable():
    state = run("dbf-2017", *_cancel("N 1C", "W 1S"))
    assert state["obligations"] == [] and state["next"] == "E"
    state = run("dbf-2017", *_cancel("N 1C", "W 1S"), "E P", "S P", "W 1S", td("oot_judgement", "no"))
    assert obligations(state) == {"E": "next_turn"} and leads(state)[0][2] == "2017 L26B"


# ---------------------------------------------------------------- Law 32: X/XX out of rotation
def test_2007_L32A_double_at_partners_turn_partner_passes_rest():
    state = run("fsb-2007", *_cancel("N 1H", "W X"))
    assert obligations(state) == {"E": "rest_of_auction"} and leads(state)
    assert last_irregularity(state)["ruling"] == "2007 L32A"


def test_2007_L32B_double_at_rhos_turn():
    state = run("fsb-2007", *_cancel("N 1H", "E P", "W X"))  # W doubles at S's turn
    assert state["next"] == "S"
    repeat = run("fsb-2007", *_cancel("N 1H", "E P", "W X"), "S P")
    assert obligations(repeat) == {"W": "repeat X"}
    active = run("fsb-2007", *_cancel("N 1H", "E P", "W X"), "S 2H")
    assert obligations(active) == {"E": "rest_of_auction"}


def test_2017_L32A_double_at_rhos_turn():
    repeat = run("dbf-2017", *_cancel("N 1H", "E P", "W X"), "S P")
    assert obligations(repeat) == {"W": "repeat X"}
    state = run("dbf-2017", *_cancel("N 1H", "E P", "W X"), "S 2H", "W X", td("oot_judgement", "no"))
    assert obligations(state) == {"E": "next_turn"}


def test_2017_L32B_double_at_partners_turn():
    state = run("dbf-2017", *_cancel("N 1H", "W X"))
    assert state["obligations"] == [] and state["next"] == "E"
    state = run("dbf-2017", *_cancel("N 1H", "W X"), "E P", "S P", "W X", td("oot_judgement", "yes"))
    assert state["obligations"] == []


# ---------------------------------------------------------------- Law 33: simultaneous calls
@BOTH
def test_L33_simultaneous_call_counts_after_the_in_turn_call(profile, ed):
    table = Table(profile, 1)
    table.apply({"t": 0, "seat": "N", "call": "1S"})
    table.apply({"t": 3.0, "seat": "S", "call": "P"})
    state = table.apply({"t": 3.2, "seat": "E", "call": "P"})
    assert calls(state) == ["N 1S", "E P", "S P"] and state["pending"] is None
    assert last_irregularity(state)["kind"] == "simultaneous_calls" and last_irregularity(state)["law"] == f"{ed} L33"


@BOTH
def test_L33_outside_the_window_is_L28B(profile, ed):
    table = Table(profile, 1)
    table.apply({"t": 0, "seat": "N", "call": "1S"})
    table.apply({"t": 3.0, "seat": "S", "call": "P"})
    state = table.apply({"t": 5.0, "seat": "E", "call": "P"})
    assert calls(state) == ["N 1S", "E P"] and last_irregularity(state)["ruling"] == f"{ed} L28B"


# ---------------------------------------------------------------- L17E2 / L17D3 + L34
@pytest.mark.parametrize("profile,law", [("fsb-2007", "2007 L17E2, L34"), ("dbf-2017", "2017 L17D3, L34")])
def test_L34_three_passes_with_one_out_of_rotation_do_not_end(profile, law):
    state = run(profile, "N 1S", "E P", "W P", "N P")
    assert state["status"] == "bidding" and state["next"] == "S"
    assert calls(state) == ["N 1S", "E P"]
    irr = last_irregularity(state)
    assert irr["law"] == law and irr["seat"] == "W" and irr["deprived"] == "S"


@BOTH
def test_L34_after_initial_pass_any_call_2017_formulation(profile, ed):
    # N P, S passes out of turn (accepted by W), N P: four passes but E never called
    state = run(profile, "N P", "S P", "W P", "N P")
    assert state["status"] == "bidding" and state["next"] == "E"


# ---------------------------------------------------------------- Law 36: inadmissible X/XX
@BOTH
def test_L36A_lho_calls_over_inadmissible_double(profile, ed):
    state = run(profile, "N 1H", "E P", "S X", "W P")
    assert calls(state) == ["N 1H", "E P"] and state["next"] == "S" and state["obligations"] == []
    assert state["lead_restrictions"] == [] and last_irregularity(state)["ruling"] == f"{ed} L36A"


@BOTH
def test_L36B_inadmissible_double_cancelled(profile, ed):
    state = run(profile, "N 1H", "E P", "S X")
    assert "accept" not in options(state)  # never accepted (L32 intro)
    state = run(profile, "N 1H", "E P", "S X", td("inadmissible_double", "cancel"))
    assert state["next"] == "S" and obligations(state) == {"N": "rest_of_auction"} and leads(state)
    assert last_irregularity(state)["ruling"] == f"{ed} L36B"


@BOTH
def test_L36B4_inadmissible_redouble_out_of_rotation(profile, ed):
    state = run(profile, "N 1H", "W XX", td("inadmissible_double", "cancel"))
    assert state["next"] == "E" and obligations(state) == {"E": "rest_of_auction"}
    assert last_irregularity(state)["ruling"] == f"{ed} L36B4"


@BOTH
def test_L36_redouble_without_double_in_turn(profile, ed):
    state = run(profile, "N 1H", "E XX")
    assert state["pending"]["kind"] == "inadmissible_double"


# ---------------------------------------------------------------- Law 37: required to pass
@BOTH
def test_L37B_call_when_required_to_pass_replaced_by_pass(profile, ed):
    # obligation: W must pass for the rest after L27B2 (both editions)
    base = ["N 1H", "E 1D", td("insufficient_bid", "replace", "1NT"), td("insufficient_bid_judgement", "none"), "S P"]
    state = run(profile, *base, "W 2C")
    assert state["pending"]["kind"] == "call_when_required_to_pass"
    state = run(profile, *base, "W 2C", td("call_when_required_to_pass", "cancel"))
    assert calls(state)[-1] == "W P" and obligations(state) == {"E": "rest_of_auction", "W": "rest_of_auction"}
    assert last_irregularity(state)["ruling"] == f"{ed} L37B"


@BOTH
def test_L37A_lho_calls_first_call_stands_obligation_continues(profile, ed):
    base = ["N 1H", "E 1D", td("insufficient_bid", "replace", "1NT"), td("insufficient_bid_judgement", "none"), "S P"]
    state = run(profile, *base, "W 2C", "N P")
    assert calls(state)[-2:] == ["W 2C", "N P"] and obligations(state) == {"W": "rest_of_auction"}
    assert last_irregularity(state)["ruling"] == f"{ed} L37A"


# ---------------------------------------------------------------- Law 38: bid above seven
@BOTH
def test_L38_bid_above_seven_cancelled(profile, ed):
    state = run(profile, "N 7S", "E 8C", td("bid_above_seven", "cancel"))
    assert calls(state) == ["N 7S", "E P"] and obligations(state) == {"E": "rest_of_auction", "W": "rest_of_auction"}
    assert leads(state)


@BOTH
def test_L38D_lho_called_no_lead_restriction(profile, ed):
    state = run(profile, "N 7S", "E 8C", "S P")
    assert calls(state) == ["N 7S", "E P"] and state["next"] == "S" and state["lead_restrictions"] == []
    assert [w["call"] for w in state["withdrawn"]] == ["8C", "P"]


# ---------------------------------------------------------------- Law 39: after the final pass
END = ["N 1NT", "E P", "S 3NT", "W P", "N P", "E P"]


@BOTH
def test_L39C_active_call_by_defender_lead_restriction(profile, ed):
    state = run(profile, *END, "W X", td("call_after_final_pass", "cancel"))
    assert state["status"] == "ended" and state["contract"] == "3NT"
    assert leads(state) and state["lead_restrictions"][0]["active"] is True
    assert last_irregularity(state)["ruling"] == f"{ed} L39C"


@BOTH
def test_L39B_call_by_declarer_or_dummy_no_further_rectification(profile, ed):
    state = run(profile, *END, "S 4S", td("call_after_final_pass", "cancel"))
    assert state["lead_restrictions"] == [] and last_irregularity(state)["ruling"] == f"{ed} L39B"
    state = run(profile, *END, "W P", td("call_after_final_pass", "cancel"))
    assert state["lead_restrictions"] == []


@BOTH
def test_L39B_lho_calls_after(profile, ed):
    state = run(profile, *END, "W X", "N XX")
    assert state["status"] == "ended" and state["contract"] == "3NT" and state["lead_restrictions"] == []


# ---------------------------------------------------------------- policies and bad events
@pytest.mark.parametrize("specs,kind", [
    (["N 1H", "E 1D"], "insufficient_bid"),
    (["N 1H", "S 2H"], "call_out_of_rotation"),
    (["N 1H", "E P", "S X"], "inadmissible_double"),
    (["N 7S", "E 8C"], "bid_above_seven"),
    (END + ["W X"], "call_after_final_pass"),
    (["N 1H", "E 1S", "E 2S"], "change_of_call"),
])
def test_prevent_policy_refuses_before_anyone_sees(specs, kind):
    table = Table("dbf-2017", 1, policy="prevent")
    for i, s in enumerate(specs[:-1]):
        seat, call = s.split()
        table.apply({"t": i, "seat": seat, "call": call})
    before = table.state()
    seat, call = specs[-1].split()
    last = {"t": 99, "seat": seat, "call": call}
    verdict = table.check(last)
    assert verdict is not None and verdict["kind"] == kind and verdict["action"] == "refuse"
    after = table.apply(last)
    assert after["refused"][-1]["kind"] == kind
    assert {k: v for k, v in after.items() if k != "refused"} == {k: v for k, v in before.items() if k != "refused"}


def test_check_returns_none_for_a_legal_call_and_changes_nothing():
    table = Table("fsb-2007", 1)
    before = table.state()
    assert table.check({"t": 0, "seat": "N", "call": "1C"}) is None
    assert table.check({"t": 0, "seat": "E", "call": "1C"})["kind"] == "call_out_of_rotation"
    assert table.state() == before


@pytest.mark.parametrize("event,match", [
    ({"t": 1, "seat": "N", "call": "1Z"}, "call must be"),
    ({"t": 1, "seat": "Q", "call": "1C"}, "seat"),
    ({"t": -1, "seat": "N", "call": "1C"}, "non-negative"),
    ({"t": 1, "call": "1C"}, "needs a seat"),
    ({"t": 1, "seat": "N"}, "exactly one"),
    ({"t": 1, "seat": "N", "call": "1C", "colour": "red"}, "unknown event field"),
    ({"t": 1, "td": "insufficient_bid", "choice": "accept"}, "no decision is pending"),
    ({"t": 1, "seat": "N", "alert": True}, "nothing|neither"),
    ("N 1C", "JSON object"),
])
def test_bad_events_are_refused_and_change_nothing(event, match):
    table = Table("fsb-2007", 1)
    before = table.state()
    with pytest.raises(EventError, match=match):
        table.apply(event)
    assert table.state() == before


def test_events_must_be_in_time_order():
    table = Table("fsb-2007", 1)
    table.apply({"t": 5, "seat": "N", "call": "1C"})
    with pytest.raises(EventError, match="time order"):
        table.apply({"t": 4, "seat": "E", "call": "P"})


@BOTH
def test_L9B2_table_frozen_while_td_decides(profile, ed):
    table = Table(profile, 1)
    for i, s in enumerate(["N 1H", "E 1D"]):
        seat, call = s.split()
        table.apply({"t": i, "seat": seat, "call": call})
    # W's call is no call now: refused at the box; in a log it is recorded and cancelled
    # (law9.py, tests/rules/test_awaiting_td.py)
    refused = table.step({"t": 3, "seat": "W", "call": "P"})
    assert isinstance(refused, Refused) and "only S may call" in refused.reason
    state = table.apply({"t": 3, "seat": "W", "call": "P"})
    assert state["irregularities"][-1]["kind"] == "call_while_awaiting_td"
    assert state["pending"]["kind"] == "insufficient_bid" and len(state["calls"]) == 1
    with pytest.raises(EventError, match="not an option"):
        table.apply({"t": 3, "td": "insufficient_bid", "choice": "b1a"})
    with pytest.raises(EventError, match="needs the call"):
        table.apply({"t": 3, "td": "insufficient_bid", "choice": "replace"})
    with pytest.raises(EventError, match="pending decision is"):
        table.apply({"t": 3, "td": "change_of_call", "choice": "cancel"})


@BOTH
def test_pending_lists_the_seats_whose_call_the_law_gives_meaning(profile, ed):
    assert run(profile, "N 1H", "E 1D")["pending"]["may_call"] == ["S", "E"]  # L27A1 acceptance, L27C
    assert run(profile, "N 1S", "S 2S")["pending"]["may_call"] == ["W", "E"]  # L29A, L28B
    assert run(profile, "N 1H", "E P", "S X")["pending"]["may_call"] == ["W"]  # L36A
    state = run("dbf-2017", "N 1S", "W P", td("call_out_of_rotation", "cancel"), "E X", "S P", "W 2H")
    assert state["pending"]["kind"] == "oot_judgement" and state["pending"]["may_call"] == []  # TD only


# ---------------------------------------------------------------- the TD answering for the LHO
@BOTH
def test_L27A1_accept_as_td_option(profile, ed):
    state = run(profile, "N 1H", "E 1D", td("insufficient_bid", "accept"))
    assert calls(state) == ["N 1H", "E 1D"] and state["next"] == "S"


@BOTH
def test_L29A_accept_as_td_option(profile, ed):
    state = run(profile, "N 1S", "S 2S", td("call_out_of_rotation", "accept"))
    assert calls(state) == ["N 1S", "S 2S"] and state["next"] == "W" and state["calls"][1]["in_rotation"] is False


@BOTH
def test_L25B1_accept_as_td_option(profile, ed):
    state = run(profile, "N 1C", "E 1D", "E 1H", td("change_of_call", "accept"))
    assert calls(state) == ["N 1C", "E 1H"] and state["next"] == "S"


@BOTH
def test_L36_with_L25A_unintended_double(profile, ed):
    state = run(profile, "N 1H", "E P", "S X", td("inadmissible_double", "unintended", "2H"))
    assert calls(state) == ["N 1H", "E P", "S 2H"] and state["obligations"] == []


@BOTH
def test_L39_unintended_final_pass_reopens(profile, ed):
    state = run(profile, *END, "E 4S")
    assert "unintended" in options(state)
    state = run(profile, *END, "E 4S", td("call_after_final_pass", "unintended", "X"))
    assert state["status"] == "bidding" and calls(state)[-1] == "E X" and state["next"] == "S"
    assert "unintended" not in options(run(profile, *END, "W X"))  # W did not make the final pass


@BOTH
def test_L37_double_by_a_player_required_to_pass(profile, ed):
    base = ["N 1H", "E 1D", td("insufficient_bid", "replace", "1NT"), td("insufficient_bid_judgement", "none"), "S 2H"]
    state = run(profile, *base, "W X")
    assert state["pending"]["kind"] == "call_when_required_to_pass"


@BOTH
def test_L28A_deemed_pass_that_would_end_the_auction(profile, ed):
    # W must pass for the rest (L27B2). After N 2C, E P, S P it is W's turn: N calling now would
    # follow W's deemed pass (L28A), but that pass is the third after 2C and ends the auction.
    base = ["N 1H", "E 1D", td("insufficient_bid", "replace", "1NT"), td("insufficient_bid_judgement", "none"),
            "S P", "W P", "N 2C", "E P", "S P"]
    assert run(profile, *base)["next"] == "W"
    state = run(profile, *base, "N 2H")
    assert state["pending"]["kind"] == "call_after_final_pass"


def test_2007_L30B2b_double_by_partner_who_may_not_double():
    state = run("fsb-2007", "N 1S", "W P", td("call_out_of_rotation", "cancel"), "E X")
    assert state["pending"]["kind"] == "restricted_call" and state["pending"]["law"] == "2007 L30B2(b)"
    stand = run("fsb-2007", "N 1S", "W P", td("call_out_of_rotation", "cancel"), "E X", td("restricted_call", "stand"))
    assert calls(stand)[-1] == "E X"
    cancel = run("fsb-2007", "N 1S", "W P", td("call_out_of_rotation", "cancel"), "E X", td("restricted_call", "cancel"))
    assert cancel["next"] == "E" and calls(cancel) == ["N 1S"]


@BOTH
def test_L38_bid_above_seven_out_of_rotation(profile, ed):
    state = run(profile, "N 1S", "S 8NT", td("bid_above_seven", "cancel"))
    assert calls(state) == ["N 1S"] and state["next"] == "E"
    assert obligations(state) == {"N": "rest_of_auction", "S": "rest_of_auction"}


@BOTH
def test_L27B_replacement_above_seven_refused(profile, ed):
    table = Table(profile, 1)
    for i, s in enumerate(["N 1H", "E 1D"]):
        seat, call = s.split()
        table.apply({"t": i, "seat": seat, "call": call})
    before = table.state()
    with pytest.raises(EventError, match="legal call"):
        table.apply({"t": 5, "td": "insufficient_bid", "choice": "replace", "call": "8C"})
    assert table.state() == before


@pytest.mark.parametrize("event,match", [
    ({"t": 1, "seat": "N", "call": "1C", "stop": "yes"}, "stop must be"),
    ({"t": 1, "seat": "N", "alert": False}, "alert must be true"),
    ({"t": 1, "seat": "N", "call": "1C", "choice": "x"}, "choice belongs"),
    ({"t": 1, "td": 5, "choice": "x"}, "td must name"),
    ({"t": 1, "td": "insufficient_bid"}, "needs a choice"),
    ({"t": 1, "td": "correct_call", "seat": "N"}, "needs the seat and the new call"),
    ({"t": 1, "td": "correct_call", "seat": "N", "call": "1C"}, "no call to correct"),
    ({"t": 1, "td": "x", "alert": True, "seat": "N"}, "cannot also be an alert"),
    ({"t": float("nan"), "seat": "N", "call": "1C"}, "non-negative"),
    ({"t": True, "seat": "N", "call": "1C"}, "non-negative"),
])
def test_more_bad_events(event, match):
    table = Table("dbf-2017", 1)
    before = table.state()
    with pytest.raises(EventError, match=match):
        table.apply(event)
    assert table.state() == before


def test_2017_L33_simultaneous_call_when_the_in_turn_call_needs_a_judgement():
    # W's pass at E's turn cancelled (2017 L30B1): W's next call will be judged for comparability.
    table = Table("dbf-2017", 1)
    for e in [{"t": 0, "seat": "N", "call": "1S"}, {"t": 1, "seat": "W", "call": "P"},
              {"t": 2, "td": "call_out_of_rotation", "choice": "cancel"},
              {"t": 3, "seat": "E", "call": "P"}, {"t": 4, "seat": "S", "call": "P"},
              {"t": 5.0, "seat": "E", "call": "2C"}]:  # E calls out of turn at W's turn...
        state = table.apply(e)
    assert state["pending"]["kind"] == "call_out_of_rotation"
    state = table.apply({"t": 5.2, "seat": "W", "call": "2H"})  # ...simultaneously with W
    assert state["pending"]["kind"] == "oot_judgement" and calls(state)[-1] == "W 2H"
    assert state["withdrawn"][-1]["call"] == "2C" and state["withdrawn"][-1]["law"] == "2017 L33"
