"""The result record (tablet -> station): one board played (or adjusted) at a table, and the
withdrawal of a result recorded on the wrong board. docs/interfaces.md section 3 points here.

`Result.to_json()` is the tablet's form, byte for byte; `read_result` is the station's check of
one (every rule and message of the door). Both keep the fields the contract does not name
(`extra`): the station has always stored them as sent.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .auction_log import Irregularity, LoggedCall, read_auction
from .errors import RecordError
from .fields import (
    CONTRACT_RE,
    LEAD_RE,
    SEATS,
    VULS,
    Json,
    Time,
    extra_fields,
    flag,
    required_moment,
    required_text,
    required_whole,
    round_and_board,
    text,
    whole,
)
from .keys import ResultKey, TableId
from .refusals import RefusalCode, Refused

ADJUSTED_KINDS = ("artificial", "assigned", "weighted", "split")
ARTIFICIAL = ("avg-", "avg", "avg+")
_PLACE = ("event", "section", "table", "round", "board")
RESULT_FIELDS = frozenset({"key", *_PLACE, "ns_pair", "ew_pair", "dealer", "vulnerability", "contract",
                           "declarer", "tricks", "lead", "score_ns", "ew_confirmed", "adjusted", "auction",
                           "irregularities", "td_calls", "entered_at", "correction"})
WITHDRAWAL_FIELDS = frozenset({"key", *_PLACE, "ns_pair", "ew_pair", "withdrawn", "reason", "correction",
                               "entered_at", "contract", "declarer", "tricks", "score_ns", "adjusted"})


@dataclass(frozen=True, slots=True)
class Result:
    """A board's result at a table (docs/interfaces.md section 3). `contract` "PASS": passed out
    (no declarer, no tricks); None: not played, `adjusted` says what the TD awarded (Law 12).
    `score_ns` is the Law 77 score unless the score is adjusted. `correction` says who changed
    an agreed result and why (Law 79C; a move to another board, Law 15), as the tablet wrote it."""

    key: ResultKey
    ns_pair: int
    ew_pair: int
    dealer: str
    vulnerability: str
    contract: str | None
    declarer: str | None
    tricks: int | None
    lead: str | None
    score_ns: int | None
    entered_at: Time
    ew_confirmed: bool = True
    adjusted: Mapping[str, Any] | None = None
    auction: tuple[LoggedCall, ...] = ()
    irregularities: tuple[Irregularity, ...] = ()
    td_calls: tuple[Any, ...] = ()  # the tablet's own TD-call entries, carried for the record
    correction: Mapping[str, Any] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def board(self) -> int:
        return self.key.board

    def to_json(self) -> dict[str, Any]:
        k = self.key
        out: dict[str, Any] = {
            "key": k.format(), "event": k.table_id.event, "section": k.table_id.section, "table": k.table_id.table,
            "round": k.round, "board": k.board, "ns_pair": self.ns_pair, "ew_pair": self.ew_pair,
            "dealer": self.dealer, "vulnerability": self.vulnerability,
            "contract": self.contract, "declarer": self.declarer, "tricks": self.tricks, "lead": self.lead,
            "score_ns": self.score_ns, "ew_confirmed": self.ew_confirmed,
            "adjusted": None if self.adjusted is None else dict(self.adjusted),
            "auction": [c.to_json() for c in self.auction],
            "irregularities": [x.to_json() for x in self.irregularities],
            "td_calls": list(self.td_calls),
            "entered_at": self.entered_at,
        }
        if self.correction is not None:
            out["correction"] = dict(self.correction)
        out.update(self.extra)
        return out

    @classmethod
    def from_json(cls, payload: Any, key: str | None = None) -> Result:
        """The station's check (`item.read_item`) of a result; `key` defaults to the payload's."""
        rec = _read_result_item(payload, key)
        if not isinstance(rec, Result):
            raise RecordError("withdrawn: a withdrawal is not a result")
        return rec


@dataclass(frozen=True, slots=True)
class Withdrawal:
    """A result taken back (recorded on the wrong board, or not to stand): the next revision of
    its key, carrying no result. The scoring program sees the result deleted (ResultDTO IsDeleted)."""

    key: ResultKey
    ns_pair: int
    ew_pair: int
    entered_at: Time
    reason: str | None = None
    correction: Mapping[str, Any] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def board(self) -> int:
        return self.key.board

    def to_json(self) -> dict[str, Any]:
        k = self.key
        out: dict[str, Any] = {
            "event": k.table_id.event, "section": k.table_id.section, "table": k.table_id.table,
            "round": k.round, "board": k.board, "ns_pair": self.ns_pair, "ew_pair": self.ew_pair,
            "key": k.format(), "withdrawn": True, "reason": self.reason,
        }
        if self.correction is not None:
            out["correction"] = dict(self.correction)
        out["entered_at"] = self.entered_at
        out.update(self.extra)
        return out

    @classmethod
    def from_json(cls, payload: Any, key: str | None = None) -> Withdrawal:
        rec = _read_result_item(payload, key)
        if not isinstance(rec, Withdrawal):
            raise RecordError("withdrawn: expected true (or leave it out)")
        return rec


def _read_result_item(payload: Any, key: str | None) -> Any:
    """The station's check of a result item, a result or a withdrawal; `key` defaults to the
    payload's."""
    from .item import read_item  # item.py reads every kind: it imports this module

    return read_item("result", payload.get("key") if key is None and isinstance(payload, dict) else key, payload)


