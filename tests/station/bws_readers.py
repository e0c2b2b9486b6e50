"""Three independent readers of real `.bws` files, translated into Python with their logic kept,
to read back what the bridge writes exactly as they would:

- JFR Pary's bidding reader (emkael/jfrpary-bidding-data, src/bidding_data.py):
  `parse_bidding_data` (a bid is dropped when it is not newer than the board's latest erased
  result, an erased bid removes the bid at its counter when the direction matches),
  `get_dealer` (the direction at the lowest counter), `__compile_bidding` and `__form_bidding`
  (the W N E S table; `SkipBid` shown as "( - )").
- TabPlay (pjflip/TabPlay, TabPlay/Models/Result.cs, Playing.cs, Utilities.cs, HandRecord.cs):
  the result of a board from ReceivedData (`Remarks == "Not played"`, the contract split at
  spaces, the tricks from the `Result` symbol) and the play from PlayData (each `Card` must be
  one of the strings of its hand table: rank then suit, `T` for the ten).
- DBF-Tools, the Danish federation's tools (mortensp/DBF-Tools, BridgeMateModel/AccessContext.cs):
  the entity model's column types of ReceivedData, BiddingData and PlayData.

The rows are read in ID order (the readers' SELECTs have no ORDER BY; Access returns a table's
rows in the order they were appended).
"""
from __future__ import annotations

import datetime
import sqlite3
from typing import Any

from shared_rules.types import SEATS

# -- JFR Pary (emkael/jfrpary-bidding-data, src/bidding_data.py) ------------------------------------
JFR_DIRECTIONS = ["W", "N", "E", "S"]


def _merge_timestamps(date_stamp: Any, time_stamp: Any) -> str:
    """merge_timestamps: YYYYMMDD of DateLog + HHMMSS of TimeLog."""
    d = date_stamp if isinstance(date_stamp, datetime.datetime) else datetime.datetime.fromisoformat(str(date_stamp))
    t = time_stamp if isinstance(time_stamp, datetime.datetime) else datetime.datetime.fromisoformat(str(time_stamp))
    return d.strftime("%Y%m%d") + t.replace(year=1900).strftime("%H%M%S")


def jfr_parse_bidding_data(bidding_rows: list[dict], erased_boards: list[dict]) -> dict[tuple, dict[int, dict]]:
    """parse_bidding_data: (board, round, section, table) -> {counter: {direction, bid}}."""
    erased: dict[tuple, str] = {}
    for entry in erased_boards:
        board_no = (entry["Board"], entry["Round"], entry["Section"], entry["Table"])
        timestamp = _merge_timestamps(entry["DateLog"], entry["TimeLog"])
        if board_no not in erased or erased[board_no] < timestamp:
            erased[board_no] = timestamp
    bids: dict[tuple, dict[int, dict]] = {}
    for bid in bidding_rows:
        board_no = (bid["Board"], bid["Round"], bid["Section"], bid["Table"])
        counter = bid["Counter"]
        if board_no not in erased or erased[board_no] < _merge_timestamps(bid["DateLog"], bid["TimeLog"]):
            bidding = bids.setdefault(board_no, {})
            if bid["Erased"] == 1 and counter in bidding:
                # erase_bid: only when the direction matches
                if bidding[counter]["direction"] == bid["Direction"]:
                    bidding.pop(counter, None)
                if not bidding:
                    bids.pop(board_no)
            else:
                bidding[counter] = {"direction": bid["Direction"], "bid": bid["Bid"]}
    return bids


def jfr_get_dealer(bidding: dict[int, dict]) -> str:
    return bidding[min(bidding)]["direction"]


def jfr_table(bidding: dict[int, dict]) -> list[list[str]]:
    """__compile_bidding then __form_bidding: rows of W N E S, '' before the dealer and after
    the last bidder, 'SkipBid' as '( - )' (__format_bidding)."""
    table: list[list[str]] = [[], [], [], []]
    for index in sorted(bidding):
        b = bidding[index]
        table[JFR_DIRECTIONS.index(b["direction"])].append("( - )" if b["bid"] == "SkipBid" else b["bid"])
    for pos in range(0, JFR_DIRECTIONS.index(jfr_get_dealer(bidding))):
        table[pos].insert(0, "")
    last = bidding[max(bidding)]["direction"]
    for pos in range(JFR_DIRECTIONS.index(last), len(JFR_DIRECTIONS)):
        table[pos].append("")
    return [list(row) for row in zip(*table, strict=False)]


