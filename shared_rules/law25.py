"""Law 25: change of call (with FSB L112D for the box), and the L21B1 change after
misinformation (docs/laws/L25.md), both editions.

Found: the player who made the last call calls again before his LHO (2007 L30B3/L31B fn; 2017
L30B2, L31C, L32C send such a call here). The TD may find the first call unintended (L25A); the
LHO may accept the change by calling (L25B1); else it is cancelled and the first call stands
(L25B2). The TD may also let a call be corrected without a pending decision (L25A, or L21B1 after
misinformation) while the player's partner has not called since.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Final

from shared_rules import laws
from shared_rules.calls import SEATS, call_name, lho, partner
from shared_rules.model import EventError, Found, Option, Pending, Rec, offer
from shared_rules.rule import LhoRule
from shared_rules.texts import keys
from shared_rules.types import Asks, Decision, IrregularityKind, OptionId, Resolution, Status

if TYPE_CHECKING:
    from shared_rules.fold import Fold


class ChangeOfCall(LhoRule):
    kind = IrregularityKind.CHANGE_OF_CALL
    law = "change_of_call"  # 2007 L25, 2017 L25
    decisions = (Decision.CHANGE_OF_CALL,)
    texts = keys(Decision.CHANGE_OF_CALL, OptionId.UNINTENDED, OptionId.ACCEPT, OptionId.CANCEL)

    def detect(self, f: Fold, seat: int, code: int, turn: int | None) -> Found | None:
        # the caller made the last call and it is his LHO's turn: he called again
        return Found(self) if turn == lho(seat) and f.calls and f.calls[-1].seat == seat else None

    def record(self, f: Fold, rec: Rec, found: Found) -> None:
        r = f.refs
        entry = f.irregularity(self.kind, rec, r["change_of_call"], replaces=call_name(f.calls[-1].code))
        opts = [
            offer(Decision.CHANGE_OF_CALL, OptionId.UNINTENDED, r["unintended"]),
            offer(Decision.CHANGE_OF_CALL, OptionId.ACCEPT, r["change_accepted"]),
            offer(Decision.CHANGE_OF_CALL, OptionId.CANCEL, r["change_cancelled"]),
        ]
        f.pend(Pending(self, Decision.CHANGE_OF_CALL, r["change_of_call"], rec.seat, Asks.LHO, opts, rec,
                       entry))

    def lho_calls(self, f: Fold, p: Pending, rec: Rec) -> None:
        """L25B1: the LHO accepts the change by calling."""
        assert p.rec is not None
        self._accept(f, p, p.rec.t)
        f.on_call(rec)

    def _accept(self, f: Fold, p: Pending, t: float) -> None:
        """L25B1: the change stands; the first call is withdrawn (L26 per laws.CHANGE_LEAD)."""
        r = f.refs
        change = p.rec
        assert change is not None
        f.resolve(p, Resolution.ACCEPTED, r["change_accepted"])
        first = f.calls[-1]
        f.reopen(p.seat, t)
        f.withdraw(first, "changed; the change was accepted", f"{r['change_accepted']}, {r['withdrawn_ui']}")
        if laws.CHANGE_LEAD[f.edition]["accept"]:
            f.lead(p.seat, first, r["change_accepted"])
        f.stand(change)

    def ruling(self, f: Fold, p: Pending, option: Option, call: Rec | None, t: float) -> None:
        r = f.refs
        change = p.rec
        assert change is not None
        offender = p.seat
        f.pending = None
        first = f.calls[-1]
        if option.id is OptionId.UNINTENDED:  # L25A: the change replaces the unintended first call
            f.resolve(p, Resolution.UNINTENDED, r["unintended"])
            f.reopen(offender, t)
            f.withdraw(first, "unintended call corrected", r["unintended"])
            change.think = first.think
            f.on_call(change)
        elif option.id is OptionId.ACCEPT:
            self._accept(f, p, t)
        else:  # L25B2
            f.resolve(p, Resolution.CANCELLED, r["change_cancelled"])
            f.withdraw(change, "change of call cancelled; the first call stands",
                       f"{r['change_cancelled']}, {r['withdrawn_ui']}")
            if laws.CHANGE_LEAD[f.edition]["cancel"]:
                f.lead(offender, change, r["change_cancelled"])

    def correct(self, f: Fold, seat: int, code: int, t: float, has_call: bool, misinformation: bool = False,
                stop: bool | None = None) -> None:
        """L25A (both editions; FSB L112D): the TD allows an unintended call to be replaced; or
        L21B1 (both): the TD allows a call made on misinformation (e.g. a missing alert) to be
        changed. Either is allowed while the player's partner has not called after it and the
        auction period lasts; the LHO's call after it (if any) is withdrawn (2007 L25A4 / FSB
        L112D, 2017 L25A6; L21B2: he may then call again)."""
        r = f.refs
        if seat < 0 or not has_call:
            raise EventError("this TD event needs the seat and the new call")
        if f.pending is not None:
            raise EventError(f"a decision is pending ({f.pending.kind}); answer it first")
        if f.status is Status.ADJUSTED_SCORE:
            raise EventError("the auction was stopped for an adjusted score: no call can be corrected")
        idx = next((i for i in range(len(f.calls) - 1, -1, -1) if f.calls[i].seat == seat), None)
        if idx is None:
            raise EventError(f"{SEATS[seat]} has no call to correct")
        later = f.calls[idx + 1:]
        if any(c.seat == partner(seat) for c in later) or len(later) > 1:
            raise EventError(f"too late: {SEATS[partner(seat)]} has called since ({r['unintended']}; "
                             f"{r['misinformation']})")
        law = r["unintended_after_end"] if f.status is not Status.BIDDING else r["unintended"]
        if misinformation:
            law = r["misinformation"]
            f.review(seat, r["misinformation_review"], "call changed after misinformation: review damage")
        old = f.calls[idx]
        for c in reversed(later):
            f.withdraw(c, "LHO's call withdrawn after a permitted correction", r["lho_withdraws"])
            f.reopen(c.seat, t)
        why = "changed after misinformation" if misinformation else "unintended call corrected"
        f.withdraw(old, why, law)
        resolution = Resolution.MISINFORMATION if misinformation else Resolution.UNINTENDED
        f.irregularity(self.kind, Rec(seat, code, t, 0.0, False), law, replaces=call_name(old.code),
                       ruling=law, resolution=resolution)
        f.reopen(seat, t)
        new = Rec(seat, code, t, old.think, old.stop if stop is None else stop)
        new.acted = old.acted
        f.on_call(new)


CHANGE_OF_CALL: Final = ChangeOfCall()
