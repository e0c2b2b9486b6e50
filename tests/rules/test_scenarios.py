"""Worked club scenarios T1-T18, each for the 2007 (fsb-2007) and 2017 (dbf-2017)
column. Dealer N (board 1) unless stated."""
import pytest

from shared_rules.table import EventError, Table
from tests.rules.helpers import calls, last_irregularity, logged, obligations, options, run, step, td

E07, E17 = "fsb-2007", "dbf-2017"
CANCEL = td("call_out_of_rotation", "cancel")


# T1 -- N 1H, E 1D (insufficient)
@pytest.mark.parametrize("profile", [E07, E17])
def test_T1_L27A1_accepted_by_south(profile):
    state = run(profile, "N 1H", "E 1D", "S P")
    assert calls(state) == ["N 1H", "E 1D", "S P"] and state["next"] == "W"


@pytest.mark.parametrize("profile,law", [(E07, "2007 L27B1(a)"), (E17, "2017 L27B1(a)")])
def test_T1_L27B1a_2D_no_rectification(profile, law):
    state = run(profile, "N 1H", "E 1D", td("insufficient_bid", "replace", "2D"), td("insufficient_bid_judgement", "b1a"))
    assert state["obligations"] == [] and state["next"] == "S" and last_irregularity(state)["ruling"] == law


@pytest.mark.parametrize("profile", [E07, E17])
@pytest.mark.parametrize("replacement", ["1NT", "2C", "P"])
def test_T1_L27B2_west_passes_rest(profile, replacement):
    state = run(profile, "N 1H", "E 1D", td("insufficient_bid", "replace", replacement), td("insufficient_bid_judgement", "none"))
    assert obligations(state) == {"W": "rest_of_auction"} and state["next"] == "S"
    assert state["lead_restrictions"][0]["offender"] == "E"


@pytest.mark.parametrize("profile,b1b", [(E07, "2007 L27B1(b)"), (E17, "2017 L27B1(b), L23A")])
def test_T1_double_allowed_only_if_same_meaning_or_comparable(profile, b1b):
    ok = run(profile, "N 1H", "E 1D", td("insufficient_bid", "replace", "X"), td("insufficient_bid_judgement", "b1b"))
    assert calls(ok)[-1] == "E X" and last_irregularity(ok)["ruling"] == b1b
    cancelled = run(profile, "N 1H", "E 1D", td("insufficient_bid", "replace", "X"), td("insufficient_bid_judgement", "none"))
    assert cancelled["next"] == "E" and obligations(cancelled) == {"E": "no_double", "W": "rest_of_auction"}


# T2 -- E passes before dealer N has called
@pytest.mark.parametrize("profile", [E07, E17])
def test_T2_L30A_not_accepted_east_passes_next_turn(profile):
    state = run(profile, "E P", CANCEL)
    assert state["next"] == "N" and obligations(state) == {"E": "next_turn"}
    assert last_irregularity(state)["ruling"].endswith("L30A")
    state = run(profile, "E P", CANCEL, "N 1C", "E P", "S P", "W 1H", "N P")
    assert state["obligations"] == [] and "1S" in state["legal_calls"]  # only once (CS07)


@pytest.mark.parametrize("profile", [E07, E17])
def test_T2_L29A_south_calls_first_accepts(profile):
    state = run(profile, "E P", "S 1C")
    assert calls(state) == ["E P", "S 1C"] and state["next"] == "W"


@pytest.mark.parametrize("profile", [E07, E17])
def test_T2_L28B_north_calls_first(profile):
    state = run(profile, "E P", "N 1C")
    assert calls(state) == ["N 1C"] and state["next"] == "E" and state["obligations"] == []
    assert last_irregularity(state)["ruling"].endswith("L28B")


# T3 -- N 1S; at E's turn W passes
def test_T3_2007_L30B2_west_rest_east_no_double():
    state = run(E07, "N 1S", "W P", CANCEL)
    assert state["next"] == "E" and obligations(state) == {"E": "no_double", "W": "rest_of_auction"}
    assert "X" not in state["legal_calls"]


def test_T3_2017_L30B1_east_free_then_comparable_test():
    state = run(E17, "N 1S", "W P", CANCEL)
    assert "X" in state["legal_calls"] and state["obligations"] == []
    state = run(E17, "N 1S", "W P", CANCEL, "E X", "S P", "W 2H", td("oot_judgement", "no"))
    assert obligations(state) == {"E": "next_turn"}
    assert state["lead_restrictions"][0]["law"] == "2017 L26B"


# T4 -- E opens 1H before N; not accepted
@pytest.mark.parametrize("profile", [E07, E17])
def test_T4_L31A1_north_passes_east_repeats(profile):
    state = run(profile, "E 1H", CANCEL, "N P", "E 1H")
    assert calls(state) == ["N P", "E 1H"] and state["obligations"] == [] and state["lead_restrictions"] == []


def test_T4_2007_L31A2_hearts_partner_once_else_rest():
    once = run(E07, "E 1H", CANCEL, "N 1S", "E 2H", td("oot_judgement", "yes"))
    assert obligations(once) == {"W": "next_turn"}
    rest = run(E07, "E 1H", CANCEL, "N 1S", "E 1NT", td("oot_judgement", "no"))
    assert obligations(rest) == {"W": "rest_of_auction"} and rest["lead_restrictions"]


