"""Law 9B2: after attention is drawn to an irregularity, no player acts until the TD has explained
the rectification (2007 L9B2, 2017 L9B2; docs/laws/choices.md #30).

While a decision is pending the Law gives a few calls a meaning (the offender's LHO accepting or
condoning, L27C, L28B, L33: each rule's `lho_calls` / `other_call`). Any other call is refused at
the box (`Table.step`). A table log is what happened, though: replayed, such a call is itself an
irregularity. It is cancelled, its information is authorised to the other side and unauthorised
to the caller's (2007 L16D, 2017 L16C; the TD may adjust, 2007 L12A1, 2017 L16C3), and it
changes nothing else: the table still waits for the same decision. Under `prevent` it is
listed as refused, as every irregular call is.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Final

from shared_rules.calls import SEATS, call_name
from shared_rules.model import EventError, Rec
from shared_rules.rule import Rule
from shared_rules.types import IrregularityKind, Policy, Refusal, Resolution

if TYPE_CHECKING:
    from shared_rules.fold import Fold


class CallWhileAwaitingTd(Rule):
    kind = IrregularityKind.CALL_WHILE_AWAITING_TD
    law = "awaiting_td"  # 2007 L9B2, 2017 L9B2

    def made(self, f: Fold, rec: Rec, why: EventError) -> None:
        """`rec` was made while the table waited for the TD, and the Law gives it no meaning now
        (`why`: what the box would have been told). The table records it and goes on waiting;
        `f.awaiting_refusal` keeps `why` for `Table.step`, which refuses the call instead."""
        f.awaiting_refusal = why
        p = f.pending
        awaiting = str(p.kind) if p is not None else ""
        seat, call = SEATS[rec.seat], call_name(rec.code)
        if f.policy is Policy.PREVENT:  # refused before anyone saw it, as every irregular call
            f.refused.append({"t": rec.t, "seat": seat, "call": call, "kind": Refusal.AWAITING_TD, "law": "L9B2",
                              "reason": str(why)})
            return
        r = f.refs
        f.irregularity(self.kind, rec, r["awaiting_td"], ruling=r["awaiting_td_cancelled"],
                       resolution=Resolution.CANCELLED, awaiting=awaiting, reason=str(why))
        f.withdraw(rec, f"made while the table waited for the TD ({awaiting})", r["awaiting_td_cancelled"])
        f.review(rec.seat, r["out_of_rotation_ui"],
                 f"{call} made while the TD was awaited ({r['awaiting_td']}) and cancelled: its information "
                 "is unauthorised to the caller's side")


CALL_WHILE_AWAITING_TD: Final = CallWhileAwaitingTd()
