"""A screen team match as a test: two matches of two rounds on four tables with screens, one under
fsb-2007 (screens turned on by the organiser, FSB L114) and one under wbf-screens-2017, played on
real tablet controllers set up from `python -m station --screens all --live` over HTTP; table A3
on four real firmware boxes (MicroPython) on the simulated serial link, the others keyed on the
controller as the boxes' events. On the way:

- at A3 East's insufficient bid is corrected behind the screen before the tray passes (WBF screen
  regulations, 2017 L80B2(e)): South and West never see it, on their boxes, on the tablet (which
  shows only what all four may see), on the live feed's stream, LIN or page;
- an alert reaches only the alerter's screenmate: East's own alert of his 1C at A3 (WBF: both
  players alert) on North's box only; South's alert of his partner's 1C at A1 (FSB L115B) on West's
  box only; never on the tablet;
- the TD's artificial score at A4 (2017 L12C2);
- the station is killed (SIGKILL) and restarted while the tables play their last board.

At the end: the LIN of every table, read back by endplay's LIN parser, equals every auction as
it stands; the spectators' page in real Chromium never shows a call before the organiser's delay
has passed since it was keyed, and shows every call after it; each call is on the push stream
exactly once per change and no earlier than its delay; the scoring program has each result once;
the IMPs per match and the VPs equal a recomputation from the contracts and tricks written in
screen_plan.py. No speed is asserted: every wait is a hang guard."""
from __future__ import annotations

import re
import threading
import time
from typing import Any

import pytest
from bridgemate_dataconnector import DataConnectorClient
from bridgemate_dataconnector.dto import (
    InitDTO,
    RoundDTO,
    ScoringGroupDTO,
    SectionDTO,
    SessionDTO,
    TableDTO,
)
from endplay.parsers import lin as endplay_lin

from hardware.sim.boxes import Screen
from hardware.sim.table import tokens
from tablet_app.controller import Controller
from tablet_app.outbox import Deliverer
from tablet_app.runner import TableRunner
from tablet_app.station_client import next_round_from_station, setup_from_station
from tests.e2e.harness import Rig
from tests.station.conftest import Chromium, StationProcess
from tests.station.live_play import Spectator, handrecords
from tests.station.test_live_feed import endplay_call
from tests.station.test_team_matches import director_keys

from .screen_plan import (
    BOARDS,
    BOX_TABLE,
    EVENT,
    MATCHES,
    PIN,
    PLAYS,
    SESSION,
    board_imps,
    dealer,
    margin,
    next_seat,
    wbf_vp,
)

pytestmark = [pytest.mark.slow, pytest.mark.server, pytest.mark.micropython, pytest.mark.link]

DELAY_S = 4.0  # the organiser's live delay (seconds: the station's test option)
HANG_S = 60.0
MATCH_NAMES = {"A1-A2": "Team 1 v Team 2", "A3-A4": "Team 3 v Team 4"}  # as the station names them
SUIT = {"\u2663": "C", "\u2666": "D", "\u2665": "H", "\u2660": "S"}


def teams_init() -> InitDTO:
    """The scoring program's teams movement: section A, team 1 v 2 at tables 1-2 and 3 v 4 at
    tables 3-4, the home team NS at the odd table (the open room); two rounds (halves)."""
    tables = []
    for open_, closed, home, away, _ in MATCHES.values():
        for table, ns, ew, mate in ((open_, home, away, closed), (closed, away, home, open_)):
            rounds = [RoundDTO(session_guid=SESSION, section_letters="A", table_number=table, round_number=r,
                               low_board_number=lo, high_board_number=hi, pair_ns=ns, pair_ew=ew, team_ns=ns,
                               team_ew=ew, mates_table_section_letters="A", mates_table_table_number=mate,
                               mates_table_round_number=r) for r, (lo, hi) in BOARDS.items()]
            tables.append(TableDTO(session_guid=SESSION, section_letters="A", table_number=table, rounds=rounds))
    section = SectionDTO(session_guid=SESSION, scoring_group_number=1, letters="A", winners=1, game_type=30,
                         tables=sorted(tables, key=lambda t: t.table_number))
    session = SessionDTO(session_guid=SESSION, name="Skärmmatch", year=2026, month=11, day=26,
                         scoring_groups=[ScoringGroupDTO(session_guid=SESSION, scoring_group_number=1,
                                                         scoring_method=51, sections=[section])])
    return InitDTO(commands=InitDTO.Command_Reset | InitDTO.Command_StartReading, club_id="club-9",
                   sessions=[session])


