"""The table during the auction: a fold over events that applies Laws 15-39 of the selected edition.

`Table(profile, board, policy, no_alerts_by, screens)` takes events one at a time. The interface is
`step(event) -> Accepted | Refused` (outcome.py; docs/interfaces.md section 1): one pass that
classifies the event once and either takes it or refuses it with nothing changed: an irregular
call under the `prevent` policy, a call inside a stop wait the profile locks (FSB L116B), an
alert the profile's rules forbid (FSB L115), and every event the table cannot take now. The
state dict is built only on request (`state()`, `Accepted.state`): the per-call path only
updates a few integers, so replaying a log is fast (bench/bench_engine.py).

`apply`, `take`, `check`, `status`, `irregularity_count` and `irregularities_since` are the
earlier interface, kept with their results: `apply`/`take` record what `step` refuses (a log is
what happened: an irregular call under `prevent` is listed in `refused`, a call inside the stop
wait is reported, a forbidden alert is flagged) and raise EventError for the rest.

Events (docs/table-log.md is the catalogue):
  {"t": 6.0, "seat": "E", "call": "3S", "stop": true}      a call (stop: a stop was shown first)
  {"t": 7.0, "seat": "W", "alert": true}                   an alert
  {"t": 9.0, "td": "<pending kind>", "choice": "<option id>", "call": "2H"}   a TD decision
  {"t": 9.0, "td": "correct_call", "seat": "E", "call": "1H"}   TD allows an unintended call to be
                                                            corrected (L25A) without a pending decision
  {"t": 9.0, "td": "exposed_cards", "seat": "E", "cards": ["SK"], "led": false}   Law 24
  {"t": 9.0, "td": "wrong_board_call", "seat": "E"}        2007 L17D / 2017 L15A
  {"t": 9.0, "td": "wrong_board", "played_before": false}  2007 L15C / 2017 L15B
  {"t": 9.0, "td": "cancel_board"}                         2007 L15C: a repeated call differs
  {"t": 9.0, "tray": true}                                 the tray passed under the screen
  {"t": 5.0, "seat": "N", "call": "1H", "taken": true}     the card taken from the box (FSB L112C)

What the Law leaves to people is an explicit event: the LHO accepts by calling (L25B1, L27A1,
L29A), the player in turn calls over an out-of-turn call (L28B), the offender chooses his
replacement, the TD answers judgement questions (comparable? unintended? same denomination?).
The engine freezes the table (`pending`) until that input arrives (L9B2: nobody acts until the TD
has explained the rectification), except for the calls the Law itself gives a meaning to.

The Laws are one rule object per irregularity (rules.py lists them in detection order; each in
its law module: law15_17, law24, law25, law27, law28_33, law34_39), the fold they share is
fold.py, timing.py the stop and alerts, box_screens.py the box and the tray, law26.py the lead
restrictions. Edition differences are data in laws.py; jurisdiction differences are data in
profiles/*.toml.
"""
from __future__ import annotations

from typing import Any

from shared_rules import boards, box_screens, events, law9, profiles, snapshot, state_view, timing
from shared_rules.calls import CALL_CODE, MAX_LEGAL_RANK, PASS, SEAT_INDEX, SEATS, call_name
from shared_rules.events import T_MAX
from shared_rules.fold import Fold
from shared_rules.model import DEEMED, Deemed, EventError, Found, Rec
from shared_rules.outcome import Accepted, Refused
from shared_rules.types import Pair, Policy, Refusal, Status, TimingKind

_BIDDING = Status.BIDDING
_POLICY = {p.value: p for p in Policy}
_PREVENT = Policy.PREVENT


