"""Auction situations the engine once got wrong, each named after the Law it applies.

Board 1: North deals. Every test here failed before its fix; the comment says what happened.
"""
import pytest

from shared_rules.outcome import Refused
from shared_rules.table import EventError, Table

from .helpers import calls, ev, obligations, options, run, td

BOTH = [("fsb-2007", "2007"), ("dbf-2017", "2017")]


def kinds(state, seat=None):
    return [x["kind"] for x in state["timing"] if seat is None or x["seat"] == seat]


# ---------------------------------------------------------------- L37A: a used next-turn obligation
@pytest.mark.parametrize("profile,ed", BOTH)
def test_L37A_next_turn_obligation_is_used_by_the_condoned_call(profile, ed):
    # E passes out of rotation at N's turn (L30A: E passes at his next turn). E bids 1H at that
    # turn instead, S calls over it (L37A: the 1H stands). E's next turn is free: the obligation
    # was for one turn and that turn is gone. (It stayed alive and E's 2H was an irregularity.)
    state = run(profile, "E P", td("call_out_of_rotation", "cancel"), "N 1C", "E 1H", "S 1S", "W P", "N P",
                "E 2H")
    assert state["pending"] is None and calls(state)[-1] == "E 2H"
    assert obligations(state) == {} and state["next"] == "S"
    assert state["irregularities"][-1]["resolution"] == "stands"
    assert state["irregularities"][-1]["ruling"] == f"{ed} L37A"


def test_2007_L37A_rest_of_auction_obligation_survives_the_condoned_call():
    # W passes at his partner's turn after a bid (2007 L30B2(a): W passes for the rest). His 1H is
    # condoned by N's call; at his next turn he must still pass ("måste han fortfarande passa").
    state = run("fsb-2007", "N 1C", "W P", td("call_out_of_rotation", "cancel"), "E 1D", "S P", "W 1H", "N 1S",
                "E P", "S P")
    assert obligations(state) == {"W": "rest_of_auction"}
    table = Table("fsb-2007", 1)
    for i, spec in enumerate(["N 1C", "W P", td("call_out_of_rotation", "cancel"), "E 1D", "S P", "W 1H", "N 1S",
                              "E P", "S P", "W 2H"]):
        state = table.apply(ev(spec, float(i)))
    assert state["pending"]["kind"] == "call_when_required_to_pass"


# ---------------------------------------------------------------- L28A: deemed pass, then an irregular call
def _w_must_pass(*more):
    # E redoubles inadmissibly; cancelled (L36B): W passes for the rest of the auction.
    return ("N 1C", "E XX", td("inadmissible_double", "cancel"), *more)


@pytest.mark.parametrize("profile,ed", BOTH)
def test_L28A_deemed_pass_is_kept_when_the_call_after_it_is_insufficient(profile, ed):
    # N calls 1D at W's turn; W must pass, so his pass is deemed made (L28A) and N's 1D is an
    # insufficient bid in turn, which E accepts. The deemed pass was lost, and W later showed as a
    # "deprived" player (L17E2/L17D3) with the passes after him cancelled.
    state = run(profile, *_w_must_pass("E 1H", "S P", "N 1D", "E P"))
    assert calls(state) == ["N 1C", "E 1H", "S P", "W P", "N 1D", "E P"]
    assert state["calls"][3]["deemed"] is True and state["next"] == "S"
    assert state["calls"][3]["deemed_law"] == f"{ed} L28A"
    assert [i["kind"] for i in state["irregularities"]] == ["inadmissible_double", "insufficient_bid"]
    assert state["irregularities"][-1]["ruling"] == f"{ed} L27A1"


@pytest.mark.parametrize("profile,ed", BOTH)
def test_L28A_deemed_pass_that_ends_the_auction_ends_it(profile, ed):
    # E P, S P, and W (who must pass) would make the third pass: N's 1H at W's turn comes after
    # the final pass (L39). Cancelled, the auction stays ended in 1C by N; it used to go on.
    table = Table(profile, 1)
    for i, spec in enumerate(_w_must_pass("E P", "S P", "N 1H")):
        state = table.apply(ev(spec, float(i)))
    assert state["pending"]["kind"] == "call_after_final_pass" and state["calls"][-1]["deemed"] is True
    state = table.apply(ev(td("call_after_final_pass", "cancel"), 9.0))
    assert state["status"] == "ended" and state["contract"] == "1C" and state["declarer"] == "N"
    assert calls(state) == ["N 1C", "E P", "S P", "W P"]


