"""The station's refusals in the table's language (docs/interfaces.md section 3, "Refusals"):
every refusal of the tablet API carries a code and its parameters beside the English text; the
tablet says it in its language from the code (the players' red notice and the director console),
and the director page likewise. The codes are read from the station's own sources (every
`Refused.of(RefusalCode.X, ...)` it makes), never from a list written here; a real refusal goes
over real HTTP to a Danish table; an older tablet (no codes) and an older station (no codes, or a
code this tablet does not know) keep working on the English text."""
from __future__ import annotations

import ast
import json
from html import unescape

import pytest
from bridgemate_dataconnector import DataConnectorClient
from bridgemate_dataconnector.dto import DataConnectorResponseData

from shared_rules.records import REFUSAL_FIELDS, RefusalCode, Refused
from station.movement import Slot
from tablet_app import present, station_texts
from tablet_app.controller import Controller
from tablet_app.outbox import Deliverer
from tablet_app.station_client import StationError, setup_from_station
from tests.conftest import ROOT

from .conftest import EVENT, StationProcess
from .test_dataconnector import pairs_init
from .test_movement import GUID, mitchell_init


def codes_made_by_the_station() -> dict[RefusalCode, list[set[str]]]:
    """Every `Refused.of(RefusalCode.X, **params)` in the station and in the records' checks it
    runs at its door: code -> the parameter names of each place that makes it."""
    made: dict[RefusalCode, list[set[str]]] = {}
    for path in [*sorted((ROOT / "station").rglob("*.py")), *sorted((ROOT / "shared_rules" / "records").glob("*.py"))]:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "of"
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "Refused"):
                first = node.args[0]
                assert isinstance(first, ast.Attribute) and isinstance(first.value, ast.Name) \
                    and first.value.id == "RefusalCode", (path, ast.unparse(node))
                made.setdefault(RefusalCode[first.attr], []).append({k.arg for k in node.keywords if k.arg})
    return made


MADE = codes_made_by_the_station()

pytestmark = pytest.mark.server  # the file starts stations of its own (StationProcess)


def test_the_station_makes_every_code_and_each_with_the_parameters_its_code_carries():
    assert set(MADE) == set(RefusalCode), set(RefusalCode) - set(MADE)  # no code the station never sends
    wrong = {code.value: params for code, places in MADE.items() for params in places
             if params != set(REFUSAL_FIELDS[code])}
    assert wrong == {}


@pytest.mark.parametrize("code", sorted(MADE), ids=lambda c: c.value)
def test_every_code_the_station_sends_has_the_tablets_words_in_swedish_danish_and_english(code):
    sent = Refused.of(code, **{name: f"<{name}>" for name in REFUSAL_FIELDS[code]}).to_json()
    said = {lang: station_texts.reason_text("<the station's English>", lang, sent) for lang in ("sv", "da", "en")}
    assert "<the station's English>" not in said.values(), said  # every language has words for it
    assert said["sv"] != said["en"] and said["da"] != said["en"] and said["sv"] != said["da"], said
    assert all("{" not in text for text in said.values()), said


def test_an_unknown_code_or_none_falls_back_to_the_text_the_station_sent():
    english = "board 1 is not played at table A1 in round 1 (the movement gives boards 10, 11, 12)"
    newer = {"code": "law16.something_newer", "params": {"board": 1}}
    assert station_texts.reason_text("a newer station's reason", "da", newer) == "a newer station's reason"
    assert station_texts.reason_text("a newer station's reason", "da", None) == "a newer station's reason"
    # an older station: no code, its words read as before
    assert station_texts.reason_text(english, "da") == \
        "spil 1 spilles ikke ved bord A1 i runde 1 (turneringsplanen giver spillene 10, 11, 12)"


def ok(reply) -> None:
    assert reply.data_type == DataConnectorResponseData.OK, reply.serialized_data


def play_board_one(ctl: Controller) -> None:
    """Four passes on the round's first board, the result entered and confirmed."""
    for seat in "NESW":
        assert ctl.box_event(seat, "call", call="P")["ok"]
    ctl.enter_result(None)
    ctl.ew_confirm()


