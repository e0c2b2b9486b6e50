"""Result entry: validate what North enters, compute the score, build the result record.

The record is the one of docs/interfaces.md section 3. Contract and declarer come from the auction
(the engine's state), never from a person; only tricks and the optional lead are typed (FSB 98A:
North enters, East-West verify).
"""
from __future__ import annotations

import datetime
import re
from typing import Any

LEAD_RE = re.compile(r"^[SHDC](?:[AKQJT98765432]|10)$")


class ResultError(ValueError):
    """A result the tablet will not accept; nothing is changed."""


def contract_of(state: dict[str, Any]) -> tuple[str, str | None]:
    if state.get("status") == "passed_out":
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


def record(
    session: dict[str, Any],
    state: dict[str, Any],
    board: int,
    tricks: int | None,
    lead: str | None,
    entered_at: float,
    revision: int = 1,
) -> dict[str, Any]:
    contract, declarer = contract_of(state)
    key = f"{session['event']}/{session['section']}/{session['table']}/{session['round']}/{board}/{revision}"
    return {
        "key": key,
        "event": session["event"],
        "section": session["section"],
        "table": session["table"],
        "round": session["round"],
        "board": board,
        "ns_pair": session["ns_pair"],
        "ew_pair": session["ew_pair"],
        "dealer": state.get("dealer"),
        "vulnerability": state.get("vulnerability"),
        "contract": contract,
        "declarer": declarer,
        "tricks": tricks,
        "lead": lead,
        "score_ns": compute_score(state, tricks),
        "ew_confirmed": True,
        "adjusted": None,
        "auction": [
            {
                "seat": c.get("seat"),
                "call": c.get("call"),
                "alerted": bool(c.get("alerted")),
                "stop": bool(c.get("stop")),
                "think": c.get("think"),
            }
            for c in state.get("calls", [])
        ],
        "irregularities": list(state.get("irregularities", [])),
        "td_calls": [],
        "entered_at": datetime.datetime.fromtimestamp(entered_at, datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


ARTIFICIAL = ("avg-", "avg", "avg+")


def artificial_record(session: dict[str, Any], state: dict[str, Any], board: int, ns: str, ew: str, law: str,
                      entered_at: float, revision: int = 1) -> dict[str, Any]:
    """A board that cannot be played normally: the TD's artificial adjusted score (2007/2017 L12C2,
    e.g. Avg+ / Avg-), no contract. The scoring program turns Avg into its percentage."""
    if ns not in ARTIFICIAL or ew not in ARTIFICIAL:
        raise ResultError(f"an artificial score is one of {', '.join(ARTIFICIAL)} for each side")
    if not law or not isinstance(law, str):
        raise ResultError("name the law of the adjusted score (e.g. 2017 L12C2)")
    key = f"{session['event']}/{session['section']}/{session['table']}/{session['round']}/{board}/{revision}"
    return {
        "key": key, "event": session["event"], "section": session["section"], "table": session["table"],
        "round": session["round"], "board": board, "ns_pair": session["ns_pair"], "ew_pair": session["ew_pair"],
        "dealer": state.get("dealer"), "vulnerability": state.get("vulnerability"),
        "contract": None, "declarer": None, "tricks": None, "lead": None, "score_ns": None,
        "ew_confirmed": True,
        "adjusted": {"kind": "artificial", "ns": ns, "ew": ew, "law": law},
        "auction": [{"seat": c.get("seat"), "call": c.get("call"), "alerted": bool(c.get("alerted")),
                     "stop": bool(c.get("stop")), "think": c.get("think")} for c in state.get("calls", [])],
        "irregularities": list(state.get("irregularities", [])),
        "td_calls": [],
        "entered_at": datetime.datetime.fromtimestamp(entered_at, datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def corrected_record(previous: dict[str, Any], tricks: int, lead: str | None, entered_at: float) -> dict[str, Any]:
    """Law 79C: a score corrected after it was agreed is a new revision of the record, never an edit."""
    from shared_rules.scoring import score

    if previous.get("contract") in (None, "PASS"):
        raise ResultError("only a played board's tricks can be corrected")
    if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 <= tricks <= 13:
        raise ResultError(f"tricks must be a whole number from 0 to 13, not {tricks!r}")
    if lead not in (None, "") and (not isinstance(lead, str) or not LEAD_RE.match(lead.upper())):
        raise ResultError(f"the lead must be a card like SA, H10 or DT, not {lead!r}")
    base, _, rev = previous["key"].rpartition("/")
    rec = dict(previous)
    rec["key"] = f"{base}/{int(rev) + 1}"
    rec["tricks"] = tricks
    rec["lead"] = lead.upper().replace("10", "T") if lead else previous.get("lead")
    rec["score_ns"] = int(score(previous["contract"], previous["declarer"], tricks, previous["vulnerability"]))
    rec["entered_at"] = datetime.datetime.fromtimestamp(entered_at, datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return rec


def _next_key(previous: dict[str, Any]) -> str:
    base, _, rev = previous["key"].rpartition("/")
    return f"{base}/{int(rev) + 1}"


def _stamp(at: float) -> str:
    return datetime.datetime.fromtimestamp(at, datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# What a withdrawal keeps of the record it takes back: where it was played and by whom.
WITHDRAWAL_PLACE = ("event", "section", "table", "round", "board", "ns_pair", "ew_pair")


def withdrawn_record(previous: dict[str, Any], correction: dict[str, Any], entered_at: float) -> dict[str, Any]:
    """A result withdrawn (recorded on the wrong board, or not to stand): the next revision of the
    record, carrying no result, `withdrawn: true` (docs/interfaces.md section 3); the scoring
    program sees the result deleted."""
    rec = {name: previous[name] for name in WITHDRAWAL_PLACE if name in previous}
    rec["key"] = _next_key(previous)
    rec["withdrawn"] = True
    rec["reason"] = correction.get("reason")
    rec["correction"] = dict(correction)
    rec["entered_at"] = _stamp(entered_at)
    return rec


def moved_record(previous: dict[str, Any], board: int, revision: int, correction: dict[str, Any],
                 entered_at: float) -> dict[str, Any]:
    """The play recorded on `previous['board']` was the play of `board`: the same contract and
    tricks on that board (its dealer and vulnerability: the score follows them)."""
    from shared_rules import boards as board_rules

    rec = dict(previous)
    base = previous["key"].rsplit("/", 2)[0]
    rec["key"] = f"{base}/{board}/{revision}"
    rec["board"] = board
    rec["dealer"] = board_rules.dealer(board)
    rec["vulnerability"] = board_rules.vulnerability(board)
    if rec.get("contract") not in (None, "PASS") and rec.get("adjusted") is None:
        from shared_rules.scoring import score

        rec["score_ns"] = int(score(rec["contract"], rec["declarer"], rec["tricks"], rec["vulnerability"]))
    rec.pop("withdrawn", None)
    rec["correction"] = dict(correction)
    rec["entered_at"] = _stamp(entered_at)
    return rec
