"""The director ends the round while a ruling is not finished at the table (2007 and 2017 Law
8B1: the round ends when he says so; L9B2: the table waits for him; docs/laws/choices.md #42).

The end is refused while the ruling waits, naming it with its Law, unless he leaves it
(`leave_ruling`, as the console asks only after showing it): then the board is stopped without a
result from this table, as any board in play (no result item, no score: the artificial adjusted
score, 2007 L12C2 / 2017 L12C2, is his in the scoring program), and the `round_end` record keeps
the ruling as it stood. A ruling he finishes first leaves nothing behind. Headless controller,
no station: what the station is told is in tests/tablet/test_td_end_round.py.

Board 1: North deals.
"""
import pytest

from tablet_app import i18n
from tablet_app.controller import PinError, Refused
from tests.tablet.conftest import SESSION
from tests.tablet.outbox_rows import outbox_items
from tests.tablet.test_screens_log import calls

PIN = "4321"
FSB = {**SESSION, "profile": "fsb-2007", "policy": "record"}
DBF = {**SESSION, "profile": "dbf-2017", "policy": "record"}


def kinds(ctl) -> list[str]:
    return [k for _, k, _ in ctl.journal.records()]


def td_items(ctl) -> list[tuple[str, str]]:
    return [(p["reason"], p.get("status", "launched")) for _, kind, p in outbox_items(ctl.outbox) if kind == "td_call"]


@pytest.mark.parametrize("session, seq, ruling", [
    # 2017 L27: East's insufficient 1D over 1H; South (the LHO) may accept it by calling (L27A1)
    (DBF, (("N", "1H"), ("E", "1D")),
     {"board": 1, "kind": "insufficient_bid", "law": "2017 L27", "seat": "E", "asks": "lho", "call": "1D"}),
    # 2007 L29: East bids 1S at North's (the dealer's) turn; South may accept it by calling (L29A)
    (FSB, (("E", "1S"),),
     {"board": 1, "kind": "call_out_of_rotation", "law": "2007 L29", "seat": "E", "asks": "lho", "call": "1S"}),
], ids=["2017_L27_insufficient_bid", "2007_L29_call_out_of_rotation"])
def test_L8B1_the_end_is_refused_while_a_ruling_waits_and_records_it_when_the_director_leaves_it(
        make_controller, clock, tmp_path, session, seq, ruling):
    ctl = make_controller()
    ctl.setup(session)
    calls(ctl, clock, *seq)
    assert ctl.phase == "frozen"
    # what the console shows for his confirmation: the ruling with its Law and who it waits for
    assert ctl.round_unfinished() == {"round": 2, "in_play": 1, "without_result": [1, 2, 3], "ruling": ruling}

    # Not left by accident: refused, naming the ruling, and nothing journalled.
    token = ctl.sign_in(PIN)
    before = kinds(ctl)
    with pytest.raises(Refused) as e:
        ctl.td_end_round(token)
    assert e.value.key == "round.ruling_pending"
    assert e.value.params == {"board": 1, "kind": ruling["kind"], "law": ruling["law"]}
    assert ruling["law"] in str(e.value)
    # the console says it in the director's language (tablet_app/i18n.py ERRORS)
    assert i18n.error_text(e.value, "sv").startswith(f"Domslutet på bricka 1 ({ruling['law']}) är inte fällt")
    assert i18n.error_text(e.value, "da").startswith(f"Afgørelsen på spil 1 ({ruling['law']}) er ikke truffet")
    assert kinds(ctl) == before and ctl.phase == "frozen" and ctl.estate["pending"]["kind"] == ruling["kind"]
    # the PIN is checked first, as for every director's input
    with pytest.raises(PinError):
        ctl.td_end_round("11111", leave_ruling=True)
    assert kinds(ctl) == before + ["pin_wrong"]

    ctl.td_end_round(token, leave_ruling=True)
    assert ctl.phase == "round_end" and ctl.board is None
    _, kind, body = list(ctl.journal.records())[-1]
    assert (kind, body) == ("round_end", {"by": "director", "in_play": 1, "without_result": [1, 2, 3],
                                          "ruling": ruling})
    assert [e for e in ctl.log if e["what"] == "round_end"] == [{"what": "round_end", **body}]
    # No result and no score from the tablet for the board: the director's, in the scoring program.
    assert [k for k, kind, _ in outbox_items(ctl.outbox) if kind == "result"] == []
    # The table's own call for the director is over with the round (the station's page closes it).
    assert [c for c in td_items(ctl) if c[0] != "wrong_pin"] == [(ruling["kind"], "launched"),
                                                                 (ruling["kind"], "resolved")]
    # A box can no longer make the call that would have answered the ruling.
    clock.advance(2)
    assert not ctl.box_event("S", "call", call="P")["ok"]

    # A restart replays the same table, the ruling left in the round's end.
    ctl.close()
    again = make_controller(tmp_path / "journal.db")
    assert again.phase == "round_end"
    assert [e for e in again.log if e["what"] == "round_end"] == [{"what": "round_end", **body}]


def test_2017_L27_a_ruling_finished_first_leaves_nothing_behind(make_controller, clock):
    ctl = make_controller()
    ctl.setup(DBF)
    calls(ctl, clock, ("N", "1H"), ("E", "1D"))
    token = ctl.sign_in(PIN)
    ctl.td_decide(token, "accept")  # 2017 L27A1: the insufficient bid accepted; the auction goes on
    assert ctl.phase == "auction" and ctl.round_unfinished()["ruling"] is None
    ctl.td_end_round(PIN)  # no leave_ruling needed: nothing waits (the ruling signed him out)
    _, kind, body = list(ctl.journal.records())[-1]
    assert (kind, body) == ("round_end", {"by": "director", "in_play": 1, "without_result": [1, 2, 3]})


def test_2007_L15C_an_adjusted_score_not_yet_awarded_is_a_ruling_not_finished(make_controller, clock):
    # 2007 L15C: the board is cancelled for a repeated call that differs; the engine stops the
    # auction until the director awards the artificial score (2007 L12C2).
    ctl = make_controller()
    ctl.setup(FSB)
    calls(ctl, clock, ("N", "1H"), ("E", "P"))
    ctl.td_wrong_board(PIN)
    calls(ctl, clock, ("N", "1S"))
    ctl.td_cancel_board(PIN, "North bid 1S where he had bid 1H")
    assert ctl.phase == "frozen" and ctl.estate["pending"] is None
    ruling = {"board": 1, "kind": "adjusted_score", "law": "2007 L15C", "seat": None, "asks": "td", "call": None}
    assert ctl.round_unfinished()["ruling"] == ruling
    with pytest.raises(Refused) as e:
        ctl.td_end_round(PIN)
    assert e.value.key == "round.ruling_pending"
    ctl.td_end_round(PIN, leave_ruling=True)
    assert list(ctl.journal.records())[-1][2]["ruling"] == ruling


def test_a_board_stopped_for_no_ruling_needs_no_leave(make_controller, clock):
    # an auction under way with no irregularity: the end is #42's, as before
    ctl = make_controller()
    ctl.setup(DBF)
    calls(ctl, clock, ("N", "1H"), ("E", "1S"))
    assert ctl.round_unfinished() == {"round": 2, "in_play": 1, "without_result": [1, 2, 3], "ruling": None}
    ctl.td_end_round(PIN)
    assert list(ctl.journal.records())[-1][2] == {"by": "director", "in_play": 1, "without_result": [1, 2, 3]}
