"""Laws 28-33: calls out of rotation, deemed in rotation (L28), accepted (L29A) or cancelled and
rectified (L29B -> L30-L32, the table laws.OOT), simultaneous calls (L33); and what the TD
decides when a player does not repeat a call he must, or doubles when he may not (the Laws are
silent: docs/laws/choices.md #8) (docs/laws/L28-L33.md).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Final

from shared_rules import box_screens, laws
from shared_rules.calls import PASS, SEATS, call_name, partner, rho
from shared_rules.model import Context, Found, Option, Pending, Rec, offer
from shared_rules.rule import DetectedRule, LhoRule, Rule
from shared_rules.texts import TD_DECIDES, key, keys
from shared_rules.types import Asks, Decision, IrregularityKind, OptionId, Resolution

if TYPE_CHECKING:
    from shared_rules.fold import Fold

_POSITION: Final = {1: "lho", 2: "partner", 3: "rho"}  # (turn - offender) mod 4 -> whose turn it was
_CANCEL_SCREEN: Final = "cancel_screen"  # the wording behind a screen whose regulation cancels it
_CANCEL_ARTIFICIAL_CALL: Final = "cancel_artificial_call"  # L29C: an artificial bid, double, redouble


# ---------------------------------------------------------------- L28A: RHO required to pass
def deemed_pass_first(f: Fold, seat: int) -> bool:
    """L28A: a call at RHO's turn when RHO is required to pass: RHO's pass is deemed made."""
    return f.turn == rho(seat) and f.turn in f.must_pass


def stand_deemed_pass(f: Fold, rec: Rec) -> None:
    """L28A: RHO's pass stands first (so it is never lost), then the call is judged in turn."""
    deemed = Rec(rho(rec.seat), PASS, rec.t, rec.t - f.turn_t, False)
    deemed.deemed = f.refs["deemed_pass"]
    f.stand(deemed)
    rec.think = rec.t - f.turn_t
    f.on_call(rec)


# ---------------------------------------------------------------- L28B: the opponent in turn calls
def opponent_in_turn(f: Fold, p: Pending) -> int | None:
    """The seat whose call L28B gives a meaning while `p` waits: the player in turn, when the
    call out of rotation was made by his LHO (an opponent). Both editions say "an opponent's
    call": the offender's partner in turn has no such right (2007 L32A, L31B, L30B2; 2017 L30B,
    L31B, L32B apply to him). Also for an inadmissible X/XX or a bid above seven out of turn."""
    turn = p.context.turn
    if p.asks is not Asks.LHO or p.rec is None or turn is None or turn == p.seat or turn != rho(p.seat):
        return None
    if p.kind is Decision.CALL_OUT_OF_ROTATION or p.context.out_of_rotation:
        return int(turn)
    return None


def called_over_in_turn(f: Fold, p: Pending, rec: Rec) -> bool:
    """L28B: the opponent in turn calls before the rectification is ruled; the call out of
    rotation is treated as not made, his call is in rotation."""
    irregular = p.rec
    if irregular is None or rec.seat != opponent_in_turn(f, p):
        return False
    r = f.refs
    f.pending = None
    f.resolve(p, Resolution.IN_TURN_CALLED, r["in_turn_calls"])
    f.withdraw(irregular, "out of rotation; the player in turn called over it",
               f"{r['in_turn_calls']}, {r['out_of_rotation_ui']}")
    f.on_call(rec)
    return True


