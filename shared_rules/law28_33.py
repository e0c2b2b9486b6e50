"""Laws 28-33: calls out of rotation, deemed in rotation (L28), accepted (L29A) or cancelled and
rectified (L29B -> L30-L32, the table laws.OOT), simultaneous calls (L33); and what the TD
decides when a player does not repeat a call he must (docs/laws/L28-L33.md, choices.md #8).
"""
from __future__ import annotations

from typing import Any

from shared_rules import laws
from shared_rules.calls import (
    PASS,
    SEATS,
    call_name,
    partner,
    rho,
)
from shared_rules.table_base import (
    Context,
    Option,
    Pending,
    Rec,
    TableBase,
)


class Law28to33(TableBase):
    def _raise_call_out_of_rotation(self, rec: Rec, extra: Any) -> None:
        r = self.refs
        x = rec.seat
        turn = self._turn if self._turn is not None else x
        kind = "call_out_of_rotation"
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
        else:  # L29C: an artificial bid, double or redouble is ruled on the denominations it showed
            opts.append(Option("cancel_artificial", "call_out_of_rotation.cancel_artificial_call", r["artificial_call"]))
        self._pend(Pending(kind, r["out_of_rotation"], x, "lho", opts, rec, entry, Context(turn=turn, position=position)))

    def _lho_calls_over_call_out_of_rotation(self, p: Pending, rec: Rec) -> None:
        """L29A: the LHO accepts the call out of rotation by calling."""
        r = self.refs
        x = p.rec
        assert x is not None
        self._resolve(p, "accepted", r["accept_oot"])
        x.in_rotation = False
        self._stand(x)
        self._on_call(rec)

    def _simultaneous(self, p: Pending, rec: Rec) -> bool:
        """L33: a call made simultaneously with the call of the player in turn counts as made after it."""
        r = self.refs
        if p.kind == "call_out_of_rotation" and rec.seat == p.context.turn and p.rec is not None \
                and rec.t - p.rec.t <= self.profile.simultaneous_window_s and self._classify(rec.seat, rec.code) is None:
            # L33: a call made simultaneously with the call of the player in turn counts as made after it.
            oot = p.rec
            self._irregularities.remove(p.irregularity)  # type: ignore[arg-type]
            self._irregularity("simultaneous_calls", oot, r["simultaneous"], ruling=r["simultaneous"], resolution="reordered")
            self._pending = None
            self._on_call(rec)
            if self._pending is not None:  # the in-turn call needs a TD judgement first (L9B2)
                self._withdraw(oot, "simultaneous call, made while the TD was needed", r["simultaneous"])
                return True
            oot.think = oot.t - self._turn_t
            self._on_call(oot)
            return True
        return False

    def _opponent_in_turn_calls(self, p: Pending, rec: Rec) -> bool:
        """L28B (see _opponent_in_turn)."""
        r = self.refs
        x = p.rec
        off = p.seat
        if x is not None and rec.seat == self._opponent_in_turn(p):
            # L28B: the opponent in turn calls before the rectification is ruled; the call out of
            # rotation is treated as not made (also an inadmissible X/XX made out of rotation; 2007
            # adds L36B4 to that, laws.INADMISSIBLE_CALLED_OVER).
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
            return True
        return False

    def _opponent_in_turn(self, p: Pending) -> int | None:
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

    def _raise_restricted_call(self, rec: Rec, extra: Any) -> None:
        self._raise_td_decides("restricted_call", rec)

    def _raise_repeat_not_made(self, rec: Rec, extra: Any) -> None:
        self._raise_td_decides("repeat_not_made", rec)

    def _raise_td_decides(self, kind: str, rec: Rec) -> None:
        """A player who must repeat a call makes another (L31A1, L32), or doubles when he may not
        (2007 L30B2(b), L27B3): the Laws are silent (docs/laws/choices.md #8); the TD decides."""
        law = self._kind_law(kind)
        entry = self._irregularity(kind, rec, law)
        opts = [Option("stand", "td_decides.stand", law), Option("cancel", "td_decides.cancel", law)]
        self._pend(Pending(kind, law, rec.seat, "td", opts, rec, entry))

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


RAISE = {"call_out_of_rotation": Law28to33._raise_call_out_of_rotation,
         "restricted_call": Law28to33._raise_restricted_call, "repeat_not_made": Law28to33._raise_repeat_not_made}
LHO_CALLS = {"call_out_of_rotation": Law28to33._lho_calls_over_call_out_of_rotation}
RULINGS = {"call_out_of_rotation": Law28to33._td_call_out_of_rotation, "oot_judgement": Law28to33._td_oot_judgement,
           "restricted_call": Law28to33._td_restricted_call, "repeat_not_made": Law28to33._td_repeat_not_made}
