"""The cycle collector does not stop the link for a fifth of a second.

A box's call is read, judged, journalled and answered on the link thread while Kivy's thread
builds frames, and the collector holds the GIL for its whole pass. A full pass walks every
tracked object, and a running Kivy app holds hundreds of thousands of them (the widgets of seven
screens, their properties and bindings): under the tablet bench a full pass took 190-330 ms,
several times per 200 calls, and a call arriving meanwhile waited for it. Once the screens are
built those objects live as long as the app, so they are taken out of the collector's reach
(`gc.freeze`); later passes walk only what was made since (a result screen's buttons, a board's
cells). The GIL's hand-over interval is shortened for the same reason (tablet_app/ui/app.py).

What is made since still grows: the screens' refreshes leave cycles of widgets and bindings, and a
full pass set off by allocation walked them for 30-120 ms at a time in the middle of an auction
(under the bench's stress pace, where boards end every few seconds). So full passes are not set
off by allocation at all; the app runs one when an auction has ended (result entry, the director
called, the round's end), when no call is on its way. The young generations are collected as
before, in well under a millisecond.
"""
from __future__ import annotations

import gc

NEVER = 1 << 30  # gen1 passes before a full one: never by allocation in an evening


def freeze_built_screens() -> int:
    """Collect what start-up left behind, then exempt every surviving object from later passes,
    and leave full passes to `full_pass`. Called once, when the screens exist; returns how many
    objects are exempt."""
    gc.collect()
    gc.freeze()
    young, middle, _full = gc.get_threshold()
    gc.set_threshold(young, middle, NEVER)
    return gc.get_freeze_count()


def full_pass() -> int:
    """The full pass allocation no longer sets off: at a moment no call waits (an auction's end).
    Returns how many unreachable objects it found."""
    return gc.collect()
