"""Validation at the door and results only where the movement allows,
written as the attacks that found the breaks: poisoned items from one table, malformed Data
Connector requests, a flood from one key, a table reading boards it never played."""
import json

import pytest
from bridgemate_dataconnector import DataConnectorClient
from bridgemate_dataconnector.dto import DataConnectorResponseData

from station.store import ROOMS

from .conftest import EVENT, StationProcess, result_record
from .test_dataconnector import GUID, handrecord, init_dto

pytestmark = pytest.mark.server  # starts the results station as a process

# init_dto(): table t plays boards ((t + r - 2) % 3) * 3 + 1 .. +2 in round r; table 1 round 1: 1-3.


@pytest.fixture
def scored(sqlite_station):
    client = DataConnectorClient("club-7", sqlite_station.token, sqlite_station.url)
    assert client.initialize(init_dto()).data_type == DataConnectorResponseData.OK
    return sqlite_station, client


@pytest.fixture(scope="module")
def door(tmp_path_factory):
    """One station for the attacks that must each change nothing (a refusal stores no item)."""
    tmp = tmp_path_factory.mktemp("door")
    st = StationProcess(str(tmp / "station.db"), tmp).start()
    client = DataConnectorClient("club-7", st.token, st.url)
    assert client.initialize(init_dto()).data_type == DataConnectorResponseData.OK
    yield st, client
    assert st.request("GET", "/api/v1/health")[1]["items"] == 0
    st.stop()


def raw_post(st, doc_or_bytes, table: str = f"{EVENT}/A/1"):
    body = doc_or_bytes if isinstance(doc_or_bytes, bytes) else json.dumps(doc_or_bytes).encode()
    return st.request("POST", "/api/v1/items", body, st.table_headers(table))


def td_call(**over) -> dict:
    p = {"event": EVENT, "section": "A", "table": 1, "round": 1, "board": 1, "at": "2026-11-22T19:40:00Z",
         "seat": "N", "reason": "insufficient bid"}
    p.update(over)
    p["key"] = f"{EVENT}/A/1/1/1/td/1"
    return p


def auction_log(seq: int = 1, **over) -> dict:
    p = {"event": EVENT, "section": "A", "table": 1, "round": 1, "board": 1, "seq": seq, "phase": "bidding",
         "calls": [{"seat": "N", "call": "1H", "alerted": True, "explanation": "5+ hearts"}],
         "at": "2026-11-22T19:41:00Z"}
    p.update(over)
    p["key"] = f"{EVENT}/A/1/1/1/auction/{seq}"
    return p


def item(kind: str, payload: dict) -> dict:
    return {"kind": kind, "key": payload["key"], "payload": payload}


POISON = [
    ("td call at 1e300", item("td_call", td_call(at=1e300))),
    ("td call at -5", item("td_call", td_call(at=-5))),
    ("td call at garbage", item("td_call", td_call(at="yesterday"))),
    ("think 1e300", item("result", result_record(auction=[{"seat": "N", "call": "PASS", "think": 1e300}] * 4,
                                                  contract="PASS", declarer=None, tricks=None, score_ns=0))),
    ("entered_at garbage", item("result", result_record(entered_at="garbage"))),
    ("entered_at month 13", item("result", result_record(entered_at="2026-13-22T19:45:12Z"))),
    ("artificial without ew", item("result", result_record(contract=None, declarer=None, tricks=None, score_ns=None,
                                                           lead=None, adjusted={"kind": "artificial", "ns": "avg+"}))),
    ("split without sides", item("result", result_record(contract=None, declarer=None, tricks=None, score_ns=None,
                                                         lead=None, adjusted={"kind": "split"}))),
    ("assigned without a score", item("result", result_record(contract=None, declarer=None, tricks=None,
                                                              score_ns=None, lead=None,
                                                              adjusted={"kind": "assigned"}))),
    ("irregularity kind forging PBN tags", item("result", result_record(irregularities=[
        {"kind": 'x}\n[Contract "7NT"]\n[Result "13"]\n{', "seat": "E"}]))),
    ("alert explanation with a newline", item("auction", auction_log(calls=[
        {"seat": "N", "call": "1H", "alerted": True, "explanation": 'ok\n[Result "13"]'}]))),
    ("control character in a TD note", item("td_call", td_call(reason="a\x00b"))),
    ("unknown kind", {"kind": "score", "key": f"{EVENT}/A/1/1/1/1", "payload": result_record()}),
    ("a text of 100 kB", item("td_call", td_call(reason="x" * 100_000))),
    ("a 5000-call auction", item("auction", auction_log(calls=[{"seat": "N", "call": "PASS"}] * 5000))),
]