# ---------------------------------------------------------------- L29-L32: the call out of rotation
class CallOutOfRotation(LhoRule):
    kind = IrregularityKind.CALL_OUT_OF_ROTATION
    law = "out_of_rotation_laws"  # 2007 L28-L32, 2017 L28-L32
    decisions = (Decision.CALL_OUT_OF_ROTATION, Decision.OOT_JUDGEMENT)
    texts = (*keys(Decision.CALL_OUT_OF_ROTATION, OptionId.ACCEPT, OptionId.CANCEL, _CANCEL_SCREEN,
                   OptionId.CANCEL_ARTIFICIAL, _CANCEL_ARTIFICIAL_CALL),
             *(key(Decision.OOT_JUDGEMENT, question, answer)
               for question in laws.QUESTIONS for answer in (OptionId.YES, OptionId.NO)))

    def detect(self, f: Fold, seat: int, code: int, turn: int | None) -> Found | None:
        # any other call by a player not in turn (the rules before it took the special cases)
        if turn is None or seat == turn:
            return None
        return Found(self, position=_POSITION[(turn - seat) & 3])

    def record(self, f: Fold, rec: Rec, found: Found) -> None:
        r = f.refs
        if SIMULTANEOUS_CALLS.with_deemed_pass(f, rec):
            return
        turn = f.turn if f.turn is not None else rec.seat
        entry = f.irregularity(self.kind, rec, r["out_of_rotation_laws"], position=found.position,
                               turn=SEATS[turn])
        decision = Decision.CALL_OUT_OF_ROTATION
        screens = f.profile.screens
        if screens.enabled and screens.unpassed_call == "cancel":
            # The call never crossed the screen (the tray stays while the TD rules): the
            # offender's partner has not seen it.
            cancel = offer(decision, OptionId.CANCEL, screens.law, variant=_CANCEL_SCREEN)
        else:
            cancel = offer(decision, OptionId.CANCEL, r["cancel_oot"])
        opts = [offer(decision, OptionId.ACCEPT, r["accept_oot"]), cancel]
        if rec.code == PASS:
            opts.append(offer(decision, OptionId.CANCEL_ARTIFICIAL, r["artificial_pass"]))
        else:  # L29C: an artificial bid, double or redouble is ruled on the denominations it showed
            opts.append(offer(decision, OptionId.CANCEL_ARTIFICIAL, r["artificial_call"],
                              variant=_CANCEL_ARTIFICIAL_CALL))
        f.pend(Pending(self, decision, r["out_of_rotation"], rec.seat, Asks.LHO, opts, rec,
                       entry, Context(turn=turn, position=found.position)))

    def lho_calls(self, f: Fold, p: Pending, rec: Rec) -> None:
        """L29A: the LHO accepts the call out of rotation by calling."""
        self._accept(f, p)
        f.on_call(rec)

    def _accept(self, f: Fold, p: Pending) -> None:
        irregular = p.rec
        assert irregular is not None
        f.resolve(p, Resolution.ACCEPTED, f.refs["accept_oot"])
        irregular.in_rotation = False
        f.stand(irregular)

    def may_call(self, f: Fold, p: Pending) -> tuple[int, ...]:
        seat = opponent_in_turn(f, p)
        return () if seat is None else (seat,)

    def other_call(self, f: Fold, p: Pending, rec: Rec) -> bool:
        return called_over_in_turn(f, p, rec)

    def pending_extra(self, p: Pending) -> dict[str, str]:
        # who was in turn: the opponent in turn may call over it (L28B), the LHO may accept it
        return {"in_turn": SEATS[p.context.turn]} if p.context.turn is not None else {}

    def ruling(self, f: Fold, p: Pending, option: Option, call: Rec | None, t: float) -> None:
        if p.kind is Decision.OOT_JUDGEMENT:
            self._judged(f, p, option)
            return
        r = f.refs
        irregular = p.rec
        assert irregular is not None
        offender = irregular.seat
        f.pending = None
        if option.id is OptionId.ACCEPT:
            self._accept(f, p)
            return
        screens = f.profile.screens
        if screens.enabled and screens.unpassed_call == "cancel":
            f.resolve(p, Resolution.CANCELLED_BEHIND_SCREEN, screens.law)
            f.withdraw(irregular, "call out of rotation that did not pass the screen, cancelled", screens.law)
            if p.irregularity is not None:  # the other side is never told (box_screens.hide_from_other_side)
                box_screens.hide_from_other_side(f, offender, p.irregularity, f.withdrawn[-1])
            f.turn_t = t
            return
        code = irregular.code
        # L30C: an artificial pass, or a pass of an artificial call (the TD's cancel_artificial),
        # is ruled under L31 (laws.OOT's artificial_pass rows; 2007 L31A2(b) names it)
        if code == PASS:
            what = "pass" if option.id is OptionId.CANCEL else "artificial_pass"
        else:
            what = "double" if code < PASS else "bid"
        rule = laws.oot_rule(f.edition, what, p.context.position, f.last_bid >= 0)
        f.resolve(p, Resolution.CANCELLED, rule.law)
        f.withdraw(irregular, "call out of rotation, cancelled",
                   f"{r['cancel_oot']}, {rule.law}, {r['withdrawn_ui']}")
        f.turn_t = t
        if rule.offender:
            f.oblige(offender, rule.offender, rule.law)
        if rule.partner:
            f.oblige(partner(offender), rule.partner, rule.law)
        if rule.partner_no_double:
            f.no_double[partner(offender)] = r["no_double"]
        if rule.lead:
            f.lead(offender, irregular, rule.law)
        if rule.watch_rho:
            f.rho_watch[rho(offender)] = (offender, rule, irregular)
        if rule.deferred:
            f.judge_next_call[offender] = (rule.deferred, irregular)
        if rule.offender or rule.partner or rule.lead:
            f.review(offender, r["awareness"], f"call out of rotation ({rule.law})")

    def rho_called(self, f: Fold, seat: int, code: int) -> None:
        """L31A / L32 (RHO's turn): RHO's call decides what the offender must do."""
        offender, rule, withdrawn = f.rho_watch.pop(seat)
        if code == PASS:
            f.repeat[offender] = (withdrawn.code, f.refs["repeat"])
            return
        after = rule.after_rho_active
        if isinstance(after, laws.Outcome):
            self._ruled_also(f, offender, after.law)
            if after.partner:
                f.oblige(partner(offender), after.partner, after.law)
            if after.lead:
                f.lead(offender, withdrawn, after.law)
            f.review(offender, f.refs["awareness"], f"call out of rotation ({after.law})")
        elif isinstance(after, laws.Deferred):
            f.judge_next_call[offender] = (after, withdrawn)

    def judge_next_call(self, f: Fold, seat: int, rec: Rec) -> None:
        """The offender's next call after a cancelled call out of rotation: the TD answers the
        edition's question (2017 comparable, L23A; 2007 L31A2 same denomination)."""
        deferred, withdrawn = f.judge_next_call.pop(seat)
        names = {"call": call_name(rec.code), "withdrawn": call_name(withdrawn.code)}
        question = key(Decision.OOT_JUDGEMENT, deferred.question)
        opts = [offer(question, OptionId.YES, deferred.yes.law, params=names),
                offer(question, OptionId.NO, deferred.no.law, params=names)]
        f.pending = Pending(self, Decision.OOT_JUDGEMENT, deferred.law, seat, Asks.TD, opts, rec, None,
                            Context(question=deferred, withdrawn=withdrawn))

    def _ruled_also(self, f: Fold, offender: int, law: str) -> None:
        """The offender's call out of rotation was ruled further by `law` (L31A2, L32B2...)."""
        for irr in reversed(f.irregularities):
            if irr["kind"] == self.kind and irr["seat"] == SEATS[offender]:
                irr["ruling"] = f"{irr['ruling']}; {law}"
                break

    def _judged(self, f: Fold, p: Pending, option: Option) -> None:
        deferred, withdrawn = p.context.question, p.context.withdrawn
        assert deferred is not None and withdrawn is not None
        outcome = deferred.yes if option.id is OptionId.YES else deferred.no
        f.pending = None
        self._ruled_also(f, p.seat, outcome.law)
        if outcome.partner:
            f.oblige(partner(p.seat), outcome.partner, outcome.law)
        if outcome.lead:
            f.lead(p.seat, withdrawn, outcome.law)
        if outcome.partner or outcome.lead:
            f.review(p.seat, f.refs["awareness"], f"call out of rotation ({outcome.law})")
        elif f.refs["comparable_review"]:
            f.review(p.seat, f.refs["comparable_review"], "comparable call: damage review")


