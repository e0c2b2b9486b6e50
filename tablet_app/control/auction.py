"""The auction at the table: the boxes' events, the tray under a screen, and the engine's events.

A box event is checked against the table (the board in play, whose turn while the director is
called, the tray's side), then journalled and handed to the engine once (`Table.step`): the engine
takes it, or refuses it with its reason, kind and Law (an irregular call under the `prevent`
policy, the stop wait the profile locks, an alert the profile forbids, a call while the TD rules)
and nothing changes. A refusal is journalled too, for the TD's record and so that a resent refused
frame is recognised. Every event carries its board time (`t`, seconds since the board's start),
fixed when it is journalled, so replay gives the same think times, stop locks and tray passes.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NotRequired, TypedDict

from shared_rules.types import SEATS, Finding, IrregularityKind
from tablet_app.control import board_engine, td_calls
from tablet_app.control.errors import DiskFull, EngineRefused, Refused
from tablet_app.control.journal_tx import Transactions
from tablet_app.control.reducer import Effects, Fold, handles
from tablet_app.control.state import BoxId, EngineEvent, TableState, box_key

BOX_KINDS = ("call", "alert", "stop", "undo", "review", "td", "hello")


class BoxReply(TypedDict):
    """What the table made of a box event (the runner acknowledges and notes it on the box)."""

    ok: bool
    reason: str | None
    duplicate: bool
    retry: NotRequired[bool]  # the storage refused it: nothing changed; feed it again
    disk_full: NotRequired[bool]


class StopWait(TypedDict):
    """The stop wait running now (FSB L116B, 2017 L73A2 regulations)."""

    seat: str
    remaining: float
    until: float  # board time
    enforced: bool  # the profile locks that seat's box, or only reports


class TrayPass(TypedDict):
    t: float  # board time of the pass
    to_side: int  # the side it passed to (index into the profile's screenmates)
    calls: int  # the standing calls it carried


class ScreenView(TypedDict):
    """The tray under the screen, for the director's screens (the engine's tray, FSB L114)."""

    tray_side: int
    tray_seats: list[str]
    arrived_at: float  # board time the tray came to this side
    ready_at: float | None  # board time it may pass next, None while it stays
    delay: float  # the least time on a side
    passes: list[TrayPass]


class EventBody(TypedDict):
    ev: EngineEvent
    box: BoxId | None
    reason: NotRequired[str]  # a `cancel_board`: the director's reason


class StopBody(TypedDict):
    seat: str
    t: float
    box: BoxId | None


class RefusedBody(TypedDict):
    seat: str
    kind: str
    call: str | None
    reason: str
    box: BoxId | None


def _ok(reason: str | None = None) -> BoxReply:
    return {"ok": True, "reason": reason, "duplicate": False}


class Auction:
    def __init__(self, st: TableState, tx: Transactions, clock: Callable[[], float]):
        self.st = st
        self.tx = tx
        self.clock = clock

    def board_time(self) -> float:
        return self.st.board_time(self.clock())

    def box_event(self, seat: str, kind: str, call: str | None = None, seq: int | None = None,
                  box_ms: int | None = None, stop: bool = False, epoch: int | None = None) -> BoxReply:
        """(seat, epoch, seq, box_ms) identifies a box event: a box re-sends an event the tablet
        journalled but had not acknowledged when it died (protocol/SPEC.md section 4); the
        journal recognises it and it is not applied twice."""
        try:
            return self._box_event(seat, kind, call, seq, box_ms, stop, epoch)
        except DiskFull as exc:
            return {"ok": False, "reason": str(exc), "duplicate": False, "retry": True, "disk_full": True}

    def _box_event(self, seat: str, kind: str, call: str | None, seq: int | None, box_ms: int | None,
                   stop: bool, epoch: int | None) -> BoxReply:
        st = self.st
        if seat not in SEATS:
            raise Refused(f"unknown box {seat!r}")
        if kind not in BOX_KINDS:
            raise Refused(f"unknown box event kind {kind!r}")
        box: BoxId | None = None
        if seq is not None:
            box = {"seat": seat, "seq": int(seq), "box_ms": int(box_ms or 0), "epoch": int(epoch or 0)}
            if box_key(box) in st.seen_box:
                return {"ok": True, "reason": None, "duplicate": True}
        if kind in ("hello", "review"):
            return _ok()
        if st.board is None:
            return self._refuse(seat, kind, call, box, "no board is in play")
        t = self.board_time()
        if kind == "td":
            # journalled and queued together, or neither
            self.tx.record("td_call", {"seat": seat, "t": t, "board": st.board, "box": box})
            return _ok()
        if st.phase not in ("auction", "frozen"):
            return self._refuse(seat, kind, call, box, "the auction is over")
        if kind in ("alert", "call"):
            self.pass_tray(t)  # a tray due before this event is in the log before it
        if kind == "stop":
            self.tx.record("stop", {"seat": seat, "t": t, "box": box})
            return _ok()
        if kind == "alert":
            # the engine refuses an alert the regulations forbid (who alerts, the cut-off, a pair
            # asked not to alert: FSB L115): it never reaches the other boxes
            return self._engine_event({"t": t, "seat": seat, "alert": True}, "alert", box)
        if kind == "undo":
            # A call once confirmed on the box is made (Law 25 applies); the box's own undo only
            # works before confirmation. An undo after confirmation calls the director.
            self.tx.record("td_call", {"seat": seat, "t": t, "board": st.board, "box": box,
                                       "reason": IrregularityKind.CHANGE_OF_CALL})
            return _ok("director called (Law 25)")
        return self._call(seat, call, box, t, stop)

    def _call(self, seat: str, call: str | None, box: BoxId | None, t: float, stop: bool) -> BoxReply:
        st = self.st
        if not call:
            return self._refuse(seat, "call", call, box, "a call event without a call")
        ev: EngineEvent = {"t": t, "seat": seat, "call": call}
        if st.call_made == "taken":
            # FSB L112C: the call is made when taken from the box with visible intent. The box
            # sends a call only when it is confirmed, and its confirm is the taking (docs/tablet.md).
            ev["taken"] = True
        if stop or seat in st.stop_shown:
            ev["stop"] = True
        if td_calls.held(st):
            # UNDO or the TD key on a box: nobody calls until the director has seen to it, or a
            # correction the Law still allows (L25A: before partner calls) would become impossible.
            return self._refuse(seat, "call", call, box, "the table waits for the director")
        pending = st.estate.get("pending")
        if pending and seat not in pending["may_call"]:
            # The engine names the seats whose call the Law gives a meaning to while it waits
            # (acceptance by the LHO, L28B, L33); everyone else waits for the TD (L9B2).
            return self._refuse(seat, "call", call, box, "the table waits for the director")
        if st.tray is not None and seat not in st.estate["tray"]["seats"]:
            return self._refuse(seat, "call", call, box, "the tray is on the other side of the screen")
        return self._engine_event(ev, "call", box)

    def _engine_event(self, ev: EngineEvent, kind: str, box: BoxId | None) -> BoxReply:
        """Journalled, then taken by the engine in the same transaction; the engine's refusal
        rolls the journal back and is journalled as a refusal instead."""
        try:
            self.tx.record("event", {"ev": ev, "box": box})
        except EngineRefused as exc:
            return self._refuse(ev["seat"], kind, ev.get("call"), box, str(exc))
        return _ok()

    def _refuse(self, seat: str, kind: str, call: str | None, box: BoxId | None, reason: str) -> BoxReply:
        # Journalled for the TD's record (and so a resent refused frame is recognised), no effect.
        self.tx.record("refused", {"seat": seat, "kind": kind, "call": call, "reason": reason, "box": box})
        return {"ok": False, "reason": reason, "duplicate": False}

    def td_event(self, ev: EngineEvent, **extra: Any) -> None:
        """Journal one TD event at the board's time now; a tray due by then passes first, so the
        events stay in time order. A refused event leaves no trace in the journal."""
        t = self.board_time()
        self.pass_tray(t)
        self.tx.record("event", {"ev": {"t": t, **ev}, "box": None, **extra})

    def tick(self) -> bool:
        """Let time pass: the tray moves when due. True when what the boxes see has changed."""
        try:
            return self.pass_tray(self.board_time())
        except DiskFull:
            return False  # the snapshot says so; the tray passes once the journal takes it

    def pass_tray(self, t: float) -> bool:
        """The tray passes under the screen when the engine says it is due (FSB L114, 2007/2017
        L80B2(e)). It is journalled as the engine's `tray` event, so the engine's log holds every
        pass (a call out of rotation is ruled by the side it never left) and replay passes it at
        the same event time. True when it passed."""
        st = self.st
        if st.tray is None or st.phase != "auction" or td_calls.held(st):
            # held: a box called the director (TD key, UNDO after a confirmed call): the tray
            # stays, as it does while the TD rules, so a change of call is not seen across it
            return False
        assert st.engine is not None
        due = st.engine.tray_due_at(st.tray.delay_s)
        if due is None or due > t:
            return False
        # not before an event already in the log, nor before the director let the table go on
        try:
            self.tx.record("event", {"ev": {"t": max(due, st.last_t, min(st.released_t, t)), "tray": True},
                                     "box": None})
        except EngineRefused:
            return False  # the engine says when it is due, so it takes it: never met
        return True

    def screen(self) -> ScreenView | None:
        """Behind screens: where the tray is and when it may next pass, from the engine's tray."""
        st, tray = self.st, self.st.tray
        if tray is None or st.engine is None:
            return None
        engine_tray = st.estate["tray"]
        passes: list[TrayPass] = [{"t": p["t"], "to_side": tray.side_of(p["to"][0]), "calls": p["calls"]}
                                  for p in engine_tray["passes"]]
        side = tray.side_of(engine_tray["seats"][0])
        return {"tray_side": side, "tray_seats": list(engine_tray["seats"]),
                "arrived_at": passes[-1]["t"] if passes else 0.0, "ready_at": st.engine.tray_due_at(tray.delay_s),
                "delay": tray.delay_s, "passes": passes}

    def stop_wait(self) -> StopWait | None:
        """The stop wait running now: the seat that waits, the seconds left, and whether the
        profile locks that seat's box (`enforced`) or only reports."""
        st = self.st.estate
        until = st.get("stop_lock_until") if self.st.phase == "auction" else None
        if until is None or st.get("next") is None:
            return None
        remaining = round(float(until) - self.board_time(), 2)
        if remaining <= 0:
            return None
        return {"seat": st["next"], "remaining": remaining, "until": until,
                "enforced": st.get("stop_enforcement") == "lock"}


