"""Session setup from the station's movement: the scoring program initialises the movement
through the Data Connector (the official client), the tablet fetches its table's movement over
real HTTP with its key (tablet_app.station_client), plays a board through the controller, and
the Deliverer brings the result back to the station, where the scoring program pulls it."""
import itertools
import json
from typing import Any

import pytest
from bridgemate_dataconnector import DataConnectorClient
from bridgemate_dataconnector.dto import (
    DataConnectorResponseData,
    InitDTO,
)

from shared_rules.boards import dealer
from station.movement import NoMovement, Slot, table_movement
from tablet_app.controller import Controller
from tablet_app.outbox import Deliverer
from tablet_app.session import SetupError
from tablet_app.station_client import (
    StationError,
    fetch_movement,
    next_round_from_station,
    setup_from_station,
)

from .conftest import EVENT, StationProcess, result_record
from .test_dataconnector import pairs_init

pytestmark = pytest.mark.server  # starts the results station as a process

GUID = "00112233445566778899AABBCCDDEEFF"
TABLES, ROUNDS, PER_ROUND = 4, 3, 3


def mitchell_slot(t: int, r: int) -> Slot:
    """A 4-table Mitchell: NS stay, EW move up one table, boards move down one table."""
    low = ((t - 1 + r - 1) % TABLES) * PER_ROUND + 1
    return Slot(t, r, low, low + PER_ROUND - 1, t, (t - r) % TABLES + 1)


def mitchell_init(tables: int = TABLES) -> InitDTO:
    return pairs_init([mitchell_slot(t, r) for t in range(1, tables + 1) for r in range(1, ROUNDS + 1)],
                      GUID, "Monday pairs")


class Clock:
    def __init__(self) -> None:
        self.t = 1_790_000_000.0

    def __call__(self) -> float:
        return self.t


def table_id(t: int) -> str:
    return f"{EVENT}/A/{t}"


def get_movement(st: StationProcess, t: int, key: str | None = None, headers: dict | None = None):
    return st.request("GET", "/api/v1/movement", headers=headers if headers is not None
                      else st.table_headers(table_id(t), key))


@pytest.fixture
def scorer(station):
    client = DataConnectorClient("club-7", station.token, station.url)
    assert client.initialize(mitchell_init()).data_type == DataConnectorResponseData.OK
    return client


# -- the pure part: slots -> one table's movement -----------------------------------------------
def test_mitchell_next_keeps_ns_moves_ew_up_and_boards_down():
    slots = [mitchell_slot(t, r) for t in range(1, 5) for r in range(1, 4)]
    m = table_movement(EVENT, "A", 2, slots)
    assert (m["event"], m["section"], m["tables"], m["current_round"]) == (EVENT, "A", 4, 1)
    assert sorted(m["rounds"]) == ["1", "2", "3"] and all(list(v) == ["2"] for v in m["rounds"].values())
    r2 = m["rounds"]["2"]["2"]
    assert (r2["ns"], r2["ew"], r2["boards"]) == (2, 1, [7, 8, 9])
    assert r2["next"] == {"ns": {"pair": 2, "table": 2, "seat": "NS"},
                          "ew": {"pair": 1, "table": 3, "seat": "EW"},
                          "boards": {"boards": [7, 8, 9], "table": 1}}
    assert m["rounds"]["3"]["2"]["next"] == {"last_round": True}


def test_howell_numbers_are_pairs_who_may_change_direction():
    slots = [Slot(1, 1, 1, 2, 1, 2), Slot(2, 1, 3, 4, 3, 4),
             Slot(1, 2, 3, 4, 4, 1), Slot(2, 2, 1, 2, 2, 3)]
    nxt = table_movement(EVENT, "A", 1, slots)["rounds"]["1"]["1"]["next"]
    assert nxt == {"ns": {"pair": 1, "table": 1, "seat": "EW"}, "ew": {"pair": 2, "table": 2, "seat": "NS"},
                   "boards": {"boards": [1, 2], "table": 2}}


def test_current_round_is_the_first_with_a_board_to_play_and_a_sit_out_is_said():
    slots = [Slot(1, 1, 1, 2, 1, 2), Slot(1, 2, 3, 4, 1, 3)]
    m = table_movement(EVENT, "A", 1, slots, done={(1, 1), (1, 2), (2, 3)})
    assert m["current_round"] == 2
    assert m["rounds"]["1"]["1"]["next"]["ew"] == {"pair": 2, "table": None, "seat": None, "sits_out": True}
    assert table_movement(EVENT, "A", 1, slots, done={(1, 1), (1, 2), (2, 3), (2, 4)})["current_round"] is None


def test_no_movement_and_a_table_outside_it_are_clear_errors():
    with pytest.raises(NoMovement, match="no movement yet for section A"):
        table_movement(EVENT, "A", 1, [])
    with pytest.raises(NoMovement, match=r"table A5 is not in .* \(tables 1, 2\)"):
        table_movement(EVENT, "A", 5, [Slot(1, 1, 1, 2, 1, 2), Slot(2, 1, 3, 4, 3, 4)])