# ---------------------------------------------------------------- L33: simultaneous calls
class SimultaneousCalls(Rule):
    kind = IrregularityKind.SIMULTANEOUS_CALLS
    law = "simultaneous"  # 2007 L33, 2017 L33

    def called_with(self, f: Fold, p: Pending, rec: Rec) -> bool:
        """L33: "Ett bud som avges samtidigt som ett i rätt tur avgivet bud anses ha bjudits efter
        detta" (2007), "anses for en efterfølgende melding" (2017). The player in turn calls within
        the profile's window (docs/laws/choices.md #24) of a call made by another player while he
        was in turn, on which the table waits: the in-turn call is made first, whatever it is, and
        the other call is judged again after it. Whatever the other call would have been on its
        own (out of rotation, an inadmissible double, a change of call his LHO's simultaneous call
        did not accept "intentionally": 2007 L25B1, 2017 L25B1), it is made after the call in turn."""
        other = p.rec
        turn = f.turn
        if other is None or p.asks is not Asks.LHO or turn is None or other.seat == turn or rec.seat != turn:
            return False
        if rec.t - other.t > f.profile.simultaneous_window_s:
            return False
        r = f.refs
        if p.irregularity is not None:  # the other call's own irregularity is not one any more
            f.irregularities[:] = [e for e in f.irregularities if e is not p.irregularity]
        f.irregularity(self.kind, other, r["simultaneous"], ruling=r["simultaneous"],
                       resolution=Resolution.REORDERED)
        f.pending = None
        f.on_call(rec)
        if f.pending is not None:
            # The call in turn needs the TD first (L9B2): the other call, made while the TD is
            # needed, is withdrawn; its player calls again in his turn (docs/laws/choices.md #24).
            f.withdraw(other, "simultaneous call, made while the TD was needed", r["simultaneous"])
            return True
        other.think = max(0.0, other.t - f.turn_t)  # made with the call it now follows: no thought
        f.on_call(other)
        return True

    def with_deemed_pass(self, f: Fold, rec: Rec) -> bool:
        """L33 with L28A: a player required to pass passes within the window of his LHO's call,
        which L28A put after a pass deemed made for him. His pass is the call in turn that the
        LHO's call follows: it is the pass already standing, now his own (not a second pass out
        of rotation). Only a pass: any other call of his is ruled as a call out of rotation
        (docs/laws/choices.md #24)."""
        if rec.code != PASS or len(f.calls) < 2:
            return False
        deemed, other = f.calls[-2], f.calls[-1]
        if not deemed.deemed or deemed.seat != rec.seat or rec.t - other.t > f.profile.simultaneous_window_s:
            return False
        deemed.deemed = False
        deemed.cached_view = None
        f.views.clear()  # the state's call views are rebuilt from the calls when next read
        f.irregularity(self.kind, other, f.refs["simultaneous"], ruling=f.refs["simultaneous"],
                       resolution=Resolution.REORDERED)
        return True


