"""The demo table: the tablet app and four virtual boxes, no hardware needed.

    python -m tablet_app.demo              # Kivy tablet + four boxes, each in its own tmux pane
    python -m tablet_app.demo --headless   # a scripted session that prints what happens
    python -m tablet_app.demo --boxes rp2040   # the boxes on emulated RP2040s (make run BOXES=rp2040)

Both run the real parts: the box firmware on the MicroPython unix port, each box behind its own
pseudo-terminal of the simulated serial link (hardware/sim, 115200 baud timing), the tablet's
LinkMaster over pyserial, the laws engine, the journal and the result outbox. With no display
($DISPLAY unset) the windowed demo says so in one line and runs the headless one.
"""
from __future__ import annotations

import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import threading
import time
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parents[1]
SEATS = "NESW"
PIN = "1234"
# how long a box's panel must stand still, on the box's clock, before the demo prints it: four
# times a full frame's push on the chip (about 25 ms over 400 kHz I2C)
SCREEN_STILL_S = 0.1
TMUX_SESSION = os.environ.get("BIDDING_BOX_TMUX_SESSION", "bidding-box-demo")  # tests use their own
LEGEND = ("1-7 level, c d h s n suit/NT, p pass, x double, r redouble, Enter OK, Esc clear, "
          "! stop, a alert, u undo, v review, t director")


def demo_session(profile: str, policy: str | None) -> dict[str, Any]:
    return {"event": "demo-club", "section": "A", "table": 1, "round": 1, "boards": [1, 2, 3],
            "ns_pair": 1, "ew_pair": 2, "profile": profile, "policy": policy, "td_pin": PIN, "tables": 4}


def fresh_db(workdir: pathlib.Path) -> pathlib.Path:
    workdir.mkdir(parents=True, exist_ok=True)
    db = workdir / "tablet.db"
    from tablet_app.journal import MARK_SUFFIX

    # every file of the last run's journal: its commit mark too, or the new journal is checked
    # against the old one's last record (JournalDamaged)
    for suffix in ("", "-wal", "-shm", ".storage", MARK_SUFFIX):
        pathlib.Path(str(db) + suffix).unlink(missing_ok=True)
    return db


class Loop:
    """The table loop in a thread, with a lock for the script's own controller calls."""

    def __init__(self, runner: Any):
        self.runner = runner
        self.lock = threading.RLock()
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._run, daemon=True)
        self._t.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            with self.lock:
                self.runner.step(0)
            time.sleep(0.005)

    def stop(self) -> None:
        self._stop.set()
        self._t.join(2)


class DemoStation:
    """The venue's results station (`python -m station`) for the demo, in its own process on
    loopback with its own database, and the tablet's outbox deliverer pointed at it: the results
    of the demo reach a real station the way they do at a club."""

    def __init__(self, work: pathlib.Path, tablet_db: pathlib.Path):
        import re

        from tablet_app.outbox import Deliverer

        db = work / "station.db"
        for suffix in ("", "-wal", "-shm"):
            pathlib.Path(str(db) + suffix).unlink(missing_ok=True)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "station", "--db", str(db), "--port", "0", "--host", "127.0.0.1",
             "--event", "demo-club", "--tables", "A:1-4", "--insecure-http"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        text = ""
        assert self.proc.stdout is not None
        while "director page" not in text:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the results station did not start:\n" + text)
            text += line
        # keep reading so a chatty station never blocks on a full pipe
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()
        self.url = re.search(r"listening on (http://\S+?)/?\s", text).group(1)  # type: ignore[union-attr]
        self.token = re.search(r"token=(\S+)", text).group(1)  # type: ignore[union-attr]
        key = dict(re.findall(r"table (\S+)  key (\S+)", text))["demo-club/A/1"]
        self.deliverer = Deliverer(str(tablet_db), self.url, "demo-club/A/1", key).start()

    @property
    def director_page(self) -> str:
        return f"{self.url}/director?token={self.token}"

    def pbn(self) -> str:
        import urllib.request

        with urllib.request.urlopen(f"{self.url}/export/pbn?token={self.token}", timeout=10) as r:
            return r.read().decode()

    def close(self) -> None:
        self.deliverer.stop()
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def pbn_game(pbn: str, board: int) -> str:
    """One board's game from a PBN export (games start at an [Event tag; blank lines vary)."""
    import re

    games = re.split(r"\n(?=\[Event )", pbn)
    return next((g.strip() for g in games if f'[Board "{board}"]' in g), "")


