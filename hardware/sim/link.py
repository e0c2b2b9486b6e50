"""The simulated serial link: per seat, a tablet-side and a box-side pseudo-terminal joined by a
relay that delays every byte by its real duration at the baud rate and injects faults on demand.

    with SimLink(baud=115200) as link:
        link.tablet_ports          # {"N": "/dev/pts/7", ...}  -> LinkMaster / pyserial
        link.box_ports             # {"N": "/dev/pts/9", ...}  -> the firmware (boxes.py)
        link.set_faults(corrupt=0.01, drop=0.005)      # per byte, both directions
        link.pull("E", 2.0)        # cable out for 2 s: every byte both ways is lost
        link.plug("E")             # cable back in now
        link.flush_box("S")        # a box was restarted: the bytes it never read are gone
        link.stats()               # bytes relayed / corrupted / dropped per seat and direction

Command line: `python -m hardware.sim.link [--baud B] [--corrupt P] [--drop P] [--seats NESW]
[--marks FILE]` prints the port paths as one JSON line, then reads commands on stdin (`pull SEAT SECONDS`,
`faults CORRUPT DROP`, `flush SEAT`, `stats`, `quit`).

Why the relay holds both slave ends open: a pty whose slave is closed returns EIO on the master
and loses its termios settings, so a box process being killed and restarted (boxes.py reboot)
would otherwise break the link. With the slave held, the port behaves like a UART whose far end
is simply silent. Bytes sent to a box while its process is dead stay in the pty; a real UART
would not keep them, so whoever restarts a box calls `flush_box(seat)`.
"""
from __future__ import annotations

import json
import os
import pty
import random
import select
import sys
import termios
import threading
import time
import traceback
import tty
from collections import deque
from collections.abc import Callable

from protocol.messages import box_state
from protocol.session import BoxEndpoint
from shared_rules.types import SEATS

BITS_PER_BYTE = 10  # 8N1: start + 8 data + stop
CHUNK = 16          # bytes delivered together (at most ~1.4 ms early for the first of them)
DOWN = "down"       # tablet -> box
UP = "up"           # box -> tablet
BLOCKED_DROP_S = 0.2  # a pty that takes no bytes for this long has no reader: drop


class _Channel:
    """One direction of one seat: read from `src` master, deliver to `dst` master."""

    def __init__(self, seat: str, direction: str, src: int, dst: int):
        self.seat = seat
        self.direction = direction
        self.src = src
        self.dst = dst
        self.line_free = 0.0
        self.queue: deque[tuple[float, bytes]] = deque()
        self.relayed = 0
        self.corrupted = 0
        self.dropped = 0
        self.pulled = 0
        self.overflow = 0
        self.blocked_since = 0.0


def _raw_pty(fds: list[int]) -> tuple[int, int]:
    """A pseudo-terminal (master, slave) in raw mode without echo, the master non-blocking; both
    are added to `fds`, which the link closes."""
    m, s = pty.openpty()
    tty.setraw(s)
    attrs = termios.tcgetattr(s)
    attrs[3] &= ~termios.ECHO
    termios.tcsetattr(s, termios.TCSANOW, attrs)
    os.set_blocking(m, False)
    fds += [m, s]
    return m, s


