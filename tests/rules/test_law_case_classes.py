"""The classes of misses found by law cases written by others from the law texts (independently of
the engine) and replayed with `python -m shared_rules replay`: one test per class and edition,
named after the Law (docs/laws/choices.md quotes the texts where a reading was needed).
"""
import pytest

from shared_rules.table import Table
from tests.rules.helpers import calls, last_irregularity, obligations, options, run, td

BOTH = pytest.mark.parametrize("profile,ed", [("fsb-2007", "2007"), ("dbf-2017", "2017")])


def leads(state):
    return [(lr["offender"], lr["kind"], lr["law"], lr["suits"], lr["withdrawn"])
            for lr in state["lead_restrictions"]]


def artificial(state_specs):
    return [*state_specs, td("call_out_of_rotation", "cancel_artificial")]


# ---------------------------------------------------------------- 2007 L31A2(b): an artificial pass
@pytest.mark.parametrize("later", ["P", "1NT", "2S"])
def test_2007_L31A2b_artificial_pass_at_rhos_turn_partner_passes_for_the_rest_whatever_follows(later):
    # Board 1, dealer N. E passes out of rotation at N's (his RHO's) turn; the TD finds the pass
    # artificial (L30C -> L31). N opens: "om budet utom tur var ett artificiellt pass ... Den
    # felandes partner måste passa under resten av budgivningen" (2007 L31A2(b)), whatever E calls.
    state = run("fsb-2007", *artificial(["E P"]), "N 1S")
    assert obligations(state) == {"W": "rest_of_auction"}
    state = run("fsb-2007", *artificial(["E P"]), "N 1S", f"E {later}")
    assert state["pending"] is None and state["status"] == "bidding"
    assert obligations(state) == {"W": "rest_of_auction"}
    assert last_irregularity(state)["ruling"] == "2007 L31A; 2007 L31A2(b)"
    # a pass relates to no suit: 2007 L26B, declarer may prohibit any one suit
    assert leads(state) == [("E", "prohibit_any_suit", "2007 L26B", ["C", "D", "H", "S"], "P")]


def test_2007_L31A2b_pass_of_partners_artificial_call_partner_passes_for_the_rest():
    # N 2C (artificial); S passes at E's turn (his RHO's): a pass of partner's artificial call.
    state = run("fsb-2007", "N 2C", *artificial(["S P"]), "E 2H", "S 3C")
    assert state["pending"] is None and obligations(state) == {"N": "rest_of_auction"}
    assert last_irregularity(state)["ruling"].endswith("2007 L31A2(b)")


def test_2007_L31A1_artificial_pass_at_rhos_turn_rho_passes_the_pass_is_repeated():
    state = run("fsb-2007", *artificial(["E P"]), "N P")
    assert obligations(state) == {"E": "repeat P"}
    state = run("fsb-2007", *artificial(["E P"]), "N P", "E P")
    assert state["obligations"] == [] and state["lead_restrictions"] == []


def test_2017_L31A2_artificial_pass_at_rhos_turn_is_still_judged_comparable():
    # 2017 L31A2 has no exception for an artificial pass: the comparable-call question stays.
    state = run("dbf-2017", *artificial(["E P"]), "N 1S", "E P")
    assert state["pending"]["kind"] == "oot_judgement" and options(state) == ["yes", "no"]


# ---------------------------------------------------------------- 2007 L27B4 / L26: the first insufficient bid
def _twice_insufficient(*replacements):
    # N 1S, E 1C (insufficient); E tries 1D (insufficient again, L27B4), S does not accept.
    return ["N 1S", "E 1C", td("insufficient_bid", "replace", "1D"), *replacements]


def test_2007_L27B4_L26_the_first_insufficient_bid_is_the_withdrawn_call():
    # E finally bids 2D: the call replaced is 1C ("ändra det otillräckliga kontraktbudet", L27B4 ->
    # B3); E never bids clubs, so L26A2 on clubs. Weighing the cancelled 1D instead would find
    # diamonds specified by E (2D) and lift the restriction (L26A1).
    state = run("fsb-2007", *_twice_insufficient(td("insufficient_bid", "replace", "2D")), "S 2S", "W P", "N P",
                "E P")
    assert state["status"] == "ended" and state["declarer"] == "N"
    assert obligations(state) == {"W": "rest_of_auction"}
    assert leads(state) == [("E", "require_or_prohibit_suit", "2007 L26A2", ["C"], "1C")]
    assert state["lead_restrictions"][0]["active"] is True and state["lead_restrictions_lifted"] == []


