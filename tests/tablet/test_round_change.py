"""A table that runs itself between rounds: after the last board of a round the players move to
the next round of the movement and confirm the pairs (numbers and names) the station gives for
it; no PIN: the movement is the director's instruction (2007 and 2017 Law 8A1). What is the
director's stays his (Law 8B): a round not over, a round back. Either round change reaches the station as a round-start item, which opens that round's
results at the station's Law 16 gate (2017 Law 16D1, 2007 Law 16C1), with a real station, the
official Data Connector client as the scoring program, and the tablet's own outbox."""
import json
import sqlite3

import pytest
from bridgemate_dataconnector import DataConnectorClient
from bridgemate_dataconnector.dto import DataConnectorResponseData, ParticipationDTO, TableDirection

from shared_rules.records import RoundKey, RoundStart, StartedBy, TableId
from station.movement import Slot
from tablet_app.controller import Refused
from tablet_app.outbox import Deliverer
from tablet_app.station_client import fetch_movement, next_round, setup_from_station
from tests.station.conftest import EVENT
from tests.station.test_dataconnector import GUID, pairs_init

# Two tables, one board a round: North-South stay, East-West pairs 11 and 12 swap in round 2.
SLOTS = [Slot(1, 1, 1, 1, 1, 11), Slot(2, 1, 2, 2, 2, 12), Slot(1, 2, 2, 2, 1, 12), Slot(2, 2, 1, 1, 2, 11)]


def seat(table, direction, first, last):
    return ParticipationDTO(session_guid=GUID, section_letters="A", table_number=table, round_number=1,
                            direction=TableDirection("NESW".index(direction) + 1), first_name=first, last_name=last)


@pytest.fixture
def club(station):
    client = DataConnectorClient("club-7", station.token, station.url)
    assert client.initialize(pairs_init(SLOTS)).data_type == DataConnectorResponseData.OK
    assert client.send_participations(GUID, [
        seat(1, "N", "Anna", "Berg"), seat(1, "S", "Carl", "Dahl"), seat(1, "E", "Eva", "Ek"), seat(1, "W", "Fia", "Falk"),
        seat(2, "E", "Ivar", "Jonsson"), seat(2, "W", "Kim", "Lund")]).data_type == DataConnectorResponseData.OK
    return station


def pass_out(ctl, clock) -> None:
    """The board passed out, the result entered and confirmed: the round's only board is done."""
    for seat_ in "NESW":
        clock.advance(2)
        assert ctl.box_event(seat_, "call", call="P")["ok"]
    ctl.enter_result(None)
    ctl.ew_confirm()


def deliver(ctl, station, key: str) -> None:
    d = Deliverer(ctl.db_path, station.url, f"{EVENT}/A/1", key)
    while d.send_one():
        pass
    d.stop()


def test_players_move_to_the_next_round_confirming_its_pairs_without_the_director(club, make_controller, clock):
    key = club.keys[f"{EVENT}/A/1"]
    ctl = make_controller()
    setup_from_station(ctl, club.url, "1", key)
    assert (ctl.session.round, ctl.session.ns_pair, ctl.session.ew_pair) == (1, 1, 11)
    # The round is not over: moving on is the director's (Law 8B), nothing is journalled.
    shown = next_round(ctl, club.url, key)
    before = ctl.journal.count()
    with pytest.raises(Refused) as e:
        ctl.next_round(shown.session)
    assert e.value.key == "round.not_over" and ctl.journal.count() == before and ctl.session.round == 1

    pass_out(ctl, clock)
    assert ctl.phase == "round_end"
    shown = next_round(ctl, club.url, key)
    # What the players confirm: round 2, North-South pair 1 stays, East-West pair 12 comes from table 2.
    s = shown.session
    assert (s.round, s.table, s.ns_pair, s.ew_pair, s.boards) == (2, 1, 1, 12, (2,))
    assert shown.names == {"N": "Anna Berg", "S": "Carl Dahl", "E": "Ivar Jonsson", "W": "Kim Lund"}
    ctl.next_round(s)  # no PIN
    assert (ctl.phase, ctl.session.round, ctl.board) == ("auction", 2, 2)
    # The club's PIN and regulations carry over.
    assert ctl.session.td_pin is not None and ctl.session.profile == "dbf-2017"

    # The round start reaches the station, by the players: the station has the table on round 2.
    rounds = [it["key"] for it in ctl.outbox.items() if it["kind"] == "round"]
    assert rounds == [f"{EVENT}/A/1/round/1", f"{EVENT}/A/1/round/2"]  # the start's setup, then this one
    deliver(ctl, club, key)
    stored = club_items(club, "round")[-1]
    assert stored["key"] == f"{EVENT}/A/1/round/2"
    assert stored["payload"]["by"] == "players" and stored["payload"]["ew_pair"] == 12
    assert fetch_movement(club.url, f"{EVENT}/A/1", key)["current_round"] == 2

    # A round back is the director's too.
    pass_out(ctl, clock)
    with pytest.raises(Refused) as e:
        ctl.next_round(ctl.session.__class__(**{**ctl.session.__dict__, "round": 1}))
    assert e.value.key == "round.not_next" and ctl.session.round == 2


def test_the_director_forcing_a_round_tells_the_station_too(club, make_controller, clock):
    key = club.keys[f"{EVENT}/A/1"]
    ctl = make_controller()
    setup_from_station(ctl, club.url, "1", key, round_=2)  # the TD sets the table up for round 2
    deliver(ctl, club, key)
    [stored] = club_items(club, "round")
    assert (stored["key"], stored["payload"]["by"]) == (f"{EVENT}/A/1/round/2", "director")
    # Board 1 of round 1 has no result at the station: still, the table is on round 2 there.
    assert fetch_movement(club.url, f"{EVENT}/A/1", key)["current_round"] == 2
    # The director page has a table on the round it started, before any board of it is under way.
    start = RoundStart(RoundKey(TableId(EVENT, "A", 2), 2), 2, 11, (1,), StartedBy.PLAYERS, "2026-11-22T20:30:00Z")
    assert club.post_item("round", {**start.to_json(), "key": start.key.format()})[0] == 201
    status, doc = club.request("GET", "/director/status.json", headers={"Authorization": f"Bearer {club.token}"})
    assert status == 200
    rows = {t["table"]: t for t in doc["tables"] if t["section"] == "A"}
    assert (rows[2]["round"], rows[2]["board"], rows[2]["phase_label"]) == (2, None, "in progress")
    assert rows[1]["round"] == 2


def club_items(station, kind: str) -> list[dict]:
    """What the station stored of this kind (its database, read as the director page does)."""
    with sqlite3.connect(station.db) as c:
        return [{"key": k, "payload": json.loads(p)}
                for k, p in c.execute("SELECT item_key, payload FROM items WHERE kind = ? ORDER BY id", (kind,))]