def ok(reply) -> None:
    assert reply.error_type in (0, None) and reply.data_type != 4, reply


class Table:
    """One table's tablet: its controller (own journal), set up from the station with the
    regulation of its match and a tray delay of 0 (the TD's choice at setup), and its outbox's
    Deliverer. `lock` is held around every controller call (the box table's runner turns in a
    thread). `made[board]`: (moment before the call was keyed, seat, call) of each call."""

    def __init__(self, folder, url: str, number: int, key: str, regulation: str):
        self.number, self.url, self.key = number, url, key
        db = folder / f"A{number}.db"
        self.ctl = Controller(db)
        self.lock = threading.RLock()
        with self.lock:
            setup_from_station(self.ctl, url, f"{EVENT}/A/{number}", key, policy="record", profile=regulation,
                               tray_delay_s=0.0)
        assert self.ctl.screen is not None, "screens on: the organiser's --screens"
        self.deliverer = Deliverer(str(db), url, f"{EVENT}/A/{number}", key, timeout=5.0, min_backoff=0.05,
                                   max_backoff=0.4).start()
        self.ctl.listeners.append(self.deliverer.wake)
        self.made: dict[int, list[tuple[float, str, str]]] = {}

    def next_round(self) -> None:
        with self.lock:
            next_round_from_station(self.ctl, self.url, self.key)
            assert self.ctl.session is not None and self.ctl.session.tray_delay_s == 0.0

    def choose(self, board: int) -> None:
        with self.lock:
            self.ctl.choose_board(board)

    def call(self, seat: str, call: str) -> None:
        """The box's event, as the link delivers it; the tray passes when due (no delay)."""
        before = time.time()
        with self.lock:
            self.ctl.tick()
            r = self.ctl.box_event(seat, "call", call=call)
            assert r["ok"], (self.number, seat, call, r)
            self.ctl.tick()
        self.made.setdefault(int(self.ctl.board or 0), []).append((before, seat, call))

    def finish(self, board: int) -> None:
        play = PLAYS[(self.number, board)]
        with self.lock:
            if play.artificial:
                self.ctl.td_artificial_score(PIN, *play.artificial, "2017 L12C2")
                return
            self.ctl.enter_result(play.tricks, "SA" if play.tricks is not None else None)
            assert self.ctl.ew_confirm(True) is not None

    def tablet_calls(self) -> list[tuple[str, bool]]:
        """What the tablet's own screen shows of the auction (docs/tablet.md "Where the tablet stands")."""
        with self.lock:
            return [(c["call"], bool(c.get("alerted"))) for c in self.ctl.snapshot()["state"].get("calls", [])]

    def drain(self) -> None:
        assert self.deliverer.drain(HANG_S), (self.number, self.deliverer.last_error)
        assert self.ctl.outbox.items("rejected") == []

    def close(self) -> None:
        self.deliverer.stop()


