"""One bad stored row must not break a page for the whole event (station/stored.py).

Written as the attack that found the break: a result without `round`, a list or junk in a TD
call, a payload that is not JSON, written straight into the station's database (SQLite and
PostgreSQL), made every table's board-results request, the director page and status.json answer
500. Here every kind of damage is written beside good rows, and every page and endpoint that
reads stored items must answer 200, name each damaged row by its key, and still show the good
rows."""
import html
import json
import sqlite3
from typing import Any

import pytest
from bridgemate_dataconnector import DataConnectorClient
from bridgemate_dataconnector.dto import DataConnectorResponseData

from station.stored import Damaged, read_row

from .conftest import EVENT, result_record
from .test_dataconnector import GUID, init_dto

# init_dto(): tables 1 and 4 play boards 1-3 in round 1, table 2 boards 4-6, table 3 boards 7-9.


def result_text(table: int = 2, revision: int = 1, **over) -> tuple[str, dict]:
    """(key, payload) of a result on board 1 of round 1, `over` applied (None: left out)."""
    p = result_record(table=table, board=1, revision=revision)
    for name, value in over.items():
        if value is _GONE:
            p.pop(name)
        else:
            p[name] = value
    return f"{EVENT}/A/{table}/1/1/{revision}", p


_GONE = object()
TD_KEY = f"{EVENT}/A/1/1/1/td/{{n}}"
AUC_KEY = f"{EVENT}/A/1/1/1/auction/{{n}}"


def td(n: int, **over) -> tuple[str, dict]:
    p: dict[str, Any] = {"kind": "td_call", "event": EVENT, "section": "A", "table": 1, "round": 1, "board": 1, "seat": "E",
         "t": 3.0, "reason": None, "at": "2026-11-22T19:40:00Z"}
    p.update(over)
    p = {k: v for k, v in p.items() if v is not _GONE}
    p["key"] = TD_KEY.format(n=n)
    return p["key"], p


def progress(n: int, **over) -> tuple[str, dict]:
    p = {"event": EVENT, "section": "A", "table": 1, "round": 1, "board": 1, "seq": n, "phase": "bidding",
         "calls": [], "at": "2026-11-22T19:41:00Z"}
    p.update(over)
    return AUC_KEY.format(n=n), p


def damage() -> list[dict]:
    """Every kind of damage: (what, kind, key, payload text, column overrides). Each row's key is
    its own; the results are filed on board 1, where tables 1 and 4 have good results."""
    rows: list[dict[str, Any]] = []

    def row(what, kind, key, text, **cols):
        rows.append({"what": what, "kind": kind, "key": key, "payload": text, "cols": cols})

    def result(what, revision, **over):
        key, p = result_text(revision=revision, **over)
        row(what, "result", key, json.dumps(p), revision=revision)

    # -- a result's missing fields and wrong types
    result("result without round", 1, round=_GONE)
    result("round as a list", 2, round=[1])
    result("round as a string", 3, round="1")
    result("round as null", 4, round=None)
    result("round as a float", 5, round=1.0)
    result("pairs as markup", 6, ns_pair="<b>2</b>")
    result("contract as a number", 7, contract=4)
    result("tricks beyond any int", 8, tricks=10**30)
    result("tricks as 1e300", 9, tricks=1e300)
    result("adjusted as a list", 10, adjusted=["x"])
    result("withdrawn as a word", 11, withdrawn="yes")
    result("section not the key's", 12, section="B")
    result("another table in the payload", 13, table=3)
    result("event not the key's", 14, event="other-event")
    key, p = result_text(revision=15)
    row("5000-digit score", "result", key, json.dumps(p).replace('"score_ns": 420', '"score_ns": ' + "9" * 5000),
        revision=15)
    key, p = result_text(revision=16)
    row("nested 100,000 deep", "result", key, json.dumps(p)[:-1] + ', "pad": ' + "[" * 100_000 + "]" * 100_000 + "}",
        revision=16)
    key, p = result_text(revision=17)
    row("nested 100 deep", "result", key, json.dumps(p)[:-1] + ', "pad": ' + "[" * 100 + "]" * 100 + "}",
        revision=17)
    result("a megabyte of note", 18, note="x" * 1_000_000)
    # -- payloads that are no object
    for rev, (what, text) in enumerate([("not JSON", "{not json"), ("a JSON list", "[1, 2]"), ("JSON null", "null"),
                                        ("a JSON string", '"a result"'), ("empty", "")], start=19):
        row(what, "result", f"{EVENT}/A/2/1/1/{rev}", text, revision=rev)
    # -- kinds and keys the door never took
    key, p = result_text(revision=24)
    row("unknown kind", "gossip", key, json.dumps(p), revision=24)
    key, p = result_text(revision=25)
    row("kind in capitals", "RESULT", key, json.dumps(p), revision=25)
    row("a key that is no key", "result", "not/a/key", json.dumps(result_text(revision=26)[1]), revision=26)
    row("a key with markup", "result", "<script>alert(1)</script>", json.dumps(result_text(revision=27)[1]),
        revision=27)
    # -- junk TD calls
    junk_td: list[tuple[str, dict[str, Any]]] = [
        ("TD status exploded", {"status": "exploded"}), ("TD time yesterday", {"at": "yesterday"}),
        ("TD time 1e300", {"at": 1e300}), ("TD note a list", {"note": ["a"]}),
        ("TD board an object", {"board": {"n": 1}}), ("TD without round", {"round": _GONE}),
        ("TD seat X", {"seat": "X"})]
    for n, (what, over) in enumerate(junk_td, start=10):
        key, p = td(n, **over)
        board = p.get("board") if isinstance(p.get("board"), int) else None
        row(what, "td_call", key, json.dumps(p), revision=None, board=board)
    # -- progress snapshots
    junk_progress: list[tuple[str, dict[str, Any]]] = [
        ("phase a list", {"phase": ["bidding"]}), ("phase dancing", {"phase": "dancing"}),
        ("calls a string", {"calls": "1NT"})]
    for n, (what, over) in enumerate(junk_progress, start=10):
        key, p = progress(n, **over)
        row(what, "auction", key, json.dumps(p), revision=None)
    return rows


