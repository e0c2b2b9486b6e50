"""The club evening over the `.bws` (Ruter, Magic Contest): `python -m station --bws` on the
session's file (the SQLite ODBC driver standing in for Access), four real tablet controllers set
up from the station for two rounds. At table 1 the players enter their member numbers at the
first board (one typed wrong first: refused); at table 3 the TD withdraws a result and the board
is played again; at table 4 a result entered on the wrong board is moved; at table 2 the
scorer changes a result by hand before the TD corrects it at the table. The file is then read
back with the logic of three independent readers of real `.bws` files
(tests/station/bws_readers.py): TabPlay's result reader, JFR Pary's bidding reader, DBF-Tools'
column types; what they read is what the tables' own outboxes say stands. At table 2 in round 1
the TD replaces an agreed result with an assigned score (2007 L12C1(c)): the readers find his
contract, not the table's; his weighted score is refused first (the Swedish edition lets only an
appeals committee or the Laws Commission weight) and changes nothing."""
from __future__ import annotations

import json
import sqlite3

import pytest

from tablet_app.controller import Controller, Refused
from tablet_app.station_client import next_round_from_station, setup_from_station
from tests.station import bws_readers as readers
from tests.station.test_bws_session import (
    BOARDS_PER_ROUND,
    EVENT,
    PIN,
    TABLES,
    Clock,
    bws_station,
    create_bws,
    deliver,
    director,
    expected_auction,
    pbn_names,
    play_board,
    rows,
    wait_for,
)

pytestmark = [pytest.mark.slow, pytest.mark.server]
WITHDRAWN, MOVED, BY_HAND, ASSIGNED = (3, 2), (4, 2), (2, 2), (2, 1)  # (table, round)
TD_CONTRACT = {"contract": "2S", "declarer": "E", "tricks": 7}  # the TD's assigned score at ASSIGNED


def standing(ctl: Controller) -> dict[tuple, dict]:
    """The results the table's outbox says stand: the latest revision of each board's, a
    withdrawn one not (the moved result stands on the board it was moved to)."""
    out: dict[tuple, dict] = {}
    for (payload,) in ctl.outbox.conn.execute("SELECT payload FROM outbox WHERE kind = 'result' ORDER BY id"):
        rec = json.loads(payload)
        k = (1, rec["table"], rec["round"], rec["board"])
        if rec.get("withdrawn"):
            out.pop(k, None)
        else:
            out[k] = rec
    return out


def tabplay_view(rec: dict) -> dict:
    """What TabPlay's reader must make of the row of this record: an assigned score's contract as
    the TD gave it, with no lead of the table's play (Law 12C1)."""
    if (rec.get("adjusted") or {}).get("kind") == "assigned":
        rec = {**rec, **rec["adjusted"], "lead": None}
    if rec["contract"] == "PASS":
        return {"level": 0}
    level, rest = int(rec["contract"][0]), rec["contract"][1:]
    denom = rest.rstrip("X")
    lead = rec["lead"][0] + ("10" if rec["lead"][1:] == "T" else rec["lead"][1:]) if rec["lead"] else ""
    return {"level": level, "suit": denom, "x": {0: "", 1: "x", 2: "xx"}[len(rest) - len(denom)],
            "declarer": rec["declarer"], "tricks": rec["tricks"], "lead": lead}


def play_round(ctl: Controller, t: int, rnd: int) -> None:
    assert ctl.session is not None
    boards = list(ctl.session.boards)
    if (t, rnd) == (1, 1):
        with pytest.raises(Refused) as e:  # a letter O for a zero: refused, nothing journalled
            ctl.enter_player_numbers({"N": "4O0"})
        assert e.value.key == "players.number_form"
        shown = ctl.enter_player_numbers({"N": "400", "S": "101"})
        assert shown["names"] == {"N": "Anna Åström", "S": "Bo Berg"}  # from the file's PlayerNames
        ctl.confirm_player_numbers()
    if (t, rnd) == MOVED:
        # the players bid and play the second board's cards while the tablet shows the first
        play_board(ctl, "normal")
        ctl.td_move_result(PIN, boards[0], boards[1], reason="the cards were the other board's", by="TD")
        ctl.choose_board(boards[0])
        play_board(ctl, "normal")
        return
    for i in range(BOARDS_PER_ROUND):
        play_board(ctl, "normal")
        if (t, rnd) == ASSIGNED and i == 0:
            before = (ctl.journal.count(), len(standing(ctl)), ctl.done[-1])
            with pytest.raises(Refused) as e:  # 2007 L12C1(c), Swedish edition: no weighting by the TD
                ctl.td_assigned_score(PIN, boards[0], [{**TD_CONTRACT, "weight": 50},
                                                       {**TD_CONTRACT, "tricks": 8, "weight": 50}], reason="UI")
            assert e.value.key == "adjusted.no_weighting"
            assert (ctl.journal.count(), len(standing(ctl)), ctl.done[-1]) == before
            rec = ctl.td_assigned_score(PIN, boards[0], [TD_CONTRACT], reason="2S was bid on UI (2007 L16)")
            assert rec["adjusted"]["law"] == "2007 L12C1(c)" and rec["contract"] != "2S"
        if (t, rnd) == WITHDRAWN and i == 0:
            ctl.td_withdraw_result(PIN, boards[0], reason="the board was fouled", by="TD")
            ctl.choose_board(boards[0])
            play_board(ctl, "normal")


