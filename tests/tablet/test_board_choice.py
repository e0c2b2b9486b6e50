"""The board on the table, not the next board in a list: shared and relayed boards,
a board the movement does not give this table, a result recorded on the wrong board."""
import copy

import pytest

from station.records import validate_item
from tablet_app.controller import PinError, Refused
from tests.tablet.conftest import SESSION
from tests.tablet.outbox_rows import outbox_items

ROT = ("N", "E", "S", "W")
DEALER = {1: "N", 2: "E", 3: "S"}


def play_board(ctl, clock, calls, tricks):
    i = ROT.index(DEALER[ctl.board])
    for k, c in enumerate(calls):
        clock.advance(2)
        r = ctl.box_event(ROT[(i + k) % 4], "call", call=c)
        assert r["ok"], r
    ctl.enter_result(tricks)
    return ctl.ew_confirm()


def results(ctl):
    return [(k, p) for k, kind, p in outbox_items(ctl.outbox) if kind == "result"]


def test_players_play_the_rounds_boards_in_the_order_they_are_on_the_table(make_controller, clock):
    ctl = make_controller()
    ctl.setup(SESSION)
    assert ctl.board_choices() == {"boards": [1, 2, 3], "played": [], "current": 1}
    ctl.choose_board(3)  # board 3 came to the table first (relayed from the next table)
    assert ctl.board == 3 and ctl.estate["dealer"] == "S"
    rec = play_board(ctl, clock, ["1S", "P", "P", "P"], 7)
    assert rec["key"] == "club-2026-11-22/A/3/2/3/1" and rec["dealer"] == "S"
    assert ctl.board == 1  # the first board still to play, until the players say otherwise
    ctl.choose_board("2")
    play_board(ctl, clock, ["P", "P", "P", "P"], None)
    assert ctl.snapshot()["board_choice"] == {"boards": [1, 2, 3], "played": [2, 3], "current": 1}
    play_board(ctl, clock, ["1NT", "P", "P", "P"], 7)
    assert ctl.phase == "round_end" and ctl.board_choices()["played"] == [1, 2, 3]
    assert [k.rsplit("/", 2)[1] for k, _ in results(ctl)] == ["3", "2", "1"]


def test_two_tables_sharing_boards_play_them_in_opposite_orders(make_controller, clock, tmp_path):
    a = make_controller(tmp_path / "t3.db")
    b = make_controller(tmp_path / "t4.db")
    a.setup({**SESSION, "boards": [1, 2]})
    b.setup({**SESSION, "table": 4, "ns_pair": 4, "ew_pair": 7, "boards": [1, 2]})
    b.choose_board(2)
    play_board(a, clock, ["1H", "P", "P", "P"], 8)
    play_board(b, clock, ["1D", "P", "P", "P"], 7)
    play_board(a, clock, ["2C", "P", "P", "P"], 8)
    play_board(b, clock, ["3NT", "P", "P", "P"], 9)
    for ctl in (a, b):
        assert ctl.phase == "round_end"
        for key, p in results(ctl):
            validate_item("result", key, p)  # the station takes each, on the board it was played
    assert {(p["table"], p["board"], p["contract"]) for _, p in results(a) + results(b)} == {
        (3, 1, "1H"), (3, 2, "2C"), (4, 2, "1D"), (4, 1, "3NT")}


def test_a_board_the_movement_does_not_give_this_table_is_caught_before_its_first_call(make_controller, clock):
    ctl = make_controller()
    ctl.setup(SESSION)
    n = ctl.journal.count()
    with pytest.raises(Refused) as e:
        ctl.choose_board(7)  # board 7 belongs to another table this round
    assert e.value.key == "board.not_in_round" and e.value.params["board"] == 7
    assert "L15" in str(e.value) and "1, 2, 3" in str(e.value)
    for bad in (0, -1, True, None, "x", 2.0):
        with pytest.raises(Refused):
            ctl.choose_board(bad)
    assert ctl.journal.count() == n and ctl.board == 1


