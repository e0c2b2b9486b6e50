"""A screen team match as a test: two matches of two rounds on four tables with screens, one under
fsb-2007 (screens turned on by the organiser, FSB L114) and one under wbf-screens-2017, played on
real tablet controllers set up from `python -m station --screens all --live` over HTTP, each with
four real firmware boxes (MicroPython) on the simulated serial link, keyed as players key them.
On the way:

- at A3 East's insufficient bid is corrected behind the screen before the tray passes (WBF screen
  regulations, 2017 L80B2(e)): South and West never see it, on their boxes, on the tablet (which
  shows only what all four may see), on the live feed's stream, LIN or page;
- an alert reaches only the alerter's screenmate: East's own alert of his 1C at A3 (WBF: both
  players alert) on North's box only; South's alert of his partner's 1C at A1 (FSB L115B) on West's
  box only; never on the tablet;
- the TD's artificial score at A4 (2017 L12C2);
- the station is killed (SIGKILL) and restarted while the tables play their last board;
- the TD docks team 2 one VP for lateness with `python -m station match deduct` (FSB L109B; off
  team 2 alone, FSB L109D).

At the end: the LIN of every table, read back by endplay's LIN parser, equals every auction as
it stands; the spectators' page in real Chromium never shows a call before the organiser's delay
has passed since it was keyed, and shows every call after it; each call is on the push stream
exactly once per change and no earlier than its delay; the scoring program has each result once;
the IMPs per match and the VPs equal a recomputation from the contracts and tricks written in
screen_plan.py, less the deduction, on the director page and the spectators' page. No speed is
asserted: every wait is a hang guard."""
from __future__ import annotations

import re
import subprocess
import sys
import time
from fractions import Fraction
from typing import Any

import pytest
from bridgemate_dataconnector import DataConnectorClient
from bridgemate_dataconnector.dto import DataConnectorResponseData
from endplay.parsers import lin as endplay_lin

from hardware.sim.boxes import Screen
from tests.e2e.harness import Rig
from tests.station.conftest import ROOT, Chromium, StationProcess
from tests.station.live_play import Spectator, handrecords
from tests.station.test_live_feed import endplay_call
from tests.station.test_team_matches import director_keys

from .screen_plan import (
    ALERTED,
    EVENT,
    MATCHES,
    PIN,
    PLAYS,
    SESSION,
    TABLES,
    board_imps,
    dealer,
    margin,
    next_seat,
    wbf_vp,
)
from .screen_tables import HANG_S, ScreenWatch, Table, ok, teams_init

pytestmark = [pytest.mark.slow, pytest.mark.server, pytest.mark.micropython, pytest.mark.link]

DELAY_S = 4.0  # the organiser's live delay (seconds: the station's test option)
MATCH_NAMES = {"A1-A2": "Team 1 v Team 2", "A3-A4": "Team 3 v Team 4"}  # as the station names them
LATE = "Team 2 -1 VP (late 1-5 minutes; FSB L109B)"  # the TD's deduction in match A1-A2
SUIT = {"\u2663": "C", "\u2666": "D", "\u2665": "H", "\u2660": "S"}


# -- the boards ---------------------------------------------------------------------------------------
def play_plain(t: Table, board: int) -> None:
    """The board's auction (the result is entered later, `Table.finish`)."""
    t.choose(board)
    seat = dealer(board)
    for call in PLAYS[(t.number, board)].calls:
        t.call(seat, call)
        seat = next_seat(seat)


