"""A team event with a bye and a walk-over, run as a club runs it: the scoring program's teams
movement over the Data Connector (the official client), real tablet controllers over HTTP, the
TD's `python -m station match` commands, and every place the station shows the standings: the
director page (in English and Swedish), the PBN header and the USEBIO file read back by
ImportUsebio's reader. The VPs are the WBF 2013 scale and the blitz margin written out in
team_play.py; the bye's and the walk-over's figures are FSB 96B's and FSB L109A's on that scale
(docs/laws/choices.md #43, #45). Bad input from the TD is refused and changes nothing."""
from __future__ import annotations

import functools
import re

import pytest
from bridgemate_dataconnector import DataConnectorClient

from .conftest import StationProcess
from .team_play import PIN, Room, Tablet, _wbf_table, teams_init, wbf_vp
from .test_team_matches import match_row, ok, play_rooms, station_match, team1_margins
from .usebio_readers import import_usebio

pytestmark = [pytest.mark.slow, pytest.mark.server]

SESSION = "7EA45E55000000000000000000000B07"
EVENT = "club-2026-11-23"


def blitz(boards: int) -> int:
    return next(m for m, vp in enumerate(_wbf_table(boards)) if vp >= 20)


def page(st: StationProcess, lang: str = "en") -> str:
    got = st.request("GET", f"/director?token={st.token}&lang={lang}")[1]
    assert isinstance(got, str), got
    return got


def cells(html: str, row_class: str) -> list[list[str]]:
    rows = re.findall(rf'<tr class="{row_class}"[^>]*>(.*?)</tr>', html, re.S)
    return [re.findall(r"<td[^>]*>(.*?)</td>", r, re.S) for r in rows]


def totals(html: str) -> dict[str, str]:
    return {c[1]: c[2] for c in cells(html, "total")}


def standing(html: str) -> tuple:
    """What the director page says of the team event: matches, byes, totals, problems."""
    problems = re.search(r'<ul id="match-problems">(.*?)</ul>', html, re.S)
    return cells(html, "match"), cells(html, "bye"), totals(html), problems.group(1) if problems else ""


def places(scores: dict[str, float]) -> dict[str, int]:
    """Standard competition ranking: one more than the teams with more VPs."""
    return {t: 1 + sum(1 for o in scores.values() if o > v) for t, v in scores.items()}


def play_match(tmp_path, st: StationProcess) -> tuple[list[Tablet], int]:
    """Tables 1 and 2 play boards 1-4 (team 1 NS at table 1); the match's margin for team 1."""
    return play_rooms(tmp_path, st), sum(team1_margins())


def test_FSB96B_dbf_2017_asks_for_the_bye_and_scores_it_once_the_td_gives_it(tmp_path):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, event=EVENT,
                        extra=["--profile", "dbf-2017", "--director-pin", PIN]).start()
    match = functools.partial(station_match, st)
    tablets: list[Tablet] = []
    try:
        client = DataConnectorClient("club-9", st.token, st.url)
        # Three teams: team 3 sits at table 3 without opponents (a sit-out round: no boards).
        init = teams_init(SESSION, [Room(1, 1, 2, 2), Room(2, 2, 1, 1), Room(3, 3, 0, 0)], (1, 4))
        sit_out = init.sessions[0].scoring_groups[0].sections[0].tables[2].rounds[0]
        sit_out.low_board_number = sit_out.high_board_number = 0
        ok(client.initialize(init))
        html = page(st)
        assert cells(html, "bye") == [["Lagmatch", "Team 3: bye", "round 1", "–", "–",
                                       "VPs not set: the TD gives them", "movement"]]
        assert "the bye of team 3 is not scored until the TD gives them (python -m station match byevp VP)" in html
        assert "frironden för lag 3 räknas inte förrän TL anger dem" in page(st, "sv")
        assert totals(html) == {}

        # Bad input: refused with the reason, nothing changed.
        for args, says in ((("byevp", "21"), "at most the WBF 2013 20-0 scale's top of 20"),
                           (("byevp", "-2"), "a number of VPs such as 14"),
                           (("bye", "1", "1"), "team 1 plays in round 1")):
            done = match(*args)
            assert done.returncode == 2 and says in done.stderr and "Nothing was changed" in done.stderr, done
        assert standing(page(st)) == standing(html)

        assert match("byevp", "12").returncode == 0
        tablets, margin = play_match(tmp_path, st)
        done = match("walkover", "A1-A2:1v2", "2")  # the match was played: no walk-over
        assert done.returncode == 2 and "has results from its tables" in done.stderr, done

        vp = wbf_vp(margin, 4)
        html = page(st)
        assert match_row(st)["vp"] == f"{vp[0]:.2f}–{vp[1]:.2f}"
        assert cells(html, "bye")[0][5] == "12.00"
        assert totals(html) == {"Team 1": f"{vp[0]:.2f}", "Team 2": f"{vp[1]:.2f}", "Team 3": "12.00"}
        sv = page(st, "sv")
        assert cells(sv, "bye")[0][1:3] == ["Lag 3: frirond", "rond 1"] and "Summa VP" in sv

        code, pbn = st.request("GET", f"/export/pbn?token={st.token}")
        assert code == 200 and "% Team 3 bye in round 1: 12 VP (FSB 96B)" in pbn.splitlines()

        code, xml = st.request("GET", f"/export/usebio?token={st.token}")
        event = import_usebio(xml.encode("utf-8"))["events"][0]
        want = {"1": vp[0], "2": vp[1], "3": 12.0}
        assert {p["number"]: p["score"] for p in event["participants"]} == want
        assert {p["number"]: p["place"] for p in event["participants"]} == places(want)
        bye = [m for m in event["matches"] if "opposing_number" not in m]
        assert [(m["round"], m["number"], m["vp"], m["boards"]) for m in bye] == [(1, "3", 12.0, [])]
    finally:
        for t in tablets:
            t.stop()
        st.stop()