class SimLink:
    def __init__(self, seats: str = "".join(SEATS), baud: int = 115200, corrupt: float = 0.0,
                 drop: float = 0.0, seed: int | None = None):
        self.seats = seats
        self.baud = baud
        self.byte_time = BITS_PER_BYTE / baud
        self.corrupt = {s: corrupt for s in seats}
        self.drop = {s: drop for s in seats}
        self.pulled_until = {s: 0.0 for s in seats}
        self.rng = random.Random(seed)
        self.tablet_ports: dict[str, str] = {}
        self.box_ports: dict[str, str] = {}
        self._fds: list[int] = []
        self._slaves: dict[tuple[str, str], int] = {}
        self._channels: list[_Channel] = []
        self._by_src: dict[int, _Channel] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._wake_r, self._wake_w = -1, -1
        self._thread: threading.Thread | None = None
        self.relay_errors = 0
        # (monotonic time, what, seat) for a bench's breakdown (bench/app_stages.py), called in
        # the relay thread: "<dir>_read" when a side's bytes are read (and "<dir>_wire_end" with
        # the time their last byte leaves the wire), "<dir>_delivered" when a channel's queue runs
        # dry. None: nothing is recorded.
        self.on_mark: Callable[[float, str, str], None] | None = None

    # --- lifecycle ----------------------------------------------------------------------------

    def start(self) -> SimLink:
        for s in self.seats:
            tm, ts = self._pty()
            bm, bs = self._pty()
            self.tablet_ports[s] = os.ttyname(ts)
            self.box_ports[s] = os.ttyname(bs)
            self._slaves[(s, "tablet")] = ts
            self._slaves[(s, "box")] = bs
            down = _Channel(s, DOWN, tm, bm)
            up = _Channel(s, UP, bm, tm)
            self._channels += [down, up]
            self._by_src[tm] = down
            self._by_src[bm] = up
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        self._thread = threading.Thread(target=self._run, name="simlink", daemon=True)
        self._thread.start()
        return self

    def _pty(self) -> tuple[int, int]:
        return _raw_pty(self._fds)

    def close(self) -> None:
        self._stop.set()
        if self._wake_w >= 0:
            os.write(self._wake_w, b"x")
        if self._thread is not None:
            self._thread.join(timeout=2)
        for fd in self._fds + [self._wake_r, self._wake_w]:
            try:
                os.close(fd)
            except OSError:
                pass
        self._fds = []

    def __enter__(self) -> SimLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- faults -------------------------------------------------------------------------------

    def set_faults(self, corrupt: float | None = None, drop: float | None = None,
                   seat: str | None = None) -> None:
        """Per-byte probabilities (both directions) for one seat or all."""
        with self._lock:
            for s in (seat,) if seat else self.seats:
                if corrupt is not None:
                    self.corrupt[s] = corrupt
                if drop is not None:
                    self.drop[s] = drop

    def pull(self, seat: str, seconds: float) -> None:
        """Pull the seat's cable for `seconds`: every byte in either direction is lost."""
        with self._lock:
            self.pulled_until[seat] = time.monotonic() + seconds

    def plug(self, seat: str) -> None:
        """The seat's cable back in (ends a pull at once)."""
        with self._lock:
            self.pulled_until[seat] = 0.0

    def is_pulled(self, seat: str) -> bool:
        return time.monotonic() < self.pulled_until[seat]

    def flush_box(self, seat: str) -> None:
        """Discard what is waiting in the box-side pty for a box process that is not running
        (call after killing a box, before starting it again)."""
        # Under the relay's lock, which it delivers under: no chunk can land in the pty between
        # the flush and the queue's clearing, to reach the box started next.
        with self._lock:
            for ch in self._channels:
                if ch.seat == seat and ch.direction == DOWN:
                    ch.queue.clear()
            termios.tcflush(self._slaves[(seat, "box")], termios.TCIFLUSH)

    def stats(self) -> dict[str, dict[str, dict[str, int]]]:
        with self._lock:
            out: dict[str, dict[str, dict[str, int]]] = {}
            for ch in self._channels:
                out.setdefault(ch.seat, {})[ch.direction] = {
                    "relayed": ch.relayed, "corrupted": ch.corrupted, "dropped": ch.dropped,
                    "pulled": ch.pulled, "overflow": ch.overflow}
            return out

    def idle(self) -> bool:
        """True when no byte is in flight in the relay."""
        with self._lock:
            return all(not ch.queue for ch in self._channels)

    # --- the relay ----------------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._loop()
                return
            except Exception:  # a relay that dies silently would look like a protocol bug
                self.relay_errors += 1
                traceback.print_exc()

    def _loop(self) -> None:
        srcs = list(self._by_src) + [self._wake_r]
        while not self._stop.is_set():
            now = time.monotonic()
            due = min((ch.queue[0][0] for ch in self._channels if ch.queue), default=now + 0.05)
            if any(ch.blocked_since for ch in self._channels):
                due = min(due, now + 0.001)
            timeout = max(0.0, min(due - now, 0.05))
            try:
                ready, _, _ = select.select(srcs, [], [], timeout)
            except (OSError, ValueError):
                return
            now = time.monotonic()
            for fd in ready:
                if fd == self._wake_r:
                    try:
                        os.read(fd, 64)
                    except OSError:
                        pass
                    continue
                try:
                    data = os.read(fd, 4096)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    data = b""
                if data:
                    self._accept(self._by_src[fd], data, now)
            self._deliver(time.monotonic())

    def _accept(self, ch: _Channel, data: bytes, now: float) -> None:
        with self._lock:
            seat = ch.seat
            if now < self.pulled_until[seat]:
                ch.pulled += len(data)
                return
            pc, pd = self.corrupt[seat], self.drop[seat]
            rng = self.rng
            start = max(now, ch.line_free)
            out = bytearray()
            t = start
            bt = self.byte_time
            for b in data:
                t += bt
                if pd and rng.random() < pd:
                    ch.dropped += 1
                else:
                    if pc and rng.random() < pc:
                        b ^= rng.randrange(1, 256)
                        ch.corrupted += 1
                    out.append(b)
                    ch.relayed += 1
                    if len(out) >= CHUNK:
                        ch.queue.append((t, bytes(out)))
                        out.clear()
            if out:
                ch.queue.append((t, bytes(out)))
            ch.line_free = t
        if self.on_mark is not None:
            self.on_mark(now, f"{ch.direction}_read", ch.seat)
            self.on_mark(t, f"{ch.direction}_wire_end", ch.seat)

    def _deliver(self, now: float) -> None:
        with self._lock:
            for ch in self._channels:
                q = ch.queue
                was_busy = bool(q)
                while q and q[0][0] <= now:
                    due, chunk = q[0]
                    if now < self.pulled_until[ch.seat]:
                        q.popleft()
                        ch.pulled += len(chunk)  # the cable went out while it was on the wire
                        continue
                    try:
                        n = os.write(ch.dst, chunk)
                    except (BlockingIOError, InterruptedError):
                        n = 0
                    except OSError:
                        n = -1
                    if n == len(chunk):
                        q.popleft()
                        ch.blocked_since = 0.0
                        continue
                    # The pty did not take it all: a transient (ldisc busy) or nobody reading.
                    # Retry for a while; a reader gone for longer loses the bytes, as a UART would.
                    if n > 0:
                        q[0] = (due, chunk[n:])
                    if not ch.blocked_since:
                        ch.blocked_since = now
                    if n < 0 or now - ch.blocked_since > BLOCKED_DROP_S:
                        q.popleft()
                        ch.overflow += len(chunk) - max(n, 0)
                        ch.blocked_since = 0.0
                        continue
                    break
                if was_busy and not q and self.on_mark is not None:
                    self.on_mark(time.monotonic(), f"{ch.direction}_delivered", ch.seat)


