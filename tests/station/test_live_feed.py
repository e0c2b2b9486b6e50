"""The live feed (vugraph), played with real tablet controllers over HTTP through the station:
every call reaches the station as it is made and the feed shows it; the LIN read back by
endplay's LIN parser equals every auction; the deal and results never show before the board is
finished in both rooms of the match; a table that is not shown never appears; behind screens only
what passed the tray; bad options and addresses refused with a sentence."""
from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest
from bridgemate_dataconnector import DataConnectorClient
from endplay.parsers import lin as endplay_lin

from .conftest import ROOT, StationProcess
from .live_play import Spectator, calls_of, deal_of, handrecords, pbn_deal, play_auction
from .team_play import PIN, Room, Tablet, teams_init
from .test_team_matches import director_keys, ok

SESSION = "7EA45E55000000000000000000000B02"
EVENT = "club-2026-11-23"
# Board, contract, tricks; the opening bid of boards 2 and 3 is alerted.
OPEN = [(1, "4H", 10), (2, "3NT", 8), (3, "2S", 9)]
CLOSED = [(1, "4H", 9), (2, "3NT", 9), (3, "2S", 8)]


def start(tmp_path, extra=()) -> StationProcess:
    return StationProcess(str(tmp_path / "station.db"), tmp_path, event=EVENT,
                          extra=["--profile", "dbf-2017", "--director-pin", PIN, *extra]).start()


def play(tablet: Tablet, board: int, contract: str, tricks: int, **kw) -> list[tuple[str, str, bool]]:
    made = play_auction(tablet.ctl, board, contract, alert_first=board in (2, 3), **kw)
    tablet.ctl.enter_result(tricks, "SA")
    assert tablet.ctl.ew_confirm(True) is not None
    return made


def endplay_call(call) -> str:
    """endplay's bid as the tablet writes a call (its alert marks `!`, `*` dropped)."""
    from endplay.config import suppress_unicode

    with suppress_unicode():
        text = str(call).rstrip("!*")
    return {"Pass": "P"}.get(text, text)


def read_back(text: str) -> dict[int, object]:
    return {b.board_num: b for b in endplay_lin.loads(text)}


def test_the_feed_shows_each_call_as_made_and_the_deal_only_when_both_rooms_have_played(tmp_path):
    st = start(tmp_path, ["--live", "--live-tables", "A:1-2"])
    tablets: list[Tablet] = []
    spectator = Spectator(st.port).start()
    try:
        client = DataConnectorClient("club-9", st.token, st.url)
        ok(client.initialize(teams_init(SESSION, [Room(1, 1, 2, 2), Room(2, 2, 1, 1), Room(3, 3, 4, 4),
                                                  Room(4, 4, 3, 3)], (1, 3))))
        ok(client.send_handrecords(SESSION, handrecords(SESSION, range(1, 4))))
        keys = director_keys(st)
        tablets = [Tablet(tmp_path, st.url, f"{EVENT}/A/{t}", keys[f"A{t}"]) for t in (1, 2, 3, 4)]
        t1, t2, t3, t4 = tablets

        # Each call is on the stream before the next is made: it reached the station as it was made.
        def seen_before_next(i, seat, call):
            spectator.wait(lambda s: any(len(c) == i + 1 for _, c in calls_of(s, "A1", 1)), what=f"call {i + 1}")

        made = {(1, b): play(t1, b, c, k, on_call=seen_before_next if b == 1 else None) for b, c, k in OPEN[:1]}
        made.update({(3, b): play(t3, b, c, k) for b, c, k in OPEN})   # hidden tables play everything
        made.update({(4, b): play(t4, b, c, k) for b, c, k in CLOSED})
        t1.drain(), t3.drain(), t4.drain()
        # Board 1 is over at the open room only: its contract shows, the deal and result do not.
        spectator.wait(lambda s: any(v["board"] == 1 and v["status"] == "finished" and v["table"] == "A1"
                                     for _, v in s.boards()), what="A1 board 1 finished")
        code, lin = st.request("GET", "/live/A/1.lin")
        assert code == 200 and "md|3|" in lin  # North deals board 1: the dealer alone, no hands
        assert "mc|" not in lin and all(v["deal"] is None and v["result"] is None for _, v in spectator.boards())
        assert "ah|Board 1|" in lin and "mb|4H|" in lin
        # The closed room plays board 1: now the deal and both results show.
        made[(2, 1)] = play(t2, 1, "4H", 9)
        t2.drain()
        spectator.wait(lambda s: any(v["board"] == 1 and v["deal"] for _, v in s.boards()), what="the deal")
        for b, c, k in OPEN[1:]:
            made[(1, b)] = play(t1, b, c, k)
        for b, c, k in CLOSED[1:]:
            made[(2, b)] = play(t2, b, c, k)
        t1.drain(), t2.drain()
        spectator.wait(lambda s: sum(1 for _, v in s.boards() if v["deal"] and v["result"]) >= 6, what="all deals")
        st_events = spectator.events

        # A table that is not shown never appears: not on the stream, not in a file, not on the page.
        assert {v["table"] for _, v in spectator.boards()} == {"A1", "A2"}
        for path in ("/live/A/3.lin", "/live/A/4.lin", "/live/match/A3-A4.lin"):
            code, doc = st.request("GET", path)
            assert code == 404 and "is not shown in the live feed" in doc["error"], (path, doc)
        code, page = st.request("GET", "/live/")
        assert code == 200 and '"table":"A1"' in page and '"table":"A2"' in page
        assert '"table":"A3"' not in page and '"table":"A4"' not in page

        # The LIN of each shown table, read back by endplay: every auction, alert, deal and result.
        for table in (1, 2):
            code, text = st.request("GET", f"/live/A/{table}.lin")
            assert code == 200
            boards = read_back(text)
            assert sorted(boards) == [1, 2, 3]
            for b, board in boards.items():
                want = made[(table, b)]
                assert [endplay_call(x) for x in board.auction] == [c if c != "P" else "P" for _, c, _ in want], b
                assert [bool(x.alertable) for x in board.auction] == [a for _, _, a in want], b
                assert board.dealer.name[0].upper() == "NESW"[(b - 1) % 4]
                hands = deal_of(b)
                from endplay.config import suppress_unicode
                with suppress_unicode():
                    assert str(board.deal.north) == ".".join(hands["N"]) and str(board.deal.west) == ".".join(hands["W"])
                tricks = {x[0]: x[2] for x in (OPEN if table == 1 else CLOSED)}[b]
                assert board.contract.declarer.name[0].upper() == want[0][0]
                assert board.contract.result == tricks - (int(want[0][1][0]) + 6)
            assert (f"qx|{'o' if table == 1 else 'c'}1|") in text  # the room: team 1 sits NS at table 1
        # The match's file: both rooms, the vugraph header.
        code, text = st.request("GET", "/live/match/A1-A2.lin")
        assert code == 200 and text.startswith("vg|")
        assert len(endplay_lin.loads(text)) == 6
        # The match's score on the stream: from the boards shown (all three).
        scores = [doc for _, kind, doc in st_events if kind == "match"]
        assert scores and scores[-1]["scored"] == 3
        assert pbn_deal(1).startswith("N:")
    finally:
        spectator.stop()
        for t in tablets:
            t.stop()
        st.stop()