@pytest.mark.parametrize("name,doc", POISON, ids=[p[0] for p in POISON])
def test_a_poisoned_item_is_refused_with_422_and_a_reason(door, name, doc):
    st, _ = door
    status, reply = raw_post(st, doc)
    assert status == 422, (name, reply)
    assert reply["error"]


RAW_POISON = [
    ("NaN think", b'{"kind": "auction", "key": "K", "payload": {"think": NaN}}'),
    ("Infinity at", b'{"kind": "td_call", "key": "K", "payload": {"at": Infinity}}'),
    ("100k-deep JSON", b"[" * 100_000 + b"]" * 100_000),
    ("5000-digit integer", b'{"kind": "result", "key": "K", "payload": {"board": ' + b"9" * 5000 + b"}}"),
    ("not UTF-8", b'{"kind": "\xff"}'),
    ("a JSON list", b"[1, 2]"),
]


@pytest.mark.parametrize("name,body", RAW_POISON, ids=[p[0] for p in RAW_POISON])
def test_malformed_json_is_refused_with_400_not_500(door, name, body):
    st, _ = door
    status, reply = raw_post(st, body)
    assert status == 400, (name, reply)


def test_poisoned_items_leave_every_page_export_and_poll_working(scored):
    st, client = scored
    for _name, doc in POISON:
        raw_post(st, doc)
    for _name, body in RAW_POISON:
        raw_post(st, body)
    assert st.post_item("result", result_record())[0] == 201
    assert st.post_item("td_call", td_call())[0] == 201
    for path in ("/director", "/director/status.json", "/export/pbn", "/export/usebio"):
        status, _ = st.request("GET", f"{path}?token={st.token}")
        assert status == 200, path
    assert len(client.poll_for_td_calls(GUID)) == 1
    assert len(client.poll_for_results(GUID)) == 1
    status, doc = st.request("GET", f"/director/status.json?token={st.token}")
    assert len([r for r in doc["refusals"] if r["table"] == "A1"]) == len(POISON) + len(RAW_POISON)


def test_one_key_cannot_flood_the_station(scored):
    """The break: one key stored 10,000 items (200 MB) in 14 s. Auction logs of ~220 kB each
    (a legal size) until the table's quota refuses; another table still delivers."""
    st, _ = scored
    calls = [{"seat": "NESW"[i % 4], "call": "PASS", "explanation": "e" * 690} for i in range(300)]
    stored = 0
    for seq in range(1, 200):
        status, reply = raw_post(st, item("auction", auction_log(seq, calls=calls)))
        if status != 201:
            break
        stored += 1
    assert status == 413 and "limit per table" in reply["error"]
    assert stored * 220_000 <= ROOMS["auction"].bytes + 250_000
    # What was stored is still acknowledged again (the tablet's resend of a lost reply) ...
    assert raw_post(st, item("auction", auction_log(1, calls=calls)))[0] == 200
    # ... the flooding table's result still has its own room ...
    assert st.post_item("result", result_record(table=1, board=1))[0] == 201
    # ... and another table is not affected.
    rec = result_record(table=2, board=4)
    assert st.post_item("result", rec)[0] == 201


