"""The live feed's bench (docs/station.md "The live feed"). Prints figures, never pass/fail.

1. A call made at a table to the spectators' stream, delay 0: 100 simulated tablets, each
   posting its table's auction events (the tablet's per-call item, with the auction so far) over
   keep-alive HTTP from its own loopback address at a player's pace (a call every 1 to 3 s), and
   spectators on `/live/stream`; p50 / p99 of (the spectator has the call) - (the tablet began
   posting it). Goal: p99 <= 1 s. Beside it the tablets' posts (the station's ingest as the
   tables feel it: post to answer, p50 / p99).
1b. The same with 1,000 more spectators on the stream (in other processes, 25 per loopback
   address): the station's ingest at 100 tables with the crowd against 1 without it. The
   spectators are served by the live feed's own process (station/live_fanout.py), at the address
   the station prints for the live feed. Their own client processes stand for phones and screens
   on other computers, yet here they share the station's cores, so the crowd is run twice: its
   processes at nice 10 (as the bench always ran it), and idle-scheduled (Linux SCHED_IDLE: they
   take a core only when nothing else wants it, as near as this computer comes to "elsewhere").
   The three runs (none, nice 10, idle) are made back to back, in a rotating order, three times
   (the machine's other load comes and goes), and the tablets' posts p50 / p99 of each crowd are
   printed against the floor (no spectators) as ratios (goal: 1.0, the ingest unchanged). Beside
   them the CPU the station's process used and, on Linux, how long its threads waited for a core
   (their run-queue time, /proc/PID/task/*/schedstat) per post: the cost the crowd puts on the
   station through the cores they share, apart from what the station itself does.
2. Stress: 1,000 spectators while 16 tablets post auction events as fast as the station takes
   them (about ten times a player's pace at 100 tables): the ingest rate with the spectators
   against without them (a ratio), their processes at nice 10 and idle-scheduled (as in 1b), and
   how many events the spectators received.
3. The delay's accuracy: with a 5 s delay (the station's test option; minutes work the same way),
   (shown at the spectator) - (made at the tablet) - delay, p50 / p99 / min: never below 0.

`python bench/bench_live.py --parts ingest --rounds 1 --seconds 20` runs only part 1b, shorter
(while exploring); `python -m bench live` runs it all as above.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import pathlib
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass

ROOT = pathlib.Path(__file__).resolve().parent.parent
EVENT = "bench-live"
SEATS = "NESW"


def pct(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))] if s else float("nan")


class Station:
    def __init__(self, work: pathlib.Path, tables: int, delay_s: float = 0.0):
        cmd = [sys.executable, "-m", "station", "--db", str(work / "station.db"), "--insecure-http", "--host",
               "127.0.0.1", "--port", "0", "--event", EVENT, "--tables", f"A:1-{tables}", "--live",
               "--live-delay-seconds", str(delay_s), "--live-port", "0", "--connections-per-address", "64"]
        self.proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        text = ""
        assert self.proc.stdout is not None
        while "live feed" not in text:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the station did not start: " + text[-2000:])
            text += line
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()
        self.port = int(re.search(r"listening on http://[^:]+:(\d+)/", text).group(1))  # type: ignore[union-attr]
        # the spectators' address: the live feed's own (its fan-out process), as the station prints it
        self.live_port = int(re.search(r"live feed http://[^:]+:(\d+)/", text).group(1))  # type: ignore[union-attr]
        self.keys = {int(t): k for t, k in re.findall(rf"table {EVENT}/A/(\d+)  key (\S+)", text)}

    def cpu_s(self, pid: int | None = None) -> float:
        """CPU seconds the station process (or its child `pid`) has used (user + system)."""
        try:
            fields = pathlib.Path(f"/proc/{pid or self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def waited_s(self) -> float | None:
        """Seconds the station's threads have waited for a core so far (Linux; else None)."""
        total = 0
        try:
            for task in pathlib.Path(f"/proc/{self.proc.pid}/task").iterdir():
                try:
                    total += int((task / "schedstat").read_text().split()[1])
                except (OSError, IndexError, ValueError):
                    continue  # a thread that has just ended
        except OSError:
            return None
        return total / 1e9

    def fanout_pid(self) -> int | None:
        """The live feed's own process (the station's child), if any."""
        try:
            kids = pathlib.Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text().split()
        except OSError:
            return None
        return int(kids[0]) if kids else None

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(20)


