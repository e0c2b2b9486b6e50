"""A whole simulated table: the simulated link (hardware/sim/link.py), four real firmware boxes
on MicroPython (boxes.py), the tablet's LinkMaster over pyserial, and the real tablet: its
controller with the laws engine and journal and its TableRunner, turning in a thread as the demo
runs it (tests/box_e2e, the soak, the latency bench, `python -m hardware.sim.table`).

    with RealTable(tmpdir) as t:
        t.call("N", "1NT")            # keyed on N's box as a player does, journalled by the tablet
        t.tablet.wait_calls(1)
"""
from __future__ import annotations

import pathlib
import time

from hardware.sim.boxes import HANG_S, Boxes
from hardware.sim.link import SimLink
from shared_rules.types import SEATS
from tablet_app.link import LinkMaster


def tokens(call: str) -> list[str]:
    """Key presses that make `call` on a box: level, denomination, OK."""
    c = call.upper()
    if c in ("P", "PASS", "X", "XX"):
        return ["P" if c == "PASS" else c, "OK"]
    return [c[0], c[1:], "OK"]


class Tablet:
    """The real tablet for a simulated table: Controller (laws engine, journal), TableRunner over
    the LinkMaster (acks only what the journal holds), its loop in a thread (tablet_app.runner.RunnerThread).
    Seen through what the tests, the soak and the bench ask: whose turn, the calls, the legal
    calls, what the boxes sent, the next board, the boards done, what the tablet refused.

    `profile` and `policy` are the session's (the regulations, `prevent` or `record`); the round
    plays the club set of 32 boards from `board` on; `session` adds the club's other settings
    (e.g. `screens`, `tray_delay_s`). The controller's clock can be moved on (`advance`): a test
    need not sit through a wait the regulations prescribe."""

    def __init__(self, master: LinkMaster, workdir: pathlib.Path, profile: str = "dbf-2017",
                 policy: str = "prevent", board: int = 1, session: dict | None = None):
        from tablet_app.controller import Controller
        from tablet_app.runner import RunnerThread, TableRunner

        class Runner(TableRunner):
            def handle(inner, events: list) -> int:  # noqa: N805 - the runner's self
                self.delivered_at.extend(e.t for e in events if e.kind == "call")
                return super().handle(events)

        self.delivered_at: list[float] = []  # monotonic time the LinkMaster delivered each call
        self.history: list[tuple[int, list[str]]] = []  # finished boards: (board, calls)
        self.round = 1
        self.profile = profile
        self.policy = policy
        self.settings = dict(session or {})
        # a club set; the next round starts again after the 32 boards
        self.boards = [(board - 1 + i) % 32 + 1 for i in range(32)]
        self.skew = 0.0
        self.ctl = Controller(workdir / "tablet.db", clock=lambda: time.time() + self.skew)
        self.ctl.setup(self._session())
        self.runner = Runner(self.ctl, link=master)
        self._loop = RunnerThread(self.runner)
        self.lock = self._loop.lock

    def _session(self) -> dict:
        return {"event": "sim", "section": "A", "table": 1, "round": self.round,
                "boards": self.boards, "ns_pair": 1, "ew_pair": 2, "profile": self.profile,
                "policy": self.policy, "td_pin": self.PIN, "tables": 16, **self.settings}

    PIN = "2468"

    def advance(self, seconds: float) -> None:
        """Move the table's clock on (the engine's event times, the stop wait the boxes get)."""
        with self.lock:
            self.skew += seconds

    @property
    def board(self) -> int:
        with self.lock:
            return int(self.ctl.board or 0)

    def view(self, seat: int) -> dict:
        from tablet_app import views

        with self.lock:
            return views.box_view(self.ctl, SEATS[seat])

    def turn(self) -> int | None:
        v = self.view(0)
        return None if v["over"] or v["turn"] is None else SEATS.index(v["turn"])

    def over(self) -> bool:
        return bool(self.view(0)["over"])

    def allowed(self, seat: int) -> list[str]:
        return list(self.view(seat)["allowed"])

    def calls(self) -> list[str]:
        with self.lock:
            return [c["call"] for c in self.ctl.estate.get("calls", [])]

    def wait_calls(self, n: int, timeout: float = HANG_S) -> list[str]:
        deadline = time.monotonic() + timeout
        while len(got := self.calls()) < n:
            if time.monotonic() > deadline:
                raise TimeoutError(f"tablet has {len(got)} calls, wanted {n}: {got}")
            time.sleep(0.002)
        return got

    def new_board(self) -> int:
        """The auction is over: a result is entered and East-West confirm it (passed out, or the
        contract made exactly); the controller moves to the next board of the round, or a new
        round starts. Returns the board now on the table."""
        with self.lock:
            c = self.ctl
            self.history.append((int(c.board or 0), self.calls()))
            passed = c.estate.get("status") == "passed_out"
            level = 0 if passed else int(str(c.estate["contract"])[0])
            c.enter_result(None if passed else 6 + level, None if passed else "SA")
            c.ew_confirm(True)
            if c.phase == "round_end":
                self.round += 1
                c.setup(self._session())
            return int(c.board or 0)

    @property
    def events(self) -> list[tuple[str, str, str | None]]:
        """Every box event the link delivered to the controller, in order: (seat, kind, call);
        calls, alerts, stops, undo, review, TD, hello, whatever the controller made of them."""
        with self.lock:
            return [(e["seat"], e["kind"], e["call"]) for e in self.runner.events]

    def wait_events(self, pred, timeout: float = HANG_S) -> list[tuple[str, str, str | None]]:
        """Wait until `pred(events)` holds; returns the events."""
        deadline = time.monotonic() + timeout
        while not pred(got := self.events):
            if time.monotonic() > deadline:
                raise TimeoutError(f"the tablet's box events: {got}")
            time.sleep(0.005)
        return got

    def rejected(self) -> list[tuple[str, str | None]]:
        """What the tablet refused from a box (with `prevent`, a box sends only legal calls in
        turn: anything here is a call that came twice or out of order)."""
        with self.lock:
            return [(str(b.get("seat")), b.get("call")) for _, k, b in self.ctl.journal.records()
                    if k == "refused"]

    def close(self) -> None:
        self._loop.stop()
        self.ctl.close()


