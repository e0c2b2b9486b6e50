"""Where the time of one call goes on the real app path (bench/app_latency_child.py --stages).

Wraps, in the bench's process, the points a call passes on its way (the relay's own marks come
from its process, `python -m hardware.sim.link --marks`): the relay reading the
box's frame (the box has handled the key), the tablet's link thread reading it, the waiter
thread handing it to the runner, the journal's transaction, the acknowledgement, each STATE
frame written and relayed, and each box's new screen seen by the watcher. Also the Kivy main
thread's busy spells (everything but its clock's sleep), which compete for the GIL. Every time is
`time.monotonic()`; the report gives each stage's p50 / p99 in ms after the confirm key.

BENCH_STAGES_DUMP=FILE also writes every call's record to FILE (JSON), with its timeline: each mark
and each Kivy span in ms after the confirm key, to see what the slowest calls waited behind.
"""
from __future__ import annotations

import contextlib
import gc
import json
import os
import threading
import time
from collections.abc import Iterator
from typing import Any

from shared_rules.calls import SEATS  # types' letters; the baseline tree (bench_tablet.py) has only calls


class Stages:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.marks: list[tuple[float, str, str]] = []  # (t, what, seat)
        self.busy: list[tuple[float, float]] = []      # Kivy main thread, outside its sleep
        self.spans: list[tuple[float, float, str]] = []  # named spans of the Kivy main thread
        self.calls: list[dict[str, Any]] = []
        self.on = False

    def mark(self, what: str, seat: str = "") -> None:
        if self.on:
            t = time.monotonic()
            with self.lock:
                self.marks.append((t, what, seat))

    # --- hooks --------------------------------------------------------------------------------

    def install(self, link: Any, master: Any, ctl: Any, runner: Any, marks_file: str | None = None) -> None:
        """link: an in-process hardware.sim.link.SimLink, or None with `marks_file`, the relay
        process's marks (`python -m hardware.sim.link --marks FILE`; time.monotonic() is the
        same clock in every process)."""
        from protocol import messages as M

        st = self
        self.marks_file = marks_file
        self._marks_pos = 0
        if link is not None:
            link.on_mark = lambda t, what, seat: st._relay_mark(t, what, seat)

        orig_received = master._received

        def received(port: Any, data: bytes) -> None:
            before = len(master._events)
            orig_received(port, data)
            if len(master._events) > before:
                st.mark("lm_event", next(iter(port.eps)))

        master._received = received
        seat_of = {p.path: next(iter(p.eps)) for p in master._ports.values()}
        orig_write = master._write

        def write(p: Any, f: Any) -> bool:
            seat = seat_of[p.path]
            kind = "state" if p.eps[seat].last_type == M.STATE else "other"
            ok = orig_write(p, f)
            st.mark(f"tx_{kind}", seat)
            return ok

        master._write = write
        orig_commit = master.commit

        def commit() -> None:
            st.mark("commit")
            orig_commit()

        master.commit = commit
        orig_send_states = getattr(master, "send_states", None)
        if orig_send_states is not None:
            def send_states(views: dict[str, Any], commit: bool = False) -> None:
                if commit:
                    st.mark("commit")
                orig_send_states(views, commit=commit)

            master.send_states = send_states
        orig_handle = runner.handle

        def handle(events: list[Any]) -> int:
            if events:
                st.mark("handle")
            n = orig_handle(events)
            if events:
                st.mark("handle_end")
            return n

        runner.handle = handle
        journal = ctl.journal
        orig_tx = journal.transaction

        @contextlib.contextmanager
        def transaction() -> Iterator[Any]:
            outer = not journal._depth
            with orig_tx() as conn:
                yield conn
                if outer:
                    st.mark("tx_body_end")
            if outer:
                st.mark("journal_commit")

        journal.transaction = transaction

    def _relay_mark(self, t: float, what: str, seat: str) -> None:
        if self.on:
            with self.lock:
                self.marks.append((t, what, seat))

    def _read_relay_marks(self) -> list[tuple[float, str, str]]:
        """The relay process's marks written since the last call."""
        if not self.marks_file:
            return []
        try:
            with open(self.marks_file) as f:
                f.seek(self._marks_pos)
                text = f.read()
        except FileNotFoundError:
            return []
        text = text[:text.rfind("\n") + 1]  # a line still being written waits for the next call
        self._marks_pos += len(text)
        out = []
        for line in text.splitlines():
            t, what, seat = line.split()
            out.append((float(t), what, seat))
        return out

    def span(self, obj: Any, attr: str, name: str) -> None:
        st = self
        orig = getattr(obj, attr)

        def timed(*a: Any, **kw: Any) -> Any:
            t = time.monotonic()
            try:
                return orig(*a, **kw)
            finally:
                if st.on:
                    e = time.monotonic()
                    with st.lock:
                        st.spans.append((t, e, name))

        setattr(obj, attr, timed)

    def install_kivy(self, app: Any) -> None:
        from kivy.clock import Clock
        from kivy.core.window import WindowBase

        st = self
        self.span(app, "refresh", "kivy_refresh")
        self.span(WindowBase, "on_draw", "kivy_draw")
        self.span(WindowBase, "on_flip", "kivy_flip")
        gc_start = [0.0]

        def collector(phase: str, info: dict[str, Any]) -> None:
            # the cycle collector holds the GIL for its whole pass, whichever thread set it off
            if phase == "start":
                gc_start[0] = time.monotonic()
            elif st.on:
                with st.lock:
                    st.spans.append((gc_start[0], time.monotonic(), f"gc{info['generation']}"))

        gc.callbacks.append(collector)
        cls = type(object.__getattribute__(Clock, "_obj"))  # Clock is a context proxy
        orig_idle = cls.idle
        last = [time.monotonic()]

        def idle(self: Any) -> float:
            t = time.monotonic()
            if st.on:
                with st.lock:
                    st.busy.append((last[0], t))
            r = orig_idle(self)
            last[0] = time.monotonic()
            return r

        cls.idle = idle

    # --- per call -----------------------------------------------------------------------------

    def call(self, seat: str, t0: float, seen: dict[str, float]) -> None:
        relay = [m for m in self._read_relay_marks() if m[0] <= max(seen.values()) + 0.001]
        with self.lock:
            marks = [m for m in self.marks + relay if m[0] >= t0 - 0.001]
            self.marks = []
            busy = [(a, b) for a, b in self.busy if b > t0]
            self.busy = []
            spans = [x for x in self.spans if x[1] > t0]
            self.spans = []
        end = max(seen.values())

        def first(what: str, s: str | None = None, after: float = t0) -> float | None:
            ts = [t for t, w, ms in marks if w == what and (s is None or ms == s) and t >= after]
            return min(ts) if ts else None

        def last(what: str, s: str | None = None, before: float = end) -> float | None:
            ts = [t for t, w, ms in marks if w == what and (s is None or ms == s) and t <= before]
            return max(ts) if ts else None

        rec: dict[str, Any] = {"end": end - t0}
        up = first("up_read", seat)
        rec["box_sent"] = up
        rec["up_wire_end"] = first("up_wire_end", seat, up or t0)
        rec["lm_event"] = first("lm_event", seat)
        rec["handle"] = first("handle")
        rec["tx_body_end"] = first("tx_body_end")
        rec["journal_commit"] = first("journal_commit")
        rec["commit"] = first("commit")
        rec["handle_end"] = first("handle_end")
        h = rec["handle"] or t0
        states = {s: first("tx_state", s, h) for s in SEATS}
        rec["first_state_tx"] = min((v for v in states.values() if v), default=None)
        rec["last_state_tx"] = max((v for v in states.values() if v), default=None)
        rec["ack_before_state"] = any(t for t, w, ms in marks if w == "tx_other" and ms == seat
                                      and h <= t <= (states.get(seat) or end))
        downs = {s: last("down_wire_end", s) for s in SEATS}
        rec["last_down_wire_end"] = max((v for v in downs.values() if v), default=None)
        dels = {s: last("down_delivered", s) for s in SEATS}
        rec["last_down_delivered"] = max((v for v in dels.values() if v), default=None)
        # the first box to show the call beside the last: four simulated boxes share the
        # machine's cores with the tablet, where each real box has its own chip
        rec["first_seen"] = min(seen.values())
        rec["last_seen"] = end
        rec["seen_after_wire"] = max(seen[s] - (downs[s] or seen[s]) for s in SEATS)
        rec["delivered_after_wire"] = max((dels[s] or 0) - (downs[s] or 0) for s in SEATS)
        rec["seen_after_delivered"] = max(seen[s] - (dels[s] or seen[s]) for s in SEATS)
        for k, v in list(rec.items()):
            if isinstance(v, float) and k not in ("end", "seen_after_wire", "delivered_after_wire",
                                                  "seen_after_delivered"):
                rec[k] = v - t0
        rec["kivy_busy"] = sum(max(0.0, min(b, end) - max(a, t0)) for a, b in busy)
        rec["kivy_busy_max"] = max((min(b, end) - max(a, t0) for a, b in busy), default=0.0)
        for name in ("kivy_refresh", "kivy_draw", "kivy_flip", "gc"):
            rec[name] = sum(max(0.0, min(b, end) - max(a, t0)) for a, b, w in spans if w.startswith(name))
        if os.environ.get("BENCH_STAGES_DUMP"):
            rec["timeline"] = sorted([(round((t - t0) * 1000, 2), w, ms) for t, w, ms in marks]
                                     + [(round((a - t0) * 1000, 2), "+" + w, round((b - a) * 1000, 2))
                                        for a, b, w in spans]
                                     + [(round((max(a, t0) - t0) * 1000, 2), "busy", round((b - max(a, t0)) * 1000, 2))
                                        for a, b in busy])
        self.calls.append(rec)

    def report(self) -> list[str]:
        from bench.bench_tablet import pct

        keys = ["box_sent", "up_wire_end", "lm_event", "handle", "tx_body_end", "journal_commit", "commit", "first_state_tx",
                "last_state_tx", "handle_end", "last_down_wire_end", "last_down_delivered", "first_seen",
                "last_seen", "seen_after_wire", "delivered_after_wire", "seen_after_delivered",
                "kivy_busy", "kivy_busy_max", "kivy_refresh", "kivy_draw", "kivy_flip", "gc"]
        out = []
        n = len(self.calls)
        slow = sorted(self.calls, key=lambda r: r["end"])[-max(1, n // 20):]
        out.append(f"{'stage (ms after the confirm key)':34} {'p50':>7} {'p90':>7} {'p99':>7} {'slowest 5% mean':>16}")
        for k in keys:
            xs = [r[k] * 1000 for r in self.calls if r.get(k) is not None]
            ss = [r[k] * 1000 for r in slow if r.get(k) is not None]
            if xs:
                out.append(f"{k:34} {pct(xs, 50):7.2f} {pct(xs, 90):7.2f} {pct(xs, 99):7.2f} "
                           f"{sum(ss) / max(1, len(ss)):16.2f}")
        if os.environ.get("BENCH_STAGES_DUMP"):
            with open(os.environ["BENCH_STAGES_DUMP"], "w") as f:
                json.dump(self.calls, f)
        acks = sum(1 for r in self.calls if r["ack_before_state"])
        out.append(f"calls whose ack went out in its own frame before the caller's STATE: {acks}/{n}")
        return out
