"""A board whose result was taken back (withdrawn, or moved to the board whose cards were played)
is played again at the table: its new result is the board's next revision. The club evening
(tests/evening) found East-West unable to confirm it: the record reused revision 1, which the
outbox (and the station) already held with the old result (OutboxError, nothing recorded)."""
from shared_rules.types import SEATS
from station.records import validate_item
from tests.tablet.conftest import SESSION
from tests.tablet.outbox_rows import outbox_items

DEALER = {1: "N", 2: "E", 3: "S"}


def bid(ctl, clock, calls):
    i = SEATS.index(DEALER[ctl.board])
    for k, c in enumerate(calls):
        clock.advance(2)
        assert ctl.box_event(SEATS[(i + k) % 4], "call", call=c)["ok"]


def result_keys(ctl):
    out = []
    for key, kind, payload in outbox_items(ctl.outbox):
        if kind == "result":
            validate_item("result", key, payload)  # the station's own door
            out.append(key)
    return out


def test_a_board_whose_result_was_moved_away_is_played_again_as_its_next_revision(make_controller, clock, tmp_path):
    db = tmp_path / "j.db"
    ctl = make_controller(db)
    ctl.setup(SESSION)
    bid(ctl, clock, ["1H", "P", "4H", "P", "P", "P"])  # board 2's cards, entered as board 1
    ctl.enter_result(10)
    ctl.ew_confirm()
    ctl.td_move_result("4321", 1, 2, reason="the cards were board 2's")
    assert ctl.board == 1
    bid(ctl, clock, ["1NT", "P", "P", "P"])
    ctl.enter_result(8)
    rec = ctl.ew_confirm()
    base = "club-2026-11-22/A/3/2"
    assert rec["key"] == f"{base}/1/3" and rec["contract"] == "1NT"
    assert result_keys(ctl) == [f"{base}/1/1", f"{base}/1/2", f"{base}/2/1", f"{base}/1/3"]
    assert ctl.board_choices()["played"] == [1, 2]
    ctl.journal.conn.close()
    again = make_controller(db)  # replayed: the same records, the same keys
    assert again.done == ctl.done


def test_a_withdrawn_board_adjusted_by_the_td_takes_the_next_revision(make_controller, clock):
    ctl = make_controller()
    ctl.setup(SESSION)
    bid(ctl, clock, ["P", "P", "P", "P"])
    ctl.enter_result(None)
    ctl.ew_confirm()
    ctl.td_withdraw_result("4321", 1, reason="board 1 was fouled")
    ctl.choose_board(1)
    rec = ctl.td_artificial_score("4321", "avg+", "avg-", "2017 L12C2")
    assert rec["key"] == "club-2026-11-22/A/3/2/1/3" and rec["adjusted"]["ns"] == "avg+"
    assert result_keys(ctl)[-1] == rec["key"]