def test_L28A_prevent_policy_refuses_the_call_and_deems_no_pass():
    # E's king of spades was seen (L24B: W passes at his next turn). N's insufficient 1D at W's turn
    # is refused under the prevent policy, and so no pass of W's is deemed either.
    state = run("fsb-2007", "N 1C", "E 1H", {"td": "exposed_cards", "seat": "E", "cards": ["SK"]}, "S P", "N 1D",
                policy="prevent")
    assert calls(state) == ["N 1C", "E 1H", "S P"] and state["next"] == "W"
    assert state["refused"][0]["kind"] == "insufficient_bid" and obligations(state) == {"W": "next_turn"}


# ---------------------------------------------------------------- Law 26
def test_2007_L26A1_suit_specified_by_the_offender_in_the_legal_auction_no_restriction():
    # E's insufficient 2H is replaced by 3C (L27B2). E had bid hearts (1H) in the legal auction:
    # every suit the withdrawn call related to was specified by him, so there is no restriction.
    state = run("fsb-2007", "N 1D", "E 1H", "S 1S", "W P", "N 2S", "E 2H", td("insufficient_bid", "replace", "3C"),
                td("insufficient_bid_judgement", "none"))
    assert state["lead_restrictions"] == []
    assert [(x["law"], x["suits"], x["withdrawn"]) for x in state["lead_restrictions_lifted"]] == [("2007 L26A1", [], "2H")]
    assert obligations(state) == {"W": "rest_of_auction"}


def _ib_1h_replaced_by_2c(*more):
    return ("N 1S", "E 1H", td("insufficient_bid", "replace", "2C"), td("insufficient_bid_judgement", "none"), *more)


def test_2007_L26A2_suit_not_specified_require_or_prohibit_that_suit():
    state = run("fsb-2007", *_ib_1h_replaced_by_2c())
    [lr] = state["lead_restrictions"]
    assert (lr["law"], lr["kind"], lr["suits"], lr["withdrawn"]) == ("2007 L26A2", "require_or_prohibit_suit", ["H"], "1H")


@pytest.mark.parametrize("profile,law,suits", [("fsb-2007", None, None), ("dbf-2017", "2017 L26B", ["D", "S"])])
def test_L26_suits_are_judged_in_the_legal_auction_as_it_ended(profile, law, suits):
    # After the withdrawn 1H, E bids hearts himself (3H); N-S play 4S, E defends. 2007: hearts now
    # specified by E -> L26A1, nothing. 2017: hearts now shown -> only D and S may be prohibited
    # (the list was frozen when the bid was withdrawn and still offered hearts).
    state = run(profile, *_ib_1h_replaced_by_2c("S 2S", "W P", "N P", "E 3H", "S 4S", "W P", "N P", "E P"))
    assert state["contract"] == "4S" and state["declarer"] == "N"
    if law is None:
        assert state["lead_restrictions"] == [] and state["lead_restrictions_lifted"][0]["law"] == "2007 L26A1"
    else:
        [lr] = state["lead_restrictions"]
        assert (lr["law"], lr["suits"], lr["active"]) == (law, suits, True)


@pytest.mark.parametrize("profile,law,kind", [("fsb-2007", "2007 L26B", "prohibit_any_suit"),
                                              ("dbf-2017", "2017 L26B", "prohibit_unshown_suit")])
def test_L26B_withdrawn_notrump_call(profile, law, kind):
    # E's insufficient 1NT over 2S, replaced by 2NT and ruled under L27B2: a notrump call relates
    # to no suit, so 2007 L26B (any suit) and 2017 L26B (E has shown no suit: any suit).
    state = run(profile, "N 2S", "E 1NT", td("insufficient_bid", "replace", "2NT"), td("insufficient_bid_judgement", "none"))
    [lr] = state["lead_restrictions"]
    assert (lr["law"], lr["kind"], lr["suits"], lr["withdrawn"]) == (law, kind, ["C", "D", "H", "S"], "1NT")


def test_2007_L26A2_bid_above_seven_in_a_suit_relates_to_that_suit():
    # An 8S bid (L38) is a suit bid: 2007 L26A, not L26B.
    state = run("fsb-2007", "N 8S", td("bid_above_seven", "cancel"))
    [lr] = state["lead_restrictions"]
    assert (lr["law"], lr["suits"]) == ("2007 L26A2", ["S"])


def test_2017_L26B_shown_suits_are_not_offered():
    # E bid diamonds, then a withdrawn 1H (insufficient over 1S) replaced by 2C (L27B2): neither
    # diamonds nor clubs may be prohibited.
    state = run("dbf-2017", "N 1C", "E 1D", "S 1S", "W P", "N P", "E 1H", td("insufficient_bid", "replace", "2C"),
                td("insufficient_bid_judgement", "none"))
    assert state["lead_restrictions"][0]["suits"] == ["H", "S"]  # D bid before, C in the replacement


