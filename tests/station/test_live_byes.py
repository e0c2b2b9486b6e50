"""A team event's byes (FSB 96B) and walk-overs (FSB L109A) in the live feed: the scoring program's
teams movement over the Data Connector (the official client), the TD's `python -m station match`
commands (another process), real tablet controllers over HTTP, a spectator on the push stream and
the page in real Chromium. Neither a bye nor a walk-over is a secret: both show at once, with no
board; a played match's VPs still only once it is over; a walk-over at tables not shown never
appears; the TD's withdrawing either reaches the spectators too."""
from __future__ import annotations

import functools
import re

import pytest
from bridgemate_dataconnector import DataConnectorClient

from .conftest import StationProcess
from .live_play import Spectator, handrecords
from .team_play import PIN, Room, Tablet, teams_init, wbf_vp
from .test_team_matches import CLOSED, ok, play_rooms, station_match, team1_margins

pytestmark = [pytest.mark.slow, pytest.mark.server]

SESSION = "7EA45E55000000000000000000000B17"
EVENT = "club-2026-11-23"
WALKOVER = "walk-over: Team 4 did not appear (FSB L109A)"


def scores(spectator: Spectator, name: str) -> list[dict]:
    return [d for _, k, d in spectator.events if k == "match" and d["match"] == name]


def byes(spectator: Spectator) -> list[list[dict]]:
    return [d["byes"] for _, k, d in spectator.events if k == "byes"]


def shown_on_page(chromium, url: str) -> tuple[list[str], list[str]]:
    """The page's match lines and bye lines, as Chromium drew them."""
    dom = chromium.dump_dom(url)
    return (re.findall(r'<div class="match"[^>]*>([^<]*)</div>', dom),
            re.findall(r'<div class="bye"[^>]*>([^<]*)</div>', dom))


