"""The events a table takes (docs/table-log.md), checked before anything changes: a malformed
event is refused with a message that says what is wrong, and changes nothing.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from shared_rules.calls import CALL_CODE, SEAT_INDEX
from shared_rules.fold import short
from shared_rules.model import EventError
from shared_rules.types import Decision, Finding

if TYPE_CHECKING:
    from shared_rules.fold import Fold

EVENT_KEYS: Final = frozenset({"t", "seat", "call", "stop", "alert", "td", "choice", "cards", "led",
                               "played_before", "taken", "tray", "shown"})
# The fields a TD finding may carry besides t and td.
FINDING_FIELDS: Final[dict[str, frozenset[str]]] = {
    Finding.WRONG_BOARD_CALL: frozenset({"seat"}),
    Finding.WRONG_BOARD: frozenset({"played_before"}),
    Finding.CANCEL_BOARD: frozenset(),
    Finding.EXPOSED_CARDS: frozenset({"seat", "cards", "led"}),
    Finding.CORRECT_CALL: frozenset({"seat", "call", "stop"}),
    Finding.MISINFORMATION_CHANGE: frozenset({"seat", "call", "stop"}),
}
# The fields the TD's answer to a pending decision may carry besides t and td: the option, and
# what the option needs (the call, the stop card shown with it, L29C's denominations).
ANSWER_FIELDS: Final = frozenset({"choice", "call", "stop", "shown"})
_CARD_SUITS, _CARD_RANKS = "SHDC", "AKQJT98765432"
# Event times are seconds from the board's start; far beyond any session, but finite floats.
T_MAX: Final = 1e12
_DECISIONS: Final = ", ".join(sorted(Decision))
_FINDINGS: Final = ", ".join(Finding)


def parse_call(value: Any) -> int:
    code = CALL_CODE.get(value) if isinstance(value, str) else None
    if code is None:
        raise EventError(f"call must be one of 1C..7NT, P, X, XX (got {value!r})")
    return code


def _check_cards(cards: Any) -> None:
    if not isinstance(cards, list) or not 1 <= len(cards) <= 13:
        raise EventError("cards must be a list of 1 to 13 cards, e.g. [\"SK\", \"H7\"]")
    for c in cards:
        if not isinstance(c, str) or len(c) != 2 or c[0] not in _CARD_SUITS or c[1] not in _CARD_RANKS:
            raise EventError(f"unknown card {c!r}: a card is a suit S H D C and a rank A K Q J T 9..2, "
                             "e.g. SK, HT, D7")
    if len(set(cards)) != len(cards):
        raise EventError("a card is listed twice")


def validate(f: Fold, ev: Any) -> tuple[str, int, int, float]:
    """(kind, seat, call code, t) of a well-formed event: kind "call" | "alert" | "tray" | "td";
    seat -1 where it has none, code 0 where it has no call."""
    if not isinstance(ev, dict):
        raise EventError(f"an event must be a JSON object, not {type(ev).__name__}")
    extra = set(ev) - EVENT_KEYS
    if extra:
        raise EventError(f"unknown event field(s): {', '.join(sorted(map(str, extra)))}")
    t = ev.get("t")
    if isinstance(t, bool) or not isinstance(t, int | float) or not 0 <= t <= T_MAX or t != t:
        raise EventError(f"t must be a non-negative number of seconds, at most {T_MAX:.0e} (got {short(t)})")
    if t < f.last_t:
        raise EventError(f"t={t} is earlier than the previous event (t={f.last_t}): events must be in "
                         "time order")
    kinds = [k for k in ("call", "alert") if k in ev]
    if "tray" in ev:
        if set(ev) != {"t", "tray"} or ev["tray"] is not True:
            raise EventError('a tray event is {"t": ..., "tray": true} (the tray passed under the screen)')
        if not f.profile.screens.enabled:
            raise EventError(f"profile {f.profile.name} plays without screens: there is no tray")
        return "tray", -1, 0, float(t)
    if "taken" in ev and ("call" not in ev or "td" in ev or not isinstance(ev["taken"], bool)):
        raise EventError("taken must be true/false, and only on a call (the card taken from the box, "
                         "FSB L112C)")
    if "td" in ev:
        if "alert" in ev:
            raise EventError("a td event cannot also be an alert")
        kind = "td"
    elif len(kinds) != 1:
        raise EventError("an event must have exactly one of 'call', 'alert', 'td'")
    else:
        kind = kinds[0]
    seat = -1
    if "seat" in ev:
        # a list or an object is no key of SEAT_INDEX either: ask the type first (unhashable)
        if not isinstance(ev["seat"], str) or ev["seat"] not in SEAT_INDEX:
            raise EventError(f"seat must be one of N, E, S, W (got {short(ev['seat'])})")
        seat = SEAT_INDEX[ev["seat"]]
    elif kind != "td":
        raise EventError(f"a {kind} event needs a seat")
    with_call = kind == "call" or (kind == "td" and "call" in ev)
    if "stop" in ev and (not isinstance(ev["stop"], bool) or not with_call):
        raise EventError("stop must be true/false, and only on an event with a call (a call, or the TD's "
                         "replacement)")
    if kind == "alert" and ev["alert"] is not True:
        raise EventError("alert must be true")
    if "shown" in ev and kind != "td":
        raise EventError("shown belongs to a td event (the TD's L29C ruling)")
    if "choice" in ev and kind != "td":
        raise EventError("choice belongs to a td event")
    _check_finding(ev, kind)
    code = 0
    if kind == "call" or (kind == "td" and "call" in ev):
        code = parse_call(ev["call"])
    if kind == "td":
        if not isinstance(ev["td"], str):
            raise EventError("td must name the decision (a string)")
        if ev["td"] not in FINDING_FIELDS and ev["td"] not in _DECISION_SET:
            raise EventError(f"unknown TD ruling kind {short(ev['td'])}: a pending decision's kind "
                             f"({_DECISIONS}) or one of {_FINDINGS}")
        if ev["td"] not in FINDING_FIELDS and "choice" not in ev:
            raise EventError("a td event needs a choice (one of the pending decision's option ids)")
    return kind, seat, code, float(t)


def _check_finding(ev: dict[str, Any], kind: str) -> None:
    """The fields of a TD event: a finding's (docs/table-log.md: Law 24 and the wrong board, the
    L25A / L21B1 corrections), or an answer's (ANSWER_FIELDS). A field of another event is named."""
    td = ev["td"] if kind == "td" and isinstance(ev["td"], str) else None
    fields = FINDING_FIELDS.get(td) if td is not None else None
    for key in ("cards", "led", "played_before"):
        if key in ev and (fields is None or key not in fields):
            raise EventError(f"{key} belongs only to a td event that takes it (see docs/table-log.md)")
    if td in _DECISION_SET:
        extra = set(ev) - ANSWER_FIELDS - {"t", "td"}
        if extra:
            raise EventError(f"the TD's answer to {td} takes no {', '.join(sorted(extra))} (it carries the "
                             "choice, and the call, stop or shown where the option needs them)")
        return
    if fields is None:
        return
    extra = set(ev) - fields - {"t", "td"}
    if extra:
        raise EventError(f"a {ev['td']} event takes no {', '.join(sorted(extra))}")
    if ev["td"] in (Finding.CORRECT_CALL, Finding.MISINFORMATION_CHANGE):
        return
    if "seat" in fields and "seat" not in ev:
        raise EventError(f"a {ev['td']} event needs the seat")
    if "led" in ev and not isinstance(ev["led"], bool):
        raise EventError("led must be true/false")
    if "played_before" in ev and not isinstance(ev["played_before"], bool):
        raise EventError("played_before must be true/false")
    if "cards" in fields:
        _check_cards(ev.get("cards"))


_DECISION_SET: Final = frozenset(Decision)
