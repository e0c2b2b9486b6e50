"""What `Table.step` answers for one event: `Accepted` or `Refused` (docs/interfaces.md section 1).

Both are frozen. An accepted event carries what it raised (the irregularities recorded and the
timing flags reported by this event, as the state lists them) and the state after it, built when
first read: a replay that never reads it never pays for it. A refused event changed nothing; it
says why, in words, as a kind and with the Law.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from shared_rules.types import IrregularityKind, Refusal, Status, TimingKind


@dataclass(frozen=True, slots=True)
class Accepted:
    """The event was taken."""

    status: Status  # the table's status after it (Table.status())
    irregularities: tuple[dict[str, Any], ...]  # recorded by this event (copies of the state's entries)
    timing: tuple[dict[str, Any], ...]  # timing flags this event reported (copies)
    _state: Callable[[], dict[str, Any]] = field(repr=False, compare=False)

    @property
    def state(self) -> dict[str, Any]:
        """The table's state right after this event (Table.state() then), built on first read and
        kept. Read it before the table takes another event: after that it is gone (RuntimeError)."""
        return self._state()


@dataclass(frozen=True, slots=True)
class Refused:
    """The event was refused and the table is exactly as it was before it."""

    reason: str  # in words, naming the Law where there is one
    kind: Refusal | IrregularityKind | TimingKind  # an irregular call under `prevent`, a stop lock, a
    # forbidden alert, or a refusal of procedure (types.Refusal)
    law: str  # the Law or regulation, e.g. "2017 L27", "FSB L116B", "FSB L115A1"; "" where none
    until: float | None = None  # a stop lock: when the box may call (FSB L116B)
