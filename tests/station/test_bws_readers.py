"""The `.bws` read back row by row as three independent readers of real files read it
(tests/station/bws_readers.py: JFR Pary's bidding reader, TabPlay, DBF-Tools' entity model).

The items are the tablet's own (the real controller and engine) or records checked at the
station's door; each board's items are folded by the bridge's BoardLog and the rows inserted
into a file with the `.bws` tables, in the order the bridge writes them."""
from __future__ import annotations

import json
import sqlite3

import pytest

from shared_rules.boards import dealer
from station.bws import schema
from station.bws.boardlog import BoardLog
from station.bws.bridge import KINDS
from station.records import validate_item

from . import bws_readers as readers
from .conftest import EVENT, result_record

PIN = "4321"
DEAL = "N:AK4.K32.Q432.KJ2 QJ98.AQJ.K65.A43 T76.T9876.A.Q765 532.54.JT987.T98"


def bws_file(tmp_path) -> sqlite3.Connection:
    db = sqlite3.connect(tmp_path / "evening.bws")
    for stmt in schema.ddl("sqlite"):
        db.execute(stmt)
    return db


def write(db: sqlite3.Connection, items: list[dict], section_id: int = 1) -> list[tuple[str, dict]]:
    """Fold each board's items as the bridge does and append the rows to the file (the bridge
    reads only the kinds the `.bws` holds: a round start, a progress snapshot... are not)."""
    logs: dict[tuple, BoardLog] = {}
    written = []
    for it in items:
        if it["kind"] not in KINDS:
            continue
        p = it["payload"]
        k = (p["table"], p["round"], p["board"])
        log = logs.setdefault(k, BoardLog(section_id, *k, str(dealer(p["board"]))))
        for table, values in log.apply(it):
            cols = list(values)
            db.execute(f"INSERT INTO [{table}] ({', '.join(f'[{c}]' for c in cols)}) VALUES "
                       f"({', '.join('?' for _ in cols)})", [values[c] for c in cols])
            written.append((table, values))
    db.commit()
    return written


def item(kind: str, payload: dict, i: int = 0) -> dict:
    key = payload.get("key") or f"{EVENT}/A/{payload['table']}/{payload['round']}/{payload['board']}/auction/{i}"
    assert validate_item(kind, key, payload), payload  # what the station's door stores
    return {"id": i, "kind": kind, "key": key, "payload": payload}


def outbox_items(ctl) -> list[dict]:
    """Everything the tablet queued for the station, in order."""
    rows = ctl.outbox.conn.execute("SELECT id, kind, item_key, payload FROM outbox ORDER BY id").fetchall()
    return [{"id": r[0], "kind": r[1], "key": r[2], "payload": json.loads(r[3])} for r in rows]


@pytest.fixture
def controller(tmp_path):
    from tablet_app.controller import Controller
    from tests.tablet.conftest import SESSION, Clock

    clock = Clock()
    ctl = Controller(tmp_path / "journal.db", clock=clock)
    ctl.setup(SESSION)
    yield ctl, clock
    ctl.close()


def calls(ctl, clock, seq: list[str], think: float = 3.0) -> None:
    first = "NESW".index(str(dealer(ctl.board)))
    for k, c in enumerate(seq):
        clock.advance(think)
        r = ctl.box_event("NESW"[(first + k) % 4], "call", call=c)
        assert r["ok"], r


# -- adjusted scores ------------------------------------------------------------------------------
def test_2017_L12C1_an_assigned_score_reads_as_the_TDs_contract_not_the_tables(tmp_path):
    """The table's 6C= stays in the record (audit trail); the TD assigned 4S-1 by West."""
    db = bws_file(tmp_path)
    rec = result_record(board=2, contract="6C", declarer="N", tricks=12, lead="HA", score_ns=920,
                        adjusted={"kind": "assigned", "contract": "4S", "declarer": "W", "tricks": 9,
                                  "law": "2017 L12C1b"})
    write(db, [item("result", rec)])
    [row] = readers.in_force(db).values()
    assert readers.tabplay_result(row) == {"level": 4, "suit": "S", "x": "", "declarer": "W", "tricks": 9,
                                           "lead": ""}
    assert (row["Declarer"], row["Remarks"]) == (rec["ew_pair"], "")
    assert readers.dbf_tools_fits("ReceivedData", row) == []
    # No opening lead of the table's play stands beside the TD's contract.
    assert readers.rows(db, "SELECT * FROM PlayData") == []


