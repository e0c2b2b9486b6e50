"""The director ends the table's round from the console and moves it to the next one (2007 and
2017 Law 8B1: a round ends when the director says so; Law 8A1: the movement is his instruction),
before its last board is played: with the PIN (here his sitting's token, the station checking the
PIN), one input, journalled, and the next round's start delivered to the station as the same
`round` item the players' own move sends (`by: director`), which opens the round's results at the
station's Law 16 gate (2017 Law 16D1, 2007 Law 16C1) although round 1's board never got a result.
A real station over HTTP, its movement from the official Data Connector client."""
import pytest
from bridgemate_dataconnector import DataConnectorClient
from bridgemate_dataconnector.dto import DataConnectorResponseData

from tablet_app.controller import PinError, Refused
from tablet_app.station_client import fetch_movement, next_round, setup_from_station
from tests.station.conftest import EVENT
from tests.station.test_dataconnector import pairs_init
from tests.tablet.test_pin_station import PIN
from tests.tablet.test_round_change import SLOTS, club_items, deliver, pass_out


@pytest.fixture
def table(station, make_controller):
    client = DataConnectorClient("club-7", station.token, station.url)
    assert client.initialize(pairs_init(SLOTS)).data_type == DataConnectorResponseData.OK
    key = station.keys[f"{EVENT}/A/1"]
    ctl = make_controller()
    setup_from_station(ctl, station.url, "1", key)
    return ctl, key


def kinds(ctl) -> list[str]:
    return [k for _, k, _ in ctl.journal.records()]


def test_2017_L8B1_the_director_ends_the_round_mid_board_and_the_station_opens_the_next(station, table, clock,
                                                                                        make_controller):
    ctl, key = table
    clock.advance(2)
    assert ctl.box_event("N", "call", call="1H")["ok"]  # board 1 of round 1 is under way
    assert ctl.round_unfinished() == {"round": 1, "in_play": 1, "without_result": [1], "ruling": None}
    shown = next_round(ctl, station.url, key)  # what the console shows for his confirmation
    assert (shown.session.round, shown.session.ns_pair, shown.session.ew_pair) == (2, 1, 12)

    # A wrong PIN changes nothing but the count of wrong tries.
    before = kinds(ctl)
    with pytest.raises(PinError):
        ctl.td_end_round("11111", shown.session)
    assert kinds(ctl) == before + ["pin_wrong"] and ctl.session.round == 1 and ctl.phase == "auction"

    token = ctl.sign_in(PIN)
    ctl.td_end_round(token, shown.session)
    assert (ctl.phase, ctl.session.round, ctl.board) == ("auction", 2, 2)
    # The round's end and the next round's start: one input, journalled in this order.
    records = list(ctl.journal.records())
    assert [k for _, k, _ in records][-3:] == ["round_end", "setup", "board"]
    end = records[-3][2]
    assert end == {"by": "director", "in_play": 1, "without_result": [1]}
    # No result for the board abandoned: the TD awards its score in the scoring program.
    assert [it for it in ctl.outbox.items() if it["kind"] == "result"] == []

    deliver(ctl, station, key)
    stored = club_items(station, "round")[-1]
    assert stored["key"] == f"{EVENT}/A/1/round/2"
    assert (stored["payload"]["by"], stored["payload"]["ns_pair"], stored["payload"]["ew_pair"]) == ("director", 1, 12)
    assert fetch_movement(station.url, f"{EVENT}/A/1", key)["current_round"] == 2

    # Round 2's result is taken at once (the gate is open for it), though board 1 has none.
    pass_out(ctl, clock)
    deliver(ctl, station, key)
    results = club_items(station, "result")
    assert [(r["payload"]["round"], r["payload"]["board"]) for r in results] == [(2, 2)]
    assert not ctl.delivery()["refused"]

    # A restart replays the same table; the journal keeps the director's end with what it left
    # (round 2's own end, after its last board, says nothing more).
    ctl.close()
    again = make_controller()
    assert (again.phase, again.session.round) == ("round_end", 2)
    assert [body for _, kind, body in again.journal.records() if kind == "round_end"] == [
        {"by": "director", "in_play": 1, "without_result": [1]}, {}]


def test_the_directors_end_is_refused_for_another_tables_round_or_a_round_back(station, table, clock):
    ctl, key = table
    token = ctl.sign_in(PIN)
    s = ctl.session
    before = kinds(ctl)
    for other, why in ((s.__class__(**{**s.__dict__, "round": 1}), "round.not_next"),
                       (s.__class__(**{**s.__dict__, "round": 2, "table": 2}), "round.other_table")):
        with pytest.raises(Refused) as e:
            ctl.td_end_round(token, other)
        assert e.value.key == why
    assert kinds(ctl) == before and ctl.session.round == 1


def test_without_a_next_round_the_director_ends_it_and_the_table_waits_for_his_setup(station, table, clock):
    ctl, key = table
    token = ctl.sign_in(PIN)
    items = len(ctl.outbox.items())
    ctl.td_end_round(token)  # nothing played at all
    assert (ctl.phase, ctl.session.round) == ("round_end", 1)
    _, kind, body = list(ctl.journal.records())[-1]
    assert (kind, body) == ("round_end", {"by": "director", "in_play": None, "without_result": [1]})
    assert len(ctl.outbox.items()) == items  # nothing for the station until a round starts
    with pytest.raises(Refused) as e:
        ctl.td_end_round(ctl.sign_in(PIN))
    assert e.value.key == "round.ended"
    # the players' own move is still theirs to make from here, with the station's next round
    ctl.next_round(next_round(ctl, station.url, key).session)
    assert (ctl.phase, ctl.session.round) == ("auction", 2)
