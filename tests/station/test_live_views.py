"""What the live feed's spectators read (station/live_views.py), fed events as the station's feed
releases them: a spectator behind the events still kept gets what came after its number, one
behind what was dropped a snapshot; a copy filled from another's state (a fan-out process started
again) answers as the original does."""
from __future__ import annotations

from station import live_views
from station.live_views import LiveConfig, LiveViews


def board(seq: int, table: int, board_no: int, calls: int, started: int) -> dict:
    view = {"table": f"A{table}", "section": "A", "table_no": table, "session": "ev", "round": 1, "board": board_no,
            "calls": [{"seat": "N", "call": "P", "alerted": False}] * calls, "match": None, "room": None,
            "started": started}
    return {"seq": seq, "view": view, "lin": f"pn|||ah|Board {board_no}|{'mb|p|' * calls}pg||"}


def ids(data: bytes) -> list[int]:
    return [int(line[4:]) for line in data.split(b"\n") if line.startswith(b"id: ")]


def test_events_after_a_number_and_a_snapshot_for_one_no_longer_kept(monkeypatch):
    monkeypatch.setattr(live_views, "RING", 3)
    v = LiveViews(LiveConfig(), "ev", 100)
    for n in range(1, 9):
        assert v.take("board", board(100 + n, 1, 1, n, 101))
    assert not v.take("board", board(105, 1, 1, 9, 101))  # not newer: nothing changes
    kept = ids(v.frames_after(105)[0])
    assert kept == [106, 107, 108]
    data, last = v.frames_after(101)  # dropped: the snapshot (the table's latest board), then its number
    assert last == 108 and ids(data) == [108, 108] and b"event: snapshot" in data
    assert v.frames_after(108) == (b"", 108)


def test_a_copy_from_the_state_answers_as_the_original():
    a = LiveViews(LiveConfig(), "ev", 100)
    a.take("board", board(101, 1, 1, 1, 101))
    a.take("board", board(102, 1, 2, 1, 102))
    a.take("board", board(103, 1, 1, 4, 101))   # board 1's result after board 2 began
    a.take("match", {"seq": 104, "match": "T1 v T2", "deductions": []})
    a.take("byes", {"seq": 105, "session": "ev", "byes": [{"team": 7, "round": 1, "vp": "14.00"}]})
    a.take("byes", {"seq": 106, "session": "ev", "byes": []})   # the TD forgot it: the session's byes now
    b = LiveViews(LiveConfig(), "ev", 100)
    for kind, doc in a.state():
        assert b.take(kind, doc)
    assert b.table_lin("A", 1) == a.table_lin("A", 1)
    assert b.page_state() == a.page_state() and b.snapshot() == a.snapshot()
    assert b.byes("ev") == {"seq": 106, "session": "ev", "byes": []} and b.page_state()[2] == [b.byes("ev")]
    # a spectator of the original at 102 gets from the copy what changed since: board 1, the match, the byes
    assert ids(b.frames_after(102)[0]) == [103, 104, 106]