def sqlite_only() -> list[dict]:
    """What only SQLite's loose types can hold: a payload of bytes or a number, a table number as
    text, a time as bytes, a key as a number."""
    rows: list[dict[str, Any]] = []
    key, p = result_text(revision=40)
    rows.append({"what": "payload not UTF-8", "kind": "result", "key": key, "payload": b"\xff\xfe{",
                 "cols": {"revision": 40}})
    key, p = result_text(revision=41)
    rows.append({"what": "payload a number", "kind": "result", "key": key, "payload": 42, "cols": {"revision": 41}})
    key, p = result_text(revision=42)
    rows.append({"what": "table_no as text", "kind": "result", "key": key, "payload": json.dumps(p),
                 "cols": {"revision": 42, "table_no": "two"}})
    key, p = result_text(revision=43)
    rows.append({"what": "received_at bytes", "kind": "result", "key": key, "payload": json.dumps(p),
                 "cols": {"revision": 43, "received_at": b"2026-11-22T19:50:00Z"}})
    rows.append({"what": "key a number", "kind": "result", "key": 7, "payload": json.dumps(result_text(revision=44)[1]),
                 "cols": {"revision": 44}})
    return rows


def write(db: str, rows: list[dict]) -> None:
    """Straight into the station's items table, past its door."""
    cols = "item_key, kind, event, section, table_no, round_no, board, revision, digest, payload, received_at"
    values = []
    for r in rows:
        c = {"event": EVENT, "section": "A", "table_no": 1 if r["kind"] in ("td_call", "auction") else 2,
             "round_no": 1, "board": 1, "received_at": "2026-11-22T19:50:00Z", **r["cols"]}
        values.append((r["key"], r["kind"], c["event"], c["section"], c["table_no"], c["round_no"], c["board"],
                       c.get("revision"), "x", r["payload"], c["received_at"]))
    if db.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(db, autocommit=True) as conn:
            for v in values:
                conn.execute(f"INSERT INTO items ({cols}) VALUES ({', '.join(['%s'] * 11)})", v)
    else:
        with sqlite3.connect(db, timeout=30) as conn:
            conn.executemany(f"INSERT INTO items ({cols}) VALUES ({', '.join(['?'] * 11)})", values)


@pytest.fixture
def damaged_station(station):
    """A session with good rows (tables 1 and 4 on board 1, a TD call, a snapshot) and every kind
    of damage beside them."""
    client = DataConnectorClient("club-7", station.token, station.url)
    assert client.initialize(init_dto()).data_type == DataConnectorResponseData.OK
    assert station.post_item("result", result_record(table=1, board=1, ns_pair=1, ew_pair=5))[0] == 201
    assert station.post_item("result", result_record(table=4, board=1, ns_pair=4, ew_pair=8, tricks=11,
                                                     score_ns=450))[0] == 201
    assert station.post_item("td_call", td(1)[1])[0] == 201
    key, p = progress(1)
    body = json.dumps({"kind": "auction", "key": key, "payload": p}).encode()
    assert station.request("POST", "/api/v1/items", body, station.table_headers())[0] == 201
    rows = damage() + (sqlite_only() if not station.db.startswith("postgresql://") else [])
    write(station.db, rows)
    return station, client, rows


def key_text(r: dict) -> str:
    return r["key"] if isinstance(r["key"], str) else str(r["key"])


