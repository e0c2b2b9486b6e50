"""JSON as it arrives at the station's door: parsed with limits, so that hostile input is a
400 (or a Data Connector error reply), never a 500.

The stdlib parser raises RecursionError on 100k-deep nesting and ValueError on an integer
of more than 4300 digits (outside json.JSONDecodeError), and it accepts NaN, Infinity and
1e400 (which becomes inf): none of those has a place in a bridge result.
"""
from __future__ import annotations

import json
import math
from typing import Any

MAX_DEPTH = 64          # the deepest real document (a Data Connector InitDTO) nests about 8
MAX_INT_DIGITS = 18     # a board, a score, an id: never near 10^18


class JsonError(ValueError):
    """The body is not JSON the station accepts; the message says why (for the 400 reply)."""


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise JsonError(f"integer of {len(text)} digits (at most {MAX_INT_DIGITS})")
    return int(text)


def _float(text: str) -> float:
    if len(text) > 64:
        raise JsonError(f"number of {len(text)} characters")
    value = float(text)
    if not math.isfinite(value):
        raise JsonError(f"number {text[:20]} is out of range")
    return value


def _constant(name: str) -> Any:
    raise JsonError(f"{name} is not a JSON number")


def depth(value: Any) -> int:
    """How deep lists and objects nest in `value` (iterative: no recursion to exhaust)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (dict, list)):
            if d > MAX_DEPTH:
                return d
            deepest = max(deepest, d)
            stack.extend((c, d + 1) for c in (v.values() if isinstance(v, dict) else v))
    return deepest


def loads_limited(data: bytes | str) -> Any:
    """json.loads with limits: nesting, integer size, finite numbers, UTF-8."""
    try:
        text = data.decode("utf-8") if isinstance(data, (bytes, bytearray)) else data
    except UnicodeDecodeError as e:
        raise JsonError(f"not UTF-8: {e}") from None
    try:
        value = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except JsonError:
        raise
    except RecursionError:
        raise JsonError(f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as e:   # JSONDecodeError and the stdlib's own digit limit
        raise JsonError(str(e)[:200]) from None
    if depth(value) > MAX_DEPTH:
        raise JsonError(f"nested deeper than {MAX_DEPTH} levels")
    return value