def play_fsb_alert(t: Table) -> None:
    """A1 board 1 on the boxes: North 1C, East passes, the tray passes to South-West, South
    alerts his partner's 1C on his box (FSB L115B: the partner alerts, to his screenmate West,
    before West calls): West's box marks it, North's and East's never do, nor does the tablet."""
    t.choose(1)
    calls = PLAYS[(1, 1)].calls
    with ScreenWatch(t.boxes, "NE") as watch:
        t.call("N", calls[0])
        t.call("E", calls[1])
        t.boxes.wait_screen("S", lambda sc: sc.plain_calls == ["1C", "P"] and sc.status == "YOUR TURN")
        t.boxes.press("S", ["ALERT"])
        t.wait(lambda c: c.estate["calls"][0].get("alerted"), "the alert")
        t.boxes.wait_screen("W", lambda sc: sc.calls[:1] == ["1C*"])
        assert t.tablet_calls()[:1] == [("1C", False)]  # the tablet: the call, no alert
        seat = "S"
        for call in calls[2:-1]:
            t.call(seat, call)
            seat = next_seat(seat)
        for s in "NE":
            t.boxes.wait_screen(s, lambda sc: sc.plain_calls == list(calls[:-1]))
        assert t.tablet_calls()[:1] == [("1C", False)]
    t.call(seat, calls[-1])
    for s in "NE":
        assert watch.seen[s] and not any(Screen(text).calls[:1] == ["1C*"] for text in watch.seen[s]), watch.seen[s]
    with t.lock:
        assert t.ctl.estate["calls"][0]["alerted_to"] == ["W"]


def play_wbf_insufficient(t: Table) -> None:
    """A3 board 1 on the boxes: North 1NT, East keys 1S (insufficient); the TD corrects it to 2S
    behind the screen before the tray passes (WBF screen regulations: the other side is not told).
    South and West never see 1S, nor does the tablet."""
    t.choose(1)
    with ScreenWatch(t.boxes, "SW") as watch:
        t.call("N", "1NT")
        before = t.press("E", "1S")
        t.wait(lambda c: c.phase == "frozen", "the table waits for the TD")
        with t.lock:
            snap = t.ctl.snapshot()
            assert snap["state"]["pending"] == {"hidden": True}, snap["state"]["pending"]
            assert snap["director_state"]["pending"]["call"] == "1S"
        assert "1S" not in str(snap["state"])
        for s in "NE":  # North-East's side is told: the call stands on their side of the screen
            t.boxes.wait_screen(s, lambda sc: "1S" in sc.text)
        assert t.tablet_calls() == []  # nothing has passed the tray yet
        with t.lock:
            t.ctl.td_decide(PIN, "replace", call="2S")
        t.made[1].append((before, "E", "2S"))  # made (as corrected) no earlier than 1S was keyed
        seat = "S"
        for call in PLAYS[(3, 1)].calls[2:]:
            t.call(seat, call)
            if seat == "S":
                assert "1S" not in str(t.tablet_calls())
            seat = next_seat(seat)
        for s in "SW":
            t.boxes.wait_screen(s, lambda sc: sc.plain_calls == list(PLAYS[(3, 1)].calls))
    for s in "SW":
        assert watch.seen[s] and not any("1S" in text for text in watch.seen[s]), (s, watch.seen[s])


def play_wbf_own_alert(t: Table) -> None:
    """A3 board 2: East opens 1C and alerts it himself (WBF: both players alert, to their
    screenmate): North's box marks it, South's and West's never do, nor does the tablet."""
    t.choose(2)
    calls = PLAYS[(3, 2)].calls
    with ScreenWatch(t.boxes, "SW") as watch:
        t.call("E", calls[0])
        t.boxes.press("E", ["ALERT"])
        t.wait(lambda c: c.estate["calls"][0].get("alerted"), "the alert")
        t.boxes.wait_screen("N", lambda sc: sc.calls[:1] == ["1C*"])
        seat = "S"
        for call in calls[1:-1]:
            t.call(seat, call)
            seat = next_seat(seat)
        for s in "SW":
            t.boxes.wait_screen(s, lambda sc: sc.plain_calls[:1] == ["1C"])
        # during the auction (docs/tablet.md: once it is over the tablet shows every call as made)
        assert t.tablet_calls()[:1] == [("1C", False)]
    t.call(seat, calls[-1])
    for s in "SW":
        assert not any(Screen(text).calls[:1] == ["1C*"] for text in watch.seen[s]), watch.seen[s]
    with t.lock:
        assert t.ctl.estate["calls"][0]["alerted_to"] == ["N"]


