"""The table during the auction: a fold over events that applies Laws 17-39 of the selected edition.

`Table(profile, board, policy)` takes events one at a time (`apply`), answers what an event would
be without changing anything (`check`), and gives the full state on request (`state`). The state
dict is built only on request: the per-call path only updates a few integers, so replaying a log
is fast (bench/bench_engine.py).

Events (docs/table-log.md is the catalogue):
  {"t": 6.0, "seat": "E", "call": "3S", "stop": true}      a call (stop: a stop was shown first)
  {"t": 7.0, "seat": "W", "alert": true}                   an alert
  {"t": 9.0, "td": "<pending kind>", "choice": "<option id>", "call": "2H"}   a TD decision
  {"t": 9.0, "td": "correct_call", "seat": "E", "call": "1H"}   TD allows an unintended call to be
                                                            corrected (L25A) without a pending decision
  {"t": 9.0, "td": "exposed_cards", "seat": "E", "cards": ["SK"], "led": false}   Law 24
  {"t": 9.0, "td": "wrong_board_call", "seat": "E"}        2007 L17D / 2017 L15A
  {"t": 9.0, "td": "wrong_board", "played_before": false}  2007 L15C / 2017 L15B

What the Law leaves to people is an explicit event: the LHO accepts by calling (L25B1, L27A1,
L29A), the player in turn calls over an out-of-turn call (L28B), the offender chooses his
replacement, the TD answers judgement questions (comparable? unintended? same denomination?).
The engine freezes the table (`pending`) until that input arrives (L9B2: nobody acts until the TD
has explained the rectification), except for the calls the Law itself gives a meaning to.

Edition differences are data in laws.py; jurisdiction differences are data in profiles/*.toml.
"""
from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from shared_rules import auction, boards, law26, laws, profiles
from shared_rules.calls import (
    CALL_CODE,
    DOUBLE,
    MAX_LEGAL_RANK,
    PASS,
    SEAT_INDEX,
    SEATS,
    call_name,
    is_jump,
    level,
    lho,
    min_level,
    opponents,
    partner,
    rho,
    strain,
)
from shared_rules.texts import option_text

BIDDING, ENDED, PASSED_OUT, AWAITING = "bidding", "ended", "passed_out", "awaiting_td"
ADJUSTED = "adjusted_score"  # the auction cannot go on: the TD awards an adjusted score
_POSITION = {1: "lho", 2: "partner", 3: "rho"}  # (turn - offender) mod 4 -> whose turn it was
_EVENT_KEYS = {"t", "seat", "call", "stop", "alert", "td", "choice", "cards", "led", "played_before", "taken", "tray"}
# TD events that answer no pending decision, with the fields each may carry besides t and td.
_DIRECT_TD = {
    "correct_call": {"seat", "call"},
    "misinformation_change": {"seat", "call"},
    "exposed_cards": {"seat", "cards", "led"},
    "wrong_board_call": {"seat"},
    "wrong_board": {"played_before"},
    "cancel_board": set(),
}
_CARD_SUITS, _CARD_RANKS = "SHDC", "AKQJT98765432"
# Event times are seconds from the board's start; far beyond any session, but finite floats.
_T_MAX = 1e12
_BID_NAMES = tuple(call_name(r) for r in range(MAX_LEGAL_RANK + 1))


class EventError(ValueError):
    """An event the table cannot take in its current state; nothing was changed."""


class Rec:
    """One call as made at the table."""

    __slots__ = ("seat", "code", "t", "think", "stop", "alerted_by", "alert_t", "in_rotation", "deemed", "acted",
                 "alerted_to", "_view")

    def __init__(self, seat: int, code: int, t: float, think: float, stop: bool) -> None:
        self.seat = seat
        self.code = code
        self.t = t
        self.think = think
        self.stop = stop
        self.alerted_by: int | None = None
        self.alert_t: float | None = None
        self.in_rotation = True
        self.deemed = False
        # When the player himself first acted at this turn: a call the TD enters later (a
        # replacement) keeps the time of the player's own call, which is what FSB L116B times.
        self.acted = t
        self.alerted_to: list[int] = []  # with screens: the screenmates the call was alerted to
        self._view: dict[str, Any] | None = None

    def view(self) -> dict[str, Any]:
        """The call as the state lists it, built once: a state is then linear in the number of
        changed calls, not in the auction's length (the tablet builds one per event)."""
        d = self._view
        if d is None:
            d = {"seat": SEATS[self.seat], "call": call_name(self.code), "alerted": self.alerted_by is not None,
                 "stop": self.stop, "think": round(self.think, 3), "t": self.t}
            if self.alerted_by is not None:
                d["alerted_by"] = SEATS[self.alerted_by]
                d["alert_t"] = self.alert_t
            if not self.in_rotation:
                d["in_rotation"] = False
            if self.deemed:
                d["deemed"] = True
            if self.alerted_to:
                d["alerted_to"] = [SEATS[x] for x in self.alerted_to]
            self._view = d
        return d


class Option:
    """One choice the Law gives: `id` (kept in journals and logs), `text` the key of its words in
    texts.OPTION_TEXTS with `params`, `label` the English words, the law it applies."""

    __slots__ = ("id", "text", "params", "label", "law", "needs_call")

    def __init__(self, id_: str, text: str, law: str, needs_call: bool = False, **params: str) -> None:
        self.id, self.text, self.params, self.law, self.needs_call = id_, text, params, law, needs_call
        self.label = option_text(text, params)


@dataclass
class Context:
    """What a pending decision needs to know besides the call it is about."""

    turn: int | None = None  # the player in turn when the irregular call was made
    position: str = ""  # whose turn it was, seen from the offender: "lho" | "partner" | "rho"
    out_of_rotation: bool = False  # an inadmissible X/XX or a bid above seven made out of turn
    only_bid_or_pass: bool = False  # L27B4 -> B3: the replacement must be a sufficient bid or pass
    insufficient_bid: Rec | None = None  # the insufficient bid a replacement is judged against (L27B1)
    question: laws.Deferred | None = None  # comparable (2017 L23A) / same denomination (2007 L31A2)
    withdrawn: Rec | None = None  # the cancelled call the question compares with
    lho_call: Rec | None = None  # 2007 L17D2: the LHO's call over a call from the wrong board
    cancelled: Rec | None = None  # 2007 L17D2: that cancelled call


class Pending:
    """A decision the table waits for. `asks`: who acts next ("lho": the offender's LHO may call
    over the irregularity, which the Law gives a meaning; "td": only the TD can answer)."""

    __slots__ = ("kind", "law", "seat", "asks", "options", "rec", "context", "irregularity")

    def __init__(
        self, kind: str, law: str, seat: int, asks: str, options: list[Option], rec: Rec | None,
        irregularity: dict[str, Any] | None, context: Context | None = None,
    ) -> None:
        self.kind, self.law, self.seat, self.asks = kind, law, seat, asks
        self.options, self.rec, self.irregularity = options, rec, irregularity
        self.context = context or Context()


def _check_cards(cards: Any) -> None:
    if not isinstance(cards, list) or not 1 <= len(cards) <= 13:
        raise EventError("cards must be a list of 1 to 13 cards, e.g. [\"SK\", \"H7\"]")
    for c in cards:
        if not isinstance(c, str) or len(c) != 2 or c[0] not in _CARD_SUITS or c[1] not in _CARD_RANKS:
            raise EventError(f"unknown card {c!r}: a card is a suit S H D C and a rank A K Q J T 9..2, e.g. SK, HT, D7")
    if len(set(cards)) != len(cards):
        raise EventError("a card is listed twice")


def _short(value: Any) -> str:
    text = repr(value) if not isinstance(value, int) or abs(value) < 10**20 else f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
    return text if len(text) <= 40 else text[:37] + "..."


def parse_call(value: Any) -> int:
    code = CALL_CODE.get(value) if isinstance(value, str) else None
    if code is None:
        raise EventError(f"call must be one of 1C..7NT, P, X, XX (got {value!r})")
    return code


