"""The table loop: box events from the link into the controller, and each seat's view back out.

`TableRunner(controller, ports)` opens the LinkMaster on the given serial ports (or takes one
already open; open it with `ack_on_commit=True` so that box events are acknowledged only after
the journal holds them). `step(timeout)` is one turn of the loop (the headless demo and the tests
call it from their own loops). The Kivy app uses a `LinkWaiter` thread instead: it blocks on the
link and handles each batch of events at once (`handle`, under the controller's lock), so a
call reaches the journal and the boxes' new views go out without waiting for a clock tick or for
the screen to be redrawn. A refused call is shown on that box's display
for a few seconds (the reason, e.g. "insufficient bid (2017 L27)").
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from tablet_app.controller import Controller, Refused
from tablet_app.views import short_reason

NOTE_S = 4.0


class TableRunner:
    def __init__(self, controller: Controller, ports: dict[str, str] | None = None, link: Any = None,
                 baud: int = 115200):
        if link is None:
            from tablet_app.link import LinkMaster

            # Boxes keep an event until the journal holds it: a tablet crash between a frame's
            # arrival and its journal commit loses no call (docs/tablet.md, "crash window").
            link = LinkMaster(ports or {}, baud, ack_on_commit=True)
        self.ctl = controller
        self.link = link
        self.sent: dict[str, dict[str, Any]] = {}
        self.notes: dict[str, tuple[str, float]] = {}
        self.events: list[dict[str, Any]] = []  # what came in and what the controller said
        # Events the storage could not take (disk full): fed again, in order, before new ones,
        # and not acknowledged to the box until the journal holds them.
        self.retry: list[Any] = []
        # What each box reported about the link (protocol/SPEC.md sections 3b, 3c): frames it
        # could not use, and a box whose protocol this tablet does not speak. The director console
        # shows them (present.box_lines): a box on a bad cable or with old firmware must be seen.
        self.box_trouble: dict[str, dict[str, Any]] = {}
        with controller.lock:
            self.ctl.tick()  # a tray due while the tablet was down passes now (screens)
            self.push(force=True)  # after a restart the boxes get the replayed table at once

    def step(self, timeout: float = 0.0) -> int:
        """Poll the link once; returns the number of box events handled."""
        return self.handle(self.link.poll(timeout))

    def handle(self, events: list[Any]) -> int:
        """Journal and apply box events the link delivered, acknowledge them, push the views. A
        box event the journal could not take (a full disk) is kept and fed again first. Under the
        controller's lock (a screen's touch waits), as one batch: the controller publishes the
        new snapshot for the screens once, after the boxes have their views."""
        with self.ctl.lock, self.ctl.batch():
            return self._handle(events)

    def _handle(self, events: list[Any]) -> int:
        events = self.retry + list(events)
        self.retry = []
        self.take_reports()
        for ev in events:
            try:
                r = self.ctl.box_event(ev.seat, ev.kind, call=ev.call, seq=ev.seq, box_ms=ev.box_ms,
                                       epoch=getattr(ev, "epoch", 0))
            except Refused as exc:
                r = {"ok": False, "reason": str(exc), "duplicate": False}
            if r.get("retry"):
                self.retry.append(ev)
                continue
            self.events.append({"seat": ev.seat, "kind": ev.kind, "call": ev.call, **r})
            reason = r.get("reason")
            if not r["ok"] and reason:
                self.notes[ev.seat] = (short_reason(reason), time.monotonic() + NOTE_S)
            if ev.kind == "hello":
                self.sent.pop(ev.seat, None)
        # box_event() has committed each event to the journal (or refused it); only now may the
        # boxes forget them. The acknowledgement goes out with the new views, in the same frames.
        self.ctl.tick()
        self.push(commit=bool(events) and not self.retry)
        return len(events)

    def take_reports(self) -> None:
        """Fold the link's box reports into `box_trouble`: per seat, the count of frames the box
        could NAK (with the last reason) and a protocol refusal, until that box links up again."""
        reports = getattr(self.link, "reports", None)
        if reports is None:
            return
        for r in reports():
            seat = r.get("seat")
            if r["kind"] == "nak":
                t = self.box_trouble.setdefault(seat, {})
                t["naks"] = t.get("naks", 0) + 1
                t["reason"] = r.get("reason")
            elif r["kind"] == "version":
                self.box_trouble.setdefault(seat, {})["version"] = (r.get("ver_min"), r.get("ver_max"))
            elif r["kind"] == "caps" and seat in self.box_trouble:
                self.box_trouble[seat].pop("version", None)  # it speaks our protocol now

    def push(self, force: bool = False, commit: bool = False) -> None:
        """Send each box its view if it changed (all of them with `force`); with `commit`, also
        acknowledge the box events handled so far (the link's `commit`)."""
        now = time.monotonic()
        changed: dict[str, dict[str, Any]] = {}
        keys: dict[str, dict[str, Any]] = {}
        for seat, view in self.ctl.views().items():
            note = self.notes.get(seat)
            if note is not None:
                if note[1] > now:
                    view = {**view, "message": note[0][:14]}
                else:
                    del self.notes[seat]
            # stop_ms counts down on the box itself from receipt: a new STATE only when it starts.
            key = {k: v for k, v in view.items() if k != "stop_ms"}
            key["stop_on"] = bool(view.get("stop_ms"))
            if force or self.sent.get(seat) != key:
                changed[seat], keys[seat] = view, key
        if not changed and not commit:
            return
        send_states = getattr(self.link, "send_states", None)
        if send_states is not None:
            send_states(changed, commit=commit)
        else:
            # a link without batches (a test's, the emulator rig's): acknowledge, then send
            if commit and getattr(self.link, "commit", None) is not None:
                self.link.commit()
            for seat, view in changed.items():
                self.link.send_state(seat, view)
        self.sent.update(keys)  # not before: a view the link refused is sent again next time

    def close(self) -> None:
        self.link.close()


class LinkWaiter:
    """A thread that waits on the link and handles box events the moment they arrive:
    `on_events(events)` is called from this thread (the app journals, acknowledges and pushes
    there, under the controller's lock, then asks its own thread to redraw). Nothing waits for a
    clock tick or a frame to be drawn."""

    def __init__(self, link: Any, on_events: Callable[[list[Any]], None], idle_s: float = 0.25):
        self.link = link
        self.on_events = on_events
        self.idle_s = idle_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="link-waiter", daemon=True)

    def start(self) -> LinkWaiter:
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                events = self.link.poll(self.idle_s)
            except Exception:  # the link is closing: nothing more will come
                return
            if events and not self._stop.is_set():
                self.on_events(events)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(self.idle_s * 4)


class RunnerThread:
    """The table loop in a thread (`step(0)` every 5 ms), with a lock the caller holds for its own
    controller calls: how the headless demo and the simulated tables (hardware/sim, hardware/emu)
    run the real tablet without Kivy."""

    def __init__(self, runner: TableRunner):
        self.runner = runner
        self.lock = threading.RLock()
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._run, name="table-loop", daemon=True)
        self._t.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            with self.lock:
                self.runner.step(0)
            time.sleep(0.005)

    def stop(self) -> None:
        """Ends the loop after the turn it is in (a turn does not block: `step(0)`). Waits for it
        however long a busy machine takes: the caller closes the controller next, which must not
        happen under a turn still running."""
        self._stop.set()
        self._t.join()
