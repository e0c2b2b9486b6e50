"""The fault soak: many calls keyed on real firmware boxes over a faulty simulated link.

`run(workdir, calls=2000, ...)` keys random (legal) auctions on the four boxes of one or more
simulated tables, the real tablet on the other end of each (controller, laws engine, journal,
runner: hardware.sim.table.RealTable), while the link corrupts and drops bytes, cables are pulled and boxes rebooted
(sometimes straight after a call was keyed, while it is in flight). It returns counts: calls
keyed, delivered, lost, duplicated, reordered, and boards whose final auction some box did not
show. Used by tests/box_e2e (bounded) and bench/bench_box.py (long).
"""
from __future__ import annotations

import argparse
import json
import pathlib
import random
import threading
import time

from hardware.sim.boxes import HANG_S, Screen
from hardware.sim.table import SEATS, RealTable, tokens


def _pick(rng: random.Random, allowed: list[str], n: int) -> str:
    bids = [c for c in allowed if c not in ("P", "X", "XX")]
    if n >= 10 or not bids or rng.random() < 0.45:
        return "P"
    if rng.random() < 0.08:
        dbl = [c for c in allowed if c in ("X", "XX")]
        if dbl:
            return dbl[0]
    return bids[min(len(bids) - 1, int(rng.random() * 3))]


class Result:
    def __init__(self) -> None:
        self.keyed = 0
        self.delivered = 0
        self.lost = 0
        self.duplicated = 0
        self.reordered = 0
        self.boards = 0
        self.bad_screens = 0
        self.reboots = 0
        self.pulls = 0
        self.errors: list[str] = []
        self.seconds = 0.0

    def add(self, o: Result) -> None:
        for k in ("keyed", "delivered", "lost", "duplicated", "reordered", "boards", "bad_screens",
                  "reboots", "pulls"):
            setattr(self, k, getattr(self, k) + getattr(o, k))
        self.errors += o.errors

    def as_dict(self) -> dict:
        return {k: getattr(self, k) for k in ("keyed", "delivered", "lost", "duplicated", "reordered",
                                               "boards", "bad_screens", "reboots", "pulls",
                                               "errors", "seconds")}


def run_table(workdir: pathlib.Path, calls: int, corrupt: float, drop: float, pull_every: int,
              reboot_every: int, seed: int, out: Result, main: pathlib.Path | None = None) -> None:
    rng = random.Random(seed)
    with RealTable(workdir, seed=seed, main=main) as t:
        t.link.set_faults(corrupt=corrupt, drop=drop)
        keyed: list[tuple[int, str, str]] = []  # (board, seat, call) as keyed
        board = t.tablet.board
        since_pull = 0
        since_reboot = 0
        try:
            while out_keyed(keyed) < calls:
                turn = t.tablet.turn()
                if turn is None:
                    _check_screens(t, board, out)
                    board = t.tablet.new_board()  # result entered and confirmed: the next board
                    out.boards += 1
                    continue
                seat = SEATS[turn]
                n = len(t.tablet.calls())
                bd = f" Bd{board} "
                def turn_shown(sc: Screen, n: int = n, bd: str = bd) -> bool:
                    return sc.status == "YOUR TURN" and len(sc.calls) == n and bd in sc.lines[0] + " "

                t.boxes.wait_screen(seat, turn_shown)
                call = _pick(rng, t.tablet.allowed(turn), n)
                records = t.boxes.boxes[seat].journal_records()
                t.boxes.press(seat, tokens(call))
                keyed.append((board, seat, call))
                since_pull += 1
                since_reboot += 1
                if reboot_every and since_reboot >= reboot_every:
                    since_reboot = 0
                    # half the time the box that just keyed (its call may be in flight), else another
                    victim = seat if rng.random() < 0.5 else rng.choice(SEATS)
                    if victim == seat:
                        # the call is made once the tablet has it or the box has kept it in its
                        # flash (FSB L112C: confirmed; the box keeps a call only if the tablet has
                        # not acknowledged it within HOLD_MS, firmware/app.py); a box killed
                        # before either never had the call made. The limit only ends a hang.
                        box = t.boxes.boxes[seat]
                        end = time.monotonic() + HANG_S
                        while box.journal_records() == records and len(t.tablet.calls()) <= n:
                            if time.monotonic() > end:
                                raise TimeoutError(f"box {seat}: {call} neither at the tablet nor kept in {HANG_S} s")
                            time.sleep(0.0005)
                        time.sleep(rng.random() * 0.004)
                    t.boxes.reboot(victim, wait=False)
                    out.reboots += 1
                if pull_every and since_pull >= pull_every:
                    since_pull = 0
                    t.link.pull(rng.choice(SEATS), 0.2 + rng.random() * 0.6)
                    out.pulls += 1
                t.tablet.wait_calls(n + 1)
            _check_screens(t, board, out)
        except TimeoutError as e:
            out.errors.append(f"seed {seed}: {e}")
            out.errors.append(f"seed {seed}: tablet turn {t.tablet.turn()} board {t.tablet.board} "
                              f"calls {t.tablet.calls()}; link master {t.master.stats()}; "
                              f"sim {t.link.stats()}; connected "
                              f"{ {s: t.master.connected(s) for s in SEATS} }")
            for s in SEATS:
                out.errors.append(f"seed {seed} box {s} log: {t.boxes.log(s)[-600:]}")
        finally:
            time.sleep(0.3)  # late duplicates, if any, would arrive now
            _tally(t, keyed, out)


