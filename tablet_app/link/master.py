"""LinkMaster: the tablet's link to the four boxes (docs/interfaces.md section 5).

One background thread owns the serial ports: it feeds received bytes to each seat's
`protocol.tablet_endpoint.TabletEndpoint`, writes what the endpoints want sent (acks, STATEs,
retransmissions, heartbeats) and queues delivered events for `poll()`. The application thread
only calls `poll`, `send_state` and `connected`. A port that fails (a USB-CDC box unplugged) is
closed and re-opened every second; the protocol resynchronises on its own.

Seats given the SAME port path share an RS-485 bus (SPEC.md section 1): the thread is then bus
master on that port and grants the seats one at a time, waiting for the reply (or a timeout)
before addressing the next: every other grant to the seat in turn, the rest in rotation
(SPEC.md section 1, "Poll schedule"); boxes on it must run `BoxEndpoint(..., bus=True)`.
"""
from __future__ import annotations

import logging
import math
import os
import select
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import serial

from protocol import messages as M
from protocol.calls import SEATS
from protocol.clock import ticks_ms
from protocol.framing import Deframer
from protocol.tablet_endpoint import TabletEndpoint
from tablet_app.link.box_words import box_message
from tablet_app.link.latency import Latency, set_low_latency

log = logging.getLogger(__name__)

TICK_S = 0.005      # the thread wakes at least this often for retransmit/heartbeat timers
REOPEN_S = 1.0
# Bus: after a grant's last byte, the box has 5 ms to start (SPEC.md section 1) and its longest
# reply (HELLO, 16 bytes) takes 1.4 ms at 115200; beyond that the seat is silent this round.
BUS_REPLY_S = 0.0075
BUS_ABSENT_S = 0.1
BUS_APP_S = 0.003
# Bus: beyond a USB bridge, a box's reply reaches us up to the bridge's latency timer after its
# last byte (plus a USB frame and our read): a reply arriving that long after a window closed
# unanswered may still be the late answer to that grant, not to the one we wait on now.
BUS_USB_S = 0.002


@dataclass(frozen=True)
class BoxEvent:
    """One event from a box, delivered once and in order per box. (seat, epoch, seq) is unique:
    the journal may use it to drop a duplicate across a tablet restart (SPEC.md section 4)."""
    seat: str
    kind: str            # call, stop, alert, undo, review, td, hello
    call: str | None     # for kind == "call"
    box_ms: int | None   # the box's millisecond tick when the key was confirmed
    seq: int
    epoch: int
    index: int | None = None   # alert/undo: the wire's index (None: the last one; modulo 255, messages.index_call)
    t: float = 0.0             # tablet time.monotonic() at delivery


class WallClock:
    """The link's time: monotonic seconds, the protocol's ms ticks, sleep. LinkMaster(clock=...)
    takes another, e.g. an emulated chip's (hardware/emu/rig.py), so that its timers run at the
    boxes' own speed.

    `tick_s`: the longest the link thread waits for input before it looks at its timers again.
    None for a clock that stands while the thread waits and whose owner wakes the link when the
    time it will next act comes (`settled()`, `wake()`: hardware/emu/lockstep.py): a look on a
    timer of the machine's would cost the link time on that clock for every few ms the machine
    took, not for anything that happened."""

    tick_s: float | None = TICK_S
    monotonic = staticmethod(time.monotonic)
    sleep = staticmethod(time.sleep)
    ticks_ms = staticmethod(ticks_ms)


def open_serial(path: str, baud: int) -> Any:
    """A box's serial port as LinkMaster opens it by default: pyserial, non-blocking reads."""
    return serial.Serial(path, baud, timeout=0, write_timeout=0.5)