class Table:
    def __init__(self, profile: str, board: int, policy: str | None = None,
                 no_alerts_by: tuple[str, ...] | list[str] = ()) -> None:
        self.profile = profiles.load(profile)
        try:
            self.dealer = SEAT_INDEX[boards.dealer(board)]
            self.vulnerability = boards.vulnerability(board)
        except ValueError as exc:
            raise EventError(str(exc)) from exc
        if policy is not None and policy not in profiles.POLICIES:
            raise EventError(f"policy must be 'record' or 'prevent' (got {policy!r})")
        for side in no_alerts_by:
            if side not in ("NS", "EW"):
                raise EventError(f"no_alerts_by names pairs 'NS' or 'EW' (got {side!r})")
        if no_alerts_by and not self.profile.alert.pair_may_decline:
            raise EventError(f"profile {self.profile.name} has no choice for a pair to decline alerts "
                             "(FSB L115A1 is Swedish)")
        # The pairs asked by their opponents not to alert at this table (FSB L115A1-A2).
        self.no_alerts_by = tuple(sorted(set(no_alerts_by)))
        self.board = board
        self.edition = self.profile.edition
        self.policy = policy or self.profile.policy
        self.refs = laws.REFS[self.edition]
        stop = self.profile.stop
        self._stop_open = stop.enabled and "opening_two_level" in stop.triggers
        self._stop_jump = stop.enabled and "jump" in stop.triggers
        self._calls: list[Rec] = []
        self._turn: int | None = self.dealer
        self._turn_t = 0.0
        self._last_t = 0.0
        self._status = BIDDING
        self._last_bid = -1
        self._last_action = 0  # code of the last non-pass call (0 = none yet; bids are >= 0 but see _has_action)
        self._last_action_seat = -1
        self._has_action = False
        self._trailing_passes = 0
        self._must_pass: dict[int, tuple[str, str]] = {}
        self._repeat: dict[int, tuple[int, str]] = {}
        self._no_double: dict[int, str] = {}
        self._judge_next_call: dict[int, tuple[laws.Deferred, Rec]] = {}
        self._rho_watch: dict[int, tuple[int, laws.OotRule, Rec]] = {}
        self._pending: Pending | None = None
        self._stop_from: tuple[float, int] | None = None
        self._irregularities: list[dict[str, Any]] = []
        self._timing: list[dict[str, Any]] = []
        self._withdrawn: list[dict[str, Any]] = []
        self._leads: list[dict[str, Any]] = []
        self._reviews: list[dict[str, Any]] = []
        self._refused: list[dict[str, Any]] = []
        self._exposed: list[dict[str, Any]] = []
        self._adjusted: dict[str, Any] | None = None
        self._wrong_board: dict[str, Any] | None = None
        self._wrong_board_ruled: set[int] = set()
        self._wrong_board_repeat: dict[int, tuple[Rec, Rec]] = {}
        self._views: list[dict[str, Any]] = []  # Rec.view() of the standing calls, for state()
        # Screens (FSB L114, 2007/2017 L80B2(e)): which side holds the tray (index into the
        # screenmates), and every pass of the tray under the screen.
        self._screenmates = tuple(tuple(SEAT_INDEX[x] for x in pair) for pair in self.profile.screens.screenmates)
        self._tray_side = next(i for i, pair in enumerate(self._screenmates) if self.dealer in pair)
        self._tray_passes: list[dict[str, Any]] = []
        # FSB L112C: a call taken from the box with visible intent is made; the box's confirmation
        # that follows is the same call, not a second one. (seat, code) of that call until then.
        self._taken: tuple[int, int] | None = None
        self._box_taken: list[dict[str, Any]] = []
        # The events taken so far: a refused event is undone by folding them again (refusals are
        # rare; the accepted path pays nothing for it).
        self._events: list[Any] = []
        self._args = (profile, board, policy, tuple(no_alerts_by))

    # ------------------------------------------------------------------ public API
    def apply(self, event: dict[str, Any]) -> dict[str, Any]:
        """Take one event and return the new state; a refused event raises EventError and
        changes nothing."""
        self._apply(event)
        return self.state()

    def take(self, event: dict[str, Any]) -> None:
        """`apply` without building the state: for folding a whole log (replay.py), where the
        state is wanted once, at the end."""
        self._apply(event)

    def check(self, event: dict[str, Any]) -> dict[str, Any] | None:
        """What a call event would be, without changing anything: None for a regular call, else
        {"kind", "law", "seat", "call", "action"}; "action" is "refuse" under the prevent policy and
        "record" otherwise. Malformed events raise EventError, as apply would."""
        kind, seat, code, _t = self._validate(event)
        if kind != "call" or self._pending is not None:
            return None
        if event.get("taken") and self.profile.call_made != "taken":
            return None  # a card taken out is not a call until confirmed under this profile
        if not event.get("taken") and self._taken == (seat, code):
            return None  # the confirmation of a call already made (FSB L112C)
        if self._status == ADJUSTED:
            return {"kind": "auction_stopped", "law": self._adjusted["law"] if self._adjusted else "",
                    "seat": SEATS[seat], "call": call_name(code), "action": "refuse"}
        found = self._classify(seat, code)
        if found is not None and found[0] == "deemed":
            found = self._after_deemed_pass(seat, code)
        if found is None:
            stop = self.profile.stop
            if (stop.enforcement == "lock" and self._stop_from is not None and self._stop_from[1] == seat
                    and _t < self._stop_from[0] + stop.wait_s - stop.tolerance_s):
                # the profile locks the next box during the stop wait (FSB L116B)
                return {"kind": "stop_wait_short", "law": stop.law, "seat": SEATS[seat], "call": call_name(code),
                        "action": "refuse", "until": self._stop_from[0] + stop.wait_s}
            return None
        return {
            "kind": found[0], "law": self._kind_law(found[0]), "seat": SEATS[seat], "call": call_name(code),
            "action": "refuse" if self.policy == "prevent" else "record",
        }

    # ------------------------------------------------------------------ validation
    def _validate(self, ev: Any) -> tuple[str, int, int, float]:
        if not isinstance(ev, dict):
            raise EventError(f"an event must be a JSON object, not {type(ev).__name__}")
        extra = set(ev) - _EVENT_KEYS
        if extra:
            raise EventError(f"unknown event field(s): {', '.join(sorted(map(str, extra)))}")
        t = ev.get("t")
        if isinstance(t, bool) or not isinstance(t, int | float) or not 0 <= t <= _T_MAX or t != t:
            raise EventError(f"t must be a non-negative number of seconds, at most {_T_MAX:.0e} (got {_short(t)})")
        if t < self._last_t:
            raise EventError(f"t={t} is earlier than the previous event (t={self._last_t}): events must be in time order")
        kinds = [k for k in ("call", "alert") if k in ev]
        if "tray" in ev:
            if set(ev) != {"t", "tray"} or ev["tray"] is not True:
                raise EventError('a tray event is {"t": ..., "tray": true} (the tray passed under the screen)')
            if not self.profile.screens.enabled:
                raise EventError(f"profile {self.profile.name} plays without screens: there is no tray")
            return "tray", -1, 0, float(t)
        if "taken" in ev and ("call" not in ev or "td" in ev or not isinstance(ev["taken"], bool)):
            raise EventError("taken must be true/false, and only on a call (the card taken from the box, FSB L112C)")
        if "td" in ev:
            if "alert" in ev:
                raise EventError("a td event cannot also be an alert")
            kind = "td"
        elif len(kinds) != 1:
            raise EventError("an event must have exactly one of 'call', 'alert', 'td'")
        else:
            kind = kinds[0]
        seat = -1
        if "seat" in ev:
            if ev["seat"] not in SEAT_INDEX:
                raise EventError(f"seat must be one of N, E, S, W (got {ev['seat']!r})")
            seat = SEAT_INDEX[ev["seat"]]
        elif kind != "td":
            raise EventError(f"a {kind} event needs a seat")
        if "stop" in ev and (not isinstance(ev["stop"], bool) or not (kind == "call" or (kind == "td" and "call" in ev))):
            raise EventError("stop must be true/false, and only on an event with a call (a call, or the TD's replacement)")
        if kind == "alert" and ev["alert"] is not True:
            raise EventError("alert must be true")
        if "choice" in ev and kind != "td":
            raise EventError("choice belongs to a td event")
        direct = _DIRECT_TD.get(ev["td"]) if kind == "td" and isinstance(ev["td"], str) else None
        for key in ("cards", "led", "played_before"):
            if key in ev and (direct is None or key not in direct):
                raise EventError(f"{key} belongs only to a td event that takes it (see docs/table-log.md)")
        if direct is not None and ev["td"] not in ("correct_call", "misinformation_change"):
            extra = set(ev) - direct - {"t", "td"}
            if extra:
                raise EventError(f"a {ev['td']} event takes no {', '.join(sorted(extra))}")
            if "seat" in direct and "seat" not in ev:
                raise EventError(f"a {ev['td']} event needs the seat")
            if "led" in ev and not isinstance(ev["led"], bool):
                raise EventError("led must be true/false")
            if "played_before" in ev and not isinstance(ev["played_before"], bool):
                raise EventError("played_before must be true/false")
            if "cards" in direct:
                _check_cards(ev.get("cards"))
        code = 0
        if kind == "call" or (kind == "td" and "call" in ev):
            code = parse_call(ev["call"])
        if kind == "td":
            if not isinstance(ev["td"], str):
                raise EventError("td must name the decision (a string)")
            if ev["td"] not in _DIRECT_TD and ev["td"] not in _RULINGS:
                raise EventError(f"unknown TD ruling kind {_short(ev['td'])}: a pending decision's kind "
                                 f"({', '.join(sorted(_RULINGS))}) or one of {', '.join(_DIRECT_TD)}")
            if ev["td"] not in _DIRECT_TD and not isinstance(ev.get("choice"), str):
                raise EventError("a td event needs a choice (one of the pending decision's option ids)")
        return kind, seat, code, float(t)

    def _apply(self, ev: Any) -> None:
        # Fast path for the common event, a plain call: same checks as _validate, fewer steps.
        if type(ev) is dict and self._pending is None and self._taken is None and "call" in ev and "td" not in ev:
            n = len(ev)
            stop = ev.get("stop")
            if (n == 3 and stop is None) or (n == 4 and type(stop) is bool):
                t, seat, call = ev.get("t"), ev.get("seat"), ev.get("call")
                if (type(t) is float or type(t) is int) and type(seat) is str and type(call) is str:
                    code = CALL_CODE.get(call)
                    s = SEAT_INDEX.get(seat)
                    if code is not None and s is not None and self._last_t <= t <= _T_MAX:
                        try:
                            self._on_call(Rec(s, code, t, t - self._turn_t, stop is True))
                        except EventError:
                            self._undo()
                            raise
                        self._last_t = t
                        self._events.append(ev)
                        return
        kind, seat, code, t = self._validate(ev)
        try:
            if kind == "call" and ("taken" in ev or self._taken is not None):
                self._on_box_call(ev, seat, code, t)
            elif kind == "call":
                self._on_call(Rec(seat, code, t, t - self._turn_t, bool(ev.get("stop", False))))
            elif kind == "alert":
                self._on_alert(seat, t)
            elif kind == "tray":
                self._on_tray(t)
            else:
                self._on_td(ev, seat, code, t)
        except EventError:
            self._undo()
            raise
        self._last_t = t
        self._events.append(ev)

    def _undo(self) -> None:
        """Put the table back as it was before the refused event: fold the taken events again."""
        fresh = Table(*self._args[:3], no_alerts_by=self._args[3])
        for ev in self._events:
            fresh._apply(ev)
        self.__dict__.update(fresh.__dict__)

    # ------------------------------------------------------------------ classification
    def _admissible(self, seat: int, code: int) -> bool:
        # L19A1 / L19B1 (both editions)
        if not self._has_action or not opponents(self._last_action_seat, seat):
            return False
        return self._last_action >= 0 if code == DOUBLE else self._last_action == DOUBLE

    def _in_turn(self, s: int, code: int) -> tuple[str, Any] | None:
        """A call in turn, in the detection order of docs/rules-engine.md (L38, L36 before L37 as L37A
        excludes it, L37, L27)."""
        if code >= 0:
            if code > MAX_LEGAL_RANK:
                return ("bid_above_seven", False)
            if s in self._must_pass:
                return ("call_when_required_to_pass", None)
            if code <= self._last_bid:
                return ("insufficient_bid", None)
        elif code != PASS:
            if not self._admissible(s, code):
                return ("inadmissible_double", False)
            if s in self._must_pass:
                return ("call_when_required_to_pass", None)
            if s in self._no_double:
                return ("restricted_call", None)
        if s in self._repeat and self._repeat[s][0] != code:
            return ("repeat_not_made", None)
        return None

    def _classify(self, s: int, code: int) -> tuple[str, Any] | None:
        if self._status != BIDDING:
            if self._status == ADJUSTED:
                law = self._adjusted["law"] if self._adjusted else ""
                raise EventError(f"the auction was stopped: the TD awards an adjusted score ({law}); no more calls")
            return ("call_after_final_pass", None)
        turn = self._turn
        assert turn is not None
        if s == turn:
            return self._in_turn(s, code)
        if turn == rho(s) and turn in self._must_pass:
            # L28A: RHO is required to pass, so his pass is deemed made and this call is judged
            # in turn after it (see _after_deemed_pass).
            return ("deemed", None)
        if turn == lho(s) and self._calls and self._calls[-1].seat == s:
            return ("change_of_call", None)  # 2007 L30B3/L31B fn; 2017 L30B2, L31C, L32C
        if code > MAX_LEGAL_RANK:
            return ("bid_above_seven", True)
        if code < PASS and not self._admissible(s, code):
            return ("inadmissible_double", True)
        return ("call_out_of_rotation", _POSITION[(turn - s) & 3])

    def _after_deemed_pass(self, s: int, code: int) -> tuple[str, Any] | None:
        """What a call after an L28A deemed pass is, without changing anything: a call after the
        final pass if the deemed pass ends the auction (L39), else judged in turn."""
        if self._trailing_passes == (2 if self._has_action else 3):
            return ("call_after_final_pass", None)
        return self._in_turn(s, code)

    def _kind_law(self, kind: str) -> str:
        r = self.refs
        return {
            "call_after_final_pass": r["after_final_pass"],
            "bid_above_seven": r["above_seven"],
            "call_when_required_to_pass": r["required_to_pass"],
            "insufficient_bid": r["insufficient_bid"],
            "inadmissible_double": r["inadmissible_double"],
            "change_of_call": r["change_of_call"],
            "call_out_of_rotation": r["out_of_rotation_laws"],
            "restricted_call": r["no_double"] or r["td_decides"],
            "repeat_not_made": r["repeat"],
            "simultaneous_calls": r["simultaneous"],
        }[kind]

    # ------------------------------------------------------------------ calls
    def _on_call(self, rec: Rec) -> None:
        if self._pending is not None:
            self._pending_call(rec)
            return
        found = self._classify(rec.seat, rec.code)
        if found is None:
            self._stand(rec)
            return
        kind, extra = found
        if kind == "deemed":
            after = self._after_deemed_pass(rec.seat, rec.code)
            if after is not None and self.policy == "prevent":
                kind, extra = after  # refused before anyone saw it: no pass is deemed either
            else:
                deemed = Rec(rho(rec.seat), PASS, rec.t, rec.t - self._turn_t, False)
                deemed.deemed = True
                self._stand(deemed)  # L28A: the RHO's pass, then the call in rotation after it
                rec.think = rec.t - self._turn_t
                self._on_call(rec)
                return
        if self.policy == "prevent":
            self._refused.append({
                "t": rec.t, "seat": SEATS[rec.seat], "call": call_name(rec.code), "kind": kind,
                "law": self._kind_law(kind),
            })
            return
        self._raise(kind, extra, rec)

    def _stand(self, rec: Rec) -> None:
        """A call that stands (legal, accepted, or deemed): the per-call hot path."""
        s, code = rec.seat, rec.code
        if self._stop_from is not None:
            if self._stop_from[1] == s:
                self._check_stop_wait(rec)
            self._stop_from = None
        if code >= 0:
            if (self._stop_open and self._last_bid < 0 and code >= 5) or (
                self._stop_jump and is_jump(code, self._last_bid)
            ):
                if not rec.stop:
                    self._timing.append({
                        "kind": "stop_missing", "seat": SEATS[s], "t": rec.t, "call": call_name(code),
                        "law": self.profile.stop.law,
                    })
            self._last_bid = code
        if rec.stop and self.profile.stop.enabled:
            self._stop_from = (rec.t, lho(s))
        self._calls.append(rec)
        if code == PASS:
            self._trailing_passes += 1
        else:
            self._trailing_passes = 0
            self._has_action = True
            self._last_action = code
            self._last_action_seat = s
        if self._must_pass:
            ob = self._must_pass.get(s)
            # The turn is used, whatever was called: a call in violation that LHO condoned (L37A)
            # uses it too; only a rest-of-auction obligation lasts ("måste han fortfarande passa
            # varje gång", 2007 L37A; 2017 L37A the same).
            if ob is not None and ob[0] == "next_turn" and rec.in_rotation:
                del self._must_pass[s]
        if self._no_double:
            self._no_double.pop(s, None)
        if self._repeat:
            self._repeat.pop(s, None)
        self._turn = lho(s)
        self._turn_t = rec.t
        if self._rho_watch and s in self._rho_watch:
            self._watched(s, code, rec.t)
        if self._trailing_passes >= 3 and self._trailing_passes == (3 if self._has_action else 4):
            self._end_check(rec.t)
        if self._judge_next_call and s in self._judge_next_call and rec.in_rotation and not rec.deemed:
            self._ask_deferred(s, rec)
        if self._wrong_board_repeat and s in self._wrong_board_repeat:
            self._wrong_board_new_call(s, rec)

    def _check_stop_wait(self, rec: Rec) -> None:
        assert self._stop_from is not None
        waited = rec.acted - self._stop_from[0]
        stop = self.profile.stop
        if waited < stop.wait_s - stop.tolerance_s:
            self._timing.append({
                "kind": "stop_wait_short", "seat": SEATS[rec.seat], "t": rec.t, "waited": round(waited, 3),
                "wait": stop.wait_s, "law": stop.law,
            })
        elif waited > stop.long_thought_s:
            self._timing.append({
                "kind": "long_thought_after_stop", "seat": SEATS[rec.seat], "t": rec.t,
                "waited": round(waited, 3), "threshold": stop.long_thought_s, "law": f"{stop.law}, {self.refs['tempo_ui']}",
            })

    def _end_check(self, t: float) -> None:
        """L22 with the deprived-player rule (2007 L17E2/L34, 2017 L17D3/L34; docs/laws/auction.md)."""
        tail = self._calls[-4:]
        seats = {r.seat for r in tail}
        if len(seats) == 4:
            self._status = ENDED if self._has_action else PASSED_OUT
            self._turn = None
            return
        anchor = tail[0].seat
        deprived = next(x for x in ((anchor + k) & 3 for k in range(1, 4)) if x not in seats)
        passes = self._calls[-3:]
        cut = next((i for i, r in enumerate(passes) if not r.in_rotation), None)
        if cut is None:
            cut = next(i for i, r in enumerate(passes) if r.seat != (anchor + 1 + i) & 3)
        first = len(self._calls) - 3 + cut
        offender = self._calls[first]
        law = self.refs["deprived"]
        self._irregularities.append({
            "kind": "call_out_of_rotation", "seat": SEATS[offender.seat], "law": law, "t": offender.t,
            "call": "P", "deprived": SEATS[deprived], "ruling": law, "resolution": "auction_continues",
        })
        for r in self._calls[first:]:
            self._withdraw(r, "passes after a deprived player's turn are cancelled", law)
        del self._calls[first:]
        self._rebuild()
        self._turn = deprived
        self._turn_t = t

    def _rebuild(self) -> None:
        self._views.clear()
        self._last_bid, self._has_action, self._trailing_passes = -1, False, 0
        for r in self._calls:
            if r.code == PASS:
                self._trailing_passes += 1
            else:
                self._trailing_passes = 0
                self._has_action, self._last_action, self._last_action_seat = True, r.code, r.seat
                if r.code >= 0:
                    self._last_bid = r.code

    def _reopen(self, seat: int, t: float) -> None:
        """Take back `seat`'s last call, which must be the last standing call (L25A, L36A...)."""
        rec = self._calls.pop()
        assert rec.seat == seat
        self._rebuild()
        self._status = BIDDING
        self._turn = seat
        self._turn_t = t

    # ------------------------------------------------------------------ bookkeeping helpers
    def _withdraw(self, rec: Rec, reason: str, law: str) -> None:
        self._withdrawn.append({
            "seat": SEATS[rec.seat], "call": call_name(rec.code), "t": rec.t, "reason": reason, "law": law,
        })

    def _oblige(self, seat: int, how: str, law: str) -> None:
        old = self._must_pass.get(seat)
        if old is None or (old[0] == "next_turn" and how == "rest"):
            self._must_pass[seat] = (how, law)

    def _review(self, seat: int, law: str, reason: str) -> None:
        self._reviews.append({"seat": SEATS[seat], "law": law, "reason": reason})

    def _lead(self, offender: int, withdrawn: Rec, law_hint: str) -> None:
        """Record a Law 26 lead restriction candidate. What it allows is worked out against the
        legal auction when the state is read (law26.py): the Law judges it at the lead."""
        self._leads.append({"offender": offender, "code": withdrawn.code, "because": law_hint})

    def _irregularity(self, kind: str, rec: Rec, law: str, **extra: Any) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "kind": kind, "seat": SEATS[rec.seat], "law": law, "t": rec.t, "call": call_name(rec.code),
            "ruling": None, "resolution": None,
        }
        entry.update(extra)
        self._irregularities.append(entry)
        return entry

    def _resolve(self, p: Pending, resolution: str, ruling: str) -> None:
        if p.irregularity is not None:
            p.irregularity["resolution"] = resolution
            p.irregularity["ruling"] = ruling

    # ------------------------------------------------------------------ raising irregularities
    def _raise(self, kind: str, extra: Any, rec: Rec) -> None:
        r = self.refs
        x = rec.seat
        turn = self._turn if self._turn is not None else x
        unintended = Option("unintended", "unintended", r["unintended"], True)
        if kind == "insufficient_bid":
            entry = self._irregularity(kind, rec, r["insufficient_bid"])
            opts = [
                Option("accept", "insufficient_bid.accept", r["insufficient_accepted"]),
                Option("replace", "insufficient_bid.replace", r["insufficient_replaced"], True),
                unintended,
            ]
            self._pend(Pending(kind, r["insufficient_bid"], x, "lho", opts, rec, entry))
        elif kind == "call_out_of_rotation":
            position = extra
            entry = self._irregularity(kind, rec, r["out_of_rotation_laws"], position=position, turn=SEATS[turn])
            screens = self.profile.screens
            if screens.enabled and screens.unpassed_call == "cancel":
                # The call never crossed the screen (the tray stays while the TD rules): the
                # offender's partner has not seen it.
                cancel = Option("cancel", "call_out_of_rotation.cancel_screen", screens.law)
            else:
                cancel = Option("cancel", "call_out_of_rotation.cancel", r["cancel_oot"])
            opts = [Option("accept", "call_out_of_rotation.accept", r["accept_oot"]), cancel]
            if rec.code == PASS:
                opts.append(Option("cancel_artificial", "call_out_of_rotation.cancel_artificial", r["artificial_pass"]))
            self._pend(Pending(kind, r["out_of_rotation"], x, "lho", opts, rec, entry, Context(turn=turn, position=position)))
        elif kind == "change_of_call":
            entry = self._irregularity(kind, rec, r["change_of_call"], replaces=call_name(self._calls[-1].code))
            opts = [
                Option("unintended", "change_of_call.unintended", r["unintended"]),
                Option("accept", "change_of_call.accept", r["change_accepted"]),
                Option("cancel", "change_of_call.cancel", r["change_cancelled"]),
            ]
            self._pend(Pending(kind, r["change_of_call"], x, "lho", opts, rec, entry))
        elif kind == "inadmissible_double":
            oot = bool(extra)
            entry = self._irregularity(kind, rec, r["inadmissible_double"], out_of_rotation=oot)
            opts = [Option("cancel", "inadmissible_double.cancel",
                           r["inadmissible_out_of_rotation"] if oot else r["inadmissible_cancelled"])]
            if not oot:
                opts.append(unintended)
            self._pend(Pending(kind, r["inadmissible_double"], x, "lho", opts, rec, entry, Context(turn=turn, out_of_rotation=oot)))
        elif kind == "call_when_required_to_pass":
            entry = self._irregularity(kind, rec, r["required_to_pass"], obligation=self._must_pass[x][1])
            opts = [Option("cancel", "call_when_required_to_pass.cancel", r["required_to_pass_cancelled"])]
            self._pend(Pending(kind, r["required_to_pass"], x, "lho", opts, rec, entry))
        elif kind == "bid_above_seven":
            entry = self._irregularity(kind, rec, r["above_seven"], out_of_rotation=bool(extra))
            opts = [Option("cancel", "bid_above_seven.cancel", r["above_seven_cancelled"])]
            self._pend(Pending(kind, r["above_seven"], x, "lho", opts, rec, entry, Context(turn=turn, out_of_rotation=bool(extra))))
        elif kind == "call_after_final_pass":
            entry = self._irregularity(kind, rec, r["after_final_pass"])
            opts = [Option("cancel", "call_after_final_pass.cancel", r["after_final_pass_cancelled"])]
            if self._calls and self._calls[-1].seat == x:
                opts.append(Option("unintended", "call_after_final_pass.unintended",
                                   r["unintended_after_end"], True))
            self._pend(Pending(kind, r["after_final_pass"], x, "lho", opts, rec, entry))
        else:  # restricted_call, repeat_not_made: the Laws are silent (docs/laws/choices.md #8); the TD decides
            law = self._kind_law(kind)
            entry = self._irregularity(kind, rec, law)
            opts = [Option("stand", "td_decides.stand", law), Option("cancel", "td_decides.cancel", law)]
            self._pend(Pending(kind, law, x, "td", opts, rec, entry))

    def _pend(self, p: Pending) -> None:
        self._pending = p
        if p.rec is not None and p.asks == "lho":
            self._turn_t = p.rec.t  # the LHO's thinking starts when he sees the irregularity

    # ------------------------------------------------------------------ calls while a decision waits
    def _pending_call(self, rec: Rec) -> None:
        p = self._pending
        assert p is not None
        r = self.refs
        off = p.seat
        if p.asks == "lho" and p.kind == "call_out_of_rotation" and rec.seat == p.context.turn and p.rec is not None \
                and rec.t - p.rec.t <= self.profile.simultaneous_window_s and self._classify(rec.seat, rec.code) is None:
            # L33: a call made simultaneously with the call of the player in turn counts as made after it.
            oot = p.rec
            self._irregularities.remove(p.irregularity)  # type: ignore[arg-type]
            self._irregularity("simultaneous_calls", oot, r["simultaneous"], ruling=r["simultaneous"], resolution="reordered")
            self._pending = None
            self._on_call(rec)
            if self._pending is not None:  # the in-turn call needs a TD judgement first (L9B2)
                self._withdraw(oot, "simultaneous call, made while the TD was needed", r["simultaneous"])
                return
            oot.think = oot.t - self._turn_t
            self._on_call(oot)
            return
        if p.asks != "lho":
            raise EventError(f"the table waits for the TD ({p.kind}, {p.law}): no call now (L9B2)")
        kind = p.kind
        x = p.rec
        assert x is not None
        if rec.seat == lho(off):
            self._pending = None
            if kind == "insufficient_bid":
                self._resolve(p, "accepted", r["insufficient_accepted"])
                self._stand(x)
                self._on_call(rec)
            elif kind == "call_out_of_rotation":
                self._resolve(p, "accepted", r["accept_oot"])
                x.in_rotation = False
                self._stand(x)
                self._on_call(rec)
            elif kind == "change_of_call":
                self._resolve(p, "accepted", r["change_accepted"])
                first = self._calls[-1]
                self._reopen(off, x.t)
                self._withdraw(first, "changed; the change was accepted", f"{r['change_accepted']}, {r['withdrawn_ui']}")
                if laws.CHANGE_LEAD[self.edition]["accept"]:
                    self._lead(off, first, r["change_accepted"])
                self._stand(x)
                self._on_call(rec)
            elif kind == "inadmissible_double":
                self._resolve(p, "cancelled_with_later_calls", r["inadmissible_lho_called"])
                self._withdraw(x, "inadmissible double/redouble", r["inadmissible_lho_called"])
                self._withdraw(rec, "call after an inadmissible double/redouble", r["inadmissible_lho_called"])
                self._turn = p.context.turn
                self._turn_t = rec.t
            elif kind == "call_when_required_to_pass":
                self._resolve(p, "stands", r["required_to_pass_lho_called"])
                self._stand(x)  # L37A: the call and later (legal) calls stand; obligations continue
                self._on_call(rec)
            elif kind == "bid_above_seven":
                self._resolve(p, "cancelled_with_later_calls", r["above_seven_lho_called"])
                self._withdraw(x, "bid above seven", r["above_seven_lho_called"])
                self._withdraw(rec, "call after a bid above seven", r["above_seven_lho_called"])
                self._above_seven(p, rec.t, lead=False)
            elif kind == "call_after_final_pass":
                self._resolve(p, "cancelled", r["after_final_pass_no_rectification"])
                self._withdraw(x, "call after the final pass", r["after_final_pass_cancelled"])
                self._withdraw(rec, "call after the final pass", r["after_final_pass_cancelled"])
            return
        if rec.seat == off and kind == "insufficient_bid":
            # L27C: the offender replaces the insufficient bid before the TD has ruled.
            rec.acted = x.acted
            self._ib_replace(p, rec, r["insufficient_replaced_early"])
            return
        if rec.seat == self._opponent_in_turn(p):
            # L28B: the opponent in turn calls before the rectification is ruled; the call out of
            # rotation is treated as not made (also an inadmissible X/XX made out of rotation: the
            # FSB note to 2007 L32 sends only the offender's LHO to L36).
            self._pending = None
            self._resolve(p, "in_turn_called", r["in_turn_calls"])
            self._withdraw(x, "out of rotation; the player in turn called over it", f"{r['in_turn_calls']}, {r['out_of_rotation_ui']}")
            self._on_call(rec)
            still = laws.INADMISSIBLE_CALLED_OVER[self.edition] if p.kind == "inadmissible_double" else ""
            if still:
                self._resolve(p, "in_turn_called", f"{r['in_turn_calls']}; {still}")
                self._oblige(partner(off), "rest", still)
                self._lead(off, x, still)
                self._review(off, r["awareness"], "inadmissible double/redouble out of rotation")
            return
        raise EventError(
            f"the table waits for a ruling on {kind} by {SEATS[off]} ({p.law}): only {SEATS[lho(off)]} may call now (L9B2)"
        )

    @staticmethod
    def _opponent_in_turn(p: Pending) -> int | None:
        """The seat whose call L28B gives a meaning while `p` waits: the player in turn, when the
        call out of rotation was made by his LHO (an opponent). Both editions say "an opponent's
        call": the offender's partner in turn has no such right (2007 L32A, L31B, L30B2; 2017
        L30B, L31B, L32B apply to him)."""
        turn = p.context.turn
        if p.asks != "lho" or p.rec is None or turn is None or turn == p.seat or turn != rho(p.seat):
            return None
        if p.kind == "call_out_of_rotation" or p.context.out_of_rotation:
            return int(turn)
        return None

    def _above_seven(self, p: Pending, t: float, lead: bool) -> None:
        """L38B/C: cancelled, replaced by a pass, both players of the side pass for the rest."""
        off = p.seat
        x = p.rec
        assert x is not None
        law = self.refs["above_seven_cancelled"]
        if not p.context.out_of_rotation:
            pas = Rec(off, PASS, t, x.think, False)
            self._stand(pas)
        self._oblige(off, "rest", law)
        self._oblige(partner(off), "rest", law)
        if lead:
            self._lead(off, x, law)
            self._review(off, self.refs["awareness"], "bid above seven")

    # ------------------------------------------------------------------ TD decisions
    def _on_td(self, ev: dict[str, Any], seat: int, code: int, t: float) -> None:
        kind = ev["td"]
        if kind in ("correct_call", "misinformation_change"):
            self._correct_call(seat, code, t, "call" in ev, misinformation=kind == "misinformation_change",
                               stop=ev.get("stop"))
            return
        if kind == "exposed_cards":
            self._exposed_cards(seat, list(ev["cards"]), bool(ev.get("led", False)), t)
            return
        if kind == "wrong_board_call":
            self._wrong_board_call(seat, t)
            return
        if kind == "wrong_board":
            self._wrong_board_found(bool(ev.get("played_before", False)), t)
            return
        if kind == "cancel_board":
            self._cancel_board(t)
            return
        p = self._pending
        if p is None:
            raise EventError(f"no decision is pending, so the TD event {kind!r} has nothing to answer")
        if kind != p.kind:
            raise EventError(f"the pending decision is {p.kind!r}, not {kind!r}")
        option = next((o for o in p.options if o.id == ev["choice"]), None)
        if option is None:
            raise EventError(f"{ev['choice']!r} is not an option here: {', '.join(o.id for o in p.options)}")
        if option.needs_call and "call" not in ev:
            raise EventError(f"option {option.id!r} needs the call (e.g. \"call\": \"2H\")")
        call_rec = None
        if "call" in ev:
            call_rec = Rec(p.seat, code, t, 0.0, bool(ev.get("stop", False)))
            if p.rec is not None and p.rec.seat == p.seat:
                call_rec.acted = p.rec.acted  # FSB L116B: the wait ended when the player called
        _RULINGS[p.kind](self, p, option, call_rec, t)

    def _correct_call(self, seat: int, code: int, t: float, has_call: bool, misinformation: bool = False,
                      stop: bool | None = None) -> None:
        """L25A (both editions; FSB L112D): the TD allows an unintended call to be replaced; or
        L21B1 (both): the TD allows a call made on misinformation (e.g. a missing alert) to be
        changed. Either is allowed while the player's partner has not called after it and the
        auction period lasts; the LHO's call after it (if any) is withdrawn (2007 L25A4 / FSB
        L112D, 2017 L25A6; L21B2: he may then call again)."""
        r = self.refs
        if seat < 0 or not has_call:
            raise EventError("this TD event needs the seat and the new call")
        if self._pending is not None:
            raise EventError(f"a decision is pending ({self._pending.kind}); answer it first")
        if self._status == ADJUSTED:
            raise EventError("the auction was stopped for an adjusted score: no call can be corrected")
        idx = next((i for i in range(len(self._calls) - 1, -1, -1) if self._calls[i].seat == seat), None)
        if idx is None:
            raise EventError(f"{SEATS[seat]} has no call to correct")
        later = self._calls[idx + 1:]
        if any(c.seat == partner(seat) for c in later) or len(later) > 1:
            raise EventError(f"too late: {SEATS[partner(seat)]} has called since ({r['unintended']}; {r['misinformation']})")
        law = r["unintended_after_end"] if self._status != BIDDING else r["unintended"]
        if misinformation:
            law = r["misinformation"]
            self._review(seat, r["misinformation_review"],
                         "call changed after misinformation: review damage")
        old = self._calls[idx]
        for c in reversed(later):
            self._withdraw(c, "LHO's call withdrawn after a permitted correction", r["lho_withdraws"])
            self._reopen(c.seat, t)
        self._withdraw(old, "changed after misinformation" if misinformation else "unintended call corrected", law)
        self._irregularity("change_of_call", Rec(seat, code, t, 0.0, False), law, replaces=call_name(old.code),
                           ruling=law, resolution="misinformation" if misinformation else "unintended")
        self._reopen(seat, t)
        new = Rec(seat, code, t, old.think, old.stop if stop is None else stop)
        new.acted = old.acted
        self._on_call(new)

    # ------------------------------------------------------------------ Law 24, wrong boards (TD input)
    def _exposed_cards(self, seat: int, cards: list[str], led: bool, t: float) -> None:
        """Law 24: the TD has found that cards of `seat` could be seen by his partner (or one was
        led early). The boxes cannot see cards, so this only ever arrives as a TD event."""
        rule = laws.EXPOSED[self.edition]
        if self._pending is not None:
            raise EventError(f"a decision is pending ({self._pending.kind}); answer it first")
        if self._status in (PASSED_OUT, ADJUSTED):
            raise EventError(f"the board will not be played: {rule['law']} has nothing to rectify")
        shown = {c for x in self._exposed for c in x["cards"]}
        again = [c for c in cards if c in shown]
        if again:
            raise EventError(f"already exposed: {', '.join(again)}")
        if len(cards) >= 2:
            law = rule["several"]
        elif led or cards[0][1] in rule["honours"]:
            law = rule["honour_or_led"]
        else:
            law = rule["single_low"]
        # After the final pass the partner has no turn left to pass at; the cards still count (L50).
        forced = law != rule["single_low"] and self._status == BIDDING
        self._irregularities.append({
            "kind": "cards_exposed", "seat": SEATS[seat], "law": rule["law"], "t": t, "call": None,
            "cards": list(cards), "led": led, "ruling": law,
            "resolution": "partner_passes_next_turn" if forced else "no_further_rectification",
        })
        self._exposed.append({
            "seat": SEATS[seat], "cards": list(cards), "led": led, "t": t, "law": law,
            "face_up_until": rule["until"], "information": f"authorised for the opponents, unauthorised for "
            f"{SEATS[seat]}{SEATS[partner(seat)]} ({rule['ui']})",
            "if_defender": rule["defender"], "if_declaring_side": rule["declaring_side"],
        })
        if forced:
            self._oblige(partner(seat), "next_turn", law)
            self._review(seat, self.refs["awareness"], f"cards exposed ({law}): partner had to pass")

    def _wrong_board_call(self, seat: int, t: float) -> None:
        """2007 L17D / 2017 L15A: `seat` called with cards taken from the wrong board. His cards
        came out of the board at the start (L17A), so the cancelled call is his first one."""
        rule = laws.WRONG_BOARD_CALL[self.edition]
        if self._pending is not None:
            raise EventError(f"a decision is pending ({self._pending.kind}); answer it first")
        if self._status == ADJUSTED:
            raise EventError("the auction was already stopped for an adjusted score")
        if seat in self._wrong_board_ruled:
            raise EventError(f"{SEATS[seat]}'s wrong-board call was already ruled ({rule.law}); he now has his own cards")
        idx = next((i for i, c in enumerate(self._calls) if c.seat == seat and not c.deemed), None)
        if idx is None:
            raise EventError(f"{SEATS[seat]} has made no call with the wrong cards: he takes his own cards, "
                             f"nothing to cancel ({rule.law})")
        cancelled = self._calls[idx]
        later = self._calls[idx + 1:]
        partner_called = any(c.seat == partner(seat) for c in later)
        lho_call = next((c for c in later if c.seat == lho(seat)), None)
        entry = self._irregularity("wrong_board_call", cancelled, rule.law,
                                   cancelled=[call_name(c.code) for c in [cancelled, *later]],
                                   partner_called=partner_called)
        self._withdraw(cancelled, "made with cards from the wrong board", f"{rule.cancel}, {rule.ui}")
        for c in later:
            self._withdraw(c, "after a call made with cards from the wrong board", f"{rule.later}, {rule.ui}")
        del self._calls[idx:]
        self._rebuild()
        self._stop_from = None
        self._status = BIDDING
        self._wrong_board_ruled.add(seat)
        self._review(seat, rule.later_board, f"when {SEATS[seat]} plays the board his cards came from: adjust if "
                     f"his call there differs from the cancelled {call_name(cancelled.code)}")
        if partner_called:
            entry["ruling"], entry["resolution"] = rule.partner_called, "adjusted_score"
            self._stop(rule.adjusted_kind, rule.partner_called,
                       f"{SEATS[partner(seat)]} called after {SEATS[seat]}'s call made with cards from the wrong board")
            return
        entry["ruling"], entry["resolution"] = rule.recall, "offender_calls_again"
        self._turn = seat
        self._turn_t = t
        if rule.lho_repeats and lho_call is not None:
            self._wrong_board_repeat[seat] = (cancelled, lho_call)

    def _wrong_board_new_call(self, s: int, rec: Rec) -> None:
        """2007 L17D2, after the offender's new call, when his LHO had called over the cancelled one:
        the same call -> the LHO repeats his call; another call -> the TD judges if it differs."""
        rule = laws.WRONG_BOARD_CALL[self.edition]
        cancelled, lho_call = self._wrong_board_repeat.pop(s)
        if rec.code == cancelled.code:
            self._repeat[lho(s)] = (lho_call.code, rule.lho_repeats)
            return
        opts = [
            Option("differs", "wrong_board_judgement.differs", f"{rule.differs}, L12C2",
                   call=call_name(rec.code), cancelled=call_name(cancelled.code)),
            Option("same", "wrong_board_judgement.same", rule.lho_repeats, lho=SEATS[lho(s)],
                   lho_call=call_name(lho_call.code)),
        ]
        entry = next((i for i in reversed(self._irregularities) if i["kind"] == "wrong_board_call" and i["seat"] == SEATS[s]), None)
        self._pending = Pending("wrong_board_judgement", rule.differs, s, "td", opts, rec, entry,
                                Context(lho_call=lho_call, cancelled=cancelled))

    def _td_wrong_board_judgement(self, p: Pending, o: Option, call: Rec | None, t: float) -> None:
        self._pending = None
        if o.id == "differs":
            self._resolve(p, "adjusted_score", o.law)
            self._stop("artificial", o.law, f"{SEATS[p.seat]}'s new call differs from his call made with "
                       "cards from the wrong board, after his LHO had called")
            return
        self._resolve(p, "offender_called_again", o.law)
        lho_call = p.context.lho_call
        assert lho_call is not None
        self._repeat[lho(p.seat)] = (lho_call.code, o.law)

    def _wrong_board_found(self, played_before: bool, t: float) -> None:
        """2007 L15C / 2017 L15B: the table is playing a board it should not play this round."""
        rule = laws.WRONG_BOARD[self.edition]
        law = str(rule["law"])
        if self._pending is not None:
            raise EventError(f"a decision is pending ({self._pending.kind}); answer it first")
        if self._status != BIDDING:
            raise EventError(f"the auction is over: the TD rules on the board's result ({law}), not the auction engine")
        if self._wrong_board is not None:
            raise EventError(f"the wrong board was already ruled ({self._wrong_board['law']})")
        entry: dict[str, Any] = {"kind": "wrong_board", "seat": None, "law": law, "t": t, "call": None,
                                 "played_before": played_before}
        info: dict[str, Any] = {"law": law, "played_before": played_before, "note": rule["note"] or None}
        if rule["restart"]:
            # 2007 L15C: a new auction in which the players must make the calls they made before.
            info.update(outcome="auction_restarted", earlier_calls=[
                {"seat": SEATS[c.seat], "call": call_name(c.code)} for c in self._calls],
                rule="the players must repeat their earlier calls; if any call differs, the TD cancels the board")
            for c in self._calls:
                self._withdraw(c, "wrong board: the auction is cancelled and made again", law)
            self._calls.clear()
            self._rebuild()
            # The first auction's obligations bound only that auction; it is made again from scratch.
            self._must_pass.clear()
            self._repeat.clear()
            self._no_double.clear()
            self._judge_next_call.clear()
            self._rho_watch.clear()
            self._wrong_board_repeat.clear()
            self._leads.clear()
            self._stop_from = None
            self._turn = self.dealer
            self._turn_t = t
            entry.update(ruling=law, resolution="auction_restarted")
        elif played_before:
            info.update(outcome="board_cancelled")
            entry.update(ruling=str(rule["played_before"]), resolution="board_cancelled")
            self._stop("artificial", str(rule["played_before"]),
                       "a player at the table has played this board before: cancelled for all four")
        else:
            info.update(outcome="auction_continues",
                        rule="the auction and play are completed normally and the result stands; the TD may "
                        "have the correct board played later")
            entry.update(ruling=str(rule["continues"]), resolution="auction_continues")
        self._irregularities.append(entry)
        self._wrong_board = info

    def _repeat_differs(self) -> dict[str, Any] | None:
        """2007 L15C: the first call of the new auction that is not the call made at that point
        of the first auction."""
        wb = self._wrong_board
        if wb is None or "earlier_calls" not in wb:
            return None
        return next((
            {"index": i, "seat": SEATS[c.seat], "call": call_name(c.code), "earlier": e["call"]}
            for i, (c, e) in enumerate(zip(self._calls, wb["earlier_calls"], strict=False))
            if call_name(c.code) != e["call"] or SEATS[c.seat] != e["seat"]), None)

    def _cancel_board(self, t: float) -> None:
        """2007 L15C: a call in the new auction differs from the first one: the TD shall cancel
        the board (and award artificial adjusted scores)."""
        rule = laws.WRONG_BOARD[self.edition]
        law = str(rule["differs"])
        if not law:
            raise EventError(f"{self.edition} Laws: no board is cancelled for a differing repeated call "
                             f"({rule['law']}); use wrong_board with played_before")
        if self._pending is not None:
            raise EventError(f"a decision is pending ({self._pending.kind}); answer it first")
        differs = self._repeat_differs()
        if self._wrong_board is None or differs is None or self._status == ADJUSTED:
            raise EventError(f"{law}: the board is cancelled only when a call of the new auction differs "
                             "from the first auction's")
        self._irregularities.append({"kind": "wrong_board", "seat": differs["seat"], "law": law, "t": t,
                             "call": differs["call"], "ruling": law, "resolution": "board_cancelled",
                             "earlier": differs["earlier"]})
        self._wrong_board["outcome"] = "board_cancelled"
        self._stop("artificial", law, f"{differs['seat']} called {differs['call']} where he had called "
                   f"{differs['earlier']} in the first auction: the board is cancelled")

    def _stop(self, kind: str, law: str, reason: str) -> None:
        self._adjusted = {"kind": kind, "law": law, "reason": reason}
        self._status = ADJUSTED
        self._turn = None
        self._stop_from = None
        self._wrong_board_repeat.clear()

    def _td_insufficient_bid(self, p: Pending, o: Option, call: Rec | None, t: float) -> None:
        r = self.refs
        x = p.rec
        assert x is not None
        if o.id == "accept":
            self._pending = None
            self._resolve(p, "accepted", r["insufficient_accepted"])
            self._stand(x)
        elif o.id == "unintended":
            assert call is not None
            self._pending = None
            self._resolve(p, "unintended", r["unintended"])
            self._withdraw(x, "unintended call", r["unintended"])
            call.think = x.think
            self._on_call(call)
        else:
            assert call is not None
            self._ib_replace(p, call, r["insufficient_replaced"])

    def _ib_replace(self, p: Pending, new: Rec, law: str) -> None:
        r = self.refs
        x = p.rec
        assert x is not None
        off = p.seat
        code = new.code
        if code > MAX_LEGAL_RANK:
            raise EventError(f"the replacement must be a legal call (Law 27B), not {call_name(code)}")
        if 0 <= code <= self._last_bid:
            # L27B4: another insufficient bid; LHO may accept it, otherwise as B3.
            self._withdraw(x, "insufficient bid, replaced by another insufficient bid", r["insufficient_b4"])
            self._resolve(p, "replaced_insufficient", r["insufficient_b4"])
            p.rec = new
            p.context.only_bid_or_pass = True
            p.law = r["insufficient_b4"]
            p.irregularity = self._irregularity("insufficient_bid", new, r["insufficient_bid"])
            return
        if code < PASS and (p.context.only_bid_or_pass or not self._admissible(off, code)):
            raise EventError(f"{r['insufficient_b3']}: the insufficient bid must be replaced by a sufficient bid or a pass")
        if p.context.only_bid_or_pass:
            self._pending = None
            self._resolve(p, "b3", r["insufficient_b3"])
            self._withdraw(x, "insufficient bid", f"{r['insufficient_b3']}, {r['withdrawn_ui']}")
            self._stand(new)
            self._ib_penalty(off, x, r["insufficient_b3"])
            return
        opts = []
        same = 0 <= code and code == self._lowest_in_strain(strain(x.code))
        q = f"insufficient_bid_judgement.{self.edition}"
        if code >= 0 and (same or not laws.IB_B1A_SAME_STRAIN_ONLY[self.edition]):
            opts.append(Option("b1a", f"{q}.b1a", r["insufficient_b1a"]))
        opts.append(Option("b1b", f"{q}.b1b", r["insufficient_b1b"]))
        opts.append(Option("none", f"{q}.none", r["insufficient_b3"] if code < PASS else r["insufficient_b2"]))
        self._pending = Pending("insufficient_bid_judgement", law, off, "td", opts, new, p.irregularity,
                                Context(insufficient_bid=x))

    def _lowest_in_strain(self, s: int) -> int:
        return (min_level(self._last_bid, s) - 1) * 5 + s

    def _ib_penalty(self, off: int, withdrawn: Rec, law: str) -> None:
        self._oblige(partner(off), "rest", law)
        self._lead(off, withdrawn, law)
        self._review(off, self.refs["awareness"], "insufficient bid not corrected under L27B1")

    def _td_insufficient_bid_judgement(self, p: Pending, o: Option, call: Rec | None, t: float) -> None:
        r = self.refs
        new = p.rec
        ib = p.context.insufficient_bid
        assert new is not None and ib is not None
        self._pending = None
        if o.id in ("b1a", "b1b"):
            self._resolve(p, o.id, o.law)
            self._withdraw(ib, "insufficient bid, replaced", o.law)  # L16D/L16C off here (2007 L27B1(a), 2017 L27B1)
            self._stand(new)
            self._review(p.seat, r["insufficient_review"], "insufficient bid corrected without rectification: damage review")
            return
        if new.code < PASS:  # L27B3: the X/XX is cancelled; the offender must bid sufficiently or pass
            self._resolve(p, "b3", r["insufficient_b3"])
            self._withdraw(ib, "insufficient bid", f"{r['insufficient_b3']}, {r['withdrawn_ui']}")
            self._withdraw(new, "double/redouble replacing an insufficient bid", r["insufficient_b3"])
            self._no_double[p.seat] = r["insufficient_b3"]
            self._turn_t = t
            self._ib_penalty(p.seat, ib, r["insufficient_b3"])
            return
        self._resolve(p, "b2", r["insufficient_b2"])
        self._withdraw(ib, "insufficient bid", f"{r['insufficient_b2']}, {r['withdrawn_ui']}")
        self._stand(new)
        self._ib_penalty(p.seat, ib, r["insufficient_b2"])

    def _td_call_out_of_rotation(self, p: Pending, o: Option, call: Rec | None, t: float) -> None:
        r = self.refs
        x = p.rec
        assert x is not None
        off = x.seat
        self._pending = None
        if o.id == "accept":
            self._resolve(p, "accepted", r["accept_oot"])
            x.in_rotation = False
            self._stand(x)
            return
        screens = self.profile.screens
        if o.id in ("cancel", "cancel_artificial") and screens.enabled and screens.unpassed_call == "cancel":
            self._resolve(p, "cancelled_behind_screen", screens.law)
            self._withdraw(x, "call out of rotation that did not pass the screen, cancelled", screens.law)
            self._turn_t = t
            return
        what = "double" if x.code < PASS else ("pass" if x.code == PASS and o.id == "cancel" else "bid")
        rule = laws.oot_rule(self.edition, what, p.context.position, self._last_bid >= 0)
        self._resolve(p, "cancelled", rule.law)
        self._withdraw(x, "call out of rotation, cancelled", f"{r['cancel_oot']}, {rule.law}, {r['withdrawn_ui']}")
        self._turn_t = t
        if rule.offender:
            self._oblige(off, rule.offender, rule.law)
        if rule.partner:
            self._oblige(partner(off), rule.partner, rule.law)
        if rule.partner_no_double:
            self._no_double[partner(off)] = r["no_double"]
        if rule.lead:
            self._lead(off, x, rule.law)
        if rule.watch_rho:
            self._rho_watch[rho(off)] = (off, rule, x)
        if rule.deferred:
            self._judge_next_call[off] = (rule.deferred, x)
        if rule.offender or rule.partner or rule.lead:
            self._review(off, r["awareness"], f"call out of rotation ({rule.law})")

    def _watched(self, s: int, code: int, t: float) -> None:
        """L31A / L32 (RHO's turn): RHO's call decides what the offender must do."""
        off, rule, withdrawn = self._rho_watch.pop(s)
        if code == PASS:
            self._repeat[off] = (withdrawn.code, self.refs["repeat"])
            return
        after = rule.after_rho_active
        if isinstance(after, laws.Outcome):
            if after.partner:
                self._oblige(partner(off), after.partner, after.law)
            if after.lead:
                self._lead(off, withdrawn, after.law)
            self._review(off, self.refs["awareness"], f"call out of rotation ({after.law})")
        elif isinstance(after, laws.Deferred):
            self._judge_next_call[off] = (after, withdrawn)

    def _ask_deferred(self, s: int, rec: Rec) -> None:
        deferred, withdrawn = self._judge_next_call.pop(s)
        names = {"call": call_name(rec.code), "withdrawn": call_name(withdrawn.code)}
        key = f"oot_judgement.{deferred.question}"
        opts = [Option("yes", f"{key}.yes", deferred.yes.law, False, **names),
                Option("no", f"{key}.no", deferred.no.law, False, **names)]
        self._pending = Pending("oot_judgement", deferred.law, s, "td", opts, rec, None,
                                Context(question=deferred, withdrawn=withdrawn))

    def _td_oot_judgement(self, p: Pending, o: Option, call: Rec | None, t: float) -> None:
        deferred, withdrawn = p.context.question, p.context.withdrawn
        assert deferred is not None and withdrawn is not None
        outcome = deferred.yes if o.id == "yes" else deferred.no
        self._pending = None
        for irr in reversed(self._irregularities):
            if irr["kind"] == "call_out_of_rotation" and irr["seat"] == SEATS[p.seat]:
                irr["ruling"] = f"{irr['ruling']}; {outcome.law}"
                break
        if outcome.partner:
            self._oblige(partner(p.seat), outcome.partner, outcome.law)
        if outcome.lead:
            self._lead(p.seat, withdrawn, outcome.law)
        if outcome.partner or outcome.lead:
            self._review(p.seat, self.refs["awareness"], f"call out of rotation ({outcome.law})")
        elif self.refs["comparable_review"]:
            self._review(p.seat, self.refs["comparable_review"], "comparable call: damage review")

    def _td_change_of_call(self, p: Pending, o: Option, call: Rec | None, t: float) -> None:
        r = self.refs
        x = p.rec
        assert x is not None
        off = p.seat
        self._pending = None
        first = self._calls[-1]
        if o.id == "unintended":
            self._resolve(p, "unintended", r["unintended"])
            self._reopen(off, t)
            self._withdraw(first, "unintended call corrected", r["unintended"])
            x.think = first.think
            self._on_call(x)
        elif o.id == "accept":
            self._resolve(p, "accepted", r["change_accepted"])
            self._reopen(off, t)
            self._withdraw(first, "changed; the change was accepted", f"{r['change_accepted']}, {r['withdrawn_ui']}")
            if laws.CHANGE_LEAD[self.edition]["accept"]:
                self._lead(off, first, r["change_accepted"])
            self._stand(x)
        else:
            self._resolve(p, "cancelled", r["change_cancelled"])
            self._withdraw(x, "change of call cancelled; the first call stands", f"{r['change_cancelled']}, {r['withdrawn_ui']}")
            if laws.CHANGE_LEAD[self.edition]["cancel"]:
                self._lead(off, x, r["change_cancelled"])

    def _td_inadmissible_double(self, p: Pending, o: Option, call: Rec | None, t: float) -> None:
        r = self.refs
        x = p.rec
        assert x is not None
        off = p.seat
        self._pending = None
        if o.id == "unintended":
            assert call is not None
            self._resolve(p, "unintended", r["unintended"])
            self._withdraw(x, "unintended call", r["unintended"])
            call.think = x.think
            self._on_call(call)
            return
        law = r["inadmissible_out_of_rotation"] if p.context.out_of_rotation else r["inadmissible_cancelled"]
        self._resolve(p, "cancelled", law)
        self._withdraw(x, "inadmissible double/redouble", f"{law}, {r['withdrawn_ui']}")
        self._oblige(partner(off), "rest", law)
        self._lead(off, x, law)
        self._review(off, r["awareness"], "inadmissible double/redouble")
        self._turn = p.context.turn
        self._turn_t = t

    def _td_call_when_required_to_pass(self, p: Pending, o: Option, call: Rec | None, t: float) -> None:
        r = self.refs
        x = p.rec
        assert x is not None
        off = p.seat
        self._pending = None
        law = r["required_to_pass_cancelled"]
        self._resolve(p, "replaced_by_pass", law)
        self._withdraw(x, "call by a player required to pass", f"{law}, {r['withdrawn_ui']}")
        self._stand(Rec(off, PASS, t, x.think, False))
        self._oblige(off, "rest", law)
        self._oblige(partner(off), "rest", law)
        self._lead(off, x, law)
        self._review(off, r["awareness"], "call when required to pass")

    def _td_bid_above_seven(self, p: Pending, o: Option, call: Rec | None, t: float) -> None:
        assert p.rec is not None
        self._pending = None
        self._resolve(p, "replaced_by_pass", self.refs["above_seven_cancelled"])
        self._withdraw(p.rec, "bid above seven", self.refs["above_seven_cancelled"])
        self._above_seven(p, t, lead=True)

    def _td_call_after_final_pass(self, p: Pending, o: Option, call: Rec | None, t: float) -> None:
        r = self.refs
        x = p.rec
        assert x is not None
        off = p.seat
        self._pending = None
        if o.id == "unintended":
            assert call is not None
            law = r["unintended_after_end"]
            self._resolve(p, "unintended", law)
            last = self._calls[-1]
            self._withdraw(last, "unintended final pass corrected", law)
            self._reopen(off, t)
            call.think = last.think
            self._on_call(call)
            return
        self._withdraw(x, "call after the final pass", r["after_final_pass_cancelled"])
        decl = auction.declarer([(c.seat, c.code) for c in self._calls])
        defender = decl is not None and opponents(decl, off)
        if defender and x.code != PASS:
            self._resolve(p, "cancelled", r["after_final_pass_lead"])
            self._lead(off, x, r["after_final_pass_lead"])
        else:
            self._resolve(p, "cancelled", r["after_final_pass_no_rectification"])

    def _td_stand_or_cancel(self, p: Pending, o: Option) -> None:
        x = p.rec
        assert x is not None
        self._pending = None
        self._resolve(p, o.id, p.law)
        if o.id == "stand":
            self._repeat.pop(x.seat, None)
            self._no_double.pop(x.seat, None)
            self._stand(x)
        else:
            self._withdraw(x, f"{p.kind.replace('_', ' ')}: cancelled by the TD", p.law)

    def _td_restricted_call(self, p: Pending, o: Option, call: Rec | None, t: float) -> None:
        self._td_stand_or_cancel(p, o)

    def _td_repeat_not_made(self, p: Pending, o: Option, call: Rec | None, t: float) -> None:
        self._td_stand_or_cancel(p, o)

    # ------------------------------------------------------------------ screens and the box
    def _screenmate(self, seat: int) -> int:
        pair = next(p for p in self._screenmates if seat in p)
        return pair[1] if pair[0] == seat else pair[0]

    def _on_tray(self, t: float) -> None:
        """The tray passed under the screen. It cannot while the TD rules (the irregularity is
        dealt with on the side where it happened) or once the auction is over."""
        if self._pending is not None:
            raise EventError(f"the tray stays on its side while the TD rules ({self._pending.kind})")
        if self._status != BIDDING:
            raise EventError("the auction is over: the tray does not pass any more")
        self._tray_side = 1 - self._tray_side
        self._tray_passes.append({"t": t, "to": [SEATS[x] for x in self._screenmates[self._tray_side]],
                                  "calls": len(self._calls)})

    def _on_box_call(self, ev: dict[str, Any], seat: int, code: int, t: float) -> None:
        """A call event from a box that reports the card taken out (`taken`), or the confirmation
        after one. Profile `call_made`: "taken" (FSB L112C, the call is made when taken out with
        visible intent) or "confirmed" (the box's confirmation makes it; a taken card is noted)."""
        stop = bool(ev.get("stop", False))
        if ev.get("taken"):
            made = self.profile.call_made == "taken"
            self._box_taken.append({"seat": SEATS[seat], "call": call_name(code), "t": t, "made": made,
                                    "law": "FSB L112C" if made else ""})
            if made:
                self._taken = (seat, code)
                self._on_call(Rec(seat, code, t, t - self._turn_t, stop))
            return
        if self._taken == (seat, code):
            self._taken = None  # the confirmation of the call already made (FSB L112C)
            return
        self._taken = None
        self._on_call(Rec(seat, code, t, t - self._turn_t, stop))

    # ------------------------------------------------------------------ alerts
    def _on_alert(self, seat: int, t: float) -> None:
        """An alert names the last call of the alerter's partner, or his own if that is later
        (self-alert). Who may alert, and when alerting stops, is profile data (FSB L115B)."""
        idx = next((i for i in range(len(self._calls) - 1, -1, -1)
                    if self._calls[i].seat in (seat, partner(seat)) and not self._calls[i].deemed), None)
        if idx is None:
            raise EventError(f"{SEATS[seat]} alerted, but neither {SEATS[seat]} nor partner has made a call to alert")
        target = self._calls[idx]
        rules = self.profile.alert
        who = "self" if target.seat == seat else "partner"
        # index: which standing call the flag is about (the tempo view hangs it on that row)
        base = {"seat": SEATS[seat], "t": t, "call": call_name(target.code), "of": SEATS[target.seat], "index": idx}
        if who not in rules.by:
            self._timing.append({"kind": "alert_by_wrong_player", **base, "law": rules.law,
                                 "expected": "partner" if "partner" in rules.by else "self"})
        if not rules.enabled:
            self._timing.append({"kind": "alert_not_permitted", **base, "law": rules.law})
        elif ("NS" if seat % 2 == 0 else "EW") in self.no_alerts_by:
            self._timing.append({"kind": "alert_not_permitted", **base, "law": rules.pair_may_decline,
                                 "reason": "the opponents asked this pair not to alert"})
        elif rules.cutoff_level is not None and not self.profile.screens.enabled:
            first_bid = next((i for i, c in enumerate(self._calls) if 0 <= c.code), None)
            exempt = rules.cutoff_exempts_opening and idx == first_bid
            if not exempt and any(0 <= c.code and level(c.code) >= rules.cutoff_level for c in self._calls[: idx + 1]):
                self._timing.append({"kind": "alert_not_permitted", **base, "law": rules.law,
                                     "cutoff": f"{rules.cutoff_level}C"})
        if idx < len(self._calls) - 1:
            self._timing.append({"kind": "alert_late", **base, "law": self.refs["late_alert"],
                                 "after": SEATS[self._calls[idx + 1].seat]})
        if self.profile.screens.enabled:
            # Behind screens each player alerts to his screenmate, an opponent: the alert reaches
            # only that opponent (WBF screen regulations; FSB L115B alerts every alertable call).
            mate = self._screenmate(seat)
            if mate not in target.alerted_to:
                target.alerted_to.append(mate)
                target._view = None
                del self._views[idx:]
        if target.alerted_by is None:
            target.alerted_by = seat
            target.alert_t = t
            target._view = None
            del self._views[idx:]

    # ------------------------------------------------------------------ state
    def _legal_calls(self, seat: int) -> list[str]:
        """What `seat` may call now (L18C, L19A1, L19B1), from the running integers: constant
        time, where auction.legal_calls reads the whole auction."""
        out = ["P", *_BID_NAMES[self._last_bid + 1:]]
        if seat not in self._no_double and self._has_action and opponents(self._last_action_seat, seat):
            if self._last_action >= 0:
                out.append("X")
            elif self._last_action == DOUBLE:
                out.append("XX")
        return out

    def status(self) -> str:
        return AWAITING if self._pending is not None else self._status

    def state(self) -> dict[str, Any]:
        status = self.status()
        ended = self._status == ENDED
        pairs = [(c.seat, c.code) for c in self._calls] if ended else []
        decl = auction.declarer(pairs) if ended else None
        turn = self._turn if status == BIDDING else None
        views = self._views
        if len(views) != len(self._calls):
            if len(views) > len(self._calls):
                views.clear()
            views.extend(c.view() for c in self._calls[len(views):])
        calls = list(views)  # the call dicts are shared between states: read them, do not change them
        obligations: list[dict[str, Any]] = []
        for s in range(4):
            if s in self._must_pass:
                how, law = self._must_pass[s]
                obligations.append({"seat": SEATS[s], "must_pass": "rest_of_auction" if how == "rest" else "next_turn", "law": law})
            if s in self._repeat:
                code, law = self._repeat[s]
                obligations.append({"seat": SEATS[s], "must_pass": None, "must_repeat": call_name(code), "law": law})
            if s in self._no_double:
                obligations.append({"seat": SEATS[s], "must_pass": None, "may_not_double": True, "law": self._no_double[s]})
        exposed = []
        for x in self._exposed:
            d = dict(x)
            d["cards"] = list(x["cards"])
            if self._status == ENDED and decl is not None:
                d["becomes"] = "penalty_cards" if opponents(decl, SEAT_INDEX[x["seat"]]) else "returned_to_hand"
            else:
                d["becomes"] = "returned_to_hand" if self._status == PASSED_OUT else None
            exposed.append(d)
        wrong_board = None
        if self._wrong_board is not None:
            wrong_board = copy.deepcopy(self._wrong_board)
            if "earlier_calls" in wrong_board:
                wrong_board["differs"] = self._repeat_differs()
        leads: list[dict[str, Any]] = []
        lifted: list[dict[str, Any]] = []
        if self._leads:
            legal_auction = [(c.seat, c.code) for c in self._calls]
            for lr in self._leads:
                off = lr["offender"]
                d = {"offender": SEATS[off], "leader": SEATS[partner(off)],
                     **law26.restriction(self.edition, off, lr["code"], legal_auction), "because": lr["because"]}
                if d["kind"] == "none":  # 2007 L26A1: listed apart, so nothing shows it as a restriction
                    lifted.append(d)
                    continue
                d["active"] = None if self._status == BIDDING else (decl is not None and opponents(decl, off))
                leads.append(d)
        legal: list[str] = []
        if turn is not None:
            if turn in self._must_pass:
                legal = ["P"]
            elif turn in self._repeat:
                legal = [call_name(self._repeat[turn][0])]
            else:
                legal = self._legal_calls(turn)
        lock = None
        if turn is not None and self._stop_from is not None and self._stop_from[1] == turn:
            lock = self._stop_from[0] + self.profile.stop.wait_s
        p = self._pending
        pending: dict[str, Any] | None = None
        if p is not None:
            pending = {
                "kind": p.kind, "law": p.law, "seat": SEATS[p.seat], "asks": p.asks,
                "call": call_name(p.rec.code) if p.rec is not None else None,
                "options": [
                    {"id": o.id, "label": o.label, "text": o.text, "params": dict(o.params), "law": o.law,
                     **({"needs_call": True} if o.needs_call else {})}
                    for o in p.options
                ],
            }
            # Seats whose call the Law gives a meaning to while the table waits: the LHO accepts
            # or triggers L36A/L37A/L38/L39B, the offender replaces early (L27C), the player in turn
            # calls over an out-of-turn call (L28B). Any other call is refused (L9B2).
            may_call: list[str] = []
            if p.asks == "lho":
                may_call.append(SEATS[lho(p.seat)])
                if p.kind == "insufficient_bid":
                    may_call.append(SEATS[p.seat])
                if p.kind == "call_out_of_rotation" and p.context.turn is not None:
                    pending["in_turn"] = SEATS[p.context.turn]
                in_turn = self._opponent_in_turn(p)
                if in_turn is not None:
                    may_call.append(SEATS[in_turn])
            pending["may_call"] = may_call
        return {
            "board": self.board, "dealer": SEATS[self.dealer], "vulnerability": self.vulnerability,
            "profile": self.profile.name, "edition": self.edition, "policy": self.policy,
            "no_alerts_by": list(self.no_alerts_by),
            "status": status,
            "status_law": self.refs["end_bid"] if self._status == ENDED else (
                self.refs["end_passed_out"] if self._status == PASSED_OUT else (
                    self._adjusted["law"] if self._adjusted is not None else None)),
            "calls": calls,
            "contract": auction.contract(pairs) if ended else None,
            "declarer": SEATS[decl] if decl is not None else None,
            "next": SEATS[turn] if turn is not None else None,
            "lowest_bid": call_name(self._last_bid + 1) if self._last_bid < MAX_LEGAL_RANK else None,
            "legal_calls": legal,
            "stop_lock_until": lock,
            "stop_enforcement": self.profile.stop.enforcement if self.profile.stop.enabled else "none",
            "pending": pending,
            "irregularities": [dict(i) for i in self._irregularities],
            "obligations": obligations,
            "lead_restrictions": leads,
            "lead_restrictions_lifted": lifted,
            "timing": [dict(x) for x in self._timing],
            "withdrawn": [dict(w) for w in self._withdrawn],
            "reviews": [dict(r) for r in self._reviews],
            "refused": [dict(r) for r in self._refused],
            "exposed_cards": exposed,
            "wrong_board": wrong_board,
            "adjusted_score": dict(self._adjusted) if self._adjusted is not None else None,
            "tray": None if not self.profile.screens.enabled else {
                "seats": [SEATS[x] for x in self._screenmates[self._tray_side]],
                "passes": [dict(x) for x in self._tray_passes]},
            "box_taken": [dict(x) for x in self._box_taken],
        }


# The TD's answer to each kind of pending decision (the "td" of a ruling event), by kind.
_RULINGS: dict[str, Callable[[Table, Pending, Option, Rec | None, float], None]] = {
    "insufficient_bid": Table._td_insufficient_bid,
    "insufficient_bid_judgement": Table._td_insufficient_bid_judgement,
    "call_out_of_rotation": Table._td_call_out_of_rotation,
    "oot_judgement": Table._td_oot_judgement,
    "change_of_call": Table._td_change_of_call,
    "inadmissible_double": Table._td_inadmissible_double,
    "call_when_required_to_pass": Table._td_call_when_required_to_pass,
    "bid_above_seven": Table._td_bid_above_seven,
    "call_after_final_pass": Table._td_call_after_final_pass,
    "restricted_call": Table._td_restricted_call,
    "repeat_not_made": Table._td_repeat_not_made,
    "wrong_board_judgement": Table._td_wrong_board_judgement,
}

__all__ = ["Table", "EventError", "Pending", "Option", "parse_call"]