def test_2007_L27C_L27B4_early_replacements_weigh_the_first_insufficient_bid():
    # The same, with E's replacements made before the TD ruled (L27C).
    state = run("fsb-2007", "N 1S", "E 1C", "E 1D", "E 2D", "S 2S", "W P", "N P", "E P")
    assert leads(state) == [("E", "require_or_prohibit_suit", "2007 L26A2", ["C"], "1C")]


def test_2017_L27B4_L26B_names_the_first_insufficient_bid():
    state = run("dbf-2017", *_twice_insufficient(td("insufficient_bid", "replace", "2D")), "S 2S", "W P", "N P",
                "E P")
    assert leads(state) == [("E", "prohibit_unshown_suit", "2017 L26B", ["C", "H", "S"], "1C")]


def test_2007_L27B3_the_cancelled_double_is_not_weighed_for_law_26():
    # N 1S, E 1H, E tries X: cancelled (L27B3); E bids 2C. The withdrawn call is 1H (hearts, not
    # specified by E: L26A2), not the double (which would give L26B, any suit).
    state = run("fsb-2007", "N 1S", "E 1H", td("insufficient_bid", "replace", "X"),
                td("insufficient_bid_judgement", "none"), "E 2C", "S 2S", "W P", "N P", "E P")
    assert leads(state) == [("E", "require_or_prohibit_suit", "2007 L26A2", ["H"], "1H")]


# ---------------------------------------------------------------- 2017 L26B: every suit shown
def test_2017_L26B_offender_has_shown_every_suit_nothing_to_prohibit():
    # N's 1D is insufficient, replaced by 2D (B2): S passes for the rest. N later bids hearts and
    # spades: he has shown all four suits ("en farve, som den fejlende ikke har vist"): no suit is
    # left for declarer to prohibit, so there is no restriction.
    specs = ["N 1C", "E P", "S 1H", "W P", "N 1D", td("insufficient_bid", "replace", "2D"),
             td("insufficient_bid_judgement", "none"), "E 2H", "S P", "W P", "N 2S", "E 3H", "S P", "W P",
             "N 4H", "E 5D", "S P", "W P", "N P"]
    state = run("dbf-2017", *specs)
    assert state["status"] == "ended" and state["declarer"] == "E"
    assert state["lead_restrictions"] == []
    [lifted] = state["lead_restrictions_lifted"]
    assert lifted["offender"] == "N" and lifted["suits"] == [] and lifted["kind"] == "none"
    assert lifted["law"] == "2017 L26B"


def test_2017_L26B_a_suit_left_unshown_is_still_prohibited():
    specs = ["N 1C", "E P", "S 1H", "W P", "N 1D", td("insufficient_bid", "replace", "2D"),
             td("insufficient_bid_judgement", "none"), "E 2H", "S P", "W P", "N 2S", "E 3H", "S P", "W P",
             "N P"]
    state = run("dbf-2017", *specs)
    assert leads(state) == [("N", "prohibit_unshown_suit", "2017 L26B", ["H"], "1D")]


# ---------------------------------------------------------------- L24: cards exposed in separate findings
def exposed(seat, *cards):
    return {"td": "exposed_cards", "seat": seat, "cards": list(cards)}


@BOTH
def test_L24C_two_low_cards_in_separate_findings_count_together(profile, ed):
    # 2007 L24C "Om två eller fler kort visats", 2017 L24C "Hvis to eller flere kort er vist": the
    # cards a player has exposed, not the cards of one finding.
    state = run(profile, "N 1H", exposed("E", "S9"))
    assert state["obligations"] == []
    state = run(profile, "N 1H", exposed("E", "S9"), exposed("E", "C2"))
    assert state["obligations"] == [{"seat": "W", "must_pass": "next_turn", "law": f"{ed} L24C"}]
    irr = last_irregularity(state)
    assert irr["ruling"] == f"{ed} L24C" and irr["resolution"] == "partner_passes_next_turn"
    assert irr["cards"] == ["C2"] and irr["exposed_before"] == ["S9"]
    assert [c["law"] for c in state["exposed_cards"]] == [f"{ed} L24A", f"{ed} L24C"]


@BOTH
def test_L24C_the_second_card_after_partners_forced_pass_forces_another(profile, ed):
    state = run(profile, "N 1H", exposed("E", "SK"), "E P", "S 1S", "W P", "N 2H", exposed("E", "D4"))
    assert obligations(state) == {"W": "next_turn"} and last_irregularity(state)["ruling"] == f"{ed} L24C"


