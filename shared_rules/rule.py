"""What every irregularity's rule object answers (the law modules define one per kind; rules.py
lists them in detection order).

A rule holds one Law's whole treatment of one irregularity: how a call is found to be it
(`detect`), what is recorded and which options the Law offers (`record`), what the calls the Law
gives a meaning while the TD is awaited do (the offender's LHO accepting or condoning:
`lho_calls`; others: `other_call`), and what the TD's choice does (`ruling`). It changes the
table only through the fold's primitives (fold.Fold), and cites its Law (`law`: the key of
laws.REFS, so the edition picks the number).
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, ClassVar

from shared_rules import laws
from shared_rules.types import Decision, IrregularityKind

if TYPE_CHECKING:
    from shared_rules.fold import Fold
    from shared_rules.model import Found, Option, Pending, Rec


class Rule(ABC):  # noqa: B024 (abstract in what it declares, not in a method)
    """Any irregularity: its kind and its Law. TD findings (Law 24, the wrong boards, L33's
    reordering) are plain rules with a method of their own that the table calls by name."""

    kind: ClassVar[IrregularityKind]
    law: ClassVar[str] = ""  # the laws.REFS key of the Law that governs it (or law_for says)
    decisions: ClassVar[tuple[Decision, ...]] = ()  # the pending decisions it raises and answers
    texts: ClassVar[tuple[str, ...]] = ()  # the texts.OPTION_TEXTS keys of the options it offers

    def law_for(self, edition: int) -> str:
        """The Law that governs it in an edition."""
        return laws.REFS[edition][self.law]


class DecidingRule(Rule):
    """An irregularity on which the table waits for a decision (a `Pending` owned by the rule)."""

    @abstractmethod
    def ruling(self, f: Fold, p: Pending, option: Option, call: Rec | None, t: float) -> None:
        """The TD's choice on a decision this rule raised (`call`: the call the option needs).
        It refuses (EventError) only before it changes anything: the table takes a TD's answer
        without a saved state (snapshot.py)."""

    def may_call(self, f: Fold, p: Pending) -> tuple[int, ...]:
        """Seats besides the offender's LHO whose call the Law gives a meaning while `p` waits."""
        return ()

    def other_call(self, f: Fold, p: Pending, rec: Rec) -> bool:
        """A call by one of `may_call`'s seats while `p` waits: taken (True) or not this rule's."""
        return False

    def pending_extra(self, p: Pending) -> dict[str, str]:
        """What the state's `pending` says besides the common keys (the seat in turn for L28B)."""
        return {}


class DetectedRule(DecidingRule):
    """An irregularity the engine finds in a call."""

    @abstractmethod
    def detect(self, f: Fold, seat: int, code: int, turn: int | None) -> Found | None:
        """Is this call by `seat`, with `turn` in turn, this irregularity? Asked in
        rules.DETECTION_ORDER: the first rule that finds it wins (docs/laws/choices.md #13)."""

    @abstractmethod
    def record(self, f: Fold, rec: Rec, found: Found) -> None:
        """The irregularity is recorded and the table waits for the decision the Law gives."""


class LhoRule(DetectedRule):
    """An irregularity the offender's LHO may accept or condone by calling over it."""

    @abstractmethod
    def lho_calls(self, f: Fold, p: Pending, rec: Rec) -> None:
        """The LHO called over the irregularity (the pending decision is already cleared)."""
