"""Save and restore a fold's state around an event that may be refused part-way (python-chess
style: a small saved state, never a deep copy of the engine, never a replay).

Most events are judged before anything changes (table.Table.step): a call with no decision
pending is classified first, an alert judged first, a TD finding checked first. What can be
refused after changes have begun is a call while a decision is pending (the LHO's call over an
irregularity may itself meet a new decision), an L28A deemed pass and a TD's answer: those are
run inside `save`/`restore`. The saved state is what those paths can change: the scalars, the
containers (copied one level), and the objects changed in place (the pending decision, the calls'
mutable fields, the irregularity entries).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from shared_rules.fold import Fold
from shared_rules.model import Context, Pending, Rec

# Fold attributes that are never changed by an event (set once) or are caches rebuilt on demand.
_FIXED = frozenset({"profile", "board", "dealer", "vulnerability", "no_alerts_by", "edition", "policy", "refs",
                    "stop_open", "stop_jump", "screens", "screenmates", "views", "box_views"})


_SAVED: Final = tuple(name for name in Fold.__slots__ if name not in _FIXED)


@dataclass
class Saved:
    attrs: dict[str, Any]  # every other attribute, containers copied one level
    recs: list[tuple[Rec, tuple[Any, ...], list[int]]]  # the calls' mutable fields
    entries: list[tuple[dict[str, Any], dict[str, Any]]]  # irregularity entries and their contents
    pending: tuple[Pending, tuple[Any, ...], Context] | None


def _copy(value: Any) -> Any:
    if isinstance(value, list):
        return list(value)
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, set):
        return set(value)
    return value


def save(f: Fold) -> Saved:
    attrs = {name: _copy(getattr(f, name)) for name in _SAVED}
    recs = {id(r): r for r in f.calls}
    p = f.pending
    if p is not None:
        for r in (p.rec, p.context.insufficient_bid, p.context.withdrawn):
            if r is not None:
                recs[id(r)] = r
    saved_recs = [(r, tuple(getattr(r, name) for name in Rec.MUTABLE), list(r.alerted_to)) for r in recs.values()]
    entries = [(e, dict(e)) for e in f.irregularities]
    if p is not None and p.irregularity is not None and all(p.irregularity is not e for e in f.irregularities):
        entries.append((p.irregularity, dict(p.irregularity)))
    pending = None
    if p is not None:
        ctx = p.context
        pending = (p, tuple(getattr(p, name) for name in Pending.MUTABLE), Context(**vars(ctx)))
    return Saved(attrs, saved_recs, entries, pending)


def restore(f: Fold, saved: Saved) -> None:
    """Put `f` back exactly as it was when `saved` was taken."""
    for name, value in saved.attrs.items():
        setattr(f, name, value)
    for rec, fields, alerted_to in saved.recs:
        for name, value in zip(Rec.MUTABLE, fields, strict=True):
            setattr(rec, name, value)
        rec.alerted_to[:] = alerted_to
    for entry, content in saved.entries:
        entry.clear()
        entry.update(content)
    if saved.pending is not None:
        p, fields, ctx = saved.pending
        for name, value in zip(Pending.MUTABLE, fields, strict=True):
            setattr(p, name, value)
        for name, value in vars(ctx).items():
            setattr(p.context, name, value)
    # the caches: rebuilt from the calls when next read
    f.views.clear()
    del f.box_views[len(f.box_taken):]