def test_2017_L16D1_a_refused_result_reaches_the_danish_table_in_danish_from_its_code(tmp_path):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=["--language", "da", "--profile", "dbf-2017",
                                                                              "--director-pin", "97531"]).start()
    ctl = Controller(tmp_path / "tablet.db")
    try:
        key = st.keys[f"{EVENT}/A/1"]
        scorer = DataConnectorClient("club-7", st.token, st.url)
        ok(scorer.initialize(mitchell_init()))
        setup_from_station(ctl, st.url, f"{EVENT}/A/1", key, 1)
        lang = ctl.club["language"]
        assert lang == "da"  # the club's language, from the station
        # The scoring program sends a new movement mid-round: table 1 now plays boards 10-12, and
        # board 1 is none of its boards (2017 L16D1 at the station: refused for good).
        moved = [Slot(t, 1, 10 if t == 1 else 1, 12 if t == 1 else 3, t, t) for t in (1, 2, 3, 4)]
        ok(scorer.initialize(pairs_init(moved, GUID, "Monday pairs")))
        play_board_one(ctl)
        d = Deliverer(ctl.db_path, st.url, f"{EVENT}/A/1", key)
        try:
            while d.send_one():
                pass
        finally:
            d.stop()
        delivery = ctl.snapshot()["delivery"]
        [refused] = delivery["refused"]
        assert refused["status"] == 422 and not refused["retrying"]
        assert refused["refusal"] == {"code": "law16.board_not_in_round",
                                      "params": {"board": 1, "table": "A1", "round": 1, "boards": "10, 11, 12"}}
        danish = "spil 1 spilles ikke ved bord A1 i runde 1 (turneringsplanen giver spillene 10, 11, 12)"
        # the players' red notice and the director console, in the table's language
        assert danish in station_texts.refused_banner(delivery, lang)
        assert any(danish in line for line in present.delivery_report(delivery, True, ctl.snapshot()["station"], lang))
        # An older tablet reads only `error`: the station's English as it always was, which that
        # tablet says in Danish by its words.
        assert refused["reason"].startswith("board 1 is not played at table A1 in round 1 (the movement gives "
                                            "boards 10, 11, 12)")
        assert station_texts.reason_text(refused["reason"], lang) == danish
        # The director page, in the club's language, says the refusal from its code too.
        status, page = st.request("GET", f"/director?event={EVENT}&token={st.token}")
        assert status == 200 and isinstance(page, str)
        assert f"HTTP 422 {danish}" in unescape(page)
        status, doc = st.request("GET", f"/director/status.json?event={EVENT}&token={st.token}")
        assert status == 200 and isinstance(doc, dict)
        assert doc["refusals"][0]["refused"]["code"] == "law16.board_not_in_round"
    finally:
        ctl.close()
        st.stop()


def test_a_wrong_table_key_is_told_on_the_console_in_the_tables_language(sqlite_station, tmp_path):
    st = sqlite_station
    ctl = Controller(tmp_path / "tablet.db")
    try:
        with pytest.raises(StationError) as e:
            setup_from_station(ctl, st.url, f"{EVENT}/A/2", "AAAA-BBBB-CCCC-DDDD", 1)
        assert e.value.reason == "refused"
        assert e.value.refused == Refused(RefusalCode.TABLE_KEY_WRONG, {"table": "A2"})
        lines = present.delivery_report(ctl.snapshot()["delivery"], False, ctl.snapshot()["station"], "sv")
        assert any("stationen känner inget bord A2 med denna nyckel" in line for line in lines), lines
    finally:
        ctl.close()


def test_a_typed_setup_with_another_tables_key_is_refused_in_the_tables_language(sqlite_station, tmp_path):
    from tablet_app import i18n
    from tablet_app.session import SetupError
    from tablet_app.station_client import station_check

    st = sqlite_station
    ctl = Controller(tmp_path / "tablet.db")
    try:
        ctl.station_check = station_check(st.url, st.keys[f"{EVENT}/A/2"])
        with pytest.raises(SetupError) as e:
            ctl.setup({"event": EVENT, "section": "A", "table": 3, "round": 1, "boards": [1, 2, 3], "ns_pair": 3,
                       "ew_pair": 13, "profile": "dbf-2017", "td_pin": "4321", "tables": 4})
        assert e.value.key == "setup.station_refused"
        assert i18n.error_text(e.value, "da") == (
            f"Stationen afviste bord {EVENT}/A/3: stationen kender intet bord A3 med denne nøgle: kontrollér bordet "
            "og dets nøgle (på turneringslederens side)")
        assert i18n.error_text(e.value, "en").endswith(": the station knows no table A3 with this key: check the "
                                                      "table and its key (on the director page)")
    finally:
        ctl.close()


