"""A delivery the station refuses is never reported as sent: a typed-in setup is checked against
the movement the station sent before the first board (what the station would refuse later is
refused now, in the players' language, with what to do), and a result the station still refuses
(the scoring program changed the movement meanwhile) is kept and shown on the table."""
import pytest
from bridgemate_dataconnector import DataConnectorClient
from bridgemate_dataconnector.dto import DataConnectorResponseData

from station.movement import Slot
from tablet_app import i18n, station_texts
from tablet_app.outbox import Deliverer
from tablet_app.session import SetupError
from tablet_app.station_client import setup_from_station
from tests.station.conftest import EVENT
from tests.station.test_dataconnector import pairs_init
from tests.station.test_movement import GUID, mitchell_init
from tests.tablet.conftest import SESSION
from tests.tablet.test_setup import mitchell_movement

TYPED = {**SESSION, "event": EVENT, "section": "A", "table": 3, "round": 1, "boards": [5, 6], "ns_pair": 3,
         "ew_pair": 3, "tables": 4}


@pytest.mark.parametrize(("typed", "key", "words"), [
    ({"round": 4}, "setup.movement_round", ("rond 4", "ronder 1, 2, 3")),
    ({"boards": [5, 6, 7]}, "setup.movement_boards", ("5, 6", "inte 7")),
    ({"ew_pair": 4}, "setup.movement_pairs", ("par 3 i Nord-Syd", "par 3 i Öst-Väst")),
])
def test_a_typed_setup_the_movement_does_not_give_the_table_is_refused_before_the_first_board(
        make_controller, typed, key, words):
    ctl = make_controller()
    ctl.station_check = lambda s: mitchell_movement(3)  # the station's answer for table A3
    with pytest.raises(SetupError) as e:
        ctl.setup({**TYPED, **typed})
    assert e.value.key == key
    said = i18n.error_text(e.value, "sv")
    assert all(w in said for w in words), said
    assert "A3" in i18n.error_text(e.value, "da") and "A3" in i18n.error_text(e.value, "en")
    assert ctl.journal.count() == 0 and ctl.session is None  # nothing played, nothing journalled
    assert ctl.snapshot()["station"]["ok"] is False and ctl.snapshot()["station"]["reason"] == "movement"
    ctl.setup(TYPED)  # the movement's own setup goes through
    assert ctl.board == 5 and ctl.snapshot()["station"]["ok"] is True


def test_a_later_round_of_the_movement_sets_up_while_the_earlier_results_are_on_their_way(make_controller):
    # The station says the table is on round 1 (its round-1 results are still in the outbox, or
    # the station was down): round 2 as the movement gives it is set up; the station takes its
    # results once round 1's are in.
    ctl = make_controller()
    ctl.station_check = lambda s: mitchell_movement(3)  # current_round 1
    ctl.setup({**TYPED, "round": 2, "boards": [7, 8], "ew_pair": 2})
    assert ctl.board == 7 and ctl.snapshot()["station"]["ok"] is True


def test_a_result_the_station_refuses_is_kept_and_told_at_the_table_in_the_players_language(
        make_controller, station, clock):
    key = station.keys[f"{EVENT}/A/1"]
    scorer = DataConnectorClient("club-7", station.token, station.url)
    assert scorer.initialize(mitchell_init()).data_type == DataConnectorResponseData.OK
    ctl = make_controller()
    setup_from_station(ctl, station.url, f"{EVENT}/A/1", key, 1)
    assert list(ctl.session.boards) == [1, 2, 3]
    # The scoring program sends a new movement mid-round: table 1 now plays boards 10-12.
    moved = [Slot(t, r, 10 if (t, r) == (1, 1) else 1, 12 if (t, r) == (1, 1) else 3, t, t) for t in (1, 2, 3, 4)
             for r in (1,)]
    assert scorer.initialize(pairs_init(moved, GUID, "Monday pairs")).data_type == DataConnectorResponseData.OK
    for seat in "NESW":
        clock.advance(1)
        assert ctl.box_event(seat, "call", call="P")["ok"]
    ctl.enter_result(None)
    ctl.ew_confirm()
    d = Deliverer(ctl.db_path, station.url, f"{EVENT}/A/1", key)
    try:
        while d.send_one():
            pass
    finally:
        d.stop()
    delivery = ctl.snapshot()["delivery"]
    [result] = [it for it in ctl.outbox.items() if it["kind"] == "result"]
    assert result["state"] == "rejected" and delivery["waiting"] == 0  # kept, never counted as sent
    [refused] = delivery["refused"]
    assert refused["key"] == result["key"]
    assert refused["status"] == 422 and not refused["retrying"]
    banner = station_texts.refused_banner(delivery, "sv")
    assert banner.startswith("Stationen nekade resultatet på bricka 1 (rond 1): bricka 1 spelas inte vid bord A1")
    assert "Tillkalla tävlingsledaren" in banner
    assert "Tilkald turneringslederen" in station_texts.refused_banner(delivery, "da")
    assert "board 1 is not played at table A1" in station_texts.refused_banner(delivery, "en")