def test_FSB_L109A_a_walkover_and_the_tds_bye_in_every_view(tmp_path):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, event=EVENT,
                        extra=["--profile", "fsb-2007", "--director-pin", PIN]).start()
    match = functools.partial(station_match, st)
    tablets: list[Tablet] = []
    try:
        client = DataConnectorClient("club-9", st.token, st.url)
        # Two matches; team 5 is not seated (the movement has no table for it).
        ok(client.initialize(teams_init(SESSION, [Room(1, 1, 2, 2), Room(2, 2, 1, 1), Room(3, 3, 4, 4),
                                                  Room(4, 4, 3, 3)], (1, 4))))
        html = page(st)
        assert cells(html, "bye") == [] and len(cells(html, "match")) == 2
        before = standing(page(st))
        for args, says in ((("walkover", "A3-A4:3v4", "4", "--vp", "20.5"), "scale's top of 20"),
                           (("walkover", "A3-A4:3v4", "5"), "team 5 does not play in match A3-A4:3v4"),
                           (("bye", "3", "1"), "team 3 plays in round 1")):
            done = match(*args)
            assert done.returncode == 2 and says in done.stderr and "Nothing was changed" in done.stderr, done
        assert standing(page(st)) == before

        done = match("walkover", "A3-A4:3v4", "4")
        assert done.returncode == 0, done
        assert "walk-over: Team 4 did not appear (FSB L109A); the other team 14 VP" in done.stdout
        assert match("bye", "5", "1").returncode == 0
        tablets, margin = play_match(tmp_path, st)

        vp = wbf_vp(margin, 4)
        html = page(st)
        first, second = cells(html, "match")
        assert first[5] == f"{vp[0]:.2f}–{vp[1]:.2f}"
        assert second[1] == "Team 3 v Team 4" and second[3] == "–" and second[4] == f"{blitz(4)}–0"
        assert second[5] == '14.00–0.00<br><span class="walkover">walk-over: Team 4 did not appear (FSB L109A)</span>'
        assert cells(html, "bye") == [["Lagmatch", "Team 5: bye", "round 1", "–", "–", "14.00", "TD"]]
        assert totals(html) == {"Team 1": f"{vp[0]:.2f}", "Team 2": f"{vp[1]:.2f}", "Team 3": "14.00",
                                "Team 4": "0.00", "Team 5": "14.00"}
        assert "walk-over: Lag 4 ställde inte upp (FSB L109A)" in page(st, "sv")

        code, pbn = st.request("GET", f"/export/pbn?token={st.token}")
        head = [x for x in pbn.splitlines() if x.startswith("% ")]
        assert "% Match A3-A4:3v4: walk-over: Team 4 did not appear (FSB L109A)" in head
        assert f"% Match Team 3 (home) v Team 4: 0 of 0 boards, IMPs {blitz(4)}-0, VP 14.00-0.00 (WBF 2013 20-0)" \
            in head
        assert "% Team 5 bye in round 1: 14 VP (FSB 96B)" in head

        code, xml = st.request("GET", f"/export/usebio?token={st.token}")
        event = import_usebio(xml.encode("utf-8"))["events"][0]
        want = {"1": vp[0], "2": vp[1], "3": 14.0, "4": 0.0, "5": 14.0}
        assert {p["number"]: p["score"] for p in event["participants"]} == want
        assert {p["number"]: p["place"] for p in event["participants"]} == places(want)
        walkover = next(m for m in event["matches"] if m.get("number") == "3")
        assert (walkover["score"], walkover["opposing_score"], walkover["vp"], walkover["opposing_vp"]) == \
            (float(blitz(4)), 0.0, 14.0, 0.0)
        assert walkover["boards"] == []

        assert match("unwalkover", "A3-A4:3v4").returncode == 0  # the TD withdraws it
        assert cells(page(st), "match")[1][5] == "when complete"
    finally:
        for t in tablets:
            t.stop()
        st.stop()


