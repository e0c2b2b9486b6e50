"""The fold over events that every Law shares: the standing calls, the turn, the obligations, the
record, and the path of a call: detection (the rules in rules.DETECTION_ORDER, each asked in
turn), then the call stands or its rule records the irregularity; while a decision is pending,
the calls the Law gives a meaning go to the rule that raised it, and the TD's answer too.

`table.Table` is the interface; this is its working state, which the rules (law*.py) change
through the primitives below. Seats are ints (types.Seat), calls ints (calls.py): the per-call
path is a few integer updates.
"""
from __future__ import annotations

import functools
from typing import Any, Final

from shared_rules import (
    box_screens,
    law9,
    law15_17,
    law24,
    law25,
    law28_33,
    law34_39,
    laws,
    profiles,
    texts,
    timing,
)
from shared_rules.calls import (
    DOUBLE,
    MAX_LEGAL_RANK,
    PASS,
    SEATS,
    STRAINS,
    call_name,
    is_jump,
    lho,
    opponents,
)
from shared_rules.model import DEEMED, Deemed, EventError, Found, Option, Pending, Rec
from shared_rules.rule import LhoRule
from shared_rules.rules import DETECTION_ORDER
from shared_rules.types import (
    Asks,
    Finding,
    IrregularityKind,
    MustPass,
    OptionId,
    Policy,
    Refusal,
    Resolution,
    Status,
)

BIDDING: Final = Status.BIDDING
ENDED: Final = Status.ENDED
PASSED_OUT: Final = Status.PASSED_OUT
ADJUSTED: Final = Status.ADJUSTED_SCORE
NEXT_TURN: Final = MustPass.NEXT_TURN
PREVENT: Final = Policy.PREVENT


def short(value: Any) -> str:
    """A value as an error message quotes it: never a screenful, never a 4,000-digit integer."""
    text = repr(value) if not isinstance(value, int) or abs(value) < 10**20 else \
        f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
    return text if len(text) <= 40 else text[:37] + "..."


