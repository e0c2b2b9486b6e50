"""A large venue: 200 tablets delivering at once, key checks that never wait for a
writer, and the director's per-table history. Real station process over real HTTP."""
import sqlite3
import threading

import pytest

from .conftest import EVENT, StationProcess, result_record
from .test_director_page import auction
from .test_http_attacks import deliver

pytestmark = pytest.mark.server  # starts the results station as a process


def test_200_tablets_delivering_at_once_are_all_stored_once(tmp_path):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=["--tables", "A:5-200"]).start()
    try:
        codes, errors = [], []
        go = threading.Barrier(200)

        def tablet(t: int) -> None:
            go.wait()
            try:  # each tablet from its own address, as on the club's network
                codes.append(deliver(st, result_record(table=t), f"127.0.3.{t}", timeout=60))
            except OSError as e:
                errors.append(f"table {t}: {e!r}")

        threads = [threading.Thread(target=tablet, args=(t,)) for t in range(1, 201)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == [] and codes == [201] * 200
        assert st.request("GET", "/api/v1/health")[1]["items"] == 200
        # Sent again (the tablets did not hear the reply): each is a duplicate, nothing doubles.
        assert {deliver(st, result_record(table=t), "127.0.0.2") for t in (1, 100, 200)} == {200}
    finally:
        st.stop()


def test_a_key_check_does_not_wait_for_a_writer(sqlite_station):
    """A long write (another process holding SQLite's write lock, as an InitializeEvent of a
    big event does) must not stall the tablets' reads: the key check is a read."""
    st = sqlite_station
    assert st.post_item("result", result_record())[0] == 201
    hold = sqlite3.connect(st.db, isolation_level=None, timeout=60)  # waits only for a write under way
    hold.execute("BEGIN IMMEDIATE")
    try:
        code, doc = st.request("GET", "/api/v1/boards/1/results", headers=st.table_headers())
        assert code == 200 and [r["table"] for r in doc["results"]] == [1]
        code, _ = st.request("GET", "/api/v1/boards/1/results", headers=st.table_headers(key="WRONG"))
        assert code == 403
    finally:
        hold.execute("ROLLBACK")
        hold.close()


def test_each_table_has_a_history_of_its_irregularities_and_td_calls(sqlite_station):
    st = sqlite_station
    irr = {"kind": "insufficient_bid", "seat": "E", "call": "1S", "law": "2017 L27B1", "resolution": "accepted"}
    for seq in (1, 2):  # the same irregularity in two auction logs and the result: listed once
        a = auction(2, 1, 3, "bidding", seq=seq)
        a["calls"] = [{"seat": "N", "call": "1NT"}, {"seat": "E", "call": "1S"}]
        a["irregularities"] = [dict(irr, index=1)]
        assert st.post_item("auction", a)[0] == 201
    call = {"event": EVENT, "section": "A", "table": 2, "round": 1, "board": 3, "call": 1,
            "status": "launched", "at": "2026-11-22T19:42:00Z", "note": "insufficient bid",
            "key": f"{EVENT}/A/2/td/1/launched"}
    assert st.post_item("td_call", call)[0] == 201
    assert st.post_item("td_call", dict(call, status="resolved", key=f"{EVENT}/A/2/td/1/resolved"))[0] == 201
    code, page = st.request("GET", f"/director/table?section=A&table=2&token={st.token}")
    assert code == 200
    # the Law as the TD reads it, with its edition (station/director_texts.py)
    assert page.count('<tr class="irregularity">') == 1 and "Law 27B1 (2017)" in page and "accepted" in page
    assert page.count('<tr class="td-call">') == 2 and "resolved" in page
    code, other = st.request("GET", f"/director/table?section=A&table=1&token={st.token}")
    assert code == 200 and "L27B1" not in other and '<tr class="td-call">' not in other
    assert st.request("GET", "/director/table?section=A&table=2")[0] == 403
    assert st.request("GET", f"/director/table?section=a;b&table=2&token={st.token}")[0] == 400