def test_a_bws_evening_reads_back_as_the_readers_of_real_files_read_it(tmp_path):
    bws = tmp_path / "Torsdag.bws"
    create_bws(bws, rounds=2)
    st = bws_station(tmp_path, bws)
    journals = {t: str(tmp_path / f"table{t}.db") for t in range(1, TABLES + 1)}
    ctls = {t: Controller(journals[t], clock=Clock(1_790_000_000.0 + t)) for t in journals}
    want: dict[tuple, dict] = {}
    try:
        for rnd in (1, 2):
            for t, ctl in ctls.items():
                key = st.keys[f"{EVENT}/A/{t}"]
                if rnd == 1:
                    setup_from_station(ctl, st.url, str(t), key, 1, profile="fsb-2007", td_pin=PIN)
                else:
                    next_round_from_station(ctl, st.url, key)
                play_round(ctl, t, rnd)
                deliver(st, journals[t], t)
        wait_for(lambda: len(readers.in_force(sqlite3.connect(bws))) == 2 * TABLES * BOARDS_PER_ROUND,
                 "every result in ReceivedData")
        # The scorer changes table 2's last result by hand (a trick more); then the TD corrects the
        # same board at the table: the station does not write over the scorer's row.
        t, rnd = BY_HAND
        board = ctls[t].session.boards[0]
        db = sqlite3.connect(bws)
        db.execute("UPDATE [ReceivedData] SET [Result] = '+1' WHERE [Table] = ? AND [Round] = ? AND [Board] = ?",
                   (t, rnd, board))
        db.commit()
        db.close()
        before = len(rows(bws, "ReceivedData"))
        ctls[t].td_correct_result(PIN, board, 8, reason="tricks miscounted (L79C)")
        deliver(st, journals[t], t)
        wait_for(lambda: "changed by hand" in director(st), "the held correction on the director page")
        assert len(rows(bws, "ReceivedData")) == before  # nothing written over it
        names = pbn_names(st)
        for ctl in ctls.values():
            want.update(standing(ctl))
    finally:
        for ctl in ctls.values():
            ctl.close()
        st.stop()

    assert names[(1, 1)]["N"] == "Anna Åström" and names[(1, 1)]["S"] == "Bo Berg"
    [north] = [r for r in rows(bws, "PlayerNumbers") if (r["Table"], r["Direction"]) == (1, "N")]
    assert (north["Number"], north["Name"], north["Processed"]) == ("400", "Anna Åström", 0)

    db = sqlite3.connect(bws)
    forced = readers.in_force(db)
    bidding = readers.jfr_read(db)
    hand_key = (1, *BY_HAND, board)
    assert set(forced) == set(want)
    [assigned_key] = [k for k, rec in want.items() if rec.get("adjusted")]  # the TD's, standing
    assert assigned_key[1:3] == ASSIGNED and want[assigned_key]["adjusted"]["kind"] == "assigned"
    assert readers.tabplay_result(forced[assigned_key]) == {"level": 2, "suit": "S", "x": "", "declarer": "E",
                                                            "tricks": 7, "lead": ""}
    for k, rec in want.items():
        got = readers.tabplay_result(forced[k])
        if k == hand_key:  # the scorer's row stands (his change); the TD's correction is held
            assert forced[k]["Result"] == "+1" and rec.get("correction") and rec["tricks"] == 8, (forced[k], rec)
            continue
        assert got == tabplay_view(rec), (k, got, rec)
        section, table, round_, b = k
        calls = bidding[(b, round_, section, table)]
        assert [(c["direction"], c["bid"]) for _, c in sorted(calls.items())] == expected_auction(rec), k
    for table in ("ReceivedData", "BiddingData", "PlayData"):
        for r in readers.rows(db, f"SELECT * FROM {table}"):
            assert readers.dbf_tools_fits(table, r) == [], (table, r)
    # the withdrawn and the moved boards: an Erased copy each, and the board's result after it
    erased = [(r["Table"], r["Round"]) for r in readers.rows(db, "SELECT * FROM ReceivedData WHERE Erased <> 0")]
    assert WITHDRAWN in erased and MOVED in erased
