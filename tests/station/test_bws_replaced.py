"""The `.bws` replaced, missing or unreadable mid-evening, over the real ODBC path (unixODBC and the
SQLite ODBC driver standing in for the Access driver).

The scoring program re-creates the file when the TD restarts or re-initialises the session (BCS,
Ruter and Magic Contest do): a fresh file of the same session gets every earlier result written
into it again, exactly once, also across a crash in the middle; a compacted or restored file that
has the rows gets nothing again; a file of another session (another name, a movement the
earlier results do not fit) waits for the TD's answer. A missing or garbage file degrades
`/api/v1/health` and shows on the director page until it is back."""
from __future__ import annotations

import datetime
import os
import shutil
import sqlite3
import subprocess
import sys

import pytest

from station.bws import Bridge
from station.bws import odbc as bws_odbc
from station.records import validate_item
from station.server import Station, StationConfig
from station.store import Store

from .conftest import EVENT, ROOT, result_record
from .test_bws_session import (
    bws_station,
    create_bws,
    director,
    odbc_template,
    read_results,
    result_record_for,
    rows,
    wait_for,
)

pytestmark = pytest.mark.server  # the TD's command (python -m station bws-replaced) runs as a process

TABLES = ("ReceivedData", "BiddingData", "PlayData")


class Evening:
    """A station with the .bws bridge in this process (a fresh Bridge is a restarted station)."""

    def __init__(self, tmp_path, db_url: str, name: str = "Mandag.bws"):
        self.bws = tmp_path / name
        self.tmp = tmp_path
        self.db = db_url
        self.store = Store(db_url, str(tmp_path / "station.secrets"))
        self.station = Station(self.store, StationConfig(event=EVENT, director_token="t", db=db_url))
        self.said: list[str] = []

    def bridge(self) -> Bridge:
        return Bridge(self.station, str(self.bws), odbc=odbc_template(), say=self.said.append)

    def put(self, rec: dict) -> None:
        self.store.put_item(rec["key"], "result", rec, **validate_item("result", rec["key"], rec))

    def fresh_file(self, session: tuple[str, str] | None = ("Mandag", "2026-11-23"), tables: int = 4) -> None:
        """What the scoring program does when the TD re-initialises: a new file in the old one's
        place (written beside it and moved in, so the path names another file at once)."""
        new = self.tmp / "new.bws"
        new.unlink(missing_ok=True)
        create_bws(new, rounds=2)
        db = sqlite3.connect(new)
        if session:
            db.execute("INSERT INTO [Session] ([ID], [Name], [Date], [GUID]) VALUES (1, ?, ?, ?)",
                       (session[0], session[1], os.urandom(8).hex()))  # a new GUID each time
        db.execute("DELETE FROM [RoundData] WHERE [Table] > ?", (tables,))
        db.execute("DELETE FROM [Tables] WHERE [Table] > ?", (tables,))
        db.commit()
        db.close()
        os.replace(new, self.bws)

    def close(self) -> None:
        self.store.close()


def content(path) -> dict[str, list[tuple]]:
    """Every row the station wrote, as values without the file's own ID, in no order (the readers
    read per board): what must be in the file exactly once."""
    out = {}
    for table in TABLES:
        out[table] = sorted(tuple(sorted((k, str(v)) for k, v in r.items() if k != "ID")) for r in rows(path, table))
    return out


