"""Setup that cannot go wrong silently: the club situations that found each break."""
import pytest

from tablet_app.session import FIELD_LABELS, SetupError, from_station
from tablet_app.station_client import (
    StationError,
    fetch_board_results,
    pin_checker,
    session_from_station,
    setup_from_station,
    station_check,
)
from tests.station.conftest import EVENT
from tests.tablet.conftest import SESSION


def mitchell_movement(table: int, tables: int = 4, rounds: int = 3) -> dict:
    """What the station sends table `table` of a Mitchell numbered per direction: NS stay, EW
    move up; round 1 is NS t v EW t."""
    out = {}
    for r in range(1, rounds + 1):
        ew = (table - r) % tables + 1
        low = ((table - 1 + r - 1) % tables) * 2 + 1
        out[str(r)] = {str(table): {"ns": table, "ew": ew, "boards": [low, low + 1], "next": None}}
    return {"event": EVENT, "section": "A", "tables": tables, "current_round": 1, "rounds": out}


def test_round_1_of_a_mitchell_table_1_ns1_v_ew1_sets_up(make_controller):
    # The club's first round: at table 1 North-South pair 1 meets East-West pair 1.
    ctl = make_controller()
    s = from_station(mitchell_movement(1), 1, 1, td_pin="2468", profile="fsb-2007")
    assert (s.ns_pair, s.ew_pair, s.pairs_per_direction) == (1, 1, True)
    ctl.setup(s)
    assert ctl.board == 1 and ctl.phase == "auction"


def test_a_typed_in_mitchell_round_1_sets_up_but_a_howell_pair_cannot_meet_itself(make_controller):
    ctl = make_controller()
    ctl.setup({**SESSION, "table": 1, "round": 1, "ns_pair": 1, "ew_pair": 1})
    assert ctl.session.ns_pair == ctl.session.ew_pair == 1
    other = make_controller(ctl.db_path + ".2")
    with pytest.raises(SetupError) as e:
        other.setup({**SESSION, "movement": "howell", "ns_pair": 4, "ew_pair": 4})
    assert e.value.key == "setup.same_pair" and e.value.params == {"pair": 4}
    # a station movement that is not per direction (a Howell) says so too
    howell = {"event": EVENT, "section": "A", "tables": 2, "pairs_per_direction": False,
              "rounds": {"1": {"1": {"ns": 3, "ew": 3, "boards": [1, 2]}}}}
    with pytest.raises(SetupError, match="cannot both be pair 3"):
        from_station(howell, 1, 1, td_pin="2468")


def test_section_typed_in_lower_case_is_the_stations_upper_case_section(make_controller):
    ctl = make_controller()
    ctl.setup({**SESSION, "section": " a "})
    assert ctl.session.section == "A"
    with pytest.raises(SetupError) as e:
        make_controller(ctl.db_path + ".2").setup({**SESSION, "section": "A-1"})
    assert e.value.key == "setup.section" and e.value.params["field"] == "section"


@pytest.mark.parametrize("field, typed", [("ns_pair", ""), ("ew_pair", "x"), ("table", 0), ("round", -1),
                                          ("tables", True)])
def test_validation_says_the_field_in_the_tds_words_never_its_internal_name(make_controller, field, typed):
    ctl = make_controller()
    with pytest.raises(SetupError) as e:
        ctl.setup({**SESSION, field: typed})
    msg = str(e.value)
    assert msg.startswith(FIELD_LABELS[field] + ": ") and field not in msg
    assert e.value.key == "setup.whole_number" and e.value.params == {"field": field, "value": str(typed)}
    assert ctl.journal.count() == 0 and ctl.phase == "setup"


def test_missing_fields_are_named_in_words_with_a_key_for_the_screen(make_controller):
    ctl = make_controller()
    bare = {k: v for k, v in SESSION.items() if k not in ("ns_pair", "boards")}
    with pytest.raises(SetupError) as e:
        ctl.setup(bare)
    assert str(e.value) == "the setup is missing: Boards, North-South pair number"
    assert e.value.key == "setup.missing" and e.value.params == {"fields": "boards,ns_pair"}


def test_no_regulations_given_is_never_a_silent_acbl_default(make_controller):
    # The tablet started before the scoring program sent a movement: the TD types the table in.
    ctl = make_controller()
    assert ctl.setup_defaults()["profile"] is None  # nothing assumed: the TD must choose
    bare = {k: v for k, v in SESSION.items() if k != "profile"}
    with pytest.raises(SetupError) as e:
        ctl.setup(bare)
    assert e.value.key == "setup.profile" and ctl.journal.count() == 0
    club = make_controller(ctl.db_path + ".club", club_profile="fsb-2007")  # the club's setting
    assert club.snapshot()["setup_defaults"]["profile"] == "fsb-2007"
    club.setup(bare)
    assert club.session.profile == "fsb-2007"
    # a setting the tablet keeps: started again without it, before any setup, it still has it
    kept = make_controller(ctl.db_path + ".kept", club_profile="dbf-2017")
    kept.journal.conn.close()
    again = make_controller(ctl.db_path + ".kept")
    assert again.session is None and again.setup_defaults()["profile"] == "dbf-2017"