# ---------------------------------------------------------------------------------------- headless
def headless(args: argparse.Namespace) -> int:
    from hardware.sim.boxes import Boxes
    from hardware.sim.link import SimLink
    from hardware.sim.table import tokens
    from tablet_app import i18n, present
    from tablet_app.controller import Controller
    from tablet_app.link import LinkMaster
    from tablet_app.link.master import WallClock
    from tablet_app.runner import TableRunner

    work = ROOT / "build" / "demo"
    db = fresh_db(work)
    say = print
    on_chip = args.boxes == "rp2040"
    say(f"Headless demo: four {'emulated RP2040' if on_chip else 'MicroPython'} boxes on a "
        "simulated serial link, the tablet's controller, the laws engine (profile dbf-2017, "
        "record policy), the results station.\n")
    link: Any = None
    if on_chip:
        boxes: Any = emulated_boxes(work)
        ports, slow = boxes.ports, boxes.slow
    else:
        link = SimLink().start()
        boxes = Boxes(link.box_ports, work / "boxes", link=link)
        ports, slow = link.tablet_ports, 1.0
    master = None
    loop = None
    station = None
    try:
        station = DemoStation(work, db)
        say(f"Results station: {station.url} (director page {station.director_page})\n")
        if not on_chip:
            boxes.start()
        master = LinkMaster(ports, ack_on_commit=True, clock=getattr(boxes, "clock", WallClock))
        ctl = Controller(db)
        ctl.setup(demo_session("dbf-2017", "record"))
        runner = TableRunner(ctl, link=master)
        loop = Loop(runner)
        # the unix port's screen file reads "N Bd1 DN V-", the chip's panel "N BOARD 1" and
        # "WAIT FOR TD" (its own words, hardware/display.md)
        board1 = "BOARD 1" if on_chip else "Bd1 "
        td_wait = "WAIT FOR TD" if on_chip else "DIRECTOR: wait"
        for s in SEATS:
            boxes.wait_screen(s, lambda sc: board1 in sc.text, timeout=15)

        def wait(pred: Any, what: str, timeout: float = 15.0) -> None:
            end = time.monotonic() + timeout * slow
            while True:
                with loop.lock:
                    if pred(ctl):
                        return
                if time.monotonic() > end:
                    raise TimeoutError(what)
                time.sleep(0.01)

        def turn_shown(seat: str) -> None:
            # the box holds the tablet's latest view (acknowledged) and shows that it is its turn:
            # read from the box's status line, which both box kinds show whole (the chip's
            # display shows only the latest round of the auction)
            boxes.wait_screen(seat, lambda sc: sc.status == "YOUR TURN" and master.state_acked(seat), 15)

        def key(seat: str, call: str, note: str = "") -> None:
            turn_shown(seat)
            with loop.lock:
                before = ctl.journal.count()
            boxes.press(seat, tokens(call))
            wait(lambda c: c.journal.count() > before, f"{seat} {call}")
            say(f"  box {seat} keys {present.call_text(call)}{note}")

        def table() -> None:
            with loop.lock:
                text = present.headless_table(ctl.snapshot())
            say("\n".join("    | " + line for line in text.splitlines()))

        box_clock = getattr(boxes, "clock", WallClock)

        def box_screen(seat: str, status: str) -> None:
            # The box acknowledges a STATE before it draws it, and the chip pushes a new frame
            # to its panel over some 25 ms of its own time (a few hundred ms of ours), the status
            # line first: wait for the acknowledged view's status, then for the panel to stand
            # still, so the print is the tablet's latest view whole.
            sc = boxes.wait_screen(seat, lambda sc: sc.status == status and master.state_acked(seat), 15)
            since = box_clock.monotonic()
            end = time.monotonic() + 15 * slow
            while box_clock.monotonic() - since < SCREEN_STILL_S and time.monotonic() < end:
                time.sleep(0.05)
                again = boxes.screen(seat)
                if again.text != sc.text:
                    sc, since = again, box_clock.monotonic()
            say(f"  box {seat}'s display:")
            for line in sc.lines:
                say("    : " + line)

        say("== Board 1: a normal auction ==")
        for seat, call in [("N", "1H"), ("E", "P"), ("S", "2NT"), ("W", "P"), ("N", "4H"), ("E", "P"),
                           ("S", "P"), ("W", "P")]:
            key(seat, call)
        table()
        box_screen("E", "AUCTION OVER")
        with loop.lock:
            say("  North enters 10 tricks, lead the ace of spades; East-West confirm (FSB 98A)")
            ctl.enter_result(10, "SA")
            rec = ctl.ew_confirm(True)
        say(f"  -> board 1: {present.contract_text(rec['contract'], rec['declarer'])}, {rec['tricks']} tricks, N-S {rec['score_ns']:+d}, "
            "queued for the station\n")

        say("== Board 2: an irregularity ==")
        key("E", "1NT")
        turn_shown("S")
        boxes.press("S", tokens("1S"))
        say("  box S keys 1\u2660 - insufficient over 1NT")
        wait(lambda c: c.phase == "frozen", "table frozen")
        boxes.wait_screen("W", lambda sc: sc.status == td_wait, 15)
        table()
        box_screen("W", td_wait)
        with loop.lock:
            st = ctl.estate
            say("  Director console:")
            for line in present.what_happened(st):
                say("    what happened: " + line)
            for o in st["pending"]["options"]:
                say(f"    option: {i18n.option_label(st['pending']['kind'], o, 'en', present.seat_names(st['pending']))}"
                    f"  ({o['law']})")
            try:
                ctl.td_decide("0000", "replace", call="2S")
            except ValueError as exc:
                say(f"  TD types PIN 0000 -> {exc}")
            say("  TD (PIN 1234): the offender replaces it with 2\u2660")
            ctl.td_decide(PIN, "replace", call="2S")
            pending = ctl.estate["pending"]
            if pending:
                for o in pending["options"]:
                    say(f"    option: {i18n.option_label(pending['kind'], o, 'en', present.seat_names(pending))}"
                        f"  ({o['law']})")
                say("  TD: 2\u2660 is the lowest sufficient bid in the same denomination (L27B1(a))")
                ctl.td_decide(PIN, "b1a")
            for line in present.consequences(ctl.estate):
                say("    consequence: " + line)
        for seat, call in [("W", "P"), ("N", "P"), ("E", "P")]:
            key(seat, call)
        table()
        with loop.lock:
            ctl.enter_result(7)
            rec = ctl.ew_confirm(True)
        say(f"  -> board 2: {present.contract_text(rec['contract'], rec['declarer'])}, 7 tricks, N-S {rec['score_ns']:+d}\n")

        say("== Board 3: passed out ==")
        for seat in "SWNE":
            key(seat, "P")
        table()
        with loop.lock:
            ctl.enter_result(None)
            rec = ctl.ew_confirm(True)
            say(f"  -> board 3: passed out, N-S {rec['score_ns']:+d}\n")
            say("== Round end ==")
            pos = ctl.next_positions() or {}
            for line in present.round_end_lines(pos):
                say("  " + line)
        drained = station.deliverer.drain(30)
        with loop.lock:
            rows = ctl.journal.conn.execute(
                "SELECT item_key, state FROM outbox WHERE kind = 'result' ORDER BY id").fetchall()
            kinds = dict(ctl.journal.conn.execute(
                "SELECT kind || ' ' || state, COUNT(*) FROM outbox GROUP BY kind, state").fetchall())
        say("\n== Results and the station ==")
        say(f"    {'result':<32} {'state':<10}")
        for key_, state in rows:
            say(f"    {key_:<32} {state:<10}")
        say("    items by kind: " + ", ".join(f"{k}: {n}" for k, n in sorted(kinds.items()))
            + ("" if drained else "  (the station did not take everything in 30 s)"))
        say("\n== At the station: the PBN export the scoring program reads (board 2) ==")
        for line in pbn_game(station.pbn(), 2).splitlines():
            say("    " + line)
        say(f"\nJournal: {db} - run `make run` on a machine with a display for the Kivy tablet.")
        if args.wait and sys.stdin.isatty():
            # the station's director page is alive only while the demo runs
            input(f"\nThe station's director page: {station.director_page}\nPress Enter to stop the demo. ")
        return 0
    finally:
        if loop is not None:
            loop.stop()
        if station is not None:
            station.close()
        if master is not None:
            master.close()
        boxes.stop()
        if link is not None:
            link.close()