def law77_score(contract: str, declarer: str | None, tricks: int | None, vulnerability: str) -> int:
    """The Law 77 score from North-South's side, by the project's one scorer."""
    from shared_rules.scoring import score

    return int(score(contract, declarer or "N", tricks or 0, vulnerability))


def check_adjusted(payload: Json) -> Mapping[str, Any]:
    """An adjusted score must be complete enough to score (shared_rules.scoring.adjusted, 2007/2017
    Law 12): an artificial or split score has both sides, an assigned one a score or contract."""
    adjusted = payload.get("adjusted")
    if not isinstance(adjusted, dict) or adjusted.get("kind") not in ADJUSTED_KINDS:
        raise RecordError(f"adjusted: expected null or an object with kind one of {', '.join(ADJUSTED_KINDS)}")
    if adjusted["kind"] == "artificial":
        for side in ("ns", "ew"):
            if adjusted.get(side) not in ARTIFICIAL:
                raise RecordError(f"adjusted.{side}: expected one of {', '.join(ARTIFICIAL)}")
    if adjusted["kind"] == "assigned" and "contract" in adjusted:
        text(adjusted, "contract", CONTRACT_RE)
        if adjusted["contract"] != "PASS":
            text(adjusted, "declarer", choices=SEATS)
            whole(adjusted, "tricks", 0, 13)
    from shared_rules.scoring.adjusted import side_values
    from shared_rules.scoring.rules import get_rules

    # The jurisdiction's limits on who may weight (FSB: not the TD) are the scoring's to apply;
    # here only completeness is checked.
    rules = dataclasses.replace(get_rules("fsb-2007"), weighting_by_td=True)
    try:
        side_values(dict(payload), rules)
    except (ValueError, TypeError, KeyError, ArithmeticError) as e:
        raise RecordError(f"adjusted: {str(e)[:200]}") from None
    return adjusted


def _revision_in(key: str, lowest: int, why: str) -> int:
    # The door finds the revision as it always has (the key's last segment), so a malformed key
    # gets the message it always got; the key is then compared whole with the one the fields
    # give (read_item), which is what makes it well-formed.
    parts = key.rsplit("/", 1)
    if len(parts) == 2 and parts[1].isdigit():
        try:
            if int(parts[1]) >= lowest:
                return int(parts[1])
        except ValueError:  # a digit int() cannot read (superscripts): not a revision either
            pass
    raise RecordError(f"key: {why}")