# -- over HTTP, against `python -m station` ------------------------------------------------------
def test_scoring_program_movement_to_a_played_board_back_to_the_scoring_program(station, scorer, tmp_path):
    st = station
    key = st.keys[table_id(2)]
    # What the tablet gets is exactly what from_station reads, for this table only.
    code, movement = get_movement(st, 2, key)
    assert code == 200, movement
    assert movement["rounds"]["2"] == {"2": {"ns": 2, "ew": 1, "boards": [7, 8, 9], "next": {
        "ns": {"pair": 2, "table": 2, "seat": "NS"}, "ew": {"pair": 1, "table": 3, "seat": "EW"},
        "boards": {"boards": [7, 8, 9], "table": 1}}}}
    assert fetch_movement(st.url, table_id(2), key) == movement

    db = tmp_path / "tablet.db"
    ctl = Controller(db, clock=Clock())
    try:
        session = setup_from_station(ctl, st.url, "2", key, 2, profile="dbf-2017", td_pin="4321")
        assert (session.event, session.section, session.table, session.round) == (EVENT, "A", 2, 2)
        assert (session.boards, session.ns_pair, session.ew_pair, session.tables) == ((7, 8, 9), 2, 1, 4)
        assert session.movement == "station"
        # Board 7, dealer South: 1NT and three passes on the boxes, nine tricks, East-West agree.
        assert dealer(7) == "S"
        seats = itertools.cycle("SWNE")
        for call in ["1NT", "P", "P", "P"]:
            ctl.clock.t += 3
            ctl.box_event(next(seats), "call", call=call)
        ctl.enter_result(9, "HQ")
        rec = ctl.ew_confirm(True)
        assert rec["key"] == f"{EVENT}/A/2/2/7/1" and rec["score_ns"] == 150
    finally:
        ctl.close()

    # Round 1 was played at this table before (the station takes a round's results only once the
    # rounds before it are complete: station/law16.py).
    for b in mitchell_slot(2, 1).boards:
        assert st.post_item("result", result_record(table=2, round_no=1, board=b, ns_pair=2, ew_pair=2))[0] == 201
    d = Deliverer(str(db), st.url, table_id(2), key).start()
    try:
        assert d.drain(30), d.last_error
    finally:
        d.stop()
    [stored] = [r for r in st.request("GET", f"/director/status.json?token={st.token}")[1]["results"]
                if r["round"] == 2]
    assert (stored["table"], stored["round"], stored["board"], stored["ns_pair"], stored["ew_pair"]) == (2, 2, 7, 2, 1)
    [r] = [r for r in scorer.poll_for_results(GUID) if r.round_number == 2]
    assert (r.table_number, r.round_number, r.board_number, r.pair_north_south, r.pair_east_west) == (2, 2, 7, 2, 1)
    assert (r.level, r.denomination, r.declarer_direction, r.total_tricks) == (1, 5, 3, 9)


def test_without_a_round_the_tablet_starts_where_the_station_says_the_table_is(station, scorer, tmp_path):
    key = station.keys[table_id(3)]
    for b in mitchell_slot(3, 1).boards:
        assert station.post_item("result", result_record(table=3, round_no=1, board=b))[0] == 201
    ctl = Controller(tmp_path / "tablet.db", clock=Clock())
    try:
        session = setup_from_station(ctl, station.url, f"{EVENT}/A/3", key, profile="fsb-2007", td_pin="2468")
        assert (session.round, session.boards) == (2, tuple(mitchell_slot(3, 2).boards))
    finally:
        ctl.close()


def test_a_wrong_or_missing_key_is_refused_and_changes_nothing(station, scorer, tmp_path):
    st = station
    before = st.request("GET", "/api/v1/health")[1]
    code, reply = get_movement(st, 2, "AAAA-BBBB-CCCC-DDDD")
    assert code == 403 and reply["error"] == f"unknown table or wrong key for {table_id(2)}"
    code, reply = get_movement(st, 2, headers={"X-Table": table_id(2)})
    assert code == 401 and "missing table key" in reply["error"]
    # Table 2's key does not open table 3's movement.
    code, reply = get_movement(st, 3, st.keys[table_id(2)])
    assert code == 403
    ctl = Controller(tmp_path / "tablet.db", clock=Clock())
    try:
        with pytest.raises(StationError, match="refused table") as e:
            setup_from_station(ctl, st.url, "2", "AAAA-BBBB-CCCC-DDDD", 1)
        assert e.value.reason == "refused"
        with pytest.raises(StationError, match="no table key"):
            setup_from_station(ctl, st.url, "2", "", 1)
        assert ctl.session is None and ctl.journal.count() == 0
    finally:
        ctl.close()
    assert st.request("GET", "/api/v1/health")[1] == before
    assert get_movement(st, 2)[0] == 200  # the right key still works


