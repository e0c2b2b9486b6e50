"""The seam with the real parts: auctions played through the laws engine (shared_rules.table),
records built by the tablet's own code (tablet_app.results), queued in the Outbox, delivered by
the Deliverer, exported as PBN and read back with endplay."""
import sqlite3

import pytest

from tablet_app.outbox import Deliverer, Outbox
from tests.rules.helpers import step

from .conftest import EVENT
from .export_readers import endplay_boards

table_mod = pytest.importorskip("shared_rules.table", reason="laws engine not available")
results = pytest.importorskip("tablet_app.results", reason="tablet result entry not available")


def play(board: int, events: list[dict]) -> dict:
    t = table_mod.Table("dbf-2017", board)
    state = t.state()
    for ev in events:
        if "td" in ev:
            ev = {**ev, "td": state["pending"]["kind"]}
        state = step(t, ev)
    assert state["status"] in ("ended", "passed_out"), state["status"]
    return state


SESSION = {"event": EVENT, "section": "A", "table": 3, "round": 1, "ns_pair": 3, "ew_pair": 13}


def test_engine_records_reach_the_station_and_pbn_marks_the_irregularities(sqlite_station, tmp_path):
    st = sqlite_station
    insufficient = play(1, [{"t": 1, "seat": "N", "call": "1H"}, {"t": 2, "seat": "E", "call": "1D"},
                            {"t": 3, "td": "?", "choice": "accept"},
                            {"t": 4, "seat": "S", "call": "2H"}, {"t": 5, "seat": "W", "call": "P"},
                            {"t": 6, "seat": "N", "call": "P"}, {"t": 7, "seat": "E", "call": "P"}])
    # Board 2: East deals; South calls out of rotation (East's turn) and it is accepted (L29A).
    coor = play(2, [{"t": 1, "seat": "S", "call": "1S"}, {"t": 2, "td": "?", "choice": "accept"},
                    {"t": 3, "seat": "W", "call": "P"}, {"t": 4, "seat": "N", "call": "4S"},
                    {"t": 5, "seat": "E", "call": "P"}, {"t": 6, "seat": "S", "call": "P"},
                    {"t": 7, "seat": "W", "call": "P"}])
    passed = play(3, [{"t": i, "seat": s, "call": "P"} for i, s in enumerate("SWNE", 1)])
    recs = [results.record(SESSION, insufficient, 1, 8, "SA", 1_790_000_000.0),
            results.record(SESSION, coor, 2, 10, None, 1_790_000_100.0),
            results.record(SESSION, passed, 3, None, None, 1_790_000_200.0)]
    db = str(tmp_path / "tablet.db")
    conn = sqlite3.connect(db)
    ob = Outbox(conn)
    for r in recs:
        ob.enqueue("result", r["key"], r)
    conn.commit()
    d = Deliverer(db, st.url, f"{EVENT}/A/3", st.keys[f"{EVENT}/A/3"]).start()
    try:
        assert d.drain(30), d.last_error
    finally:
        d.stop()
    assert ob.counts() == {"pending": 0, "delivered": 3, "rejected": 0}, ob.items()
    code, text = st.request("GET", f"/export/pbn?token={st.token}")
    lines = text.split("\r\n")
    # dealer N; E's 1D accepted (2017 L27A1); dealer E skipped by S's accepted call (2017 L29A)
    assert "1H ^I 1D {Insufficient bid by East, accepted (2017 L27A1)}" in lines, lines
    assert any(x.startswith("^S 1S {Call out of rotation by South, accepted") for x in lines), lines
    boards = {b.board_num: b for b in endplay_boards(text.encode("utf-8"))}
    assert (boards[1].contract.level, boards[1].contract.declarer.abbr) == (2, "N")
    assert (boards[2].contract.level, boards[2].contract.declarer.abbr) == (4, "S")
    assert len(boards[3].auction) == 4 and boards[3].contract.is_passout()