# ---------------------------------------------------------------- L27: the same-rank boundary
@pytest.mark.parametrize("profile", ["fsb-2007", "dbf-2017"])
@pytest.mark.parametrize("second,insufficient", [("1H", True), ("1S", False), ("1D", True)])
def test_L27_a_bid_of_the_same_rank_is_insufficient(profile, second, insufficient):
    state = run(profile, "N 1H", f"E {second}")
    assert (state["pending"] is not None and state["pending"]["kind"] == "insufficient_bid") is insufficient


@pytest.mark.parametrize("replacement,b1a", [("2H", True), ("3H", False), ("2S", False)])
def test_2007_L27B1a_only_the_lowest_sufficient_bid_in_the_same_denomination(replacement, b1a):
    state = run("fsb-2007", "N 1S", "E 1H", td("insufficient_bid", "replace", replacement))
    assert ("b1a" in options(state)) is b1a


def test_2017_L27B1a_any_sufficient_bid_may_show_the_same_denominations():
    state = run("dbf-2017", "N 1S", "E 1H", td("insufficient_bid", "replace", "3H"))
    assert options(state) == ["b1a", "b1b", "none"]


# ---------------------------------------------------------------- FSB L116B around a TD ruling
def test_FSB_L116B_wait_ends_at_the_players_call_not_at_the_TDs_replacement():
    # E shows the stop and bids 3S at t=1; S at once (t=1.5) bids an insufficient 2H; the TD comes
    # and enters the replacement 4H at t=60. S waited half a second (stop_wait_short), he did not
    # think for a minute (it was reported as long_thought_after_stop).
    table = Table("fsb-2007", 1)
    for e in [{"t": 0.0, "seat": "N", "call": "1H"}, {"t": 1.0, "seat": "E", "call": "3S", "stop": True},
              {"t": 1.5, "seat": "S", "call": "2H"},
              {"t": 60.0, "td": "insufficient_bid", "choice": "replace", "call": "4H"},
              {"t": 61.0, "td": "insufficient_bid_judgement", "choice": "b1a"}]:
        state = table.apply(e)
    assert kinds(state, "S") == ["stop_wait_short"] and state["timing"][-1]["waited"] == 0.5


def test_FSB_L116B_replacement_entered_by_the_TD_carries_the_stop():
    # E's insufficient 1D over 1H is replaced by the jump 3D; E had the stop card out: the TD's
    # event says so, and no stop_missing is reported (the event was refused before).
    table = Table("fsb-2007", 1)
    for e in [{"t": 0.0, "seat": "N", "call": "1H"}, {"t": 2.0, "seat": "E", "call": "1D"},
              {"t": 30.0, "td": "insufficient_bid", "choice": "replace", "call": "3D", "stop": True},
              {"t": 31.0, "td": "insufficient_bid_judgement", "choice": "none"}]:
        state = table.apply(e)
    assert calls(state) == ["N 1H", "E 3D"] and state["calls"][1]["stop"] is True
    assert kinds(state) == [] and state["stop_lock_until"] == 40.0  # from the replacement


@pytest.mark.parametrize("profile", ["fsb-2007", "dbf-2017"])
@pytest.mark.parametrize("t_next,reported", [(15.0, False), (15.5, True), (24.0, True)])
def test_stop_long_thought_threshold_is_15_seconds(profile, t_next, reported):
    # FSB L116B / 2017 L73A1: a wait well beyond the stop's 10 s is reported (from 15 s).
    state = run(profile, {"t": 0.0, "seat": "N", "call": "1H"}, {"t": 0.0, "seat": "E", "call": "3S", "stop": True},
                {"t": t_next, "seat": "S", "call": "P"})
    assert ("long_thought_after_stop" in kinds(state)) is reported
    if reported:
        assert state["timing"][-1]["threshold"] == 15.0


# ---------------------------------------------------------------- L28B: whose call cancels a call out of rotation
@pytest.mark.parametrize("profile", ["fsb-2007", "dbf-2017"])
def test_L28B_partner_in_turn_has_no_right_to_call_over_his_partners_call(profile):
    # W doubles at E's (his partner's) turn. L28B covers an *opponent's* call out of rotation; E's
    # call has no meaning while the TD is needed (2007 L32A / 2017 L32B apply). It was taken as L28B.
    table = Table(profile, 1)
    table.apply(ev("N 1C", 0.0))
    state = table.apply(ev("W X", 1.0))
    assert state["pending"]["may_call"] == ["N"]
    refused = table.step(ev("E 1H", 2.0))  # at the box: refused (L9B2)
    assert isinstance(refused, Refused) and "only N may call" in refused.reason
    state = table.apply(ev("E 1H", 2.0))  # in a log: recorded and cancelled (law9.py)
    assert state["irregularities"][-1]["kind"] == "call_while_awaiting_td"
    assert state["pending"]["kind"] == "call_out_of_rotation" and [c["call"] for c in state["calls"]] == ["1C"]