def test_a_table_posts_and_reads_only_boards_its_movement_gives_it(scored):
    """The break: a table posted a result for a board its movement never gave it and then read
    every other table's result on that board (Law 16 gate)."""
    st, _ = scored
    # Table 2 plays boards 4-6 in round 1; table 3 boards 7-9.
    assert st.post_item("result", result_record(table=2, board=4))[0] == 201
    assert st.post_item("result", result_record(table=3, board=7, round_no=1))[0] == 201
    status, reply = st.post_item("result", result_record(table=1, board=4))
    assert status == 422 and "movement" in reply["error"]
    status, reply = st.post_item("result", result_record(table=1, round_no=2, board=1))
    assert status == 422      # board 1 is round 1's at table 1, not round 2's
    status, _ = st.request("GET", "/api/v1/boards/4/results", headers=st.table_headers(f"{EVENT}/A/1"))
    assert status == 403
    # A board in its movement but not yet played: still the Law 16 gate.
    status, _ = st.request("GET", "/api/v1/boards/1/results", headers=st.table_headers(f"{EVENT}/A/1"))
    assert status == 403
    assert st.post_item("result", result_record(table=1, board=1))[0] == 201
    status, doc = st.request("GET", "/api/v1/boards/1/results", headers=st.table_headers(f"{EVENT}/A/1"))
    assert status == 200 and [r["table"] for r in doc["results"]] == [1]
    # Table 2 plays board 1 in round 3 (boards 1-3), so it may read board 1 once it has played it.
    status, _ = st.request("GET", "/api/v1/boards/1/results", headers=st.table_headers(f"{EVENT}/A/2"))
    assert status == 403


# -- the Data Connector: always HTTP 200 with an error reply --------------------------------
def dc(st, command, data, session: str | None = GUID, raw: bool = False):
    body = {"Command": command, "ClubId": "club-7", "LicenceKey": st.token, "SessionGuid": session,
            "SerializedData": data if raw else json.dumps(data)}
    return st.request("POST", "/dc-scoringprogram", json.dumps(body).encode(),
                      {"Content-Type": "application/json"})


def good_init() -> dict:
    return init_dto().to_dict()


def with_round(**over) -> dict:
    d = good_init()
    d["Sessions"][0]["ScoringGroups"][0]["Sections"][0]["Tables"][0]["Rounds"][0].update(over)
    return d


def with_table(**over) -> dict:
    d = good_init()
    d["Sessions"][0]["ScoringGroups"][0]["Sections"][0]["Tables"][0].update(over)
    return d


def bad_deal(**over) -> dict:
    d = good_init()
    h = handrecord(1).to_dict()
    h.update(over)
    d["Handrecords"] = [handrecord(2).to_dict(), h]
    return d