def test_each_answer_of_the_tablet_api_carries_its_code_and_parameters(sqlite_station):
    st = sqlite_station
    headers = st.table_headers(f"{EVENT}/A/1")

    def answer(method: str, path: str, body: bytes | None = None, h: dict | None = None) -> tuple[int, dict]:
        status, doc = st.request(method, path, body, h if h is not None else headers)
        assert isinstance(doc, dict), doc
        return status, doc

    # every answer keeps `error` (English, for an older tablet) beside the code
    status, doc = answer("GET", "/api/v1/movement", h={"X-Table": f"{EVENT}/A/1", "Authorization": "Bearer nope"})
    assert (status, doc["code"], doc["params"]) == (403, "table.key_wrong", {"table": "A1"})
    assert doc["error"] == f"unknown table or wrong key for {EVENT}/A/1"
    status, doc = answer("GET", "/api/v1/movement")
    assert (status, doc["code"], doc["params"]) == (404, "movement.not_yet", {"section": "A"})
    status, doc = answer("GET", "/api/v1/players?number=12x")
    assert (status, doc["code"], doc["params"]) == (400, "players.number", {"number": "12x"})
    status, doc = answer("POST", "/api/v1/items", b"{not json")
    assert (status, doc["code"]) == (400, "record.form") and doc["params"]["detail"].startswith("malformed JSON")
    status, doc = answer("POST", "/api/v1/director-pin", json.dumps({"pin": "12"}).encode())
    assert (status, doc["code"], doc["params"]) == (400, "pin.request", {})
    status, doc = answer("POST", "/api/v1/items/batch", json.dumps({"items": ["x"]}).encode())
    assert status == 200 and doc["results"][0]["code"] == "batch.item" and doc["results"][0]["status"] == 400


def test_a_database_and_an_outbox_from_before_the_codes_take_them(tmp_path):
    import sqlite3

    from station.store import Store
    from tablet_app.outbox import Outbox

    db = tmp_path / "station.db"
    with sqlite3.connect(db) as c:  # the refusals table as stations before the codes made it
        c.execute("CREATE TABLE refusals (id INTEGER PRIMARY KEY AUTOINCREMENT, event TEXT NOT NULL, "
                  "section TEXT NOT NULL, table_no INTEGER NOT NULL, item_key TEXT, status INTEGER NOT NULL, "
                  "error TEXT NOT NULL, at TEXT NOT NULL)")
        c.execute("INSERT INTO refusals (event, section, table_no, item_key, status, error, at) "
                  "VALUES ('e', 'A', 1, NULL, 409, 'an old refusal', '2026-11-22T19:00:00Z')")
    store = Store(str(db))
    try:
        store.refuse("e", "A", 1, "e/A/1/1/1/1", 422, "board 1 ...", Refused.of(
            RefusalCode.LAW16_READ_BEFORE_OWN, board=1).to_json())
        newest, old = store.refusals("e")[("A", 1)]
        assert newest["refused"] == {"code": "law16.read_before_own", "params": {"board": 1}}
        assert (old["error"], old["refused"]) == ("an old refusal", None)
    finally:
        store.close()
    conn = sqlite3.connect(tmp_path / "tablet.db")  # an outbox as tablets before the codes made it
    conn.execute("CREATE TABLE outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, "
                 "item_key TEXT NOT NULL UNIQUE, payload TEXT NOT NULL, enqueued_at REAL NOT NULL, "
                 "state TEXT NOT NULL DEFAULT 'pending', attempts INTEGER NOT NULL DEFAULT 0, last_error TEXT, "
                 "done_at REAL, digest TEXT, held_until REAL)")
    conn.execute("INSERT INTO outbox (kind, item_key, payload, enqueued_at, state, last_error) VALUES "
                 "('result', 'e/A/1/1/1/1', '{}', 0, 'rejected', 'HTTP 422: board 1 is not played')")
    Outbox(conn)
    [refused] = Outbox(conn).delivery()["refused"]
    assert (refused["reason"], refused["refusal"]) == ("board 1 is not played", None)
    conn.close()