class SimBus:
    """RS-485 half-duplex multidrop: one tablet port and one box port per seat on ONE shared
    line. Every byte anyone sends reaches every other node (after its wire time); the line carries
    one byte per 10 bit times in total, whoever sends. A node that starts sending while another's
    bytes are still on the line collides: both transmissions' pending bytes are garbled and the
    collision is counted (the protocol's grant discipline should keep that count at zero).

    With `record`, every node's bytes are kept as it sent them (before any fault or collision
    garbled them) in the order the line took them: `line_frames()` gives them as frames, for a
    check of who talked when that does not depend on how fast anyone was."""

    def __init__(self, seats: str = "".join(SEATS), baud: int = 115200, corrupt: float = 0.0,
                 drop: float = 0.0, seed: int | None = None, record: bool = False):
        self.seats = seats
        self.record = record
        self.line_log: list[tuple[str, bytes]] = []  # (node: "tablet" or a seat, bytes as sent)
        self.baud = baud
        self.byte_time = BITS_PER_BYTE / baud
        self.corrupt = corrupt
        self.drop = drop
        self.rng = random.Random(seed)
        self.tablet_port = ""
        self.box_ports: dict[str, str] = {}
        self._fds: list[int] = []
        self._slaves: dict[str, int] = {}
        self._nodes: dict[int, str] = {}
        self._queue: deque[list] = deque()  # [due, bytearray, sender_fd]
        self._line_free = 0.0
        self._last_sender = -1
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._wake_r, self._wake_w = -1, -1
        self._thread: threading.Thread | None = None
        self.counts = {"relayed": 0, "corrupted": 0, "dropped": 0, "collisions": 0, "overflow": 0}
        self.relay_errors = 0

    def start(self) -> SimBus:
        m, sl = self._pty()
        self.tablet_port = os.ttyname(sl)
        self._nodes[m] = "tablet"
        for s in self.seats:
            m, sl = self._pty()
            self.box_ports[s] = os.ttyname(sl)
            self._slaves[s] = sl
            self._nodes[m] = s
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        self._thread = threading.Thread(target=self._run, name="simbus", daemon=True)
        self._thread.start()
        return self

    def _pty(self) -> tuple[int, int]:
        return _raw_pty(self._fds)

    def close(self) -> None:
        SimLink.close(self)  # type: ignore[arg-type]

    def __enter__(self) -> SimBus:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def set_faults(self, corrupt: float | None = None, drop: float | None = None) -> None:
        with self._lock:
            if corrupt is not None:
                self.corrupt = corrupt
            if drop is not None:
                self.drop = drop

    def flush_box(self, seat: str) -> None:
        termios.tcflush(self._slaves[seat], termios.TCIFLUSH)

    def stats(self) -> dict[str, int]:
        with self._lock:
            return dict(self.counts)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._loop()
                return
            except Exception:
                self.relay_errors += 1
                traceback.print_exc()

    def _loop(self) -> None:
        srcs = list(self._nodes) + [self._wake_r]
        while not self._stop.is_set():
            now = time.monotonic()
            due = self._queue[0][0] if self._queue else now + 0.05
            ready, _, _ = select.select(srcs, [], [], max(0.0, min(due - now, 0.05)))
            now = time.monotonic()
            for fd in ready:
                if fd == self._wake_r:
                    os.read(fd, 64)
                    continue
                try:
                    data = os.read(fd, 4096)
                except (BlockingIOError, InterruptedError):
                    continue
                if data:
                    self._accept(fd, data, now)
            self._deliver(time.monotonic())

    def line_frames(self) -> list[tuple[str, bytes]]:
        """With `record`: each whole frame put on the line, (node, payload with its CRC), in the
        order the line took each frame's last byte; bytes that make no frame are left out."""
        from protocol.framing import Deframer

        deframers: dict[str, Deframer] = {}
        out: list[tuple[str, bytes]] = []
        with self._lock:
            log = list(self.line_log)
        for node, data in log:
            d = deframers.setdefault(node, Deframer())
            i = 0
            while i < len(data):
                i = d.feed(data, i, len(data))
                if d.length:
                    out.append((node, bytes(d.payload[:d.length])))
        return out

    def _accept(self, fd: int, data: bytes, now: float) -> None:
        with self._lock:
            c = self.counts
            rng = self.rng
            if self.record:
                self.line_log.append((self._nodes[fd], bytes(data)))
            if now < self._line_free and self._last_sender not in (fd, -1):
                c["collisions"] += 1
                for item in self._queue:  # the other sender's bytes still on the line
                    item[1] = bytearray(rng.randrange(1, 256) for _ in item[1])
                data = bytes(rng.randrange(1, 256) for _ in data)
            t = max(now, self._line_free)
            out = bytearray()
            for b in data:
                t += self.byte_time
                if self.drop and rng.random() < self.drop:
                    c["dropped"] += 1
                    continue
                if self.corrupt and rng.random() < self.corrupt:
                    b ^= rng.randrange(1, 256)
                    c["corrupted"] += 1
                out.append(b)
                c["relayed"] += 1
                if len(out) >= CHUNK:
                    self._queue.append([t, out, fd])
                    out = bytearray()
            if out:
                self._queue.append([t, out, fd])
            self._line_free = t
            self._last_sender = fd

    def _deliver(self, now: float) -> None:
        with self._lock:
            q = self._queue
            while q and q[0][0] <= now:
                _, chunk, sender = q.popleft()
                for dst in self._nodes:
                    if dst == sender:
                        continue
                    left = bytes(chunk)
                    for _ in range(20):
                        try:
                            left = left[os.write(dst, left):]
                        except (BlockingIOError, InterruptedError):
                            pass
                        except OSError:
                            break
                        if not left:
                            break
                        time.sleep(0.0002)
                    self.counts["overflow"] += len(left)