@BOTH
def test_L24_cards_of_different_players_are_judged_apart(profile, ed):
    state = run(profile, "N 1H", exposed("E", "S9"), exposed("W", "C2"))
    assert state["obligations"] == [] and last_irregularity(state)["ruling"] == f"{ed} L24A"


# ---------------------------------------------------------------- L33: simultaneous calls
def _table(profile, *events):
    table = Table(profile, 1)
    state = table.state()
    for e in events:
        state = table.apply(e)
    return state


@BOTH
def test_L33_a_double_made_with_the_in_turn_call_counts_after_it(profile, ed):
    # N 1S; S doubles (of his partner's bid: inadmissible if it came first) as E bids 2H: the double
    # counts after 2H, where it is S's own turn and a double of an opponent's bid.
    state = _table(profile, {"t": 0, "seat": "N", "call": "1S"}, {"t": 3.0, "seat": "S", "call": "X"},
                   {"t": 3.2, "seat": "E", "call": "2H"})
    assert calls(state) == ["N 1S", "E 2H", "S X"] and state["pending"] is None
    assert [i["kind"] for i in state["irregularities"]] == ["simultaneous_calls"]
    assert last_irregularity(state)["law"] == f"{ed} L33" and state["obligations"] == []


@BOTH
def test_L33_a_second_call_made_with_the_lhos_call_is_not_a_change_he_accepted(profile, ed):
    # N 1S; N calls 2S as E passes: E's pass is first (L33), it accepts no change of call (2007 L25B1
    # "avsiktligt", 2017 L25B1 "forsætligt"); N's 2S comes at S's turn: a call out of rotation.
    state = _table(profile, {"t": 0, "seat": "N", "call": "1S"}, {"t": 3.0, "seat": "N", "call": "2S"},
                   {"t": 3.1, "seat": "E", "call": "P"})
    assert calls(state) == ["N 1S", "E P"]
    assert state["pending"]["kind"] == "call_out_of_rotation" and state["pending"]["seat"] == "N"
    assert [i["kind"] for i in state["irregularities"]] == ["simultaneous_calls", "call_out_of_rotation"]


@BOTH
def test_L33_an_insufficient_in_turn_call_is_still_first(profile, ed):
    # S bids 2S at E's turn as E bids 1H (insufficient): E's bid is first and the TD is needed; S's
    # call, made while the TD is needed, is withdrawn (docs/laws/choices.md #24).
    state = _table(profile, {"t": 0, "seat": "N", "call": "1S"}, {"t": 3.0, "seat": "S", "call": "2S"},
                   {"t": 3.1, "seat": "E", "call": "1H"})
    assert state["pending"]["kind"] == "insufficient_bid" and state["pending"]["seat"] == "E"
    assert [i["kind"] for i in state["irregularities"]] == ["simultaneous_calls", "insufficient_bid"]
    assert state["withdrawn"][-1]["call"] == "2S" and state["withdrawn"][-1]["law"] == f"{ed} L33"


@BOTH
def test_L33_the_window_is_the_profiles(profile, ed):
    window = Table(profile, 1).profile.simultaneous_window_s
    state = _table(profile, {"t": 0, "seat": "N", "call": "1S"}, {"t": 3.0, "seat": "S", "call": "X"},
                   {"t": 3.0 + window, "seat": "E", "call": "2H"})
    assert calls(state) == ["N 1S", "E 2H", "S X"]
    state = _table(profile, {"t": 0, "seat": "N", "call": "1S"}, {"t": 3.0, "seat": "S", "call": "X"},
                   {"t": 3.0 + window + 0.01, "seat": "E", "call": "2H"})
    assert calls(state) == ["N 1S", "E 2H"] and "L28B" in state["irregularities"][0]["ruling"]


@BOTH
def test_L33_L28A_the_pass_of_a_player_who_must_pass_made_with_his_lhos_call_is_that_pass(profile, ed):
    # W must pass (L27B2). At W's turn N calls: W's pass is deemed made (L28A). W's own pass, made
    # at the same moment, is the call in turn that N's call follows (L33): it is the pass the engine
    # deemed made, not a second pass out of rotation.
    start = [{"t": 0, "seat": "N", "call": "1S"}, {"t": 1, "seat": "E", "call": "1H"},
             {"t": 2, "td": "insufficient_bid", "choice": "replace", "call": "2H"},
             {"t": 3, "td": "insufficient_bid_judgement", "choice": "none"}, {"t": 4, "seat": "S", "call": "2S"},
             {"t": 5.0, "seat": "N", "call": "3S"}]
    state = _table(profile, *start, {"t": 5.1, "seat": "W", "call": "P"})
    assert calls(state) == ["N 1S", "E 2H", "S 2S", "W P", "N 3S"] and state["pending"] is None
    assert state["next"] == "E" and "deemed" not in state["calls"][3]
    assert last_irregularity(state)["kind"] == "simultaneous_calls" and last_irregularity(state)["call"] == "3S"
    state = _table(profile, *start, {"t": 9.0, "seat": "W", "call": "P"})  # later: out of rotation
    assert state["pending"]["kind"] == "call_out_of_rotation"


