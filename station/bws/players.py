"""Player numbers entered at the tables, written into the `.bws` `PlayerNumbers` table as the
programs that stand in for BCS write them (TabScore, TabPlay: one row per section, table, round
and direction, updated in place when the seat's number changes), so the scoring program reads
them as it reads a Bridgemate's:

- `Round` 0 for a number entered in the first round (the player follows the pair through the
  movement; the seat's row the scoring program wrote for round 0 or 1 is updated), the round
  itself for a later round (that round only);
- `Number` as entered, `Name` the name the club's register (`PlayerNames`) or the scoring
  program gave it, cut to the column's 18 characters, emptied when neither knows the number
  (the scoring program names the player; the seat's earlier name is not left beside a new number);
- `Processed` False (the scoring program has not read it yet), `TimeLog` the entry's local time.

Only the columns the file has are written; a file without `PlayerNumbers` gets none (said on the
director page). Pure: `statements` returns the SQL the bridge runs in one transaction.
"""
from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping
from typing import Any

from .formats import epoch
from .schema import name

NAME_CHARS = 18  # PlayerNumbers.Name is TEXT(18)


def entry_time(at: Any) -> datetime.datetime:
    """The entry's time in local time, whole seconds (Access keeps no fractions)."""
    moment = float(at) if isinstance(at, (int, float)) and not isinstance(at, bool) else epoch(str(at))
    return datetime.datetime.fromtimestamp(int(moment))


def statements(p: Mapping[str, Any], section_id: int, first_round: int, names: Mapping[str, str | None],
               columns: set[str], exists: Callable[[str, list[Any]], bool]) -> list[tuple[str, list[Any]]]:
    """The UPDATE or INSERT of each seat of one entry (payload `p`). `columns`: the file's
    PlayerNumbers columns (lower case); `exists(where, params)`: whether the seat's row is there.
    A first-round entry updates the seat's row of round 0 or of the first round (the scoring
    program's own seating, which a reader takes for the first round either way)."""
    first = p["round"] <= first_round
    at = entry_time(p.get("at"))
    out = []
    for seat, number in p["numbers"].items():
        key: dict[str, Any] = {"Section": section_id, "Table": p["table"], "Direction": seat}
        key = {k: v for k, v in key.items() if k.lower() in columns}
        where = " AND ".join(f"{name(k)} = ?" for k in key)
        params = list(key.values())
        if "round" in columns:
            where += f" AND {name('Round')} IN (?, ?)" if first else f" AND {name('Round')} = ?"
            params += [0, first_round] if first else [p["round"]]
            key["Round"] = 0 if first else p["round"]
        # a number nobody knows clears the name the seat had: the scoring program names the player
        values: dict[str, Any] = {"Number": number, "Name": (names.get(number) or "")[:NAME_CHARS],
                                  "Processed": False, "TimeLog": at}
        values = {k: v for k, v in values.items() if k.lower() in columns}
        if exists(where, params):
            sets = ", ".join(f"{name(k)} = ?" for k in values)
            out.append((f"UPDATE {name('PlayerNumbers')} SET {sets} WHERE {where}", [*values.values(), *params]))
        else:
            row = {**key, **values}
            out.append((f"INSERT INTO {name('PlayerNumbers')} ({', '.join(name(c) for c in row)}) "
                        f"VALUES ({', '.join('?' for _ in row)})", list(row.values())))
    return out
