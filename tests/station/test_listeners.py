"""Who hears of a stored item subscribes to the station (station/listeners.py): the `.bws` bridge
writes a delivered result into the scoring program's file at once through the registry, and a
listener that fails or hangs can neither lose an item nor hold up a tablet's answer."""
from __future__ import annotations

import json
import logging
import threading

import pytest

from station.bws import Bridge
from station.server import Station, StationConfig
from station.store import Store

from .conftest import EVENT, result_record
from .test_bws_session import create_bws, odbc_template, result_record_for, rows, wait_for


@pytest.fixture
def station(tmp_path):
    store = Store(str(tmp_path / "station.db"))
    st = Station(store, StationConfig(event=EVENT, director_token="tok"))
    yield st
    store.close()


def deliver(st: Station, rec: dict, kind: str = "result") -> tuple[int, dict]:
    table = f"{EVENT}/A/{rec['table']}"
    key = st.table_key(EVENT, "A", rec["table"])
    body = json.dumps({"kind": kind, "key": rec["key"], "payload": rec}).encode()
    return st.ingest({"X-Table": table, "Authorization": f"Bearer {key}"}, body)


def test_the_bws_bridge_hears_a_delivered_result_through_the_registry(station, tmp_path):
    bws = tmp_path / "Mandag.bws"
    create_bws(bws, rounds=1)
    # Polling once an hour: only the registry can make it write the result within the test.
    bridge = Bridge(station, str(bws), odbc=odbc_template(), poll_s=3600, say=lambda _text: None)
    bridge.run_once()  # the session's tables and keys, as at the station's start
    heard = []
    station.listeners.on_ingest(heard.append)
    bridge.start()
    try:
        rec = result_record_for(1, 1, 1)
        assert deliver(station, rec)[0] == 201
        written = wait_for(lambda: [r for r in rows(bws, "ReceivedData") if r["Table"] == 1 and r["Board"] == 1],
                           "the result in the .bws")
        assert [(r["Round"], r["PairNS"], r["Erased"]) for r in written] == [(1, rec["ns_pair"], 0)]
        station.listeners.join()
        assert [(i.kind, i.key) for i in heard] == [("result", rec["key"])]
    finally:
        bridge.stop()
    # stopped: the bridge no longer listens
    assert bridge.heard not in station.listeners._listeners


def test_a_failing_listener_is_logged_and_the_item_still_stored(station, caplog):
    station.register_tables(EVENT, "A", [1])
    heard = []

    def broken(_item):
        raise RuntimeError("the live feed's socket is gone")

    station.listeners.on_ingest(broken)
    station.listeners.on_ingest(heard.append)
    rec = result_record()
    with caplog.at_level(logging.ERROR, logger="station.listeners"):
        code, doc = deliver(station, rec)
        station.listeners.join()
    assert (code, doc["status"]) == (201, "stored")
    assert [it["key"] for it in station.store.items(EVENT)] == [rec["key"]]
    assert heard and heard[0].key == rec["key"] and heard[0].id == doc["id"]  # the next listener still hears it
    assert any("a listener failed on result " + rec["key"] in r.getMessage() and r.exc_info
               for r in caplog.records)


def test_a_listener_that_hangs_holds_up_no_tablet(station):
    station.register_tables(EVENT, "A", [1])
    release = threading.Event()
    heard = []

    def stuck(item):
        release.wait()
        heard.append(item.key)

    station.listeners.on_ingest(stuck)
    recs = [result_record(board=b) for b in (1, 2, 3)]
    try:
        # every delivery is answered while the listener is still stuck on the first
        assert [deliver(station, r)[0] for r in recs] == [201, 201, 201]
        assert heard == [] and not release.is_set()
        assert len(station.store.items(EVENT)) == 3
    finally:
        release.set()
    station.listeners.join()
    assert heard == [r["key"] for r in recs]  # in the order they were stored


def test_only_a_new_item_is_announced(station):
    station.register_tables(EVENT, "A", [1])
    heard = []
    station.listeners.on_ingest(heard.append)
    rec = result_record()
    assert deliver(station, rec)[0] == 201
    assert deliver(station, rec)[0] == 200  # the tablet's retry after a lost reply
    bad = dict(result_record(board=2), tricks=14)
    with pytest.raises(Exception, match="tricks"):
        deliver(station, bad)
    station.listeners.join()
    assert [i.key for i in heard] == [rec["key"]]
