"""The state dict of a board (docs/table-log.md "Output"), built from a fold when asked: from the
cached per-call views and the running integers, so building it does not re-read the auction.

The call dicts in `calls` and `box_taken` are shared between successive states: read them, do
not change them.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from shared_rules import auction, box_screens, law26
from shared_rules.calls import MAX_LEGAL_RANK, SEATS, call_name, lho, opponents, partner
from shared_rules.law15_17 import WRONG_BOARD
from shared_rules.law24 import CARDS_EXPOSED
from shared_rules.model import Pending
from shared_rules.types import Asks, MustPass, Obligation, Status

if TYPE_CHECKING:
    from shared_rules.fold import Fold


def status(f: Fold) -> Status:
    return Status.AWAITING_TD if f.pending is not None else f.status


def build(f: Fold) -> dict[str, Any]:
    st = Status.AWAITING_TD if f.pending is not None else f.status
    ended = f.status is Status.ENDED
    pairs = [(c.seat, c.code) for c in f.calls] if ended else []
    decl = auction.declarer(pairs) if ended else None
    turn = f.turn if st is Status.BIDDING else None
    views = f.views
    if len(views) != len(f.calls):
        if len(views) > len(f.calls):
            views.clear()
        views.extend(c.view() for c in f.calls[len(views):])
    calls = list(views)  # the call dicts are shared between states: read them, do not change them
    wrong_board = None
    if f.wrong_board is not None:
        wrong_board = {k: (list(v) if isinstance(v, list) else v) for k, v in f.wrong_board.items()}
        if "earlier_calls" in wrong_board:
            wrong_board["earlier_calls"] = [dict(e) for e in wrong_board["earlier_calls"]]
            wrong_board["differs"] = WRONG_BOARD.differs(f)
    leads: list[dict[str, Any]] = []
    lifted: list[dict[str, Any]] = []
    if f.leads:
        leads, lifted = _leads(f, pairs if ended else [(c.seat, c.code) for c in f.calls], decl)
    adjusted = f.adjusted
    return {
        "board": f.board, "dealer": SEATS[f.dealer], "vulnerability": f.vulnerability,
        "profile": f.profile.name, "edition": f.edition, "policy": f.policy,
        "no_alerts_by": list(f.no_alerts_by),
        "status": st,
        "status_law": f.refs["end_bid"] if ended else (
            f.refs["end_passed_out"] if f.status is Status.PASSED_OUT else (
                adjusted["law"] if adjusted is not None else None)),
        "calls": calls,
        "contract": auction.contract(pairs) if ended else None,
        "declarer": SEATS[decl] if decl is not None else None,
        "next": SEATS[turn] if turn is not None else None,
        "lowest_bid": call_name(f.last_bid + 1) if f.last_bid < MAX_LEGAL_RANK else None,
        "legal_calls": _legal(f, turn) if f.must_pass or f.repeat or turn is None else f.legal_calls(turn),
        "stop_lock_until": _stop_lock_until(f, turn) if f.stop_from is not None else None,
        "stop_enforcement": f.profile.stop.enforcement if f.profile.stop.enabled else "none",
        "pending": _pending(f, f.pending) if f.pending is not None else None,
        "irregularities": [*map(dict, f.irregularities)] if f.irregularities else [],
        "obligations": _obligations(f) if f.must_pass or f.repeat or f.no_double else [],
        "lead_restrictions": leads,
        "lead_restrictions_lifted": lifted,
        "timing": [*map(dict, f.timing)] if f.timing else [],
        "withdrawn": [*map(dict, f.withdrawn)] if f.withdrawn else [],
        "reviews": [*map(dict, f.reviews)] if f.reviews else [],
        "refused": [*map(dict, f.refused)] if f.refused else [],
        "exposed_cards": CARDS_EXPOSED.views(f, decl) if f.exposed else [],
        "wrong_board": wrong_board,
        "adjusted_score": dict(adjusted) if adjusted is not None else None,
        "tray": None if not f.profile.screens.enabled else {
            "seats": [SEATS[s] for s in f.screenmates[f.tray_side]],
            "passes": [*map(dict, f.tray_passes)] if f.tray_passes else []},
        "box_taken": box_screens.box_taken_views(f) if f.box_taken else [],
    }


def _stop_lock_until(f: Fold, turn: int | None) -> float | None:
    """When the wait of the seat in turn after a stop ends; behind screens None until the tray
    brings the stop to a waiter across the screen (his wait has not begun: timing.lock_until)."""
    if f.stop_from is None or f.stop_from[1] != turn:
        return None
    start = f.stop_from[0]
    return None if start is None else start + f.profile.stop.wait_s


def _legal(f: Fold, turn: int | None) -> list[str]:
    if turn is None:
        return []
    if turn in f.must_pass:
        return ["P"]
    if turn in f.repeat:
        return [call_name(f.repeat[turn][0])]
    return f.legal_calls(turn)


def _obligations(f: Fold) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for s in range(4):
        if s in f.must_pass:
            how, law = f.must_pass[s]
            out.append({"seat": SEATS[s], "must_pass": how, "law": law})
        if s in f.repeat:
            code, law = f.repeat[s]
            out.append({"seat": SEATS[s], "must_pass": None, "must_repeat": call_name(code), "law": law})
        if s in f.no_double:
            out.append({"seat": SEATS[s], "must_pass": None, "may_not_double": True, "law": f.no_double[s]})
    return out


def obligation_kind(ob: Mapping[str, Any]) -> Obligation:
    """What an entry of the state's `obligations` (built by `_obligations`) binds its seat to."""
    if ob.get("must_repeat") is not None:
        return Obligation.REPEAT
    if ob.get("may_not_double"):
        return Obligation.NO_DOUBLE
    how = ob.get("must_pass")
    if how == MustPass.NEXT_TURN:
        return Obligation.PASS_NEXT_TURN
    if how == MustPass.REST:
        return Obligation.PASS_REST
    raise ValueError(f"not an obligation of the state: {dict(ob)!r}")