@pytest.mark.parametrize(("adjusted", "remarks"), [
    ({"kind": "artificial", "ns": "avg+", "ew": "avg-"}, "Avg+/Avg-"),
    ({"kind": "artificial", "ns": "avg", "ew": "avg"}, "Avg/Avg"),
    ({"kind": "assigned", "score_ns": 620}, "Assigned score NS +620"),
    ({"kind": "weighted", "ruled_by": "committee",
      "outcomes": [{"weight": "0.6", "contract": "4S", "declarer": "N", "tricks": 10},
                   {"weight": "0.4", "contract": "4S", "declarer": "N", "tricks": 9}]},
     "Weighted score 60% 4 S= N, 40% 4 S-1 N"),
    ({"kind": "split", "ns": {"artificial": "avg+"}, "ew": {"score_ns": -100}}, "Split score NS Avg+, EW NS -100"),
])
def test_2017_L12C_a_score_that_is_no_contract_says_what_the_TD_gave(tmp_path, adjusted, remarks):
    db = bws_file(tmp_path)
    rec = result_record(board=2, contract=None, declarer=None, tricks=None, lead=None, score_ns=None,
                        adjusted=adjusted)
    write(db, [item("result", rec)])
    [row] = readers.in_force(db).values()
    assert (row["Contract"], row["Result"], row["NS/EW"], row["Declarer"], row["Remarks"]) == ("", "", "", 0, remarks)
    assert readers.dbf_tools_fits("ReceivedData", row) == []


# -- withdrawal, correction, moved result ---------------------------------------------------------
def test_a_withdrawn_result_is_its_erased_copy_alone(controller, tmp_path):
    ctl, clock = controller
    calls(ctl, clock, ["1NT", "P", "3NT", "P", "P", "P"])
    ctl.enter_result(9, "HT")
    ctl.ew_confirm(True)
    ctl.td_withdraw_result(PIN, 1, reason="recorded on the wrong board")
    db = bws_file(tmp_path)
    write(db, outbox_items(ctl))
    received = readers.rows(db, "SELECT * FROM ReceivedData")
    assert [(r["Contract"], r["Erased"]) for r in received] == [("3 NT", 0), ("3 NT", 1)]
    assert readers.in_force(db) == {}
    # JFR Pary drops the board's bidding: none of it is newer than the erased result.
    assert readers.jfr_read(db) == {}


def test_2017_L15_a_moved_result_keeps_its_calls_on_the_seats_that_made_them(controller, tmp_path):
    """Board 1 (dealer N) was entered, but the table played board 2 (dealer E): the auction was
    bid from North. No turn is invented before it, in the .bws or in the PBN export."""
    from station.pbn import game

    ctl, clock = controller
    calls(ctl, clock, ["1H", "P", "4H", "P", "P", "P"])
    ctl.enter_result(10, "SA")
    ctl.ew_confirm(True)
    ctl.td_move_result(PIN, 1, 2, reason="boards mixed up")
    items = outbox_items(ctl)
    db = bws_file(tmp_path)
    write(db, items)
    bids = readers.jfr_read(db)
    moved = bids[(2, 2, 1, 3)]
    assert readers.jfr_get_dealer(moved) == "N"
    assert [(moved[k]["direction"], moved[k]["bid"]) for k in sorted(moved)] == [
        ("N", "1H"), ("E", "PASS"), ("S", "4H"), ("W", "PASS"), ("N", "PASS"), ("E", "PASS")]
    assert readers.jfr_table(moved) == [["", "1H", "PASS", "4H"], ["PASS", "PASS", "PASS", ""]]
    assert (1, 2, 1, 3) not in bids  # board 1's bidding went with its withdrawn result
    [row] = readers.in_force(db).values()
    assert (row["Board"], row["Contract"], row["Result"], row["NS/EW"]) == (2, "4 H", "=", "N")
    rec = next(it["payload"] for it in items if it["kind"] == "result" and it["payload"]["board"] == 2)
    assert rec["board"] == 2 and rec["dealer"] == "E"
    pbn = game(rec, {"event": "t", "names": {}, "deal": None})
    start = pbn.index('[Auction "N"]')
    assert pbn[start + 1:start + 3] == ["1H Pass 4H Pass", "Pass Pass"]


