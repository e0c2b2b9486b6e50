"""The tables of test_screen_match: the scoring program's teams movement, each table's tablet
(controller, journal, outbox) set up from the station, its four firmware boxes on the simulated
link driven as players key them, and a watch on what some boxes draw."""
from __future__ import annotations

import threading
import time

from bridgemate_dataconnector.dto import (
    InitDTO,
    RoundDTO,
    ScoringGroupDTO,
    SectionDTO,
    SessionDTO,
    TableDTO,
)

from hardware.sim.table import tokens
from tablet_app.controller import Controller
from tablet_app.outbox import Deliverer
from tablet_app.runner import TableRunner
from tablet_app.station_client import next_round_from_station, setup_from_station
from tests.e2e.harness import Rig

from .screen_plan import BOARDS, EVENT, MATCHES, PIN, PLAYS, SESSION

HANG_S = 60.0  # every wait's limit: it only ends a hang


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


class Tablet:
    """One table's tablet: its controller (own journal), set up from the station with the
    regulation of its match and a tray delay of 0 (the TD's choice at setup), and its outbox's
    Deliverer. `lock` is held around every controller call (the runner turns in a thread).
    `made[board]`: (moment before the call was keyed, seat, call) of each call."""

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


class Table(Tablet):
    """The tablet and four real firmware boxes: the LinkMaster delivers what is keyed on them to
    the TableRunner, which turns in a thread (as on the tablet) and ticks the tray."""

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