MALFORMED_DC = [
    ("init: a list", 5, []),
    ("init: Sessions a number", 5, {"Sessions": 5}),
    ("init: a session a number", 5, {"Sessions": [5]}),
    ("init: ScoringGroups a string", 5, {"Sessions": [{"SessionGuid": GUID, "ScoringGroups": "x"}]}),
    ("init: Tables a number", 5, {"Sessions": [{"SessionGuid": GUID, "ScoringGroups": [
        {"SessionGuid": GUID, "ScoringGroupNumber": 1, "ScoringMethod": 10,
         "Sections": [{"SessionGuid": GUID, "ScoringGroupNumber": 1, "Letters": "A", "Tables": 5}]}]}]}),
    ("init: TableNumber text", 5, with_table(TableNumber="x")),
    ("init: TableNumber 10^6", 5, with_table(TableNumber=10**6)),
    ("init: a round a number", 5, with_table(Rounds=[7])),
    ("init: boards 1..10^7", 5, with_round(LowBoardNumber=1, HighBoardNumber=10**7)),
    ("init: HighBoardNumber 1.5", 5, with_round(HighBoardNumber=1.5)),
    ("init: PairNS -3", 5, with_round(PairNS=-3)),
    ("init: a 208-card deal", 5, bad_deal(NorthSpades="AKQJT98765432" * 4)),
    ("init: a card twice", 5, bad_deal(NorthSpades="AK4", EastSpades="AJ98")),
    ("init: EventGuid with a wildcard", 5, {**good_init(), "EventGuid": "%"}),
    ("continue: EventGuid %", 31, {"EventGuid": "%", "ClubId": "club-7"}),
    ("continue: a list", 31, []),
    ("update movement: Tables text", 6, {"SessionGuid": GUID, "Letters": "A", "Tables": "x"}),
    ("update movement: round boards 10^7", 6, {"SessionGuid": GUID, "ScoringGroupNumber": 1, "Letters": "A",
                                               "Tables": [{"SessionGuid": GUID, "SectionLetters": "A",
                                                           "TableNumber": 1, "Rounds": [
                                                               {"SessionGuid": GUID, "SectionLetters": "A",
                                                                "TableNumber": 1, "RoundNumber": 1, "PairNS": 1,
                                                                "PairEW": 2, "LowBoardNumber": 1,
                                                                "HighBoardNumber": 10**7}]}]}),
    ("handrecords: numbers", 13, [1, 2]),
    ("handrecords: a dict", 13, {"BoardNumber": 1}),
    ("handrecords: 208 cards", 13, [{**handrecord(1).to_dict(), "SouthHearts": "AKQJT98765432" * 4}]),
    ("handrecords: unknown section", 13, [{**handrecord(1).to_dict(), "SectionLetters": "Q"}]),
    ("accept: text", 27, "abc"),
    ("accept: true", 27, True),
    ("accept: deep", 27, "[" * 50_000 + "]" * 50_000),
    ("bm3 settings: a number", 15, [5]),
]


@pytest.mark.parametrize("name,command,data", MALFORMED_DC, ids=[m[0] for m in MALFORMED_DC])
def test_a_malformed_data_connector_request_gets_an_error_reply_with_http_200(door, name, command, data):
    st, _ = door
    status, reply = dc(st, command, data, raw=isinstance(data, str) and data.startswith("["))
    assert status == 200, (name, reply)
    assert reply["DataType"] == DataConnectorResponseData.Error, (name, reply)
    assert len(json.dumps(reply)) < 5000


@pytest.mark.parametrize("session", ["%", "_" * 32, "0123456789abcdef0123456789abcdef", None])
def test_a_wildcard_or_malformed_session_guid_matches_no_session(scored, session):
    st, _ = scored
    assert st.post_item("result", result_record())[0] == 201
    status, reply = dc(st, 23, "", session=session)
    assert status == 200 and reply["DataType"] == DataConnectorResponseData.Error


@pytest.mark.parametrize("envelope", [b"null", b"[]", b'{"Command": "5"}', b"[" * 100_000,
                                      b'{"Command": 5, "ClubId": "c", "LicenceKey": 7}'])
def test_a_malformed_envelope_gets_an_error_reply_with_http_200(door, envelope):
    st, _ = door
    status, reply = st.request("POST", "/dc-scoringprogram", envelope, {"Content-Type": "application/json"})
    assert status == 200 and reply["DataType"] == DataConnectorResponseData.Error


def test_initialize_with_one_bad_hand_record_changes_nothing(scored):
    """The break: InitializeEvent with one bad hand record returned 500 after it had already
    replaced the movement."""
    st, _ = scored
    before = st.request("GET", "/api/v1/movement", headers=st.table_headers())
    d = bad_deal(WestClubs="T98X")
    d["Sessions"][0]["ScoringGroups"][0]["Sections"][0]["Tables"][0]["Rounds"][0].update(
        LowBoardNumber=20, HighBoardNumber=22)
    status, reply = dc(st, 5, d, session=None)
    assert status == 200 and reply["DataType"] == DataConnectorResponseData.Error
    assert st.request("GET", "/api/v1/movement", headers=st.table_headers()) == before
