"""Save and restore a fold's state around an event that may be refused part-way (python-chess
style: a small saved state, never a deep copy of the engine, never a replay).

Most events are judged before anything changes (table.Table.step): a call with no decision
pending is classified first, an alert judged first, a TD finding checked first, a TD's answer
checked by the fold and its rule first (rule.DecidingRule.ruling). What can be refused after
changes have begun is a call while a decision is pending (the LHO's call over an irregularity may
itself meet a new decision, L9B2) and a call after an L28A deemed pass: those run inside
`save`/`restore`.

What is saved is what those paths can change: every attribute of the fold, its lists, dicts and
sets copied one level (their items are replaced, never changed in place), the irregularity
entries (a ruling fills in `ruling` and `resolution`), the pending decision and its call (a
ruling changes them in place). The standing calls' own fields change only by an alert, which is
judged before anything changes, and by L33 making a deemed pass its player's own (law28_33), which
happens only to a call taken with no decision pending and changes nothing after it; so they are
not saved. Built from C-level copies: a few
microseconds, paid only on those paths.
"""
from __future__ import annotations

from operator import attrgetter
from typing import Any, Final

from shared_rules.fold import Fold
from shared_rules.model import Pending, Rec

_LISTS: Final = ("calls", "irregularities", "timing", "withdrawn", "leads", "reviews", "refused", "exposed",
                 "tray_passes", "tray_seen", "box_taken")
_DICTS: Final = ("must_pass", "repeat", "no_double", "judge_next_call", "rho_watch", "wrong_board_repeat")
_SETS: Final = ("wrong_board_ruled",)
# Never changed by an event (set when the board's table is made), or caches rebuilt when read.
_FIXED: Final = frozenset({"profile", "board", "dealer", "vulnerability", "no_alerts_by", "edition", "policy",
                           "refs", "stop_open", "stop_jump", "stop_card", "stop_skip", "stop_at_tray", "screens", "screenmates", "taken_makes", "views",
                           "box_views"})
_VALUES: Final = tuple(n for n in Fold.__slots__ if n not in _FIXED and n not in _LISTS + _DICTS + _SETS)

_values, _lists, _dicts = attrgetter(*_VALUES), attrgetter(*_LISTS), attrgetter(*_DICTS)
_pending_fields, _rec_fields = attrgetter(*Pending.MUTABLE), attrgetter(*Rec.MUTABLE)

Saved = tuple[Any, ...]


def save(f: Fold) -> Saved:
    p = f.pending
    entries = [(e, e.copy()) for e in f.irregularities]
    pending = None
    if p is not None:
        if p.irregularity is not None:
            entries.append((p.irregularity, p.irregularity.copy()))
        rec = p.rec
        pending = (p, _pending_fields(p), p.context.__dict__.copy(),
                   None if rec is None else (rec, _rec_fields(rec), rec.alerted_to.copy()))
    wrong_board = None if f.wrong_board is None else f.wrong_board.copy()
    return (_values(f), tuple(map(list.copy, _lists(f))), tuple(map(dict.copy, _dicts(f))),
            (set(f.wrong_board_ruled),), entries, pending, wrong_board)


def restore(f: Fold, saved: Saved) -> None:
    """Put `f` back exactly as it was when `saved` was taken."""
    values, lists, dicts, sets, entries, pending, wrong_board = saved
    for names, group in ((_VALUES, values), (_LISTS, lists), (_DICTS, dicts), (_SETS, sets)):
        for name, value in zip(names, group, strict=True):
            setattr(f, name, value)
    for entry, content in entries:
        entry.clear()
        entry.update(content)
    if pending is not None:
        p, fields, context, rec = pending
        for name, value in zip(Pending.MUTABLE, fields, strict=True):
            setattr(p, name, value)
        p.context.__dict__.update(context)
        if rec is not None:
            r, rec_fields, alerted_to = rec
            for name, value in zip(Rec.MUTABLE, rec_fields, strict=True):
                setattr(r, name, value)
            r.alerted_to[:] = alerted_to
    if wrong_board is not None and f.wrong_board is not None:
        f.wrong_board.clear()
        f.wrong_board.update(wrong_board)
    # the caches: rebuilt from the calls when next read
    f.views.clear()
    del f.box_views[len(f.box_taken):]