def test_a_table_outside_the_movement_gets_404_and_a_table_with_no_key_403(station):
    client = DataConnectorClient("club-7", station.token, station.url)
    # The station knows tables A1-A4 (--tables); the scoring program's movement has three.
    assert client.initialize(mitchell_init(tables=3)).data_type == DataConnectorResponseData.OK
    code, reply = get_movement(station, 4)
    assert code == 404 and reply["error"].startswith("table A4 is not in the scoring program's movement")
    assert get_movement(station, 9, "AAAA-BBBB-CCCC-DDDD")[0] == 403  # unknown to the station: no key


def test_no_movement_yet_is_404_and_the_tablet_is_left_for_typing_in(sqlite_station, tmp_path):
    code, reply = get_movement(sqlite_station, 1)
    assert code == 404 and reply["error"].startswith("no movement yet for section A")
    ctl = Controller(tmp_path / "tablet.db", clock=Clock())
    try:
        with pytest.raises(StationError, match="no movement yet") as e:
            setup_from_station(ctl, sqlite_station.url, "1", sqlite_station.keys[table_id(1)])
        assert e.value.reason == "no_movement" and ctl.session is None and ctl.journal.count() == 0
    finally:
        ctl.close()


def test_a_round_the_movement_lacks_is_a_setup_error_and_changes_nothing(sqlite_station, tmp_path):
    st = sqlite_station
    client = DataConnectorClient("club-7", st.token, st.url)
    assert client.initialize(mitchell_init()).data_type == DataConnectorResponseData.OK
    ctl = Controller(tmp_path / "tablet.db", clock=Clock())
    try:
        with pytest.raises(SetupError, match="round 7"):
            setup_from_station(ctl, st.url, "1", st.keys[table_id(1)], 7)
        assert ctl.session is None and ctl.journal.count() == 0
    finally:
        ctl.close()


def test_station_down_is_a_clear_error(tmp_path):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path).start()
    url, key = st.url, st.keys[table_id(1)]
    st.stop()
    with pytest.raises(StationError, match=f"station {url} unreachable") as e:
        fetch_movement(url, table_id(1), key, timeout=2)
    assert e.value.reason == "unreachable"
    ctl = Controller(tmp_path / "tablet.db", clock=Clock())
    try:
        with pytest.raises(StationError, match="unreachable"):
            setup_from_station(ctl, url, "1", key, timeout=2)  # "1": the event is asked of the station first
        assert ctl.session is None
    finally:
        ctl.close()
    with pytest.raises(StationError, match="http://host:port"):
        fetch_movement("station:8080", table_id(1), key)


def test_the_reply_is_json_for_the_tablet(sqlite_station):
    code, reply = get_movement(sqlite_station, 1, headers={})
    assert code == 401 and json.dumps(reply) and reply["status"] == 401


def pass_out_the_round(ctl: Controller) -> None:
    assert ctl.session is not None
    clock: Any = ctl.clock  # the tests' hand-wound clock (tests/tablet/conftest.py)
    for board in ctl.session.boards:
        first = "NESW".index(dealer(board))
        for i in range(4):
            clock.t += 2
            ctl.box_event("NESW"[(first + i) % 4], "call", call="P")
        ctl.enter_result(None)
        ctl.ew_confirm(True)


def test_round_end_takes_the_next_round_from_the_station_keeping_the_tds_choices(sqlite_station, tmp_path):
    st = sqlite_station
    client = DataConnectorClient("club-7", st.token, st.url)
    assert client.initialize(mitchell_init()).data_type == DataConnectorResponseData.OK
    key = st.keys[table_id(2)]
    ctl = Controller(tmp_path / "tablet.db", clock=Clock())
    try:
        setup_from_station(ctl, st.url, "2", key, 2, profile="dbf-2017", policy="prevent", td_pin="4321")
        pass_out_the_round(ctl)
        assert ctl.snapshot()["phase"] == "round_end"
        session = next_round_from_station(ctl, st.url, key)
        want = mitchell_slot(2, 3)
        assert (session.round, session.boards, session.ns_pair, session.ew_pair) == (3, tuple(want.boards), want.ns, want.ew)
        assert (session.profile, session.policy) == ("dbf-2017", "prevent") and ctl.check_pin("4321")
        assert ctl.snapshot()["phase"] == "auction" and ctl.board == want.boards[0]
        # Round 3 is the movement's last: no round 4, said clearly, and nothing journalled.
        pass_out_the_round(ctl)
        before = ctl.journal.count()
        with pytest.raises(SetupError, match="round 4"):
            next_round_from_station(ctl, st.url, key)
        assert ctl.journal.count() == before and ctl.session.round == 3
    finally:
        ctl.close()
