"""A damaged stored item never keeps the other results out of the `.bws`: an item that names no
board is left out (and listed as damaged), a board whose items cannot be folded into rows is
held with the reason, and every other board is written, over the real ODBC path."""
from __future__ import annotations

import json

from station.bws import Bridge
from station.records import validate_item
from station.server import Station, StationConfig
from station.store import Store

from .conftest import EVENT
from .test_bws_session import create_bws, odbc_template, result_record_for, rows


def raw_row(store, key: str, kind: str, payload: dict, table: int, board: int) -> None:
    with store.transaction() as tx:
        tx.execute("INSERT INTO items (item_key, kind, event, section, table_no, round_no, board, revision, digest, "
                   "payload, received_at) VALUES (?, ?, ?, 'A', ?, 1, ?, 1, 'x', ?, ?)",
                   (key, kind, EVENT, table, board, json.dumps(payload), "2026-11-22T20:00:00Z"))


def test_damaged_items_are_named_and_the_other_boards_still_reach_the_file(tmp_path):
    bws = tmp_path / "Mandag.bws"
    create_bws(bws, rounds=1)
    store = Store(str(tmp_path / "station.db"), str(tmp_path / "station.secrets"))
    try:
        st = Station(store, StationConfig(event=EVENT, director_token="t"))
        good = [result_record_for(1, 1, 1), result_record_for(3, 1, 5)]
        store.put_item(good[0]["key"], "result", good[0], **validate_item("result", good[0]["key"], good[0]))
        # No board to put it on (a table that is a text), and a board whose auction has a call
        # without its call: both between the two good results.
        nowhere = {k: v for k, v in result_record_for(2, 1, 3).items() if k != "key"} | {"table": "two"}
        raw_row(store, f"{EVENT}/A/2/1/3/1", "result", nowhere, 2, 3)
        broken = {k: v for k, v in result_record_for(4, 1, 7).items() if k != "key"} | {
            "auction": [{"seat": "N"}, {"seat": "E", "call": "PASS"}]}
        raw_row(store, f"{EVENT}/A/4/1/7/1", "result", broken, 4, 7)
        store.put_item(good[1]["key"], "result", good[1], **validate_item("result", good[1]["key"], good[1]))
        state = Bridge(st, str(bws), odbc=odbc_template(), say=lambda _: None).run_once()
        assert state["error"] is None
        assert sorted((r["Table"], r["Board"]) for r in rows(bws, "ReceivedData")) == [(1, 1), (3, 5)]
        # The row with no board is one the station's reader of stored rows leaves out
        # (station/stored.py; the director page lists it); the board whose items cannot be made
        # into rows is held with the reason.
        assert [d.key for d in store.damaged(EVENT)] == [f"{EVENT}/A/2/1/3/1"]
        held = state["held"]
        assert [h for h in held if "board 3" in h] == []
        assert any(h.startswith("section A table 4 round 1 board 7: its items cannot be written (KeyError")
                   for h in held), held
    finally:
        store.close()