def test_T4_2017_L31A2_comparable_nothing_else_partner_once():
    none = run(E17, "E 1H", CANCEL, "N 1S", "E 2H", td("oot_judgement", "yes"))
    assert none["obligations"] == [] and none["lead_restrictions"] == []
    once = run(E17, "E 1H", CANCEL, "N 1S", "E 1NT", td("oot_judgement", "no"))
    assert obligations(once) == {"W": "next_turn"}


# T5 -- N 1C; at E's turn W bids 1S
def test_T5_2007_L31B_east_passes_rest():
    state = run(E07, "N 1C", "W 1S", CANCEL)
    assert obligations(state) == {"E": "rest_of_auction"} and state["legal_calls"] == ["P"]


def test_T5_2017_L31B_east_free_west_then_tested():
    state = run(E17, "N 1C", "W 1S", CANCEL)
    assert state["obligations"] == [] and len(state["legal_calls"]) > 1
    state = run(E17, "N 1C", "W 1S", CANCEL, "E P", "S 1H", "W 1S")
    assert state["pending"]["kind"] == "oot_judgement"


# T6 -- N 1H; at E's turn W doubles
def test_T6_2007_L32A_east_passes_rest():
    state = run(E07, "N 1H", "W X", CANCEL)
    assert obligations(state) == {"E": "rest_of_auction"}


def test_T6_2017_L32B_east_free():
    state = run(E17, "N 1H", "W X", CANCEL)
    assert state["obligations"] == [] and "X" in state["legal_calls"]


# T7 -- N 1H, E P, S doubles partner's bid
@pytest.mark.parametrize("profile", [E07, E17])
def test_T7_L36A_and_L36B(profile):
    a = run(profile, "N 1H", "E P", "S X", "W P")
    assert calls(a) == ["N 1H", "E P"] and a["next"] == "S" and a["lead_restrictions"] == []
    b = run(profile, "N 1H", "E P", "S X", td("inadmissible_double", "cancel"))
    assert obligations(b) == {"N": "rest_of_auction"} and b["next"] == "S"


# T8 -- continuing T3 (2007): W under pass-for-the-rest; E 2H, S P, W 3H
def test_T8_2007_L37A_north_calls_first_everything_stands():
    state = run(E07, "N 1S", "W P", CANCEL, "E 2H", "S P", "W 3H", "N P")
    assert calls(state)[-2:] == ["W 3H", "N P"] and obligations(state)["W"] == "rest_of_auction"
    assert state["lead_restrictions"] == []


def test_T8_2007_L37B_cancelled_both_pass_rest():
    state = run(E07, "N 1S", "W P", CANCEL, "E 2H", "S P", "W 3H", td("call_when_required_to_pass", "cancel"))
    assert calls(state)[-1] == "W P" and obligations(state) == {"E": "rest_of_auction", "W": "rest_of_auction"}
    assert state["lead_restrictions"]


def test_T8_2017_L37_with_an_L27B2_obligation():
    base = ["N 1H", "E 1D", td("insufficient_bid", "replace", "2C"), td("insufficient_bid_judgement", "none"), "S P"]
    a = run(E17, *base, "W 3C", "N P")
    assert calls(a)[-2:] == ["W 3C", "N P"] and last_irregularity(a)["ruling"] == "2017 L37A"
    b = run(E17, *base, "W 3C", td("call_when_required_to_pass", "cancel"))
    assert obligations(b) == {"E": "rest_of_auction", "W": "rest_of_auction"}


# T9 -- N 1S, E P, W P (at S's turn), N P
@pytest.mark.parametrize("profile", [E07, E17])
def test_T9_L34_auction_not_over_back_to_south(profile):
    state = run(profile, "N 1S", "E P", "W P", "N P")
    assert state["status"] == "bidding" and state["next"] == "S" and calls(state) == ["N 1S", "E P"]
    assert [w["call"] for w in state["withdrawn"]] == ["P", "P"]


# T10 -- final pass, then W doubles
@pytest.mark.parametrize("profile,law", [(E07, "2007 L39C"), (E17, "2017 L39C")])
def test_T10_L39(profile, law):
    end = ["N 1NT", "E P", "S 3NT", "W P", "N P", "E P"]
    state = run(profile, *end, "W X", td("call_after_final_pass", "cancel"))
    assert state["lead_restrictions"][0]["law"] == f"{law[:4]} L26B"  # X names no suit
    assert state["lead_restrictions"][0]["active"] is True  # W defends 3NT by N
    assert last_irregularity(state)["ruling"] == law
    dummy = run(profile, *end, "S 4S", td("call_after_final_pass", "cancel"))
    assert dummy["lead_restrictions"] == [] and dummy["contract"] == "3NT"


