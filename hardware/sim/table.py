"""A whole simulated table: the simulated link (hardware/sim/link.py), four real firmware boxes
on MicroPython (boxes.py), the tablet's LinkMaster over pyserial, and a tablet.

`RealTable` (the soak, the latency bench): the real tablet, its controller with the laws engine
and journal and its TableRunner, turning in a thread as the demo runs it.

    with RealTable(tmpdir) as t:
        t.boxes.press("N", "1 NT OK")
        t.tablet.wait_calls(1)

`SimTable` (tests/box_e2e's auction tests, `python -m hardware.sim.table`): a small scripted
"tablet" loop that accepts calls in turn and pushes the state back to every box. The scripted
tablet is not the laws engine (shared_rules is): it knows only rotation, sufficiency,
double/redouble and the end of the auction.
"""
from __future__ import annotations

import pathlib
import threading
import time
from typing import Any

from hardware.sim.boxes import Boxes
from hardware.sim.link import SimLink
from protocol import calls as C
from shared_rules import boards
from tablet_app.link import LinkMaster

SEATS = "NESW"


def tokens(call: str) -> list[str]:
    """Key presses that make `call` on a box: level, denomination, OK."""
    c = call.upper()
    if c in ("P", "PASS", "X", "XX"):
        return ["P" if c == "PASS" else c, "OK"]
    return [c[0], c[1:], "OK"]


def partner(s: int) -> int:
    return (s + 2) % 4


class ScriptedTablet:
    """Accepts the call of the seat in turn (any sufficient bid, pass, a double of an opponent's
    bid, a redouble of an opponent's double), keeps stop and alert marks, and sends each seat
    its view after every change. Everything received is logged in `events` (seat, kind, call).
    """

    def __init__(self, master: LinkMaster, board: int = 1, prevent: bool = True,
                 stop_wait_ms: int = 10000):
        self.lm = master
        self.prevent = prevent
        self.stop_wait_ms = stop_wait_ms
        self.lock = threading.Condition()
        self.events: list[tuple[str, str, str | None]] = []
        self.rejected: list[tuple[str, str | None]] = []
        self.history: list[tuple[int, list[str]]] = []  # finished boards: (board, calls)
        self.delivered_at: list[float] = []  # monotonic time of each accepted call
        self.hellos = 0
        self._stop = threading.Event()
        self.new_board(board, push=False)
        self.push_all()
        self._thread = threading.Thread(target=self._run, name="scripted-tablet", daemon=True)
        self._thread.start()

    # --- the auction --------------------------------------------------------------------------
    def new_board(self, board: int, push: bool = True) -> None:
        with self.lock:
            if getattr(self, "auction", None):
                self.history.append((self.board, [c for c, _, _ in self.auction]))
            self.board = board
            self.dealer = SEATS.index(boards.dealer(board))
            self.vul = boards.vulnerability(board)
            self.auction: list[tuple[str, bool, bool]] = []  # (call, alerted, stopped)
            self.alert_seen: list[set[int]] = []               # seats that may see the alert
            self.stop_pending = [False] * 4
            self.stop_until = 0.0
        if push:
            self.push_all()

    def turn(self) -> int | None:
        if self.over():
            return None
        return (self.dealer + len(self.auction)) % 4

    def over(self) -> bool:
        a = [c for c, _, _ in self.auction]
        if len(a) >= 4 and all(c == "P" for c in a[:4]) and len(a) == 4:
            return True
        return len(a) >= 4 and a[-3:] == ["P", "P", "P"] and any(c != "P" for c in a)

    def lowest(self) -> str | None:
        bids = [C.code(c) for c, _, _ in self.auction if C.code(c) >= 3]
        if not bids:
            return "1C"
        return C.NAMES[max(bids) + 1] if max(bids) < 37 else None

    def allowed(self, seat: int) -> list[str]:
        if self.turn() != seat:
            return []
        out = ["P"]
        last = None
        for i in range(len(self.auction) - 1, -1, -1):
            if self.auction[i][0] != "P":
                last = (i, self.auction[i][0])
                break
        if last is not None:
            by = (self.dealer + last[0]) % 4
            opp = by % 2 != seat % 2
            if opp and C.code(last[1]) >= 3:
                out.append("X")
            if opp and last[1] == "X":
                out.append("XX")
        low = self.lowest()
        if low is not None:
            out += list(C.NAMES[C.code(low):])
        return out

    def view(self, seat: int) -> dict:
        turn = self.turn()
        stop_ms = 0
        if turn == seat and self.stop_until:
            stop_ms = max(0, int((self.stop_until - time.monotonic()) * 1000))
        return {
            "turn": None if turn is None else SEATS[turn], "over": self.over(), "frozen": False,
            "prevent": self.prevent, "lowest": self.lowest(), "allowed": self.allowed(seat),
            "stop_ms": min(stop_ms, 65535), "board": self.board, "dealer": SEATS[self.dealer],
            "vul": self.vul,
            "auction": [{"call": c, "alert": a and seat in self.alert_seen[i], "stop": s}
                        for i, (c, a, s) in enumerate(self.auction)],
            "message": "",
        }

    def push_all(self) -> None:
        # under the lock: two pushes (the loop's, a new board's) must not cross, or a box would
        # keep an older view
        with self.lock:
            for s in range(4):
                self.lm.send_state(SEATS[s], self.view(s))

    def apply(self, seat: str, kind: str, call: str | None, index: int | None = None) -> bool:
        """One box event; returns True when the views changed."""
        s = SEATS.index(seat)
        with self.lock:
            self.events.append((seat, kind, call))
            if kind == "hello":
                self.hellos += 1
                return False
            if kind == "stop":
                self.stop_pending[s] = True
                return False
            if kind == "alert":
                # FSB L115B: the caller's partner alerts; the opponents see it, the caller not
                p = partner(s)
                for i in range(len(self.auction) - 1, -1, -1):
                    if (self.dealer + i) % 4 == p:
                        c, _, st = self.auction[i]
                        self.auction[i] = (c, True, st)
                        self.alert_seen[i] = {s, (s + 1) % 4, (s + 3) % 4}
                        return True
                return False
            if kind != "call":
                return False  # undo, review, td: logged for the director
            if self.turn() != s or call not in self.allowed(s):
                self.rejected.append((seat, call))
                return False
            stopped = self.stop_pending[s]
            self.stop_pending[s] = False
            self.auction.append((call, False, stopped))
            self.alert_seen.append(set())
            self.stop_until = time.monotonic() + self.stop_wait_ms / 1000 if stopped else 0.0
            self.delivered_at.append(time.monotonic())
            self.lock.notify_all()
            return True

    def calls(self) -> list[str]:
        with self.lock:
            return [c for c, _, _ in self.auction]

    def wait_calls(self, n: int, timeout: float = 5.0) -> list[str]:
        deadline = time.monotonic() + timeout
        with self.lock:
            while len(self.auction) < n:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"tablet has {len(self.auction)} calls, wanted {n}")
                self.lock.wait(left)
            return [c for c, _, _ in self.auction]

    # --- the loop -------------------------------------------------------------------------------
    def _run(self) -> None:
        while not self._stop.is_set():
            changed = False
            for e in self.lm.poll(0.05):
                changed |= self.apply(e.seat, e.kind, e.call, e.index)
            if changed:
                self.push_all()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)


