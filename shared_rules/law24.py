"""Law 24: cards exposed or led during the auction (docs/laws/L24.md), both editions; what
differs is data in laws.EXPOSED. A TD finding only: the boxes cannot see cards.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from shared_rules import laws
from shared_rules.calls import SEATS, opponents, partner
from shared_rules.model import EventError
from shared_rules.rule import Rule
from shared_rules.types import IrregularityKind, MustPass, Resolution, Status

if TYPE_CHECKING:
    from shared_rules.fold import Fold


class CardsExposed(Rule):
    kind = IrregularityKind.CARDS_EXPOSED

    def law_for(self, edition: int) -> str:
        return laws.EXPOSED[edition]["law"]  # 2007 L24, 2017 L24

    def found(self, f: Fold, seat: int, cards: list[str], led: bool, t: float) -> None:
        """Law 24: the TD has found that cards of `seat` could be seen by his partner (or one was
        led early)."""
        rule = laws.EXPOSED[f.edition]
        if f.pending is not None:
            raise EventError(f"a decision is pending ({f.pending.kind}); answer it first")
        if f.status is Status.PASSED_OUT or f.status is Status.ADJUSTED_SCORE:
            raise EventError(f"the board will not be played: {rule['law']} has nothing to rectify")
        shown = {c for entry in f.exposed for c in entry["cards"]}
        again = [c for c in cards if c in shown]
        if again:
            raise EventError(f"already exposed: {', '.join(again)}")
        # L24C counts the cards the player has exposed, not the cards of one finding: a card found
        # after an earlier one makes two (docs/laws/choices.md #29)
        before = [c for entry in f.exposed if entry["seat"] == SEATS[seat] for c in entry["cards"]]
        if len(before) + len(cards) >= 2:
            law = rule["several"]  # L24C
        elif led or cards[0][1] in rule["honours"]:
            law = rule["honour_or_led"]  # L24B
        else:
            law = rule["single_low"]  # L24A
        # After the final pass the partner has no turn left to pass at; the cards still count (L50).
        forced = law != rule["single_low"] and f.status is Status.BIDDING
        entry: dict[str, Any] = {
            "kind": self.kind, "seat": SEATS[seat], "law": rule["law"], "t": t, "call": None,
            "cards": list(cards), "led": led, "ruling": law,
            "resolution": Resolution.PARTNER_PASSES_NEXT_TURN if forced
            else Resolution.NO_FURTHER_RECTIFICATION,
        }
        if before:
            entry["exposed_before"] = before  # the player's cards from earlier findings (L24C)
        f.add_irregularity(entry)
        f.exposed.append({
            "seat": SEATS[seat], "cards": list(cards), "led": led, "t": t, "law": law,
            "face_up_until": rule["until"], "information": f"authorised for the opponents, unauthorised for "
            f"{SEATS[seat]}{SEATS[partner(seat)]} ({rule['ui']})",
            "if_defender": rule["defender"], "if_declaring_side": rule["declaring_side"],
        })
        if forced:
            f.oblige(partner(seat), MustPass.NEXT_TURN, law)
            f.review(seat, f.refs["awareness"], f"cards exposed ({law}): partner had to pass")

    @staticmethod
    def views(f: Fold, declarer: int | None) -> list[dict[str, Any]]:
        """The exposed cards as the state lists them: what they become once the auction is over
        (penalty cards if the offender defends: 2007 L50, 2017 L24E/L50/L51)."""
        out = []
        for entry in f.exposed:
            d = dict(entry)
            d["cards"] = list(entry["cards"])
            if f.status is Status.ENDED and declarer is not None:
                defends = opponents(declarer, SEATS.index(entry["seat"]))
                d["becomes"] = "penalty_cards" if defends else "returned_to_hand"
            else:
                d["becomes"] = "returned_to_hand" if f.status is Status.PASSED_OUT else None
            out.append(d)
        return out


CARDS_EXPOSED: Final = CardsExposed()