# T11 -- E's box registers 1D, E meant 1H
@pytest.mark.parametrize("profile", [E07, E17])
def test_T11_L25A_mis_press_corrected_south_may_call_again(profile):
    state = run(profile, "N 1C", "E 1D", "S 1S", {"td": "correct_call", "seat": "E", "call": "1H"})
    assert calls(state) == ["N 1C", "E 1H"] and state["next"] == "S" and state["lead_restrictions"] == []
    assert state["withdrawn"][0]["law"] in ("2007 L25A4, FSB L112D", "2017 L25A6")


# T12 -- E bids 1H then changes his mind to 1S before S calls
@pytest.mark.parametrize("profile", [E07, E17])
def test_T12_L25B(profile):
    accepted = run(profile, "N P", "E 1H", "E 1S", "S P")
    assert calls(accepted) == ["N P", "E 1S", "S P"]
    cancelled = run(profile, "N P", "E 1H", "E 1S", td("change_of_call", "cancel"))
    assert calls(cancelled) == ["N P", "E 1H"]


# T13 -- failure to alert a transfer; W may change his last pass (L21B1)
@pytest.mark.parametrize("profile", [E07, E17])
def test_T13_L21B1_change_after_misinformation(profile):
    auction = ["N 1NT", "E P", "S 2D", "W P", "N 2H", "E P", "S P", "W P"]
    state = run(profile, *auction)
    assert state["status"] == "ended"
    state = run(profile, *auction, {"td": "misinformation_change", "seat": "W", "call": "X"})
    assert state["status"] == "bidding" and calls(state)[-1] == "W X" and state["next"] == "N"
    assert last_irregularity(state)["ruling"].endswith("L21B1")
    assert any("L21B3" in r["law"] for r in state["reviews"])


def test_T13_earlier_pass_cannot_be_changed_once_partner_called():
    table = Table(E07, 1)
    for i, s in enumerate(["N 1NT", "E P", "S 2D", "W P", "N 2H", "E P"]):
        seat, call = s.split()
        step(table, {"t": i, "seat": seat, "call": call})
    with pytest.raises(EventError, match="too late"):
        step(table, {"t": 9, "td": "misinformation_change", "seat": "W", "call": "X"})


# T14 -- FSB stop calls
@pytest.mark.parametrize("auction,stop_call", [
    (["N 2S"], True), (["N 1H", "E P", "S 3H"], True), (["N 1H", "E 2S"], True), (["N 1H", "E P", "S 2H"], False),
])
def test_T14_FSB_L116B_stop_calls(auction, stop_call):
    state = run(E07, *auction)
    assert bool([t for t in state["timing"] if t["kind"] == "stop_missing"]) is stop_call
    assert not [t for t in run(E17, *auction)["timing"] if t["kind"] == "stop_missing" and auction == ["N 2S"]]


# T15 -- FSB alert cut-off at 4C
def test_T15_FSB_L115B_alerts():
    stayman = run(E07, "N 1NT", "E P", "S 2C", "N !")
    assert stayman["timing"] == [] and stayman["calls"][2]["alerted"]
    # the tablet refuses the alert the cut-off forbids (step); a log of it reports it
    transfer = logged(E07, "N 1NT", "E P", "S 4D stop", "N !")
    assert [t["kind"] for t in transfer["timing"]] == ["alert_not_permitted"]
    with pytest.raises(EventError, match="alert not permitted"):
        run(E07, "N 1NT", "E P", "S 4D stop", "N !")
    assert [t["kind"] for t in run(E17, "N 1NT", "E P", "S 4D stop", "N !")["timing"]] == []


# T16 -- W required to pass; N calls without waiting
@pytest.mark.parametrize("profile", [E07, E17])
def test_T16_L28A_deemed_pass(profile):
    base = ["N 1H", "E 1D", td("insufficient_bid", "replace", "2C"), td("insufficient_bid_judgement", "none"), "S P"]
    state = run(profile, *base, "N 2H")
    assert calls(state)[-2:] == ["W P", "N 2H"] and state["calls"][-2]["deemed"] and state["pending"] is None


# T17 -- passed out; W's last pass a mis-press
@pytest.mark.parametrize("profile", [E07, E17])
def test_T17_L25A_until_end_of_auction_period(profile):
    state = run(profile, "N P", "E P", "S P", "W P", {"td": "correct_call", "seat": "W", "call": "1S"})
    assert state["status"] == "bidding" and calls(state)[-1] == "W 1S"


# T18 -- dealer N; W passes first
def test_T18_2007_L30A():
    state = run(E07, "W P", CANCEL)
    assert obligations(state) == {"W": "next_turn"} and state["next"] == "N"


def test_T18_2017_L30B1():
    state = run(E17, "W P", CANCEL)
    assert state["obligations"] == []
    state = run(E17, "W P", CANCEL, "N P", "E P", "S P", "W 1S", td("oot_judgement", "no"))
    assert obligations(state) == {"E": "next_turn"}


@pytest.mark.parametrize("profile", [E07, E17])
def test_T18_north_is_both_lho_and_in_turn_counts_as_acceptance(profile):
    # docs/laws/choices.md #3: the law is ambiguous; the engine reads N's call as L29A acceptance (docs)
    state = run(profile, "W P", "N 1C")
    assert calls(state) == ["W P", "N 1C"] and options(state) == []
