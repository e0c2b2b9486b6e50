"""Law 27: the insufficient bid (docs/laws/L27.md). Detection: a bid not higher than the last
bid (L18C; table_base._in_turn).
"""
from __future__ import annotations

from typing import Any

from shared_rules import laws
from shared_rules.calls import (
    MAX_LEGAL_RANK,
    PASS,
    call_name,
    min_level,
    partner,
    strain,
)
from shared_rules.table_base import (
    Context,
    EventError,
    Option,
    Pending,
    Rec,
    TableBase,
)


class Law27(TableBase):
    def _raise_insufficient_bid(self, rec: Rec, extra: Any) -> None:
        r = self.refs
        x = rec.seat
        kind = "insufficient_bid"
        entry = self._irregularity(kind, rec, r["insufficient_bid"])
        opts = [
            Option("accept", "insufficient_bid.accept", r["insufficient_accepted"]),
            Option("replace", "insufficient_bid.replace", r["insufficient_replaced"], True),
            self._unintended_option(),
        ]
        self._pend(Pending(kind, r["insufficient_bid"], x, "lho", opts, rec, entry))

    def _lho_calls_over_insufficient_bid(self, p: Pending, rec: Rec) -> None:
        """2007/2017 L27A1: the LHO accepts the insufficient bid by calling."""
        r = self.refs
        x = p.rec
        assert x is not None
        self._resolve(p, "accepted", r["insufficient_accepted"])
        self._stand(x)
        self._on_call(rec)

    def _offender_replaces_early(self, p: Pending, rec: Rec) -> bool:
        """L27C: the offender replaces the insufficient bid before the TD has ruled."""
        if p.kind != "insufficient_bid" or rec.seat != p.seat:
            return False
        assert p.rec is not None
        rec.acted = p.rec.acted
        self._ib_replace(p, rec, self.refs["insufficient_replaced_early"])
        return True

    def _td_insufficient_bid(self, p: Pending, o: Option, call: Rec | None, t: float) -> None:
        r = self.refs
        x = p.rec
        assert x is not None
        if o.id == "accept":
            self._pending = None
            self._resolve(p, "accepted", r["insufficient_accepted"])
            self._stand(x)
        elif o.id == "unintended":
            self._replace_unintended(p, call)
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


RAISE = {"insufficient_bid": Law27._raise_insufficient_bid}
LHO_CALLS = {"insufficient_bid": Law27._lho_calls_over_insufficient_bid}
WHILE_PENDING = (Law27._offender_replaces_early,)
RULINGS = {"insufficient_bid": Law27._td_insufficient_bid,
           "insufficient_bid_judgement": Law27._td_insufficient_bid_judgement}
