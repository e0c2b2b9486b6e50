"""Player numbers entered at the tables (docs/station.md "Player numbers"): the station looks
them up in the scoring program's players for the tablet, takes the confirmed entry like any
other item, gives it to the scoring program's participation and player-data polls (the
official Data Connector client 1.2.1 polls them) and names the players in the exports; an
entry of the wrong form or for a round the table does not play is refused and stores nothing."""
from __future__ import annotations

import http.client

from bridgemate_dataconnector import DataConnectorClient
from bridgemate_dataconnector.dto import DataConnectorResponseData, PlayerDataDTO, TableDirection

from station.movement import Slot
from tablet_app.station_client import StationError, player_lookup

from .conftest import EVENT, result_record
from .export_readers import conforming_text, games, tags
from .test_dataconnector import GUID, pairs_init

# A Mitchell of two rounds: NS stay, EW move up a table.
SLOTS = [Slot(t, r, 2 * r - 1, 2 * r, t, (t + r - 2) % 4 + 1) for t in (1, 2, 3, 4) for r in (1, 2)]
OK = DataConnectorResponseData.OK


def players_item(numbers: dict, table: int = 1, round_no: int = 1, entry: int = 1, **over) -> dict:
    p = {"event": EVENT, "section": "A", "table": table, "round": round_no, "entry": entry, "numbers": numbers,
         "by": "players", "at": "2026-11-22T19:00:00Z", **over}
    p["key"] = f"{EVENT}/A/{table}/{round_no}/players/{entry}"
    return p


def scorer(st) -> DataConnectorClient:
    c = DataConnectorClient("club-7", st.token, st.url)
    assert c.initialize(pairs_init(SLOTS)).data_type == OK
    players = [PlayerDataDTO(session_guid=GUID, club_id="club-7", player_number=n, first_name=f, last_name=last)
               for n, f, last in (("10234", "Anna", "Berg"), ("20456", "Björn", "Dahl"), ("30789", "Cecilia", "Ek"))]
    assert c.send_player_data(GUID, players).data_type == OK
    return c


def pbn_names(st) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", st.port, timeout=30)
    conn.request("GET", f"/export/pbn?token={st.token}&session={GUID}")
    text = conforming_text(conn.getresponse().read())
    conn.close()
    out = {}
    for game in games(text):
        t = dict(tags(game))
        out[(t["Board"], t.get("Table"))] = {s: t[n] for s, n in (("N", "North"), ("E", "East"), ("S", "South"),
                                                                  ("W", "West"))}
    return out


def test_the_tablet_looks_numbers_up_in_the_scoring_programs_players(sqlite_station):
    st = sqlite_station
    scorer(st)
    lookup = player_lookup(st.url, f"{EVENT}/A/1", st.keys[f"{EVENT}/A/1"], session=GUID)
    assert lookup(["10234", "99999"]) == {"10234": "Anna Berg", "99999": None}
    wrong_key = player_lookup(st.url, f"{EVENT}/A/1", "AAAA-BBBB-CCCC-DDDD")
    try:
        wrong_key(["10234"])
        raise AssertionError("a wrong table key got names")
    except StationError as e:
        assert e.reason == "refused"
    status, reply = st.request("GET", "/api/v1/players?number=12-34", headers=st.table_headers())
    assert status == 400 and "player number" in reply["error"]


def test_entered_numbers_reach_the_participation_and_player_data_polls_and_the_exports(sqlite_station):
    st = sqlite_station
    c = scorer(st)
    assert c.poll_for_participations(GUID) == []
    assert st.post_item("players", players_item({"N": "10234", "S": "20456", "E": "30789", "W": "99999"}))[0] == 201
    # table 2's South corrects the number first entered
    assert st.post_item("players", players_item({"N": "30789", "S": "10234"}, table=2))[0] == 201
    polled = c.poll_for_participations(GUID)
    seen = {(p.table_number, p.round_number, p.direction, p.player_number) for p in polled}
    assert (1, 1, TableDirection.North, "10234") in seen and (1, 1, TableDirection.West, "99999") in seen
    assert all(p.first_name is None and p.last_name is None for p in polled)  # by number only, as documented
    data = {p.player_number: (p.first_name, p.last_name) for p in c.poll_for_player_data(GUID)}
    assert data == {"10234": ("Anna", "Berg"), "20456": ("Björn", "Dahl"), "30789": ("Cecilia", "Ek"),
                    "99999": (None, None)}
    assert c.accept_queue_data(GUID, DataConnectorResponseData.Participations).data_type == OK
    assert c.poll_for_participations(GUID) == []  # accepted: not offered again
    assert len(c.poll_for_participations(GUID, all=True)) == 6
    # the exports: table 1's NS (who stay) and EW (who move on to table 4 in round 2)
    assert st.post_item("result", result_record(table=1, ns_pair=1, ew_pair=1))[0] == 201
    for board in (1, 2):
        assert st.post_item("result", result_record(table=4, board=board, ns_pair=4, ew_pair=4))[0] == 201
    assert st.post_item("result", result_record(table=4, round_no=2, board=3, ns_pair=4, ew_pair=1))[0] == 201
    names = pbn_names(st)
    assert names[("1", "1")] == {"N": "Berg, Anna", "S": "Dahl, Björn", "E": "Ek, Cecilia", "W": "?"}
    assert names[("3", "4")]["E"] == "Ek, Cecilia"  # the EW pair took its names to table 4
    assert names[("3", "4")]["N"] == "?"  # no numbers entered at table 4


def test_a_number_of_the_wrong_form_or_a_round_not_played_is_refused_and_stores_nothing(sqlite_station):
    st = sqlite_station
    c = scorer(st)
    for numbers in ({"N": "12-34"}, {"N": "0000"}, {"X": "10234"}, {}):
        status, reply = st.post_item("players", players_item(numbers))
        assert status == 422, reply
    status, reply = st.post_item("players", players_item({"N": "10234"}, round_no=5, entry=1))
    assert status == 422 and "no round 5" in reply["error"]
    assert c.poll_for_participations(GUID, all=True) == []
    assert c.poll_for_player_data(GUID, all=True) == []
