"""Result entry: validate what North enters, compute the score, build the result record.

The record is the one of docs/interfaces.md section 3. Contract and declarer come from the auction
(the engine's state), never from a person; only tricks and the optional lead are typed (FSB 98A:
North enters, East-West verify).
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any

from shared_rules.records import Irregularity, Result, ResultKey, TableId, Withdrawal, iso_utc, logged_calls
from shared_rules.types import Status

LEAD_RE = re.compile(r"^[SHDC](?:[AKQJT98765432]|10)$")


class ResultError(ValueError):
    """A result the tablet will not accept; nothing is changed."""


def contract_of(state: dict[str, Any]) -> tuple[str, str | None]:
    if state.get("status") == Status.PASSED_OUT:
        return "PASS", None
    contract = state.get("contract")
    if not contract:
        raise ResultError("the auction has not ended: there is no contract yet")
    return str(contract), state.get("declarer")


def check_entry(state: dict[str, Any], tricks: Any, lead: Any) -> tuple[int | None, str | None]:
    contract, _ = contract_of(state)
    if contract == "PASS":
        if tricks not in (None, 0):
            raise ResultError("a passed-out board has no tricks to enter")
        return None, None
    if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 <= tricks <= 13:
        raise ResultError(f"tricks must be a whole number from 0 to 13, not {tricks!r}")
    if lead in ("", None):
        return tricks, None
    if not isinstance(lead, str) or not LEAD_RE.match(lead.upper()):
        raise ResultError(f"the lead must be a card like SA, H10 or DT, not {lead!r}")
    return tricks, lead.upper().replace("10", "T")


def compute_score(state: dict[str, Any], tricks: int | None) -> int:
    from shared_rules.scoring import score

    contract, declarer = contract_of(state)
    return int(score(contract, declarer or "N", tricks or 0, state["vulnerability"]))


def tricks_label(contract: str, tricks: int | None) -> str:
    """`4H` with 10 tricks -> `=`, 11 -> `+1`, 8 -> `-2` (how players say it)."""
    if contract == "PASS" or tricks is None:
        return ""
    level = int(contract[0])
    diff = tricks - (level + 6)
    return "=" if diff == 0 else f"{diff:+d}"


def table_key(session: dict[str, Any], board: int, revision: int = 1) -> ResultKey:
    """The key of this table's result on `board` this round (docs/interfaces.md section 3)."""
    return ResultKey(TableId(session["event"], session["section"], session["table"]), session["round"], board,
                     revision)


def result_of(
    session: dict[str, Any],
    state: dict[str, Any],
    board: int,
    tricks: int | None,
    lead: str | None,
    entered_at: float,
    revision: int = 1,
) -> Result:
    """The result record of the board just played: contract and declarer from the engine's
    state, the Law 77 score, the auction and its irregularities as the engine recorded them."""
    contract, declarer = contract_of(state)
    return Result(
        key=table_key(session, board, revision), ns_pair=session["ns_pair"], ew_pair=session["ew_pair"],
        dealer=state["dealer"], vulnerability=state["vulnerability"],
        contract=contract, declarer=declarer, tricks=tricks, lead=lead, score_ns=compute_score(state, tricks),
        entered_at=iso_utc(entered_at), ew_confirmed=True, adjusted=None,
        auction=logged_calls(state.get("calls", [])), irregularities=_irregularities(state),
    )


def record(session: dict[str, Any], state: dict[str, Any], board: int, tricks: int | None, lead: str | None,
           entered_at: float, revision: int = 1) -> dict[str, Any]:
    """`result_of` as the outbox queues it and the journal keeps it."""
    return result_of(session, state, board, tricks, lead, entered_at, revision).to_json()


def _irregularities(state: dict[str, Any]) -> tuple[Irregularity, ...]:
    return tuple(Irregularity(x) for x in state.get("irregularities", []))


ARTIFICIAL = ("avg-", "avg", "avg+")


def artificial_record(session: dict[str, Any], state: dict[str, Any], board: int, ns: str, ew: str, law: str,
                      entered_at: float, revision: int = 1) -> dict[str, Any]:
    """A board that cannot be played normally: the TD's artificial adjusted score (2007/2017 L12C2,
    e.g. Avg+ / Avg-), no contract. The scoring program turns Avg into its percentage."""
    if ns not in ARTIFICIAL or ew not in ARTIFICIAL:
        raise ResultError(f"an artificial score is one of {', '.join(ARTIFICIAL)} for each side")
    if not law or not isinstance(law, str):
        raise ResultError("name the law of the adjusted score (e.g. 2017 L12C2)")
    return Result(
        key=table_key(session, board, revision), ns_pair=session["ns_pair"], ew_pair=session["ew_pair"],
        dealer=state["dealer"], vulnerability=state["vulnerability"],
        contract=None, declarer=None, tricks=None, lead=None, score_ns=None,
        entered_at=iso_utc(entered_at), ew_confirmed=True,
        adjusted={"kind": "artificial", "ns": ns, "ew": ew, "law": law},
        auction=logged_calls(state.get("calls", [])), irregularities=_irregularities(state),
    ).to_json()