# -- the live feed ------------------------------------------------------------------------------------
def page(browser: Chromium, url: str) -> tuple[float, float, dict[str, tuple[int, list[str]]], list[str]]:
    """The spectators' page in Chromium: (read started, read done, per table (board, calls shown),
    the match lines)."""
    start = time.time()
    dom = browser.dump_dom(f"{url}/live/")
    done = time.time()
    # no irregularity at any table: the one made (A3) was rectified behind the screen
    assert 'class="irregularity"' not in dom, dom
    tables = {}
    for m in re.finditer(r'<article class="table" id="table-(A\d)">(.*?)</article>', dom, re.S):
        board = int(re.search(r"board (\d+)</h2>", m.group(2)).group(1))  # type: ignore[union-attr]
        calls = re.findall(r'<td class="call[^"]*"[^>]*>([^<]*)</td>', m.group(2))
        tables[m.group(1)] = (board, ["".join(SUIT.get(ch, ch) for ch in c).replace("Pass", "P") for c in calls])
    return start, done, tables, re.findall(r'<div class="match"[^>]*>([^<]*)</div>', dom)


def check_page(read, tables: dict[int, Table], complete: int | None = None) -> None:
    """No call on the page before the delay has passed since it was keyed; with `complete`, every
    table shows that board's whole auction."""
    _, done, shown, _ = read
    for name, (board, calls) in shown.items():
        made = tables[int(name[1:])].made.get(board, [])
        plain = [c.rstrip("*") for c in calls]
        assert plain == [c for _, _, c in made][:len(plain)], (name, board, calls, made)
        due = sum(1 for before, _, _ in made if before + DELAY_S <= done)
        assert len(plain) <= due, (name, board, calls, f"only {due} calls were {DELAY_S} s old")
    if complete is not None:
        for n in tables:
            if PLAYS[(n, complete)].calls:
                assert shown[f"A{n}"][0] == complete, (n, shown)
                assert [c.rstrip("*") for c in shown[f"A{n}"][1]] == list(PLAYS[(n, complete)].calls), (n, shown)


def finish(tables: dict[int, Table], board: int) -> None:
    for t in tables.values():
        t.finish(board)


def board_views(spectator: Spectator, table: str, board: int) -> list[tuple[float, dict]]:
    return [(t, v) for t, v in spectator.boards() if v["table"] == table and v["board"] == board]


def wait_board_shown(spectator: Spectator, board: int) -> None:
    for n in (1, 2, 3, 4):
        want = list(PLAYS[(n, board)].calls)
        if want:
            spectator.wait(lambda s, n=n, want=want: any([c["call"] for c in v["calls"]] == want
                                                         for _, v in board_views(s, f"A{n}", board)),
                           timeout=DELAY_S + HANG_S, what=f"A{n} board {board}")