class _Port:
    """One serial port: one seat (point-to-point) or several (an RS-485 bus)."""

    def __init__(self, path: str, baud: int, eps: dict[str, TabletEndpoint], clock: Any,
                 opener: Callable[[str, int], Any] = open_serial):
        self.clock = clock
        self.opener = opener
        self.path = path
        self.baud = baud
        self.eps = eps
        self.bus = len(eps) > 1
        for ep in eps.values():
            ep.bus = self.bus  # a STATE is re-sent on a lacking reply, not by a timer
        self.order = list(eps)
        self.turn = 0
        self.waiting: str | None = None   # bus: the seat granted, whose reply we wait for
        self.wait_until = 0.0
        self.line_free = 0.0              # bus: when our queued bytes will have left the wire
        self.last_grant: dict[str, float] = {}
        # bus: per seat, when the windows of its grants that closed unanswered closed (the box let
        # them pass, or its reply is still in the USB bridge)
        self.unanswered: dict[str, deque[float]] = {s: deque() for s in eps}
        self.last_seat: str | None = None  # bus: the seat granted last
        self.grants: dict[str, int] = dict.fromkeys(eps, 0)  # bus: grants sent per seat
        self.hold_until = 0.0
        self.deframer = Deframer()        # bus: one byte stream for all its seats
        self.ser: serial.Serial | None = None
        self.next_open = 0.0
        self.errors = 0
        self.latency: Latency | None = None  # what the last open found of the bridge's timer

    def open(self) -> bool:
        try:
            self.ser = self.opener(self.path, self.baud)
            # a USB bridge holds the boxes' bytes up to its latency timer (16 ms by default):
            # 1 ms, at every open, as the driver forgets it on each plug-in (latency.py); a port
            # that models its own bridge (a test rig's) says what its timer is
            own = getattr(self.ser, "latency", None)
            self.latency = own if isinstance(own, Latency) else set_low_latency(self.ser, self.path)
            return True
        except (serial.SerialException, OSError):
            self.ser = None
            self.errors += 1
            self.next_open = self.clock.monotonic() + REOPEN_S
            return False

    def late_reply_s(self) -> float:
        """How long after a reply window closed the reply to that grant may still arrive."""
        timer = self.latency.timer_ms if self.latency is not None and self.latency.timer_ms else 0
        return timer / 1000 + BUS_USB_S

    def fail(self) -> None:
        self.errors += 1
        try:
            if self.ser is not None:
                self.ser.close()
        except (serial.SerialException, OSError):
            pass
        self.ser = None
        self.waiting = None
        self.next_open = self.clock.monotonic() + REOPEN_S


def _box_lang(lang: str | None) -> str | None:
    if lang is not None and lang not in M.LANGS[1:]:
        raise ValueError(f"no box language {lang!r}: expected one of {', '.join(M.LANGS[1:])}")
    return lang