class Table:
    """One board's auction at one table (docs/interfaces.md section 1)."""

    def __init__(self, profile: str, board: int, policy: str | None = None,
                 no_alerts_by: tuple[str, ...] | list[str] = (), screens: bool | None = None) -> None:
        prof = profiles.load(profile)
        # Screens on or off at this table as the organiser set them (None: the profile's own
        # setting); on only where the regulation has screen rules (FSB L114, 2007/2017 L80B2(e)).
        try:
            prof = profiles.with_screens(prof, screens)
        except profiles.ProfileError as exc:
            raise EventError(str(exc)) from exc
        try:
            dealer = SEAT_INDEX[boards.dealer(board)]
            vulnerability = boards.vulnerability(board)
        except ValueError as exc:
            raise EventError(str(exc)) from exc
        if policy is not None and policy not in profiles.POLICIES:
            raise EventError(f"policy must be 'record' or 'prevent' (got {policy!r})")
        for side in no_alerts_by:
            if side not in tuple(Pair):
                raise EventError(f"no_alerts_by names pairs 'NS' or 'EW' (got {side!r})")
        if no_alerts_by and not prof.alert.pair_may_decline:
            raise EventError(f"profile {prof.name} has no choice for a pair to decline alerts "
                             "(FSB L115A1 is Swedish)")
        self._f = Fold(prof, board, dealer, vulnerability, _POLICY[policy or prof.policy],
                       tuple(sorted(set(no_alerts_by))))
        self._version = 0  # counts the events taken: an Accepted's state is of one version

    # ------------------------------------------------------------------ the setting
    @property
    def profile(self) -> profiles.Profile:
        return self._f.profile

    @property
    def policy(self) -> Policy:
        return self._f.policy

    @property
    def edition(self) -> int:
        return self._f.edition

    @property
    def board(self) -> int:
        return self._f.board

    # ------------------------------------------------------------------ the interface
    def step(self, event: Any) -> Accepted | Refused:
        """Take one event, or refuse it and change nothing (Refused says why, as a kind, with the
        Law). One pass: the event is classified once."""
        f = self._f
        made, n_timing = f.irregularities_made, len(f.timing)
        try:
            refused = self._fold(event, gate=True)
        except EventError as exc:
            return Refused(str(exc), exc.kind, exc.law)
        if refused is not None:
            return refused
        new = min(f.irregularities_made - made, len(f.irregularities))
        raised = tuple(dict(x) for x in f.irregularities[len(f.irregularities) - new:]) if new else ()
        flags = tuple(dict(x) for x in f.timing[n_timing:])
        return Accepted(state_view.status(f), raised, flags, _StateAfter(self, self._version))

    def state(self) -> dict[str, Any]:
        """The state dict (docs/table-log.md "Output"), built now."""
        return state_view.build(self._f)

    def status(self) -> Status:
        """The state's `status`, without building the state."""
        return state_view.status(self._f)

    def tray_due_at(self, delay_s: float | None = None) -> float | None:
        """Screens: the event time from which the tray may pass under the screen, or None while it
        stays on its side (box_screens.tray_due_at; `delay_s` overrides the profile's delay)."""
        return box_screens.tray_due_at(self._f, delay_s)

    def visible_calls(self, seat: str) -> list[dict[str, Any]]:
        """The calls `seat` has seen (behind screens: his side's, as the tray last left it)."""
        if seat not in SEAT_INDEX:
            raise EventError(f"seat must be one of N, E, S, W (got {seat!r})")
        return box_screens.visible_calls(self._f, SEAT_INDEX[seat])

    # ------------------------------------------------------------------ the earlier interface
    def apply(self, event: dict[str, Any]) -> dict[str, Any]:
        """Take one event and return the new state; a refused event raises EventError and
        changes nothing. What `step` refuses at the gate is recorded (see the module's doc)."""
        self._fold(event, gate=False)
        return state_view.build(self._f)

    def take(self, event: dict[str, Any]) -> None:
        """`apply` without building the state: for folding a whole log (replay.py)."""
        self._fold(event, gate=False)

    def irregularities_since(self, n: int) -> list[dict[str, Any]]:
        """The irregularities recorded after the first `n`, as state()["irregularities"] lists
        them: what one event added, without building the whole state."""
        return [dict(x) for x in self._f.irregularities[n:]]

    def irregularity_count(self) -> int:
        return len(self._f.irregularities)

    def check(self, event: dict[str, Any]) -> dict[str, Any] | None:
        """What a call event would be, without changing anything: None for a regular call, else
        {"kind", "law", "seat", "call", "action"}; "action" is "refuse" under the prevent policy and
        "record" otherwise. Malformed events raise EventError, as apply would."""
        f = self._f
        kind, seat, code, t = self._validate(event)
        if kind != "call" or f.pending is not None:
            return None
        taken = bool(event.get("taken"))
        if not box_screens.is_a_call(f, seat, code, taken):  # only noted, or confirmed (FSB L112C)
            return None
        if f.status is Status.ADJUSTED_SCORE:
            return {"kind": Refusal.AUCTION_STOPPED, "law": f.adjusted["law"] if f.adjusted else "",
                    "seat": SEATS[seat], "call": call_name(code), "action": "refuse"}
        found = f.classify(seat, code)
        if isinstance(found, Deemed):
            found = f.after_deemed_pass(seat, code)
        if found is None:
            until = timing.lock_until(f, seat, t)
            if until is not None:  # the profile locks the next box during the stop wait (FSB L116B)
                return {"kind": TimingKind.STOP_WAIT_SHORT, "law": f.profile.stop.law, "seat": SEATS[seat],
                        "call": call_name(code), "action": "refuse", "until": until}
            return None
        return {"kind": found.rule.kind, "law": found.rule.law_for(f.edition), "seat": SEATS[seat],
                "call": call_name(code), "action": "refuse" if f.policy is _PREVENT else "record"}

    # ------------------------------------------------------------------ one pass
    def _validate(self, ev: Any) -> tuple[str, int, int, float]:
        return events.validate(self._f, ev)

    def _fold(self, ev: Any, gate: bool) -> Refused | None:
        """Take `ev` or raise EventError with nothing changed. `gate`: refuse (return Refused) what
        `step` refuses and `apply` records."""
        f = self._f
        # Fast path for the common event, a plain call, or a call from a box that reports the card
        # taken out (FSB L112C: the tablet sends `taken` on every box call under fsb-2007): the
        # same checks as events.validate, fewer steps.
        if type(ev) is dict and f.pending is None and "call" in ev and "td" not in ev:
            n = len(ev)
            stop = ev.get("stop")
            taken = ev.get("taken")
            if type(taken) is bool:
                n -= 1
            if (n == 3 and stop is None) or (n == 4 and type(stop) is bool):
                t, seat, call = ev.get("t"), ev.get("seat"), ev.get("call")
                if (type(t) is float or type(t) is int) and type(seat) is str and type(call) is str:
                    code = CALL_CODE.get(call)
                    s = SEAT_INDEX.get(seat)
                    if code is not None and s is not None and f.last_t <= t <= T_MAX:
                        if ((taken is None and f.taken is None) or (taken is True and f.taken_makes)) \
                                and s == f.turn and f.status is _BIDDING \
                                and (code == PASS or f.last_bid < code <= MAX_LEGAL_RANK) \
                                and s not in f.must_pass and s not in f.repeat:
                            # a plainly legal call in turn (as Fold.classify's first test): it stands;
                            # taken from the box, it is the call (FSB L112C, box_screens.is_a_call)
                            if gate and f.stop_from is not None:
                                refused = self._locked(s, code, t)
                                if refused is not None:
                                    return refused
                            f.stand(Rec(s, code, t, t - f.turn_t, stop is True))
                            if taken is True:
                                box_screens.noted(f, s, code, t, True, True)
                        else:
                            refused = self._box_call(s, code, t, stop is True, taken, gate)
                            if refused is not None:
                                return refused
                        f.last_t = t
                        self._version += 1
                        if f.screens:
                            box_screens.count_calls(f, t)
                        return None
        kind, s, code, t = self._validate(ev)
        if kind == "call":
            taken = ev.get("taken")
            refused = self._box_call(s, code, t, bool(ev.get("stop", False)), taken, gate)
            if refused is not None:
                return refused
        elif kind == "alert":
            judged = timing.judge_alert(f, s, t)  # refused (EventError) before anything changes
            flag = judged.forbidden() if gate else None
            if flag is not None:  # the profile's alert rules forbid it (FSB L115)
                return Refused(f"{flag['kind'].replace('_', ' ')} ({flag['law']})", flag["kind"], flag["law"])
            timing.alert(f, judged)
        elif kind == "tray":
            box_screens.tray(f, t)  # refused (EventError) before anything changes
        else:
            f.on_td(ev, s, code, t)  # a finding or a ruling refuses before it changes anything
        self._taken_at(t)
        return None

    def _taken_at(self, t: float) -> None:
        f = self._f
        f.last_t = t
        self._version += 1
        if f.screens:
            box_screens.count_calls(f, t)

    def _box_call(self, seat: int, code: int, t: float, stop: bool, taken: bool | None,
                  gate: bool) -> Refused | None:
        """A call event; from a box that reports the card taken out (`taken`), or the box's
        confirmation of such a call, the box's part too (box_screens.is_a_call)."""
        f = self._f
        rec = Rec(seat, code, t, t - f.turn_t, stop)
        if taken is None and f.taken is None:
            return self._call(rec, gate)
        made = box_screens.is_a_call(f, seat, code, taken is True)
        if made:
            refused = self._call(rec, gate)
            if refused is not None:
                return refused
        box_screens.noted(f, seat, code, t, taken is True, made)
        return None

    def _call(self, rec: Rec, gate: bool) -> Refused | None:
        """A call: classified once; at the gate refused, or taken. A call that may be refused
        after changes began (while a decision is pending; after an L28A deemed pass) runs inside a
        saved state (snapshot.py); every other one is judged before anything changes."""
        f = self._f
        if f.pending is not None:
            # L9B2: a call the Law gives no meaning while the TD is awaited is refused at the box;
            # in a log it was made, and is recorded and cancelled (law9.py). So is one a rule
            # refuses part-way (an early replacement the Law does not allow), with the table as
            # it was before it.
            saved = snapshot.save(f)
            f.awaiting_refusal = None
            try:
                f.call_while_pending(rec)
            except EventError as exc:
                snapshot.restore(f, saved)
                if gate:
                    raise
                law9.CALL_WHILE_AWAITING_TD.made(f, rec, exc)
                return None
            if gate and f.awaiting_refusal is not None:
                refusal = f.awaiting_refusal
                snapshot.restore(f, saved)
                raise refusal
            return None
        found = f.classify(rec.seat, rec.code)  # refuses a call after an adjusted score, unchanged
        if gate:
            refused = self._gate(rec, found)
            if refused is not None:
                return refused
        if found is DEEMED:
            saved = snapshot.save(f)
            try:
                f.take_call(rec, found)
            except EventError:
                snapshot.restore(f, saved)
                raise
        else:
            f.take_call(rec, found)
        return None

    def _gate(self, rec: Rec, found: Found | Deemed | None) -> Refused | None:
        """What `step` refuses of a call with no decision pending: under `prevent` an irregular
        call, whatever the policy a call inside a stop wait the profile locks (FSB L116B)."""
        f = self._f
        if isinstance(found, Deemed):  # L28A: judged as after the deemed pass
            found = f.after_deemed_pass(rec.seat, rec.code)
        if found is None:
            return self._locked(rec.seat, rec.code, rec.t)
        if f.policy is _PREVENT:
            law = found.rule.law_for(f.edition)
            return Refused(f"{found.rule.kind.replace('_', ' ')} ({law})", found.rule.kind, law)
        return None

    def _locked(self, seat: int, code: int, t: float) -> Refused | None:
        until = timing.lock_until(self._f, seat, t)
        if until is None:
            return None
        law = self._f.profile.stop.law
        return Refused(f"stop wait short ({law}): {SEATS[seat]} may call from t={until}",
                       TimingKind.STOP_WAIT_SHORT, law, until)


class _StateAfter:
    """An Accepted's state: built from the table on first read, while the table has taken no
    other event, and kept."""

    __slots__ = ("table", "version", "state")

    def __init__(self, table: Table, version: int) -> None:
        self.table, self.version = table, version
        self.state: dict[str, Any] | None = None

    def __call__(self) -> dict[str, Any]:
        if self.state is None:
            if self.version != self.table._version:
                raise RuntimeError("the table has taken another event since: read Table.state() for its "
                                   "state now")
            self.state = self.table.state()
        return self.state


__all__ = ["Table", "EventError", "Accepted", "Refused"]