class RealTable:
    """Link + four firmware boxes + LinkMaster (acks once journalled) + the real tablet (Tablet),
    started together."""

    def __init__(self, workdir, baud: int = 115200, seed: int | None = None,
                 main: pathlib.Path | None = None, profile: str = "dbf-2017",
                 policy: str = "prevent", board: int = 1, session: dict | None = None):
        self.link = SimLink(baud=baud, seed=seed)
        self.main = main  # the boxes' main.py (hardware.sim.boxes.Boxes)
        self.workdir = pathlib.Path(workdir)
        self.profile = profile
        self.policy = policy
        self.board = board
        self.session = session  # the club's other settings (Tablet)
        # the parts, once started (__enter__); close() stops those that were
        self.master: LinkMaster
        self.boxes: Boxes
        self.tablet: Tablet

    def __enter__(self) -> RealTable:
        self.link.start()
        try:
            self.boxes = Boxes(self.link.box_ports, self.workdir, link=self.link, main=self.main)
            self.boxes.start()
            self.master = LinkMaster(self.link.tablet_ports, ack_on_commit=True)
            self.workdir.mkdir(parents=True, exist_ok=True)
            self.tablet = Tablet(self.master, self.workdir, self.profile, self.policy, self.board, self.session)
            # every box has its session and the first state; behind screens a box on the side
            # without the tray shows no turn, only the board
            screens = bool((self.session or {}).get("screens"))
            board = f"Bd{self.board} "
            for seat in SEATS:
                self.boxes.wait_screen(seat, lambda sc: sc.status.endswith(("to call", "YOUR TURN"))
                                       or (screens and board in sc.text))
        except BaseException:
            self.close()
            raise
        return self

    def call(self, seat: str, call: str, timeout: float = HANG_S) -> None:
        """Wait until `seat`'s box says it is its turn (auction up to date, no stop wait), key
        the call, wait until the tablet has it."""
        n = len(self.tablet.calls())
        self.boxes.wait_screen(seat, lambda sc: sc.status == "YOUR TURN" and len(sc.calls) == n,
                               timeout)
        self.boxes.press(seat, tokens(call))
        self.tablet.wait_calls(n + 1, timeout)

    def wait_all_show(self, n: int, timeout: float = HANG_S) -> None:
        """Every box shows an auction of n calls (and the tablet's calls)."""
        want = self.tablet.calls()
        for s in SEATS:
            self.boxes.wait_screen(s, lambda sc: sc.plain_calls == want and len(want) == n, timeout)

    def close(self) -> None:
        if hasattr(self, "tablet"):
            self.tablet.close()
        if hasattr(self, "master"):
            self.master.close()
        if hasattr(self, "boxes"):
            self.boxes.stop()
        self.link.close()

    def __exit__(self, *exc: object) -> None:
        self.close()


