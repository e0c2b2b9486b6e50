"""The live director page, rendered by a real headless Chromium."""
import time
from html.parser import HTMLParser

from station.director import local_time, status
from station.server import Station, StationConfig
from station.store import Store

from .conftest import EVENT, ROOT, result_record


class Rows(HTMLParser):
    """Text of each <tr>/<li> by id or class, as the browser's DOM has it."""

    def __init__(self):
        super().__init__()
        self.rows: dict[str, str] = {}
        self.classes: dict[str, str] = {}
        self.items: list[str] = []
        self._cur = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tr" and a.get("id"):
            self._cur = a["id"]
            self.rows[self._cur] = ""
            self.classes[self._cur] = a.get("class", "")
        if tag == "li" and "td-call" in a.get("class", ""):
            self._cur = f"li{len(self.items)}"
            self.items.append(self._cur)
            self.rows[self._cur] = ""

    def handle_endtag(self, tag):
        if tag in ("tr", "li"):
            self._cur = None

    def handle_data(self, data):
        if self._cur:
            self.rows[self._cur] += data


def parse(html: str) -> Rows:
    p = Rows()
    p.feed(html)
    return p


def auction(table, round_no, board, phase, seq=1):
    p = {"event": EVENT, "section": "A", "table": table, "round": round_no, "board": board, "seq": seq,
         "phase": phase, "calls": [{"seat": "N", "call": "1NT"}], "at": "2026-11-22T19:41:00Z"}
    p["key"] = f"{EVENT}/A/{table}/{round_no}/{board}/auction/{seq}"
    return p


def test_director_page_shows_progress_td_calls_and_results_in_chromium(sqlite_station, chromium):
    st = sqlite_station
    assert st.post_item("auction", auction(1, 1, 1, "bidding"))[0] == 201
    assert st.post_item("auction", auction(2, 2, 4, "bidding"))[0] == 201
    assert st.post_item("auction", auction(2, 2, 4, "playing", seq=2))[0] == 201
    assert st.post_item("auction", auction(3, 2, 7, "entering_result"))[0] == 201
    call = {"event": EVENT, "section": "A", "table": 4, "round": 2, "board": 10, "call": 1,
            "status": "launched", "at": "2026-11-22T19:42:00Z", "note": "insufficient bid",
            "key": f"{EVENT}/A/4/td/1/launched"}
    assert st.post_item("td_call", call)[0] == 201
    page = parse(chromium.dump_dom(f"{st.url}/director?token={st.token}"))
    assert "bidding" in page.rows["table-A1"] and "LATE" in page.rows["table-A1"]  # round 1, field on 2
    assert page.classes["table-A1"].endswith("late")
    assert "playing" in page.rows["table-A2"] and "LATE" not in page.rows["table-A2"]
    assert "waiting for result" in page.rows["table-A3"]
    assert [page.rows[i] for i in page.items] == [
        f"Table A4, round 2, board 10: insufficient bid — the table called, {local_time('2026-11-22T19:42:00Z')}"]
    assert not any(k.startswith("result") for k in page.rows)
    # Results as they arrive: the next load shows the new result.
    assert st.post_item("result", result_record(table=3, round_no=2, board=7))[0] == 201
    html = chromium.dump_dom(f"{st.url}/director?token={st.token}")
    page = parse(html)
    assert "result in" in page.rows["table-A3"] and len(page.items) == 1
    assert "4H S" in html and "420" in html
    # A result the station refuses is told to the TD (and stored nowhere).
    assert st.post_item("result", result_record(table=2, round_no=2, board=5, score_ns=999))[0] == 422
    html = chromium.dump_dom(f"{st.url}/director?token={st.token}")
    assert "table A2: HTTP 422 score_ns: 999 does not match Law 77" in html
    # The page as the TD sees it (kept in build/screenshots for the docs).
    shot = ROOT / "build" / "screenshots" / "station-director.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    out = chromium.run(["--window-size=1000,640", f"--screenshot={shot}", f"{st.url}/director?token={st.token}"])
    assert out.returncode == 0 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # The director resolves the call: it leaves the open list.
    resolved = dict(call, status="resolved", key=f"{EVENT}/A/4/td/1/resolved")
    assert st.post_item("td_call", resolved)[0] == 201
    assert parse(chromium.dump_dom(f"{st.url}/director?token={st.token}")).items == []


def test_director_page_needs_the_token(sqlite_station):
    code, page = sqlite_station.request("GET", "/director")
    assert code == 403 and 'name="token"' in page  # the login form
    code, doc = sqlite_station.request("GET", "/director/status.json")
    assert code == 403 and "token" in doc["error"]


