"""Session setup: which event, section, table and round this tablet runs, and who plays what.

Typed in by the TD at the table, or taken from the station's movement when one is connected
(`from_station`). Validation happens here so that a bad setup is refused with a clear message
before anything reaches the journal.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any

from tablet_app import pin

POLICIES = ("prevent", "record")
MOVEMENTS = ("mitchell", "howell", "station")


# What a TD calls each field (an error message never shows an internal field name).
FIELD_LABELS = {
    "event": "Event", "section": "Section", "table": "Table number", "round": "Round",
    "boards": "Boards", "ns_pair": "North-South pair number", "ew_pair": "East-West pair number",
    "profile": "Regulations", "policy": "Irregularity policy", "td_pin": "Director PIN",
    "tables": "Tables in the section", "movement": "Movement", "tray_delay_s": "Tray delay",
    "no_alerts_by": "Pairs not alerting", "pairs_per_direction": "Pair numbering",
    "settings": "Bridgemate settings", "station_session": "Scoring program's session",
    "screens": "Screens",
}

# What the table does without the club's Bridgemate settings (a typed-in setup, or a section the
# scoring program sent none for): the table's own result only; the lead may be entered or left
# out ("optional": no club rule either way); no score recap.
DEFAULT_SETTINGS: dict[str, Any] = {"show_results": "own", "lead_entry": "optional", "score_recap": False,
                                    "next_seating": True}
SETTING_CHOICES = {"show_results": ("none", "own", "all", "round_end"),
                   "lead_entry": ("none", "enter", "validate", "optional")}


class SetupError(ValueError):
    """A session setup the tablet cannot run. `str()` is one English sentence in the TD's words;
    `key` and `params` let a screen say the same in its own language (`tablet_app.i18n`):
    `key` is `setup.<what>`, `params` fills it (`field` is one of FIELD_LABELS' keys)."""

    def __init__(self, message: str, key: str = "setup.invalid", **params: Any):
        super().__init__(message)
        self.key = key
        self.params = params


def _field_error(field: str, what: str, key: str, **params: Any) -> SetupError:
    return SetupError(f"{FIELD_LABELS.get(field, field)}: {what}", key, field=field, **params)


@dataclasses.dataclass(frozen=True)
class Session:
    event: str
    section: str
    table: int
    round: int
    boards: tuple[int, ...]
    ns_pair: int
    ew_pair: int
    profile: str = ""  # the club's regulations: no built-in default (the club or the TD chooses)
    policy: str | None = None  # None: the profile's own policy
    # The director PIN (tablet_app/pin.py): `{"algorithm": "station"}` when the station checks it,
    # else a salted hash of digits typed in at this tablet (hashed on the way in, never kept).
    # No default: the club sets it (station or setup).
    td_pin: dict[str, Any] | None = None
    tables: int = 1  # tables in the section, for the round-end movement
    movement: str = "mitchell"
    next_positions: dict[str, Any] | None = None  # given by the station's movement
    # The TD may lengthen or shorten the tray's minimum time on a side (WBF Code of Practice:
    # vary it); None keeps the profile's value.
    tray_delay_s: float | None = None
    # FSB L115A1-A2: the pairs asked by their opponents at this table not to alert ("NS", "EW").
    no_alerts_by: tuple[str, ...] = ()
    # A Mitchell numbers its pairs per direction (NS 1 and EW 1 are two pairs, and meet at table
    # 1 in round 1); a Howell numbers each pair once. None: from `movement` (a typed-in
    # Mitchell is per direction); the station's movement says it (`from_station`).
    pairs_per_direction: bool | None = None
    # The club's Bridgemate settings from the station's movement (docs/station.md `settings`):
    # `show_results`, `lead_entry`, `score_recap`, `next_seating`, and the scoring program's own
    # `bm2`/`bm3` fields. None: typed in at the table (DEFAULT_SETTINGS).
    settings: dict[str, Any] | None = None
    # The scoring program's session (its SessionGuid) the station's movement belongs to: the
    # tablet asks for its next round with it, so a session the scoring program initialises
    # meanwhile does not take the table over (docs/station.md "Events and sessions").
    station_session: str | None = None
    # Screens at this table, as the organiser set them for the event, section or table (the
    # station's movement, or the TD at setup): True on, False off, None the regulation's own
    # setting. On only under a regulation with screen rules (FSB L114, 2007/2017 L80B2(e)).
    screens: bool | None = None

    def setting(self, name: str) -> Any:
        """One plain-words setting, the default where the club sent none."""
        value = (self.settings or {}).get(name)
        return DEFAULT_SETTINGS.get(name) if value is None else value

    def __post_init__(self) -> None:
        if isinstance(self.td_pin, str) and pin.valid_digits(self.td_pin):
            object.__setattr__(self, "td_pin", pin.hash_pin(self.td_pin))

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["boards"] = list(self.boards)
        d["no_alerts_by"] = list(self.no_alerts_by)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Session:
        if not isinstance(d, dict):
            raise SetupError("the setup must be a set of named fields", "setup.not_a_setup")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = set(d) - known
        if unknown:
            names = ", ".join(sorted(map(str, unknown)))
            raise SetupError(f"the setup has fields this tablet does not know: {names}", "setup.unknown_fields",
                             fields=names)
        required = [f.name for f in dataclasses.fields(cls)
                    if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
        missing = [n for n in required if n not in d]
        if missing:
            labels = ", ".join(FIELD_LABELS.get(n, n) for n in missing)
            raise SetupError(f"the setup is missing: {labels}", "setup.missing", fields=",".join(missing))
        d = dict(d)
        if "boards" in d:
            d["boards"] = parse_boards(d["boards"])
        if isinstance(d.get("no_alerts_by"), list):
            d["no_alerts_by"] = tuple(d["no_alerts_by"])
        if isinstance(d.get("section"), str):
            # typed `a` is the section the station knows as `A` (its keys are upper case)
            d["section"] = d["section"].strip().upper()
        if isinstance(d.get("event"), str):
            d["event"] = d["event"].strip()
        s = cls(**d)
        s.validate()
        return s

    @property
    def per_direction(self) -> bool:
        if self.pairs_per_direction is not None:
            return self.pairs_per_direction
        return self.movement == "mitchell"

    def validate(self) -> None:
        if not isinstance(self.event, str) or not re.fullmatch(r"[A-Za-z0-9._-]{1,64}", self.event):
            raise _field_error("event", "give the event's name in letters, digits, '.', '_' or '-' "
                                        f"(e.g. club-2026-11-22), not {self.event!r}", "setup.event", value=str(self.event))
        if not isinstance(self.section, str) or not re.fullmatch(r"[A-Z]{1,3}", self.section):
            raise _field_error("section", f"give 1 to 3 letters (e.g. A), not {self.section!r}", "setup.section",
                               value=str(self.section))
        for name in ("table", "round", "ns_pair", "ew_pair", "tables"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 9999:
                raise _field_error(name, f"give a whole number from 1 up, not {v!r}", "setup.whole_number",
                                   value=str(v))
        if self.pairs_per_direction not in (None, True, False):
            raise _field_error("pairs_per_direction", "true or false", "setup.invalid")
        if self.ns_pair == self.ew_pair and not self.per_direction:
            raise SetupError(f"North-South and East-West cannot both be pair {self.ns_pair}: in a Howell each "
                             "pair has one number", "setup.same_pair", pair=self.ns_pair)
        if not self.boards:
            raise _field_error("boards", "the round needs at least one board", "setup.no_boards")
        if len(set(self.boards)) != len(self.boards):
            twice = next(b for b in self.boards if self.boards.count(b) > 1)
            raise _field_error("boards", f"board {twice} is listed twice", "setup.board_twice", board=twice)
        if self.policy is not None and self.policy not in POLICIES:
            raise _field_error("policy", f"choose {' or '.join(POLICIES)}, not {self.policy!r}", "setup.choice",
                               value=str(self.policy), choices=",".join(POLICIES))
        if not isinstance(self.profile, str) or not self.profile:
            raise _field_error("profile", "choose the club's regulations", "setup.profile", value=str(self.profile))
        self._validate_pin()
        self._validate_settings()
        if self.station_session is not None and not (
                isinstance(self.station_session, str) and re.fullmatch(r"[0-9A-F]{32}", self.station_session)):
            raise _field_error("station_session", "the station's session id is 32 characters 0-9, A-F",
                               "setup.invalid")
        if self.screens not in (None, True, False):
            raise _field_error("screens", f"true or false, not {self.screens!r}", "setup.invalid")
        if self.movement not in MOVEMENTS:
            raise _field_error("movement", f"choose {', '.join(MOVEMENTS)}, not {self.movement!r}", "setup.choice",
                               value=str(self.movement), choices=",".join(MOVEMENTS))
        if self.tray_delay_s is not None and not (
            isinstance(self.tray_delay_s, int | float) and not isinstance(self.tray_delay_s, bool)
            and 0 <= self.tray_delay_s <= 120
        ):
            raise _field_error("tray_delay_s", "give a number of seconds from 0 to 120", "setup.tray_delay",
                               value=str(self.tray_delay_s))
        if not isinstance(self.no_alerts_by, tuple) or any(x not in ("NS", "EW") for x in self.no_alerts_by):
            raise _field_error("no_alerts_by", f"list the pairs NS / EW who do not alert, not {self.no_alerts_by!r}",
                               "setup.no_alerts", value=str(self.no_alerts_by))
        if self.table > self.tables:
            raise _field_error("table", f"table {self.table} does not exist in a section of {self.tables} tables",
                               "setup.table_not_in_section", table=self.table, tables=self.tables)

    def _validate_settings(self) -> None:
        if self.settings is None:
            return
        if not isinstance(self.settings, dict):
            raise _field_error("settings", "the club's settings must be a set of named values", "setup.invalid")
        for name, choices in SETTING_CHOICES.items():
            value = self.settings.get(name)
            if value is not None and value not in choices:
                raise _field_error("settings", f"{name} must be {' or '.join(choices)}, not {value!r}",
                                   "setup.choice", value=str(value), choices=",".join(choices))
        for name in ("score_recap", "next_seating"):
            if self.settings.get(name) not in (None, True, False):
                raise _field_error("settings", f"{name} must be true or false", "setup.invalid")

    def _validate_pin(self) -> None:
        if self.td_pin is None or self.td_pin == "":
            raise _field_error("td_pin", "the club has not set one: type 4 to 8 digits (or set it at the station)",
                               "setup.pin_missing")
        if not pin.valid_verifier(self.td_pin):
            raise _field_error("td_pin", "give 4 to 8 digits", "setup.pin_format")


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
                raise _field_error("boards", f"cannot read {spec!r}: write e.g. 1-3 or 1,2,5", "setup.board_list",
                                   value=str(spec))
            lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
            if hi < lo:
                raise _field_error("boards", f"{part} runs backwards", "setup.board_range", value=part)
            if hi - lo > 999:
                raise _field_error("boards", f"{part} is more boards than a round has", "setup.board_range",
                                   value=part)
            items.extend(range(lo, hi + 1))
    else:
        raise _field_error("boards", f"cannot read {spec!r}: write e.g. 1-3 or 1,2,5", "setup.board_list",
                           value=str(spec))
    for b in items:
        if isinstance(b, bool) or not isinstance(b, int) or b < 1:
            raise _field_error("boards", f"board numbers are whole numbers from 1 up, not {b!r}",
                               "setup.board_number", value=str(b))
    return tuple(items)


def from_station(movement: dict[str, Any], table: int, round_: int, *, defaults: dict[str, Any] | None = None,
                 **extra: Any) -> Session:
    """Build the setup from the station's movement record for this table and round.

    The station sends `{"event", "section", "tables", "rounds": {"<round>": {"<table>":
    {"ns": 1, "ew": 8, "boards": [..], "next": {...}}}}}`, and may add `pairs_per_direction`
    (a Mitchell's numbering), `profile` (the club's regulations) and `screens` (the organiser put
    screens on this table); anything missing is a
    SetupError. What the TD chose at the table (`extra`) wins over the station's settings, and
    those over the tablet's own (`defaults`: `profile`, `director_pin`).
    """
    defaults = defaults or {}
    try:
        rounds = movement["rounds"]
        slot = rounds[str(round_)][str(table)]
        fields = {
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
            "pairs_per_direction": per_direction(movement),
            # the club's Bridgemate settings ({} when the scoring program sent none: defaults)
            "settings": dict(movement["settings"]) if isinstance(movement.get("settings"), dict) else {},
            "station_session": movement["session"] if isinstance(movement.get("session"), str) else None,
        }
    except (KeyError, TypeError) as exc:
        raise SetupError(f"the station's movement has no pairs and boards for table {table}, round {round_}",
                         "setup.movement_missing", table=table, round=round_) from exc
    if defaults.get("profile"):
        fields["profile"] = defaults["profile"]
    if defaults.get("director_pin"):
        fields["td_pin"] = defaults["director_pin"]
    if isinstance(movement.get("profile"), str) and movement["profile"]:
        fields["profile"] = movement["profile"]
    if isinstance(movement.get("director_pin"), dict):
        fields["td_pin"] = movement["director_pin"]  # the station checks the club's PIN
    if "screens" in movement:
        fields["screens"] = movement["screens"]  # the organiser's screens for this table (checked)
    return Session.from_dict({**fields, **{k: v for k, v in extra.items() if v is not None}})


def per_direction(movement: dict[str, Any]) -> bool:
    """Whether the movement numbers pairs per direction (a Mitchell): the station says so, or a
    pair number on both sides of one table says it (in a Howell no pair meets itself)."""
    said = movement.get("pairs_per_direction")
    if isinstance(said, bool):
        return said
    for tables in (movement.get("rounds") or {}).values():
        for slot in (tables or {}).values():
            if isinstance(slot, dict) and slot.get("ns") is not None and slot.get("ns") == slot.get("ew"):
                return True
    return False