def ruled_record(session: dict[str, Any], state: dict[str, Any], board: int, adjusted: dict[str, Any],
                 entered_at: float, revision: int = 1) -> dict[str, Any]:
    """The board in play, not played to a result: the TD's assigned or weighted adjusted score
    (Law 12C1, the `adjusted` block of tablet_app/assigned.py) in place of it, no contract, as an
    artificial score is recorded (`artificial_record`)."""
    return Result(
        key=table_key(session, board, revision), ns_pair=session["ns_pair"], ew_pair=session["ew_pair"],
        dealer=state["dealer"], vulnerability=state["vulnerability"],
        contract=None, declarer=None, tricks=None, lead=None, score_ns=None,
        entered_at=iso_utc(entered_at), ew_confirmed=True, adjusted=dict(adjusted),
        auction=logged_calls(state.get("calls", [])), irregularities=_irregularities(state),
    ).to_json()


def reruled_record(previous: dict[str, Any], adjusted: dict[str, Any], entered_at: float) -> dict[str, Any]:
    """Law 12C1(a): "Den korrigerede score erstatter den score, som blev opnået ved bordet" (2017;
    2007 L12C1(a) "Ett sådant resultat ersätter det resultat som uppnåddes"): a result agreed at
    the table replaced by the TD's adjusted score, as the next revision of its record. The table's
    contract, tricks and score stay in it for the record; `adjusted` is what is scored."""
    if previous.get("withdrawn"):
        raise ResultError("a withdrawn result cannot be adjusted: the board has no result")
    rec = dict(previous)
    rec["key"] = _next_key(previous)
    rec["adjusted"] = dict(adjusted)
    rec["entered_at"] = iso_utc(entered_at)
    return rec


def corrected_record(previous: dict[str, Any], tricks: int, lead: str | None, entered_at: float) -> dict[str, Any]:
    """Law 79C: a score corrected after it was agreed is a new revision of the record, never an edit."""
    from shared_rules.scoring import score

    if previous.get("contract") in (None, "PASS"):
        raise ResultError("only a played board's tricks can be corrected")
    if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 <= tricks <= 13:
        raise ResultError(f"tricks must be a whole number from 0 to 13, not {tricks!r}")
    if lead not in (None, "") and (not isinstance(lead, str) or not LEAD_RE.match(lead.upper())):
        raise ResultError(f"the lead must be a card like SA, H10 or DT, not {lead!r}")
    rec = dict(previous)
    rec["key"] = _next_key(previous)
    rec["tricks"] = tricks
    rec["lead"] = lead.upper().replace("10", "T") if lead else previous.get("lead")
    rec["score_ns"] = int(score(previous["contract"], previous["declarer"], tricks, previous["vulnerability"]))
    rec["entered_at"] = iso_utc(entered_at)
    return rec


def _next_key(previous: dict[str, Any]) -> str:
    """Law 79C: the next revision of the record's key."""
    return ResultKey.parse(previous["key"]).next_revision().format()


def next_revision(records: list[dict[str, Any]], board: int) -> int:
    """The revision a new record of `board` takes among this round's `records`: 1, or one past
    the last (a board whose result was withdrawn or moved away and is then played again must not
    reuse a key the station already holds with other content)."""
    return 1 + max((ResultKey.parse(r["key"]).revision for r in records if r["board"] == board), default=0)


def withdrawn_record(previous: dict[str, Any], correction: dict[str, Any], entered_at: float) -> dict[str, Any]:
    """A result withdrawn (recorded on the wrong board, or not to stand): the next revision of the
    record, carrying no result, `withdrawn: true` (docs/interfaces.md section 3); the scoring
    program sees the result deleted."""
    return Withdrawal(key=ResultKey.parse(previous["key"]).next_revision(), ns_pair=previous["ns_pair"],
                      ew_pair=previous["ew_pair"], entered_at=iso_utc(entered_at), reason=correction.get("reason"),
                      correction=dict(correction)).to_json()


def moved_record(previous: dict[str, Any], board: int, revision: int, correction: dict[str, Any],
                 entered_at: float) -> dict[str, Any]:
    """The play recorded on `previous['board']` was the play of `board`: the same contract and
    tricks on that board (its dealer and vulnerability: the score follows them)."""
    from shared_rules import boards as board_rules

    rec = dict(previous)
    rec["key"] = dataclasses.replace(ResultKey.parse(previous["key"]), board=board, revision=revision).format()
    rec["board"] = board
    rec["dealer"] = board_rules.dealer(board)
    rec["vulnerability"] = board_rules.vulnerability(board)
    if rec.get("contract") not in (None, "PASS") and rec.get("adjusted") is None:
        from shared_rules.scoring import score

        rec["score_ns"] = int(score(rec["contract"], rec["declarer"], rec["tricks"], rec["vulnerability"]))
    rec.pop("withdrawn", None)
    rec["correction"] = dict(correction)
    rec["entered_at"] = iso_utc(entered_at)
    return rec
