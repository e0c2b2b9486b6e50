"""Run by bench/bench_tablet.py under Xvfb: the real Kivy tablet app (TabletApp with its runner,
controller, journal and rules engine) on the simulated link with four MicroPython unix-port
boxes. A driver thread keys calls on the boxes and times confirm key -> every box showing the
call. Prints one JSON line: latencies (ms) and the wire floor per call.

    python bench/app_latency_child.py N_CALLS WORKDIR [--stages] [--inproc-relay] [--poll-watch] [--gap=MS]
                                      [--station]

--stages: also time each stage of every call (bench/app_stages.py) and print the breakdown.

The simulated link's relay runs in its own process (`python -m hardware.sim.link`), as a real
tablet's UARTs are driven by the kernel, not by a thread of the app: a relay thread in the app's
process would take the app's GIL for every 16-byte chunk it delivers and compete with the link
thread it feeds. --inproc-relay runs it as a thread of this process instead (for comparison).
The boxes' screens are watched by another process (bench/screen_watcher.py), which sleeps until a
box renames its screen file (inotify); --poll-watch makes it poll the files every 0.5 ms instead.

--gap=MS: the time between keying the call and its confirm key. By default 300 ms, a player's
pace: nobody chooses a call and presses OK faster, so the screen has drawn the previous call
before the next one comes, as at a table. --gap=20 keys calls about 25 times a second, faster
than any table: each call then arrives while the app still draws the previous one (a stress
figure, printed beside the goal's).

--station: a real station (`python -m station`, plain HTTP on loopback, its own process) and the
tablet's outbox Deliverer delivering to it on its own thread, as at a club: every item the table
queues (each call's auction event, the progress items, the results) is sent while the calls are
timed.
"""
from __future__ import annotations

import gc
import json
import os
import pathlib
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from functools import partial

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hardware.sim.boxes import Boxes, Screen  # noqa: E402
from hardware.sim.link import SimLink  # noqa: E402
from hardware.sim.table import tokens  # noqa: E402
from protocol import messages as M  # noqa: E402
from tablet_app.controller import Controller  # noqa: E402
from tablet_app.link import LinkMaster  # noqa: E402
from tablet_app.runner import TableRunner  # noqa: E402

SEATS = "NESW"
BAUD = 115200
SHM = "/dev/shm"
RELAY_NICE = -10
PLAYER_GAP_S = 0.3  # choosing a call to pressing OK, at a player's fastest
SESSION = {"event": "bench", "section": "A", "table": 1, "round": 1, "ns_pair": 1, "ew_pair": 2,
           "profile": "dbf-2017", "policy": "record", "td_pin": "1234", "boards": list(range(1, 33))}

def turn_with_calls(sc: Screen, n: int) -> bool:
    """The box shows that it is its turn, with the auction's n calls."""
    return sc.status == "YOUR TURN" and len(sc.calls) == n



def wire_bytes(payload_len: int) -> int:
    return payload_len + payload_len // 254 + 3  # COBS overhead, delimiter, leading flush


def render_threads() -> dict[str, int]:
    """This process's threads by name with their nice value (the app's thread is MainThread's
    name, "python"; a software renderer's workers are llvmpipe-N)."""
    out = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/comm") as f:
                out[f"{f.read().strip()}/{tid}"] = os.getpriority(os.PRIO_PROCESS, int(tid))
        except OSError:
            continue
    out["app"] = os.getpriority(os.PRIO_PROCESS, 0)
    return out