def test_every_reader_answers_200_names_each_damaged_row_and_shows_the_good_ones(damaged_station):
    st, client, rows = damaged_station
    auth = {"Authorization": f"Bearer {st.token}"}
    code, doc = st.request("GET", "/director/status.json", headers=auth)
    assert code == 200, doc
    named = {d["key"]: d for d in doc["damaged"]}
    for r in rows:
        assert key_text(r) in named, r["what"]
        assert named[key_text(r)]["why"], r["what"]
    assert len(doc["damaged"]) == len(rows)
    # the good rows are all there
    assert sorted((r["table"], r["board"]) for r in doc["results"]) == [(1, 1), (4, 1)]
    assert [(c["table"], c["status"]) for c in doc["open_td_calls"]] == [(1, "launched")]
    table1 = next(t for t in doc["tables"] if t["table"] == 1)
    assert (table1["round"], table1["results"]) == (1, 1)
    # The reasons say what is wrong, field by field.
    why = {r["what"]: named[key_text(r)]["why"] for r in rows}
    assert why["result without round"] == "payload.round is None, its key says 1"
    assert why["round as a list"] == "payload.round is [1], its key says 1"
    assert "round" in why["round as a float"]
    assert "ns_pair" in why["pairs as markup"] and "contract" in why["contract as a number"]
    assert "not JSON" in why["not JSON"] and "kind" in why["unknown kind"]
    assert "deep" in why["nested 100,000 deep"] and "deep" in why["nested 100 deep"]
    assert "status" in why["TD status exploded"] and "at" in why["TD time yesterday"]
    assert "phase" in why["phase dancing"]

    code, page = st.request("GET", "/director", headers=auth)
    assert code == 200
    assert f"Damaged stored items ({len(rows)})" in page
    for r in rows:
        assert html.escape(key_text(r)) in page, r["what"]
    assert "<script>alert(1)</script>" not in page and "<b>2</b>" not in page
    assert page.count('<tr class="result">') == 2
    for t in (1, 2):
        code, page = st.request("GET", f"/director/table?section=A&table={t}", headers=auth)
        assert code == 200
    assert 'id="damaged"' in page  # table 2's page lists its damaged rows

    code, health = st.request("GET", "/api/v1/health")
    assert code == 200 and health["status"] == "ok" and health["damaged"] == len(rows)

    # A table's traveller: its own and table 4's result, nothing of the damage.
    for t in (1, 4):
        code, doc = st.request("GET", "/api/v1/boards/1/results", headers=st.table_headers(f"{EVENT}/A/{t}"))
        assert code == 200, doc
        assert sorted(r["table"] for r in doc["results"]) == [1, 4]
    # The table whose rows are damaged still gets its movement (its results are what reads).
    code, movement = st.request("GET", "/api/v1/movement", headers=st.table_headers(f"{EVENT}/A/2"))
    assert code == 200 and movement["current_round"] == 1

    # The scoring program's polls: the good results and the good TD call.
    new = client.poll_for_results(GUID)
    assert sorted((r.table_number, r.board_number) for r in new) == [(1, 1), (4, 1)]
    assert sorted((r.table_number, r.board_number) for r in client.poll_for_results(GUID, all=True)) == [(1, 1), (4, 1)]
    assert [c.table_number for c in client.poll_for_td_calls(GUID)] == [1]
    # The exports read the same rows (station/exports.py is not this test's, but must not fail).
    for path in ("/export/pbn", "/export/usebio"):
        assert st.request("GET", path, headers=auth)[0] == 200, path


def test_a_damaged_latest_revision_leaves_the_one_before_standing(damaged_station):
    """Revision 2 of table 1's board 1 written damaged: revision 1 still stands, the table still
    reads its traveller (Law 16) and the page shows its result."""
    st, _, rows = damaged_station
    key, p = result_text(table=1, revision=2, round=[1])
    write(st.db, [{"what": "", "kind": "result", "key": key, "payload": json.dumps(p),
                   "cols": {"table_no": 1, "revision": 2}}])
    code, doc = st.request("GET", "/api/v1/boards/1/results", headers=st.table_headers(f"{EVENT}/A/1"))
    assert code == 200 and sorted(r["table"] for r in doc["results"]) == [1, 4]
    code, doc = st.request("GET", "/director/status.json", headers={"Authorization": f"Bearer {st.token}"})
    assert code == 200 and key in {d["key"] for d in doc["damaged"]}
    assert sorted(r["table"] for r in doc["results"]) == [1, 4]


@pytest.mark.parametrize("payload, why", [
    ('{"a": NaN}', None), ("[]", "not a JSON object"), ("1e999", "not a JSON object"),
])
def test_nan_and_infinity_read_as_null_so_every_reply_stays_json(payload, why):
    key, p = result_text(score_ns=None)
    text = json.dumps(p)[:-1] + ', "think_total": NaN, "big": 1e999}' if why is None else payload
    got = read_row((1, key, "result", EVENT, "A", 2, 1, 1, 1, "2026-11-22T19:50:00Z", text))
    if why is None:
        assert not isinstance(got, Damaged)
        assert got["payload"]["think_total"] is None and got["payload"]["big"] is None
        json.dumps(got["payload"], allow_nan=False)
    else:
        assert isinstance(got, Damaged) and why in got.why
