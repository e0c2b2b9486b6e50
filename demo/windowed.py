"""The windowed demo (`make run`): the Kivy tablet, four boxes in tmux panes, the station."""
from __future__ import annotations

import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import threading
from typing import Any

from demo.common import LEGEND, PIN, ROOT, SEATS, TMUX_SESSION, demo_session, emulated_boxes, fresh_db
from demo.station import DemoStation


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