class Tablet:
    """A table's auction events, posted one by one over a keep-alive connection."""

    def __init__(self, station: Station, table: int):
        self.station, self.table, self.n, self.board = station, table, 0, 1
        self.calls: list[dict] = []
        self.conn: http.client.HTTPConnection | None = None
        self.source = f"127.0.{1 + table // 200}.{1 + table % 200}"

    def _connection(self) -> http.client.HTTPConnection:
        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.station.port, timeout=30,
                                                   source_address=(self.source, 0))
        return self.conn

    def call(self) -> tuple[int, int, float]:
        """Post the next call; (board, calls so far, when the post began)."""
        if len(self.calls) >= 12:
            self.board, self.calls = self.board + 1, []
        seat = SEATS[(self.board - 1 + len(self.calls)) % 4]
        self.calls.append({"seat": seat, "call": "P" if self.calls else "1C", "alerted": False, "stop": False,
                           "think": 2.0})
        self.n += 1
        key = f"{EVENT}/A/{self.table}/1/{self.board}/event/{self.n}"
        at = time.time()
        payload = {"key": key, "event": EVENT, "section": "A", "table": self.table, "round": 1, "board": self.board,
                   "n": self.n, "what": "call", "at": round(at, 3), "t": float(len(self.calls)), "seat": seat,
                   "call": self.calls[-1]["call"], "calls": self.calls, "irregularities": [], "status": "bidding",
                   "contract": None, "declarer": None, "dealer": SEATS[(self.board - 1) % 4],
                   "vulnerability": "None", "screens": False, "visible": None, "profile": "dbf-2017"}
        body = json.dumps({"kind": "auction_event", "key": key, "payload": payload}).encode()
        for attempt in range(3):
            try:
                conn = self._connection()
                conn.request("POST", "/api/v1/items", body=body, headers={
                    "Content-Type": "application/json", "X-Table": f"{EVENT}/A/{self.table}",
                    "Authorization": f"Bearer {self.station.keys[self.table]}"})
                r = conn.getresponse()
                r.read()
                if r.status not in (200, 201):
                    raise RuntimeError(f"station answered {r.status}")
                break
            except (OSError, http.client.HTTPException):
                self.conn = None
                if attempt == 2:
                    raise
        return self.board, len(self.calls), at


class Spectators:
    """Spectators on /live/stream in this process (a thread each): when each (table, board,
    calls) was first seen."""

    def __init__(self, port: int, n: int):
        self.seen: dict[tuple[int, int, int], float] = {}
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self._run, args=(port, i), daemon=True) for i in range(n)]
        for t in self.threads:
            t.start()

    def _run(self, port: int, i: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600, source_address=(f"127.0.9.{i + 1}", 0))
        conn.request("GET", "/live/stream")
        r = conn.getresponse()
        while True:
            line = r.fp.readline()
            if not line:
                return
            if line.startswith(b"data: {\"seq\""):
                now = time.time()
                doc = json.loads(line[6:])
                v = doc.get("view")
                if v:
                    k = (v["table_no"], v["board"], len(v["calls"]))
                    with self.lock:
                        self.seen.setdefault(k, now)