@pytest.mark.parametrize("profile,ruling,rest", [
    ("fsb-2007", "2007 L28B; 2007 L32 (se lag 36), L36B4", {"N": "rest_of_auction"}),
    ("dbf-2017", "2017 L28B", {}),
])
def test_L28B_opponent_in_turn_calls_over_an_inadmissible_double_out_of_rotation(profile, ruling, rest):
    # S doubles his partner's 1C at E's turn (inadmissible, out of rotation). E, in turn, calls 1H
    # before any ruling: his call stands (L28B). 2007: the FSB text of L32 adds "om den felandes MTH
    # trots det bjuder, se lag 36", so L36B4 still binds N-S. The call used to be refused, so a
    # real table's log could not be replayed.
    table = Table(profile, 1)
    table.apply(ev("N 1C", 0.0))
    state = table.apply(ev("S X", 1.0))
    assert state["pending"]["kind"] == "inadmissible_double" and set(state["pending"]["may_call"]) == {"W", "E"}
    state = table.apply(ev("E 1H", 2.0))
    assert calls(state) == ["N 1C", "E 1H"] and state["next"] == "S" and state["pending"] is None
    assert state["irregularities"][-1]["ruling"] == ruling and obligations(state) == rest
    assert state["withdrawn"][-1]["call"] == "X"


# ---------------------------------------------------------------- 2007 L15C, an unknown ruling
def test_2007_L15C_a_differing_repeated_call_the_TD_cancels_the_board():
    state = run("fsb-2007", "N 1C", "E P", {"td": "wrong_board", "played_before": False}, "N 1D",
                {"td": "cancel_board"})
    assert state["status"] == "adjusted_score" and state["adjusted_score"]["law"] == "2007 L15C"
    assert state["wrong_board"]["outcome"] == "board_cancelled"
    assert state["irregularities"][-1]["resolution"] == "board_cancelled"


def test_2007_L15C_no_cancel_while_the_calls_are_the_same():
    table = Table("fsb-2007", 1)
    for i, spec in enumerate(["N 1C", "E P", {"td": "wrong_board", "played_before": False}, "N 1C"]):
        table.apply(ev(spec, float(i)))
    with pytest.raises(EventError, match="only when a call of the new auction differs"):
        table.apply(ev({"td": "cancel_board"}, 9.0))


def test_2017_has_no_L15C_board_cancellation():
    table = Table("dbf-2017", 1)
    with pytest.raises(EventError, match="2017 Laws"):
        table.apply({"t": 1.0, "td": "cancel_board"})


def test_unknown_ruling_kind_gets_its_own_error():
    table = Table("fsb-2007", 1)
    with pytest.raises(EventError, match="unknown TD ruling kind 'insuficient_bid'"):
        table.apply({"t": 1.0, "td": "insuficient_bid", "choice": "accept"})


# ---------------------------------------------------------------- option texts the tablet can translate
def test_every_option_has_a_text_key_whose_english_is_the_label():
    """Random irregular auctions in both editions: every option offered carries a `text` key of
    texts.OPTION_TEXTS and the params that make its English label."""
    import random

    from shared_rules.texts import OPTION_TEXTS

    names = ["P", "X", "XX"] + [f"{lv}{s}" for lv in range(1, 8) for s in ("C", "D", "H", "S", "NT")]
    rng = random.Random(14)
    seen = set()
    for n in range(300):
        table = Table(("fsb-2007", "dbf-2017", "wbf-screens-2017")[n % 3], 1 + n % 4)
        t = 0.0
        for _ in range(40):
            st = table.state()
            if st["status"] in ("ended", "passed_out", "adjusted_score"):
                break
            t += 1.0
            if st["pending"]:
                for o in st["pending"]["options"]:
                    assert OPTION_TEXTS[o["text"]].format(**o["params"]) == o["label"]
                    seen.add(o["text"].split(".")[0])
                o = rng.choice(st["pending"]["options"])
                e = {"t": t, "td": st["pending"]["kind"], "choice": o["id"]}
                if o.get("needs_call"):
                    e["call"] = rng.choice(names[:12])
            elif rng.random() < 0.15:
                e = {"t": t, "seat": rng.choice("NESW"), "call": rng.choice(names[:15])}
            else:
                e = {"t": t, "seat": st["next"], "call": "P" if rng.random() < 0.5 else rng.choice(st["legal_calls"][:8])}
            try:
                table.apply(e)
            except EventError:
                pass
    assert {"insufficient_bid", "call_out_of_rotation", "inadmissible_double", "insufficient_bid_judgement"} <= seen