def test_2017_L79C_a_correction_rewrites_the_board_after_the_erased_row(controller, tmp_path):
    ctl, clock = controller
    calls(ctl, clock, ["1NT", "P", "3NT", "P", "P", "P"])
    ctl.enter_result(9, "HT")
    ctl.ew_confirm(True)
    clock.advance(600)
    ctl.td_correct_result(PIN, 1, 8, reason="tricks miscounted")
    db = bws_file(tmp_path)
    write(db, outbox_items(ctl))
    assert [(r["Result"], r["Erased"]) for r in readers.rows(db, "SELECT * FROM ReceivedData")] == \
        [("=", 0), ("=", 1), ("-1", 0)]
    # JFR Pary keeps only the bidding written after the erased row: the auction, once.
    [board] = readers.jfr_read(db).values()
    assert [board[k]["bid"] for k in sorted(board)] == ["1NT", "PASS", "3NT", "PASS", "PASS", "PASS"]


# -- the calls -----------------------------------------------------------------------------------
def test_2017_L25A_a_call_the_TD_corrected_leaves_its_erased_row(controller, tmp_path):
    """N's box registered 1D, N meant 1H (L25A); the TD corrects it without the table stopping,
    so the station first hears of it when play starts."""
    ctl, clock = controller
    calls(ctl, clock, ["1D"])
    ctl.td_correct_call(PIN, "N", "1H")
    clock.advance(3)
    for s, c in zip("ESWNE", ["P", "2H", "P", "P", "P"], strict=True):
        clock.advance(3)
        assert ctl.box_event(s, "call", call=c)["ok"]
    ctl.enter_result(8, "SA")
    ctl.ew_confirm(True)
    db = bws_file(tmp_path)
    write(db, outbox_items(ctl))
    bidding = readers.rows(db, "SELECT * FROM BiddingData")
    assert [(r["Counter"], r["Direction"], r["Bid"], r["Erased"]) for r in bidding if r["Counter"] == 0] == [
        (0, "N", "1D", 0), (0, "N", "1D", 1), (0, "N", "1H", 0)]
    [board] = readers.jfr_read(db).values()
    assert [board[k]["bid"] for k in sorted(board)] == ["1H", "PASS", "2H", "PASS", "PASS", "PASS"]


def test_each_call_has_its_own_time(controller, tmp_path):
    ctl, clock = controller
    calls(ctl, clock, ["1NT", "P", "3NT", "P", "P", "P"], think=7.0)
    ctl.enter_result(9, "HT")
    ctl.ew_confirm(True)
    db = bws_file(tmp_path)
    write(db, outbox_items(ctl))
    times = [readers._merge_timestamps(r["DateLog"], r["TimeLog"])
             for r in readers.rows(db, "SELECT * FROM BiddingData WHERE Erased = 0")]
    assert len(times) == 6 and len(set(times)) == 6 and times == sorted(times)


def test_the_opening_lead_in_playdata_is_a_card_tabplay_finds_in_the_hand(controller, tmp_path):
    ctl, clock = controller
    calls(ctl, clock, ["1NT", "P", "3NT", "P", "P", "P"])
    ctl.enter_result(9, "HA")  # North declares: East leads the ace of hearts
    ctl.ew_confirm(True)
    db = bws_file(tmp_path)
    write(db, outbox_items(ctl))
    assert readers.tabplay_plays(db, (1, 3, 2, 1), DEAL) == [("E", "AH")]
    [row] = readers.in_force(db).values()
    assert row["LeadCard"] == "HA"
    for table in ("ReceivedData", "BiddingData", "PlayData"):
        for r in readers.rows(db, f"SELECT * FROM [{table}]"):
            assert readers.dbf_tools_fits(table, r) == [], (table, r)
