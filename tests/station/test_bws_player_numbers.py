"""Player numbers entered at the tables reach the `.bws` `PlayerNumbers` table as the programs
that stand in for BCS write them (docs/bws.md "Player numbers"): the seat's row updated in place
(round 0 for the first round), the name from the club's `PlayerNames`, `Processed` false for
the scoring program to read; and the exports name the players from it."""
from __future__ import annotations

import pytest

from .test_bws_session import EVENT, bws_station, create_bws, pbn_names, result_record_for, rows, wait_for

pytestmark = pytest.mark.server  # starts the results station as a process


def entry(table: int, round_no: int, numbers: dict, n: int = 1) -> dict:
    return {"key": f"{EVENT}/A/{table}/{round_no}/players/{n}", "event": EVENT, "section": "A", "table": table,
            "round": round_no, "entry": n, "numbers": numbers, "by": "players", "at": "2026-11-23T18:30:05Z"}


def seat_rows(bws, table: int, direction: str) -> list[dict]:
    return [r for r in rows(bws, "PlayerNumbers") if r["Table"] == table and r["Direction"] == direction]


def test_numbers_entered_at_a_table_update_the_seats_in_player_numbers(tmp_path):
    bws = tmp_path / "Tisdag.bws"
    create_bws(bws, rounds=2)  # Ruter seats table 2: N 200 Anna Ek, E 201, S 202 Cecilia Ek, W 203
    st = bws_station(tmp_path, bws)
    try:
        # North is Anna Åström tonight (400 in the club's register); South a guest nobody knows.
        assert st.post_item("players", entry(2, 1, {"N": "400", "S": "99999"}))[0] == 201
        wait_for(lambda: seat_rows(bws, 2, "N")[0]["Number"] == "400", "the number in PlayerNumbers")
        wait_for(lambda: seat_rows(bws, 2, "S")[0]["Number"] == "99999", "the guest's number")
        [north] = seat_rows(bws, 2, "N")  # updated in place: still one row for the seat
        assert (north["Name"], north["Processed"], north["Round"]) == ("Anna Åström", 0, 1)
        [south] = seat_rows(bws, 2, "S")
        assert south["Name"] == ""  # the guest's name is the scoring program's to give
        assert [r["Number"] for r in seat_rows(bws, 2, "E")] == ["201"]  # not entered: as Ruter wrote it
        # A late player at table 3 in round 2 only: a row of that round.
        assert st.post_item("players", entry(3, 2, {"W": "101"}))[0] == 201
        wait_for(lambda: len(seat_rows(bws, 3, "W")) == 2, "round 2's row")
        late = next(r for r in seat_rows(bws, 3, "W") if r["Round"] == 2)
        assert (late["Number"], late["Name"]) == ("101", "Bo Berg")
        # A number for a round the movement does not have is refused at the door.
        assert st.post_item("players", entry(1, 7, {"N": "100"}))[0] == 422
        assert st.post_item("result", result_record_for(2, 1, 3))[0] == 201
        wait_for(lambda: (2, 1) in pbn_names(st), "the result in the PBN")
        names = pbn_names(st)[(2, 1)]
    finally:
        st.stop()
    assert names["N"] == "Anna Åström" and names["E"] == "Bo Ek"
    assert names["S"] != "Cecilia Ek"  # the guest sat South, not Ruter's player
