"""The cycle collector does not stop the link for a fifth of a second.

A box's call is read, judged, journalled and answered on the link thread while Kivy's thread
builds frames, and the collector holds the GIL for its whole pass. A full pass walks every
tracked object, and a running Kivy app holds hundreds of thousands of them (the widgets of seven
screens, their properties and bindings): under the tablet bench a full pass took 190-330 ms,
several times per 200 calls, and a call arriving meanwhile waited for it. Once the screens are
built those objects live as long as the app, so they are taken out of the collector's reach
(`gc.freeze`); later passes walk only what was made since (a result screen's buttons, a board's
cells). The GIL's hand-over interval is shortened for the same reason (tablet_app/ui/app.py).
"""
from __future__ import annotations

import gc


def freeze_built_screens() -> int:
    """Collect what start-up left behind, then exempt every surviving object from later passes.
    Called once, when the screens exist; returns how many objects are exempt."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
