"""Laws 36-39: the inadmissible double or redouble (L36), a call by a player required to pass
(L37), a bid above seven (L38), a call after the final pass (L39) (docs/laws/L34-L39.md). Law 34
(the deprived player) is part of the end-of-auction check in table_base.
"""
from __future__ import annotations

from typing import Any

from shared_rules import auction
from shared_rules.calls import (
    PASS,
    opponents,
    partner,
)
from shared_rules.table_base import (
    Context,
    Option,
    Pending,
    Rec,
    TableBase,
)


class Law34to39(TableBase):
    def _raise_inadmissible_double(self, rec: Rec, extra: Any) -> None:
        r = self.refs
        x = rec.seat
        turn = self._turn if self._turn is not None else x
        kind = "inadmissible_double"
        oot = bool(extra)
        # Out of rotation: L32 would let LHO accept it, except an inadmissible one (L32 intro:
        # never accepted, see L36), hence no "accept" option.
        law = r["out_of_rotation_inadmissible"] if oot else r["inadmissible_double"]
        entry = self._irregularity(kind, rec, law, out_of_rotation=oot)
        opts = [Option("cancel", "inadmissible_double.cancel",
                       r["inadmissible_out_of_rotation"] if oot else r["inadmissible_cancelled"])]
        if not oot:
            opts.append(self._unintended_option())
        self._pend(Pending(kind, law, x, "lho", opts, rec, entry, Context(turn=turn, out_of_rotation=oot)))

    def _lho_calls_over_inadmissible_double(self, p: Pending, rec: Rec) -> None:
        """L36A: the LHO called before the X/XX was corrected: it and every later call are cancelled."""
        self._cancel_with_the_call_over_it(p, rec, self.refs["inadmissible_lho_called"], "an inadmissible double/redouble")
        self._turn = p.context.turn
        self._turn_t = rec.t

    def _raise_call_when_required_to_pass(self, rec: Rec, extra: Any) -> None:
        r = self.refs
        x = rec.seat
        kind = "call_when_required_to_pass"
        entry = self._irregularity(kind, rec, r["required_to_pass"], obligation=self._must_pass[x][1])
        opts = [Option("cancel", "call_when_required_to_pass.cancel", r["required_to_pass_cancelled"])]
        self._pend(Pending(kind, r["required_to_pass"], x, "lho", opts, rec, entry))

    def _lho_calls_over_call_when_required_to_pass(self, p: Pending, rec: Rec) -> None:
        """L37A: the LHO called over it: the call and the later legal calls stand."""
        r = self.refs
        x = p.rec
        assert x is not None
        self._resolve(p, "stands", r["required_to_pass_lho_called"])
        self._stand(x)  # L37A: the call and later (legal) calls stand; obligations continue
        self._on_call(rec)

    def _raise_bid_above_seven(self, rec: Rec, extra: Any) -> None:
        r = self.refs
        x = rec.seat
        turn = self._turn if self._turn is not None else x
        kind = "bid_above_seven"
        entry = self._irregularity(kind, rec, r["above_seven"], out_of_rotation=bool(extra))
        opts = [Option("cancel", "bid_above_seven.cancel", r["above_seven_cancelled"])]
        self._pend(Pending(kind, r["above_seven"], x, "lho", opts, rec, entry, Context(turn=turn, out_of_rotation=bool(extra))))

    def _lho_calls_over_bid_above_seven(self, p: Pending, rec: Rec) -> None:
        """L38B, L38D: the LHO called over it: it and the later calls are cancelled."""
        self._cancel_with_the_call_over_it(p, rec, self.refs["above_seven_lho_called"], "a bid above seven")
        self._above_seven(p, rec.t, lead=False)

    def _cancel_with_the_call_over_it(self, p: Pending, rec: Rec, law: str, what: str) -> None:
        """L36A, L38B: the LHO's call does not condone it: both are cancelled."""
        assert p.rec is not None
        self._resolve(p, "cancelled_with_later_calls", law)
        self._withdraw(p.rec, what.split(" ", 1)[1], law)
        self._withdraw(rec, f"call after {what}", law)

    def _raise_call_after_final_pass(self, rec: Rec, extra: Any) -> None:
        r = self.refs
        x = rec.seat
        kind = "call_after_final_pass"
        entry = self._irregularity(kind, rec, r["after_final_pass"])
        opts = [Option("cancel", "call_after_final_pass.cancel", r["after_final_pass_cancelled"])]
        if self._calls and self._calls[-1].seat == x:
            opts.append(Option("unintended", "call_after_final_pass.unintended",
                               r["unintended_after_end"], True))
        self._pend(Pending(kind, r["after_final_pass"], x, "lho", opts, rec, entry))

    def _lho_calls_over_call_after_final_pass(self, p: Pending, rec: Rec) -> None:
        """L39B: cancelled, with the call over it."""
        r = self.refs
        x = p.rec
        assert x is not None
        self._resolve(p, "cancelled", r["after_final_pass_no_rectification"])
        self._withdraw(x, "call after the final pass", r["after_final_pass_cancelled"])
        self._withdraw(rec, "call after the final pass", r["after_final_pass_cancelled"])

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

    def _td_inadmissible_double(self, p: Pending, o: Option, call: Rec | None, t: float) -> None:
        r = self.refs
        x = p.rec
        assert x is not None
        off = p.seat
        self._pending = None
        if o.id == "unintended":
            self._replace_unintended(p, call)
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


RAISE = {"inadmissible_double": Law34to39._raise_inadmissible_double, "call_when_required_to_pass": Law34to39._raise_call_when_required_to_pass, "bid_above_seven": Law34to39._raise_bid_above_seven, "call_after_final_pass": Law34to39._raise_call_after_final_pass}
LHO_CALLS = {"inadmissible_double": Law34to39._lho_calls_over_inadmissible_double, "call_when_required_to_pass": Law34to39._lho_calls_over_call_when_required_to_pass, "bid_above_seven": Law34to39._lho_calls_over_bid_above_seven, "call_after_final_pass": Law34to39._lho_calls_over_call_after_final_pass}
RULINGS = {"inadmissible_double": Law34to39._td_inadmissible_double, "call_when_required_to_pass": Law34to39._td_call_when_required_to_pass, "bid_above_seven": Law34to39._td_bid_above_seven, "call_after_final_pass": Law34to39._td_call_after_final_pass}
