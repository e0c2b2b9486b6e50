"""Exact arithmetic and the one-decimal rounding of FSB 98C.

Matchpoints are computed as Fractions and rounded once, half away from zero, so that 11.25
becomes 11.3 (binary floats and Python's round() would give 11.2 for some such values).
"""
from __future__ import annotations

from fractions import Fraction
from typing import TypeAlias

Number: TypeAlias = int | float | Fraction


def to_fraction(value: Number | str) -> Fraction:
    """Exact value of an int, Fraction, float (via its shortest repr) or text like '1/3', '0.25'."""
    if isinstance(value, bool):
        raise ValueError(f"expected a number, not {value!r}")
    if isinstance(value, (int, Fraction)):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(repr(value))
    if isinstance(value, str):
        try:
            return Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"not a number: {value!r}") from None
    raise ValueError(f"expected a number, not {value!r}")


def round_half_up(value: Number, decimals: int = 1) -> float:
    """Round half away from zero to `decimals` places (FSB 98C: one decimal)."""
    scaled = to_fraction(value) * 10**decimals
    sign = -1 if scaled < 0 else 1
    whole = (abs(scaled) * 2 + 1) // 2
    return sign * whole / 10**decimals
