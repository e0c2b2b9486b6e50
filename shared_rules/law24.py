"""Law 24: cards exposed or led during the auction (docs/laws/L24.md). A TD event only: the boxes
cannot see cards.
"""
from __future__ import annotations

from typing import Any

from shared_rules import laws
from shared_rules.calls import (
    SEATS,
    partner,
)
from shared_rules.table_base import (
    ADJUSTED,
    BIDDING,
    PASSED_OUT,
    EventError,
    TableBase,
)


class Law24(TableBase):
    def _exposed_cards(self, seat: int, cards: list[str], led: bool, t: float) -> None:
        """Law 24: the TD has found that cards of `seat` could be seen by his partner (or one was
        led early). The boxes cannot see cards, so this only ever arrives as a TD event."""
        rule = laws.EXPOSED[self.edition]
        if self._pending is not None:
            raise EventError(f"a decision is pending ({self._pending.kind}); answer it first")
        if self._status in (PASSED_OUT, ADJUSTED):
            raise EventError(f"the board will not be played: {rule['law']} has nothing to rectify")
        shown = {c for x in self._exposed for c in x["cards"]}
        again = [c for c in cards if c in shown]
        if again:
            raise EventError(f"already exposed: {', '.join(again)}")
        if len(cards) >= 2:
            law = rule["several"]
        elif led or cards[0][1] in rule["honours"]:
            law = rule["honour_or_led"]
        else:
            law = rule["single_low"]
        # After the final pass the partner has no turn left to pass at; the cards still count (L50).
        forced = law != rule["single_low"] and self._status == BIDDING
        self._irregularities.append({
            "kind": "cards_exposed", "seat": SEATS[seat], "law": rule["law"], "t": t, "call": None,
            "cards": list(cards), "led": led, "ruling": law,
            "resolution": "partner_passes_next_turn" if forced else "no_further_rectification",
        })
        self._exposed.append({
            "seat": SEATS[seat], "cards": list(cards), "led": led, "t": t, "law": law,
            "face_up_until": rule["until"], "information": f"authorised for the opponents, unauthorised for "
            f"{SEATS[seat]}{SEATS[partner(seat)]} ({rule['ui']})",
            "if_defender": rule["defender"], "if_declaring_side": rule["declaring_side"],
        })
        if forced:
            self._oblige(partner(seat), "next_turn", law)
            self._review(seat, self.refs["awareness"], f"cards exposed ({law}): partner had to pass")

    def _td_exposed_cards(self, ev: dict[str, Any], seat: int, code: int, t: float) -> None:
        self._exposed_cards(seat, list(ev["cards"]), bool(ev.get("led", False)), t)


DIRECT = {"exposed_cards": Law24._td_exposed_cards}
DIRECT_FIELDS = {"exposed_cards": {"seat", "cards", "led"}}
