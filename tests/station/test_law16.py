"""A table learns no other result of a board before its own result there stands (2017 Law 16D1,
2007 Law 16C1: extraneous information about a board a player has yet to play), at the station
(station/law16.py), over real HTTP with the tablet's own client code: the outbox and its
Deliverer post, `station_client.fetch_traveller` reads.

The attacks that found the breaks: during round 1 a table posted a result for a board of a later
round and then read that board's results; a table that withdrew its only result on a board still
read the others. And the gate's own break: a result of a later round was refused for good
(422), so one board of an earlier round without a result (refused, a broken tablet, a board the
TD took out) lost every later result of the table; now it is held (425) and goes in once the
table has started its round."""
import sqlite3
import time

import pytest
from bridgemate_dataconnector import DataConnectorClient
from bridgemate_dataconnector.dto import DataConnectorResponseData

from shared_rules.records import (
    Result,
    ResultKey,
    RoundKey,
    RoundStart,
    StartedBy,
    TableId,
    TdCall,
    TdCallKey,
    Withdrawal,
)
from station.law16 import current_round
from station.movement import Slot
from tablet_app.outbox import Deliverer, Outbox
from tablet_app.station_client import StationError, fetch_traveller

from .conftest import EVENT, result_record
from .test_dataconnector import init_dto

# init_dto(): 4 tables, 3 rounds of 3 boards. Round 1: tables 1 and 4 boards 1-3, table 2 boards
# 4-6, table 3 boards 7-9; table 2 plays boards 7-9 in round 2 and boards 1-3 in round 3.


class Tablet:
    """One table's outbox and Deliverer, as the tablet app runs them, and its traveller fetch."""

    def __init__(self, st, table: int, tmp_path):
        self.st, self.table = st, table
        self.db = tmp_path / f"tablet-{table}.db"
        self.conn = sqlite3.connect(self.db)
        self.outbox = Outbox(self.conn)
        self.tid = f"{EVENT}/A/{table}"
        self.key = st.keys[self.tid]

    def send(self, *records) -> None:
        """Queue the records and run the Deliverer until every item is settled: delivered,
        refused for good, or held by the station as too early (pending, sent again later)."""
        for rec in records:
            self.outbox.put(rec)
        self.conn.commit()
        d = Deliverer(str(self.db), self.st.url, self.tid, self.key, min_backoff=0.05, max_backoff=0.2).start()
        try:
            deadline = time.monotonic() + 60  # only ends a hang
            while self.unsettled() and time.monotonic() < deadline:
                d.wake()
                time.sleep(0.05)
            assert not self.unsettled(), d.last_error
        finally:
            d.stop()

    def unsettled(self) -> int:
        with sqlite3.connect(self.db) as c:
            return c.execute("SELECT COUNT(*) FROM outbox WHERE state = 'pending' AND held_until IS NULL").fetchone()[0]

    def states(self) -> dict[str, str]:
        return {it["key"]: it["state"] for it in self.outbox.items()}

    def round_start(self, round_no: int, boards: tuple[int, ...], by: StartedBy = StartedBy.PLAYERS) -> RoundStart:
        ew = 4 + (self.table + round_no - 2) % 4 + 1
        return RoundStart(RoundKey(TableId(EVENT, "A", self.table), round_no), self.table, ew, boards, by,
                          "2026-11-22T20:30:00Z")

    def td_call(self, round_no: int, board: int) -> TdCall:
        return TdCall(TdCallKey(TableId(EVENT, "A", self.table), round_no, board, 1), round_no, board,
                      "2026-11-22T20:31:00Z", seat="N", reason="revoke")

    def result(self, round_no: int, board: int, **over) -> Result:
        ew = 4 + (self.table + round_no - 2) % 4 + 1
        return Result.from_json(result_record(table=self.table, round_no=round_no, board=board, ns_pair=self.table,
                                              ew_pair=ew, **over))

    def withdrawal(self, round_no: int, board: int, revision: int, reason: str) -> Withdrawal:
        ew = 4 + (self.table + round_no - 2) % 4 + 1
        return Withdrawal(ResultKey(TableId(EVENT, "A", self.table), round_no, board, revision), self.table, ew,
                          "2026-11-22T20:05:00Z", reason)

    def traveller(self, board: int) -> list[dict]:
        return fetch_traveller(self.st.url, self.tid, self.key, board)

    def refused(self) -> list[dict]:
        return self.outbox.delivery()["refused"]

    def close(self) -> None:
        self.conn.close()


@pytest.fixture
def tables(station, tmp_path):
    client = DataConnectorClient("club-7", station.token, station.url)
    assert client.initialize(init_dto()).data_type == DataConnectorResponseData.OK
    made = {t: Tablet(station, t, tmp_path) for t in (1, 2, 4)}
    yield made
    for tablet in made.values():
        tablet.close()


