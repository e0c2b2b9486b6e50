"""Law 25: change of call (with FSB L112D for the box), and the L21B1 change after misinformation
(docs/laws/L25.md). Detection: the caller called again before his LHO (table_base._classify).
"""
from __future__ import annotations

from typing import Any

from shared_rules import laws
from shared_rules.calls import (
    SEATS,
    call_name,
    partner,
)
from shared_rules.table_base import (
    ADJUSTED,
    BIDDING,
    EventError,
    Option,
    Pending,
    Rec,
    TableBase,
)


class Law25(TableBase):
    def _raise_change_of_call(self, rec: Rec, extra: Any) -> None:
        r = self.refs
        x = rec.seat
        kind = "change_of_call"
        entry = self._irregularity(kind, rec, r["change_of_call"], replaces=call_name(self._calls[-1].code))
        opts = [
            Option("unintended", "change_of_call.unintended", r["unintended"]),
            Option("accept", "change_of_call.accept", r["change_accepted"]),
            Option("cancel", "change_of_call.cancel", r["change_cancelled"]),
        ]
        self._pend(Pending(kind, r["change_of_call"], x, "lho", opts, rec, entry))

    def _lho_calls_over_change_of_call(self, p: Pending, rec: Rec) -> None:
        """L25B1: the LHO accepts the change by calling."""
        r = self.refs
        x = p.rec
        assert x is not None
        off = p.seat
        self._resolve(p, "accepted", r["change_accepted"])
        first = self._calls[-1]
        self._reopen(off, x.t)
        self._withdraw(first, "changed; the change was accepted", f"{r['change_accepted']}, {r['withdrawn_ui']}")
        if laws.CHANGE_LEAD[self.edition]["accept"]:
            self._lead(off, first, r["change_accepted"])
        self._stand(x)
        self._on_call(rec)

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

    def _td_correct_call(self, ev: dict[str, Any], seat: int, code: int, t: float) -> None:
        self._correct_call(seat, code, t, "call" in ev, misinformation=ev["td"] == "misinformation_change",
                           stop=ev.get("stop"))


RAISE = {"change_of_call": Law25._raise_change_of_call}
LHO_CALLS = {"change_of_call": Law25._lho_calls_over_change_of_call}
RULINGS = {"change_of_call": Law25._td_change_of_call}
DIRECT = {"correct_call": Law25._td_correct_call, "misinformation_change": Law25._td_correct_call}
DIRECT_FIELDS: dict[str, set[str]] = {"correct_call": {"seat", "call"}, "misinformation_change": {"seat", "call"}}
