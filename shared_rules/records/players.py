"""The player-numbers item (tablet -> station): the member numbers entered at a table for a
round, as Bridgemate tables take them (each player types a number at the first board of the
round, or the director does), once the players have seen the names the station found for them.

Key: `<table id>/<round>/players/<n>`, `n` numbering the table's entries for that round (a
correction is the next entry; the station uses the latest). Payload: the table id, `round`,
`entry` (n), `numbers` {seat: number} for the seats entered (at least one), `by` (`players` or
`director`), `at`.

A member number is what federations issue and the scoring programs store (the `.bws`
`PlayerNumbers.Number` column is 16 characters): digits, at most 16, optionally after one
capital letter (the older ACBL numbers), never only zeros (`0` is "no number" in a `.bws`).
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import RecordError
from .fields import SEATS, Json, Time, extra_fields, required_moment, required_text, required_whole
from .keys import PlayersKey, TableId

PLAYER_NUMBER_RE = re.compile(r"[A-Z]?[0-9]{1,16}")
MAX_NUMBER_CHARS = 16
ENTERED_BY = ("players", "director")
PLAYERS_FIELDS = frozenset({"key", "event", "section", "table", "round", "entry", "numbers", "by", "at"})


def check_number(value: Any) -> str:
    """A member number as the table sends it, or RecordError saying what form it must have."""
    if not isinstance(value, str) or len(value) > MAX_NUMBER_CHARS or not PLAYER_NUMBER_RE.fullmatch(value) \
            or not value.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ").strip("0"):
        raise RecordError(f"player number {value!r}: expected 1 to {MAX_NUMBER_CHARS} digits (one capital letter "
                          "may come first), not only zeros")
    return value


@dataclass(frozen=True, slots=True)
class PlayerNumbers:
    """The numbers entered at a table for one round, seat -> number (only the seats entered)."""

    key: PlayersKey
    numbers: Mapping[str, str]
    by: str
    at: Time
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        k = self.key
        out: dict[str, Any] = {
            "event": k.table_id.event, "section": k.table_id.section, "table": k.table_id.table,
            "round": k.round, "entry": k.entry, "numbers": {s: self.numbers[s] for s in SEATS if s in self.numbers},
            "by": self.by, "at": self.at,
        }
        out.update(self.extra)
        return out

    @classmethod
    def from_json(cls, payload: Any, key: str) -> PlayerNumbers:
        """The station's check (`item.read_item`) of a player-numbers item."""
        from .item import read_item

        rec = read_item("players", key, payload)
        assert isinstance(rec, PlayerNumbers)
        return rec


def read_numbers(p: Json) -> dict[str, str]:
    raw = p.get("numbers")
    if not isinstance(raw, dict) or not raw:
        raise RecordError("numbers: expected an object of seat -> player number (N, E, S, W), at least one")
    out = {}
    for seat, number in raw.items():
        if seat not in SEATS:
            raise RecordError(f"numbers: {seat!r} is not a seat (N, E, S, W)")
        try:
            out[seat] = check_number(number)
        except RecordError as e:
            raise RecordError(f"numbers.{seat}: {e}") from None
    return out


def read_players(p: Json, table_id: TableId) -> tuple[PlayerNumbers, str]:
    """(the item, the key it must have), every field checked in the door's order."""
    round_no = required_whole(p, "round", 1, 99)
    entry = required_whole(p, "entry", 1, 999)
    numbers = read_numbers(p)
    by = required_text(p, "by", choices=ENTERED_BY)
    at = required_moment(p, "at")
    key = PlayersKey(table_id, round_no, entry)
    return PlayerNumbers(key, numbers, by, at, extra_fields(p, PLAYERS_FIELDS)), key.format()