class Fold:
    """One board's auction as the events so far made it (table.Table validates the events)."""

    __slots__ = ("profile", "board", "dealer", "vulnerability", "no_alerts_by", "edition", "policy",
                 "refs", "stop_open", "stop_jump", "stop_card", "stop_skip", "stop_at_tray", "calls", "turn", "turn_t", "last_t", "status",
                 "last_bid", "last_action", "last_action_seat", "has_action", "trailing_passes",
                 "must_pass", "repeat", "no_double", "judge_next_call", "rho_watch", "pending",
                 "stop_from", "irregularities", "irregularities_made", "timing", "withdrawn", "leads",
                 "reviews", "refused", "exposed", "adjusted", "wrong_board", "wrong_board_ruled",
                 "wrong_board_repeat", "views", "screens", "screenmates", "tray_side", "tray_passes",
                 "tray_calls", "tray_seen", "tray_arrived_t", "calls_changed_t", "calls_counted", "taken",
                 "taken_makes", "box_taken", "box_views", "awaiting_refusal")

    def __init__(self, profile: profiles.Profile, board: int, dealer: int, vulnerability: str, policy: Policy,
                 no_alerts_by: tuple[str, ...]) -> None:
        self.profile = profile
        self.board, self.dealer, self.vulnerability = board, dealer, vulnerability
        # The pairs asked by their opponents not to alert at this table (FSB L115A1-A2).
        self.no_alerts_by = no_alerts_by
        self.edition = profile.edition
        self.policy = policy
        self.refs = laws.REFS[self.edition]
        stop = profile.stop
        self.stop_open = stop.enabled and "opening_two_level" in stop.triggers
        self.stop_jump = stop.enabled and "jump" in stop.triggers
        # The pause after a skip bid (timing.py): the Stop card shown obliges it, and a skip bid
        # without the card is flagged (FSB L116B); where the regulation says so, every skip bid
        # obliges it, card or not (profile stop.pause_without_card: EBU, ACBL).
        self.stop_card = stop.enabled and stop.card
        self.stop_skip = stop.enabled and stop.pause_without_card
        # Behind screens the pause of a player across the screen from the stop begins when the
        # tray brings him the call (profile stop.across_screen = "tray"; docs/laws/choices.md #38).
        self.stop_at_tray = profile.screens.enabled and stop.across_screen == "tray"
        self.calls: list[Rec] = []  # the standing calls
        self.turn: int | None = dealer
        self.turn_t = 0.0  # when the seat in turn came to be in turn (his think time starts)
        self.last_t = 0.0  # the last event's time
        self.status: Status = BIDDING
        # The running integers the per-call path keeps instead of re-reading the auction.
        self.last_bid = -1
        self.last_action = 0  # code of the last non-pass call, valid once has_action
        self.last_action_seat = -1
        self.has_action = False
        self.trailing_passes = 0
        # Obligations: must pass (how, law), must repeat (code, law), may not double (law).
        self.must_pass: dict[int, tuple[MustPass, str]] = {}
        self.repeat: dict[int, tuple[int, str]] = {}
        self.no_double: dict[int, str] = {}
        # Deferred judgements: the offender's next call (L30B1, L31, L32 of 2017; 2007 L31A2), and
        # RHO's call deciding what the offender must do (L31A, L32 at RHO's turn).
        self.judge_next_call: dict[int, tuple[laws.Deferred, Rec]] = {}
        self.rho_watch: dict[int, tuple[int, laws.OotRule, Rec]] = {}
        self.pending: Pending | None = None
        # (when, who waits, whether the Stop card was shown) after a stop or a skip bid; `when` is
        # None while the tray has not yet brought the stop to a waiter across the screen
        self.stop_from: tuple[float | None, int, bool] | None = None
        # The record.
        self.irregularities: list[dict[str, Any]] = []
        self.irregularities_made = 0  # how many were ever recorded (an L33 reordering removes one)
        self.timing: list[dict[str, Any]] = []
        self.withdrawn: list[dict[str, Any]] = []
        self.leads: list[dict[str, Any]] = []  # L26 candidates, judged when the state is read
        self.reviews: list[dict[str, Any]] = []
        self.refused: list[dict[str, Any]] = []
        self.exposed: list[dict[str, Any]] = []
        self.adjusted: dict[str, Any] | None = None
        self.wrong_board: dict[str, Any] | None = None
        self.wrong_board_ruled: set[int] = set()
        self.wrong_board_repeat: dict[int, tuple[Rec, Rec]] = {}
        self.views: list[dict[str, Any]] = []  # Rec.view() of the standing calls, for state()
        # Screens (FSB L114, 2007/2017 L80B2(e)): which side holds the tray (index into the
        # screenmates), and every pass of the tray under the screen (box_screens.py).
        self.screens = profile.screens.enabled
        self.screenmates = box_screens.seat_pairs(profile.screens.screenmates)
        self.tray_side = next(i for i, pair in enumerate(self.screenmates) if dealer in pair)
        self.tray_passes: list[dict[str, Any]] = []
        # How many of the standing calls the tray has carried across so far: those are seen on
        # both sides; a later call is seen only on the side where it was made.
        self.tray_calls = 0
        # What the side without the tray sees: the standing calls as they were when the tray left it.
        self.tray_seen: list[list[dict[str, Any]]] = [[], []]
        self.tray_arrived_t = 0.0  # when the tray came to the side holding it
        self.calls_changed_t = 0.0  # the last event that changed the number of standing calls
        self.calls_counted = 0
        # FSB L112C: a call taken from the box with visible intent is made; the box's confirmation
        # that follows is the same call, not a second one. (seat, code) of that call until then;
        # (seat, code, seat, code, ...) when cards of several boxes wait (L33: nearly at once).
        self.taken: tuple[int, ...] | None = None
        self.taken_makes = profile.call_made == "taken"  # the card taken out is the call
        self.box_taken: list[tuple[int, int, float, bool]] = []  # (seat, code, t, made)
        self.box_views: list[dict[str, Any]] = []  # their dicts for state(), built once each
        # L9B2: why the last call made while the TD was awaited would be refused at the box (law9.py);
        # Table.step refuses the call with it, a replay records the call.
        self.awaiting_refusal: EventError | None = None

    # ------------------------------------------------------------------ detection
    def admissible(self, seat: int, code: int) -> bool:
        """A double or redouble L19A1 / L19B1 allows `seat` now (both editions)."""
        if not self.has_action or not opponents(self.last_action_seat, seat):
            return False
        return self.last_action >= 0 if code == DOUBLE else self.last_action == DOUBLE

    def classify(self, seat: int, code: int) -> Found | Deemed | None:
        """What a call by `seat` is, without changing anything: None (legal), L28A's deemed pass
        first, or the first rule of rules.DETECTION_ORDER that finds it. After an adjusted score
        no call is taken at all."""
        if self.status is not BIDDING:
            if self.status is ADJUSTED:
                law = self.adjusted["law"] if self.adjusted else ""
                raise EventError(f"the auction was stopped: the TD awards an adjusted score ({law}); no more "
                                 "calls", Refusal.AUCTION_STOPPED, law)
        elif seat == self.turn:
            if (code == PASS or self.last_bid < code <= MAX_LEGAL_RANK) and seat not in self.must_pass \
                    and seat not in self.repeat:
                return None  # plainly legal: no rule finds anything here (tests/rules/test_rules.py)
        elif law28_33.deemed_pass_first(self, seat):
            return DEEMED
        return self.detect(seat, code, self.turn)

    def detect(self, seat: int, code: int, turn: int | None) -> Found | None:
        """The rules asked in detection order, as if `turn` were the seat in turn."""
        for rule in DETECTION_ORDER:
            found = rule.detect(self, seat, code, turn)
            if found is not None:
                return found
        return None

    def after_deemed_pass(self, seat: int, code: int) -> Found | None:
        """What a call after an L28A deemed pass is, without changing anything: a call after the
        final pass if the deemed pass ends the auction (L39), else judged in turn."""
        if self.trailing_passes == (2 if self.has_action else 3):
            return Found(law34_39.CALL_AFTER_FINAL_PASS)
        return self.detect(seat, code, seat)

    # ------------------------------------------------------------------ the call path
    def on_call(self, rec: Rec) -> None:
        """A call: while a decision is pending, the calls the Law gives a meaning; else judged."""
        if self.pending is not None:
            self.call_while_pending(rec)
        else:
            self.take_call(rec, self.classify(rec.seat, rec.code))

    def take_call(self, rec: Rec, found: Found | Deemed | None) -> None:
        """A call with no decision pending, as detection found it."""
        if found is None:
            self.stand(rec)
        elif isinstance(found, Deemed):
            after = self.after_deemed_pass(rec.seat, rec.code)
            if after is not None and self.policy is PREVENT:
                self.refuse(rec, after)  # refused before anyone saw it: no pass is deemed either
            else:
                law28_33.stand_deemed_pass(self, rec)
        elif self.policy is PREVENT:
            self.refuse(rec, found)
        else:
            found.rule.record(self, rec, found)

    def refuse(self, rec: Rec, found: Found) -> None:
        """The `prevent` policy: the irregular call is recorded as refused and changes nothing else."""
        self.refused.append({"t": rec.t, "seat": SEATS[rec.seat], "call": call_name(rec.code),
                             "kind": found.rule.kind, "law": found.rule.law_for(self.edition)})

    def call_while_pending(self, rec: Rec) -> None:
        """Only the calls the Law gives a meaning are taken while a decision waits (L9B2), in this
        order: L33 (the player in turn, simultaneously), the offender's LHO (accepting or
        condoning), then the others the rule names (L27C the offender, L28B the opponent in turn).
        Any other call was made while the TD was awaited: recorded and cancelled (law9.py)."""
        p = self.pending
        assert p is not None
        if p.asks is not Asks.LHO:
            law9.CALL_WHILE_AWAITING_TD.made(self, rec, EventError(
                f"the table waits for the TD ({p.kind}, {p.law}): no call now (L9B2)", Refusal.AWAITING_TD, "L9B2"))
            return
        if law28_33.SIMULTANEOUS_CALLS.called_with(self, p, rec):
            return
        if self.screens and rec.seat != p.seat and (rec.seat == lho(p.seat) or rec.seat in p.rule.may_call(self, p)):
            box_screens.check_seen(self, p, rec.seat)  # behind screens: only what the tray brought him
        if rec.seat == lho(p.seat):
            assert isinstance(p.rule, LhoRule)
            self.pending = None
            p.rule.lho_calls(self, p, rec)
            return
        if p.rule.other_call(self, p, rec):
            return
        law9.CALL_WHILE_AWAITING_TD.made(self, rec, EventError(
            f"the table waits for a ruling on {p.kind} by {SEATS[p.seat]} ({p.law}): only {SEATS[lho(p.seat)]} may "
            "call now (L9B2)", Refusal.AWAITING_TD, "L9B2"))

    # ------------------------------------------------------------------ the TD
    def on_td(self, ev: dict[str, Any], seat: int, code: int, t: float) -> None:
        """A TD event: a finding (named in types.Finding), or the answer to the pending decision."""
        kind = ev["td"]
        if kind == Finding.CORRECT_CALL or kind == Finding.MISINFORMATION_CHANGE:
            misinformation = kind == Finding.MISINFORMATION_CHANGE
            law25.CHANGE_OF_CALL.correct(self, seat, code, t, "call" in ev, misinformation, ev.get("stop"))
        elif kind == Finding.EXPOSED_CARDS:
            law24.CARDS_EXPOSED.found(self, seat, list(ev["cards"]), bool(ev.get("led", False)), t)
        elif kind == Finding.WRONG_BOARD_CALL:
            law15_17.WRONG_BOARD_CALL.found(self, seat, t)
        elif kind == Finding.WRONG_BOARD:
            law15_17.WRONG_BOARD.found(self, bool(ev.get("played_before", False)), t)
        elif kind == Finding.CANCEL_BOARD:
            law15_17.WRONG_BOARD.cancel_board(self, t)
        else:
            self.answer(ev, code, t)

    def answer(self, ev: dict[str, Any], code: int, t: float) -> None:
        """The TD's choice on the pending decision, handed to the rule that raised it."""
        kind = ev["td"]
        p = self.pending
        if p is None:
            raise EventError(f"no decision is pending, so the TD event {kind!r} has nothing to answer")
        if kind != p.kind:
            raise EventError(f"the pending decision is {str(p.kind)!r}, not {kind!r}")
        choice = ev["choice"]
        ids = ", ".join(o.id for o in p.options)
        if not isinstance(choice, str):
            raise EventError(f"choice must name one of the options of the pending {p.kind}, as a string: {ids} "
                             f"(got {short(choice)})")
        option = next((o for o in p.options if o.id == choice), None)
        if option is None:
            raise EventError(f"choice {short(choice)} is not an option of the pending {p.kind} ({p.law}): {ids}")
        shown: tuple[int, ...] | None = None
        if "shown" in ev:
            # L29C: the TD names the denominations the artificial call out of rotation showed.
            names = ev["shown"]
            if option.id != OptionId.CANCEL_ARTIFICIAL or p.rec is None:
                raise EventError("shown belongs to the choice cancel_artificial (L29C)")
            if not isinstance(names, list) or not 1 <= len(names) <= 5 \
                    or len(set(map(str, names))) != len(names) or any(n not in STRAINS for n in names):
                raise EventError(f"shown must list distinct denominations C, D, H, S, NT (got "
                                 f"{short(names)})")
            shown = tuple(STRAINS.index(n) for n in names)
        if option.needs_call and "call" not in ev:
            raise EventError(f"option {str(option.id)!r} needs the call (e.g. \"call\": \"2H\")")
        if shown is not None:
            assert p.rec is not None
            p.rec.shown = shown
        call = None
        if "call" in ev:
            call = Rec(p.seat, code, t, 0.0, bool(ev.get("stop", False)))
            if p.rec is not None and p.rec.seat == p.seat:
                call.acted = p.rec.acted  # FSB L116B: the wait ended when the player called
        p.rule.ruling(self, p, option, call, t)

    def unintended_option(self) -> Option:
        """L25A: the TD may find the call unintended and let the intended call replace it."""
        return _unintended(self.refs["unintended"])

    def replace_unintended(self, p: Pending, call: Rec | None) -> None:
        """The TD took `unintended_option`: the call is withdrawn and the intended `call` is made
        in its place, with the think time of the call it replaces."""
        irregular = p.rec
        assert irregular is not None and call is not None
        self.pending = None
        self.resolve(p, Resolution.UNINTENDED, self.refs["unintended"])
        self.withdraw(irregular, "unintended call", self.refs["unintended"])
        call.think = irregular.think
        self.on_call(call)

    def stop_auction(self, kind: str, law: str, reason: str) -> None:
        """The auction cannot go on: the TD awards an adjusted score (`kind`: artificial | adjusted)."""
        self.adjusted = {"kind": kind, "law": law, "reason": reason}
        self.status = ADJUSTED
        self.turn = None
        self.stop_from = None
        self.wrong_board_repeat.clear()

    # ------------------------------------------------------------------ a call stands
    def stand(self, rec: Rec) -> None:
        """A call that stands (legal, accepted, or deemed): the per-call hot path."""
        s, code = rec.seat, rec.code
        if self.stop_from is not None:
            if self.stop_from[1] == s:
                timing.check_stop_wait(self, rec)
            self.stop_from = None
        pause = rec.stop and self.stop_card
        if code >= 0:
            # FSB L116B1-B2, 2017 L73A1: an opening at the two level or a jump, per profile
            if (self.stop_open and self.last_bid < 0 and code >= 5) or (self.stop_jump and is_jump(code, self.last_bid)):
                if not rec.stop and self.stop_card:
                    timing.stop_missing(self, rec)
                pause = pause or self.stop_skip  # EBU, ACBL: the LHO pauses, card or not
            self.last_bid = code
        if pause:
            waiter = lho(s)
            # FSB L116B "Näste spelare skall därefter avvakta": the pause follows the stop. Behind
            # screens a waiter across the screen sees it only when the tray brings it, so his
            # pause begins then (box_screens.tray sets it; profile stop.across_screen).
            across = self.stop_at_tray and box_screens.side_of(self, waiter) != box_screens.side_of(self, s)
            self.stop_from = (None if across else rec.t, waiter, rec.stop)
        self.calls.append(rec)
        if code == PASS:
            self.trailing_passes += 1
        else:
            self.trailing_passes = 0
            self.has_action = True
            self.last_action = code
            self.last_action_seat = s
        if self.must_pass:
            ob = self.must_pass.get(s)
            # The turn is used, whatever was called: a call in violation that LHO condoned (L37A)
            # uses it too; only a rest-of-auction obligation lasts ("måste han fortfarande passa
            # varje gång", 2007 L37A; 2017 L37A the same).
            if ob is not None and ob[0] is NEXT_TURN and rec.in_rotation:
                del self.must_pass[s]
        if self.no_double:
            self.no_double.pop(s, None)
        if self.repeat:
            self.repeat.pop(s, None)
        self.turn = lho(s)
        self.turn_t = rec.t
        if self.rho_watch and s in self.rho_watch:
            law28_33.CALL_OUT_OF_ROTATION.rho_called(self, s, code)
        if self.trailing_passes >= 3 and self.trailing_passes == (3 if self.has_action else 4):
            self.end_check(rec.t)
        if self.judge_next_call and s in self.judge_next_call and rec.in_rotation and not rec.deemed:
            law28_33.CALL_OUT_OF_ROTATION.judge_next_call(self, s, rec)
        if self.wrong_board_repeat and s in self.wrong_board_repeat:
            law15_17.WRONG_BOARD_CALL.new_call(self, s, rec)
        if self.wrong_board is not None:  # 2007 L15C: is it the call made in the first auction?
            law15_17.WRONG_BOARD.called(self, rec)

    def end_check(self, t: float) -> None:
        """L22: three passes after a call, four at the start, end the auction if they come from
        the other three seats; otherwise a player was deprived of his turn (L34)."""
        tail = self.calls[-4:]
        seats = {r.seat for r in tail}
        if len(seats) == 4:
            self.status = ENDED if self.has_action else PASSED_OUT
            self.turn = None
            return
        law34_39.deprived_player(self, t)

    def rebuild(self) -> None:
        """The running integers again from the standing calls, after calls were taken back."""
        self.views.clear()
        self.tray_calls = min(self.tray_calls, len(self.calls))
        self.last_bid, self.has_action, self.trailing_passes = -1, False, 0
        for r in self.calls:
            if r.code == PASS:
                self.trailing_passes += 1
            else:
                self.trailing_passes = 0
                self.has_action, self.last_action, self.last_action_seat = True, r.code, r.seat
                if r.code >= 0:
                    self.last_bid = r.code

    def reopen(self, seat: int, t: float) -> None:
        """Take back `seat`'s last call, which must be the last standing call (L25A, L36A...)."""
        rec = self.calls.pop()
        assert rec.seat == seat
        self.rebuild()
        self.status = BIDDING
        self.turn = seat
        self.turn_t = t

    # ------------------------------------------------------------------ the record
    def withdraw(self, rec: Rec, reason: str, law: str) -> None:
        self.withdrawn.append({
            "seat": SEATS[rec.seat], "call": call_name(rec.code), "t": rec.t, "reason": reason, "law": law,
        })

    def oblige(self, seat: int, how: MustPass, law: str) -> None:
        """`seat` must pass (next turn or the rest of the auction); a stricter obligation wins."""
        old = self.must_pass.get(seat)
        if old is None or (old[0] is NEXT_TURN and how is MustPass.REST):
            self.must_pass[seat] = (how, law)

    def review(self, seat: int, law: str, reason: str) -> None:
        """A review the TD makes after play (2007 L23 / 2017 L72C awareness, L27D, L23C, L21B3)."""
        self.reviews.append({"seat": SEATS[seat], "law": law, "reason": reason})

    def lead(self, offender: int, withdrawn: Rec, law_hint: str) -> None:
        """Record a Law 26 lead restriction candidate. What it allows is worked out against the
        legal auction when the state is read (law26.py): the Law judges it at the lead."""
        self.leads.append({"offender": offender, "code": withdrawn.code, "shown": withdrawn.shown,
                           "because": law_hint})

    def irregularity(self, kind: IrregularityKind, rec: Rec, law: str, **extra: Any) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "kind": kind, "seat": SEATS[rec.seat], "law": law, "t": rec.t, "call": call_name(rec.code),
            "ruling": None, "resolution": None,
        }
        entry.update(extra)
        self.add_irregularity(entry)
        return entry

    def add_irregularity(self, entry: dict[str, Any]) -> None:
        self.irregularities.append(entry)
        self.irregularities_made += 1

    def resolve(self, p: Pending, resolution: Resolution | str, ruling: str) -> None:
        if p.irregularity is not None:
            p.irregularity["resolution"] = resolution
            p.irregularity["ruling"] = ruling

    def pend(self, p: Pending) -> None:
        """The table waits for `p` (L9B2)."""
        if self.screens and p.asks is Asks.LHO:
            p.options = box_screens.seen_options(self, p, lho(p.seat))
        self.pending = p
        if p.rec is not None and p.asks is Asks.LHO:
            self.turn_t = p.rec.t  # the LHO's thinking starts when he sees the irregularity

    def legal_calls(self, seat: int) -> list[str]:
        """What `seat` may call now (L18C, L19A1, L19B1), from the running integers: constant
        time, where auction.legal_calls reads the whole auction."""
        out = ["P", *_BID_NAMES[self.last_bid + 1:]]
        if seat not in self.no_double and self.has_action and opponents(self.last_action_seat, seat):
            if self.last_action >= 0:
                out.append("X")
            elif self.last_action == DOUBLE:
                out.append("XX")
        return out


_BID_NAMES: Final = tuple(call_name(code) for code in range(MAX_LEGAL_RANK + 1))  # 1C..7NT


@functools.lru_cache(maxsize=8)
def _unintended(law: str) -> Option:
    """The L25A option, made once per edition (options never change once made)."""
    return Option(OptionId.UNINTENDED, texts.UNINTENDED, law, True)