# -- the test ------------------------------------------------------------------------------------------
def test_a_screen_team_match_fsb_and_wbf_end_to_end(tmp_path, chromium, micropython_bin):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, event=EVENT,
                        extra=["--profile", "fsb-2007", "--director-pin", PIN, "--screens", "all", "--live",
                               "--live-delay-seconds", str(DELAY_S)]).start()
    rigs = {n: Rig(tmp_path / f"boxes-A{n}") for n in TABLES}  # four boxes on a simulated link each
    spectator = Spectator(st.live_port).start()
    tables: dict[int, Table] = {}
    reads: list[Any] = []
    try:
        client = DataConnectorClient("club-9", st.token, st.url)
        ok(client.initialize(teams_init()))
        ok(client.send_handrecords(SESSION, handrecords(SESSION, range(1, 5))))
        keys = director_keys(st)
        for n in TABLES:
            regulation = next(m[4] for m in MATCHES.values() if n in m[:2])
            args = (tmp_path, st.url, n, keys[f"A{n}"], regulation)
            tables[n] = Table(rigs[n], *args)

        # Round 1, board 1: the FSB partner's alert, the WBF correction behind the screen. The
        # page is read once the auctions are over, before the results are entered (the table
        # then shows its next board).
        play_fsb_alert(tables[1])
        reads.append(page(chromium, st.url))  # early: at most the calls already DELAY_S old
        play_plain(tables[2], 1)
        play_wbf_insufficient(tables[3])
        play_plain(tables[4], 1)
        wait_board_shown(spectator, 1)
        reads.append(page(chromium, st.url))
        check_page(reads[-1], tables, complete=1)
        finish(tables, 1)
        # Board 2: East's own alert at A3.
        for n in (1, 2, 4):
            play_plain(tables[n], 2)
        play_wbf_own_alert(tables[3])
        finish(tables, 2)

        # Round 2.
        for t in tables.values():
            t.next_round()
        for n in (1, 2, 3, 4):
            play_plain(tables[n], 3)
        finish(tables, 3)
        scorer = Scorer(client)
        scorer.poll()  # the scoring program takes what has arrived so far
        # The station is killed (SIGKILL) as the board-3 results go out and while the tables play
        # the last board, then restarted on its database.
        in_flight = sum(t.deliverer.pending() for t in tables.values())
        st.kill()
        for n in (1, 2, 3, 4):
            play_plain(tables[n], 4)
        st.start()
        docked = subprocess.run([sys.executable, "-m", "station", "match", "--db", str(st.db), "deduct",
                                 "A1-A2:1v2", "2", "1", "--reason", "late 1-5 minutes", "--law", "FSB L109B"],
                                cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert docked.returncode == 0 and LATE in docked.stdout, (docked.stdout, docked.stderr)
        wait_board_shown(spectator, 4)
        reads.append(page(chromium, st.url))
        check_page(reads[-1], tables, complete=4)
        finish(tables, 4)
        for t in tables.values():
            t.drain()
        spectator.wait(lambda s: all(any(d["match"] == name and d["scored"] == 4 for _, k, d in s.events if k == "match")
                                     for name in MATCH_NAMES.values()), timeout=DELAY_S + HANG_S, what="both matches over")
        reads.append(page(chromium, st.url))
        for r in reads:
            check_page(r, tables)
        scorer.poll()
        print(f"{in_flight} items not yet delivered when the station was killed")
        first = tables[1].made[1][0][0]
        print(f"early page read {reads[0][1] - first:.1f} s after A1's first call was keyed (delay {DELAY_S} s):"
              f" {reads[0][2].get('A1')}")

        check_stream(spectator, tables)
        check_lin(st, tables)
        check_scores(st, client, scorer, reads[-1])
    finally:
        spectator.stop()
        for t in tables.values():
            t.close()
        for t in tables.values():
            t.ctl.close()
        for rig in rigs.values():
            rig.close()
        st.stop()


def check_stream(spectator: Spectator, tables: dict[int, Table]) -> None:
    """Each call first arrived no earlier than the delay after it was keyed; A3's insufficient bid
    never appeared, nor an irregularity there (rectified before the tray passed)."""
    for n, t in tables.items():
        for board, made in t.made.items():
            views = board_views(spectator, f"A{n}", board)
            for i, (before, seat, call) in enumerate(made):
                first = min(at for at, v in views if len(v["calls"]) > i)
                assert first - before >= DELAY_S, (n, board, i, call, first - before)
                assert all(v["calls"][i]["call"] == call and v["calls"][i]["seat"] == seat
                           for _, v in views if len(v["calls"]) > i), (n, board, i)
    a3 = [v for _, v in spectator.boards() if v["table"] == "A3"]
    assert a3 and not any("1S" in [c["call"] for c in v["calls"]] for v in a3 if v["board"] == 1)
    assert not any(v["irregularities"] for v in a3), [v["irregularities"] for v in a3 if v["irregularities"]]


def text_of(st: StationProcess, path: str) -> str:
    code, text = st.request("GET", path)
    assert code == 200 and isinstance(text, str), (path, text)
    return text


def check_lin(st: StationProcess, tables: dict[int, Table]) -> None:
    """The LIN of every table and match, read back by endplay: every auction as it stands."""
    for n in tables:
        text = text_of(st, f"/live/A/{n}.lin")
        if n == 3:
            assert "mb|1S|" not in text  # the insufficient bid corrected behind the screen
        boards = {b.board_num: b for b in endplay_lin.loads(text)}
        for board in range(1, 5):
            want = list(PLAYS[(n, board)].calls)
            if not want:  # the artificial score: no auction
                assert board not in boards or list(boards[board].auction) == [], (n, board)
                continue
            assert [endplay_call(c) for c in boards[board].auction] == want, (n, board)
            alerted = [i for i, c in enumerate(boards[board].auction) if c.alertable]
            assert alerted == ([ALERTED[(n, board)]] if (n, board) in ALERTED else []), (n, board, alerted)
            dealt = boards[board].dealer
            assert dealt is not None and dealt.abbr == dealer(board)
    for name, match in MATCHES.items():
        open_, closed = match[0], match[1]
        text = text_of(st, f"/live/match/{name}.lin")
        assert text.startswith("vg|"), text
        got: list[tuple[int | None, list[str]]] = sorted(
            ((b.board_num, [endplay_call(c) for c in b.auction]) for b in endplay_lin.loads(text)),
            key=lambda x: (x[0] or 0, x[1]))
        # the board with the TD's artificial score has no auction (its line may be there, empty)
        rooms: list[tuple[int | None, list[str]]] = sorted(
            ((b, list(PLAYS[(t, b)].calls)) for t in (open_, closed) for b in range(1, 5)
             if PLAYS[(t, b)].calls or (b, []) in got), key=lambda x: (x[0] or 0, x[1]))
        assert all(b is not None for b, _ in got)
        assert got == rooms, (name, got)
        for b in range(1, 5):  # the room of each board: the open room's first
            if PLAYS[(closed, b)].calls:
                assert f"qx|o{b}|" in text and f"qx|c{b}|" in text, (name, b)


class Scorer:
    """The scoring program: polls the new results and accepts them."""

    def __init__(self, client: DataConnectorClient):
        self.client = client
        self.taken: list[tuple[int, int]] = []

    def poll(self) -> None:
        self.taken += [(r.table_number, r.board_number) for r in self.client.poll_for_results(SESSION)]
        ok(self.client.accept_queue_data(SESSION, DataConnectorResponseData.Results))


def net_vp(name: str) -> tuple[float, float]:
    """The match's VPs on the WBF scale, less team 2's 1 VP in A1-A2 (FSB L109D: team 1 keeps its)."""
    vp = wbf_vp(margin(name), 4)
    return (vp[0], float(Fraction(str(vp[1])) - 1)) if name == "A1-A2" else vp


def check_scores(st: StationProcess, client: DataConnectorClient, scorer: Scorer, last_read) -> None:
    """The scoring program has each result once, across the kill; the station's IMPs and VPs equal
    the recomputation; the spectators' page shows each match's IMPs. A match's score is the IMPs
    each team won (each board's IMPs to the team that gained them), as scorers show it."""
    every = [(n, b) for n in TABLES for b in range(1, 5)]
    assert sorted(scorer.taken) == every, scorer.taken  # polled new: nothing lost, nothing twice
    got = client.poll_for_results(SESSION, all=True)
    assert sorted((r.table_number, r.board_number) for r in got) == every
    want = {name: [0, 0] for name in MATCHES}
    for board in range(1, 5):
        for name, (h, a) in board_imps(board).items():
            want[name][0] += max(h, 0)
            want[name][1] += max(a, 0)
    page_html = text_of(st, f"/director?token={st.token}")  # the director page (HTML)
    rows = re.findall(r'<tr class="match"[^>]*>(.*?)</tr>', page_html, re.S)
    assert len(rows) == 2, rows
    for name, row in zip(MATCHES, rows, strict=True):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        home, away = want[name]
        vp = net_vp(name)
        assert cells[3] == "4/4" and cells[4] == f"{home}–{away}", (name, cells)
        shown = f"{vp[0]:.2f}–{vp[1]:.2f}" + (f'<br><span class="deduction">{LATE}</span>' if name == "A1-A2" else "")
        assert cells[5] == shown, (name, cells, vp)
    lines = last_read[3]
    for name, (home, away) in want.items():
        vp = net_vp(name)
        line = f"{MATCH_NAMES[name]}: {home} - {away} IMPs (4 of 4 boards), VP {vp[0]:.2f} - {vp[1]:.2f}"
        assert line + (f"; VP deduction {LATE}" if name == "A1-A2" else "") in lines, (name, lines)