def start_station(work: pathlib.Path) -> tuple[subprocess.Popen, str, str]:
    """A station process for the bench's table (event `bench`, table A1): (process, url, key)."""
    import re

    proc = subprocess.Popen([sys.executable, "-m", "station", "--db", str(work / "station.db"), "--insecure-http",
                             "--host", "127.0.0.1", "--port", "0", "--event", str(SESSION["event"]), "--tables", "A:1"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    text = ""
    while "director page" not in text:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("the station did not start: " + text)
        text += line
    threading.Thread(target=lambda: proc.stdout.read(), daemon=True).start()  # type: ignore[union-attr]
    port = re.search(r"listening on http://[^:]+:(\d+)/", text).group(1)  # type: ignore[union-attr]
    key = re.search(r"table bench/A/1  key (\S+)", text).group(1)  # type: ignore[union-attr]
    return proc, f"http://127.0.0.1:{port}", key


def main() -> None:
    n_calls, work = int(sys.argv[1]), pathlib.Path(sys.argv[2])
    opts = sys.argv[3:]
    gap = next((float(o.split("=", 1)[1]) / 1000 for o in opts if o.startswith("--gap=")), PLAYER_GAP_S)
    stages = None
    if "--stages" in sys.argv[3:]:
        from bench.app_stages import Stages

        stages = Stages()
    # Kivy before any thread starts: Kivy's logging handler, installed while Kivy imports, imports
    # kivy.config on its first record, so the link thread logging a box's report while this
    # thread is still importing Kivy deadlocks (the import lock against the handler's lock)
    from tablet_app.app import TabletApp

    work.mkdir(parents=True, exist_ok=True)
    marks = str(work / "relay-marks.txt") if stages is not None else None
    relay: subprocess.Popen | None = None
    link: SimLink | None = None
    if "--inproc-relay" in sys.argv[3:]:
        link = SimLink().start()
        tablet_ports, box_ports = link.tablet_ports, link.box_ports
    else:
        # the relay stands in for the UARTs and their interrupt handler, which run ahead of any
        # process: it asks for a higher priority (granted where the bench may raise one)
        relay = subprocess.Popen([sys.executable, "-m", "hardware.sim.link", "--nice", str(RELAY_NICE),
                                  *(["--marks", marks] if marks else [])],
                                 cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert relay.stdout is not None
        ports = json.loads(relay.stdout.readline())
        tablet_ports, box_ports = ports["tablet"], ports["box"]
    # The boxes are devices of their own: their screen and flash files go to a RAM filesystem
    # where there is one, so that the tablet journal's fsync (ext4 commits every pending change
    # of the filesystem with it) does not carry four boxes' screen renames, nor they wait for it.
    box_dir = pathlib.Path(tempfile.mkdtemp(prefix="bench-boxes-", dir=SHM)) if os.path.isdir(SHM) else work / "boxes"
    boxes = Boxes(box_ports, box_dir, link=link)
    boxes.start()
    master = LinkMaster(tablet_ports, ack_on_commit=True)
    ctl = Controller(work / "journal.db")
    ctl.setup(SESSION)
    station = deliverer = None
    if "--station" in opts:
        from tablet_app.outbox import Deliverer

        station, url, key = start_station(work)
        deliverer = Deliverer(str(work / "journal.db"), url, "bench/A/1", key).start()
        ctl.listeners.append(deliverer.wake)
    runner = TableRunner(ctl, link=master)
    app = TabletApp(ctl, runner)
    if stages is not None:
        stages.install(link, master, ctl, runner, marks_file=None if link is not None else marks)
        stages.install_kivy(app)
    out: dict[str, object] = {}

    # the boxes' screens are watched from another process (bench/screen_watcher.py)
    watcher = subprocess.Popen([sys.executable, str(ROOT / "bench" / "screen_watcher.py"), str(box_dir),
                                *(["--poll"] if "--poll-watch" in opts else [])],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    w_in, w_out = watcher.stdin, watcher.stdout
    assert w_in is not None and w_out is not None

    def watch(calls: int) -> None:
        w_in.write(json.dumps({"calls": calls}) + "\n")
        w_in.flush()
        if w_out.readline().strip() != "armed":
            raise RuntimeError("the screen watcher did not arm")

    def seen_by_watcher() -> dict[str, float]:
        reply = json.loads(w_out.readline() or "{}")
        if "seen" not in reply:
            raise TimeoutError(f"a box did not show the call in 5 s ({reply})")
        return reply["seen"]

    full_passes = [0]

    def count_full_passes(phase: str, info: dict) -> None:
        if phase == "start" and info["generation"] == 2:
            full_passes[0] += 1

    def drive() -> None:
        gc.callbacks.append(count_full_passes)  # from the first call on (start-up's own are done)
        lat: list[float] = []
        floor: list[float] = []
        rng = random.Random(3)
        try:
            while len(lat) < n_calls:
                with ctl.lock:  # the state and the phase of one moment (a board may start between them)
                    st, phase = ctl.estate, ctl.phase
                if phase != "auction":
                    time.sleep(0.01)
                    continue
                seat = st["next"]
                n = len(st["calls"])
                boxes.wait_screen(seat, partial(turn_with_calls, n=n), 10)
                bids = [c for c in st["legal_calls"] if c not in ("P", "X", "XX")]
                call = "P" if (n >= 8 or not bids or rng.random() < 0.4) else bids[rng.randrange(min(3, len(bids)))]
                keys = tokens(call)
                boxes.press(seat, keys[:-1])
                time.sleep(gap)
                watch(n)
                if stages is not None:
                    stages.on = True
                t0 = time.monotonic()
                boxes.press(seat, "OK")
                seen = seen_by_watcher()
                lat.append((max(seen.values()) - t0) * 1000)
                if stages is not None:
                    stages.on = False
                    stages.call(seat, t0, seen)
                state = M.encode_state(ctl.views()[SEATS[(SEATS.index(seat) + 1) % 4]])
                floor.append((wire_bytes(M.HEADER + M.EVENT_BODY + M.CRC) + wire_bytes(M.HEADER + len(state) + M.CRC))
                             * 10 / BAUD * 1000)
            out.update(lat=lat, floor=floor, render_threads=render_threads(), frozen=gc.get_freeze_count(),
                       full_passes=full_passes[0], full_pass_threshold=gc.get_threshold()[2],
                       relay_nice=os.getpriority(os.PRIO_PROCESS, relay.pid) if relay is not None else None)
            if stages is not None:
                out["stages"] = stages.report()
        except Exception as exc:  # reported by the parent
            out["error"] = repr(exc)
        finally:
            Clock.schedule_once(lambda _dt: app.stop(), 0)

    from kivy.clock import Clock

    def result_entry(_dt: float) -> None:
        # after each auction North enters 7 tricks and East-West confirm, on the app's thread
        with app.lock:
            if ctl.phase == "play":
                ctl.enter_result(None if ctl.estate.get("status") == "passed_out" else 7)
                ctl.ew_confirm(True)

    # a little later, as at a table: the boxes show the final pass before the next board comes
    ctl.listeners.append(lambda: Clock.schedule_once(result_entry, 0.3))
    threading.Thread(target=drive, daemon=True).start()
    try:
        app.run()
    finally:
        if deliverer is not None:
            out["delivered"] = deliverer.drain(30) and ctl.outbox.counts()["delivered"]
            deliverer.stop()
        if station is not None:
            station.terminate()
            station.wait(10)
        master.close()
        w_in.close()
        watcher.wait(10)
        boxes.stop()
        if box_dir.parent != work:
            shutil.rmtree(box_dir, ignore_errors=True)
        if link is not None:
            link.close()
        if relay is not None:
            relay.communicate("quit\n", timeout=10)
    print(json.dumps(out))


if __name__ == "__main__":
    try:
        main()
    except BaseException:
        import traceback

        traceback.print_exc(file=sys.__stderr__)  # Kivy has taken over sys.stderr
        raise