class EndpointBox:
    """A box made of the protocol's own `BoxEndpoint` on CPython, on a box-side port: the
    protocol's reference peer for LinkMaster tests and benches (the real firmware is
    hardware/sim/boxes.py). A thread runs the endpoint; `submit` queues an event; `states`
    records (time.monotonic(), view) for every STATE applied."""

    def __init__(self, seat: str, path: str, bus: bool = False):
        self.seat = seat
        self.path = path
        self.bus = bus
        self._make = lambda: BoxEndpoint(seat, bus=bus, now=_ms())
        self.ep = self._make()
        self.fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        tty.setraw(self.fd)
        self.lock = threading.Lock()
        self.states: list[tuple[float, dict]] = []
        self.errors = 0
        self._stop = threading.Event()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._thread = threading.Thread(target=self._run, name="box-" + seat, daemon=True)
        self._thread.start()

    def submit(self, kind: int, arg: int) -> int:
        with self.lock:
            seq = self.ep.submit(kind, arg, _ms())
        self._wake()
        return seq

    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"x")
        except OSError:
            pass

    def reboot(self) -> None:
        """RAM lost: a new epoch, an empty queue, no state (what a power cycle does)."""
        with self.lock:
            self.ep = self._make()
            self.states.clear()
            termios.tcflush(self.fd, termios.TCIFLUSH)

    @property
    def view(self) -> dict | None:
        with self.lock:
            return box_state(self.ep)

    def pending(self) -> int:
        with self.lock:
            return self.ep.q_count

    def linked(self) -> bool:
        with self.lock:
            return self.ep.linked(_ms())

    def close(self) -> None:
        self._stop.set()
        self._wake()
        self._thread.join(timeout=2)
        for fd in (self.fd, self._wake_r, self._wake_w):
            os.close(fd)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._step()
            except Exception:
                self.errors += 1
                traceback.print_exc()
                time.sleep(0.005)

    def _step(self) -> None:
        with self.lock:
            now = _ms()
            while True:
                f = self.ep.output(now)
                if f is None:
                    break
                try:
                    os.write(self.fd, bytes(f))
                except OSError:
                    break
        r, _, _ = select.select([self.fd, self._wake_r], [], [], 0.005)
        if self._wake_r in r:
            try:
                os.read(self._wake_r, 64)
            except OSError:
                pass
        if self.fd in r:
            try:
                data = os.read(self.fd, 4096)
            except OSError:
                return
            with self.lock:
                before = self.ep.state_seq
                self.ep.receive(data, _ms())
                if self.ep.state_seq != before:
                    self.states.append((time.monotonic(), box_state(self.ep)))