def _leads(f: Fold, legal_auction: list[tuple[int, int]],
           decl: int | None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Law 26: the lead restriction candidates, worked out against the legal auction as it stands."""
    leads: list[dict[str, Any]] = []
    lifted: list[dict[str, Any]] = []
    for lr in f.leads:
        off = lr["offender"]
        d = {"offender": SEATS[off], "leader": SEATS[partner(off)],
             **law26.restriction(f.edition, off, lr["code"], legal_auction, lr["shown"]),
             "because": lr["because"]}
        if d["kind"] == "none":  # 2007 L26A1: listed apart, so nothing shows it as a restriction
            lifted.append(d)
            continue
        d["active"] = None if f.status is Status.BIDDING else (decl is not None and opponents(decl, off))
        leads.append(d)
    return leads, lifted


def _pending(f: Fold, p: Pending) -> dict[str, Any]:
    pending: dict[str, Any] = {
        "kind": p.kind, "law": p.law, "seat": SEATS[p.seat], "asks": p.asks,
        "call": call_name(p.rec.code) if p.rec is not None else None,
        "options": [
            {"id": o.id, "label": o.label, "text": o.text, "params": dict(o.params), "law": o.law,
             **({"needs_call": True} if o.needs_call else {})}
            for o in p.options
        ],
    }
    # Seats whose call the Law gives a meaning to while the table waits: the LHO accepts or
    # triggers L36A/L37A/L38/L39B, the offender replaces early (L27C), the player in turn calls
    # over an out-of-turn call (L28B). Any other call is refused (L9B2).
    may_call: list[str] = []
    if p.asks is Asks.LHO:
        pending.update(p.rule.pending_extra(p))
        seats = (lho(p.seat), *p.rule.may_call(f, p))
        # behind screens only a seat the tray has brought the call to (box_screens.check_seen)
        rec = p.rec
        may_call.extend(SEATS[s] for s in seats if rec is None or s == p.seat or box_screens.saw(f, s, rec))
    pending["may_call"] = may_call
    return pending