def test_FSB96B_L109A_byes_and_walkovers_show_at_once_a_played_match_once_over(tmp_path, chromium):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, event=EVENT,
                        extra=["--profile", "fsb-2007", "--director-pin", PIN, "--live",
                               "--live-tables", "A:1-4"]).start()
    match = functools.partial(station_match, st)  # the TD's `station match ...` command
    tablets: list[Tablet] = []
    spectator = Spectator(st.live_port).start().connected()
    try:
        client = DataConnectorClient("club-9", st.token, st.url)
        # Three matches, the third at tables 5-6 that the feed does not show; team 7 sits at table 7
        # without opponents (a sit-out: the movement's bye), team 8 is not seated (the TD's bye).
        init = teams_init(SESSION, [Room(1, 1, 2, 2), Room(2, 2, 1, 1), Room(3, 3, 4, 4), Room(4, 4, 3, 3),
                                    Room(5, 5, 6, 6), Room(6, 6, 5, 5), Room(7, 7, 0, 0)], (1, 4))
        sit_out = init.sessions[0].scoring_groups[0].sections[0].tables[6].rounds[0]
        sit_out.low_board_number = sit_out.high_board_number = 0
        ok(client.initialize(init))
        ok(client.send_handrecords(SESSION, handrecords(SESSION, range(1, 5))))
        for args in (("walkover", "A3-A4:3v4", "4"), ("walkover", "A5-A6:5v6", "6"), ("bye", "8", "1")):
            done = match(*args)
            assert done.returncode == 0, done

        # No board is played, yet both are on the stream: the walk-over as its match's VPs (14 on
        # the WBF 20-0 scale, fsb-2007: docs/laws/choices.md #45), the bye as the team's VPs.
        spectator.wait(lambda s: any(d["walkover"] for d in scores(s, "Team 3 v Team 4")), what="the walk-over")
        spectator.wait(lambda s: byes(s) and len(byes(s)[-1]) == 2, what="the byes")
        walkover = scores(spectator, "Team 3 v Team 4")[-1]
        assert walkover["walkover"] == {"absent": [4], "text": WALKOVER}
        assert walkover["vp"] == ["14.00", "0.00"] and walkover["scored"] == 0
        assert byes(spectator)[-1] == [{"team": t, "name": f"Team {t}", "round": 1, "vp": "14.00", "imps_only": False,
                                        "text": f"Team {t} bye in round 1: 14 VP (FSB 96B)"} for t in (7, 8)]
        assert spectator.boards() == []                             # no board was played
        assert scores(spectator, "Team 5 v Team 6") == []           # its tables are not shown
        lines, bye_lines = shown_on_page(chromium, f"{st.url}/live/")
        assert lines == [f"Team 3 v Team 4: {WALKOVER}, VP 14.00 - 0.00"], lines
        assert bye_lines == [f"Team {t}: bye in round 1, VP 14.00" for t in (7, 8)], bye_lines
        # In Swedish and Danish (the director page's words: "frirond", "oversidder")
        assert shown_on_page(chromium, f"{st.url}/live/?lang=sv") == (
            ["Lag 3 – Lag 4: walk-over: Lag 4 ställde inte upp (FSB L109A), VP 14.00 - 0.00"],
            ["Lag 7: frirond i rond 1, VP 14.00", "Lag 8: frirond i rond 1, VP 14.00"])
        assert shown_on_page(chromium, f"{st.url}/live/?lang=da") == (
            ["Hold 3 – Hold 4: walk-over: Hold 4 mødte ikke op (FSB L109A), VP 14.00 - 0.00"],
            ["Hold 7: oversidder i runde 1, VP 14.00", "Hold 8: oversidder i runde 1, VP 14.00"])

        # The played match: its VPs only once its last board is over in both rooms.
        tablets = play_rooms(tmp_path, st, closed_boards=3)
        spectator.wait(lambda s: any(d["scored"] == 3 for d in scores(s, "Team 1 v Team 2")), what="three boards")
        assert all(d["vp"] is None and d["walkover"] is None for d in scores(spectator, "Team 1 v Team 2"))
        tablets[1].play(*CLOSED[3])
        tablets[1].drain()
        spectator.wait(lambda s: any(d["scored"] == 4 for d in scores(s, "Team 1 v Team 2")), what="the match")
        vp = wbf_vp(sum(team1_margins()), 4)
        assert scores(spectator, "Team 1 v Team 2")[-1]["vp"] == [f"{vp[0]:.2f}", f"{vp[1]:.2f}"]

        # The TD withdraws both: the match has no score again, team 8 no bye (team 7's is the movement's).
        assert match("unwalkover", "A3-A4:3v4").returncode == 0
        assert match("unbye", "8", "1").returncode == 0
        spectator.wait(lambda s: scores(s, "Team 3 v Team 4")[-1]["walkover"] is None, what="the walk-over withdrawn")
        spectator.wait(lambda s: [b["team"] for b in byes(s)[-1]] == [7], what="the TD's bye withdrawn")
        assert scores(spectator, "Team 3 v Team 4")[-1]["vp"] is None
        lines, bye_lines = shown_on_page(chromium, f"{st.url}/live/")
        assert bye_lines == ["Team 7: bye in round 1, VP 14.00"], bye_lines
        assert "Team 3 v Team 4: 0 - 0 IMPs (0 of 4 boards)" in lines, lines
        played = scores(spectator, "Team 1 v Team 2")[-1]
        assert (f"Team 1 v Team 2: {played['home_won']} - {played['away_won']} IMPs (4 of 4 boards), "
                f"VP {vp[0]:.2f} - {vp[1]:.2f}") in lines, lines
        lines, _ = shown_on_page(chromium, f"{st.url}/live/?lang=sv")
        assert "Lag 3 – Lag 4: 0 - 0 IMP (0 av 4 brickor)" in lines, lines
        assert scores(spectator, "Team 5 v Team 6") == []
    finally:
        spectator.stop()
        for t in tablets:
            t.stop()
        st.stop()