def test_a_quiet_table_in_the_middle_of_a_board_is_late(tmp_path):
    store = Store(str(tmp_path / "s.db"))
    st = Station(store, StationConfig(event=EVENT, late_minutes=10))
    st.register_tables(EVENT, "A", [1, 2])
    from station.records import validate_item

    for p in (auction(1, 1, 1, "playing"), auction(2, 1, 4, "bidding")):
        store.put_item(p["key"], "auction", p, **validate_item("auction", p["key"], p))
    r = result_record(table=2, board=4)
    store.put_item(r["key"], "result", r, **validate_item("result", r["key"], r))
    now = time.time()
    rows = {t["table"]: t for t in status(st, EVENT, now=now)["tables"]}
    assert not rows[1]["late"] and rows[2]["phase"] == "result_in"
    later = {t["table"]: t for t in status(st, EVENT, now=now + 11 * 60)["tables"]}
    assert later[1]["late"] and later[1]["phase_label"] == "playing"
    assert not later[2]["late"]  # between boards is not late


def test_with_the_movement_a_table_sending_only_results_shows_what_it_plays_and_when_late(tmp_path):
    import json

    from station import dataconnector
    from station.records import validate_item

    from .test_dataconnector import init_dto

    store = Store(str(tmp_path / "s.db"))
    st = Station(store, StationConfig(event=EVENT, late_minutes=10, director_token="t"))
    body = {"Command": dataconnector.INITIALIZE_EVENT, "ClubId": "c", "LicenceKey": "t",
            "SerializedData": json.dumps(init_dto(tables=2, rounds=3, boards_per_round=3).to_dict())}
    assert dataconnector.handle(st, json.dumps(body).encode())["DataType"] == dataconnector.OK
    # Table 1 plays boards 1-3 in round 1; table 2 plays 4-6 in round 1 and 7-9 in round 2.
    recs = [result_record(table=1, round_no=1, board=1), result_record(table=1, round_no=1, board=2)]
    recs += [result_record(table=2, round_no=1, board=b) for b in (4, 5, 6)]
    recs += [result_record(table=2, round_no=2, board=7)]
    for r in recs:
        store.put_item(r["key"], "result", r, **validate_item("result", r["key"], r))
    rows = {t["table"]: t for t in status(st, EVENT)["tables"]}
    assert (rows[1]["board"], rows[1]["phase"], rows[1]["late"]) == (3, "next_board", True)  # field on round 2
    assert (rows[2]["board"], rows[2]["phase"], rows[2]["late"]) == (8, "next_board", False)
    r = result_record(table=1, round_no=1, board=3)
    store.put_item(r["key"], "result", r, **validate_item("result", r["key"], r))
    rows = {t["table"]: t for t in status(st, EVENT)["tables"]}
    assert (rows[1]["phase"], rows[1]["late"]) == ("round_done", False)


def test_tablet_director_calls_open_on_the_page_until_ruled_or_attended(sqlite_station, tmp_path):
    """The tablet's own call at an irregularity (2017 L27 freezes the table) and a box's TD key,
    delivered by the real outbox over HTTP: open on the director page (status.json, what the page
    renders) until the TD rules at the table or signs in there."""
    from tablet_app.controller import Controller
    from tablet_app.outbox import Deliverer

    st = sqlite_station
    ctl = Controller(tmp_path / "tablet.db")
    d = Deliverer(str(tmp_path / "tablet.db"), st.url, f"{EVENT}/A/3", st.keys[f"{EVENT}/A/3"]).start()

    def open_calls():
        assert d.drain(), d.last_error
        s = st.request("GET", f"/director/status.json?token={st.token}")[1]
        return sorted((c["table"], c.get("seat") or "-", c.get("note") or "-") for c in s["open_td_calls"])

    try:
        ctl.setup({"event": EVENT, "section": "A", "table": 3, "round": 1, "boards": [1], "ns_pair": 3,
                   "ew_pair": 13, "profile": "dbf-2017", "policy": "record", "td_pin": "2468", "tables": 4})
        ctl.box_event("N", "call", call="1NT")
        ctl.box_event("E", "call", call="1S")  # insufficient: the table freezes and calls the TD
        ctl.box_event("W", "td")  # and West presses the TD key too
        assert open_calls() == [(3, "-", "insufficient bid (2017 L27)"), (3, "W", "-")]
        ctl.td_decide("2468", "accept")  # ruled (L27A1): the tablet's own call is over
        assert open_calls() == [(3, "W", "-")]
        assert ctl.td_attended("2468")  # the director signed in at the table: West's call too
        assert open_calls() == []
    finally:
        d.stop()
        ctl.close()
    assert [r["kind"] for r in ctl_items(tmp_path / "tablet.db")].count("td_call") == 4
    assert {r["state"] for r in ctl_items(tmp_path / "tablet.db")} == {"delivered"}


def ctl_items(db) -> list[dict]:
    import sqlite3

    with sqlite3.connect(db) as c:
        return [{"kind": k, "state": s} for k, s in c.execute("SELECT kind, state FROM outbox")]
