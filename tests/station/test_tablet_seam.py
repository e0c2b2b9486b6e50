"""The seam with the real parts: auctions played through the laws engine (shared_rules.table),
records built by the tablet's own code (tablet_app.results), queued in the Outbox, delivered by
the Deliverer, exported as PBN and read back with endplay."""
import sqlite3

import pytest

from tablet_app.outbox import Deliverer, Outbox

from .conftest import EVENT
from .export_readers import check_export_lines, endplay_boards, games, tags

table_mod = pytest.importorskip("shared_rules.table", reason="laws engine not available")
results = pytest.importorskip("tablet_app.results", reason="tablet result entry not available")


def play(board: int, events: list[dict]) -> dict:
    t = table_mod.Table("dbf-2017", board)
    state = t.state()
    for ev in events:
        if "td" in ev:
            ev = {**ev, "td": state["pending"]["kind"]}
        state = t.apply(ev)
    assert state["status"] in ("ended", "passed_out"), state["status"]
    return state


def auction_lines(game: list[str]) -> list[str]:
    """The lines of a game's Auction section: after its tag, up to the next tag."""
    start = next(i for i, line in enumerate(game) if line.startswith("[Auction "))
    end = next((i for i in range(start + 1, len(game)) if game[i].startswith("[")), len(game))
    return game[start + 1:end]


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
    assert ob.counts() == {"pending": 0, "delivered": 3, "rejected": 0, "skipped": 0}, ob.items()
    code, text = st.request("GET", f"/export/pbn?token={st.token}")
    assert code == 200
    check_export_lines(text.lstrip("\ufeff"))
    auctions = {dict(tags(g))["Board"]: auction_lines(g) for g in games(text)}
    # dealer N; E's 1D accepted (2017 L27A1): `^I` on the call, the ruling on its own line after
    # the auction line, naming the call, so every auction line keeps four calls (docs/station.md).
    assert auctions["1"] == ["1H ^I 1D 2H Pass", "{1D by East: Insufficient bid by East, accepted (2017 L27A1)}",
                             "Pass Pass"]
    # dealer E skipped by S's accepted call out of rotation (2017 L29A): `^S` for East's lost turn.
    assert auctions["2"] == ["^S 1S Pass 4S", "{1S by South: Call out of rotation by South, accepted (2017 L29A)}",
                             "Pass Pass Pass"]
    assert auctions["3"] == ["Pass Pass Pass Pass"]
    boards = {b.board_num: b for b in endplay_boards(text.encode("utf-8"))}
    # endplay reads every call of each auction (the remark lines take none away).
    assert [str(c) for c in boards[1].auction] == ["1\u2665", "1\u2666", "2\u2665", "P", "P", "P"]
    assert [str(c) for c in boards[2].auction] == ["1\u2660", "P", "4\u2660", "P", "P", "P"]
    assert (boards[1].contract.level, boards[1].contract.declarer.abbr) == (2, "N")
    assert (boards[2].contract.level, boards[2].contract.declarer.abbr) == (4, "S")
    assert len(boards[3].auction) == 4 and boards[3].contract.is_passout()