def _ms() -> int:
    return int(time.monotonic() * 1000)


def main(argv: list[str]) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m hardware.sim.link", description=__doc__.split("\n")[0])
    ap.add_argument("--baud", type=int, default=115200)
    ap.add_argument("--corrupt", type=float, default=0.0, help="per-byte corruption probability")
    ap.add_argument("--drop", type=float, default=0.0, help="per-byte drop probability")
    ap.add_argument("--seats", default="".join(SEATS))
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--marks", default=None,
                    help="append 'TIME WHAT SEAT' lines (time.monotonic()) for a bench's breakdown")
    ap.add_argument("--nice", type=int, default=0,
                    help="the relay's nice value; negative (needs the privilege) puts it ahead of "
                         "the boxes and the app, as a UART's interrupt handler is")
    a = ap.parse_args(argv)
    if a.nice:
        # set before the relay thread starts: a Linux thread takes its creator's nice value
        try:
            os.setpriority(os.PRIO_PROCESS, 0, a.nice)
        except OSError as exc:
            print(f"relay: nice {a.nice} not set ({exc}); it runs at normal priority", file=sys.stderr)
    link = SimLink(a.seats, a.baud, a.corrupt, a.drop, a.seed)
    if a.marks:
        marks = open(a.marks, "a", buffering=1)

        def mark(t: float, what: str, seat: str) -> None:
            marks.write(f"{t:.6f} {what} {seat}\n")

        link.on_mark = mark
    with link:
        print(json.dumps({"tablet": link.tablet_ports, "box": link.box_ports, "baud": a.baud}),
              flush=True)
        for line in sys.stdin:
            w = line.split()
            if not w:
                continue
            try:
                if w[0] == "pull":
                    link.pull(w[1], float(w[2]))
                elif w[0] == "faults":
                    link.set_faults(float(w[1]), float(w[2]))
                elif w[0] == "flush":
                    link.flush_box(w[1])
                elif w[0] == "stats":
                    print(json.dumps(link.stats()), flush=True)
                elif w[0] == "quit":
                    break
                else:
                    print(json.dumps({"error": "unknown command " + w[0]}), flush=True)
            except (IndexError, ValueError, KeyError) as e:
                print(json.dumps({"error": "bad command: " + str(e)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
