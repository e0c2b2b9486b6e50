"""The table controller: the tablet's brain, with no Kivy and no serial port in it.

Every input (session setup, a box event, a TD decision, a result, East-West's confirmation) is
validated, journalled, and only then applied to the in-memory state by `_apply`, the one reducer.
A restart replays the journal through the same reducer, so a `kill -9` at any moment comes back to
exactly the same table: same auction, same pending TD decision, same results waiting in the outbox.

Side effects that must happen exactly once (queueing a result in the outbox) happen in the live
input method, inside the same SQLite transaction as the journal record, never in `_apply`.
"""
from __future__ import annotations

import datetime
import hmac
import pathlib
import time
from collections.abc import Callable
from typing import Any

from shared_rules import boards as board_rules
from shared_rules.screens import Screen, screenmates_of, tray_delay, uses_screens
from tablet_app import movement, results, views
from tablet_app.journal import Journal, JournalError
from tablet_app.session import Session, SetupError

SEATS = ("N", "E", "S", "W")
CALL_KINDS = ("call", "alert", "stop", "undo", "review", "td", "hello")


class Refused(ValueError):
    """An input the table does not take; the message says why. Nothing was journalled or changed."""


class PinError(Refused):
    """Wrong director PIN."""


def _box_key(box: dict[str, Any]) -> tuple[str, int, int, int]:
    return (box["seat"], box.get("epoch", 0), box["seq"], box["box_ms"])


def lho(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 1) % 4]


def _default_engine(profile: str, board: int, policy: str | None, no_alerts_by: tuple[str, ...] = ()) -> Any:
    from shared_rules.table import Table

    return Table(profile, board, policy, no_alerts_by)


def _default_profile(name: str) -> Any:
    try:
        from shared_rules import profiles
    except ImportError:
        return None
    load = getattr(profiles, "load", None)
    return load(name) if load is not None else None


def _default_outbox(conn: Any) -> Any:
    from tablet_app.outbox import Outbox

    return Outbox(conn)