def answer(db: str, choice: str) -> subprocess.CompletedProcess:
    """The TD's command, as typed at the scoring PC."""
    return subprocess.run([sys.executable, "-m", "station", "bws-replaced", "--db", db, choice], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


@pytest.fixture
def evening(tmp_path, db_url):
    ev = Evening(tmp_path, db_url)
    ev.fresh_file()
    yield ev
    ev.close()


def play_some(ev: Evening) -> dict[str, list[tuple]]:
    """Three results and a correction (Law 79C: an erased copy, the auction again, the new
    result) written into the file in three looks; returns what the file then has."""
    bridge = ev.bridge()
    ev.put(result_record_for(1, 1, 1))
    ev.put(result_record_for(2, 1, 3))
    assert bridge.run_once()["error"] is None
    first = result_record_for(1, 1, 1)
    ev.put(result_record(table=1, round_no=1, board=1, revision=2, ns_pair=first["ns_pair"],
                         ew_pair=first["ew_pair"], tricks=9, score_ns=-50, entered_at="2026-11-22T19:55:00Z"))
    assert bridge.run_once()["error"] is None
    ev.put(result_record_for(3, 1, 5))
    assert bridge.run_once()["error"] is None
    before = content(ev.bws)
    assert len(before["ReceivedData"]) == 5  # 3 results, the correction's erased copy and new result
    return before


def test_a_fresh_file_of_the_same_session_gets_every_earlier_result_once(evening):
    ev = evening
    before = play_some(ev)
    results = read_results(ev.bws)
    ev.fresh_file()  # BCS restarted: the same session, a new empty file
    assert content(ev.bws) == {t: [] for t in TABLES}
    state = ev.bridge().run_once()  # a restarted station sees it at its first look
    assert state["error"] is None and state["file"] == "ok"
    assert content(ev.bws) == before
    assert {k: (r["Contract"], r["Result"]) for k, r in read_results(ev.bws).items()} == \
        {k: (r["Contract"], r["Result"]) for k, r in results.items()}
    last = state["last_replaced"]
    assert "the path names another file (re-created, copied in or restored)" in last["why"]
    assert (last["choice"], last["results"], last["rewritten"], last["found"]) == ("write", 4, 4, 0)
    assert any("was replaced" in s for s in ev.said)
    # Look after look, and after another restart: nothing twice.
    bridge = ev.bridge()
    bridge.run_once()
    bridge.run_once()
    assert content(ev.bws) == before
    # A new result after the take-over goes into the new file once.
    ev.put(result_record_for(4, 1, 7))
    bridge.run_once()
    after = content(ev.bws)
    assert len(after["ReceivedData"]) == 6 and ev.bridge().run_once()["error"] is None
    assert content(ev.bws) == after


class PowerLost(BaseException):
    """Nothing of the station runs on after it (not even the bridge's own error handling)."""


def test_a_crash_while_the_earlier_results_go_into_the_new_file_writes_nothing_twice(evening, monkeypatch):
    ev = evening
    before = play_some(ev)
    ev.fresh_file()
    real = bws_odbc.Bws.write
    calls = []

    def dies_at_the_second_item(self, statements):
        calls.append(1)
        if len(calls) == 2:
            raise PowerLost  # the station is gone before this item's commit to the file
        real(self, statements)

    monkeypatch.setattr(bws_odbc.Bws, "write", dies_at_the_second_item)
    with pytest.raises(PowerLost):
        ev.bridge().run_once()
    partial = content(ev.bws)
    assert 0 < len(partial["ReceivedData"]) < 5
    monkeypatch.setattr(bws_odbc.Bws, "write", real)
    assert ev.bridge().run_once()["error"] is None  # the station started again
    assert content(ev.bws) == before
    ev.bridge().run_once()
    assert content(ev.bws) == before


def test_a_compacted_or_restored_file_that_has_the_rows_gets_nothing_again(evening):
    ev = evening
    before = play_some(ev)
    copy = ev.tmp / "compacted.bws"
    shutil.copy(ev.bws, copy)  # Access compacts into a new file and puts it in the old one's place
    os.replace(copy, ev.bws)
    state = ev.bridge().run_once()
    assert state["error"] is None
    assert content(ev.bws) == before
    last = state["last_replaced"]
    assert (last["rewritten"], last["found"]) == (0, 4)
    # Overwritten in place by a backup from before the last result (a copy keeps the backup's
    # modification time, as Windows' does): the same file, older; the rows it lacks come back.
    backup = ev.tmp / "backup.bws"
    shutil.copy2(ev.bws, backup)
    ev.put(result_record_for(4, 1, 7))
    ev.bridge().run_once()
    grown = content(ev.bws)
    assert len(grown["ReceivedData"]) == 6
    inode = os.stat(ev.bws).st_ino
    shutil.copy2(backup, ev.bws)
    assert os.stat(ev.bws).st_ino == inode and len(content(ev.bws)["ReceivedData"]) == 5
    state = ev.bridge().run_once()
    assert "its modification time went back (an older copy put in its place)" in state["last_replaced"]["why"]
    assert content(ev.bws) == grown


def test_a_file_of_another_movement_waits_for_the_td_and_write_puts_what_fits(evening):
    ev = evening
    play_some(ev)
    ev.fresh_file(tables=2)  # re-initialised with two tables: the results of table 3 do not fit
    installed = ev.store.query("SELECT COUNT(*) FROM dc_rounds")[0][0]
    bridge = ev.bridge()
    state = bridge.run_once()
    assert state["file"] == "replaced" and "the TD answers" in state["error"]
    q = state["replaced"]
    assert q["differs"] == ["section A table 3 round 1 board 5: the new file has no table 3 in round 1"]
    assert content(ev.bws) == {t: [] for t in TABLES}
    # The tablets keep the movement they have; a result that arrives now waits too.
    assert ev.store.query("SELECT COUNT(*) FROM dc_rounds")[0][0] == installed
    ev.put(result_record_for(2, 2, 5))
    assert bridge.run_once()["file"] == "replaced"
    assert content(ev.bws)["ReceivedData"] == []
    done = answer(ev.db, "write")
    assert done.returncode == 0, done.stderr
    state = bridge.run_once()
    assert state["file"] == "ok" and state["replaced"] is None
    assert sorted((r["Table"], r["Round"], r["Board"]) for r in read_results(ev.bws).values()) == \
        [(1, 1, 1), (2, 1, 3), (2, 2, 5)]
    assert state["held"] == ["section A table 3 round 1 board 5: not in the movement of the .bws, not written "
                             "(it is written once the scoring program adds that round)"]
    assert ev.store.query("SELECT COUNT(*) FROM dc_rounds")[0][0] == 4  # the new movement, served
    bridge.run_once()
    assert len(rows(ev.bws, "ReceivedData")) == 5  # 3 results and the correction's two rows, once


def test_a_file_of_another_session_is_left_alone_when_the_td_says_leave(tmp_path):
    ev = Evening(tmp_path, str(tmp_path / "station.db"))
    ev.fresh_file(("Mandag", "2026-11-23"))
    try:
        play_some(ev)
        ev.fresh_file(("Tisdag", "2026-11-24"))
        bridge = ev.bridge()
        state = bridge.run_once()
        assert state["file"] == "replaced"
        assert state["replaced"]["differs"][0].startswith("the file names another session (Mandag 2026-11-23")
        ev.put(result_record_for(4, 1, 7))  # a late result of the Monday session, while the TD decides
        assert answer(ev.db, "leave").returncode == 0
        # Before the bridge looks, yet another file: the answer was about the one before.
        ev.fresh_file(("Onsdag", "2026-11-25"))
        state = bridge.run_once()
        assert state["file"] == "replaced" and "Onsdag" in state["replaced"]["differs"][0]
        assert content(ev.bws)["ReceivedData"] == []
        assert answer(ev.db, "leave").returncode == 0
        state = bridge.run_once()
        assert state["file"] == "ok" and state["last_replaced"]["choice"] == "leave"
        assert content(ev.bws) == {t: [] for t in TABLES}
        ev.put(result_record_for(4, 2, 1))  # what the new session's tables send goes into it
        bridge.run_once()
        assert [(r["Table"], r["Round"], r["Board"]) for r in rows(ev.bws, "ReceivedData")] == [(4, 2, 1)]
        # BCS restarted on the new session: its own result comes back, the Monday ones never.
        ev.fresh_file(("Onsdag", "2026-11-25"))
        state = ev.bridge().run_once()
        assert state["error"] is None and state["last_replaced"]["rewritten"] == 1
        assert [(r["Table"], r["Round"], r["Board"]) for r in rows(ev.bws, "ReceivedData")] == [(4, 2, 1)]
        none = answer(ev.db, "write")  # nothing waits for an answer now
        assert none.returncode == 1 and "no replaced .bws is waiting" in none.stderr
    finally:
        ev.close()


def health(st) -> tuple[int, dict]:
    return st.request("GET", "/api/v1/health")


def test_a_missing_or_garbage_file_degrades_health_and_shows_until_it_is_back(tmp_path):
    bws = tmp_path / "Fredag.bws"
    create_bws(bws, rounds=1)
    st = bws_station(tmp_path, bws)
    try:
        assert st.post_item("result", result_record_for(1, 1, 1))[0] == 201
        wait_for(lambda: len(rows(bws, "ReceivedData")) == 1, "the result in the .bws")
        code, doc = health(st)
        assert (code, doc["status"], doc["scoring_link"]["file"]) == (200, "ok", "ok")
        kept = bws.read_bytes()
        bws.unlink()  # the scoring program re-creating it, or a file moved away
        code, doc = wait_for(lambda: (h := health(st))[1]["scoring_link"]["file"] == "missing" and h,
                             "the missing file in health")
        assert code == 200 and doc["status"] == "degraded"  # the tablets are not turned away
        assert doc["problems"] == ["the .bws file is missing (the scoring program re-creating it?): results are "
                                   "kept and written when it is back"]
        assert str(bws) not in str(doc)  # no path to an unauthenticated caller
        assert datetime.datetime.fromisoformat(doc["scoring_link"]["since"].replace("Z", "+00:00"))
        page = director(st)
        assert 'class="bws-error"' in page and "no such file" in page
        assert st.post_item("result", result_record_for(2, 1, 3))[0] == 201  # kept by the station
        bws.write_bytes(os.urandom(4096))  # half written, or garbage
        code, doc = wait_for(lambda: (h := health(st))[1]["scoring_link"]["file"] == "unreadable" and h,
                             "the unreadable file in health")
        assert code == 200 and doc["problems"] == ["the .bws file cannot be read as a database"]
        assert "cannot be read as a database" in director(st)
        back = tmp_path / "restored.bws"
        back.write_bytes(kept)
        os.replace(back, bws)  # the file put back
        wait_for(lambda: len(rows(bws, "ReceivedData")) == 2, "the result kept meanwhile in the .bws")
        code, doc = wait_for(lambda: (h := health(st))[1]["status"] == "ok" and h, "health ok again")
        assert (code, doc["problems"], doc["scoring_link"]["file"]) == (200, [], "ok")
        page = director(st)
        assert 'class="bws-error"' not in page
        assert "0 of the 1 earlier results written into it again, 1 were in it already" in page
        assert sorted((r["Table"], r["Board"]) for r in rows(bws, "ReceivedData")) == [(1, 1), (2, 3)]
        # Then BCS re-creates it empty: both results go into the new file, once.
        bws.unlink()
        create_bws(bws, rounds=1)
        wait_for(lambda: len(rows(bws, "ReceivedData")) == 2, "the earlier results in the fresh file")
        wait_for(lambda: "2 of the 2 earlier results written into it again" in director(st), "the page")
        assert sorted((r["Table"], r["Board"]) for r in rows(bws, "ReceivedData")) == [(1, 1), (2, 3)]
        assert health(st)[1]["status"] == "ok"
    finally:
        st.stop()


def test_the_director_page_asks_the_td_about_a_file_of_another_movement(tmp_path):
    bws = tmp_path / "Lordag.bws"
    create_bws(bws, rounds=1)
    st = bws_station(tmp_path, bws)
    try:
        assert st.post_item("result", result_record_for(3, 1, 5))[0] == 201
        wait_for(lambda: len(rows(bws, "ReceivedData")) == 1, "the result in the .bws")
        new = tmp_path / "new.bws"
        create_bws(new, rounds=1)
        db = sqlite3.connect(new)
        db.execute("DELETE FROM [RoundData] WHERE [Table] > 2")
        db.commit()
        db.close()
        os.replace(new, bws)
        page = wait_for(lambda: next((p for p in [director(st)] if 'id="bws-replaced"' in p), None), "the question")
        assert "section A table 3 round 1 board 5: the new file has no table 3 in round 1" in page
        assert f"python -m station bws-replaced --db {st.db} write" in page
        assert f"python -m station bws-replaced --db {st.db} leave" in page
        code, doc = health(st)
        assert code == 200 and doc["status"] == "degraded" and doc["scoring_link"]["question"] is True
        assert rows(bws, "ReceivedData") == []
        done = answer(st.db, "write")
        assert done.returncode == 0, done.stderr
        wait_for(lambda: 'id="bws-replaced"' not in director(st), "the answer taken")
        page = director(st)
        assert "section A table 3 round 1 board 5: not in the movement of the .bws" in page
        assert rows(bws, "ReceivedData") == []
        assert health(st)[1]["status"] == "ok"  # held results are shown, not a degraded station
    finally:
        st.stop()


def test_a_session_re_initialised_inside_the_same_file_gets_the_earlier_results_again(evening):
    """The scoring program empties the tables and writes the session again in the same file (same
    inode, no shorter, the same Session rows): the station's rows are all gone, which says so."""
    ev = evening
    before = play_some(ev)
    inode = os.stat(ev.bws).st_ino
    fresh = ev.tmp / "session.bws"
    create_bws(fresh, rounds=2)
    db = sqlite3.connect(ev.bws)
    db.execute("ATTACH ? AS fresh", (str(fresh),))
    for table in (*TABLES, "RoundData", "Tables", "PlayerNumbers", "PlayerNames", "Settings", "Section"):
        db.execute(f"DELETE FROM main.[{table}]")
        db.execute(f"INSERT INTO main.[{table}] SELECT * FROM fresh.[{table}]")  # the same session again
    db.commit()
    db.close()
    assert os.stat(ev.bws).st_ino == inode and content(ev.bws) == {t: [] for t in TABLES}
    state = ev.bridge().run_once()
    assert state["last_replaced"]["why"] == ["it has none of the rows the station wrote"]
    assert content(ev.bws) == before
    ev.bridge().run_once()
    assert content(ev.bws) == before


def test_health_says_when_the_bridge_has_stopped_looking_at_the_file(tmp_path):
    """A bridge stuck in a driver call: the file's last look is old, and health says so."""
    import calendar
    import json
    import time

    from station.bws import status

    store = Store(str(tmp_path / "station.db"), str(tmp_path / "station.secrets"))
    try:
        assert status.health(store) == ([], None)  # the Data Connector: nothing of the .bws
        store.set_setting("integration", "bws")
        now = calendar.timegm(time.strptime("2026-11-23T20:00:00Z", "%Y-%m-%dT%H:%M:%SZ"))
        store.set_setting("bws/status", json.dumps({"file": "ok", "error": None, "poll_s": 3.0,
                                                    "checked_at": "2026-11-23T19:59:00Z", "written": 4}))
        problems, link = status.health(store, now=now)
        assert problems == [] and link["file"] == "ok" and link["results_in_file"] == 4
        problems, _ = status.health(store, now=now + 600)
        assert problems == ["the .bws bridge has not looked at the file for 660 s"]
    finally:
        store.close()