def emulated_boxes(work: pathlib.Path) -> Any:
    """Four boxes on emulated RP2040s (`--boxes rp2040`), flashed as `make flash` flashes them."""
    from hardware.emu.boxes import EmuBoxes
    from hardware.emu.harness import missing

    why = missing()
    if why:
        raise SystemExit(f"--boxes rp2040: {why}")
    print("Booting four emulated RP2040s (stock MicroPython, the flashed firmware); they run at "
          "about 1/8 of real time here, so the boxes answer slowly.")
    return EmuBoxes(work / "emu")


# ---------------------------------------------------------------------------------------- windowed
def start_tmux(box_ports: dict[str, str], work: pathlib.Path) -> str | None:
    """Four panes, one interactive box each. Returns the attach command, or None without tmux."""
    tmux = shutil.which("tmux")
    if tmux is None:
        return None
    interp = str(pathlib.Path(sys.executable).parent / "micropython")
    if not os.path.exists(interp):
        interp = shutil.which("micropython") or interp
    subprocess.run([tmux, "kill-session", "-t", TMUX_SESSION], capture_output=True)

    def cmd(seat: str) -> str:
        return (f"cd {ROOT} && {interp} firmware/main.py --seat {seat} --port {box_ports[seat]} "
                f"--store {work}/flash-{seat}.bin; read -p 'box {seat} stopped - Enter to close'")

    subprocess.run([tmux, "new-session", "-d", "-s", TMUX_SESSION, "-x", "160", "-y", "48", cmd("N")], check=True)
    for seat in "ESW":
        subprocess.run([tmux, "split-window", "-t", TMUX_SESSION, cmd(seat)], check=True)
        subprocess.run([tmux, "select-layout", "-t", TMUX_SESSION, "tiled"], check=True)
    # each pane keeps its box's key legend in view, on its border
    subprocess.run([tmux, "set-option", "-t", TMUX_SESSION, "pane-border-status", "top"], check=True)
    for i, seat in enumerate(SEATS):
        subprocess.run([tmux, "select-pane", "-t", f"{TMUX_SESSION}:0.{i}", "-T", f"box {seat} - keys: {LEGEND}"],
                       check=True)
    return f"tmux attach -t {TMUX_SESSION}"