def test_after_the_first_call_only_the_director_changes_the_board(make_controller, clock, tmp_path):
    db = tmp_path / "j.db"
    ctl = make_controller(db)
    ctl.setup(SESSION)
    clock.advance(2)
    assert ctl.box_event("N", "call", call="1C")["ok"]
    with pytest.raises(Refused) as e:
        ctl.choose_board(2)
    assert e.value.key == "board.started" and ctl.board == 1
    with pytest.raises(PinError):
        ctl.choose_board(2, pin="0000")
    ctl.choose_board(2, pin="4321")
    assert ctl.board == 2 and ctl.estate["calls"] == [] and ctl.estate["dealer"] == "E"
    before = copy.deepcopy(ctl.snapshot())
    ctl.journal.conn.close()  # replayed after a restart: the same board, the same table
    again = make_controller(db)
    assert again.snapshot() == before
    assert [r["chosen_by"] for r in again.log if r["what"] == "board"] == [None, "director"]


def test_a_board_with_a_result_here_cannot_be_chosen_again(make_controller, clock):
    ctl = make_controller()
    ctl.setup(SESSION)
    play_board(ctl, clock, ["P", "P", "P", "P"], None)
    with pytest.raises(Refused) as e:
        ctl.choose_board(1)
    assert e.value.key == "board.played"


def test_a_result_recorded_on_the_wrong_board_is_withdrawn_behind_the_pin(make_controller, clock, tmp_path):
    db = tmp_path / "j.db"
    ctl = make_controller(db)
    ctl.setup(SESSION)
    rec = play_board(ctl, clock, ["1H", "P", "4H", "P", "P", "P"], 10)
    with pytest.raises(Refused, match="say why"):
        ctl.td_withdraw_result("4321", 1, reason=" ")
    with pytest.raises(PinError):
        ctl.td_withdraw_result("0000", 1, reason="played board 2's cards")
    out = ctl.td_withdraw_result("4321", 1, reason="played board 2's cards", by="TD Anna")
    assert out["key"] == rec["key"][:-1] + "2" and out["withdrawn"] is True
    assert out["correction"] == {"by": "TD Anna", "reason": "played board 2's cards", "previous": rec["key"]}
    # It carries no result (docs/interfaces.md section 3), only where it was played and why.
    assert not {"contract", "declarer", "tricks", "score_ns", "adjusted"} & set(out)
    assert {k: out[k] for k in ("table", "round", "board", "ns_pair", "ew_pair")} == \
        {k: rec[k] for k in ("table", "round", "board", "ns_pair", "ew_pair")}
    assert out["reason"] == "played board 2's cards"
    validate_item("result", out["key"], out)
    queued = [k for k, _ in results(ctl)]
    assert queued == [rec["key"], out["key"]]
    assert [kind for _, kind, _ in ctl.journal.records()][-1] == "withdrawn"
    assert ctl.board_choices()["played"] == []  # board 1 may be played again
    with pytest.raises(Refused):
        ctl.td_withdraw_result("4321", 1, reason="twice")
    ctl.journal.conn.close()
    again = make_controller(db)
    assert again.board_choices() == ctl.board_choices() and again.done == ctl.done


def test_a_result_recorded_on_the_wrong_board_is_moved_to_the_board_played(make_controller, clock, tmp_path):
    db = tmp_path / "j.db"
    ctl = make_controller(db)
    ctl.setup(SESSION)
    rec = play_board(ctl, clock, ["1H", "P", "4H", "P", "P", "P"], 10)  # entered as board 1, None vul
    assert ctl.board == 2
    moved = ctl.td_move_result("4321", 1, 2, reason="the cards were board 2's")
    assert moved["key"] == "club-2026-11-22/A/3/2/2/1" and moved["board"] == 2
    assert moved["vulnerability"] == "NS" and moved["score_ns"] == 620  # 4H= vulnerable on board 2
    assert moved["correction"]["moved_from"] == 1
    keys = [k for k, _ in results(ctl)]
    assert keys == [rec["key"], "club-2026-11-22/A/3/2/1/2", moved["key"]]
    for key, p in results(ctl):
        validate_item("result", key, p)
    assert results(ctl)[1][1]["withdrawn"] is True
    assert ctl.board_choices() == {"boards": [1, 2, 3], "played": [2], "current": 1}
    with pytest.raises(Refused, match="already has a result"):
        ctl.td_move_result("4321", 2, 2, reason="again")
    ctl.journal.conn.close()
    again = make_controller(db)
    assert again.board_choices() == ctl.board_choices() and again.snapshot()["done"] == ctl.snapshot()["done"]