class BoxTable(Table):
    """A table on four real firmware boxes: the LinkMaster delivers what is keyed on them to the
    TableRunner, which turns in a thread (as on the tablet) and ticks the tray."""

    def __init__(self, rig: Rig, *args):
        super().__init__(*args)
        self.boxes = rig.boxes
        self.runner = TableRunner(self.ctl, link=rig.master)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while not self._stop.is_set():
            with self.lock:
                self.runner.step(0)
            time.sleep(0.005)

    def ncalls(self) -> int:
        with self.lock:
            return len(self.ctl.estate.get("calls", []))

    def wait(self, pred, what: str) -> None:
        deadline = time.monotonic() + HANG_S
        while True:
            with self.lock:
                if pred(self.ctl):
                    return
            assert time.monotonic() < deadline, f"A{self.number}: {what}"
            time.sleep(0.01)

    def choose(self, board: int) -> None:
        super().choose(board)
        for s in "NESW":
            self.boxes.wait_screen(s, lambda sc: f"Bd{board} " in sc.text)

    def press(self, seat: str, call: str) -> float:
        """Key the call on the seat's box once it shows its turn with the auction up to date."""
        n = self.ncalls()
        self.boxes.wait_screen(seat, lambda sc: sc.status == "YOUR TURN" and len(sc.calls) == n)
        before = time.time()
        self.boxes.press(seat, tokens(call))
        return before

    def call(self, seat: str, call: str) -> None:
        n = self.ncalls()
        before = self.press(seat, call)
        self.wait(lambda c: len(c.estate.get("calls", [])) > n, f"{seat} {call} in the auction")
        self.made.setdefault(int(self.ctl.board or 0), []).append((before, seat, call))

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        super().close()


class ScreenWatch:
    """Every distinct screen some boxes draw while it runs (a thread reading their screen files)."""

    def __init__(self, boxes, seats: str):
        self.boxes, self.seats = boxes, seats
        self.seen: dict[str, list[str]] = {s: [] for s in seats}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> ScreenWatch:
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.is_set():
            for s in self.seats:
                text = self.boxes.boxes[s].screen_text()
                if text and (not self.seen[s] or self.seen[s][-1] != text):
                    self.seen[s].append(text)
            time.sleep(0.003)

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(5)


# -- the boards ---------------------------------------------------------------------------------------
def play_plain(t: Table, board: int) -> None:
    """The board's auction (the result is entered later, `Table.finish`)."""
    t.choose(board)
    seat = dealer(board)
    for call in PLAYS[(t.number, board)].calls:
        t.call(seat, call)
        seat = next_seat(seat)


def play_fsb_alert(t: Table) -> None:
    """A1 board 1: North 1C, East passes, the tray passes to South-West, South alerts his
    partner's 1C (FSB L115B: the partner alerts, to his screenmate West, before West calls)."""
    t.choose(1)
    calls = PLAYS[(1, 1)].calls
    t.call("N", calls[0])
    t.call("E", calls[1])
    with t.lock:
        assert t.ctl.box_event("S", "alert")["ok"]
        views = t.ctl.views()
        marks = {s: views[s]["auction"][0]["alert"] for s in "NESW"}
    assert marks["W"] and not marks["N"] and not marks["E"], marks
    assert t.tablet_calls()[:1] == [("1C", False)]  # the tablet: the call, no alert
    seat = "S"
    for call in calls[2:]:
        t.call(seat, call)
        seat = next_seat(seat)
    with t.lock:
        assert t.ctl.estate["calls"][0]["alerted_to"] == ["W"]


def play_wbf_insufficient(t: BoxTable) -> None:
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