def key_console(boxes: Any) -> threading.Thread:
    """Without tmux the boxes have no terminal: this terminal types for them, a line at a time."""
    def run() -> None:
        for line in sys.stdin:
            parts = line.split()
            if not parts:
                continue
            seat = parts[0].upper()
            if seat not in SEATS or len(parts) < 2:
                print(f"  type a seat and its keys, e.g. `S 1 h OK` (keys: {LEGEND})")
                continue
            boxes.press(seat, parts[1:])

    t = threading.Thread(target=run, name="key-console", daemon=True)
    t.start()
    return t


def open_terminal(attach: str) -> bool:
    for term in ("x-terminal-emulator", "xterm", "gnome-terminal", "konsole", "xfce4-terminal"):
        exe = shutil.which(term)
        if exe:
            args = [exe, "--", *attach.split()] if term == "gnome-terminal" else [exe, "-e", attach]
            subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            return True
    return False


def windowed(args: argparse.Namespace) -> int:
    # Kivy first, before any thread starts: a thread that logs while Kivy is being imported
    # (the link's box reports) and Kivy's log handler importing its config under its lock
    # deadlock each other (seen in the latency bench with gdb).
    from hardware.sim.link import SimLink
    from tablet_app.app import TabletApp
    from tablet_app.controller import Controller
    from tablet_app.link import LinkMaster
    from tablet_app.link.master import WallClock
    from tablet_app.runner import TableRunner

    work = ROOT / "build" / "demo"
    db = fresh_db(work)
    link: Any = None
    boxes: Any = None
    attach = None
    if args.boxes == "rp2040":
        boxes = emulated_boxes(work)
        boxes.mirror()
        ports = boxes.ports
        print(f"The boxes' displays: {boxes.workdir}/box-N.png (and .txt), kept up to date.\n"
              "Press their keys here: a seat, then the keys, then Enter, e.g. `S 1 h OK` or "
              f"`W p OK`.\nKeys: {LEGEND}")
        key_console(boxes)
    else:
        link = SimLink().start()
        ports = link.tablet_ports
        attach = start_tmux(link.box_ports, work)
    if link is not None and attach is None:
        from hardware.sim.boxes import Boxes

        boxes = Boxes(link.box_ports, work / "boxes", link=link)
        boxes.start()
        print("tmux not found: the boxes have no window of their own (their displays are in "
              "build/demo/boxes/screen-*.txt).\nPress their keys here: a seat, then the keys, then Enter, "
              f"e.g. `S 1 h OK` (South bids 1 heart) or `W p OK`.\nKeys: {LEGEND}")
        key_console(boxes)
    elif attach is not None:
        shown = open_terminal(attach)
        print(f"Four boxes run in tmux session '{TMUX_SESSION}'"
              + ("" if shown else f": open a terminal and run `{attach}`")
              + f".\nKeys on a box (shown on each pane's border too): {LEGEND}")
    print(f"Director PIN: {PIN}. Journal: {db}")
    master = LinkMaster(ports, ack_on_commit=True, clock=getattr(boxes, "clock", WallClock))
    ctl = Controller(db)
    ctl.setup(demo_session(args.profile, None))
    runner = TableRunner(ctl, link=master)
    station = DemoStation(work, db)
    app = TabletApp(ctl, runner, args.lang, deliverer=station.deliverer)
    import signal

    from kivy.clock import Clock

    def stop(*_: Any) -> None:
        # Ctrl-C in the terminal (or the terminal closed) ends the window too, then everything below
        Clock.schedule_once(lambda _dt: app.stop(), 0)

    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, stop)
    # only now: a Ctrl-C from here on ends everything (before the handlers it would have left
    # the station's threads running)
    print(f"Results station: director page {station.director_page}", flush=True)
    try:
        app.run()
    finally:
        station.close()
        master.close()
        if attach is not None:
            subprocess.run(["tmux", "kill-session", "-t", TMUX_SESSION], capture_output=True)
        if boxes is not None:
            boxes.stop()
        if link is not None:
            link.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tablet_app.demo", description=__doc__.splitlines()[0])
    ap.add_argument("--headless", action="store_true", help="scripted session, printed (no display needed)")
    ap.add_argument("--profile", default="fsb-2007", help="regulation profile for the windowed demo")
    ap.add_argument("--lang", default="en", choices=("en", "sv", "da"))
    ap.add_argument("--boxes", default="unix", choices=("unix", "rp2040"),
                    help="unix: the firmware on the MicroPython unix port (fast); rp2040: the "
                         "flashed firmware on four emulated RP2040s (hardware/emu)")
    ap.add_argument("--no-wait", dest="wait", action="store_false",
                    help="headless: end at once (by default, in a terminal, it waits for Enter so the "
                         "station's director page can be looked at)")
    args = ap.parse_args(argv)
    if not args.headless and not os.environ.get("DISPLAY"):
        print("No display ($DISPLAY is unset): running the headless demo instead (make run-headless).")
        args.headless = True
    return headless(args) if args.headless else windowed(args)


if __name__ == "__main__":
    sys.exit(main())