def paced(station: Station, tables: int, seconds: float,
          posts: list[float] | None = None) -> list[tuple[int, int, int, float]]:
    """Every table calls every 1-3 s for `seconds`: (table, board, calls, posted at) of each call;
    how long each post took until the station's answer (the tablet's delivery) into `posts`."""
    made: list[tuple[int, int, int, float]] = []
    lock = threading.Lock()
    end = time.monotonic() + seconds

    def table(t: int) -> None:
        tab, rng = Tablet(station, t), random.Random(t)
        time.sleep(rng.uniform(0, 2))
        while time.monotonic() < end:
            board, n, at = tab.call()
            took = time.time() - at
            with lock:
                made.append((t, board, n, at))
                if posts is not None:
                    posts.append(took)
            time.sleep(rng.uniform(1, 3))

    threads = [threading.Thread(target=table, args=(t,), daemon=True) for t in range(1, tables + 1)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(seconds + 60)
    return made


def latencies(made: list[tuple[int, int, int, float]], spectators: Spectators, wait_s: float = 30) -> list[float]:
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        with spectators.lock:
            if all((t, b, n) in spectators.seen for t, b, n, _ in made):
                break
        time.sleep(0.2)
    with spectators.lock:
        return [spectators.seen[(t, b, n)] - at for t, b, n, at in made if (t, b, n) in spectators.seen]


@dataclass(frozen=True)
class Ingest:
    """One run's ingest as the tablets felt it, and what it cost the station's process."""

    p50: float          # the tablets' posts, post to answer, seconds
    p99: float
    cpu: float          # cores the station's process kept busy
    waited: float | None  # ms its threads waited for a core, per post (Linux), else None


CROWD_SCHEDS = ("nice", "idle")   # the spectators' client processes: nice 10, or SCHED_IDLE


def call_to_stream(work: pathlib.Path, crowd_size: int = 0, crowd_sched: str = "nice",
                   seconds: float = 30.0) -> Ingest:
    """One run at 100 tables (and `crowd_size` more spectators, their processes scheduled as
    `crowd_sched` says): prints its line; the tablets' posts and the station's cost."""
    st = Station(work, 100)
    crowds: list[subprocess.Popen] = []
    try:
        if crowd_size:
            crowds = start_crowd(st.live_port, crowd_size, idle=crowd_sched == "idle")
        spectators = Spectators(st.live_port, 4)
        time.sleep(1.0)
        posts: list[float] = []
        child = st.fanout_pid()
        cpu0, fan0, t0, waited0 = st.cpu_s(), st.cpu_s(child) if child else 0.0, time.monotonic(), st.waited_s()
        crowd0 = sum(st.cpu_s(c.pid) for c in crowds)
        made = paced(st, 100, seconds, posts)
        took = time.monotonic() - t0
        busy = (st.cpu_s() - cpu0) / took
        waited1 = st.waited_s()
        waited = None if waited0 is None or waited1 is None else (waited1 - waited0) * 1000 / max(len(made), 1)
        fan_busy = (st.cpu_s(child) - fan0) / took if child else 0.0
        crowd_busy = (sum(st.cpu_s(c.pid) for c in crowds) - crowd0) / took
        lat = latencies(made, spectators)
        crowd_text = ""
        if crowds:
            received, connected = end_crowd(crowds)
            crowd_text = (f" and {connected} more spectators (4 processes {crowd_label(crowd_sched)}, {crowd_busy:.2f} "
                          f"cores busy; {received} events received)")
        waited_text = "" if waited is None else f", its threads waited {waited:.2f} ms a post for a core"
        print(f"call made at a table -> the spectators' stream, delay 0, 100 tables at a player's pace "
              f"({len(made)} calls in {seconds:g} s, {len(made) / seconds:.0f} a second; 4 spectators "
              f"timed{crowd_text}): p50 {pct(lat, 50) * 1000:.0f} ms, p99 {pct(lat, 99) * 1000:.0f} ms, max "
              f"{max(lat) * 1000:.0f} ms (goal p99 <= 1000 ms); {len(made) - len(lat)} calls never seen; the tablets' "
              f"posts (ingest) p50 {pct(posts, 50) * 1000:.1f} ms, p99 {pct(posts, 99) * 1000:.1f} ms; the station "
              f"process kept {busy:.3f} cores busy{waited_text}, the live feed's process {fan_busy:.2f} (load "
              f"average {os.getloadavg()[0]:.1f})", flush=True)
        return Ingest(pct(posts, 50), pct(posts, 99), busy, waited)
    finally:
        for c in crowds:
            if c.poll() is None:
                c.kill()
        st.stop()


def crowd_label(sched: str) -> str:
    return "at nice 10" if sched == "nice" else "idle-scheduled" if IDLE_WORKS else "at nice 19 (no SCHED_IDLE here)"


def ingest_beside(rounds: int = 3, crowd_size: int = 1000, seconds: float = 30.0) -> None:
    """The station's ingest (the tablets' posts at 100 tables) without spectators and with
    `crowd_size` of them, their client processes at nice 10 and idle-scheduled (module docstring,
    1b): the three runs back to back in a rotating order, `rounds` times (each round compared
    with itself), then the ratios against the floor side by side. Goal: unchanged (1.0)."""
    runs = ("floor",) + CROWD_SCHEDS
    table: list[dict[str, Ingest]] = []
    for i in range(rounds):
        got: dict[str, Ingest] = {}
        for run in runs[i % 3:] + runs[:i % 3]:  # the order rotates: no run always comes first
            with tempfile.TemporaryDirectory() as tmp:
                got[run] = call_to_stream(pathlib.Path(tmp), 0 if run == "floor" else crowd_size,
                                          "nice" if run == "floor" else run, seconds)
        table.append(got)

    def ms(x: float) -> str:
        return f"{x * 1000:.1f}"

    def waited(x: Ingest) -> str:
        return "-" if x.waited is None else f"{x.waited:.2f}"

    for i, got in enumerate(table, 1):
        f = got["floor"]
        parts = [f"round {i}: the tablets' posts without spectators p50 {ms(f.p50)} ms, p99 {ms(f.p99)} ms "
                 f"(station {f.cpu:.3f} cores, waited {waited(f)} ms a post for a core)"]
        for sched in CROWD_SCHEDS:
            c = got[sched]
            parts.append(f"with {crowd_size} {crowd_label(sched)} p50 {ms(c.p50)} ms, p99 {ms(c.p99)} ms: ratio p50 "
                         f"{c.p50 / f.p50:.2f}, p99 {c.p99 / f.p99:.2f}, the station's CPU {c.cpu / f.cpu:.2f} "
                         f"(waited {waited(c)} ms)")
        print("  " + "; ".join(parts), flush=True)

    def median(xs: list[float]) -> float:
        return sorted(xs)[len(xs) // 2]

    for sched in CROWD_SCHEDS:
        r50 = median([t[sched].p50 / t["floor"].p50 for t in table])
        r99 = median([t[sched].p99 / t["floor"].p99 for t in table])
        rcpu = median([t[sched].cpu / t["floor"].cpu for t in table])
        known = [t for t in table if t[sched].waited is not None and t["floor"].waited is not None]
        wait_text = "" if not known else (
            f"; its threads waited for a core {median([t['floor'].waited for t in known]):.2f} -> "  # type: ignore[misc]
            f"{median([t[sched].waited for t in known]):.2f} ms a post")  # type: ignore[misc]
        print(f"the station's ingest with {crowd_size} spectators (their processes {crowd_label(sched)}) against "
              f"without them, 100 tables at a player's pace, {rounds} rounds: median ratio p50 {r50:.2f}, p99 "
              f"{r99:.2f}; the station's process CPU {rcpu:.2f}{wait_text} (goal: unchanged, 1.0; load average "
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores, the spectators' own processes on the same "
              f"cores)", flush=True)


CROWD = r"""
import asyncio, sys
port, first, n = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
got = [0, 0]
async def one(i):
    try:
        r, w = await asyncio.open_connection("127.0.0.1", port, local_addr=(f"127.0.{100 + (first + i) // 25}.{1 + (first + i) % 25}", 0))
        w.write(b"GET /live/stream HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
        await w.drain()
        got[1] += 1
        tail = b""
        while True:
            data = await r.read(65536)
            if not data:
                return
            data = tail + data
            got[0] += data.count(b"\ndata: ")
            tail = data[-8:]
            got[0] -= tail.count(b"\ndata: ")
    except OSError:
        return
async def main():
    tasks = [asyncio.create_task(one(i)) for i in range(n)]
    await asyncio.sleep(0)
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    print(got[0], got[1], flush=True)
asyncio.run(main())
"""


def ingest_rate(station: Station, seconds: float, first: int, posters: int = 16) -> float:
    count = [0]
    lock = threading.Lock()
    end = time.monotonic() + seconds

    def post(t: int) -> None:
        tab = Tablet(station, t)
        while time.monotonic() < end:
            tab.call()
            with lock:
                count[0] += 1

    threads = [threading.Thread(target=post, args=(t,), daemon=True) for t in range(first, first + posters)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(seconds + 60)
    return count[0] / seconds


IDLE_WORKS = hasattr(os, "SCHED_IDLE")


def _below(idle: bool) -> None:
    """The spectators' own processes below the station's priority: on a venue's network they are
    other people's phones, not the station's two cores. nice 10 (as the bench always ran them),
    or idle-scheduled: a core only when nothing else wants it (SCHED_IDLE; without it nice 19)."""
    if not idle:
        os.nice(10)
    elif IDLE_WORKS:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    else:
        os.nice(19)


def start_crowd(port: int, spectators: int = 1000, procs: int = 4, idle: bool = False) -> list[subprocess.Popen]:
    """`spectators` on /live/stream in `procs` processes, each connected and given its snapshot."""
    crowds = [subprocess.Popen([sys.executable, "-c", CROWD, str(port), str(i * spectators // procs),
                                str(spectators // procs)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                               preexec_fn=lambda: _below(idle))
              for i in range(procs)]
    for c in crowds:
        assert c.stdout is not None
        c.stdout.readline()
    time.sleep(3.0)  # every spectator connected and given the snapshot
    return crowds


def end_crowd(crowds: list[subprocess.Popen]) -> tuple[int, int]:
    """(events received, spectators connected) of the crowd, which then goes home."""
    received = connected = 0
    for c in crowds:
        out, _ = c.communicate("\n", timeout=60)
        got, conns = out.split()[-2:]
        received, connected = received + int(got), connected + int(conns)
    return received, connected


def crowd(work: pathlib.Path, spectators: int = 1000, procs: int = 4) -> None:
    st = Station(work, 48)
    try:
        alone = ingest_rate(st, 10.0, 1)
        for first, sched in zip((17, 33), CROWD_SCHEDS, strict=True):
            crowds = start_crowd(st.live_port, spectators, procs, idle=sched == "idle")
            watched = ingest_rate(st, 10.0, first)
            received, connected = end_crowd(crowds)
            print(f"stress: {connected} spectators on the stream at once (4 processes {crowd_label(sched)}): the "
                  f"station ingested {watched:.0f} auction events/s (16 tablets posting as fast as it takes them, "
                  f"some ten times a player's pace at 100 tables) against {alone:.0f}/s without them: ratio "
                  f"{watched / alone:.2f}; the spectators received {received} events "
                  f"({received / max(connected, 1):.0f} each)", flush=True)
    finally:
        st.stop()


def delay_accuracy(work: pathlib.Path, delay_s: float = 5.0) -> None:
    st = Station(work, 20, delay_s)
    try:
        spectators = Spectators(st.live_port, 2)
        time.sleep(1.0)
        made = paced(st, 20, 20.0)
        lat = latencies(made, spectators, wait_s=delay_s + 30)
        off = [x - delay_s for x in lat]
        print(f"the delay's accuracy ({delay_s:g} s; 20 tables, {len(made)} calls): shown - made - delay p50 "
              f"{pct(off, 50) * 1000:.0f} ms, p99 {pct(off, 99) * 1000:.0f} ms, min {min(off) * 1000:.0f} ms "
              f"(never below 0: nothing shown before its time)")
    finally:
        st.stop()


PARTS = ("ingest", "stress", "delay")
EXTRA = ("sched",)   # bench/live_sched.py: several minutes, Linux as root; only when asked for


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python bench/bench_live.py", description=__doc__.split("\n")[0])
    p.add_argument("--parts", default=",".join(PARTS),
                   help=f"which parts, comma-separated: {', '.join(PARTS + EXTRA)} (default: {', '.join(PARTS)})")
    p.add_argument("--rounds", type=int, default=3, help="rounds of the ingest's three runs (1b)")
    p.add_argument("--seconds", type=float, default=30.0, help="each ingest run's length")
    args = p.parse_args(argv)
    parts = args.parts.split(",")
    if unknown := set(parts) - set(PARTS + EXTRA):
        p.error(f"unknown part(s) {', '.join(sorted(unknown))}: expected {', '.join(PARTS + EXTRA)}")
    if "ingest" in parts:
        # the first round's runs print the call -> stream lines with 4 and with 1,000 more spectators
        ingest_beside(args.rounds, seconds=args.seconds)
    for name, part in (("stress", crowd), ("delay", delay_accuracy)):
        if name not in parts:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            part(pathlib.Path(tmp))
        # the figures above are this machine's only as far as nothing else ran: say what did
        print(f"  (load average after it: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)", flush=True)
    if "sched" in parts:
        sys.path.insert(0, str(ROOT))  # run as a script: its package's neighbour
        from bench import live_sched

        why = live_sched.available()
        if why:
            print(f"where the spectators' cost comes from: not measured here ({why})", flush=True)
        else:
            live_sched.interleaved(sys.modules[__name__])


if __name__ == "__main__":
    main()
