"""The fold over events that every law family shares: validation, the standing calls, the turn,
obligations, the record, dispatch to the law families, and the state.

The Laws themselves are in one module per family (law15_17, law24, law25, law27, law28_33,
law34_39, timing, box_screens, and law26 for the lead restriction); `table.Table` puts them
together. Each family registers, by irregularity kind, what raises it (detection is here, in
the detection order of docs/rules-engine.md), what the LHO's call does, and what the TD's choice
does; this module looks them up in those registries.
"""
from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from shared_rules import auction, boards, law26, laws, profiles
from shared_rules.calls import (
    BID_NAME,
    CALL_CODE,
    DOUBLE,
    MAX_LEGAL_RANK,
    PASS,
    SEAT_INDEX,
    SEATS,
    STRAINS,
    call_name,
    is_jump,
    lho,
    opponents,
    partner,
    rho,
)
from shared_rules.texts import option_text

BIDDING, ENDED, PASSED_OUT, AWAITING = "bidding", "ended", "passed_out", "awaiting_td"
ADJUSTED = "adjusted_score"  # the auction cannot go on: the TD awards an adjusted score
_POSITION = {1: "lho", 2: "partner", 3: "rho"}  # (turn - offender) mod 4 -> whose turn it was
_EVENT_KEYS = {"t", "seat", "call", "stop", "alert", "td", "choice", "cards", "led", "played_before", "taken", "tray",
               "shown"}
_CARD_SUITS, _CARD_RANKS = "SHDC", "AKQJT98765432"
# Event times are seconds from the board's start; far beyond any session, but finite floats.
_T_MAX = 1e12
_BID_NAMES = BID_NAME[:MAX_LEGAL_RANK + 1]  # 1C..7NT


class EventError(ValueError):
    """An event the table cannot take in its current state; nothing was changed."""


class Rec:
    """One call as made at the table."""

    __slots__ = ("seat", "code", "t", "think", "stop", "alerted_by", "alert_t", "in_rotation", "deemed", "acted",
                 "alerted_to", "shown", "_view")

    def __init__(self, seat: int, code: int, t: float, think: float, stop: bool) -> None:
        self.seat = seat
        self.code = code
        self.t = t
        self.think = think
        self.stop = stop
        self.alerted_by: int | None = None
        self.alert_t: float | None = None
        self.in_rotation = True
        self.deemed: str | bool = False  # the Law that deems the call made (L28A), else False
        # When the player himself first acted at this turn: a call the TD enters later (a
        # replacement) keeps the time of the player's own call, which is what FSB L116B times.
        self.acted = t
        self.alerted_to: list[int] = []  # with screens: the screenmates the call was alerted to
        self.shown: tuple[int, ...] | None = None  # L29C: the denominations an artificial call showed
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
                d["deemed_law"] = self.deemed  # the Law that deems it made (L28A of the edition)
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


@functools.lru_cache(maxsize=16)
def _seat_pairs(pairs: tuple[tuple[str, str], ...]) -> tuple[tuple[int, ...], ...]:
    """A profile's screenmates as seat indexes: the same few tuples for every board's Table."""
    return tuple(tuple(SEAT_INDEX[x] for x in pair) for pair in pairs)


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



