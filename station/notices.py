"""What the station tells the TD of its own troubles, as a code with parameters: the `.bws`
bridge's errors and held boards, what keeps a movement from holding a team match, why a stored
row is damaged. The director page says each in the TD's language from its code
(station/notice_texts.py); the English, the same words filled the same way, goes to the station's
output, `/api/v1/health`, status.json and the exceptions' messages, as before.

As the station's refusals carry a code beside their English (shared_rules/records/refusals.py),
these do; but they never leave the station, so they live here. A parameter is a whole number, a
text (a path, a key, a driver's own message: shown as given), or another notice (a cause said in
the same language; a tuple of them is said one after the other, "; " between). `FIELDS` is the
contract: the parameters each code carries. Pure data, no I/O.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final, Union


class NoticeCode(StrEnum):
    # the .bws bridge (station/bws/): the file
    BWS_MISSING = "bws.missing"
    BWS_CHANGED_WHILE_OPEN = "bws.changed_while_open"
    BWS_LOCKED = "bws.locked"
    BWS_UNREADABLE = "bws.unreadable"
    BWS_DRIVER = "bws.driver"
    BWS_NO_PYODBC = "bws.no_pyodbc"
    BWS_NO_DRIVER = "bws.no_driver"
    BWS_NOT_SESSION = "bws.not_session"
    BWS_UNPLAYABLE = "bws.unplayable"
    BWS_REPLACED = "bws.replaced"
    BWS_INTERNAL = "bws.internal"
    # the .bws bridge: a movement it cannot play (station/bws/session.py)
    MOVE_SECTION_LETTER = "movement.section_letter"
    MOVE_LETTER_TWICE = "movement.letter_twice"
    MOVE_EMPTY = "movement.empty"
    MOVE_NO_SECTION = "movement.no_section"
    MOVE_NUMBERS = "movement.numbers"
    MOVE_TWICE = "movement.twice"
    MOVE_PAIRS = "movement.pairs"
    MOVE_BOARDS = "movement.boards"
    MOVE_PAIR_TWICE = "movement.pair_twice"
    # the .bws replaced: why it is another file, what the earlier results do not fit (fileid.py)
    FILE_WAS_MISSING = "file.was_missing"
    FILE_OTHER = "file.other"
    FILE_SHORTER = "file.shorter"
    FILE_OLDER = "file.older"
    FILE_SESSION_ROWS = "file.session_rows"
    FILE_EMPTIED = "file.emptied"
    FILE_OTHER_SESSION = "file.other_session"
    FILE_NO_TABLE = "file.no_table"
    FILE_OTHER_PAIRS = "file.other_pairs"
    FILE_OTHER_BOARDS = "file.other_boards"
    # the .bws bridge: a board or an entry held out of the file
    HELD_NOT_IN_MOVEMENT = "held.not_in_movement"
    HELD_CHANGED_BY_HAND = "held.changed_by_hand"
    HELD_NO_RESULT = "held.no_result"
    HELD_CANNOT_WRITE = "held.cannot_write"
    HELD_DAMAGED = "held.damaged"
    HELD_NO_PLAYER_TABLE = "held.no_player_table"
    HELD_PLAYERS_NOT_IN_MOVEMENT = "held.players_not_in_movement"
    # a team match the movement cannot hold (station/matches.py, station/match_store.py)
    MATCH_BOARDS_DIFFER = "match.boards_differ"
    MATCH_ONE_ROOM = "match.one_room"
    MATCH_NS_TWICE = "match.ns_twice"
    MATCH_MATES_MISSING = "match.mates_missing"
    MATCH_MATES_DISAGREE = "match.mates_disagree"
    MATCH_NO_OTHER_ROOM = "match.no_other_room"
    MATCH_PLAYS_ITSELF = "match.plays_itself"
    MATCH_ROOM_TWICE = "match.room_twice"
    MATCH_BOTH_ROOMS = "match.both_rooms"
    MATCH_NO_COMMON_ROUND = "match.no_common_round"
    MATCH_NO_TEAMS_IN_ROUND = "match.no_teams_in_round"
    MATCH_ROUNDS_DIFFER = "match.rounds_differ"
    MATCH_HOME_ABSENT = "match.home_absent"
    MATCH_SET_TWICE = "match.set_twice"
    MATCH_IN_SECTIONS = "match.in_sections"
    MATCH_SET_BY_TD = "match.set_by_td"
    MATCH_BOARD = "match.board"
    # a bye or a walk-over the station cannot score yet (station/match_byes.py, station/match_walkovers.py)
    BYE_NO_VALUE = "bye.no_value"
    BYE_VALUE_OTHER_SCALE = "bye.value_other_scale"
    BYE_TEAM_PLAYS = "bye.team_plays"
    WALKOVER_RESULTS = "walkover.results"
    WALKOVER_OTHER_SCALE = "walkover.other_scale"
    # a damaged stored row (station/stored.py)
    STORED_KIND = "stored.kind"
    STORED_KEY_TEXT = "stored.key_text"
    STORED_TIME = "stored.time"
    STORED_NOT_UTF8 = "stored.not_utf8"
    STORED_NOT_TEXT = "stored.not_text"
    STORED_TOO_LONG = "stored.too_long"
    STORED_TOO_DEEP = "stored.too_deep"
    STORED_NOT_JSON = "stored.not_json"
    STORED_NOT_OBJECT = "stored.not_object"
    STORED_COLUMN = "stored.column"
    STORED_PAYLOAD = "stored.payload"
    STORED_FILED = "stored.filed"
    STORED_TD_STATUS = "stored.td_status"
    STORED_FIELD = "stored.field"
    STORED_CHECK = "stored.check"
    # said inside others
    AND_MORE = "and_more"


C = NoticeCode
_WHERE = ("section", "table", "round", "board")
# The parameters each code carries (all of them, always; the English says each, the Swedish and
# Danish may leave out a `detail` that is English itself: `ENGLISH_ONLY`). `path`, `key`, `detail`, `error` are
# texts shown as given (a path, a key, a driver's or a check's English naming a field);
# `boards`, `teams`, `sections` lists written "1, 2, 3" (boards "1-4" when a run).
FIELDS: Final[dict[NoticeCode, tuple[str, ...]]] = {
    C.BWS_MISSING: ("path",), C.BWS_CHANGED_WHILE_OPEN: ("path",), C.BWS_LOCKED: ("path", "detail"),
    C.BWS_UNREADABLE: ("path", "detail"), C.BWS_DRIVER: ("path", "detail"), C.BWS_NO_PYODBC: (),
    C.BWS_NO_DRIVER: (), C.BWS_NOT_SESSION: ("path", "missing"), C.BWS_UNPLAYABLE: ("path", "problems", "more"),
    C.BWS_REPLACED: ("path", "why", "first", "more"), C.BWS_INTERNAL: ("error",),
    C.MOVE_SECTION_LETTER: ("section", "letter"), C.MOVE_LETTER_TWICE: (), C.MOVE_EMPTY: (),
    C.MOVE_NO_SECTION: ("section",), C.MOVE_NUMBERS: ("section", "table", "round"),
    C.MOVE_TWICE: ("section", "table", "round"), C.MOVE_PAIRS: ("section", "table", "round", "ns", "ew"),
    C.MOVE_BOARDS: ("section", "table", "round", "low", "high"),
    C.MOVE_PAIR_TWICE: ("section", "table", "round", "side", "pair", "other"),
    C.FILE_WAS_MISSING: (), C.FILE_OTHER: (), C.FILE_SHORTER: ("before", "now"), C.FILE_OLDER: (),
    C.FILE_SESSION_ROWS: ("before", "now"), C.FILE_EMPTIED: (), C.FILE_OTHER_SESSION: ("before", "now"),
    C.FILE_NO_TABLE: _WHERE, C.FILE_OTHER_PAIRS: (*_WHERE, "ns", "ew", "new_ns", "new_ew"),
    C.FILE_OTHER_BOARDS: (*_WHERE, "low", "high"),
    C.HELD_NOT_IN_MOVEMENT: _WHERE, C.HELD_CHANGED_BY_HAND: (*_WHERE, "changed", "revision"),
    C.HELD_NO_RESULT: (*_WHERE, "revision"), C.HELD_CANNOT_WRITE: (*_WHERE, "error"), C.HELD_DAMAGED: ("key",),
    C.HELD_NO_PLAYER_TABLE: ("n",), C.HELD_PLAYERS_NOT_IN_MOVEMENT: ("section", "table", "round"),
    C.MATCH_BOARDS_DIFFER: ("room", "round", "boards", "other", "other_round", "other_boards", "ns", "ew"),
    C.MATCH_ONE_ROOM: ("room", "round", "ns", "ew", "other", "other_round", "other_ns", "other_ew", "teams"),
    C.MATCH_NS_TWICE: ("team", "room", "round", "other", "other_round"),
    C.MATCH_MATES_MISSING: ("room", "round", "other", "other_round"),
    C.MATCH_MATES_DISAGREE: ("room", "round", "other", "other_round", "third", "third_round"),
    C.MATCH_NO_OTHER_ROOM: ("room", "round", "ns", "ew", "boards"),
    C.MATCH_PLAYS_ITSELF: ("room", "round", "team"), C.MATCH_ROOM_TWICE: ("room", "round"),
    C.MATCH_BOTH_ROOMS: ("table",), C.MATCH_NO_COMMON_ROUND: ("open", "closed"),
    C.MATCH_NO_TEAMS_IN_ROUND: ("table", "round"), C.MATCH_ROUNDS_DIFFER: (), C.MATCH_HOME_ABSENT: ("team", "teams"),
    C.MATCH_SET_TWICE: ("room", "round", "first", "second"), C.MATCH_IN_SECTIONS: ("sections", "why"),
    C.MATCH_SET_BY_TD: ("open", "closed", "why"), C.MATCH_BOARD: ("board", "detail"),
    C.BYE_NO_VALUE: ("scale", "profile", "teams"), C.BYE_VALUE_OTHER_SCALE: ("vp", "given", "scale"),
    C.BYE_TEAM_PLAYS: ("team", "round"), C.WALKOVER_RESULTS: ("match",),
    C.WALKOVER_OTHER_SCALE: ("match", "given", "scale"),
    C.STORED_KIND: ("kind",), C.STORED_KEY_TEXT: (), C.STORED_TIME: (), C.STORED_NOT_UTF8: (),
    C.STORED_NOT_TEXT: ("type",), C.STORED_TOO_LONG: ("chars", "limit"), C.STORED_TOO_DEEP: ("limit",),
    C.STORED_NOT_JSON: ("detail",), C.STORED_NOT_OBJECT: ("type",), C.STORED_COLUMN: ("column", "value", "want"),
    C.STORED_PAYLOAD: ("field", "value", "want"), C.STORED_FILED: ("column", "value", "want"),
    C.STORED_TD_STATUS: ("status", "key_status"), C.STORED_FIELD: ("field", "detail"), C.STORED_CHECK: ("detail",),
    C.AND_MORE: ("n",),
}

ENGLISH_ONLY: Final = frozenset({"detail"})
MAX_DEPTH = 4      # notices inside notices, as read back from JSON
MAX_TEXT = 400     # characters of one text parameter, as read back
Value = Union[str, int, "Notice", tuple["Notice", ...]]
_CODES: Final = frozenset(c.value for c in NoticeCode)


@dataclass(frozen=True, slots=True)
class Notice:
    """A code and its parameters; `str()` is the English (station/notice_texts.py)."""

    code: NoticeCode
    params: Mapping[str, Value] = field(default_factory=dict)

    @classmethod
    def of(cls, code: NoticeCode, **params: object) -> Notice:
        """The notice with its parameters: a notice or a list of notices kept as such, another
        list written "1, 2, 3", anything else but a whole number as its text."""
        return cls(code, {k: _param(v) for k, v in params.items()})

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code.value, "params": {k: _json(v) for k, v in self.params.items()}}

    @classmethod
    def from_json(cls, doc: Any, depth: int = 0) -> Notice | None:
        """The notice a stored status holds; None for anything else (a status an older station
        wrote, a code this station does not know): the caller shows the English then."""
        if not isinstance(doc, Mapping) or depth > MAX_DEPTH:
            return None
        name, params = doc.get("code"), doc.get("params")
        if not isinstance(name, str) or name not in _CODES or not isinstance(params, Mapping):
            return None
        code = NoticeCode(name)
        if set(params) != set(FIELDS[code]):
            return None
        clean: dict[str, Value] = {}
        for k, v in params.items():
            got = _read(v, depth)
            if got is None:
                return None
            clean[k] = got
        return cls(code, clean)

    def __str__(self) -> str:
        from .notice_texts import say

        return say(self, "en")


def _param(value: object) -> Value:
    if isinstance(value, Notice):
        return value
    if isinstance(value, (list, tuple)) and value and all(isinstance(x, Notice) for x in value):
        return tuple(value)
    if isinstance(value, (list, tuple, set, frozenset, range)):
        return ", ".join(str(x) for x in value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return str(value)


def _json(value: Value) -> Any:
    if isinstance(value, Notice):
        return value.to_json()
    if isinstance(value, tuple):
        return [x.to_json() for x in value]
    return value


def _read(value: Any, depth: int) -> Value | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        return value[:MAX_TEXT]
    if isinstance(value, Mapping):
        return Notice.from_json(value, depth + 1)
    if isinstance(value, list) and len(value) <= 20:
        got = [Notice.from_json(x, depth + 1) for x in value]
        return tuple(x for x in got if x is not None) if all(x is not None for x in got) else None
    return None


def more(n: int) -> Notice | str:
    """" (and n more)" after a first few, or nothing."""
    return Notice.of(C.AND_MORE, n=n) if n > 0 else ""
