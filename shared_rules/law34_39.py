"""Laws 34-39: the player deprived of his turn (L34, with 2007 L17E2 / 2017 L17D3), the
inadmissible double or redouble (L36), a call by a player required to pass (L37), a bid above
seven (L38), a call after the final pass (L39) (docs/laws/L34-L39.md).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Final

from shared_rules import auction, laws
from shared_rules.calls import MAX_LEGAL_RANK, PASS, SEATS, opponents, partner
from shared_rules.law28_33 import called_over_in_turn, opponent_in_turn
from shared_rules.model import Context, Found, Option, Pending, Rec, offer
from shared_rules.rule import LhoRule
from shared_rules.texts import UNINTENDED, key, keys
from shared_rules.types import Asks, Decision, IrregularityKind, MustPass, OptionId, Resolution, Status

if TYPE_CHECKING:
    from shared_rules.fold import Fold


# ---------------------------------------------------------------- L34: the deprived player
def deprived_player(f: Fold, t: float) -> None:
    """Three passes after a call that do not come from the other three seats: a player was
    deprived of his turn. The auction continues from him; the passes after his lost turn are
    cancelled (2007 L17E2/L34, 2017 L17D3/L34, the 2017 wording for both: docs/laws/auction.md)."""
    tail = f.calls[-4:]
    seats = {r.seat for r in tail}
    anchor = tail[0].seat
    deprived = next(s for s in ((anchor + k) & 3 for k in range(1, 4)) if s not in seats)
    passes = f.calls[-3:]
    cut = next((i for i, r in enumerate(passes) if not r.in_rotation), None)
    if cut is None:
        cut = next(i for i, r in enumerate(passes) if r.seat != (anchor + 1 + i) & 3)
    first = len(f.calls) - 3 + cut
    offender = f.calls[first]
    law = f.refs["deprived"]
    f.add_irregularity({
        "kind": IrregularityKind.CALL_OUT_OF_ROTATION, "seat": SEATS[offender.seat], "law": law,
        "t": offender.t, "call": "P", "deprived": SEATS[deprived], "ruling": law,
        "resolution": Resolution.AUCTION_CONTINUES,
    })
    for r in f.calls[first:]:
        f.withdraw(r, "passes after a deprived player's turn are cancelled", law)
    del f.calls[first:]
    f.rebuild()
    f.turn = deprived
    f.turn_t = t


# ---------------------------------------------------------------- L36: inadmissible X/XX
class InadmissibleDouble(LhoRule):
    kind = IrregularityKind.INADMISSIBLE_DOUBLE
    law = "inadmissible_double"  # 2007 L36, 2017 L36
    decisions = (Decision.INADMISSIBLE_DOUBLE,)
    texts = (key(Decision.INADMISSIBLE_DOUBLE, OptionId.CANCEL), UNINTENDED)

    def detect(self, f: Fold, seat: int, code: int, turn: int | None) -> Found | None:
        # a double or redouble L19A1 / L19B1 does not allow; before L37 (L37A excludes it)
        if code < PASS and not f.admissible(seat, code):
            return Found(self, out_of_rotation=seat != turn)
        return None

    def record(self, f: Fold, rec: Rec, found: Found) -> None:
        r = f.refs
        turn = f.turn if f.turn is not None else rec.seat
        oot = found.out_of_rotation
        # Out of rotation: L32 would let LHO accept it, except an inadmissible one (L32 intro:
        # never accepted, see L36), hence no "accept" option.
        law = r["out_of_rotation_inadmissible"] if oot else r["inadmissible_double"]
        entry = f.irregularity(self.kind, rec, law, out_of_rotation=oot)
        opts = [offer(Decision.INADMISSIBLE_DOUBLE, OptionId.CANCEL,
                      r["inadmissible_out_of_rotation"] if oot else r["inadmissible_cancelled"])]
        if not oot:
            opts.append(f.unintended_option())
        f.pend(Pending(self, Decision.INADMISSIBLE_DOUBLE, law, rec.seat, Asks.LHO, opts, rec, entry,
                       Context(turn=turn, out_of_rotation=oot)))

    def lho_calls(self, f: Fold, p: Pending, rec: Rec) -> None:
        """L36A: the LHO called before the X/XX was corrected: it and every later call are cancelled."""
        _cancel_with_the_call_over_it(f, p, rec, f.refs["inadmissible_lho_called"],
                                      "an inadmissible double/redouble")
        f.turn = p.context.turn
        f.turn_t = rec.t

    def may_call(self, f: Fold, p: Pending) -> tuple[int, ...]:
        seat = opponent_in_turn(f, p)
        return () if seat is None else (seat,)

    def other_call(self, f: Fold, p: Pending, rec: Rec) -> bool:
        """L28B, out of rotation: the opponent in turn calls over it; 2007 adds L36B4 for the
        offending side (laws.INADMISSIBLE_CALLED_OVER)."""
        if not called_over_in_turn(f, p, rec):
            return False
        still = laws.INADMISSIBLE_CALLED_OVER[f.edition]
        if still:
            assert p.rec is not None
            f.resolve(p, Resolution.IN_TURN_CALLED, f"{f.refs['in_turn_calls']}; {still}")
            f.oblige(partner(p.seat), MustPass.REST, still)
            f.lead(p.seat, p.rec, still)
            f.review(p.seat, f.refs["awareness"], "inadmissible double/redouble out of rotation")
        return True

    def ruling(self, f: Fold, p: Pending, option: Option, call: Rec | None, t: float) -> None:
        r = f.refs
        irregular = p.rec
        assert irregular is not None
        offender = p.seat
        f.pending = None
        if option.id is OptionId.UNINTENDED:
            f.replace_unintended(p, call)
            return
        law = r["inadmissible_out_of_rotation"] if p.context.out_of_rotation else r["inadmissible_cancelled"]
        f.resolve(p, Resolution.CANCELLED, law)
        f.withdraw(irregular, "inadmissible double/redouble", f"{law}, {r['withdrawn_ui']}")
        f.oblige(partner(offender), MustPass.REST, law)
        f.lead(offender, irregular, law)
        f.review(offender, r["awareness"], "inadmissible double/redouble")
        f.turn = p.context.turn
        f.turn_t = t


# ---------------------------------------------------------------- L37: required to pass
class CallWhenRequiredToPass(LhoRule):
    kind = IrregularityKind.CALL_WHEN_REQUIRED_TO_PASS
    law = "required_to_pass"  # 2007 L37, 2017 L37
    decisions = (Decision.CALL_WHEN_REQUIRED_TO_PASS,)
    texts = (key(Decision.CALL_WHEN_REQUIRED_TO_PASS, OptionId.CANCEL),)

    def detect(self, f: Fold, seat: int, code: int, turn: int | None) -> Found | None:
        # a bid, double or redouble in turn by a player who must pass
        return Found(self) if seat == turn and code != PASS and seat in f.must_pass else None

    def record(self, f: Fold, rec: Rec, found: Found) -> None:
        r = f.refs
        entry = f.irregularity(self.kind, rec, r["required_to_pass"], obligation=f.must_pass[rec.seat][1])
        opts = [offer(Decision.CALL_WHEN_REQUIRED_TO_PASS, OptionId.CANCEL, r["required_to_pass_cancelled"])]
        f.pend(Pending(self, Decision.CALL_WHEN_REQUIRED_TO_PASS, r["required_to_pass"], rec.seat, Asks.LHO,
                       opts, rec, entry))

    def lho_calls(self, f: Fold, p: Pending, rec: Rec) -> None:
        """L37A: the LHO called over it: the call and the later legal calls stand."""
        irregular = p.rec
        assert irregular is not None
        f.resolve(p, Resolution.STANDS, f.refs["required_to_pass_lho_called"])
        f.stand(irregular)  # L37A: the call and later (legal) calls stand; obligations continue
        f.on_call(rec)

    def ruling(self, f: Fold, p: Pending, option: Option, call: Rec | None, t: float) -> None:
        """L37B: replaced by a pass; both players of the side pass for the rest; Law 26."""
        r = f.refs
        irregular = p.rec
        assert irregular is not None
        offender = p.seat
        f.pending = None
        law = r["required_to_pass_cancelled"]
        f.resolve(p, Resolution.REPLACED_BY_PASS, law)
        f.withdraw(irregular, "call by a player required to pass", f"{law}, {r['withdrawn_ui']}")
        f.stand(Rec(offender, PASS, t, irregular.think, False))
        f.oblige(offender, MustPass.REST, law)
        f.oblige(partner(offender), MustPass.REST, law)
        f.lead(offender, irregular, law)
        f.review(offender, r["awareness"], "call when required to pass")


# ---------------------------------------------------------------- L38: above seven
class BidAboveSeven(LhoRule):
    kind = IrregularityKind.BID_ABOVE_SEVEN
    law = "above_seven"  # 2007 L38, 2017 L38
    decisions = (Decision.BID_ABOVE_SEVEN,)
    texts = (key(Decision.BID_ABOVE_SEVEN, OptionId.CANCEL),)

    def detect(self, f: Fold, seat: int, code: int, turn: int | None) -> Found | None:
        # L18A: a bid names one to seven odd tricks
        return Found(self, out_of_rotation=seat != turn) if code > MAX_LEGAL_RANK else None

    def record(self, f: Fold, rec: Rec, found: Found) -> None:
        r = f.refs
        turn = f.turn if f.turn is not None else rec.seat
        entry = f.irregularity(self.kind, rec, r["above_seven"], out_of_rotation=found.out_of_rotation)
        opts = [offer(Decision.BID_ABOVE_SEVEN, OptionId.CANCEL, r["above_seven_cancelled"])]
        f.pend(Pending(self, Decision.BID_ABOVE_SEVEN, r["above_seven"], rec.seat, Asks.LHO, opts, rec, entry,
                       Context(turn=turn, out_of_rotation=found.out_of_rotation)))

    def lho_calls(self, f: Fold, p: Pending, rec: Rec) -> None:
        """L38B, L38D: the LHO called over it: it and the later calls are cancelled."""
        _cancel_with_the_call_over_it(f, p, rec, f.refs["above_seven_lho_called"], "a bid above seven")
        self._cancelled(f, p, rec.t, lead=False)

    def may_call(self, f: Fold, p: Pending) -> tuple[int, ...]:
        seat = opponent_in_turn(f, p)
        return () if seat is None else (seat,)

    def other_call(self, f: Fold, p: Pending, rec: Rec) -> bool:
        return called_over_in_turn(f, p, rec)  # L28B, out of rotation

    def ruling(self, f: Fold, p: Pending, option: Option, call: Rec | None, t: float) -> None:
        assert p.rec is not None
        f.pending = None
        f.resolve(p, Resolution.REPLACED_BY_PASS, f.refs["above_seven_cancelled"])
        f.withdraw(p.rec, "bid above seven", f.refs["above_seven_cancelled"])
        self._cancelled(f, p, t, lead=True)

    @staticmethod
    def _cancelled(f: Fold, p: Pending, t: float, lead: bool) -> None:
        """L38B/C: cancelled, replaced by a pass, both players of the side pass for the rest."""
        offender = p.seat
        irregular = p.rec
        assert irregular is not None
        law = f.refs["above_seven_cancelled"]
        if not p.context.out_of_rotation:
            f.stand(Rec(offender, PASS, t, irregular.think, False))
        f.oblige(offender, MustPass.REST, law)
        f.oblige(partner(offender), MustPass.REST, law)
        if lead:
            f.lead(offender, irregular, law)
            f.review(offender, f.refs["awareness"], "bid above seven")


# ---------------------------------------------------------------- L39: after the final pass
class CallAfterFinalPass(LhoRule):
    kind = IrregularityKind.CALL_AFTER_FINAL_PASS
    law = "after_final_pass"  # 2007 L39, 2017 L39
    decisions = (Decision.CALL_AFTER_FINAL_PASS,)
    texts = keys(Decision.CALL_AFTER_FINAL_PASS, OptionId.CANCEL, OptionId.UNINTENDED)

    def detect(self, f: Fold, seat: int, code: int, turn: int | None) -> Found | None:
        # any call once the auction is over (table.Fold.classify refuses it after an adjusted score)
        return Found(self) if f.status is not Status.BIDDING else None

    def record(self, f: Fold, rec: Rec, found: Found) -> None:
        r = f.refs
        entry = f.irregularity(self.kind, rec, r["after_final_pass"])
        opts = [offer(Decision.CALL_AFTER_FINAL_PASS, OptionId.CANCEL, r["after_final_pass_cancelled"])]
        if f.calls and f.calls[-1].seat == rec.seat:
            opts.append(offer(Decision.CALL_AFTER_FINAL_PASS, OptionId.UNINTENDED, r["unintended_after_end"],
                               True))
        f.pend(Pending(self, Decision.CALL_AFTER_FINAL_PASS, r["after_final_pass"], rec.seat, Asks.LHO, opts,
                       rec, entry))

    def lho_calls(self, f: Fold, p: Pending, rec: Rec) -> None:
        """L39B: cancelled, with the call over it."""
        r = f.refs
        irregular = p.rec
        assert irregular is not None
        f.resolve(p, Resolution.CANCELLED, r["after_final_pass_no_rectification"])
        f.withdraw(irregular, "call after the final pass", r["after_final_pass_cancelled"])
        f.withdraw(rec, "call after the final pass", r["after_final_pass_cancelled"])

    def ruling(self, f: Fold, p: Pending, option: Option, call: Rec | None, t: float) -> None:
        r = f.refs
        irregular = p.rec
        assert irregular is not None
        offender = p.seat
        f.pending = None
        if option.id is OptionId.UNINTENDED:  # 2007 L25A3 / 2017 L25A5: the final pass was unintended
            assert call is not None
            law = r["unintended_after_end"]
            f.resolve(p, Resolution.UNINTENDED, law)
            last = f.calls[-1]
            f.withdraw(last, "unintended final pass corrected", law)
            f.reopen(offender, t)
            call.think = last.think
            f.on_call(call)
            return
        f.withdraw(irregular, "call after the final pass", r["after_final_pass_cancelled"])  # L39A
        decl = auction.declarer([(c.seat, c.code) for c in f.calls])
        defender = decl is not None and opponents(decl, offender)
        if defender and irregular.code != PASS:  # L39C
            f.resolve(p, Resolution.CANCELLED, r["after_final_pass_lead"])
            f.lead(offender, irregular, r["after_final_pass_lead"])
        else:
            f.resolve(p, Resolution.CANCELLED, r["after_final_pass_no_rectification"])


def _cancel_with_the_call_over_it(f: Fold, p: Pending, rec: Rec, law: str, what: str) -> None:
    """L36A, L38B: the LHO's call does not condone it: both are cancelled."""
    assert p.rec is not None
    f.resolve(p, Resolution.CANCELLED_WITH_LATER_CALLS, law)
    f.withdraw(p.rec, what.split(" ", 1)[1], law)
    f.withdraw(rec, f"call after {what}", law)


CALL_AFTER_FINAL_PASS: Final = CallAfterFinalPass()
BID_ABOVE_SEVEN: Final = BidAboveSeven()
INADMISSIBLE_DOUBLE: Final = InadmissibleDouble()
CALL_WHEN_REQUIRED_TO_PASS: Final = CallWhenRequiredToPass()
