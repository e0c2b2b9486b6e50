"""Who sat where: the scoring program's players and participations applied to the movement.

Pure functions over plain rows. A participation in round 0 or 1 seats a player in the first round
and the player then follows the pair through the movement (what the Data Connector documents
for a section without explicit participations); a participation for a later round (sections
with explicit participations) seats that player in that round only.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .movement import numbered_per_direction

Person = dict[str, Any]


def person(row: dict, players: dict[str, dict]) -> Person | None:
    """A participation row as a person: the player data its number points at, else its own
    names. None when there is no name at all."""
    src = players.get(row.get("number") or "", row) if row.get("number") else row
    first, last = (src.get("first_name") or "").strip(), (src.get("last_name") or "").strip()
    if not (first or last):
        return None
    return {"number": row.get("number") or None, "first_name": first, "last_name": last,
            # PBN writes names as a telephone directory does (PBN 3.4.5): "Last, First".
            "pbn_name": f"{last}, {first}" if first and last else (last or first),
            "full_name": f"{first} {last}".strip()}


def pair_key(section: str, side: str, number: int, per_direction: bool) -> tuple:
    return (section, side if per_direction else "", number)


def seating(movement: Iterable[tuple[str, int, int, int, int]], participations: list[dict], players: dict[str, dict]
            ) -> tuple[Callable[..., dict[str, Person]], dict[tuple, list[Person | None]]]:
    """movement rows (section, table, round, pair_ns, pair_ew) -> (seats_at, pair_members).

    seats_at(section, table, round, ns_pair, ew_pair) -> {seat: person} for the people known;
    pair_members[(section, "NS"|"EW"|"", number)] -> [person or None] * 2 (North/East first)."""
    rows = list(movement)
    per_direction = {s: numbered_per_direction(((sec, r), ns, ew) for sec, _t, r, ns, ew in rows if sec == s)
                     for s in {r[0] for r in rows}}
    first_round: dict[str, int] = {}
    for sec, _t, r, _ns, _ew in rows:
        first_round[sec] = min(r, first_round.get(sec, r))
    seated: dict[tuple, Person] = {}
    explicit: dict[tuple, Person] = {}
    for p in participations:
        who = person(p, players)
        if who is None:
            continue
        if p["round"] <= 1:
            seated[(p["section"], p["table"], p["direction"])] = who
        else:
            explicit[(p["section"], p["table"], p["round"], p["direction"])] = who
    members: dict[tuple, list[Person | None]] = {}
    for sec, table, rnd, ns, ew in rows:
        if rnd != first_round[sec]:
            continue
        pd = per_direction.get(sec, False)
        for side, number, seats in (("NS", ns, "NS"), ("EW", ew, "EW")):
            people = [seated.get((sec, table, s)) for s in seats]
            if any(people):
                members[pair_key(sec, side, number, pd)] = people

    def seats_at(section: str, table: int, round_no: int, ns_pair: int, ew_pair: int) -> dict[str, Person]:
        pd = per_direction.get(section, False)
        out: dict[str, Person] = {}
        for side, number, seats in (("NS", ns_pair, "NS"), ("EW", ew_pair, "EW")):
            found = members.get(pair_key(section, side, number, pd), [])
            for s, who in zip(seats, found, strict=False):
                if who:
                    out[s] = who
        for s in "NESW":
            who = explicit.get((section, table, round_no, s))
            if who:
                out[s] = who
        return out

    return seats_at, members
