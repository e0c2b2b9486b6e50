"""The live feed (vugraph), played with real tablet controllers over HTTP through the station:
every call reaches the station as it is made and the feed shows it; the LIN read back by
endplay's LIN parser equals every auction; the deal and results never show before the board is
finished in both rooms of the match; a table that is not shown never appears; behind screens only
what passed the tray; bad options and addresses refused with a sentence."""
from __future__ import annotations

import subprocess
import sys
import time
from typing import Any

import pytest
from bridgemate_dataconnector import DataConnectorClient
from endplay.parsers import lin as endplay_lin

from .conftest import ROOT, StationProcess
from .live_play import Spectator, calls_of, deal_of, handrecords, pbn_deal, play_auction
from .team_play import PIN, Room, Tablet, dealer, imp, law77, teams_init, vulnerability
from .test_team_matches import director_keys, ok

pytestmark = [pytest.mark.slow, pytest.mark.server]  # real tablets and the station as a process

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


def read_back(text: str) -> dict[int | None, Any]:
    return {b.board_num: b for b in endplay_lin.loads(text)}


def test_the_feed_shows_each_call_as_made_and_the_deal_only_when_both_rooms_have_played(tmp_path):
    st = start(tmp_path, ["--live", "--live-tables", "A:1-2"])
    tablets: list[Tablet] = []
    spectator = Spectator(st.live_port).start()
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
        # The IMPs each team won, as scorers show a match: team 1 (home) sits NS in the open room.
        per_board = [imp(law77(c, dealer(b), t, vulnerability(b)) - law77(c2, dealer(b), t2, vulnerability(b)))
                     for (b, c, t), (_, c2, t2) in zip(OPEN, CLOSED, strict=True)]
        assert (scores[-1]["home_won"], scores[-1]["away_won"]) == \
            (str(sum(max(d, 0) for d in per_board)), str(sum(max(-d, 0) for d in per_board))), (scores[-1], per_board)
        assert pbn_deal(1).startswith("N:")
    finally:
        spectator.stop()
        for t in tablets:
            t.stop()
        st.stop()


def event_item(n: int, calls: list[dict], visible: int | None, screens: bool = True, table: int = 2,
               board: int = 5, status: str = "bidding") -> dict:
    from .conftest import EVENT as CLUB
    return {"key": f"{CLUB}/A/{table}/1/{board}/event/{n}", "event": CLUB, "section": "A", "table": table,
            "round": 1, "board": board, "n": n, "what": "call", "at": time.time(), "t": float(n),
            "seat": calls[-1]["seat"], "call": calls[-1]["call"], "calls": calls, "irregularities": [],
            "status": status, "contract": None, "declarer": None, "dealer": "N", "vulnerability": "NS",
            "screens": screens, "visible": visible, "profile": "wbf-screens-2017"}


def test_wbf_screens_only_calls_past_the_tray_and_no_explanation_before_the_board_ends(tmp_path):
    """Behind screens (2007/2017 L80B2(e), FSB L114-L115) a spectator sees what all four players
    have seen: the calls the tray has carried across, alerts marked, the explanations (given to
    one side of the screen) only once the board is over at the table."""
    from .conftest import result_record

    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=["--live"]).start()
    # On the stream before the first call: it sees every change of the board, so the first one
    # shows what was shown before the tray passed (a spectator who connects later is given only
    # the latest view).
    spectator = Spectator(st.live_port).start().connected()
    try:
        one = {"seat": "N", "call": "1C", "alerted": True, "stop": False, "think": 2.0, "explanation": "16+ any"}
        two = {"seat": "E", "call": "1H", "alerted": False, "stop": False, "think": 3.0}
        for n, calls, visible in ((1, [one], 0), (2, [one, two], 0), (3, [one, two], 2)):
            code, doc = st.post_item("auction_event", event_item(n, calls, visible))
            assert code == 201, doc
        spectator.wait(lambda s: any(len(c) == 2 for _, c in calls_of(s, "A2", 5)), what="the tray passed")
        shown = calls_of(spectator, "A2", 5)
        # Nothing before the tray passed; then both calls, the alert marked, its explanation withheld.
        assert [len(c) for _, c in shown] == [0, 2]
        assert shown[-1][1][0] == {"seat": "N", "call": "1C", "alerted": True}
        code, lin = st.request("GET", "/live/A/2.lin")
        assert "mb|1C!|mb|1H|" in lin and "an|" not in lin
        # The board is over at the table: the explanation may be shown.
        rec = result_record(table=2, board=5, contract="1H", declarer="E", tricks=7, score_ns=-80,
                            vulnerability="NS", auction=[one, two, {"seat": "S", "call": "P"},
                                                         {"seat": "W", "call": "P"}, {"seat": "N", "call": "P"}])
        code, doc = st.post_item("result", rec)
        assert code == 201, doc
        spectator.wait(lambda s: calls_of(s, "A2", 5)[-1][1][0].get("explanation") == "16+ any", what="explanation")
        code, lin = st.request("GET", "/live/A/2.lin")
        assert "mb|1C!|an|16+ any|mb|1H|" in lin
    finally:
        spectator.stop()
        st.stop()


