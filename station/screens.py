"""Where the organiser plays with screens: the whole event, sections or tables
(`python -m station --screens all | A | A:1-4`, kept in the station's settings), sent to each
table with its movement as `"screens": true` (docs/station.md). FSB L114: players use screens
"när arrangören så kräver" (when the organiser requires them); 2007/2017 L80B2(e).
"""
from __future__ import annotations

import json
import re
from typing import Any

ALL = "all"
_SPEC = re.compile(r"^(?:all|[A-Z]{1,3}(?::\d+(?:-\d+)?(?:,\d+(?:-\d+)?)*)?)$")


def parse(spec: str) -> str:
    """One `--screens` value, checked: `all`, a section (`A`), or a section's tables (`A:1-4,7`)."""
    text = spec.strip()
    if not _SPEC.match(text):
        raise ValueError(f"{spec!r}: give all, a section (A) or a section's tables (A:1-4)")
    for lo, hi in re.findall(r"(\d+)-(\d+)", text):
        if int(hi) < int(lo):
            raise ValueError(f"{spec!r}: the range {lo}-{hi} runs backwards")
    return text


def covers(specs: list[str], section: str, table: int) -> bool:
    """Does one of the organiser's `specs` put screens on this table?"""
    for spec in specs:
        if spec == ALL:
            return True
        sec, _, tables = spec.partition(":")
        if sec != section:
            continue
        if not tables:
            return True
        for part in tables.split(","):
            lo, _, hi = part.partition("-")
            if int(lo) <= table <= int(hi or lo):
                return True
    return False


def stored(value: Any) -> list[str]:
    """The setting as kept (a JSON list of specs); nothing readable: no screens."""
    try:
        specs = json.loads(value) if isinstance(value, str) else []
    except ValueError:
        return []
    return [s for s in specs if isinstance(s, str)] if isinstance(specs, list) else []