AVG_NOTE = "(Avg+ / Avg- on each board: 2007 L12C2, L86A; 2017 §12C2)"


def test_2007_L12C2_L86A_FSB_L109A_a_walkover_in_an_imps_only_event_in_every_view(tmp_path):
    """docs/laws/choices.md #46: the scoring program scores the event in IMPs only (method 40), so a
    walk-over has no VPs and no blitz margin: each board of the match not played is Avg+ (+3 IMPs)
    to the team that appeared and Avg- (-3) to the absent team, or the TD gives the margin
    (`--imps`). Shown on the director page (English and Swedish), in the PBN header and in the
    USEBIO file; a VP figure, a margin out of range or a walk-over on the match already played
    is refused and changes nothing."""
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, event=EVENT,
                        extra=["--profile", "fsb-2007", "--director-pin", PIN]).start()
    match = functools.partial(station_match, st)
    tablets: list[Tablet] = []
    try:
        client = DataConnectorClient("club-9", st.token, st.url)
        ok(client.initialize(teams_init(SESSION, [Room(1, 1, 2, 2), Room(2, 2, 1, 1), Room(3, 3, 4, 4),
                                                  Room(4, 4, 3, 3)], (1, 4), method=40)))
        tablets, margin = play_match(tmp_path, st)
        before = standing(page(st))
        for args, says in ((("walkover", "A3-A4:3v4", "4", "--vp", "14"), "scored in IMPs only: a walk-over there "
                                                                          "has no VPs; give the IMPs"),
                           (("walkover", "A3-A4:3v4", "4", "--imps", "97"), "at most 96 IMPs (24 a board"),
                           (("walkover", "A3-A4:3v4", "4", "--imps", "0"), "more than 0"),
                           (("walkover", "A3-A4:3v4", "4", "--imps", "twelve"), "a number of IMPs such as 12"),
                           (("walkover", "A1-A2:1v2", "2"), "has results from its tables")):
            done = match(*args)
            assert done.returncode == 2 and says in done.stderr and "Nothing was changed" in done.stderr, done
        assert standing(page(st)) == before

        done = match("walkover", "A3-A4:3v4", "4")
        assert done.returncode == 0, done
        said = f"walk-over: Team 4 did not appear (FSB L109A); the other team wins 12 IMPs, the absent team loses 12 " \
               f"{AVG_NOTE}"
        assert said in done.stdout, done.stdout
        html = page(st)
        first, second = cells(html, "match")
        assert first[5] == "IMPs only"
        assert second[1] == "Team 3 v Team 4" and second[3] == "–" and second[4] == "12–0", second
        assert second[5] == 'IMPs only<br><span class="walkover">walk-over: Team 4 did not appear (FSB L109A)</span>'
        assert "walk-over: Lag 4 ställde inte upp (FSB L109A)" in page(st, "sv")
        assert totals(html) == {}  # no VPs to add up

        code, pbn = st.request("GET", f"/export/pbn?token={st.token}")
        head = [x for x in pbn.splitlines() if x.startswith("% ")]
        assert f"% Match A3-A4:3v4: {said}" in head, head
        assert "% Match Team 3 (home) v Team 4: 0 of 0 boards, IMPs 12-0" in head, head

        code, xml = st.request("GET", f"/export/usebio?token={st.token}")
        event = import_usebio(xml.encode("utf-8"))["events"][0]
        assert event["match_scoring"] == "imps"
        walkover = next(m for m in event["matches"] if m.get("number") == "3")
        assert (walkover["score"], walkover["opposing_score"], walkover["boards"]) == (12.0, 0.0, [])
        assert "vp" not in walkover and "opposing_vp" not in walkover
        assert {p["number"]: p["score"] for p in event["participants"]} == \
            {"1": margin, "2": -margin, "3": 12, "4": -12}

        # the TD's own margin (the organiser's figure, FSB L109A "andra straffsatser") replaces it
        done = match("walkover", "A3-A4:3v4", "4", "--imps", "20")
        assert done.returncode == 0 and "wins 20 IMPs, the absent team loses 20 (the TD's figure)" in done.stdout
        assert cells(page(st), "match")[1][4] == "20–0"
        assert match("unwalkover", "A3-A4:3v4").returncode == 0  # the TD withdraws it
        assert cells(page(st), "match")[1][4] == "0–0" and cells(page(st), "match")[1][3] == "0/4"
    finally:
        for t in tablets:
            t.stop()
        st.stop()