def test_a_wrong_table_key_is_refused_before_the_first_board_and_shown(make_controller, station):
    # Typed in at the table before the scoring program sent a movement, with a key from another
    # table: the station refuses it now, not at the first delivery.
    ctl = make_controller()
    ctl.station_check = station_check(station.url, station.keys[f"{EVENT}/A/2"])
    with pytest.raises(SetupError) as e:
        ctl.setup({**SESSION, "event": EVENT, "section": "a", "table": 3, "tables": 4})
    assert e.value.key == "setup.station_refused" and e.value.params["table"] == f"{EVENT}/A/3"
    assert "refused" in str(e.value) and ctl.journal.count() == 0
    assert ctl.snapshot()["station"]["ok"] is False
    # the right key: checked, and the club's settings carried by the station are taken
    ctl.station_check = station_check(station.url, station.keys[f"{EVENT}/A/3"])
    ctl.setup({**SESSION, "event": EVENT, "section": "a", "table": 3, "tables": 4})
    assert ctl.snapshot()["station"] == {"ok": True, "table": f"{EVENT}/A/3", "reason": None, "message": None}


def test_deliveries_the_station_refuses_are_in_the_snapshot_with_its_reason(make_controller, station, clock):
    from tablet_app.outbox import Deliverer

    ctl = make_controller()
    ctl.setup({**SESSION, "event": EVENT, "section": "A", "table": 3, "tables": 4})
    for seat, call in zip("NESW", ["P", "P", "P", "P"], strict=True):
        clock.advance(1)
        assert ctl.box_event(seat, "call", call=call)["ok"]
    ctl.enter_result(None)
    ctl.ew_confirm()
    # the key of another table: every delivery is refused (401) and retried
    d = Deliverer(ctl.db_path, station.url, f"{EVENT}/A/3", "not-the-key", max_backoff=0.2)
    for _ in range(3):
        d.send_one()
    snap = ctl.snapshot()["delivery"]
    assert snap["delivered"] == 0 and snap["waiting"] >= 1 and snap["connected"] is True
    assert snap["refused"] and {r["status"] for r in snap["refused"]} == {403}
    assert all(r["reason"] and r["key"] for r in snap["refused"])
    assert snap["last_error"].startswith("HTTP 403")
    # with the right key it goes through, and the console says so
    d2 = Deliverer(ctl.db_path, station.url, f"{EVENT}/A/3", station.keys[f"{EVENT}/A/3"])
    while d2.send_one():
        pass
    snap = ctl.snapshot()["delivery"]
    assert snap["waiting"] == 0 and snap["refused"] == [] and snap["last_error"] is None
    # what the station stored of this table's board, for a TD checking a recovered journal
    stored = fetch_board_results(station.url, f"{EVENT}/A/3", station.keys[f"{EVENT}/A/3"], 1)
    assert [r["key"] for r in stored] == [ctl.done[0]["key"]] and stored[0]["contract"] == "PASS"
    with pytest.raises(StationError):  # Law 16: not a board this table has no result on
        fetch_board_results(station.url, f"{EVENT}/A/3", station.keys[f"{EVENT}/A/3"], 2)
    d.stop()
    d2.stop()


def test_setup_from_the_station_takes_the_clubs_regulations_and_pin(station, make_controller):
    from bridgemate_dataconnector import DataConnectorClient

    from tablet_app import pin
    from tests.station.test_movement import mitchell_init

    key = station.keys[f"{EVENT}/A/1"]
    early = make_controller()
    with pytest.raises(StationError) as e:  # no movement from the scoring program yet
        setup_from_station(early, station.url, "a/1", key)
    assert e.value.reason == "no_movement"
    # said on the screen, and a setup typed in instead is still checked against the station
    assert early.snapshot()["station"]["reason"] == "no_movement" and early.station_check is not None
    DataConnectorClient("club-7", station.token, station.url).initialize(mitchell_init())
    s = session_from_station(station.url, "a/1", key, 1)  # typed in lower case
    assert (s.section, s.ns_pair, s.ew_pair, s.profile) == ("A", 1, 1, "dbf-2017")
    # the station checks the club's PIN: the session holds only that (test_pin_station.py)
    assert s.td_pin == pin.STATION
    assert "97531" not in station.request("GET", "/api/v1/movement",
                                          headers=station.table_headers(f"{EVENT}/A/1", key))[1].__repr__()
    ctl = make_controller()
    ctl.pin_check = pin_checker(station.url, key)
    ctl.setup(s)
    assert ctl.check_pin("97531") and ctl.board == 1