class SimTable:
    """Link + four firmware boxes + LinkMaster + scripted tablet, started together."""

    def __init__(self, workdir, baud: int = 115200, prevent: bool = True, stop_wait_ms: int = 10000,
                 seed: int | None = None, board: int = 1, main: pathlib.Path | None = None):
        self.link = SimLink(baud=baud, seed=seed)
        self.main = main  # the boxes' main.py (hardware.sim.boxes.Boxes)
        self.workdir = workdir
        self.prevent = prevent
        self.stop_wait_ms = stop_wait_ms
        self.board = board
        self.master: LinkMaster | None = None
        self.boxes: Boxes | None = None
        self.tablet: Any = None  # ScriptedTablet here, Tablet in RealTable

    def __enter__(self) -> SimTable:
        self.link.start()
        try:
            self.boxes = Boxes(self.link.box_ports, self.workdir, link=self.link, main=self.main)
            self.boxes.start()
            self.tablet = self._start_tablet()
            for seat in SEATS:  # every box has its session and the first state
                self.boxes.wait_screen(seat, lambda sc: sc.status.endswith(("to call", "YOUR TURN")),
                                       timeout=10)
        except BaseException:
            self.close()
            raise
        return self

    def _start_tablet(self) -> Any:
        self.master = LinkMaster(self.link.tablet_ports)
        return ScriptedTablet(self.master, self.board, self.prevent, self.stop_wait_ms)

    def call(self, seat: str, call: str, timeout: float = 10.0) -> None:
        """Wait until `seat`'s box says it is its turn (auction up to date, no stop wait), key
        the call, wait until the tablet has it."""
        n = len(self.tablet.calls())
        self.boxes.wait_screen(seat, lambda sc: sc.status == "YOUR TURN" and len(sc.calls) == n,
                               timeout)
        self.boxes.press(seat, tokens(call))
        self.tablet.wait_calls(n + 1, timeout)

    def wait_all_show(self, n: int, timeout: float = 10.0) -> None:
        """Every box shows an auction of n calls (and the tablet's calls)."""
        want = self.tablet.calls()
        for s in SEATS:
            self.boxes.wait_screen(s, lambda sc: sc.plain_calls == want and len(want) == n, timeout)

    def close(self) -> None:
        if self.tablet is not None:
            self.tablet.close()
        if self.master is not None:
            self.master.close()
        if self.boxes is not None:
            self.boxes.stop()
        self.link.close()

    def __exit__(self, *exc: object) -> None:
        self.close()


