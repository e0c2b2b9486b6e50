"""Small helpers for the rules tests: build event lists tersely and run them through a Table."""
from __future__ import annotations

import copy
from typing import Any

from shared_rules.table import Table
from shared_rules.types import IrregularityKind, Refusal


def ev(spec: str | dict[str, Any], t: float) -> dict[str, Any]:
    """'N 1H' -> call; 'S !' -> alert; 'E 3S stop' -> call with stop; dicts pass through."""
    if isinstance(spec, dict):
        return {"t": t, **spec}
    parts = spec.split()
    if parts[1] == "!":
        return {"t": t, "seat": parts[0], "alert": True}
    e: dict[str, Any] = {"t": t, "seat": parts[0], "call": parts[1]}
    if len(parts) > 2 and parts[2] == "stop":
        e["stop"] = True
    return e


def td(kind: str, choice: str, call: str | None = None) -> dict[str, Any]:
    e: dict[str, Any] = {"td": kind, "choice": choice}
    if call is not None:
        e["call"] = call
    return e


def events(*specs: str | dict[str, Any], step: float = 1.0) -> list[dict[str, Any]]:
    return [ev(s, i * step) for i, s in enumerate(specs)]


def run(profile: str, *specs: str | dict[str, Any], board: int = 1, policy: str | None = None) -> dict[str, Any]:
    table = Table(profile, board, policy)
    state = table.state()
    for e in events(*specs):
        state = table.apply(e)
    return state


def calls(state: dict[str, Any]) -> list[str]:
    return [f"{c['seat']} {c['call']}" for c in state["calls"]]


def obligations(state: dict[str, Any]) -> dict[str, str]:
    out = {}
    for o in state["obligations"]:
        if o["must_pass"]:
            out[o["seat"]] = o["must_pass"]
        elif "must_repeat" in o:
            out[o["seat"]] = "repeat " + o["must_repeat"]
        else:
            out[o["seat"]] = "no_double"
    return out


def options(state: dict[str, Any]) -> list[str]:
    return [o["id"] for o in state["pending"]["options"]] if state["pending"] else []


def last_irregularity(state: dict[str, Any]) -> dict[str, Any]:
    return state["irregularities"][-1]


def without_awaiting_record(state: dict[str, Any]) -> dict[str, Any]:
    """`state` with the record of calls made while the TD was awaited taken out (L9B2, law9.py):
    what a table that never saw those calls shows."""
    out = copy.deepcopy(state)
    out["irregularities"] = [i for i in out["irregularities"]
                             if i["kind"] != IrregularityKind.CALL_WHILE_AWAITING_TD]
    out["withdrawn"] = [w for w in out["withdrawn"] if "L9B2" not in w["law"]]
    out["reviews"] = [r for r in out["reviews"] if "L9B2" not in r["reason"]]
    out["refused"] = [r for r in out["refused"] if r["kind"] != Refusal.AWAITING_TD]
    # FSB L112C: the card taken from the box was the call; the box's report of it stays listed
    made = {(x["seat"], x["call"], x["t"]) for x in state["irregularities"] + state["refused"]
            if x["kind"] in (IrregularityKind.CALL_WHILE_AWAITING_TD, Refusal.AWAITING_TD)}
    out["box_taken"] = [b for b in out["box_taken"] if (b["seat"], b["call"], b["t"]) not in made]
    return out
