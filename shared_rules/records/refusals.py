"""The station's refusals as the tablet reads them: a stable code and its parameters beside the
English text (docs/interfaces.md section 3, "Refusals").

Every 4xx JSON answer of the tablet API (`POST /api/v1/items` and its batch, `GET
/api/v1/movement`, `GET /api/v1/players`, `GET /api/v1/boards/<n>/results`, `POST
/api/v1/director-pin`) carries, beside `error` (English, as every station has sent it) and
`status`, a `code` (a `RefusalCode` value) and `params` (the values its words are filled with).
The tablet and the director page say it in their language from the code
(shared_rules/vocabulary/refusals.py); a code they do not know (a newer station's), or an
answer without one (an older station's), is shown as the English text sent.

`FIELDS` is the contract: the parameters each code carries. Pure data, no I/O.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

Param = str | int


class RefusalCode(StrEnum):
    """Why the station refused a tablet's request. Grouped by what was refused."""

    # the table's id and key (every tablet request)
    TABLE_ID_FORM = "table.id_form"            # 401: no X-Table header, or not <event>/<section>/<table>
    TABLE_KEY_MISSING = "table.key_missing"    # 401: no Authorization: Bearer <key>
    TABLE_KEY_WRONG = "table.key_wrong"        # 403: no such table, or not its key
    TABLE_NOT_OWN = "table.not_own"            # 403: an item of another table
    # the request's body
    BODY_LENGTH = "body.length"                # 411: no Content-Length (or a chunked body)
    BODY_TOO_BIG = "body.too_big"              # 413: over the endpoint's limit
    # an item
    RECORD_FORM = "record.form"                # 400: not JSON, or not {kind, key, payload}
    RECORD_INVALID = "record.invalid"          # 422: a field breaks the contract (the detail says which)
    RECORD_SCORE = "record.score"              # 422: score_ns is not the contract's Law 77 score
    RECORD_CONFLICT = "record.conflict"        # 409: the key is stored with other content (Law 79C)
    BATCH_SIZE = "batch.size"                  # 422: a batch of no item or too many
    BATCH_ITEM = "batch.item"                  # 400: a batch entry that is not an object
    ROOM_FULL = "room.full"                    # 507 (413 for a progress snapshot): the table's room is full
    # Law 16 at the station (2017 L16D1, 2007 L16C1): results by the table's movement
    LAW16_NOT_IN_MOVEMENT = "law16.not_in_movement"    # 422: the table is not in the movement
    LAW16_BOARD_NOT_IN_ROUND = "law16.board_not_in_round"  # 422: not one of the round's boards
    LAW16_TOO_EARLY = "law16.too_early"        # 425: a round the table is not on yet (sent again)
    LAW16_ROUND_NOT_IN_MOVEMENT = "law16.round_not_in_movement"  # 422: a round start the movement lacks
    LAW16_READ_NOT_IN_MOVEMENT = "law16.read_not_in_movement"  # 403: a traveller of a board not the table's
    LAW16_READ_BEFORE_OWN = "law16.read_before_own"  # 403: a traveller before the table's own result
    # the movement and the player numbers
    SESSION_FORM = "movement.session_form"     # 400: ?session= is not a SessionGuid
    MOVEMENT_NO_SESSION = "movement.no_session"  # 404: the session has no such section here
    MOVEMENT_NOT_YET = "movement.not_yet"      # 404: the scoring program has sent no movement
    MOVEMENT_NO_TABLE = "movement.no_table"    # 404: the table is not in the section's movement
    PLAYERS_COUNT = "players.count"            # 400: not 1 to `most` numbers asked
    PLAYERS_NUMBER = "players.number"          # 400: not a member number
    PLAYERS_ROUND = "players.round"            # 422: numbers for a round the movement does not give
    # the director PIN (POST /api/v1/director-pin)
    PIN_REQUEST = "pin.request"                # 400: not {"pin": 4-8 digits, "nonce": hex}
    PIN_NOT_SET = "pin.not_set"                # 404: the club set no PIN at the station
    PIN_WRONG = "pin.wrong"                    # 200 (granted false): a wrong PIN
    PIN_LOCKED = "pin.locked"                  # 429: too many wrong PINs at this table
    PIN_STATION_LIMIT = "pin.station_limit"    # 429: too many wrong PINs at the station


