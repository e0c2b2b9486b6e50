"""A team match scored end to end with a VP deduction (FSB L109B: the TD docks a late team;
L109D: off that team alone): real tablet controllers over HTTP, the TD's `python -m station
match` commands, and every place the match score is read: the TD's list, the director page, the
spectators' stream, the PBN header and the USEBIO file read back by ImportUsebio's reader. The
VPs before the deduction are the WBF 2013 20-0 scale written out in team_play.py."""
from __future__ import annotations

import functools
import re
from fractions import Fraction

import pytest
from bridgemate_dataconnector import DataConnectorClient

from .conftest import StationProcess
from .live_play import Spectator, handrecords
from .team_play import PIN, Room, Tablet, imp, teams_init, wbf_vp
from .test_team_matches import CLOSED, OPEN, director_keys, match_row, ns_score, ok, station_match
from .usebio_readers import import_usebio

pytestmark = [pytest.mark.slow, pytest.mark.server]

SESSION = "7EA45E55000000000000000000000D03"
EVENT = "club-2026-11-23"


def refused_here(capsys, st: StationProcess, *args: str) -> str:
    """`station match ...` that must refuse (exit 2), run in this process: the same main() as the
    command, without a Python start for each bad input. What it said on stderr."""
    from station.match_cli import main

    code: int | str | None
    try:
        code = main(["--db", str(st.db), *args])
    except SystemExit as e:  # argparse's own refusals
        code = e.code
    err = capsys.readouterr().err
    assert code == 2, (code, err)
    return err


def test_FSB_L109D_a_late_team_docked_one_vp_in_every_view_of_the_match(tmp_path, capsys):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, event=EVENT,
                        extra=["--profile", "fsb-2007", "--director-pin", PIN, "--live",
                               "--live-tables", "A:1-2"]).start()
    tablets: list[Tablet] = []
    spectator = Spectator(st.live_port).start()

    match = functools.partial(station_match, st)  # the TD's `station match ...` command

    try:
        client = DataConnectorClient("club-9", st.token, st.url)
        ok(client.initialize(teams_init(SESSION, [Room(1, 1, 2, 2), Room(2, 2, 1, 1)], (1, 4), method=50)))
        ok(client.send_handrecords(SESSION, handrecords(SESSION, range(1, 5))))
        listed = match("list").stdout
        ident = re.search(r"^  (\S+): team 1 \(home\) v team 2", listed, re.M)
        assert ident, listed
        ident_text = ident.group(1)
        # Bad input: a clear sentence, and nothing kept.
        for args, says in ((("A7-A8:1v2", "2", "1"), "no match"), ((ident_text, "5", "1"), "does not play"),
                           ((ident_text, "2", "lots"), "number of VPs"), ((ident_text, "2", "-1"), "0 or more"),
                           ((ident_text, "2", "21"), "scale's top of 20")):
            err = refused_here(capsys, st, "deduct", *args, "--reason", "late", "--law", "FSB L109B")
            assert says in err and "Nothing was changed" in err, err
        assert "the reason and the Law" in refused_here(capsys, st, "deduct", ident_text, "2", "1")  # no reason, no Law
        assert "VP deduction" not in match("list").stdout
        # Team 2 arrived 3 minutes late: 1 VP (FSB L109B, "varje påbörjad 5-minutersperiod").
        good = match("deduct", ident_text, "2", "1", "--reason", "late 1-5 minutes", "--law", "FSB L109B")
        assert good.returncode == 0, good.stderr
        assert "VP deduction: Team 2 -1 VP (late 1-5 minutes; FSB L109B)" in good.stdout

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
        net = (scale[0], float(Fraction(str(scale[1])) - 1))  # team 1 keeps its VPs

        row = match_row(st)
        assert row["boards"] == "4/4" and row["vp"].startswith(f"{net[0]:.2f}–{net[1]:.2f}"), (row, scale)
        assert "Team 2 -1 VP (late 1-5 minutes; FSB L109B)" in row["vp"]

        spectator.wait(lambda s: any(k == "match" and d["scored"] == 4 for _, k, d in s.events), what="the match")
        last = [d for _, k, d in spectator.events if k == "match"][-1]
        assert last["vp"] == [f"{net[0]:.2f}", f"{net[1]:.2f}"]
        assert last["deductions"] == ["Team 2 -1 VP (late 1-5 minutes; FSB L109B)"]

        code, text = st.request("GET", f"/export/pbn?token={st.token}")
        head = [x for x in text.splitlines() if x.startswith("% Match ")]
        assert head[0].endswith(f"VP {net[0]:.2f}-{net[1]:.2f} (WBF 2013 20-0 less deductions)"), head
        assert f"% Match {ident_text}: VP deduction Team 2 -1 VP (late 1-5 minutes; FSB L109B)" in head

        code, xml = st.request("GET", f"/export/usebio?token={st.token}")
        event = import_usebio(xml.encode("utf-8"))["events"][0]
        (m,) = event["matches"]
        assert (m["vp"], m["opposing_vp"]) == net
        assert {p["number"]: p["score"] for p in event["participants"]} == {"1": net[0], "2": net[1]}
        assert "VPs less the deduction Team 2 -1 VP (late 1-5 minutes; FSB L109B)" in xml

        # Forgotten: the scale's VPs again.
        assert match("undeduct", ident_text).returncode == 0
        assert match_row(st)["vp"] == f"{scale[0]:.2f}–{scale[1]:.2f}"
    finally:
        spectator.stop()
        for t in tablets:
            t.stop()
        st.stop()
