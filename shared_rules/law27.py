"""Law 27: the insufficient bid (docs/laws/L27.md), both editions; what differs is data in
laws.py (REFS, IB_QUESTIONS, IB_B1A_SAME_STRAIN_ONLY).

Found: a bid in turn not higher than the last bid (L18C). The LHO may accept it by calling
(L27A1); the offender may replace it before the TD rules (L27C); the TD lets it be replaced
(L27B) and judges the replacement (B1(a), B1(b), else B2 / B3; another insufficient bid: B4), or
finds it unintended (L25A).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Final

from shared_rules import box_screens, laws
from shared_rules.calls import MAX_LEGAL_RANK, PASS, call_name, min_level, partner, strain
from shared_rules.model import Context, EventError, Found, Option, Pending, Rec, offer
from shared_rules.rule import LhoRule
from shared_rules.texts import UNINTENDED, key, keys
from shared_rules.types import Asks, Decision, IrregularityKind, MustPass, OptionId, Resolution

if TYPE_CHECKING:
    from shared_rules.fold import Fold

_CORRECT_SCREEN: Final = "correct_screen"  # the wording behind a screen whose regulation corrects it


class InsufficientBid(LhoRule):
    kind = IrregularityKind.INSUFFICIENT_BID
    law = "insufficient_bid"  # 2007 L27, 2017 L27
    decisions = (Decision.INSUFFICIENT_BID, Decision.INSUFFICIENT_BID_JUDGEMENT)
    texts = (*keys(Decision.INSUFFICIENT_BID, OptionId.ACCEPT, OptionId.REPLACE, _CORRECT_SCREEN), UNINTENDED,
             *(key(Decision.INSUFFICIENT_BID_JUDGEMENT, edition, question)
               for edition, questions in laws.IB_QUESTIONS.items() for question in questions))

    def detect(self, f: Fold, seat: int, code: int, turn: int | None) -> Found | None:
        # L18C: a bid must be higher than the last bid; the same rank is not
        return Found(self) if seat == turn and 0 <= code <= f.last_bid else None

    def record(self, f: Fold, rec: Rec, found: Found) -> None:
        r = f.refs
        entry = f.irregularity(self.kind, rec, r["insufficient_bid"])
        if _behind_screen(f):
            # Caught before the tray passed (it stays while the TD rules): corrected on this side
            # without rectification, the other side never told (2017/2007 L80B2(e), WBF screen
            # regulations; docs/laws/choices.md #36). The LHO may still accept it if he saw it.
            screens = f.profile.screens
            opts = [offer(Decision.INSUFFICIENT_BID, OptionId.ACCEPT, r["insufficient_accepted"]),
                    offer(Decision.INSUFFICIENT_BID, OptionId.REPLACE, screens.law, True, variant=_CORRECT_SCREEN)]
            f.pend(Pending(self, Decision.INSUFFICIENT_BID, screens.law, rec.seat, Asks.LHO, opts, rec, entry))
            return
        opts = [
            offer(Decision.INSUFFICIENT_BID, OptionId.ACCEPT, r["insufficient_accepted"]),
            offer(Decision.INSUFFICIENT_BID, OptionId.REPLACE, r["insufficient_replaced"], True),
            f.unintended_option(),
        ]
        f.pend(Pending(self, Decision.INSUFFICIENT_BID, r["insufficient_bid"], rec.seat, Asks.LHO, opts, rec,
                       entry))

    def lho_calls(self, f: Fold, p: Pending, rec: Rec) -> None:
        """L27A1: the LHO accepts the insufficient bid by calling."""
        insufficient = p.rec
        assert insufficient is not None
        f.resolve(p, Resolution.ACCEPTED, f.refs["insufficient_accepted"])
        f.stand(insufficient)
        f.on_call(rec)

    def may_call(self, f: Fold, p: Pending) -> tuple[int, ...]:
        # L27C: the offender may replace his insufficient bid before the TD has ruled
        return (p.seat,) if p.kind is Decision.INSUFFICIENT_BID else ()

    def other_call(self, f: Fold, p: Pending, rec: Rec) -> bool:
        """L27C: the offender replaces the insufficient bid before the TD has ruled."""
        if p.kind is not Decision.INSUFFICIENT_BID or rec.seat != p.seat:
            return False
        assert p.rec is not None
        rec.acted = p.rec.acted  # FSB L116B: his wait after a stop ended with the insufficient bid
        if _behind_screen(f):
            self._correct(f, p, rec)
            return True
        self._replace(f, p, rec, f.refs["insufficient_replaced_early"])
        return True

    def ruling(self, f: Fold, p: Pending, option: Option, call: Rec | None, t: float) -> None:
        if p.kind is Decision.INSUFFICIENT_BID_JUDGEMENT:
            self._judged(f, p, option, t)
        elif option.id is OptionId.ACCEPT:
            insufficient = p.rec
            assert insufficient is not None
            f.pending = None
            f.resolve(p, Resolution.ACCEPTED, f.refs["insufficient_accepted"])
            f.stand(insufficient)
        elif option.id is OptionId.UNINTENDED:
            f.replace_unintended(p, call)
        elif _behind_screen(f):
            assert call is not None
            self._correct(f, p, call)
        else:
            assert call is not None
            self._replace(f, p, call, f.refs["insufficient_replaced"])

    @staticmethod
    def _correct(f: Fold, p: Pending, new: Rec) -> None:
        """Behind screens, before the tray passed: the insufficient bid is corrected to any legal
        call without rectification (no obligation, no lead restriction, no review), and the
        other side of the screen is never told (profile `screens.unpassed_insufficient`)."""
        insufficient = p.rec
        assert insufficient is not None
        law = f.profile.screens.law
        code = new.code
        if code > MAX_LEGAL_RANK or 0 <= code <= f.last_bid or (code < PASS and not f.admissible(p.seat, code)):
            raise EventError(f"the correction must be a legal call ({law}), not {call_name(code)}")
        f.pending = None
        f.resolve(p, Resolution.CORRECTED_BEHIND_SCREEN, law)
        f.withdraw(insufficient, "insufficient bid corrected before the tray passed the screen", law)
        if p.irregularity is not None:
            box_screens.hide_from_other_side(f, p.seat, p.irregularity, f.withdrawn[-1])
        new.acted = insufficient.acted
        f.stand(new)

    def _replace(self, f: Fold, p: Pending, new: Rec, law: str) -> None:
        """L27B: the insufficient bid is replaced by `new` (by the TD's leave, or early, L27C)."""
        r = f.refs
        insufficient = p.rec
        assert insufficient is not None
        offender = p.seat
        code = new.code
        if code > MAX_LEGAL_RANK:  # L18A: seven is the highest level
            raise EventError(f"the replacement must be a legal call (Law 27B), not {call_name(code)}")
        if 0 <= code <= f.last_bid:
            # L27B4: another insufficient bid; LHO may accept it, otherwise as B3. What the TD
            # finally rules on is still the first insufficient bid (B3 "ändra det otillräckliga
            # kontraktbudet", 2017 "rette det utilstrækkelige bud"): it is the withdrawn call Law 26
            # weighs, not the attempt (docs/laws/choices.md #27).
            f.withdraw(insufficient, "insufficient bid, replaced by another insufficient bid",
                       r["insufficient_b4"])
            f.resolve(p, Resolution.REPLACED_INSUFFICIENT, r["insufficient_b4"])
            if p.context.insufficient_bid is None:
                p.context.insufficient_bid = insufficient
            p.rec = new
            p.context.only_bid_or_pass = True
            p.law = r["insufficient_b4"]
            p.irregularity = f.irregularity(self.kind, new, r["insufficient_bid"])
            return
        if code < PASS and (p.context.only_bid_or_pass or not f.admissible(offender, code)):
            raise EventError(f"{r['insufficient_b3']}: the insufficient bid must be replaced by a sufficient "
                             "bid or a pass")
        if p.context.only_bid_or_pass:
            # L27B4 -> B3: the attempt is cancelled; the first insufficient bid is the call replaced
            first = p.context.insufficient_bid or insufficient
            f.pending = None
            f.resolve(p, Resolution.B3, r["insufficient_b3"])
            f.withdraw(insufficient, "insufficient bid replacing an insufficient bid, cancelled",
                       f"{r['insufficient_b4']}, {r['withdrawn_ui']}")
            f.stand(new)
            self._penalty(f, offender, first, r["insufficient_b3"])
            return
        opts = []
        same = 0 <= code and code == _lowest_in_strain(f.last_bid, strain(insufficient.code))
        q = key(Decision.INSUFFICIENT_BID_JUDGEMENT, f.edition)  # the edition's questions (laws.IB_QUESTIONS)
        if code >= 0 and (same or not laws.IB_B1A_SAME_STRAIN_ONLY[f.edition]):
            opts.append(offer(q, OptionId.B1A, r["insufficient_b1a"]))
        opts.append(offer(q, OptionId.B1B, r["insufficient_b1b"]))
        opts.append(offer(q, OptionId.NONE, r["insufficient_b3"] if code < PASS else r["insufficient_b2"]))
        f.pending = Pending(self, Decision.INSUFFICIENT_BID_JUDGEMENT, law, offender, Asks.TD, opts, new,
                            p.irregularity, Context(insufficient_bid=insufficient))

    def _judged(self, f: Fold, p: Pending, option: Option, t: float) -> None:
        """L27B1-B3: the TD's judgement of the replacement."""
        r = f.refs
        new = p.rec
        insufficient = p.context.insufficient_bid
        assert new is not None and insufficient is not None
        f.pending = None
        if option.id is OptionId.B1A or option.id is OptionId.B1B:
            f.resolve(p, Resolution(option.id), option.law)
            # L16D/L16C do not apply here (2007 L27B1(a), 2017 L27B1)
            f.withdraw(insufficient, "insufficient bid, replaced", option.law)
            f.stand(new)
            f.review(p.seat, r["insufficient_review"],
                     "insufficient bid corrected without rectification: damage review")
            return
        if new.code < PASS:  # L27B3: the X/XX is cancelled; the offender must bid sufficiently or pass
            f.resolve(p, Resolution.B3, r["insufficient_b3"])
            f.withdraw(insufficient, "insufficient bid", f"{r['insufficient_b3']}, {r['withdrawn_ui']}")
            f.withdraw(new, "double/redouble replacing an insufficient bid", r["insufficient_b3"])
            f.no_double[p.seat] = r["insufficient_b3"]
            f.turn_t = t
            self._penalty(f, p.seat, insufficient, r["insufficient_b3"])
            return
        f.resolve(p, Resolution.B2, r["insufficient_b2"])
        f.withdraw(insufficient, "insufficient bid", f"{r['insufficient_b2']}, {r['withdrawn_ui']}")
        f.stand(new)
        self._penalty(f, p.seat, insufficient, r["insufficient_b2"])

    @staticmethod
    def _penalty(f: Fold, offender: int, withdrawn: Rec, law: str) -> None:
        """L27B2/B3: partner passes for the rest of the auction; Law 26 may apply; L27D review."""
        f.oblige(partner(offender), MustPass.REST, law)
        f.lead(offender, withdrawn, law)
        f.review(offender, f.refs["awareness"], "insufficient bid not corrected under L27B1")


def _behind_screen(f: Fold) -> bool:
    """Screens are on and the regulation corrects an insufficient bid the tray has not carried
    without rectification (profile `screens.unpassed_insufficient`: "correct")."""
    return f.screens and f.profile.screens.unpassed_insufficient == "correct"


def _lowest_in_strain(last_bid: int, s: int) -> int:
    return (min_level(last_bid, s) - 1) * 5 + s


INSUFFICIENT_BID: Final = InsufficientBid()