C = RefusalCode
# The parameters each code carries (all of them, always): strings or whole numbers. `table` is
# the section and number ("A3"); `boards`, `rounds`, `missing` lists written "1, 2, 3"; `detail`
# the English words of a check that names a field (technical: shown as they are).
FIELDS: Final[dict[RefusalCode, tuple[str, ...]]] = {
    C.TABLE_ID_FORM: (), C.TABLE_KEY_MISSING: (), C.TABLE_KEY_WRONG: ("table",), C.TABLE_NOT_OWN: ("table",),
    C.BODY_LENGTH: (), C.BODY_TOO_BIG: ("size", "limit"),
    C.RECORD_FORM: ("detail",), C.RECORD_INVALID: ("detail",), C.RECORD_SCORE: ("score", "law77"),
    C.RECORD_CONFLICT: ("key",), C.BATCH_SIZE: ("most",), C.BATCH_ITEM: (),
    C.ROOM_FULL: ("table", "items", "mb"),
    C.LAW16_NOT_IN_MOVEMENT: ("table", "section"),
    C.LAW16_BOARD_NOT_IN_ROUND: ("board", "table", "round", "boards"),
    C.LAW16_TOO_EARLY: ("board", "round", "table", "current", "missing"),
    C.LAW16_ROUND_NOT_IN_MOVEMENT: ("round", "table", "rounds"),
    C.LAW16_READ_NOT_IN_MOVEMENT: ("board", "table"), C.LAW16_READ_BEFORE_OWN: ("board",),
    C.SESSION_FORM: (), C.MOVEMENT_NO_SESSION: ("section",), C.MOVEMENT_NOT_YET: ("section",),
    C.MOVEMENT_NO_TABLE: ("table", "tables"),
    C.PLAYERS_COUNT: ("most",), C.PLAYERS_NUMBER: ("number",), C.PLAYERS_ROUND: ("table", "round"),
    C.PIN_REQUEST: (), C.PIN_NOT_SET: (), C.PIN_WRONG: ("wrong_tries", "wait_s"),
    C.PIN_LOCKED: ("wrong_tries", "wait_s"), C.PIN_STATION_LIMIT: ("wait_s",),
}

MAX_PARAMS = 8
_CODES: Final = frozenset(c.value for c in RefusalCode)
MAX_PARAM_CHARS = 200


@dataclass(frozen=True, slots=True)
class Refused:
    """A refusal's code and parameters, as the station sends them beside its English text."""

    code: RefusalCode
    params: Mapping[str, Param] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code.value, "params": dict(self.params)}

    @classmethod
    def of(cls, code: RefusalCode, **params: object) -> Refused:
        """The refusal with its parameters; a list (boards, rounds) written as "1, 2, 3", anything
        else but a whole number as its text."""
        return cls(code, {k: _param(v) for k, v in params.items()})

    @classmethod
    def from_reply(cls, reply: Any) -> Refused | None:
        """The refusal a station's answer carries; None for an answer without a code this side
        knows (an older station's, a newer one's code), or parameters that are not plain values:
        the caller shows the answer's text then."""
        if not isinstance(reply, Mapping):
            return None
        name = reply.get("code")
        if not isinstance(name, str) or name not in _CODES:
            return None
        code = RefusalCode(name)
        params = reply.get("params", {})
        if not isinstance(params, Mapping) or len(params) > MAX_PARAMS:
            return None
        clean: dict[str, Param] = {}
        for k, v in params.items():
            if not isinstance(k, str) or isinstance(v, bool) or not isinstance(v, (str, int)):
                return None
            clean[k] = v if isinstance(v, int) else v[:MAX_PARAM_CHARS]
        return cls(code, clean)


def _param(value: object) -> Param:
    if isinstance(value, (list, tuple, set, frozenset, range)):
        return ", ".join(str(x) for x in value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return str(value)