def test_WBF_an_irregularity_rectified_behind_the_screen_never_reaches_a_spectator(tmp_path):
    """East's insufficient bid corrected before the tray passed (WBF screen regulations, 2017
    L80B2(e)): the other side of the screen is never told, so the feed never shows it, not even
    once the auction is over; an irregularity the other side did learn of is shown."""
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=["--live"]).start()
    spectator = Spectator(st.live_port).start()
    try:
        one = {"seat": "N", "call": "1H", "alerted": False, "stop": False, "think": 2.0}
        two = {"seat": "E", "call": "2C", "alerted": False, "stop": False, "think": 3.0}
        hidden = {"kind": "insufficient_bid", "seat": "E", "call": "1C", "law": "2017 L27", "index": 1,
                  "resolution": "corrected_behind_screen", "hidden_from": ["S", "W"]}
        told = {"kind": "call_out_of_rotation", "seat": "W", "call": "P", "law": "2017 L28-L32", "index": 1,
                "resolution": "accepted"}
        passes = [{"seat": s, "call": "P", "alerted": False, "stop": False, "think": 1.0} for s in "SWN"]
        item = event_item(1, [one, two, *passes], 5, status="ended")
        item["irregularities"] = [hidden, told]
        code, doc = st.post_item("auction_event", item)
        assert code == 201, doc
        spectator.wait(lambda s: any(v["board"] == 5 for _, v in s.boards()), what="the board")
        views = [v for _, v in spectator.boards() if v["table"] == "A2" and v["board"] == 5]
        assert [x["kind"] for x in views[-1]["irregularities"]] == ["call_out_of_rotation"]
        code, lin = st.request("GET", "/live/A/2.lin")
        assert code == 200 and "1C" not in lin
    finally:
        spectator.stop()
        st.stop()


def test_an_older_tablets_progress_items_show_calls_only_once_the_auction_is_over(tmp_path):
    """A tablet that sends no auction events (an older one) says nothing of a screen's tray: its
    calls are shown when its progress item says the auction is over, never from a frozen table."""
    from .conftest import EVENT as CLUB

    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=["--live"]).start()
    spectator = Spectator(st.live_port).start()
    try:
        calls = [{"seat": "N", "call": "1NT"}, {"seat": "E", "call": "2C"}]
        for seq, phase in ((1, "bidding"), (2, "playing")):
            item = {"key": f"{CLUB}/A/3/1/1/auction/{seq}", "event": CLUB, "section": "A", "table": 3, "round": 1,
                    "board": 1, "seq": seq, "phase": phase, "calls": calls, "irregularities": [],
                    "at": "2026-11-22T19:00:00Z"}
            assert st.post_item("auction", item)[0] == 201
            spectator.wait(lambda s, seq=seq: len(calls_of(s, "A3", 1)) >= seq, what=f"progress {seq}")
        assert [len(c) for _, c in calls_of(spectator, "A3", 1)] == [0, 2]
    finally:
        spectator.stop()
        st.stop()


@pytest.mark.parametrize("args, says", [
    (["--live", "--live-delay", "31"], "the live delay must be 0 to 30 minutes, not 31"),
    (["--live", "--live-delay", "-1"], "the live delay must be 0 to 30 minutes, not -1"),
    (["--live", "--live-delay", "soon"], "expected minutes, 0 to 30"),
    (["--live", "--live-tables", "A:x"], "is not a table range"),
    (["--live", "--live-tables", "A:4-1"], "is not a range of table numbers 1-999"),
    (["--live", "--live-tables", "1-4"], "is not a table range"),
    (["--live-delay", "5"], "add --live"),
    (["--live-port", "8091"], "add --live"),
    (["--live", "--live-keepalive", "0.5"], "the keep-alive must be 1 to 300 seconds, not 0.5"),
    (["--live", "--live-keepalive", "often"], "expected seconds, 1 to 300"),
    (["--live-keepalive", "5"], "add --live"),
])
def test_bad_live_options_exit_2_with_the_reason_and_change_nothing(tmp_path, args, says):
    db = tmp_path / "station.db"
    p = subprocess.run([sys.executable, "-m", "station", "--db", str(db), "--insecure-http", *args],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and says in p.stderr, p.stderr
    assert not db.exists()  # nothing was written


def test_the_live_addresses_when_the_feed_is_off_and_for_nonsense(tmp_path):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path).start()
    try:
        code, doc = st.request("GET", "/live/")
        assert code == 404 and "the live feed is off" in doc["error"]
    finally:
        st.stop()
    st = StationProcess(str(tmp_path / "station2.db"), tmp_path, extra=["--live", "--live-tables", "A:1"]).start()
    try:
        for path, says in (("/live/A/2.lin", "table A2 is not shown in the live feed"),
                           ("/live/nothing", "no such page in the live feed"),
                           ("/live/match/A1-A2.lin", "table A2 is not shown")):
            code, doc = st.request("GET", path)
            assert code == 404 and says in doc["error"], (path, doc)
        code, doc = st.request("GET", "/live/stream?after=x")
        assert code == 400 and "event number" in doc["error"]
        code, doc = st.request("POST", "/live/", b"{}", {"Content-Length": "2"})
        assert code == 405
        code, text = st.request("GET", "/live/A/1.lin")
        assert code == 200 and text == ""
    finally:
        st.stop()
