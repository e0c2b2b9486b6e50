"""The director's adjusted scores made at the table (Law 12C1, the real controller under the
2017 profile of tests/tablet/conftest.SESSION) in the `.bws`, read back as TabPlay and DBF-Tools
read real files: an assigned score replacing an agreed result is the TD's contract (not the
table's, and without the table's lead); a weighted score on the board in play is no contract
with the ruling in Remarks, as BCS writes an adjusted score it cannot put in Contract; and the
PBN comment says both."""
from __future__ import annotations

import pytest

from station.pbn import game

from . import bws_readers as readers
from .test_bws_readers import PIN, bws_file, calls, outbox_items, write


@pytest.fixture
def table(tmp_path):
    from tablet_app.controller import Controller
    from tests.tablet.conftest import SESSION, Clock

    clock = Clock()
    ctl = Controller(tmp_path / "journal.db", clock=clock)
    ctl.setup(SESSION)
    yield ctl, clock
    ctl.close()


def test_2017_L12C1_assigned_and_weighted_scores_from_the_table_read_back_from_the_bws(table, tmp_path):
    ctl, clock = table
    calls(ctl, clock, ["1NT", "P", "3NT", "P", "P", "P"])  # board 1, North deals
    ctl.enter_result(9, "HT")
    ctl.ew_confirm(True)
    ctl.td_assigned_score(PIN, 1, [{"contract": "4S", "declarer": "S", "tricks": 9}], reason="UI (L16B)")
    calls(ctl, clock, ["1H", "P"])  # board 2, East deals
    ctl.td_assigned_score(PIN, 2, [{"contract": "4H", "declarer": "E", "tricks": 10, "weight": 60},
                                   {"contract": "4H", "declarer": "E", "tricks": 9, "weight": 40}])
    items = outbox_items(ctl)
    db = bws_file(tmp_path)
    write(db, items)
    rows = readers.in_force(db)
    by_board = {k[3]: r for k, r in rows.items()}
    assert readers.tabplay_result(by_board[1]) == {"level": 4, "suit": "S", "x": "", "declarer": "S", "tricks": 9,
                                                   "lead": ""}
    assert by_board[1]["Remarks"] == ""
    assert (by_board[2]["Contract"], by_board[2]["Remarks"]) == ("", "Weighted score 60% 4 H= E, 40% 4 H-1 E")
    for r in by_board.values():
        assert readers.dbf_tools_fits("ReceivedData", r) == []
    results = {it["payload"]["board"]: it["payload"] for it in items if it["kind"] == "result"}
    assert "{Adjusted score, assigned: 4S by S, 9 tricks (2017 L12C1(b))}" in game(results[1], {})
    assert "[Score \"NS -50\"]" in game(results[1], {})  # the TD's 4S-1, nobody vulnerable: not the 3NT=
    weighted = game(results[2], {})
    assert "{Adjusted score, weighted: 60% 4H by E, 10 tricks, 40% 4H by E, 9 tricks (2017 L12C1(c))}" in weighted
    assert not any(line.startswith("[Score ") for line in weighted)
