"""Player data and participations from the scoring program (the official Data Connector client)
are stored per session and used for the names in the exports; bad ones are refused whole."""
import http.client

import pytest
from bridgemate_dataconnector import DataConnectorClient
from bridgemate_dataconnector.dto import (
    DataConnectorResponseData,
    ErrorType,
    ParticipationDTO,
    PlayerDataDTO,
    TableDirection,
)

from station.movement import Slot
from station.players import seating

from .conftest import EVENT, result_record
from .export_readers import conforming_text, games, tags
from .test_dataconnector import pairs_init

AFTERNOON = "A0000000000000000000000000000001"
EVENING = "E0000000000000000000000000000002"
SLOTS = [Slot(t, 1, 1, 2, t, t + 4) for t in (1, 2, 3, 4)]


def seat(guid, table, direction, number=None, **kw):
    return ParticipationDTO(session_guid=guid, section_letters="A", table_number=table, round_number=1,
                            direction=TableDirection("NESW".index(direction) + 1), player_number=number, **kw)


def player(guid, number, first, last):
    return PlayerDataDTO(session_guid=guid, club_id="club-7", player_number=number, first_name=first, last_name=last)


def names(st, session):
    conn = http.client.HTTPConnection("127.0.0.1", st.port, timeout=30)
    conn.request("GET", f"/export/pbn?token={st.token}&session={session}")
    text = conforming_text(conn.getresponse().read())
    conn.close()
    (game,) = games(text)
    t = dict(tags(game))
    return {s: t[n] for s, n in (("N", "North"), ("E", "East"), ("S", "South"), ("W", "West"))}


def session_result(event: str) -> dict:
    """Table 1's board 1 in the session whose tablets use the id `event`."""
    rec = result_record(table=1, ns_pair=1, ew_pair=5)
    rec["event"], rec["key"] = event, rec["key"].replace(EVENT, event, 1)
    return rec


@pytest.fixture
def club(station):  # SQLite and PostgreSQL
    """Two sessions with section A, table 1 playing board 1 in each. Every file is one session's
    (docs/station.md "Events and sessions"): the afternoon's tablets use the station event's id,
    the evening's `<event>.2` with the same table key."""
    st = station
    client = DataConnectorClient("club-7", st.token, st.url)
    for guid, name in ((AFTERNOON, "Eftermiddag"), (EVENING, "Kväll")):
        assert client.initialize(pairs_init(SLOTS, guid=guid, name=name)).data_type == DataConnectorResponseData.OK
    key = st.keys[f"{EVENT}/A/1"]
    for event in (EVENT, f"{EVENT}.2"):
        assert st.post_item("result", session_result(event), key=key)[0] == 201
    return st, client


def ok(reply):
    assert reply.data_type == DataConnectorResponseData.OK, reply.serialized_data


def test_two_sessions_with_the_same_letters_keep_their_own_players(club):
    st, client = club
    ok(client.send_player_data(AFTERNOON, [player(AFTERNOON, "1001", "Eva", "Ek")]))
    ok(client.send_player_data(EVENING, [player(EVENING, "1001", "Kim", "Ask"), player(EVENING, "1002", "Bo", "Al")]))
    ok(client.send_participations(AFTERNOON, [seat(AFTERNOON, 1, "N", "1001")]))
    ok(client.send_participations(EVENING, [seat(EVENING, 1, "N", "1001"), seat(EVENING, 1, "S", "1002"),
                                            seat(EVENING, 1, "E", first_name="Lo", last_name="Berg")]))
    assert names(st, AFTERNOON) == {"N": "Ek, Eva", "E": "?", "S": "?", "W": "?"}
    assert names(st, EVENING) == {"N": "Ask, Kim", "E": "Berg, Lo", "S": "Al, Bo", "W": "?"}


def test_a_swap_and_a_removal_move_the_names(club):
    st, client = club
    ok(client.send_player_data(EVENING, [player(EVENING, "1001", "Kim", "Ask"), player(EVENING, "1002", "Bo", "Al")]))
    ok(client.send_participations(EVENING, [seat(EVENING, 1, "N", "1001"), seat(EVENING, 1, "S", "1002")]))
    ok(client.send_participations(EVENING, [seat(EVENING, 1, "N", is_player_swap=True)]))
    assert names(st, EVENING)["N"] == "Al, Bo" and names(st, EVENING)["S"] == "Ask, Kim"
    ok(client.send_participations(EVENING, [seat(EVENING, 1, "S", is_removal=True)]))
    assert names(st, EVENING) == {"N": "Al, Bo", "E": "?", "S": "?", "W": "?"}


def test_bad_player_data_or_seats_are_refused_and_change_nothing(club):
    st, client = club
    ok(client.send_player_data(EVENING, [player(EVENING, "1001", "Kim", "Ask")]))
    ok(client.send_participations(EVENING, [seat(EVENING, 1, "N", "1001")]))
    # A participation naming a player the scoring program never sent, next to a good one.
    reply = client.send_participations(EVENING, [seat(EVENING, 1, "S", "1001"), seat(EVENING, 1, "E", "9999")])
    assert reply.data_type == DataConnectorResponseData.Error and reply.error_type == ErrorType.EntryUnknown
    # Player data without the last name the Data Connector requires.
    reply = client.send_player_data(EVENING, [player(EVENING, "1003", "Utan", None)])
    assert reply.data_type == DataConnectorResponseData.Error and reply.error_type == ErrorType.Validation
    reply = client.send_participations(EVENING, [seat(EVENING, 1, "S", "1003")])
    assert reply.error_type == ErrorType.EntryUnknown
    assert names(st, EVENING) == {"N": "Ask, Kim", "E": "?", "S": "?", "W": "?"}


def person(first, last):
    return {"number": None, "first_name": first, "last_name": last}


def test_howell_pairs_follow_the_movement_and_explicit_seats_win():
    # Howell: pair 1 sits NS at table 1 in round 1 and EW at table 2 in round 2.
    movement = [("A", 1, 1, 1, 2), ("A", 2, 1, 3, 4), ("A", 1, 2, 4, 3), ("A", 2, 2, 2, 1)]
    seats = [{"section": "A", "table": 1, "round": 1, "direction": d, **person(f"P{d}", f"L{d}")} for d in "NESW"]
    seats.append({"section": "A", "table": 1, "round": 2, "direction": "N", **person("Sub", "Stitute")})
    seats_at, members = seating(movement, seats, {})
    at = seats_at("A", 2, 2, 2, 1)
    assert {s: p["pbn_name"] for s, p in at.items()} == {"N": "LE, PE", "S": "LW, PW", "E": "LN, PN", "W": "LS, PS"}
    assert seats_at("A", 1, 2, 4, 3)["N"]["full_name"] == "Sub Stitute"
    assert [p["full_name"] for p in members[("A", "", 1)]] == ["PN LN", "PS LS"]
