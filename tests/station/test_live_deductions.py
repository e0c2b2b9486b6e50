"""The TD's VP deduction made after a match's last board reaches the spectators at once (FSB
L109B-D), and so does its undoing: the TD's `python -m station match deduct` / `undeduct` is another
process writing the station's database, and no board's result follows to carry it. Real tablet
controllers over HTTP, a spectator on the push stream."""
from __future__ import annotations

import functools
import re
from fractions import Fraction

import pytest
from bridgemate_dataconnector import DataConnectorClient

from .conftest import StationProcess
from .live_play import Spectator, handrecords
from .team_play import PIN, Room, Tablet, imp, teams_init, wbf_vp
from .test_team_matches import CLOSED, OPEN, director_keys, ns_score, ok, station_match

pytestmark = [pytest.mark.slow, pytest.mark.server]

SESSION = "7EA45E55000000000000000000000D05"
EVENT = "club-2026-11-23"
DOCKED = "Team 1 -2 VP (slow play; FSB L109C)"


def test_FSB_L109C_a_deduction_after_the_last_board_and_its_undoing_reach_the_stream_at_once(tmp_path):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, event=EVENT,
                        extra=["--profile", "fsb-2007", "--director-pin", PIN, "--live",
                               "--live-tables", "A:1-2"]).start()
    tablets: list[Tablet] = []
    spectator = Spectator(st.live_port).start()

    match = functools.partial(station_match, st)  # the TD's `station match ...` command

    def scores() -> list[dict]:
        return [d for _, k, d in spectator.events if k == "match"]

    try:
        client = DataConnectorClient("club-9", st.token, st.url)
        ok(client.initialize(teams_init(SESSION, [Room(1, 1, 2, 2), Room(2, 2, 1, 1)], (1, 4), method=50)))
        ok(client.send_handrecords(SESSION, handrecords(SESSION, range(1, 5))))
        ident = re.search(r"^  (\S+): team 1 \(home\) v team 2", match("list").stdout, re.M)
        assert ident
        keys = director_keys(st)
        tablets = [Tablet(tmp_path, st.url, f"{EVENT}/A/{n}", keys[f"A{n}"]) for n in (1, 2)]
        for b, c, t in OPEN[:4]:
            tablets[0].play(b, c, t)
        for b, c, t in CLOSED[:4]:
            tablets[1].play(b, c, t)
        for t in tablets:
            t.drain()
        closed = {x: (y, z) for x, y, z in CLOSED}
        per_board = [imp(ns_score(b, c, t) - ns_score(b, *closed[b])) for b, c, t in OPEN[:4]]
        home, away = sum(max(d, 0) for d in per_board), sum(max(-d, 0) for d in per_board)
        scale = wbf_vp(home - away, 4)
        spectator.wait(lambda s: any(k == "match" and d["scored"] == 4 for _, k, d in s.events), what="the match")
        assert scores()[-1]["vp"] == [f"{scale[0]:.2f}", f"{scale[1]:.2f}"] and scores()[-1]["deductions"] == []
        shown = len(scores())

        # The match is over: no result follows. The deduction alone is on the stream.
        good = match("deduct", ident.group(1), "1", "2", "--reason", "slow play", "--law", "FSB L109C")
        assert good.returncode == 0, good.stderr
        spectator.wait(lambda s: any(k == "match" and d["deductions"] for _, k, d in s.events), what="the deduction")
        docked = scores()[-1]
        assert docked["deductions"] == [DOCKED]
        assert docked["vp"] == [f"{float(Fraction(str(scale[0])) - 2):.2f}", f"{scale[1]:.2f}"]  # team 2 keeps its VPs
        assert len(scores()) == shown + 1  # one event for the one change

        # Forgotten: the scale's VPs again, on the stream, and on the page a new spectator reads.
        assert match("undeduct", ident.group(1)).returncode == 0
        spectator.wait(lambda s: [d for _, k, d in s.events if k == "match"][-1]["deductions"] == [],
                       what="the deduction forgotten")
        assert scores()[-1]["vp"] == [f"{scale[0]:.2f}", f"{scale[1]:.2f}"]
        late = Spectator(st.live_port).start()
        try:
            late.wait(lambda s: any(k == "snapshot" for _, k, _ in s.events), what="a new spectator's snapshot")
            (now,) = [d for _, k, d in late.events if k == "match"]
            assert now["deductions"] == [] and now["vp"] == [f"{scale[0]:.2f}", f"{scale[1]:.2f}"]
        finally:
            late.stop()
    finally:
        spectator.stop()
        for t in tablets:
            t.stop()
        st.stop()