def jfr_read(db: sqlite3.Connection) -> dict[tuple, dict[int, dict]]:
    """The reader's queries: `SELECT * FROM BiddingData`, `SELECT * FROM ReceivedData ... AND Erased`."""
    return jfr_parse_bidding_data(rows(db, "SELECT * FROM BiddingData"),
                                  rows(db, "SELECT * FROM ReceivedData WHERE Erased <> 0"))


# -- TabPlay (pjflip/TabPlay) -----------------------------------------------------------------------
def tabplay_result(row: dict) -> dict[str, Any]:
    """Result.cs, reading a ReceivedData row: ContractLevel -1 for "Not played", 0 for PASS, else
    level, suit, X from `Contract.Split(' ')` and TricksTakenNumber from the `Result` symbol."""
    if row["Remarks"] == "Not played":
        return {"level": -1}
    contract = row["Contract"]
    if len(contract) <= 2:  # "Board not played or corrupt data"
        return {"level": -999}
    if contract == "PASS":
        return {"level": 0}
    level, suit, *x = contract.split(" ")
    symbol = row["Result"]
    tricks = int(level) + 6 if symbol == "=" else int(level) + int(symbol) + 6
    return {"level": int(level), "suit": suit, "x": x[0] if x else "", "declarer": row["NS/EW"],
            "tricks": tricks, "lead": row["LeadCard"]}


def tabplay_hand_table(deal: str) -> dict[str, set[str]]:
    """HandRecord.HandTable: every card of each seat as rank then suit (`T` for the ten)."""
    hands = deal[2:].split(" ")
    first = SEATS.index(deal[0])
    out = {}
    for i, hand in enumerate(hands):
        seat = SEATS[(first + i) % 4]
        out[seat] = {rank + suit for suit, ranks in zip("SHDC", hand.split("."), strict=True) for rank in ranks}
    return out


def tabplay_plays(db: sqlite3.Connection, where: tuple, deal: str) -> list[tuple[str, str]]:
    """Playing.cs: `SELECT Counter, Direction, Card FROM PlayData WHERE ...`, sorted by counter;
    each card looked up in the player's hand table (a card not found there breaks the replay)."""
    hand = tabplay_hand_table(deal)
    out = []
    plays = rows(db, "SELECT * FROM PlayData WHERE Section = ? AND [Table] = ? AND Round = ? AND Board = ? "
                     "AND Erased = 0", where)
    for p in sorted(plays, key=lambda p: p["Counter"]):
        if p["Card"] not in hand[p["Direction"]]:
            raise AssertionError(f"TabPlay finds no {p['Card']!r} in {p['Direction']}'s hand {sorted(hand[p['Direction']])}")
        out.append((p["Direction"], p["Card"]))
    return out


# -- DBF-Tools (mortensp/DBF-Tools, BridgeMateModel/AccessContext.cs) --------------------------------
SMALLINT = ("Section", "Table", "Round", "Board", "PairNS", "PairEW", "Declarer", "Counter")
VARCHAR = {"ReceivedData": {"NS/EW": 1, "LeadCard": 5, "Result": 5, "Remarks": 127},
           "BiddingData": {"Direction": 1}, "PlayData": {"Direction": 1, "Card": 5}}
BOOL = ("Erased", "Processed", "Processed1", "Processed2", "Processed3", "Processed4")


def dbf_tools_fits(table: str, row: dict) -> list[str]:
    """What of `row` the entity model's column types cannot hold (empty: it fits)."""
    bad = []
    for col, v in row.items():
        if col in SMALLINT and not (isinstance(v, int) and -32768 <= v <= 32767):
            bad.append(f"{col}={v!r} is no smallint")
        if col in BOOL and v not in (0, 1, -1, True, False):
            bad.append(f"{col}={v!r} is no bool")
        n = VARCHAR.get(table, {}).get(col)
        if n is not None and not (isinstance(v, str) and len(v) <= n):
            bad.append(f"{col}={v!r} is no varchar({n})")
    return bad


# -- plumbing ---------------------------------------------------------------------------------------
def rows(db: sqlite3.Connection, sql: str, params: tuple = ()) -> list[dict]:
    db.row_factory = sqlite3.Row
    order = " ORDER BY ID"
    return [dict(r) for r in db.execute(sql + order, params)]


def in_force(db: sqlite3.Connection) -> dict[tuple, dict]:
    """ReceivedData as the scoring programs take it: rows in order, the last row of a board
    counts, an Erased row withdraws the result before it."""
    out: dict[tuple, dict] = {}
    for r in rows(db, "SELECT * FROM ReceivedData"):
        k = (r["Section"], r["Table"], r["Round"], r["Board"])
        if r["Erased"]:
            out.pop(k, None)
        else:
            out[k] = r
    return out