def main(argv: list[str] | None = None) -> int:
    """`python -m hardware.sim.table`: a table for people. The link, the tablet's LinkMaster and
    the real tablet (controller, laws engine, journal) run here; each box runs in its own terminal
    (printed commands), or all four in one tmux window with --tmux. The boxes refuse irregular
    calls (the `prevent` policy); a box's TD or UNDO key holds the auction until Enter is pressed
    here (the director has seen to it). When an auction ends the contract is entered as made
    exactly (or the board as passed out), East-West confirm, and three seconds later the next
    board starts. Ctrl-C ends it."""
    import argparse
    import select
    import shlex
    import shutil
    import subprocess
    import sys
    import tempfile

    from hardware.sim.boxes import ROOT, micropython_path
    from shared_rules import profiles

    ap = argparse.ArgumentParser(prog="python -m hardware.sim.table", description=main.__doc__)
    ap.add_argument("--board", type=int, default=1, choices=range(1, 33), metavar="1-32",
                    help="the first board (default 1)")
    ap.add_argument("--profile", default="fsb-2007", choices=profiles.names(),
                    help="the regulations (default fsb-2007: alerts FSB L115, stop FSB L116)")
    ap.add_argument("--journal", type=pathlib.Path, default=None,
                    help="a directory for the tablet's journal (default: a temporary one)")
    ap.add_argument("--tmux", action="store_true", help="start the four boxes in a tmux window")
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="sim-table-") as tmp, SimLink() as link:
        work = a.journal or pathlib.Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        if (work / "tablet.db").exists():
            ap.error(f"{work / 'tablet.db'} exists: give an empty directory")
        lm = LinkMaster(link.tablet_ports, ack_on_commit=True)
        tab = Tablet(lm, work, a.profile, "prevent", a.board)
        cmds = {s: [micropython_path(), str(ROOT / "firmware/main.py"), "--seat", s, "--port",
                    link.box_ports[s]] for s in SEATS}
        if a.tmux and shutil.which("tmux"):
            session = "boxes"
            subprocess.run(["tmux", "new-session", "-d", "-s", session, shlex.join(cmds["N"])], check=True)
            for s in "ESW":
                subprocess.run(["tmux", "split-window", "-t", session, shlex.join(cmds[s])], check=True)
            subprocess.run(["tmux", "select-layout", "-t", session, "tiled"], check=True)
            print(f"boxes in tmux session '{session}': tmux attach -t {session}")
        else:
            print("run each box in its own terminal:")
            for s in SEATS:
                print("  " + shlex.join(cmds[s]))
        print(f"regulations {a.profile}; the journal: {work / 'tablet.db'}")
        print("keys: 1-7 level, c d h s n denomination, p x r, Enter = OK, Backspace = clear, "
              "! stop, a alert, u undo, v review, t TD. Ctrl-C here ends the table.", flush=True)
        try:
            last = None
            keys = [sys.stdin]
            while True:
                if select.select(keys, [], [], 0.5)[0]:
                    if not sys.stdin.readline():
                        keys = []  # stdin closed: nobody here to press Enter
                        continue
                    with tab.lock:
                        if tab.ctl.td_attended(Tablet.PIN):
                            print("the director has seen to it: the auction goes on", flush=True)
                with tab.lock:
                    st = tab.ctl.estate or {}
                    now = (tab.board, tuple(tab.calls()), tab.ctl.held(), st.get("contract"))
                    over = tab.over()
                if now != last:
                    contract = f" ({now[3] or 'passed out'})" if over else ""
                    held = " - waits for the director (Enter here when he has seen to it)" if now[2] else ""
                    print(f"board {now[0]}: {' '.join(now[1]) or '-'}{contract}{held}", flush=True)
                    last = now
                if over:
                    time.sleep(3)
                    tab.new_board()
        except KeyboardInterrupt:
            pass
        finally:
            tab.close()
            lm.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