# ---------------------------------------------------------------- the Laws are silent: the TD decides
class TdDecides(DetectedRule):
    """A player who must repeat a call makes another (L31A1, L32), or doubles when he may not
    (2007 L30B2(b), L27B3): the Laws are silent (docs/laws/choices.md #8); the TD decides."""

    texts = keys(TD_DECIDES, OptionId.STAND, OptionId.CANCEL)

    def record(self, f: Fold, rec: Rec, found: Found) -> None:
        law = self.law_for(f.edition)
        entry = f.irregularity(self.kind, rec, law)
        opts = [offer(TD_DECIDES, OptionId.STAND, law), offer(TD_DECIDES, OptionId.CANCEL, law)]
        f.pend(Pending(self, self.decisions[0], law, rec.seat, Asks.TD, opts, rec, entry))

    def ruling(self, f: Fold, p: Pending, option: Option, call: Rec | None, t: float) -> None:
        irregular = p.rec
        assert irregular is not None
        f.pending = None
        f.resolve(p, Resolution(option.id), p.law)
        if option.id is OptionId.STAND:
            f.repeat.pop(irregular.seat, None)
            f.no_double.pop(irregular.seat, None)
            f.stand(irregular)
        else:
            f.withdraw(irregular, f"{p.kind.replace('_', ' ')}: cancelled by the TD", p.law)


class RestrictedCall(TdDecides):
    kind = IrregularityKind.RESTRICTED_CALL
    law = "no_double"  # 2007 L30B2(b); 2017 has no such obligation: L10, L81 (TD decides)
    decisions = (Decision.RESTRICTED_CALL,)

    def law_for(self, edition: int) -> str:
        refs = laws.REFS[edition]
        return refs["no_double"] or refs["td_decides"]

    def detect(self, f: Fold, seat: int, code: int, turn: int | None) -> Found | None:
        # a double or redouble by a player who may not double this turn
        return Found(self) if seat == turn and code < PASS and seat in f.no_double else None


class RepeatNotMade(TdDecides):
    kind = IrregularityKind.REPEAT_NOT_MADE
    law = "repeat"  # 2007 L31A1, L32B1; 2017 L31A1, L32A1
    decisions = (Decision.REPEAT_NOT_MADE,)

    def detect(self, f: Fold, seat: int, code: int, turn: int | None) -> Found | None:
        # a call other than the one he must repeat
        return Found(self) if seat == turn and seat in f.repeat and f.repeat[seat][0] != code else None


CALL_OUT_OF_ROTATION: Final = CallOutOfRotation()
SIMULTANEOUS_CALLS: Final = SimultaneousCalls()
RESTRICTED_CALL: Final = RestrictedCall()
REPEAT_NOT_MADE: Final = RepeatNotMade()

