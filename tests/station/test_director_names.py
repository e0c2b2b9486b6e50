"""The director page names the players at each table: the scoring program (the
official Data Connector client) sends player data and participations; the tables list shows who
sits at each table in its current round, the table's page who sat there in every round, the
moving pairs followed through the movement, every name escaped."""
import re
from urllib.parse import quote

from bridgemate_dataconnector import DataConnectorClient
from bridgemate_dataconnector.dto import (
    DataConnectorResponseData,
    ParticipationDTO,
    PlayerDataDTO,
    TableDirection,
)

from station.movement import Slot

from .conftest import EVENT, result_record
from .test_dataconnector import GUID, pairs_init

# A two-table Mitchell: North-South stay, East-West pairs 11 and 12 swap tables in round 2.
SLOTS = [Slot(1, 1, 1, 2, 1, 11), Slot(2, 1, 3, 4, 2, 12), Slot(1, 2, 3, 4, 1, 12), Slot(2, 2, 1, 2, 2, 11)]


def seat(table, direction, number=None, **kw):
    return ParticipationDTO(session_guid=GUID, section_letters="A", table_number=table, round_number=1,
                            direction=TableDirection("NESW".index(direction) + 1), player_number=number, **kw)


def ok(reply):
    assert reply.data_type == DataConnectorResponseData.OK, reply.serialized_data


def cells(page: str) -> str:
    """The page without its cells' column labels (`data-label`, for the phone layout)."""
    return re.sub(r' data-label="[^"]*"', "", page)


def row(page: str, element_id: str) -> str:
    m = re.search(rf'<tr[^>]*id="{element_id}".*?</tr>', page, re.S)
    assert m, element_id
    return m.group(0)


def test_the_director_sees_who_sits_where_by_name_each_round(sqlite_station):
    st = sqlite_station
    client = DataConnectorClient("club-7", st.token, st.url)
    ok(client.initialize(pairs_init(SLOTS)))
    ok(client.send_player_data(GUID, [
        PlayerDataDTO(session_guid=GUID, club_id="club-7", player_number="1001", first_name="Anna", last_name="Berg"),
        PlayerDataDTO(session_guid=GUID, club_id="club-7", player_number="1002", first_name="Åke",
                      last_name="<b>Öst</b>")]))
    ok(client.send_participations(GUID, [
        seat(1, "N", "1001"), seat(1, "S", first_name="Carl", last_name="Dahl"),
        seat(1, "E", "1002"), seat(1, "W", first_name="Eva", last_name="Ek & Co"),
        seat(2, "N", first_name="Gun", last_name="Holm"), seat(2, "E", first_name="Ivar", last_name="Jonsson")]))
    # table 1 has finished round 1 and moved on: its row shows round 2's players
    for board in (1, 2):
        assert st.post_item("result", result_record(table=1, board=board, ns_pair=1, ew_pair=11))[0] == 201
    assert st.post_item("result", result_record(table=1, round_no=2, board=3, ns_pair=1, ew_pair=12))[0] == 201

    status, page = st.request("GET", f"/director?token={st.token}")
    assert status == 200
    page = cells(page.decode() if isinstance(page, bytes) else page)
    a1, a2 = row(page, "table-A1"), row(page, "table-A2")
    # round 2 at table 1: NS pair 1 stays, EW pair 12 (Ivar Jonsson, East) comes from table 2
    assert "N Anna Berg – S Carl Dahl" in a1 and "E Ivar Jonsson" in a1 and "Åke" not in a1
    # table 2 has sent nothing: its first round, with pair 12
    assert "N Gun Holm" in a2 and "E Ivar Jonsson" in a2
    assert "<b>" not in page

    status, hist = st.request("GET", f"/director/table?event={quote(EVENT)}&section=A&table=1&token={st.token}")
    assert status == 200
    hist = cells(hist.decode() if isinstance(hist, bytes) else hist)
    players = re.search(r'<table id="players">.*?</table>', hist, re.S).group(0)
    r1, r2 = re.findall(r'<tr class="players">.*?</tr>', players, re.S)
    assert "<td>1</td><td>1</td><td>11</td>" in r1
    # round 1: pair 11 was Åke <b>Öst</b> (escaped, not markup) and Eva Ek & Co
    assert "E Åke &lt;b&gt;Öst&lt;/b&gt; – W Eva Ek &amp; Co" in r1 and "N Anna Berg" in r1
    assert "<td>2</td><td>1</td><td>12</td>" in r2 and "E Ivar Jonsson" in r2 and "Åke" not in r2
    # table 2's page: pair 11 followed there in round 2
    _, hist2 = st.request("GET", f"/director/table?event={quote(EVENT)}&section=A&table=2&token={st.token}")
    hist2 = cells(hist2.decode() if isinstance(hist2, bytes) else hist2)
    assert "E Åke &lt;b&gt;Öst&lt;/b&gt;" in re.findall(r'<tr class="players">.*?</tr>', hist2, re.S)[1]


def test_without_player_data_the_pages_show_no_names_and_still_work(sqlite_station):
    st = sqlite_station
    ok(DataConnectorClient("club-7", st.token, st.url).initialize(pairs_init(SLOTS)))
    status, page = st.request("GET", f"/director?token={st.token}")
    page = cells(page.decode() if isinstance(page, bytes) else page)
    assert status == 200 and '<td class="players"></td>' in row(page, "table-A1")
    status, hist = st.request("GET", f"/director/table?event={quote(EVENT)}&section=A&table=1&token={st.token}")
    hist = cells(hist.decode() if isinstance(hist, bytes) else hist)
    assert status == 200 and hist.count('<tr class="players">') == 2