# ---------------------------------------------------------------- L29C: an artificial call out of rotation
def _w_bids_2d_at_partners_turn(*ruling):
    # W bids 2D at E's (his partner's) turn: 2007 L31B, E passes for the rest, Law 26 may apply.
    return ("N 1C", "W 2D", *ruling)


def test_2007_L29C_artificial_bid_out_of_rotation_is_ruled_on_the_suit_it_showed():
    # The TD finds W's 2D artificial, showing hearts: the lead restriction is about hearts
    # (2007 L26A2), not diamonds. Without L29C the engine had only the named suit.
    state = run("fsb-2007", *_w_bids_2d_at_partners_turn(
        {"td": "call_out_of_rotation", "choice": "cancel_artificial", "shown": ["H"]}))
    [lr] = state["lead_restrictions"]
    assert (lr["law"], lr["suits"], lr["withdrawn"]) == ("2007 L26A2", ["H"], "2D")
    assert obligations(state) == {"E": "rest_of_auction"}
    plain = run("fsb-2007", *_w_bids_2d_at_partners_turn(td("call_out_of_rotation", "cancel")))
    assert plain["lead_restrictions"][0]["suits"] == ["D"]


def test_2007_L29C_shown_suit_bid_later_by_the_offender_lifts_the_restriction():
    state = run("fsb-2007", *_w_bids_2d_at_partners_turn(
        {"td": "call_out_of_rotation", "choice": "cancel_artificial", "shown": ["H"]}), "E P", "S P", "W 1H")
    assert state["lead_restrictions"] == [] and state["lead_restrictions_lifted"][0]["law"] == "2007 L26A1"


@pytest.mark.parametrize("profile,law", [("fsb-2007", "2007 L29C"), ("dbf-2017", "2017 L29C")])
def test_L29C_offered_for_a_bid_or_double_out_of_rotation(profile, law):
    state = run(profile, "N 1C", "W 2D")
    [artificial] = [o for o in state["pending"]["options"] if o["id"] == "cancel_artificial"]
    assert artificial["law"] == law


@pytest.mark.parametrize("shown", [[], ["Z"], ["H", "H"], "H"])
def test_L29C_shown_must_name_denominations(shown):
    table = Table("fsb-2007", 1)
    for i, spec in enumerate(_w_bids_2d_at_partners_turn()):
        table.apply(ev(spec, float(i)))
    with pytest.raises(EventError, match="shown"):
        table.apply({"t": 5.0, "td": "call_out_of_rotation", "choice": "cancel_artificial", "shown": shown})
    assert table.state()["pending"]["kind"] == "call_out_of_rotation"


def test_L29C_shown_only_with_cancel_artificial():
    table = Table("fsb-2007", 1)
    for i, spec in enumerate(_w_bids_2d_at_partners_turn()):
        table.apply(ev(spec, float(i)))
    with pytest.raises(EventError, match="cancel_artificial"):
        table.apply({"t": 5.0, "td": "call_out_of_rotation", "choice": "cancel", "shown": ["H"]})


# ---------------------------------------------------------------- L32 intro: an inadmissible X/XX out of rotation
@pytest.mark.parametrize("profile,ed", BOTH)
def test_L32_intro_inadmissible_redouble_out_of_rotation_names_L32_and_L36(profile, ed):
    # W redoubles at E's turn with nothing doubled. A double or redouble out of rotation may be
    # accepted (L32), except an inadmissible one, which never is (L32 intro: see L36): the TD is
    # offered no "accept", and the record says why. (It cited L36 alone, as for one in turn.)
    state = run(profile, "N 1H", "W XX")
    irregularity = state["irregularities"][-1]
    assert irregularity["kind"] == "inadmissible_double" and irregularity["out_of_rotation"] is True
    assert irregularity["law"] == state["pending"]["law"] == f"{ed} L32 intro, L36"
    assert "accept" not in options(state)
    # in turn it is L36 alone
    state = run(profile, "N 1H", "E XX")
    assert state["irregularities"][-1]["law"] == state["pending"]["law"] == f"{ed} L36"