# ---------------------------------------------------------------- 2007 L15C: a repeated call differs
def test_2007_L15C_a_differing_repeated_call_asks_the_td_to_cancel_the_board():
    # "Om något bud skiljer sig åt från motsvarande bud i den första budgivningen, skall
    # tävlingsledaren stryka brickan" (2007 L15C): the engine offers it at once.
    state = run("fsb-2007", "N 1H", "E 1S", {"td": "wrong_board"}, "N 1H", "E 2S")
    assert state["status"] == "awaiting_td"
    pending = state["pending"]
    assert pending["kind"] == "wrong_board_repeat" and pending["asks"] == "td" and pending["seat"] == "E"
    # the other choice is the engine's reading for a newly seated player (docs/laws/choices.md #26)
    assert [(o["id"], o["law"]) for o in pending["options"]] == [("cancel", "2007 L15C"), ("stand", "2007 L15C")]
    assert "newly seated" in pending["options"][1]["label"]
    state = run("fsb-2007", "N 1H", "E 1S", {"td": "wrong_board"}, "N 1H", "E 2S", td("wrong_board_repeat", "cancel"))
    assert state["status"] == "adjusted_score" and state["adjusted_score"]["kind"] == "artificial"
    assert state["adjusted_score"]["law"] == "2007 L15C" and state["wrong_board"]["outcome"] == "board_cancelled"
    assert last_irregularity(state)["resolution"] == "board_cancelled"


def test_2007_L15C_the_td_may_let_a_new_players_call_stand():
    state = run("fsb-2007", "N 1H", "E 1S", {"td": "wrong_board"}, "N 1H", "E 2S", td("wrong_board_repeat", "stand"),
                "S 3H", "W P")
    assert state["status"] == "bidding" and state["pending"] is None  # no question on every later call
    assert calls(state) == ["N 1H", "E 2S", "S 3H", "W P"]
    assert last_irregularity(state)["resolution"] == "stands" and state["adjusted_score"] is None


def test_2007_L15C_the_same_calls_raise_nothing():
    state = run("fsb-2007", "N 1H", "E 1S", {"td": "wrong_board"}, "N 1H", "E 1S", "S 2H")
    assert state["pending"] is None and state["status"] == "bidding"


def test_2007_L15C_the_cancel_board_event_still_answers_it():
    state = run("fsb-2007", "N 1H", "E 1S", {"td": "wrong_board"}, "N 1H", "E 2S", {"td": "cancel_board"})
    assert state["status"] == "adjusted_score" and state["adjusted_score"]["law"] == "2007 L15C"


# ---------------------------------------------------------------- FSB L112C with L33: two boxes at once
def test_FSB_L112C_L33_each_box_confirms_its_own_taken_card():
    # fsb-2007: the card taken out is the call (FSB L112C); the box's confirmation after it is the
    # same call. Two boxes taking cards at nearly the same moment confirm in any order.
    state = _table("fsb-2007", {"t": 0, "seat": "N", "call": "1S", "taken": True},
                   {"t": 0.3, "seat": "E", "call": "P", "taken": True},
                   {"t": 0.5, "seat": "N", "call": "1S"}, {"t": 0.6, "seat": "E", "call": "P"})
    assert calls(state) == ["N 1S", "E P"] and state["irregularities"] == [] and state["next"] == "S"
    # S takes a pass out at E's turn as E takes his: L33 puts E's first; both confirm afterwards
    state = _table("fsb-2007", {"t": 0, "seat": "N", "call": "1S", "taken": True}, {"t": 0.1, "seat": "N", "call": "1S"},
                   {"t": 3.0, "seat": "S", "call": "P", "taken": True}, {"t": 3.1, "seat": "E", "call": "P", "taken": True},
                   {"t": 3.2, "seat": "S", "call": "P"}, {"t": 3.3, "seat": "E", "call": "P"})
    assert calls(state) == ["N 1S", "E P", "S P"] and state["pending"] is None and state["next"] == "W"
    assert [i["kind"] for i in state["irregularities"]] == ["simultaneous_calls"]