class TableBase:
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
        self._screenmates = _seat_pairs(self.profile.screens.screenmates)
        self._tray_side = next(i for i, pair in enumerate(self._screenmates) if self.dealer in pair)
        self._tray_passes: list[dict[str, Any]] = []
        # How many of the standing calls the tray has carried across so far: those are seen on
        # both sides; a later call is seen only on the side where it was made.
        self._tray_calls = 0
        # FSB L112C: a call taken from the box with visible intent is made; the box's confirmation
        # that follows is the same call, not a second one. (seat, code) of that call until then.
        self._taken: tuple[int, int] | None = None
        self._box_taken: list[tuple[int, int, float, bool]] = []  # (seat, code, t, made)
        self._box_views: list[dict[str, Any]] = []  # their dicts for state(), built once each
        # The events taken so far: a refused event is undone by folding them again (refusals are
        # rare; the accepted path pays nothing for it).
        self._events: list[Any] = []
        self._args = (profile, board, policy, tuple(no_alerts_by))

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
        if "shown" in ev and kind != "td":
            raise EventError("shown belongs to a td event (the TD's L29C ruling)")
        if "choice" in ev and kind != "td":
            raise EventError("choice belongs to a td event")
        direct = self._DIRECT_FIELDS.get(ev["td"]) if kind == "td" and isinstance(ev["td"], str) else None
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
            if ev["td"] not in self._DIRECT and ev["td"] not in self._RULINGS:
                raise EventError(f"unknown TD ruling kind {_short(ev['td'])}: a pending decision's kind "
                                 f"({', '.join(sorted(self._RULINGS))}) or one of {', '.join(self._DIRECT)}")
            if ev["td"] not in self._DIRECT and not isinstance(ev.get("choice"), str):
                raise EventError("a td event needs a choice (one of the pending decision's option ids)")
        return kind, seat, code, float(t)

    def _apply(self, ev: Any) -> None:
        # Fast path for the common event, a plain call, or a call from a box that reports the card
        # taken out (FSB L112C: the tablet sends `taken` on every box call under fsb-2007): same
        # checks as _validate, fewer steps.
        if type(ev) is dict and self._pending is None and "call" in ev and "td" not in ev:
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
                    if code is not None and s is not None and self._last_t <= t <= _T_MAX:
                        try:
                            if taken is None and self._taken is None:
                                self._on_call(Rec(s, code, t, t - self._turn_t, stop is True))
                            else:
                                self._on_box_call(s, code, t, stop is True, taken is True)
                        except EventError:
                            self._undo()
                            raise
                        self._last_t = t
                        self._events.append(ev)
                        return
        kind, seat, code, t = self._validate(ev)
        try:
            if kind == "call" and ("taken" in ev or self._taken is not None):
                self._on_box_call(seat, code, t, bool(ev.get("stop", False)), bool(ev.get("taken")))
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
        fresh = type(self)(*self._args[:3], no_alerts_by=self._args[3])
        for ev in self._events:
            fresh._apply(ev)
        self.__dict__.update(fresh.__dict__)

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
                deemed.deemed = self.refs["deemed_pass"]
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
        self._tray_calls = min(self._tray_calls, len(self._calls))
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
        self._leads.append({"offender": offender, "code": withdrawn.code, "shown": withdrawn.shown, "because": law_hint})

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

    # ------------------------------------------------------------------ registries (filled by table.Table)
    # kind -> what raises the irregularity: (self, rec, extra) -> None
    _RAISE: ClassVar[dict[str, Callable[..., None]]] = {}
    # kind -> what the offender's LHO calling over it does (the Law gives that call a meaning)
    _LHO_CALLS: ClassVar[dict[str, Callable[..., None]]] = {}
    # other calls the Law gives a meaning while a decision waits, in order: (self, p, rec) -> taken?
    _WHILE_PENDING: ClassVar[tuple[Callable[..., bool], ...]] = ()
    # pending kind -> what the TD's choice does: (self, p, option, call, t) -> None
    _RULINGS: ClassVar[dict[str, Callable[..., None]]] = {}
    # TD events that answer no pending decision: kind -> handler (self, ev, seat, code, t) -> None,
    # and the fields each may carry besides t and td
    _DIRECT: ClassVar[dict[str, Callable[..., None]]] = {}
    _DIRECT_FIELDS: ClassVar[dict[str, set[str]]] = {}

    # ------------------------------------------------------------------ hooks a law family provides
    def _check_stop_wait(self, rec: Rec) -> None:  # timing
        raise NotImplementedError

    def _watched(self, s: int, code: int, t: float) -> None:  # law28_33: L31A / L32 at RHO's turn
        raise NotImplementedError

    def _ask_deferred(self, s: int, rec: Rec) -> None:  # law28_33: comparable / same denomination
        raise NotImplementedError

    def _wrong_board_new_call(self, s: int, rec: Rec) -> None:  # law15_17: 2007 L17D2
        raise NotImplementedError

    def _opponent_in_turn(self, p: Pending) -> int | None:  # law28_33: L28B
        raise NotImplementedError

    def _on_alert(self, seat: int, t: float) -> None:  # timing
        raise NotImplementedError

    def _repeat_differs(self) -> dict[str, Any] | None:  # law15_17: 2007 L15C
        raise NotImplementedError

    def _screenmate(self, seat: int) -> int:  # box_screens
        raise NotImplementedError

    def _on_tray(self, t: float) -> None:  # box_screens
        raise NotImplementedError

    def _on_box_call(self, seat: int, code: int, t: float, stop: bool, taken: bool) -> None:  # box_screens
        raise NotImplementedError

    # ------------------------------------------------------------------ dispatch
    def _unintended_option(self) -> Option:
        return Option("unintended", "unintended", self.refs["unintended"], True)

    def _replace_unintended(self, p: Pending, call: Rec | None) -> None:
        """The TD took `_unintended_option`: the call is withdrawn and the intended `call` is made
        in its place, with the think time of the call it replaces."""
        x = p.rec
        assert x is not None and call is not None
        self._pending = None
        self._resolve(p, "unintended", self.refs["unintended"])
        self._withdraw(x, "unintended call", self.refs["unintended"])
        call.think = x.think
        self._on_call(call)

    def _raise(self, kind: str, extra: Any, rec: Rec) -> None:
        self._RAISE[kind](self, rec, extra)
    def _pend(self, p: Pending) -> None:
        self._pending = p
        if p.rec is not None and p.asks == "lho":
            self._turn_t = p.rec.t  # the LHO's thinking starts when he sees the irregularity

    def _pending_call(self, rec: Rec) -> None:
        """A call while a decision waits: only the calls the Law gives a meaning are taken (L9B2)."""
        p = self._pending
        assert p is not None
        if p.asks != "lho":
            raise EventError(f"the table waits for the TD ({p.kind}, {p.law}): no call now (L9B2)")
        for taken in self._WHILE_PENDING:
            if taken(self, p, rec):
                return
        raise EventError(
            f"the table waits for a ruling on {p.kind} by {SEATS[p.seat]} ({p.law}): only {SEATS[lho(p.seat)]} may call now (L9B2)"
        )

    def _lho_calls(self, p: Pending, rec: Rec) -> bool:
        """The offender's LHO calls over the irregularity: what that does is the family's."""
        if rec.seat != lho(p.seat):
            return False
        self._pending = None
        self._LHO_CALLS[p.kind](self, p, rec)
        return True

    def _on_td(self, ev: dict[str, Any], seat: int, code: int, t: float) -> None:
        kind = ev["td"]
        direct = self._DIRECT.get(kind)
        if direct is not None:
            direct(self, ev, seat, code, t)
            return
        p = self._pending
        if p is None:
            raise EventError(f"no decision is pending, so the TD event {kind!r} has nothing to answer")
        if kind != p.kind:
            raise EventError(f"the pending decision is {p.kind!r}, not {kind!r}")
        option = next((o for o in p.options if o.id == ev["choice"]), None)
        if option is None:
            raise EventError(f"{ev['choice']!r} is not an option here: {', '.join(o.id for o in p.options)}")
        if "shown" in ev:
            # L29C: the TD names the denominations the artificial call out of rotation showed.
            shown = ev["shown"]
            if option.id != "cancel_artificial" or p.rec is None:
                raise EventError("shown belongs to the choice cancel_artificial (L29C)")
            if not isinstance(shown, list) or not 1 <= len(shown) <= 5 or len(set(map(str, shown))) != len(shown) \
                    or any(x not in STRAINS for x in shown):
                raise EventError(f"shown must list distinct denominations C, D, H, S, NT (got {_short(shown)})")
            p.rec.shown = tuple(STRAINS.index(x) for x in shown)
        if option.needs_call and "call" not in ev:
            raise EventError(f"option {option.id!r} needs the call (e.g. \"call\": \"2H\")")
        call_rec = None
        if "call" in ev:
            call_rec = Rec(p.seat, code, t, 0.0, bool(ev.get("stop", False)))
            if p.rec is not None and p.rec.seat == p.seat:
                call_rec.acted = p.rec.acted  # FSB L116B: the wait ended when the player called
        self._RULINGS[p.kind](self, p, option, call_rec, t)

    def _stop(self, kind: str, law: str, reason: str) -> None:
        self._adjusted = {"kind": kind, "law": law, "reason": reason}
        self._status = ADJUSTED
        self._turn = None
        self._stop_from = None
        self._wrong_board_repeat.clear()

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

    def _box_taken_views(self) -> list[dict[str, Any]]:
        """The cards taken from the box (FSB L112C) as the state lists them. Entries never change
        once made, so each dict is built once and shared between states, as the call dicts are:
        read them, do not change them."""
        views = self._box_views
        for seat, code, t, made in self._box_taken[len(views):]:
            views.append({"seat": SEATS[seat], "call": call_name(code), "t": t, "made": made,
                          "law": "FSB L112C" if made else ""})
        return list(views)

    def status(self) -> str:
        return AWAITING if self._pending is not None else self._status

    def irregularities_since(self, n: int) -> list[dict[str, Any]]:
        """The irregularities recorded after the first `n`, as state()["irregularities"] lists
        them: what one event added, without building the whole state."""
        return [dict(x) for x in self._irregularities[n:]]

    def irregularity_count(self) -> int:
        return len(self._irregularities)

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
        for s in range(4) if self._must_pass or self._repeat or self._no_double else ():
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
            legal_auction = pairs if ended else [(c.seat, c.code) for c in self._calls]
            for lr in self._leads:
                off = lr["offender"]
                d = {"offender": SEATS[off], "leader": SEATS[partner(off)],
                     **law26.restriction(self.edition, off, lr["code"], legal_auction, lr["shown"]),
                     "because": lr["because"]}
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
            "irregularities": [*map(dict, self._irregularities)] if self._irregularities else [],
            "obligations": obligations,
            "lead_restrictions": leads,
            "lead_restrictions_lifted": lifted,
            "timing": [*map(dict, self._timing)] if self._timing else [],
            "withdrawn": [*map(dict, self._withdrawn)] if self._withdrawn else [],
            "reviews": [*map(dict, self._reviews)] if self._reviews else [],
            "refused": [*map(dict, self._refused)] if self._refused else [],
            "exposed_cards": exposed,
            "wrong_board": wrong_board,
            "adjusted_score": dict(self._adjusted) if self._adjusted is not None else None,
            "tray": None if not self.profile.screens.enabled else {
                "seats": [SEATS[x] for x in self._screenmates[self._tray_side]],
                "passes": [*map(dict, self._tray_passes)] if self._tray_passes else []},
            "box_taken": self._box_taken_views(),
        }