class Tablet:
    """The real tablet for a simulated table: Controller (laws engine, journal), TableRunner over
    the LinkMaster (acks only what the journal holds), its loop in a thread (tablet_app.demo.Loop).
    Seen through what the soak and the bench ask: whose turn, the calls, the legal calls, the next
    board, the boards done, what the tablet refused."""

    BOARDS = list(range(1, 33))  # a club set; the next round starts after board 32

    def __init__(self, master: LinkMaster, workdir: pathlib.Path, profile: str = "dbf-2017"):
        from tablet_app.controller import Controller
        from tablet_app.demo import Loop
        from tablet_app.runner import TableRunner

        class Runner(TableRunner):
            def handle(inner, events: list) -> int:  # noqa: N805 - the runner's self
                self.delivered_at.extend(e.t for e in events if e.kind == "call")
                return super().handle(events)

        self.delivered_at: list[float] = []  # monotonic time the LinkMaster delivered each call
        self.history: list[tuple[int, list[str]]] = []  # finished boards: (board, calls)
        self.round = 1
        self.profile = profile
        self.ctl = Controller(workdir / "tablet.db")
        self.ctl.setup(self._session())
        self.runner = Runner(self.ctl, link=master)
        self._loop = Loop(self.runner)
        self.lock = self._loop.lock

    def _session(self) -> dict:
        return {"event": "sim", "section": "A", "table": 1, "round": self.round,
                "boards": self.BOARDS, "ns_pair": 1, "ew_pair": 2, "profile": self.profile,
                "policy": "prevent", "td_pin": "2468", "tables": 16}

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

    def wait_calls(self, n: int, timeout: float = 5.0) -> list[str]:
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

    def rejected(self) -> list[tuple[str, str | None]]:
        """What the tablet refused from a box (with `prevent`, a box sends only legal calls in
        turn: anything here is a call that came twice or out of order)."""
        with self.lock:
            return [(b.get("seat"), b.get("call")) for _, k, b in self.ctl.journal.records()
                    if k == "refused"]

    def close(self) -> None:
        self._loop.stop()
        self.ctl.close()


class RealTable(SimTable):
    """Link + four firmware boxes + LinkMaster (acks once journalled) + the real tablet (Tablet),
    started together."""

    def __init__(self, workdir, baud: int = 115200, seed: int | None = None,
                 main: pathlib.Path | None = None, profile: str = "dbf-2017"):
        super().__init__(workdir, baud=baud, seed=seed, main=main)
        self.profile = profile

    def _start_tablet(self) -> Any:
        self.master = LinkMaster(self.link.tablet_ports, ack_on_commit=True)
        return Tablet(self.master, pathlib.Path(self.workdir), self.profile)


def main(argv: list[str] | None = None) -> int:
    """`python -m hardware.sim.table`: a table for people. The link, the tablet's LinkMaster and
    the scripted tablet run here; each box runs in its own terminal (printed commands), or all
    four in one tmux window with --tmux. Ctrl-C ends it."""
    import argparse
    import shlex
    import shutil
    import subprocess

    from hardware.sim.boxes import ROOT, micropython_path

    ap = argparse.ArgumentParser(prog="python -m hardware.sim.table", description=main.__doc__)
    ap.add_argument("--board", type=int, default=1)
    ap.add_argument("--detect", action="store_true", help="detect policy (the box sends irregular calls)")
    ap.add_argument("--stop-wait", type=float, default=10.0, help="stop wait in seconds (FSB L116B)")
    ap.add_argument("--tmux", action="store_true", help="start the four boxes in a tmux window")
    a = ap.parse_args(argv)
    with SimLink() as link:
        lm = LinkMaster(link.tablet_ports)
        tab = ScriptedTablet(lm, a.board, not a.detect, int(a.stop_wait * 1000))
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
        print("keys: 1-7 level, c d h s n denomination, p x r, Enter = OK, Backspace = clear, "
              "! stop, a alert, u undo, v review, t TD. Ctrl-C here ends the table.", flush=True)
        try:
            last = None
            while True:
                time.sleep(0.5)
                with tab.lock:
                    now = (tab.board, tuple(c for c, _, _ in tab.auction))
                    over = tab.over()
                if now != last:
                    print(f"board {now[0]}: {' '.join(now[1]) or '-'}", flush=True)
                    last = now
                if over:
                    time.sleep(3)
                    tab.new_board(tab.board % 32 + 1)
        except KeyboardInterrupt:
            pass
        finally:
            tab.close()
            lm.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