def read_withdrawal(p: Json, key: str, table_id: TableId) -> tuple[Withdrawal, str]:
    """(the withdrawal, the key it must have) from a payload with `withdrawn` set."""
    if p["withdrawn"] is not True:
        raise RecordError("withdrawn: expected true (or leave it out)")
    round_no, board = round_and_board(p)
    ns_pair = required_whole(p, "ns_pair", 0, 9999)
    ew_pair = required_whole(p, "ew_pair", 0, 9999)
    for name in ("contract", "declarer", "tricks", "score_ns", "adjusted"):
        if p.get(name) is not None:
            raise RecordError(f"{name}: a withdrawal carries no result")
    reason = text(p, "reason", nullable=True)
    entered_at = required_moment(p, "entered_at")
    revision = _revision_in(key, 2, "a withdrawal is a new revision (2, 3, ...) of the result it takes back")
    want = ResultKey(table_id, round_no, board, revision)
    correction = p.get("correction")
    rec = Withdrawal(want, ns_pair, ew_pair, entered_at, reason, correction,
                     extra_fields(p, WITHDRAWAL_FIELDS))
    return rec, want.format()


def read_result(p: Json, key: str, table_id: TableId) -> tuple[Result, str]:
    """(the result, the key it must have), every field checked in the door's order."""
    round_no, board = round_and_board(p)
    ns_pair = required_whole(p, "ns_pair", 0, 9999)
    ew_pair = required_whole(p, "ew_pair", 0, 9999)
    dealer = required_text(p, "dealer", choices=SEATS)
    vul = required_text(p, "vulnerability", choices=VULS)
    adjusted = p.get("adjusted")
    if adjusted is not None:
        check_adjusted(p)
    contract = text(p, "contract", CONTRACT_RE, nullable=adjusted is not None)
    played = contract not in (None, "PASS")
    declarer = text(p, "declarer", choices=SEATS, nullable=not played)
    tricks = whole(p, "tricks", 0, 13, nullable=not played)
    if not played and (declarer is not None or tricks is not None):
        raise RecordError("declarer and tricks must be null when the board was passed out or not played")
    lead = text(p, "lead", LEAD_RE, nullable=True)
    score_ns = p.get("score_ns")
    if adjusted is None or score_ns is not None:
        if not isinstance(score_ns, int) or isinstance(score_ns, bool):
            raise RecordError(f"score_ns: expected an integer, got {score_ns!r}")
    if adjusted is None:
        assert contract is not None
        try:
            want_score = law77_score(contract, declarer, tricks, vul)
        except ValueError as e:
            raise RecordError(f"contract/tricks: {e}") from e
        if want_score != score_ns:
            raise RecordError(f"score_ns: {score_ns} does not match Law 77 ({contract} by {declarer}, "
                              f"{tricks} tricks, vulnerable {vul}: {want_score})",
                              Refused.of(RefusalCode.RECORD_SCORE, score=score_ns, law77=want_score))
    ew_confirmed = flag(p, "ew_confirmed", False)
    calls, irregularities = read_auction(p, "auction")
    td_calls = p.get("td_calls", [])
    if not isinstance(td_calls, list):
        raise RecordError("td_calls: expected a list")
    entered_at = required_moment(p, "entered_at")
    revision = _revision_in(key, 1, "a result key ends with /<revision>, revision 1, 2, ...")
    want = ResultKey(table_id, round_no, board, revision)
    rec = Result(want, ns_pair, ew_pair, dealer, vul, contract, declarer, tricks, lead, score_ns, entered_at,
                 ew_confirmed, adjusted, calls, irregularities, tuple(td_calls), p.get("correction"),
                 extra_fields(p, RESULT_FIELDS))
    return rec, want.format()