class Controller:
    def __init__(
        self,
        db_path: str | pathlib.Path,
        *,
        clock: Callable[[], float] = time.time,
        engine_factory: Callable[..., Any] = _default_engine,
        profile_loader: Callable[[str], Any] = _default_profile,
        outbox_factory: Callable[[Any], Any] = _default_outbox,
    ):
        self.clock = clock
        self.engine_factory = engine_factory
        self.profile_loader = profile_loader
        self.journal = Journal(db_path)
        self.outbox = outbox_factory(self.journal.conn)
        self.listeners: list[Callable[[], None]] = []
        self._reset()
        for seq, kind, body in self.journal.records():
            try:
                self._apply(kind, body)
            except (KeyError, TypeError, ValueError) as exc:
                # Never guess past a record we cannot apply: the TD must know the table is not
                # what was played (e.g. a journal from a newer version, or a damaged file).
                raise JournalError(
                    f"{db_path}: journal record {seq} ({kind}) cannot be replayed: {exc}"
                ) from exc

    # ------------------------------------------------------------------ derived state
    def _reset(self) -> None:
        self.session: Session | None = None
        self.board_index = -1
        self.board_started = 0.0
        self.engine: Any = None
        self.engine_events: list[dict[str, Any]] = []
        self.estate: dict[str, Any] = {}
        self.screen: Screen | None = None
        self.phase = "setup"  # setup, auction, frozen, play, confirm, round_end
        self.entry: dict[str, Any] | None = None  # tricks/lead typed by North, awaiting E-W
        self.done: list[dict[str, Any]] = []  # boards of this round with a confirmed result
        self.seen_box: set[tuple[str, int, int, int]] = set()
        self.stop_shown: dict[str, float] = {}
        self.log: list[dict[str, Any]] = []  # what happened, for the TD and the headless demo
        self.td_calls: list[dict[str, Any]] = []
        self.last_t = 0.0
        self.progress_seq = 0  # "auction" items queued for the board in play
        self.progress_step: str | None = None
        self.td_due: list[tuple[int, str]] = []  # (TD call number, status) the last record changed

    @property
    def board(self) -> int | None:
        if self.session is None or self.board_index < 0 or self.board_index >= len(self.session.boards):
            return None
        return self.session.boards[self.board_index]

    def _new_engine(self, s: Session, board: int) -> Any:
        # one place for what the engine is built from, so a rebuild can never forget a setting
        return self.engine_factory(s.profile, board, s.policy, s.no_alerts_by)

    def _start_engine(self) -> None:
        assert self.session is not None and self.board is not None
        self.engine = self._new_engine(self.session, self.board)
        self.estate = self.engine.state()
        self.engine_events = []
        self.stop_shown = {}
        profile = self.profile_loader(self.session.profile)
        dealer = board_rules.dealer(self.board)
        self.screen = None
        if profile is not None and uses_screens(profile):
            delay = self.session.tray_delay_s
            delay = tray_delay(profile, 15.0) if delay is None else delay
            self.screen = Screen(dealer, delay, screenmates_of(profile))

    def _engine_apply(self, ev: dict[str, Any]) -> None:
        try:
            state = self.engine.apply(ev)
        except Exception as exc:  # the engine refused: rebuild it untouched from the journal
            assert self.session is not None and self.board is not None
            self.engine = self._new_engine(self.session, self.board)
            for old in self.engine_events:
                self.engine.apply(old)
            raise Refused(str(exc)) from exc  # the engine's message says what and which law
        self.engine_events.append(ev)
        self.estate = state
        if self.screen is not None:
            self.screen.observe(state, float(ev.get("t", 0.0)))
        self._phase_from_engine()

    def _phase_from_engine(self) -> None:
        st = self.estate
        if self.phase in ("confirm", "round_end", "setup"):
            return
        if st.get("pending") or st.get("status") in ("awaiting_td", "adjusted_score"):
            # adjusted_score: the engine stopped the auction (2007 L17D2, 2017 L15A2(a)/L15B1);
            # nothing goes on at the table until the TD awards the score.
            self.phase = "frozen"
        elif st.get("status") in ("ended", "passed_out"):
            self.phase = "play"
        else:
            self.phase = "auction"

    # ------------------------------------------------------------------ the reducer
    def _apply(self, kind: str, body: dict[str, Any]) -> None:
        before = self.phase
        self._apply_record(kind, body)
        # The station's director page follows each table's progress from "auction" items. Which
        # changes produce one is decided here, for replay and live alike, so the item numbers a
        # restarted tablet uses continue where they were; only the live path queues (_record).
        step = None
        if kind == "board":
            step = "bidding"
        elif kind == "event" and self.phase == "frozen" and before != "frozen":
            step = "bidding"
        elif kind == "event" and self.phase == "play" and before in ("auction", "frozen"):
            step = "playing"
        elif kind == "result":
            step = "entering_result"
        if step is not None:
            self.progress_seq += 1
            self.progress_step = step
        else:
            self.progress_step = None
        # TD calls the station follows (open on the director page until resolved), decided here
        # for replay and live alike; only the live path queues them (_record).
        self.td_due = []
        if self.phase == "frozen" and before != "frozen":
            # an irregularity: the tablet itself calls the director
            pending = self.estate.get("pending") or {}
            reason = pending.get("kind") or self.estate.get("status")
            law = pending.get("law") or self.estate.get("status_law")
            note = str(reason).replace("_", " ") + (f" ({law})" if law else "")  # for the director page
            self.td_calls.append({"seat": None, "t": (body.get("ev") or {}).get("t"), "board": self.board,
                                  "reason": reason, "note": note, "auto": True, "place": self._place()})
            self.td_due.append((len(self.td_calls), "launched"))
        elif before == "frozen" and self.phase != "frozen":
            self._resolve_td_calls(lambda c: c.get("auto"))
        elif kind == "td_attended":
            self._resolve_td_calls(lambda c: not c.get("auto"))
        elif kind == "td_call":
            self.td_due.append((len(self.td_calls), "launched"))

    def _place(self) -> list[Any]:
        s = self.session
        assert s is not None
        return [s.event, s.section, s.table, s.round]

    def _resolve_td_calls(self, which: Callable[[dict[str, Any]], bool]) -> None:
        for n, c in enumerate(self.td_calls, 1):
            if c.get("status") != "resolved" and which(c):
                c["status"] = "resolved"
                self.td_due.append((n, "resolved"))

    def _apply_record(self, kind: str, body: dict[str, Any]) -> None:
        if kind == "setup":
            # A director call outlives its round: the TD may attend to it after the table has
            # moved on, and the station keeps it open until he does.
            calls = self.td_calls
            self._reset()
            self.td_calls = calls
            self.session = Session.from_dict(body["session"])
            self.phase = "auction"
            self.log.append({"what": "setup", **body["session"]})
        elif kind == "board":
            self.board_index = body["index"]
            self.board_started = body["started_at"]
            self.progress_seq = 0
            self.phase = "auction"
            self.entry = None
            self.last_t = 0.0
            self._start_engine()
            self.log.append({"what": "board", "board": self.board})
        elif kind == "event":
            ev = body["ev"]
            if "call" in ev and ev.get("seat") in self.stop_shown and "stop" not in ev:
                ev = {**ev, "stop": True}
            n_irr = len(self.estate.get("irregularities", []))
            self._engine_apply(ev)  # may refuse: nothing below may have happened before it
            box = body.get("box")
            if box:
                self.seen_box.add(_box_key(box))
            if "call" in ev:
                self.stop_shown.pop(ev.get("seat"), None)
            self.last_t = max(self.last_t, float(ev.get("t", 0.0)))
            self.log.append({"what": "event", "board": self.board, **ev})
            for irr in self.estate.get("irregularities", [])[n_irr:]:
                self.log.append({"what": "irregularity", "board": self.board, **irr})
        elif kind == "stop":
            self.stop_shown[body["seat"]] = body["t"]
            box = body.get("box")
            if box:
                self.seen_box.add(_box_key(box))
            self.log.append({"what": "stop", "board": self.board, "seat": body["seat"], "t": body["t"]})
        elif kind == "refused":
            box = body.get("box")
            if box:
                self.seen_box.add(_box_key(box))
            self.log.append({"what": "refused", "board": self.board, **body})
        elif kind == "td_call":
            self.td_calls.append({**body, "place": self._place()})
            self.log.append({"what": "td_call", "board": self.board, **body})
        elif kind == "result":
            self.entry = {"tricks": body["tricks"], "lead": body["lead"], "entered_at": body["entered_at"]}
            self.phase = "confirm"
            self.log.append({"what": "result", "board": self.board, **body})
        elif kind == "confirm":
            if body["accepted"]:
                self.done.append(body["record"])
                self.log.append({"what": "confirmed", "board": self.board, "score_ns": body["record"]["score_ns"]})
                self.entry = None
                self.phase = "play"  # until the next 'board' or 'round_end' record
            else:
                self.log.append({"what": "disputed", "board": self.board})
                self.entry = None
                self.phase = "play"
        elif kind == "adjusted":
            self.done.append(body["record"])
            self.entry = None
            self.phase = "play"  # until the next 'board' or 'round_end' record, in the same transaction
            self.log.append({"what": "adjusted", "board": self.board, **body["record"]["adjusted"]})
        elif kind == "correction":
            self.done.append(body["record"])
            self.log.append({"what": "correction", "board": body["record"]["board"], "key": body["record"]["key"]})
        elif kind == "td_attended":
            self.log.append({"what": "td_attended", "board": self.board, "t": body["t"]})
        elif kind == "round_end":
            self.phase = "round_end"
            self.board_index = len(self.session.boards) if self.session else -1
            self.log.append({"what": "round_end"})
        else:
            raise ValueError(f"unknown journal record kind {kind!r}")

    def _record(self, kind: str, body: dict[str, Any]) -> None:
        """Journal first, then apply: what is in memory never runs ahead of what is on disk."""
        with self.journal.transaction():
            self.journal.append(kind, body)
            self._apply(kind, body)
            if self.progress_step is not None:
                self._queue_progress(self.progress_step, self.clock())
            for n, status in self.td_due:
                self._queue_td_call(n, status)
        for fn in list(self.listeners):
            fn()

    def _t(self) -> float:
        t = round(self.clock() - self.board_started, 2)
        return max(t, self.last_t)

    # ------------------------------------------------------------------ inputs
    def setup(self, session: dict[str, Any] | Session) -> None:
        if isinstance(session, Session):
            session.validate()
            s = session
        else:
            s = Session.from_dict(session)
        if self.phase not in ("setup", "round_end") and self.session is not None:
            raise Refused("finish the round (or have the TD end it) before setting up a new one")
        try:
            self._new_engine(s, s.boards[0])
        except ImportError:
            raise
        except Exception as exc:
            raise SetupError(f"the rules engine cannot run this setup: {exc}") from exc
        with self.journal.transaction():
            self._record("setup", {"session": s.to_dict()})
            self._record("board", {"index": 0, "started_at": self.clock()})

    def box_event(
        self,
        seat: str,
        kind: str,
        call: str | None = None,
        seq: int | None = None,
        box_ms: int | None = None,
        stop: bool = False,
        epoch: int | None = None,
    ) -> dict[str, Any]:
        """Feed one event from a box. Returns {"ok": bool, "reason": str | None, "duplicate": bool}.

        (seat, epoch, seq, box_ms) identifies a box event: a box re-sends an event the tablet
        journalled but had not acknowledged when it died (protocol/SPEC.md section 4); the
        journal recognises it and it is not applied twice.
        """
        if seat not in SEATS:
            raise Refused(f"unknown box {seat!r}")
        if kind not in CALL_KINDS:
            raise Refused(f"unknown box event kind {kind!r}")
        box = None
        if seq is not None:
            box = {"seat": seat, "seq": int(seq), "box_ms": int(box_ms or 0), "epoch": int(epoch or 0)}
            if _box_key(box) in self.seen_box:
                return {"ok": True, "reason": None, "duplicate": True}
        if kind in ("hello", "review"):
            return {"ok": True, "reason": None, "duplicate": False}
        if self.board is None:
            return self._refuse(seat, kind, call, box, "no board is in play")
        t = self._t()
        if kind == "td":
            # journalled and queued together, or neither (_record)
            self._record("td_call", {"seat": seat, "t": t, "board": self.board, "box": box})
            return {"ok": True, "reason": None, "duplicate": False}
        if self.phase not in ("auction", "frozen"):
            return self._refuse(seat, kind, call, box, "the auction is over")
        if kind == "stop":
            self._record("stop", {"seat": seat, "t": t, "box": box})
            return {"ok": True, "reason": None, "duplicate": False}
        if kind == "alert":
            ev = {"t": t, "seat": seat, "alert": True}
            broken = self._alert_breaks_rules(ev)
            if broken is not None:
                # the regulations' alert rules, enforced: who alerts, the cut-off, a pair asked
                # not to alert (FSB L115) - the alert never reaches the other boxes
                why = str(broken.get("kind", "")).replace("_", " ")
                return self._refuse(seat, kind, None, box, f"{why} ({broken.get('law')})")
            return self._engine_event(ev, box)
        if kind == "undo":
            # A call once confirmed on the box is made (Law 25 applies); the box's own undo only
            # works before confirmation. An undo after confirmation calls the director.
            self._record("td_call", {"seat": seat, "t": t, "board": self.board, "box": box,
                                     "reason": "change_of_call"})
            return {"ok": True, "reason": "director called (Law 25)", "duplicate": False}
        # a call
        if not call:
            return self._refuse(seat, kind, call, box, "a call event without a call")
        ev: dict[str, Any] = {"t": t, "seat": seat, "call": call}
        if stop or seat in self.stop_shown:
            ev["stop"] = True
        if self.held():
            # UNDO or the TD key on a box: nobody calls until the director has seen to it, or a
            # correction the Law still allows (L25A: before partner calls) would become impossible.
            return self._refuse(seat, kind, call, box, "the table waits for the director")
        pending = self.estate.get("pending")
        if pending:
            # The engine names the seats whose call the Law gives a meaning to while it waits
            # (acceptance by the LHO, L28B, L33); everyone else waits for the TD (L9B2).
            allowed = pending.get("may_call")
            if allowed is None:
                allowed = [{"lho": lho(pending.get("seat", "N")), "offender": pending.get("seat")}.get(pending.get("asks"))]
            if seat not in allowed:
                return self._refuse(seat, kind, call, box, "the table waits for the director")
        if self.screen is not None:
            self.screen.advance(t)
            if not self.screen.may_call(seat):
                return self._refuse(seat, kind, call, box, "the tray is on the other side of the screen")
        if hasattr(self.engine, "check"):
            # The engine says what it would refuse: every irregularity under `prevent`, and whatever
            # the policy a call inside a stop wait the profile locks (FSB L116B).
            verdict = self.engine.check(ev)
            if isinstance(verdict, dict) and (verdict.get("action") == "refuse" or self._policy() == "prevent"):
                why = str(verdict.get("kind", "irregular call")).replace("_", " ")
                law = verdict.get("law")
                return self._refuse(seat, kind, call, box, f"{why} ({law})" if law else why)
            if verdict and not isinstance(verdict, dict) and self._policy() == "prevent":
                return self._refuse(seat, kind, call, box, str(verdict))
        return self._engine_event(ev, box)

    def _alert_breaks_rules(self, ev: dict[str, Any]) -> dict[str, Any] | None:
        """The engine's verdict on an alert, tried on a copy: the flag it would raise if the
        profile's alert rules forbid this alert (a late alert is still an alert: not refused)."""
        import copy

        n = len(self.estate.get("timing", []))
        try:
            st = copy.deepcopy(self.engine).apply(ev)
        except Exception:  # the engine refuses it outright: the normal path says why
            return None
        return next((f for f in st.get("timing", [])[n:]
                     if f.get("kind") in ("alert_not_permitted", "alert_by_wrong_player")), None)

    def _policy(self) -> str | None:
        return self.estate.get("policy") or (self.session.policy if self.session else None)

    def _engine_event(self, ev: dict[str, Any], box: dict[str, Any] | None) -> dict[str, Any]:
        # Try the event on the live engine before journalling it: a refused event must not reach
        # the journal (replay would fail on it). _engine_apply rebuilds the engine on refusal.
        body = {"ev": ev, "box": box}
        try:
            with self.journal.transaction():
                self._record("event", body)
        except Refused as exc:
            return self._refuse(ev.get("seat", ""), "call", ev.get("call"), box, str(exc))
        return {"ok": True, "reason": None, "duplicate": False}

    def _refuse(self, seat: str, kind: str, call: str | None, box: dict[str, Any] | None, reason: str) -> dict[str, Any]:
        # Journalled for the TD's record (and so a resent refused frame is recognised), no effect.
        self._record("refused", {"seat": seat, "kind": kind, "call": call, "reason": reason, "box": box})
        return {"ok": False, "reason": reason, "duplicate": False}

    def _queue_progress(self, phase: str, at: float) -> None:
        assert self.session is not None and self.board is not None
        s = self.session
        key = f"{s.event}/{s.section}/{s.table}/{s.round}/{self.board}/auction/{self.progress_seq}"
        st = self.estate
        self.outbox.enqueue("auction", key, {
            "event": s.event, "section": s.section, "table": s.table, "round": s.round, "board": self.board,
            "seq": self.progress_seq, "phase": phase,
            "calls": [{"seat": c.get("seat"), "call": c.get("call"), "alerted": bool(c.get("alerted")),
                       "stop": bool(c.get("stop")), "think": c.get("think")} for c in st.get("calls", [])],
            "irregularities": list(st.get("irregularities", [])),
            "at": datetime.datetime.fromtimestamp(at, datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        })

    def _queue_td_call(self, n: int, status: str) -> None:
        """The station's item for TD call number n of the round: the call itself when launched,
        `<its key>/resolved` when it is over (station/records.py, the tablet's form)."""
        c = self.td_calls[n - 1]
        event, section, table, round_ = c["place"]  # where the call was made, maybe a round ago
        key = f"{event}/{section}/{table}/{round_}/{c.get('board')}/td/{n}"
        payload = {"kind": "td_call", "event": event, "section": section, "table": table,
                   "round": round_, "board": c.get("board"), "seat": c.get("seat"), "t": c.get("t"),
                   "reason": c.get("reason"), "note": c.get("note"), "at": self.clock()}
        if status != "launched":
            key += "/" + status
            payload["status"] = status
        self.outbox.enqueue("td_call", key, {**payload, "key": key})

    def check_pin(self, pin: str) -> bool:
        return self.session is not None and hmac.compare_digest(str(pin).encode(), self.session.td_pin.encode())

    def td_decide(self, pin: str, choice: str, call: str | None = None) -> None:
        if not self.check_pin(pin):
            raise PinError("wrong director PIN: nothing was changed")
        pending = self.estate.get("pending")
        if not pending:
            raise Refused("there is no decision waiting for the director")
        ids = [o.get("id") for o in pending.get("options", [])]
        if choice not in ids:
            raise Refused(f"{choice!r} is not one of the options: {', '.join(map(str, ids))}")
        ev: dict[str, Any] = {"t": self._t(), "td": pending["kind"], "choice": choice}
        if call:
            ev["call"] = call
        with self.journal.transaction():
            self._record("event", {"ev": ev, "box": None})

    def td_correct_call(self, pin: str, seat: str, call: str) -> None:
        """L25A (2007 L25A1-A4, FSB L112D; 2017 L25A1-A6): the TD lets a player replace an unintended
        call (a mis-press, reported with UNDO on the box). The engine says when it is too late."""
        if not self.check_pin(pin):
            raise PinError("wrong director PIN: nothing was changed")
        if seat not in SEATS:
            raise Refused(f"unknown seat {seat!r}")
        if self.phase not in ("auction", "play"):
            raise Refused("a call can be corrected during the auction, or before the opening lead")
        ev = {"t": self._t(), "td": "correct_call", "seat": seat, "call": call}
        with self.journal.transaction():
            self._record("event", {"ev": ev, "box": None})

    def _td_event(self, pin: str, ev: dict[str, Any], phases: tuple[str, ...], when: str) -> None:
        """Journal one TD event for the engine; the engine refuses what the Law does not allow then
        (its message names the law), and a refused event leaves no trace in the journal."""
        if not self.check_pin(pin):
            raise PinError("wrong director PIN: nothing was changed")
        if "seat" in ev and ev["seat"] not in SEATS:
            raise Refused(f"unknown seat {ev['seat']!r}")
        if self.phase not in phases:
            raise Refused(when)
        with self.journal.transaction():
            self._record("event", {"ev": {"t": self._t(), **ev}, "box": None})

    def td_exposed_cards(self, pin: str, seat: str, cards: list[str], led: bool = False) -> None:
        """Law 24: the TD has found that `seat` held cards so his partner could see them (`led`: a
        card was led before the auction ended). The boxes cannot see cards: only the TD reports it."""
        self._td_event(pin, {"td": "exposed_cards", "seat": seat, "cards": list(cards), "led": bool(led)},
                       ("auction", "frozen", "play"), "cards exposed are ruled during the auction (Law 24)")

    def td_wrong_board_call(self, pin: str, seat: str) -> None:
        """2007 L17D / 2017 L15A: `seat` has called holding the cards of another board."""
        self._td_event(pin, {"td": "wrong_board_call", "seat": seat}, ("auction", "play"),
                       "a call from the wrong board is ruled during the auction (2007 L17D, 2017 L15A)")

    def td_wrong_board(self, pin: str, played_before: bool = False) -> None:
        """2007 L15C / 2017 L15B: the table is bidding a board it should not play this round;
        `played_before`: a player at the table has played it already (decides 2017 L15B1/B2)."""
        self._td_event(pin, {"td": "wrong_board", "played_before": bool(played_before)}, ("auction",),
                       "the wrong board is ruled here during the auction (2007 L15C, 2017 L15B)")

    def td_artificial_score(self, pin: str, ns: str, ew: str, law: str) -> dict[str, Any]:
        """The board cannot be played normally: the TD awards an artificial adjusted score
        (L12C2) instead of a result; it is queued like a result and the table moves on."""
        if not self.check_pin(pin):
            raise PinError("wrong director PIN: nothing was changed")
        if self.session is None or self.board is None or self.phase not in ("auction", "frozen", "play", "confirm"):
            raise Refused("there is no board in play to adjust")
        rec = results.artificial_record(self.session.to_dict(), self.estate, self.board, ns, ew, law, self.clock())
        rec["td_calls"] = self._board_td_calls()
        with self.journal.transaction():
            self.outbox.enqueue("result", rec["key"], rec)
            self._record("adjusted", {"record": rec})
            self._next_board()
        return rec

    def td_correct_result(self, pin: str, board: int, tricks: int, lead: str | None = None) -> dict[str, Any]:
        """Law 79C: the TD corrects the tricks of a result already agreed this round; the station
        gets a new revision of the record."""
        if not self.check_pin(pin):
            raise PinError("wrong director PIN: nothing was changed")
        previous = [r for r in self.done if r["board"] == board]
        if not previous:
            raise Refused(f"board {board} has no agreed result at this table this round")
        rec = results.corrected_record(previous[-1], tricks, lead, self.clock())
        with self.journal.transaction():
            self.outbox.enqueue("result", rec["key"], rec)
            self._record("correction", {"record": rec})
        return rec

    def _next_board(self) -> None:
        assert self.session is not None
        if self.board_index + 1 < len(self.session.boards):
            self._record("board", {"index": self.board_index + 1, "started_at": self.clock()})
        else:
            self._record("round_end", {})

    def open_td_calls(self) -> list[dict[str, Any]]:
        """Director calls from the boxes of the board in play not yet attended, newest last (for
        the console; the tablet's own calls at an irregularity are the console's subject)."""
        return [c for c in self._board_td_calls() if not c.get("auto") and c.get("status") != "resolved"]

    def held(self) -> bool:
        """The auction waits for the director: a box called him (TD key, or UNDO after a confirmed
        call) on the board in play, and he has not yet dismissed the call (`td_attended`)."""
        return self.phase in ("auction", "frozen") and bool(self.open_td_calls())

    def _board_td_calls(self) -> list[dict[str, Any]]:
        """Director calls made on the board in play (calls of earlier rounds are kept too)."""
        return [c for c in self.td_calls if c.get("board") == self.board and c["place"] == self._place()]

    def td_attended(self, pin: str) -> bool:
        """The director has seen to the calls from this table's boxes (he dismisses them on the
        console; signing in alone does not): the station's director page drops them and a held
        auction goes on. True if there were any."""
        if not self.check_pin(pin):
            raise PinError("wrong director PIN: nothing was changed")
        if not any(not c.get("auto") and c.get("status") != "resolved" for c in self.td_calls):
            return False
        self._record("td_attended", {"t": self.clock()})
        return True

    def enter_result(self, tricks: int | None, lead: str | None = None) -> dict[str, Any]:
        """North enters tricks (and the lead). Returns the preview East-West must confirm."""
        if self.phase not in ("play", "confirm"):
            raise Refused("the result can be entered when the auction is over")
        if self.phase == "confirm":
            raise Refused("a result is already waiting for East-West to confirm")
        tricks, lead = results.check_entry(self.estate, tricks, lead)
        self._record("result", {"tricks": tricks, "lead": lead, "entered_at": self.clock()})
        return self.result_preview() or {}

    def result_preview(self) -> dict[str, Any] | None:
        if self.phase not in ("play", "confirm") or not self.estate:
            return None
        contract, declarer = results.contract_of(self.estate)
        tricks = self.entry["tricks"] if self.entry else None
        preview: dict[str, Any] = {
            "board": self.board,
            "contract": contract,
            "declarer": declarer,
            "vulnerability": self.estate.get("vulnerability"),
            "tricks": tricks,
            "lead": self.entry["lead"] if self.entry else None,
            "label": results.tricks_label(contract, tricks),
        }
        if self.entry is not None:
            preview["score_ns"] = results.compute_score(self.estate, tricks)
        return preview

    def ew_confirm(self, accepted: bool = True) -> dict[str, Any] | None:
        """East-West confirm (FSB 98A): the result is journalled and queued in one transaction."""
        if self.phase != "confirm" or self.entry is None or self.session is None or self.board is None:
            raise Refused("there is no result waiting for East-West")
        if not accepted:
            self._record("confirm", {"accepted": False})
            return None
        rec = results.record(
            self.session.to_dict(), self.estate, self.board, self.entry["tricks"], self.entry["lead"],
            self.entry["entered_at"],
        )
        rec["td_calls"] = self._board_td_calls()
        with self.journal.transaction():
            self.outbox.enqueue("result", rec["key"], rec)
            self._record("confirm", {"accepted": True, "record": rec})
            self._next_board()
        return rec

    def tick(self) -> bool:
        """Let time pass: the tray moves when due. True when what the boxes see has changed."""
        if self.screen is None or self.phase != "auction":
            return False
        return self.screen.advance(self._t())

    # ------------------------------------------------------------------ outputs
    def views(self) -> dict[str, dict[str, Any]]:
        return {seat: views.box_view(self, seat) for seat in SEATS}

    def tempo(self) -> list[dict[str, Any]]:
        return views.tempo_rows(self.estate)

    def next_positions(self) -> dict[str, Any] | None:
        if self.session is None:
            return None
        return movement.next_positions(self.session)

    def snapshot(self) -> dict[str, Any]:
        """Everything a screen (Kivy or text) needs to render the table, as plain data."""
        return {
            "phase": self.phase,
            "session": self.session.to_dict() if self.session else None,
            "board": self.board,
            "board_no": self.board_index + 1,
            "boards": len(self.session.boards) if self.session else 0,
            "state": self.estate,
            "screen": self.screen.to_dict() if self.screen else None,
            "result": self.result_preview(),
            "done": list(self.done),
            "next_positions": self.next_positions() if self.phase == "round_end" else None,
            "stop_shown": dict(self.stop_shown),
            "stop_wait": self.stop_wait(),
            "held": self.held(),
            "td_calls": self.open_td_calls(),
        }

    def stop_wait(self) -> dict[str, Any] | None:
        """The stop wait running now (FSB L116B, 2017 L73A2 regulations): the seat that waits, the
        seconds left, and whether the profile locks that seat's box (`enforced`) or only reports."""
        st = self.estate
        until = st.get("stop_lock_until") if self.phase == "auction" else None
        if until is None or st.get("next") is None:
            return None
        remaining = round(float(until) - self._t(), 2)
        if remaining <= 0:
            return None
        return {"seat": st["next"], "remaining": remaining, "until": until,
                "enforced": st.get("stop_enforcement") == "lock"}

    def close(self) -> None:
        self.journal.close()
