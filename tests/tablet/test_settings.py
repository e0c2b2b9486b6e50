"""The club's Bridgemate settings at the table: the scoring program (the
official Data Connector client) sends them to the station, the station's movement gives them to
the tablet, and the tablet asks for the lead and shows the board's traveller as they say, the
traveller only once the station has stored the table's own result (2007 L16C1, 2017 L16D1)."""
import pytest
from bridgemate_dataconnector import DataConnectorClient
from bridgemate_dataconnector.dto import (
    Bm3LeadCardEntryOption,
    Bm3ScoreRecapOption,
    Bm3ViewResultsOption,
    Bridgemate3SettingsDTO,
    DataConnectorResponseData,
)

from station.movement import Slot
from tablet_app.controller import Controller, Refused
from tablet_app.outbox import Deliverer
from tablet_app.session import from_station
from tablet_app.station_client import StationError, fetch_traveller, setup_from_station, traveller_hook
from tests.station.conftest import EVENT, result_record
from tests.station.test_dataconnector import GUID, pairs_init
from tests.tablet.conftest import SESSION

# one round, four tables, boards 1-3; NS pair t meets EW pair t+10 at table t
SLOTS = [Slot(t, 1, 1, 3, t, t + 10) for t in range(1, 5)]


def scoring_program_sends(st, view: Bm3ViewResultsOption, lead: Bm3LeadCardEntryOption,
                          recap: Bm3ScoreRecapOption) -> None:
    init = pairs_init(SLOTS)
    init.bridgemate3_settings = [Bridgemate3SettingsDTO(
        session_guid=GUID, section_letters="A", bm3_view_results=view, bm3_lead_card_entry=lead,
        bm3_score_recap=recap, bm3_pi_ncode="7391", bm3_screen_brightness=4)]
    client = DataConnectorClient("club-7", st.token, st.url)
    assert client.initialize(init).data_type == DataConnectorResponseData.OK


def deliver_all(ctl, station, key: str) -> None:
    """The outbox's pump with the traveller fetch the tablet app wires to it, until nothing waits."""
    tid = f"{EVENT}/A/{ctl.session.table}"
    d = Deliverer(ctl.db_path, station.url, tid, key, on_delivered=traveller_hook(ctl, station.url, tid, key))
    while d.send_one():
        pass
    d.stop()


def three_nt_by_north(ctl, clock) -> None:
    for seat, call in zip("NESWNE", ["1NT", "P", "3NT", "P", "P", "P"], strict=True):
        clock.advance(2)
        assert ctl.box_event(seat, "call", call=call)["ok"], (seat, call)


def test_the_club_shows_results_the_traveller_comes_only_after_the_tables_own_result(station, make_controller, clock):
    scoring_program_sends(station, Bm3ViewResultsOption.OwnResultAndOtherResults,
                          Bm3LeadCardEntryOption.EnabledNoValidation,
                          recap=Bm3ScoreRecapOption.EnabledAtEndOfRoundOnly)
    key = station.keys[f"{EVENT}/A/1"]
    tid = f"{EVENT}/A/1"
    ctl = make_controller()
    setup_from_station(ctl, station.url, "1", key)
    settings = ctl.snapshot()["settings"]
    assert settings == {"show_results": "all", "lead_entry": "enter", "score_recap": True, "next_seating": False}
    assert ctl.session.settings["bm3"]["BM3ViewResults"] == 2 and "BM3PINcode" not in ctl.session.settings["bm3"]

    # Table 2 has played board 1 already (4H= by South, +420): table 1 must not see it yet.
    assert station.post_item("result", result_record(table=2, board=1))[0] == 201
    three_nt_by_north(ctl, clock)
    with pytest.raises(Refused) as e:  # the club asks for the lead
        ctl.enter_result(9)
    assert e.value.key == "result.lead_missing" and ctl.phase == "play"
    with pytest.raises(StationError) as e2:  # and the station would not tell it anyway
        fetch_traveller(station.url, tid, key, 1)
    assert e2.value.reason == "refused"
    ctl.enter_result(9, "s4")
    rec = ctl.ew_confirm()
    assert rec["lead"] == "S4" and rec["score_ns"] == 400
    # confirmed but not yet stored at the station: no traveller
    assert ctl.snapshot()["traveller"] is None

    deliver_all(ctl, station, key)
    trav = ctl.snapshot()["traveller"]
    assert trav is not None and trav["board"] == 1
    rows = {r["table"]: r for r in trav["rows"]}
    assert set(rows) == {1, 2}
    assert (rows[1]["score_ns"], rows[1]["contract"], rows[1]["lead"]) == (400, "3NT", "S4")
    # 400 against 420: NS of table 1 lose the board (Law 78A, top 2 on two results)
    assert (rows[1]["mp_ns"], rows[1]["mp_ew"], rows[2]["mp_ns"], rows[1]["top"]) == (0.0, 2.0, 2.0, 2)
    assert trav["recap"]["ns"] == {"pair": 1, "direction": "NS", "boards": 1, "mp": 0.0, "top": 2, "percent": 0.0,
                                  "waiting": 0}
    assert trav["recap"]["ew"]["pair"] == 11 and trav["recap"]["ew"]["percent"] == 100.0


