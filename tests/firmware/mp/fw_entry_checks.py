# Call entry and the box's own refusals, as the players and the Laws expect them.
import calls
import entry as E
import keys as K
import view as V

from protocol.calls import code as parse  # the tablet's name -> code: the box itself never parses


def diff(a, b):
    return a - b


def make_view(seat=0, turn=0, lowest="1C", prevent=True, allowed=None):
    v = V.BoxView(seat)
    v.known = True
    v.phase = V.AUCTION
    v.turn = turn
    v.lowest = parse(lowest) if lowest else calls.NONE
    v.prevent = prevent
    if allowed is not None:
        v.has_allowed = True
        for c in allowed:
            v.allowed[parse(c)] = 1
    return v


def press_all(ent, v, toks, now=1000):
    evs = []
    for t in toks:
        k = K.from_token(t)
        assert k, t
        ev = ent.press(k, v, now, diff)
        if ev:
            evs.append((ev, ent.out_call))
    return evs


def test_all_38_calls_have_names_in_code_order():
    assert len(calls.NAMES) == 38
    for i in range(38):
        assert parse(calls.NAMES[i]) == i
        assert calls.name(i) == calls.NAMES[i]
    assert calls.name(calls.bid(1, 4)) == "1NT" and calls.name(calls.bid(7, 0)) == "7C"
    assert calls.name(calls.NONE) == "?"


def test_fsb_L116B_stop_before_two_level_opening_or_jump():
    def j(c, lowest):  # FSB: both triggers
        return calls.stop_due(c, lowest, True, True)

    p = parse
    assert j(p("2C"), p("1C"))            # opening at the 2-level (L116B1)
    assert not j(p("1S"), p("1C"))
    assert not j(p("2C"), p("1D"))        # 1D - 2C is the cheapest club: no jump
    assert j(p("3C"), p("1D"))            # 1D - 3C skips a level
    assert j(p("2D"), p("1D"))            # after 1C, 2D is a jump (1D was enough)
    assert not j(p("P"), p("1D"))


def test_2017_L73A1_jump_only_profiles_do_not_prompt_stop_before_a_two_level_opening():
    # dbf-2017, WBF, EBU, ACBL: the box once prompted STOP before every 2-level opening (the
    # Swedish rule hard-coded); what it prompts now comes from the STATE
    p = parse
    assert not calls.stop_due(p("2C"), p("1C"), True, False)   # an opening is never a jump
    assert calls.stop_due(p("3C"), p("1D"), True, False)
    assert not calls.stop_due(p("3C"), p("1D"), False, False)  # stop disabled in the profile
    assert calls.stop_due(p("2H"), p("1C"), False, True)


def test_fsb_L112C_a_call_is_made_only_when_confirmed():
    v = make_view()
    ent = E.CallEntry()
    assert press_all(ent, v, ["3", "H"]) == []      # selected, nothing sent
    assert ent.sel == parse("3H")
    assert press_all(ent, v, ["OK"]) == [(E.EV_CALL, parse("3H"))]
    assert ent.sel == calls.NONE and ent.level == 0


def test_denomination_change_before_confirm_and_cancel_send_nothing():
    v = make_view()
    ent = E.CallEntry()
    assert press_all(ent, v, ["2", "C", "D", "CLR", "OK"]) == []
    assert ent.note == E.N_SELECT_FIRST
    assert press_all(ent, v, ["H"]) == [] and ent.note == E.N_LEVEL_FIRST
    assert press_all(ent, v, ["2", "C", "D", "OK"]) == [(E.EV_CALL, parse("2D"))]


def test_pass_double_redouble_keys():
    v = make_view(allowed=["P", "X", "XX", "1C"])
    ent = E.CallEntry()
    assert press_all(ent, v, ["P", "OK"]) == [(E.EV_CALL, 0)]
    assert press_all(ent, v, ["X", "OK"]) == [(E.EV_CALL, 1)]
    assert press_all(ent, v, ["XX", "OK"]) == [(E.EV_CALL, 2)]


def test_2017_L27_prevent_policy_refuses_insufficient_bid_before_anyone_sees_it():
    v = make_view(lowest="2H", prevent=True)
    ent = E.CallEntry()
    assert press_all(ent, v, ["2", "D", "OK"]) == []
    assert ent.note == E.N_INSUFFICIENT and ent.refused == parse("2D")
    # the refused call is disarmed: OK again sends nothing; the player keys his call anew
    assert ent.sel == calls.NONE and press_all(ent, v, ["OK"]) == []
    assert press_all(ent, v, ["2", "H", "OK"]) == [(E.EV_CALL, parse("2H"))]


def test_detect_policy_sends_insufficient_bid_for_the_engine_to_rectify():
    v = make_view(lowest="2H", prevent=False)
    ent = E.CallEntry()
    assert press_all(ent, v, ["2", "D", "OK"]) == [(E.EV_CALL, parse("2D"))]
    assert ent.note == E.N_INSUFFICIENT  # the player still sees what happened


def test_prevent_policy_refuses_call_out_of_turn_and_calls_not_allowed():
    v = make_view(seat=1, turn=0, prevent=True)
    ent = E.CallEntry()
    assert press_all(ent, v, ["P", "OK"]) == [] and ent.note == E.N_NOT_TURN
    v.turn = 1  # the turn comes round: the pass keyed out of turn is not sent by one OK
    assert press_all(ent, v, ["OK"]) == [] and ent.note == E.N_SELECT_FIRST
    v = make_view(seat=1, turn=1, prevent=True, allowed=["P", "1D"])
    assert press_all(ent, v, ["X", "OK"]) == [] and ent.note == E.N_NOT_ALLOWED
    assert press_all(ent, v, ["P", "OK"]) == [(E.EV_CALL, 0)]


def test_no_call_before_the_tablet_has_told_the_turn():
    v = V.BoxView(0)
    ent = E.CallEntry()
    assert press_all(ent, v, ["P", "OK"]) == [] and ent.note == E.N_NO_AUCTION


def test_fsb_L116B_stop_wait_locks_next_box_until_countdown_ends():
    v = make_view(prevent=True)
    v.stop_lock = True
    v.stop_deadline = 5000
    ent = E.CallEntry()
    assert press_all(ent, v, ["P", "OK"], now=1000) == [] and ent.note == E.N_STOP_WAIT
    # the pass refused in the wait is not armed for the moment the wait ends
    assert press_all(ent, v, ["OK"], now=5001) == []
    assert press_all(ent, v, ["P", "OK"], now=5001) == [(E.EV_CALL, 0)]


def test_stop_alert_undo_review_td_keys_send_their_events():
    v = make_view()
    ent = E.CallEntry()
    evs = press_all(ent, v, ["STOP", "ALERT", "UNDO", "TD", "REVIEW", "REVIEW", "CLR"])
    assert [e for e, _ in evs] == [E.EV_STOP, E.EV_ALERT, E.EV_UNDO, E.EV_TD, E.EV_REVIEW]
    assert not ent.review  # CLR leaves the review
    assert press_all(ent, v, ["STOP", "2", "S", "OK"]) == [(E.EV_STOP, calls.NONE),
                                                             (E.EV_CALL, parse("2S"))]
    assert not ent.stop_given  # the stop belongs to that one call


def test_unknown_tokens_map_to_no_key():
    assert K.from_token("banana") == K.NONE
    assert K.from_token("nt") == K.NT and K.from_token(" ok ") == K.OK
    import hal_unix

    assert hal_unix.token_key("pass") == K.PASS and hal_unix.token_key("Enter") == K.OK
    assert hal_unix.token_key("xyz") == K.NONE