def test_2017_L16D1_a_table_on_round_1_cannot_post_a_later_rounds_board_nor_then_read_it(tables):
    one, two, four = tables[1], tables[2], tables[4]
    one.send(one.result(1, 1))
    four.send(four.result(1, 1, tricks=11, score_ns=450))
    # Table 2 is on round 1 (boards 4-6); board 1 is its board of round 3.
    two.send(two.result(3, 1))
    [refusal] = two.refused()
    assert refusal["key"] == f"{EVENT}/A/2/3/1/1" and refusal["status"] == 425
    assert refusal["retrying"] and refusal["held"]  # held, not lost
    assert "board 1 is a board of round 3 at table A2, and the table is on round 1" in refusal["reason"]
    assert "boards 4, 5, 6 of round 1 have no result" in refusal["reason"]
    with pytest.raises(StationError, match="own result on the board stands") as e:
        two.traveller(1)
    assert e.value.reason == "refused"
    # Round 1 done, table 2 is on round 2: board 1 (round 3) is still refused, board 7 (round 2) taken.
    two.send(*(two.result(1, b) for b in (4, 5, 6)), two.result(3, 2), two.result(2, 7))
    first, later = two.refused()
    assert (first["key"], later["key"]) == (f"{EVENT}/A/2/3/1/1", f"{EVENT}/A/2/3/2/1")
    assert all(r["held"] and "the table is on round 2" in r["reason"] for r in (first, later))
    assert [r["table"] for r in two.traveller(7)] == [2]
    with pytest.raises(StationError):
        two.traveller(2)
    # Tables 1 and 4 played board 1: each reads both results.
    for t in (one, four):
        assert sorted((r["table"], r["score_ns"]) for r in t.traveller(1)) == [(1, 420), (4, 450)]


def test_2017_L16D1_a_result_of_a_later_round_is_held_not_lost_and_goes_in_once_the_table_starts_the_round(
        tables, station):
    two = tables[2]
    # Round 1 (boards 4-6): board 6 never gets a result at the station (the TD took it out).
    two.send(two.result(1, 4), two.result(1, 5))
    # Round 2 (boards 7-9) is played; its first result is held, and the TD call behind it goes
    # through at once (a held item holds nothing up).
    two.send(two.result(2, 7), two.td_call(2, 8))
    assert two.states() == {f"{EVENT}/A/2/1/4/1": "delivered", f"{EVENT}/A/2/1/5/1": "delivered",
                            f"{EVENT}/A/2/2/7/1": "pending", f"{EVENT}/A/2/2/8/td/1": "delivered"}
    [held] = two.refused()
    assert held["status"] == 425 and held["held"] and "board 6 of round 1 has no result" in held["reason"]
    # The station's director page shows it as held, with the reason.
    code, page = station.request("GET", "/director", headers={"Authorization": f"Bearer {station.token}"})
    assert code == 200 and "Held deliveries" in page and "board 7 is a board of round 2" in page
    # The players moved to round 2 and confirmed its pairs: the round start opens the gate.
    two.send(two.round_start(2, (7, 8, 9)))
    assert two.states()[f"{EVENT}/A/2/2/7/1"] == "delivered" and two.refused() == []
    code, page = station.request("GET", "/director", headers={"Authorization": f"Bearer {station.token}"})
    assert "Held deliveries" not in page  # stored now: nothing held
    assert [r["table"] for r in two.traveller(7)] == [2]
    # 2007 L16C1 / 2017 L16D1 still hold: no board is read before the table's own result there.
    with pytest.raises(StationError):
        two.traveller(8)
    # A round start for a round the movement does not give the table is refused for good.
    two.send(two.round_start(5, (1, 2, 3), StartedBy.DIRECTOR))
    [bad] = two.refused()
    assert bad["status"] == 422 and not bad["retrying"] and "round 5 is not a round of table A2" in bad["reason"]


def test_2017_L16D1_a_withdrawn_result_is_not_standing_and_a_moved_one_stands_on_its_new_board(tables):
    one, four = tables[1], tables[4]
    four.send(four.result(1, 2), four.result(1, 3, tricks=9, score_ns=-50))
    # Table 1 records a result on board 2 and takes it back (it was board 3's): withdrawn, the
    # table has no standing result on board 2 and reads nothing of it.
    one.send(one.result(1, 2))
    assert sorted(r["table"] for r in one.traveller(2)) == [1, 4]
    one.send(one.withdrawal(1, 2, 2, "result entered on the wrong board"))
    with pytest.raises(StationError, match="a withdrawn one does not"):
        one.traveller(2)
    # Moved: the result stands on board 3, the board it was played on.
    one.send(one.result(1, 3, correction={"moved_from": 2, "reason": "result entered on the wrong board"}))
    assert sorted(r["table"] for r in one.traveller(3)) == [1, 4]
    with pytest.raises(StationError):
        one.traveller(2)
    assert one.refused() == []


def test_2007_L16C1_without_a_movement_a_table_reads_a_board_only_after_its_own_standing_result(sqlite_station,
                                                                                           tmp_path):
    # Tables with keys alone (--tables), no scoring program: any board may be posted.
    one, two = Tablet(sqlite_station, 1, tmp_path), Tablet(sqlite_station, 2, tmp_path)
    try:
        two.send(two.result(4, 12))
        with pytest.raises(StationError):
            one.traveller(12)
        one.send(one.result(4, 12), one.withdrawal(4, 12, 2, "not played here"))
        with pytest.raises(StationError, match="a withdrawn one does not"):
            one.traveller(12)
        assert [r["table"] for r in two.traveller(12)] == [2]
    finally:
        one.close()
        two.close()


def test_the_round_a_table_is_on_skips_a_sit_out_and_is_none_when_all_are_in():
    slots = [Slot(1, 1, 1, 2, 1, 2), Slot(1, 2, 3, 4, 1, 0), Slot(1, 3, 5, 6, 1, 3)]
    assert current_round(slots, set()).round == 1
    # Round 2 has no East-West pair (a sit-out): after round 1 the table is on round 3.
    assert current_round(slots, {(1, 1), (1, 2)}).round == 3
    assert current_round(slots, {(1, 1), (1, 2), (3, 5), (3, 6)}) is None