class LinkMaster:
    """`LinkMaster({"N": "/dev/ttyACM0", ...})`; `poll(timeout)` -> list of BoxEvent;
    `send_state(seat, view)`; `connected(seat)`; `close()` (also a context manager).

    By default a box event is acknowledged as soon as its frame arrives. With
    `ack_on_commit=True` it is acknowledged only by `commit()`, which the caller invokes once the
    events `poll` returned are journalled (closes the crash window docs/tablet.md describes).

    `open_port(path, baud)` opens a port (default `open_serial`: pyserial); a test rig gives
    its own, e.g. one that stamps each write with the emulated table's clock
    (hardware/emu/harness.py)."""

    def __init__(self, ports: dict[str, str], baud: int = 115200, epoch: int = 0,
                 ack_on_commit: bool = False, clock: Any = WallClock,
                 open_port: Callable[[str, int], Any] = open_serial, lang: str | None = None):
        """lang: the players' language on the boxes' displays ("en", "sv", "da"; None: the
        box's own), sent in every view from protocol version 3 on (SPEC.md section 3)."""
        self.clock = clock
        self.lang = _box_lang(lang)
        if not ports:
            raise ValueError("LinkMaster needs at least one seat's port")
        for seat in ports:
            if seat not in SEATS:
                raise ValueError(f"unknown seat {seat!r}: expected N, E, S or W")
        now = self.clock.ticks_ms()
        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)
        self._events: deque[BoxEvent] = deque()
        # what the boxes said about the link (SPEC.md sections 3b, 3c): NAKs with a reason, CAPS,
        # a box whose protocol versions this tablet does not speak; see reports()
        self._reports: deque[dict] = deque(maxlen=200)
        self.ack_on_commit = ack_on_commit
        self._eps = {s: TabletEndpoint(s, epoch, now, hold_acks=ack_on_commit) for s in ports}
        self._handed: dict[str, tuple[int, int]] = {}  # seat -> (box epoch, seq after last handed)
        self.epoch = next(iter(self._eps.values())).epoch
        for ep in self._eps.values():
            ep.epoch = self.epoch  # one tablet, one epoch
        self._ports: dict[str, _Port] = {}
        for path in dict.fromkeys(ports.values()):
            eps = {s: self._eps[s] for s, p in ports.items() if p == path}
            self._ports[path] = _Port(path, baud, eps, clock, open_port)
        self._seat_port = {s: self._ports[p] for s, p in ports.items()}
        self.byte_s = 10 / baud
        self._views: dict[str, dict] = {}
        # Called (on the link thread) once every box in session has acknowledged the views sent
        # to it: the app redraws its own screen then, when the boxes have what they need.
        self.on_states_acked: Callable[[], None] | None = None
        self._acks_awaited = False
        self.thread_errors = 0
        self._stop = threading.Event()
        self._selecting = False  # the link thread waits in select (settled())
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        for p in self._ports.values():
            p.open()
        self._thread = threading.Thread(target=self._run, name="linkmaster", daemon=True)
        self._thread.start()

    # --- application API ----------------------------------------------------------------------

    def poll(self, timeout: float = 0.0) -> list[BoxEvent]:
        """Events delivered since the last poll (waits up to `timeout` s for the first)."""
        with self._cond:
            if not self._events and timeout > 0:
                self._cond.wait(timeout)
            out = list(self._events)
            self._events.clear()
            for e in out:
                if e.kind != "hello":
                    self._handed[e.seat] = (e.epoch, (e.seq + 1) & 0xFF)
            return out

    def wait(self, timeout: float) -> bool:
        """Wait up to `timeout` s until an event is there for `poll` (without taking it), as an
        application woken by the link thread does; True when one is."""
        with self._cond:
            if not self._events:
                self._cond.wait(timeout)
            return bool(self._events)

    def commit(self) -> None:
        """With `ack_on_commit=True`: acknowledge every event `poll` has returned so far. Call it
        after those events are durable (journal committed); until then the boxes keep them and
        re-send them, so a tablet crash in between loses nothing (the journal drops the re-sent
        ones it already has by (seat, epoch, seq, box_ms)). A no-op without ack_on_commit.
        `send_states(views, commit=True)` does the same together with the next views."""
        if not self.ack_on_commit:
            return
        with self._lock:
            self._release()
        self._wake()

    def _release(self) -> None:
        if not self.ack_on_commit:
            return
        for seat, (epoch, upto) in self._handed.items():
            ep = self._eps[seat]
            if ep.session and ep.box_epoch == epoch:
                ep.release(upto)

    def send_states(self, views: dict[str, dict], commit: bool = False) -> None:
        """Push views to several boxes at once and, with `commit=True`, acknowledge what `poll`
        returned as `commit()` does, all under one hold of the lock: the link thread cannot slip
        a bare acknowledgement in before the new STATE, so the acknowledgement rides on each
        box's STATE frame (every frame carries it) and the box that called redraws once, not
        twice, with one frame less ahead of its STATE on its line. ValueError as `send_state`."""
        eps = {seat: self._ep(seat) for seat in views}
        try:
            with self._lock:
                if commit:
                    self._release()
                for seat, view in views.items():
                    eps[seat].set_view(self._in_lang(view))
                    self._views[seat] = view
                if views:
                    self._acks_awaited = True
        finally:
            self._wake()

    def send_state(self, seat: str, view: dict) -> None:
        """Push a complete view to one box (SPEC.md section 3); re-sent until acknowledged and
        again, by itself, to a box that reboots. ValueError for a view that cannot be encoded."""
        ep = self._ep(seat)
        with self._lock:
            ep.set_view(self._in_lang(view))
            self._views[seat] = view
            self._acks_awaited = True
        self._wake()

    def set_lang(self, lang: str | None) -> None:
        """The players' language on every box from now on ("en", "sv", "da"; None: the box's
        own): the views already sent go again in it. A box of protocol version 1 or 2 has no
        language (SPEC.md section 3) and shows its own. ValueError for a language the protocol
        has no code for."""
        code = _box_lang(lang)
        with self._lock:
            if code == self.lang:
                return
            self.lang = code
            for seat, view in self._views.items():
                self._eps[seat].set_view(self._in_lang(view))
            if self._views:
                self._acks_awaited = True
        self._wake()

    def _in_lang(self, view: dict) -> dict:
        """The view with the table's language (unless it names one itself) and its message in
        that language, in the box's 12 columns (box_words)."""
        lang = view.get("lang", self.lang)
        if lang is None:
            return view
        return {**view, "lang": lang, "message": box_message(view.get("message") or "", lang)}

    def connected(self, seat: str) -> bool:
        ep = self._ep(seat)
        with self._lock:
            return self._seat_port[seat].ser is not None and ep.connected(self.clock.ticks_ms())

    def state_acked(self, seat: str) -> bool:
        """Whether the box has acknowledged the latest view sent to it."""
        ep = self._ep(seat)
        with self._lock:
            return ep.state_acked()

    def reports(self) -> list[dict]:
        """What the boxes reported since the last call, oldest first, for the director's log:
        {"kind": "nak", "seat", "reason", "of_type", "of_seq", "detail"} (a frame the box could
        not use), {"kind": "caps", "seat", "vendor", "name", "fw", "lines", "cols", "suits", ...}
        and {"kind": "version", "seat", "ver_min", "ver_max", "text"} (a box refused). Each is
        also logged. At most the last 200 are kept."""
        with self._lock:
            out = list(self._reports)
            self._reports.clear()
            return out

    def caps(self, seat: str) -> dict | None:
        """The box's capabilities (its CAPS, SPEC.md section 3c), None for a version 1 box or
        before they arrived."""
        ep = self._ep(seat)
        with self._lock:
            return dict(ep.caps) if ep.caps else None

    def stats(self) -> dict[str, dict[str, int]]:
        with self._lock:
            out = {}
            for s, ep in self._eps.items():
                p = self._seat_port[s]
                d = p.deframer if p.bus else ep.deframer
                out[s] = {"frames": d.frames, "bad_crc": d.bad_crc, "bad_cobs": d.bad_cobs,
                          "bad_size": d.bad_size, "duplicates": ep.duplicates, "gaps": ep.gaps,
                          "sessions": ep.sessions, "port_errors": p.errors,
                          "box_naks": ep.box_naks, "grants": p.grants.get(s, 0)}
            return out

    def latency(self) -> dict[str, Latency | None]:
        """Per port path: the USB bridge's latency timer as the last open found and set it."""
        return {path: p.latency for path, p in self._ports.items()}

    def quiet(self) -> bool:
        """Nothing received that the application has not taken, and nothing the link would
        write now without waiting for the boxes: the tablet has finished its turn. A test rig
        that stops the boxes' clock for the tablet's turn waits for this (hardware/emu/rig.py).
        Point to point every due frame goes at once (a STATE, WELCOME, NAK, ack); on a bus only
        due STATEs do, while no reply is awaited: a WELCOME or NAK is a grant and waits for its
        seat's slot, an ack for the next grant, all of them for the boxes' time to pass."""
        with self._lock:
            if self._events:
                return False
            for p in self._ports.values():
                if p.ser is None:
                    continue  # nothing goes out of a closed port
                for ep in p.eps.values():
                    due = ep.session and ep.state_unacked and not ep.state_sent
                    if p.bus:
                        # _grant's own test: a STATE due before its seat's WELCOME or NAK waits
                        if due and not ep.welcome_due and not ep.nak_reason and p.waiting is None:
                            return False
                    elif due or ep.nak_reason or ep.welcome_due or ep.ack_due:
                        return False
            return True

    def settled(self) -> float | None:
        """For a rig that runs the link on a simulated clock and stops that clock while the
        tablet works (hardware/emu/harness.py, lockstep): None while the link has work in hand
        (its thread is not waiting in select, something is there to read or woke it, an event
        waits for `poll`, a frame is due at the clock's time now: its thread is woken to send
        it); else the clock time at which it will next write of its own accord, with nothing
        read or asked meanwhile (math.inf: never). Unlike `quiet()`, a grant or reply window on
        a bus counts."""
        with self._lock:
            if not self._selecting or self._events:
                return None
            fds = [p.ser.fileno() for p in self._ports.values() if p.ser is not None]
            try:
                ready, _, _ = select.select(fds + [self._wake_r], [], [], 0)
            except (OSError, ValueError):
                return None
            if ready:
                return None
            t = self.clock.monotonic()
            now = self.clock.ticks_ms()
            due = math.inf
            for p in self._ports.values():
                due = min(due, self._due(p, now, t))
            if due <= t:
                # the clock passed it while another thread worked: on a clock that stands while
                # the thread waits (WallClock.tick_s None) nothing else would make it look
                self._wake()
                return None
            return due

    def _due(self, p: _Port, now: int, t: float) -> float:
        """When the port's next frame is due (clock seconds; `t` or earlier: now), as
        `_flush_output` and `_grant` decide it."""
        if p.ser is None:
            return p.next_open
        if not p.bus:
            waits = [w for w in (ep.next_output_ms(now) for ep in p.eps.values()) if w >= 0]
            return t + min(waits) / 1000 if waits else math.inf
        if p.waiting is not None:
            return p.wait_until  # the reply window closes (at once if it has)
        for ep in p.eps.values():
            if (ep.session and ep.state_unacked and not ep.state_sent and not ep.welcome_due
                    and not ep.nak_reason):
                return t
        if t < p.hold_until:
            return p.hold_until
        if any(self._grantable(p, s, now, t) for s in p.order):
            return t
        return min(p.last_grant.get(s, 0.0) for s in p.order) + BUS_ABSENT_S

    @property
    def thread(self) -> threading.Thread:
        """The link's I/O thread (a rig that counts the tablet's CPU time counts it)."""
        return self._thread

    def wake(self) -> None:
        """Wake the link thread to look at its clock now (a rig whose clock jumped)."""
        self._wake()

    def close(self) -> None:
        self._stop.set()
        self._wake()
        self._thread.join(timeout=2)
        for p in self._ports.values():
            if p.ser is not None:
                try:
                    p.ser.close()
                except (serial.SerialException, OSError):
                    pass
        for fd in (self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass

    def __enter__(self) -> LinkMaster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _ep(self, seat: str) -> TabletEndpoint:
        try:
            return self._eps[seat]
        except KeyError:
            raise ValueError(f"no box port for seat {seat!r}") from None

    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"x")
        except (BlockingIOError, OSError):
            pass

    # --- the I/O thread -----------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._step()
            except Exception:  # the link must outlive a bug in one frame's handling
                self.thread_errors += 1
                log.exception("LinkMaster I/O step failed; continuing")
                self.clock.sleep(TICK_S)

    def _step(self) -> None:
        self._flush_output()
        fds = {p.ser.fileno(): p for p in self._ports.values() if p.ser is not None}
        timeout = self._select_timeout()
        self._selecting = True
        try:
            ready, _, _ = select.select(list(fds) + [self._wake_r], [], [], timeout)
        except (OSError, ValueError):
            ready = []
            for p in fds.values():
                p.fail()
        finally:
            self._selecting = False
        for fd in ready:
            if fd == self._wake_r:
                try:
                    os.read(fd, 256)
                except OSError:
                    pass
                continue
            port = fds[fd]
            try:
                data = os.read(fd, 4096)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:
                port.fail()
                continue
            if data:
                self._received(port, data)
        self._reopen()

    def _select_timeout(self) -> float | None:
        """How long the thread may wait for input before a timer of its own wants it: at most
        the clock's tick (WallClock.tick_s; None: until woken), less up to a bus port's open
        reply window or hold for the application's STATEs. A hold that has passed is none: with
        no STATE after it (an event the application answered with no new view) it stands until
        the next one, and as a wait of 0 it had the thread turn without a pause till then."""
        timeout: float | None = getattr(self.clock, "tick_s", TICK_S)
        if timeout is None:
            return None
        t = self.clock.monotonic()
        for p in self._ports.values():
            if p.ser is None:
                continue
            if p.waiting is not None:
                timeout = min(timeout, max(0.0, p.wait_until - t))
            if p.hold_until > t:
                timeout = min(timeout, p.hold_until - t)
        return timeout

    def _received(self, port: _Port, data: bytes) -> None:
        with self._cond:
            now = self.clock.ticks_ms()
            if port.bus:
                self._received_bus(port, data, now)
            else:
                for ep in port.eps.values():
                    ep.receive(data, now)
            evs = []
            for ep in port.eps.values():
                evs += ep.take_events()
                for r in ep.take_reports():
                    self._report(r)
            acked = self._acks_awaited and all(not ep.session or not ep.state_unacked
                                               for ep in self._eps.values())
            if acked:
                self._acks_awaited = False
            if evs:
                t = self.clock.monotonic()
                for e in evs:
                    self._events.append(BoxEvent(e["seat"], e["kind"], e["call"], e["box_ms"], e["seq"],
                                                 e["epoch"], e["index"], t))
                self._cond.notify_all()
        if acked and self.on_states_acked is not None:
            self.on_states_acked()

    def _report(self, r: dict) -> None:
        if r["kind"] == "nak":
            log.warning("box %s could not use a frame of type 0x%02x seq %d: %s (detail %d)",
                        r["seat"], r["of_type"], r["of_seq"], r["reason"], r["detail"])
        elif r["kind"] == "version":
            log.error("%s", r["text"])
        else:
            log.info("box %s: %s", r["seat"], r)
        self._reports.append(r)

    def _received_bus(self, port: _Port, data: bytes, now: int) -> None:
        d = port.deframer
        i, n = 0, len(data)
        while i < n:
            i = d.feed(data, i, n)
            if not d.length:
                continue
            p = d.payload
            if not p[0] & M.FROM_BOX:
                continue  # our own frame echoed by a transceiver that hears itself
            seat = SEATS[p[0] & 3]
            ep = port.eps.get(seat)
            if ep is not None:
                ep.frame(p, d.length, now)
            if self._late_reply(port, seat):
                pass  # perhaps the answer to an earlier grant, held in the bridge: ends no window
            elif seat == port.waiting:
                port.waiting = None  # the reply came: the next seat may be granted at once
            if ep is not None and ep.events:
                # give the application a moment to answer with new STATEs before granting
                # anyone else: they then go out first instead of after another round trip
                port.hold_until = self.clock.monotonic() + BUS_APP_S

    def _late_reply(self, port: _Port, seat: str) -> bool:
        """A frame from `seat` arrives: whether it may answer a grant whose window closed
        unanswered (a box answers each grant at most once, so it stands for the oldest such
        grant whose reply can still come; SPEC.md section 1)."""
        late = port.unanswered.get(seat)
        if not late:
            return False
        t = self.clock.monotonic()
        while late and t - late[0] > port.late_reply_s():
            late.popleft()
        if not late:
            return False
        late.popleft()
        return True

    def _flush_output(self) -> None:
        with self._lock:
            now = self.clock.ticks_ms()
            for p in self._ports.values():
                if p.ser is None:
                    continue
                if p.bus:
                    self._grant(p, now)
                    continue
                for ep in p.eps.values():
                    while True:
                        f = ep.output(now)
                        if f is None:
                            break
                        if not self._write(p, f):
                            break

    def _grant(self, p: _Port, now: int) -> None:
        """Bus master: send due STATEs back to back (they are not grants), otherwise address the
        next seat with a grant and wait for its reply (or the timeout) before the next one."""
        t = self.clock.monotonic()
        if p.waiting is not None:
            if t < p.wait_until:
                return
            late = p.unanswered[p.waiting]  # let pass, or its reply is late
            while late and p.wait_until - late[0] > p.late_reply_s():
                late.popleft()
            late.append(p.wait_until)
        p.waiting = None
        k = len(p.order)
        for j in range(k):
            cand = p.order[(p.turn + j) % k]
            ep = p.eps[cand]
            if (ep.session and ep.state_unacked and not ep.state_sent and not ep.welcome_due
                    and not ep.nak_reason):
                if not self._bus_write(p, ep.output(now, True), t):
                    return
                if ep.last_type != M.STATE:  # defensive: anything else is a grant
                    p.waiting = cand
                    p.wait_until = p.line_free + BUS_REPLY_S
                    return
                p.hold_until = 0.0
        if t < p.hold_until:
            return
        seat = self._next_seat(p, now, t)
        if seat is None:
            return
        ep = p.eps[seat]
        p.last_seat = seat
        p.last_grant[seat] = t
        p.grants[seat] += 1
        f = ep.output(now, True)
        if self._bus_write(p, f, t) and ep.last_type != M.STATE:
            p.waiting = seat
            p.wait_until = p.line_free + BUS_REPLY_S

    def _next_seat(self, p: _Port, now: int, t: float) -> str | None:
        """Whose grant is next (SPEC.md section 1, "Poll schedule"): every other grant goes to
        the seat in turn (the box that will call, as the latest view says); the others take
        the slots between, in rotation, so any box is granted at least once in every
        2 * (seats - 1) grants (a TD call, an undo, a call out of turn). A seat whose box is silent (absent, unplugged) is granted only every
        BUS_ABSENT_S, so a missing box does not add its reply timeout to every round."""
        def grantable(seat: str) -> bool:
            return self._grantable(p, seat, now, t)

        view = self._views.get(p.order[0])
        pri = view.get("turn") if view else None
        if pri not in p.eps:
            pri = None
        if pri is not None and pri != p.last_seat and grantable(pri):
            return pri
        k = len(p.order)
        for _ in range(k):
            seat = p.order[p.turn % k]
            p.turn += 1
            if seat != pri and grantable(seat):
                return seat
        return pri if pri is not None and grantable(pri) else None

    @staticmethod
    def _grantable(p: _Port, seat: str, now: int, t: float) -> bool:
        # (the same sum as _due's: a clock that stands exactly at that due time, as a test rig's
        # may, then grants, where t - last >= BUS_ABSENT_S could be false by a rounding)
        return p.eps[seat].connected(now) or t >= p.last_grant.get(seat, 0.0) + BUS_ABSENT_S

    def _bus_write(self, p: _Port, f: memoryview, t: float) -> bool:
        p.line_free = max(t, p.line_free) + len(f) * self.byte_s
        return self._write(p, f)

    def _write(self, p: _Port, f: memoryview) -> bool:
        if p.ser is None:  # closed after a failure: reopened by the poll loop
            p.fail()
            return False
        try:
            p.ser.write(bytes(f))
            return True
        except (serial.SerialException, OSError):
            p.fail()
            return False

    def _reopen(self) -> None:
        t = self.clock.monotonic()
        for p in self._ports.values():
            if p.ser is None and t >= p.next_open:
                with self._lock:
                    p.open()
