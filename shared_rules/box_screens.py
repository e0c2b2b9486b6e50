"""The bidding box and screens: a call taken from the box (FSB L112C), the tray passing under the
screen (FSB L114, 2007/2017 L80B2(e)) and starting the stop wait of a player across the screen
(FSB L116B), when it is next due, and what each side has seen
(docs/laws/timing-box-screens.md). The engine alone keeps the tray: a caller asks
`Table.tray_due_at` and `Table.visible_calls` instead of keeping a model of its own.
"""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from shared_rules.calls import SEATS, call_name
from shared_rules.model import EventError
from shared_rules.types import SEAT_INDEX, OptionId, Refusal, Status

if TYPE_CHECKING:
    from shared_rules.fold import Fold
    from shared_rules.model import Option, Pending, Rec


@functools.lru_cache(maxsize=16)
def seat_pairs(pairs: tuple[tuple[str, str], ...]) -> tuple[tuple[int, ...], ...]:
    """A profile's screenmates as seat indexes: the same few tuples for every board's Table."""
    return tuple(tuple(SEAT_INDEX[s] for s in pair) for pair in pairs)


# ---------------------------------------------------------------- FSB L112C: the box
def is_a_call(f: Fold, seat: int, code: int, taken: bool) -> bool:
    """A call event from a box that reports the card taken out (`taken`), or the confirmation
    after one: is it the call itself? Profile `call_made`: "taken" (FSB L112C, the call is made
    when taken out with visible intent) or "confirmed" (the confirmation makes it; a taken card
    is only noted). The confirmation of a call already made is not a second call. Each box
    confirms its own card: two players may take cards out at nearly the same moment (L33) and
    their boxes confirm in either order."""
    if taken:
        return f.taken_makes
    waiting = f.taken  # (seat, code, seat, code, ...): the cards made and not yet confirmed
    if waiting is None or len(waiting) == 2:  # the usual case: none, or one box between the two
        return waiting != (seat, code)
    return all(waiting[i] != seat or waiting[i + 1] != code for i in range(0, len(waiting), 2))


def noted(f: Fold, seat: int, code: int, t: float, taken: bool, made: bool) -> None:
    """The box's part once the call (if it was one) is taken: the card taken out is listed, or
    the confirmation ends it. A box has one card out at a time: its next card, or its
    confirmation, ends its earlier one; another box's card waits for that box."""
    waiting = f.taken
    if taken:
        f.box_taken.append((seat, code, t, made))  # the state's dict is built when asked
        if made:
            f.taken = (seat, code) if waiting is None else (*(_without(waiting, seat) or ()), seat, code)
    elif waiting is not None:
        # the usual case: the one card out is this box's
        f.taken = None if len(waiting) == 2 and waiting[0] == seat else _without(waiting, seat)


def _without(waiting: tuple[int, ...], seat: int) -> tuple[int, ...] | None:
    kept = tuple(x for i in range(0, len(waiting), 2) if waiting[i] != seat for x in waiting[i:i + 2])
    return kept or None


def box_taken_views(f: Fold) -> list[dict[str, Any]]:
    """The cards taken from the box (FSB L112C) as the state lists them. Entries never change
    once made, so each dict is built once and shared between states, as the call dicts are:
    read them, do not change them."""
    views = f.box_views
    for seat, code, t, made in f.box_taken[len(views):]:
        views.append({"seat": SEATS[seat], "call": call_name(code), "t": t, "made": made,
                      "law": "FSB L112C" if made else ""})
    return list(views)


# ---------------------------------------------------------------- FSB L114: the tray
def tray(f: Fold, t: float) -> None:
    """The tray passed under the screen. It cannot while the TD rules (the irregularity is
    dealt with on the side where it happened) or once the auction is over."""
    if f.pending is not None:
        raise EventError(f"the tray stays on its side while the TD rules ({f.pending.kind})")
    if f.status is not Status.BIDDING:
        raise EventError("the auction is over: the tray does not pass any more")
    f.tray_seen[f.tray_side] = [c.view() for c in f.calls]
    f.tray_side = 1 - f.tray_side
    f.tray_calls = len(f.calls)
    f.tray_arrived_t = t
    to = [SEATS[s] for s in f.screenmates[f.tray_side]]
    f.tray_passes.append({"t": t, "to": to, "calls": len(f.calls)})
    waiting = f.stop_from
    if waiting is not None and waiting[0] is None and waiting[1] in f.screenmates[f.tray_side]:
        # The tray brings the stop to the player who waits after it: his pause begins now (FSB
        # L116B "därefter", 2017 L73A1; profile stop.across_screen, docs/laws/choices.md #38).
        f.stop_from = (t, waiting[1], waiting[2])