def out_keyed(keyed: list) -> int:
    return len(keyed)


def _check_screens(t: RealTable, board: int, out: Result) -> None:
    want = t.tablet.calls()
    for s in SEATS:
        try:
            t.boxes.wait_screen(s, lambda sc: sc.plain_calls == want and f"Bd{board} " in sc.lines[0] + " ")
        except TimeoutError as e:
            out.bad_screens += 1
            out.errors.append(str(e))


def _tally(t: RealTable, keyed: list[tuple[int, str, str]], out: Result) -> None:
    from shared_rules.boards import dealer

    tab = t.tablet
    got: list[tuple[int, str, str]] = []
    for b, cs in tab.history + [(tab.board, tab.calls())]:
        d = SEATS.index(dealer(b))
        got += [(b, SEATS[(d + i) % 4], c) for i, c in enumerate(cs)]
    rejected = tab.rejected()
    if rejected:
        out.errors.append(f"rejected by the tablet (duplicates or out of turn): {rejected}")
    for i in range(min(len(got), len(keyed))):
        if got[i] != keyed[i]:
            out.errors.append(f"first difference at {i}: keyed {keyed[i]} got {got[i]}")
            break
    out.keyed += len(keyed)
    out.delivered += len(got)
    out.duplicated += len(rejected) + max(0, len(got) - len(keyed))
    m = min(len(got), len(keyed))
    out.reordered += sum(1 for i in range(m) if got[i] != keyed[i])
    out.lost += max(0, len(keyed) - len(got))


def run(workdir, calls: int = 2000, tables: int = 2, corrupt: float = 0.01, drop: float = 0.005,
        pull_every: int = 60, reboot_every: int = 45, seed: int = 1,
        main: pathlib.Path | None = None) -> Result:
    """`calls` in total, split over `tables` tables run side by side (a table's auction is
    sequential; the link, the boxes and the tablet are per table). main: the boxes' main.py
    (default: the sources, firmware/main.py). No time budget: it runs until every call is keyed
    however busy the machine is, and only a wait that hangs (HANG_S) ends it with an error."""
    workdir = pathlib.Path(workdir)
    total = Result()
    parts = [Result() for _ in range(tables)]
    per = [calls // tables + (1 if i < calls % tables else 0) for i in range(tables)]
    t0 = time.monotonic()
    threads = [threading.Thread(target=run_table, args=(workdir / f"t{i}", per[i], corrupt, drop,
                                                        pull_every, reboot_every, seed + i, parts[i],
                                                        main))
               for i in range(tables)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    for p in parts:
        total.add(p)
    total.seconds = round(time.monotonic() - t0, 1)
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--tables", type=int, default=2)
    ap.add_argument("--corrupt", type=float, default=0.01)
    ap.add_argument("--drop", type=float, default=0.005)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workdir", default="build/soak")
    a = ap.parse_args()
    r = run(a.workdir, a.calls, a.tables, a.corrupt, a.drop, seed=a.seed)
    print(json.dumps(r.as_dict()))


if __name__ == "__main__":
    main()
