"""The director's console rulings the engine offers: cancelling the board
(2007 L15C), an artificial call out of rotation ruled on what it showed (L29C), and a replacement
call that carries the stop card (FSB L116B). Each is journalled, replayed after a restart, and
exported in the table log for `python -m shared_rules replay`.

Board 1: North deals.
"""
import pytest

from tablet_app.controller import Refused
from tests.tablet.conftest import SESSION
from tests.tablet.test_screens_log import calls
from tests.tablet.test_screens_log import same_ruling_everywhere as restarted

PIN = "4321"
FSB = {**SESSION, "profile": "fsb-2007", "policy": "record"}
DBF = {**SESSION, "profile": "dbf-2017", "policy": "record"}


def test_2007_L15C_td_cancels_the_board_when_a_repeated_call_differs(make_controller, clock, tmp_path):
    ctl = make_controller()
    ctl.setup(FSB)
    calls(ctl, clock, ("N", "1H"), ("E", "P"))
    ctl.td_wrong_board(PIN)  # the auction restarts from the dealer; the calls must be repeated
    with pytest.raises(Refused, match="differs"):  # nothing differs yet: the board stands
        ctl.td_cancel_board(PIN, "board 1 was on the wrong table")
    calls(ctl, clock, ("N", "1S"))  # North had bid 1H in the first auction
    assert ctl.estate["wrong_board"]["differs"]["call"] == "1S"
    with pytest.raises(Refused, match="say why"):
        ctl.td_cancel_board(PIN, "  ")
    n = ctl.journal.count()
    ctl.td_cancel_board(PIN, "North bid 1S where he had bid 1H")
    st = ctl.estate
    assert st["status"] == "adjusted_score" and st["wrong_board"]["outcome"] == "board_cancelled"
    assert st["adjusted_score"]["kind"] == "artificial" and st["adjusted_score"]["law"] == "2007 L15C"
    assert ctl.phase == "frozen"  # nothing goes on until the TD awards the artificial score
    entry = [e for e in ctl.log if e["what"] == "board_cancelled"]
    assert entry == [{"what": "board_cancelled", "board": 1, "reason": "North bid 1S where he had bid 1H",
                      "law": "2007 L15C", "adjusted_score": st["adjusted_score"]}]
    assert ctl.journal.count() == n + 1  # one record: the TD event with its reason
    assert list(ctl.journal.records())[-1][2] == {"ev": {"t": ctl.last_t, "td": "cancel_board"}, "box": None,
                                                   "reason": "North bid 1S where he had bid 1H"}
    again, _ = restarted(make_controller, ctl, tmp_path)
    assert [e for e in again.log if e["what"] == "board_cancelled"] == entry
    rec = again.td_artificial_score(PIN, "avg", "avg", "2007 L15C, L12C2")
    assert rec["board"] == 1 and again.board == 2


def test_2017_L15B_no_board_is_cancelled_for_a_differing_call(make_controller, clock):
    ctl = make_controller()
    ctl.setup(DBF)
    calls(ctl, clock, ("N", "1H"))
    before = ctl.table_log()
    with pytest.raises(Refused, match="2017"):
        ctl.td_cancel_board(PIN, "wrong board")
    assert ctl.table_log() == before and ctl.phase == "auction"


def test_2007_L29C_td_rules_an_artificial_bid_out_of_rotation_on_the_suits_it_showed(make_controller, clock, tmp_path):
    # N 1D; West bids 2C at his partner's turn, artificial (hearts and spades): cancelled (L31B,
    # East passes for the rest), and Law 26 works on the suits it showed, not on clubs.
    ctl = make_controller()
    ctl.setup(FSB)
    calls(ctl, clock, ("N", "1D"), ("W", "2C"))
    ctl.td_decide(PIN, "cancel_artificial", shown=["H", "S"])
    lead = ctl.estate["lead_restrictions"]
    assert [(x["offender"], x["suits"], x["law"]) for x in lead] == [("W", ["H", "S"], "2007 L26A2")]
    assert ctl.estate["obligations"] == [{"seat": "E", "must_pass": "rest_of_auction", "law": "2007 L31B"}]
    assert ctl.table_log()["events"][-1]["shown"] == ["H", "S"]
    restarted(make_controller, ctl, tmp_path)


def test_2007_L29C_shown_only_with_cancel_artificial(make_controller, clock):
    ctl = make_controller()
    ctl.setup(FSB)
    calls(ctl, clock, ("N", "1D"), ("W", "2C"))
    with pytest.raises(Refused, match="cancel_artificial"):
        ctl.td_decide(PIN, "cancel", shown=["H"])
    with pytest.raises(Refused, match="denominations"):
        ctl.td_decide(PIN, "cancel_artificial", shown="hearts")
    assert ctl.estate["pending"]["kind"] == "call_out_of_rotation"


def test_FSB_L116B_td_replacement_jump_with_the_stop_card_is_not_stop_missing(make_controller, clock, tmp_path):
    # N 1H; East's 1D is insufficient; the TD enters East's replacement 3D, a jump, made with
    # the stop card shown: no stop_missing (without it, the same replacement is reported).
    def run(stop):
        ctl = make_controller(tmp_path / f"stop-{stop}.db")
        ctl.setup(FSB)
        calls(ctl, clock, ("N", "1H"), ("E", "1D"))
        ctl.td_decide(PIN, "replace", call="3D", stop=stop)
        ctl.td_decide(PIN, "none")  # not the lowest sufficient bid: L27B2, 3D stands
        return ctl

    with_stop = run(True)
    assert with_stop.estate["calls"][-1]["stop"] is True
    assert "stop_missing" not in [f["kind"] for f in with_stop.estate["timing"]]
    assert with_stop.table_log()["events"][-2]["stop"] is True
    restarted(make_controller, with_stop, tmp_path / "stop-True.db")
    without = run(False)
    assert [f["call"] for f in without.estate["timing"] if f["kind"] == "stop_missing"] == ["3D"]


def test_FSB_L116B_td_correction_keeps_or_sets_the_stop(make_controller, clock, tmp_path):
    # N 1H; East's box registered 2D, East meant 3D (a jump) and showed the stop card: the L25A
    # correction carries the stop, so no stop_missing is reported for 3D.
    ctl = make_controller()
    ctl.setup(FSB)
    calls(ctl, clock, ("N", "1H"), ("E", "2D"))
    ctl.td_correct_call(PIN, "E", "3D", stop=True)
    assert [c["call"] for c in ctl.estate["calls"]] == ["1H", "3D"] and ctl.estate["calls"][1]["stop"] is True
    assert not [f for f in ctl.estate["timing"] if f["kind"] == "stop_missing"]
    assert ctl.table_log()["events"][-1]["stop"] is True
    restarted(make_controller, ctl, tmp_path)
