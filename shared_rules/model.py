"""The engine's working records: a call as made at the table, a decision the table waits for and
the options the Law gives in it, what detection found, and the error for an event the table
cannot take. Engine-internal (the state dict is what leaves the engine); the rules and the fold
share them.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from shared_rules import laws
from shared_rules.calls import SEATS, call_name
from shared_rules.texts import key, option_text
from shared_rules.types import Asks, Decision, OptionId, Refusal

if TYPE_CHECKING:
    from shared_rules.rule import DecidingRule, DetectedRule


class EventError(ValueError):
    """An event the table cannot take in its current state; nothing was changed. `kind` and
    `law` say why, for `Table.step`'s `Refused`."""

    def __init__(self, message: str, kind: Refusal = Refusal.INVALID, law: str = "") -> None:
        super().__init__(message)
        self.kind = kind
        self.law = law


class Rec:
    """One call as made at the table."""

    __slots__ = ("seat", "code", "t", "think", "stop", "alerted_by", "alert_t", "in_rotation", "deemed",
                 "acted", "alerted_to", "shown", "cached_view")

    # What may change on a Rec once made (snapshot.py saves these, in this order).
    MUTABLE = ("think", "alerted_by", "alert_t", "in_rotation", "deemed", "acted", "shown", "cached_view")

    def __init__(self, seat: int, code: int, t: float, think: float, stop: bool) -> None:
        self.seat = seat
        self.code = code
        self.t = t
        self.think = think
        self.stop = stop
        self.alerted_by: int | None = None
        self.alert_t: float | None = None
        self.in_rotation = True
        self.deemed: str | bool = False  # the Law that deems the call made (L28A), else False
        # When the player himself first acted at this turn: a call the TD enters later (a
        # replacement) keeps the time of the player's own call, which is what FSB L116B times.
        self.acted = t
        self.alerted_to: list[int] = []  # with screens: the screenmates the call was alerted to
        self.shown: tuple[int, ...] | None = None  # L29C: the denominations an artificial call showed
        self.cached_view: dict[str, Any] | None = None

    def view(self) -> dict[str, Any]:
        """The call as the state lists it, built once: a state is then linear in the number of
        changed calls, not in the auction's length (the tablet builds one per event)."""
        d = self.cached_view
        if d is None:
            d = {"seat": SEATS[self.seat], "call": call_name(self.code),
                 "alerted": self.alerted_by is not None, "stop": self.stop, "think": round(self.think, 3),
                 "t": self.t}
            if self.alerted_by is not None:
                d["alerted_by"] = SEATS[self.alerted_by]
                d["alert_t"] = self.alert_t
            if not self.in_rotation:
                d["in_rotation"] = False
            if self.deemed:
                d["deemed"] = True
                d["deemed_law"] = self.deemed  # the Law that deems it made (L28A of the edition)
            if self.alerted_to:
                d["alerted_to"] = [SEATS[s] for s in self.alerted_to]
            self.cached_view = d
        return d


class Option:
    """One choice the Law gives: `id` (kept in journals and logs), `text` the key of its words in
    texts.OPTION_TEXTS with `params`, `label` the English words, the law it applies."""

    __slots__ = ("id", "text", "params", "label", "law", "needs_call")

    def __init__(self, id_: OptionId, text: str, law: str, needs_call: bool = False, **params: str) -> None:
        self.id, self.text, self.params, self.law, self.needs_call = id_, text, params, law, needs_call
        self.label = option_text(text, params)


def offer(prefix: str, id_: OptionId, law: str, needs_call: bool = False, variant: str = "",
          params: dict[str, str] | None = None) -> Option:
    """The option `id_` of a decision, worded by the text `<prefix>.<variant or id_>` (texts.key)
    filled from `params`. Options are never changed once made: one without params is made once
    per Law and shared by every decision that offers it."""
    if params:
        return Option(id_, key(prefix, variant or id_), law, needs_call, **params)
    return _offer(prefix, id_, law, needs_call, variant)


@functools.lru_cache(maxsize=512)
def _offer(prefix: str, id_: OptionId, law: str, needs_call: bool, variant: str) -> Option:
    return Option(id_, key(prefix, variant or id_), law, needs_call)


@dataclass
class Context:
    """What a pending decision needs to know besides the call it is about."""

    turn: int | None = None  # the player in turn when the irregular call was made
    position: str = ""  # whose turn it was, seen from the offender: "lho" | "partner" | "rho"
    out_of_rotation: bool = False  # an inadmissible X/XX or a bid above seven made out of turn
    only_bid_or_pass: bool = False  # L27B4 -> B3: the replacement must be a sufficient bid or pass
    # the insufficient bid a replacement is judged against (L27B1); after L27B4, the first one
    insufficient_bid: Rec | None = None
    question: laws.Deferred | None = None  # comparable (2017 L23A) / same denomination (2007 L31A2)
    withdrawn: Rec | None = None  # the cancelled call the question compares with
    lho_call: Rec | None = None  # 2007 L17D2: the LHO's call over a call from the wrong board
    cancelled: Rec | None = None  # 2007 L17D2: that cancelled call


class Pending:
    """A decision the table waits for, owned by the rule that raised it (`rule` answers the TD's
    choice and the calls the Law gives a meaning). `asks`: who acts next."""

    __slots__ = ("kind", "law", "seat", "asks", "options", "rec", "context", "irregularity", "rule")

    # What a ruling may change on a Pending in place (snapshot.py saves these).
    MUTABLE = ("kind", "law", "seat", "asks", "options", "rec", "irregularity", "rule")

    def __init__(
        self, rule: DecidingRule, kind: Decision, law: str, seat: int, asks: Asks, options: list[Option],
        rec: Rec | None, irregularity: dict[str, Any] | None, context: Context | None = None,
    ) -> None:
        self.rule, self.kind, self.law, self.seat, self.asks = rule, kind, law, seat, asks
        self.options, self.rec, self.irregularity = options, rec, irregularity
        self.context = context or Context()


class Found(NamedTuple):
    """What detection found for a call: the rule of the irregularity, and where it was made."""

    rule: DetectedRule
    out_of_rotation: bool = False  # an inadmissible X/XX or a bid above seven made out of turn
    position: str = ""  # a call out of rotation: whose turn it was, seen from the offender


class Deemed:
    """What detection says when L28A applies: the caller's RHO is in turn and must pass, so his
    pass is deemed made first and the call is judged in turn after it (law28_33.stand_deemed_pass)."""

    __slots__ = ()


DEEMED: Final = Deemed()