def count_calls(f: Fold, t: float) -> None:
    """After each event taken behind screens: the time the standing calls last changed in number
    (the tray waits for the call on its side to be made)."""
    if len(f.calls) != f.calls_counted:
        f.calls_counted = len(f.calls)
        f.calls_changed_t = t


def side_of(f: Fold, seat: int) -> int:
    return 0 if seat in f.screenmates[0] else 1


def tray_due_at(f: Fold, delay_s: float | None = None) -> float | None:
    """When the tray may next pass (event time), or None while it stays: the seat in turn sits on
    the other side, no decision is pending (the irregularity stays on its side), the auction is
    on, and the tray has spent the delay on this side (the profile's `tray_delay_s`, or the one
    given: WBF Code of Practice, a tray back after 15 s or less carries no implication)."""
    if not f.profile.screens.enabled or f.pending is not None or f.status is not Status.BIDDING:
        return None
    if f.turn is None or side_of(f, f.turn) == f.tray_side:
        return None
    delay = f.profile.screens.tray_delay_s if delay_s is None else float(delay_s)
    return max(f.calls_changed_t, f.tray_arrived_t + delay)


def visible_calls(f: Fold, seat: int) -> list[dict[str, Any]]:
    """The calls `seat` sees: all standing calls on the side holding the tray (and for everyone
    once the auction has ended); on the other side those standing when the tray left it, so an
    irregularity rectified before the tray passes never reaches it (WBF Code of Practice)."""
    if not f.profile.screens.enabled or f.status is Status.ENDED or f.status is Status.PASSED_OUT \
            or side_of(f, seat) == f.tray_side:
        return [c.view() for c in f.calls]
    return list(f.tray_seen[side_of(f, seat)])


# ---------------------------------------------------------------- what the tray brought a side
def saw(f: Fold, seat: int, rec: Rec) -> bool:
    """Has `seat` seen the call `rec`? Without screens everyone has. Behind screens a call is
    seen on the side where it was made, and on the other side once the tray has carried it
    across (it is among the standing calls the tray carried: FSB L114, WBF screen regulations)."""
    if not f.screens or side_of(f, seat) == side_of(f, rec.seat):
        return True
    return any(c is rec for c in f.calls[:f.tray_calls])


def check_seen(f: Fold, p: Pending, seat: int) -> None:
    """A call over the irregularity `p` waits on (the LHO accepting or condoning it, the player in
    turn calling over it) by a player the tray has not brought it to is refused, nothing changed:
    he cannot accept, condone or call over a call he has not seen (FSB L114, 2007/2017 L80B2(e),
    WBF screen regulations; docs/laws/choices.md #34)."""
    rec = p.rec
    if rec is None or saw(f, seat, rec):
        return
    law = f.profile.screens.law
    raise EventError(f"{SEATS[seat]} has not seen {SEATS[rec.seat]}'s {call_name(rec.code)}: the tray has not "
                     f"brought it to his side of the screen, so he cannot accept it or call over it; the TD "
                     f"rules on the side where it was made ({law})", Refusal.NOT_SEEN, law)


def seen_options(f: Fold, p: Pending, lho: int) -> list[Option]:
    """The options of a decision the offender's LHO answers: behind screens, the LHO's acceptance
    only if the tray has brought him the call (check_seen); the TD cannot accept for him."""
    if p.rec is None or saw(f, lho, p.rec):
        return p.options
    return [o for o in p.options if o.id is not OptionId.ACCEPT]


def hide_from_other_side(f: Fold, offender: int, *entries: dict[str, Any]) -> None:
    """An irregularity rectified before the tray passed (`entries`: its record and its withdrawn
    call): the other side of the screen is never told (WBF Code of Practice: "Players on the
    other side of a screen are not to be made aware of an irregularity if it is rectified before
    the tray is passed under the screen"). `hidden_from` names the seats the tablet, the other
    side's boxes and every feed keep it from."""
    other = [SEATS[s] for s in f.screenmates[1 - side_of(f, offender)]]
    for entry in entries:
        entry["hidden_from"] = list(other)