def play_wbf_own_alert(t: BoxTable) -> None:
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
    rig = Rig(tmp_path / "boxes")
    spectator = Spectator(st.port).start()
    tables: dict[int, Table] = {}
    reads: list[Any] = []
    try:
        client = DataConnectorClient("club-9", st.token, st.url)
        ok(client.initialize(teams_init()))
        ok(client.send_handrecords(SESSION, handrecords(SESSION, range(1, 5))))
        keys = director_keys(st)
        for n in (1, 2, 3, 4):
            regulation = next(m[4] for m in MATCHES.values() if n in m[:2])
            args = (tmp_path, st.url, n, keys[f"A{n}"], regulation)
            tables[n] = BoxTable(rig, *args) if n == BOX_TABLE else Table(*args)

        # Round 1, board 1: the FSB partner's alert, the WBF correction behind the screen. The
        # page is read once the auctions are over, before the results are entered (the table
        # then shows its next board).
        play_fsb_alert(tables[1])
        reads.append(page(chromium, st.url))  # early: at most the calls already DELAY_S old
        play_plain(tables[2], 1)
        play_wbf_insufficient(tables[3])  # type: ignore[arg-type]
        play_plain(tables[4], 1)
        wait_board_shown(spectator, 1)
        reads.append(page(chromium, st.url))
        check_page(reads[-1], tables, complete=1)
        finish(tables, 1)
        # Board 2: East's own alert at A3.
        for n in (1, 2, 4):
            play_plain(tables[n], 2)
        play_wbf_own_alert(tables[3])  # type: ignore[arg-type]
        finish(tables, 2)

        # Round 2.
        for t in tables.values():
            t.next_round()
        for n in (1, 2, 3, 4):
            play_plain(tables[n], 3)
        finish(tables, 3)
        # The station is killed while the tables play the last board, and restarted.
        st.kill()
        for n in (1, 2, 3, 4):
            play_plain(tables[n], 4)
        st.start()
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
        first = tables[1].made[1][0][0]
        print(f"early page read {reads[0][1] - first:.1f} s after A1's first call was keyed (delay {DELAY_S} s):"
              f" {reads[0][2].get('A1')}")

        check_stream(spectator, tables)
        check_lin(st, tables)
        check_scores(st, client, reads[-1])
    finally:
        spectator.stop()
        for t in tables.values():
            t.close()
        for t in tables.values():
            t.ctl.close()
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


def check_lin(st: StationProcess, tables: dict[int, Table]) -> None:
    """The LIN of every table and match, read back by endplay: every auction as it stands."""
    for n in tables:
        code, text = st.request("GET", f"/live/A/{n}.lin")
        assert code == 200, text
        if n == BOX_TABLE:
            assert "mb|1S|" not in text  # the insufficient bid corrected behind the screen
        boards = {b.board_num: b for b in endplay_lin.loads(text)}
        for board in range(1, 5):
            want = list(PLAYS[(n, board)].calls)
            if not want:  # the artificial score: no auction
                assert board not in boards or list(boards[board].auction) == [], (n, board)
                continue
            assert [endplay_call(c) for c in boards[board].auction] == want, (n, board)
            assert boards[board].dealer.abbr == dealer(board)
    for name in MATCHES:
        code, text = st.request("GET", f"/live/match/{name}.lin")
        assert code == 200 and text.startswith("vg|"), text
        assert len(endplay_lin.loads(text)) >= 7


def check_scores(st: StationProcess, client: DataConnectorClient, last_read) -> None:
    """The scoring program has each result once; the station's IMPs and VPs equal the
    recomputation; the spectators' page shows each match's IMPs."""
    got = client.poll_for_results(SESSION, all=True)
    assert sorted((r.table_number, r.board_number) for r in got) == [(n, b) for n in (1, 2, 3, 4) for b in range(1, 5)]
    want = {name: [0, 0] for name in MATCHES}
    for board in range(1, 5):
        for name, (h, a) in board_imps(board).items():
            want[name][0] += h
            want[name][1] += a
    page_html = st.request("GET", f"/director?token={st.token}")[1]
    rows = re.findall(r'<tr class="match"[^>]*>(.*?)</tr>', page_html, re.S)
    assert len(rows) == 2, rows
    for name, row in zip(MATCHES, rows, strict=True):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        home, away = want[name]
        vp = wbf_vp(margin(name), 4)
        assert cells[3] == "4/4" and cells[4] == f"{home}–{away}", (name, cells)
        assert cells[5] == f"{vp[0]:.2f}–{vp[1]:.2f}", (name, cells, vp)
    lines = last_read[3]
    for name, (home, away) in want.items():
        assert f"{MATCH_NAMES[name]}: {home} - {away} IMPs (4 of 4 boards)" in lines, (name, lines)