def test_at_the_end_of_the_round_the_traveller_waits_for_the_round_end(station, make_controller, clock):
    scoring_program_sends(station, Bm3ViewResultsOption.AtEndOfRound, Bm3LeadCardEntryOption.Disabled,
                          recap=False)
    key = station.keys[f"{EVENT}/A/1"]
    ctl = make_controller()
    setup_from_station(ctl, station.url, "1", key)
    for board in (1, 2, 3):
        assert ctl.board == board
        three_nt_by_north(ctl, clock)
        ctl.enter_result(9, "SA")  # the club does not ask for the lead: none is kept
        assert ctl.entry["lead"] is None
        ctl.ew_confirm()
        deliver_all(ctl, station, key)
        if board < 3:
            assert ctl.snapshot()["traveller"] is None  # not during the round
    assert ctl.phase == "round_end"
    trav = ctl.snapshot()["traveller"]
    assert trav["board"] == 3 and trav["recap"] is None and [r["table"] for r in trav["rows"]] == [1]


def test_own_result_only_no_traveller_even_when_the_station_would_give_one(station, make_controller, clock):
    scoring_program_sends(station, Bm3ViewResultsOption.OwnResultOnly, Bm3LeadCardEntryOption.EnabledNoValidation,
                          recap=True)
    key, tid = station.keys[f"{EVENT}/A/1"], f"{EVENT}/A/1"
    ctl = make_controller()
    setup_from_station(ctl, station.url, "1", key)
    three_nt_by_north(ctl, clock)
    ctl.enter_result(9, "HA")
    rec = ctl.ew_confirm()
    deliver_all(ctl, station, key)
    stored = fetch_traveller(station.url, tid, key, 1)
    assert [r["key"] for r in stored] == [rec["key"]]
    assert ctl.set_traveller(rec["key"], stored) is False and ctl.snapshot()["traveller"] is None


def test_settings_are_journalled_with_the_setup_and_replayed(make_controller, clock, tmp_path):
    movement = {"event": EVENT, "section": "A", "tables": 4, "settings": {
        "show_results": "all", "lead_entry": "none", "score_recap": True, "next_seating": True, "bm2": {"ShowResults": True}},
        "rounds": {"1": {"2": {"ns": 2, "ew": 12, "boards": [1, 2]}}}}
    ctl = make_controller()
    ctl.setup(from_station(movement, 2, 1, td_pin="2468", profile="dbf-2017"))
    ctl.close()
    again = Controller(tmp_path / "journal.db", clock=clock)
    assert again.session.settings == movement["settings"]
    assert again.snapshot()["settings"]["lead_entry"] == "none"
    again.close()


def test_a_typed_in_setup_has_the_defaults_and_a_bad_setting_is_refused(make_controller, clock):
    ctl = make_controller()
    ctl.setup(SESSION)
    assert ctl.snapshot()["settings"] == {"show_results": "own", "lead_entry": "optional", "score_recap": False,
                                          "next_seating": True}
    three_nt_by_north(ctl, clock)
    ctl.enter_result(9)  # no club rule: the lead may be left out
    assert ctl.entry["lead"] is None
    from tablet_app.session import SetupError

    with pytest.raises(SetupError) as e:
        make_controller(ctl.db_path + ".2").setup({**SESSION, "settings": {"show_results": "everything"}})
    assert e.value.key == "setup.choice" and e.value.params["field"] == "settings"