@handles("event")
def on_event(f: Fold, body: EventBody) -> Effects | None:
    st = f.st
    before = st.phase
    ev = body["ev"]
    stop_shown = st.stop_shown
    if stop_shown and "call" in ev and ev.get("seat") in stop_shown and "stop" not in ev:
        ev = {**ev, "stop": True}
    got = board_engine.feed(f, ev)  # may refuse: nothing below may have happened before it
    box = body.get("box")
    if box:
        st.seen_box.add(box_key(box))
    if stop_shown and "call" in ev:
        stop_shown.pop(ev.get("seat"), None)  # type: ignore[arg-type]
    t = float(ev.get("t", 0.0))
    if t > st.last_t:
        st.last_t = t
    st.log.append({"what": "event", "board": st.board, **ev})
    for irr in got.irregularities:
        st.log.append({"what": "irregularity", "board": st.board, **irr})
    if ev.get("td") == Finding.CANCEL_BOARD:
        # 2007 L15C: the TD's reason with the consequence the engine gave it
        adjusted = st.estate.get("adjusted_score") or {}
        st.log.append({"what": "board_cancelled", "board": st.board, "reason": body.get("reason"),
                       "law": adjusted.get("law"), "adjusted_score": adjusted})
    if st.phase == before:
        return None
    if st.phase == "frozen":
        return Effects(progress="bidding")  # the table waits for the director
    if st.phase == "play" and before in ("auction", "frozen"):
        return Effects(progress="playing")
    return None


@handles("stop")
def on_stop(f: Fold, body: StopBody) -> None:
    st = f.st
    st.stop_shown[body["seat"]] = body["t"]
    box = body.get("box")
    if box:
        st.seen_box.add(box_key(box))
    st.log.append({"what": "stop", "board": st.board, "seat": body["seat"], "t": body["t"]})


@handles("refused")
def on_refused(f: Fold, body: RefusedBody) -> None:
    st = f.st
    box = body.get("box")
    if box:
        st.seen_box.add(box_key(box))
    st.log.append({"what": "refused", "board": st.board, **body})
