"""Session setup: which event, section, table and round this tablet runs, and who plays what.

Typed in by the TD at the table, or taken from the station's movement when one is connected
(`from_station`). Validation happens here so that a bad setup is refused with a clear message
before anything reaches the journal.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any

POLICIES = ("prevent", "record")
MOVEMENTS = ("mitchell", "howell", "station")


class SetupError(ValueError):
    """A session setup the tablet cannot run; the message says which field and why."""


@dataclasses.dataclass(frozen=True)
class Session:
    event: str
    section: str
    table: int
    round: int
    boards: tuple[int, ...]
    ns_pair: int
    ew_pair: int
    profile: str = "fsb-2007"
    policy: str | None = None  # None: the profile's own policy
    td_pin: str = "1234"
    tables: int = 1  # tables in the section, for the round-end movement
    movement: str = "mitchell"
    next_positions: dict[str, Any] | None = None  # given by the station's movement
    # The TD may lengthen or shorten the tray's minimum time on a side (WBF Code of Practice:
    # vary it); None keeps the profile's value.
    tray_delay_s: float | None = None
    # FSB L115A1-A2: the pairs asked by their opponents at this table not to alert ("NS", "EW").
    no_alerts_by: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["boards"] = list(self.boards)
        d["no_alerts_by"] = list(self.no_alerts_by)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Session:
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = set(d) - known
        if unknown:
            raise SetupError(f"unknown session field(s): {', '.join(sorted(unknown))}")
        d = dict(d)
        if "boards" in d:
            d["boards"] = parse_boards(d["boards"])
        if isinstance(d.get("no_alerts_by"), list):
            d["no_alerts_by"] = tuple(d["no_alerts_by"])
        try:
            s = cls(**d)
        except TypeError as exc:
            raise SetupError(f"incomplete session setup: {exc}") from exc
        s.validate()
        return s

    def validate(self) -> None:
        if not self.event or not isinstance(self.event, str):
            raise SetupError("event id is required (e.g. club-2026-11-22)")
        if not re.fullmatch(r"[A-Za-z0-9]{1,4}", str(self.section)):
            raise SetupError(f"section must be 1-4 letters or digits, not {self.section!r}")
        for name in ("table", "round", "ns_pair", "ew_pair", "tables"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise SetupError(f"{name} must be a whole number from 1 up, not {v!r}")
        if self.ns_pair == self.ew_pair:
            raise SetupError("North-South and East-West cannot be the same pair")
        if not self.boards:
            raise SetupError("the round needs at least one board")
        if len(set(self.boards)) != len(self.boards):
            raise SetupError("a board appears twice in the round")
        if self.policy is not None and self.policy not in POLICIES:
            raise SetupError(f"policy must be one of {', '.join(POLICIES)}, not {self.policy!r}")
        if not re.fullmatch(r"\d{4,8}", self.td_pin):
            raise SetupError("the director PIN must be 4 to 8 digits")
        if self.movement not in MOVEMENTS:
            raise SetupError(f"movement must be one of {', '.join(MOVEMENTS)}")
        if self.tray_delay_s is not None and not (
            isinstance(self.tray_delay_s, int | float) and not isinstance(self.tray_delay_s, bool)
            and 0 <= self.tray_delay_s <= 120
        ):
            raise SetupError("tray_delay_s must be a number of seconds from 0 to 120")
        if not isinstance(self.no_alerts_by, tuple) or any(x not in ("NS", "EW") for x in self.no_alerts_by):
            raise SetupError(f"no_alerts_by lists the pairs 'NS' / 'EW' not to alert, not {self.no_alerts_by!r}")
        if self.table > self.tables:
            raise SetupError(f"table {self.table} does not exist in a section of {self.tables} tables")


def parse_boards(spec: Any) -> tuple[int, ...]:
    """`[1, 2, 3]`, `"1-3"`, `"1,2,5-7"` -> (1, 2, 3, ...). Board numbers start at 1 (Law 2)."""
    if isinstance(spec, list | tuple):
        items = list(spec)
    elif isinstance(spec, str):
        items = []
        for part in spec.replace(" ", "").split(","):
            if not part:
                continue
            m = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
            if not m:
                raise SetupError(f"cannot read board list {spec!r}: use e.g. 1-3 or 1,2,5")
            lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
            if hi < lo:
                raise SetupError(f"board range {part} runs backwards")
            items.extend(range(lo, hi + 1))
    else:
        raise SetupError(f"cannot read board list {spec!r}")
    for b in items:
        if isinstance(b, bool) or not isinstance(b, int) or b < 1:
            raise SetupError(f"board numbers are whole numbers from 1 up, not {b!r}")
    return tuple(items)


def from_station(movement: dict[str, Any], table: int, round_: int, **extra: Any) -> Session:
    """Build the setup from the station's movement record for this table and round.

    The station sends `{"event", "section", "tables", "rounds": {"<round>": {"<table>":
    {"ns": 1, "ew": 8, "boards": [..], "next": {...}}}}}`; anything missing is a SetupError.
    """
    try:
        slot = movement["rounds"][str(round_)][str(table)]
        return Session.from_dict(
            {
                "event": movement["event"],
                "section": movement["section"],
                "table": table,
                "round": round_,
                "boards": slot["boards"],
                "ns_pair": slot["ns"],
                "ew_pair": slot["ew"],
                "tables": movement.get("tables", table),
                "movement": "station",
                "next_positions": slot.get("next"),
                **extra,
            }
        )
    except KeyError as exc:
        raise SetupError(f"the station's movement has no {exc} for table {table}, round {round_}") from exc
