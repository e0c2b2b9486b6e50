"""The station's two-round movement the end-of-round drivers play (table A1: pair 1 against 11,
then 12; boards 1-2, then 3-4), and the next round's preview the app asks the station for (its
I/O is tested in tests/tablet/test_td_end_round.py). Data and one function, so a driver imports it
without running another driver's script."""
from __future__ import annotations

from collections.abc import Callable

from tablet_app.controller import Controller
from tablet_app.session import from_station
from tablet_app.station_client import NextRound

EVENT = "club-2026-11-27"
NAMES = {2: {"N": "Anna Berg", "S": "Carl Dahl", "E": "Åke Öst", "W": "Kim Lund"}}
MOVEMENT = {"event": EVENT, "section": "A", "tables": 3, "pairs_per_direction": True, "settings": {},
            "rounds": {str(r): {"1": {"ns": 1, "ew": 10 + r, "boards": [2 * r - 1, 2 * r],
                                      "next": {"last_round": r == 2}}} for r in (1, 2)}}


def first_round():
    """Table 1's session for round 1 under fsb-2007, the director's PIN 4321."""
    return from_station(MOVEMENT, 1, 1, profile="fsb-2007", td_pin="4321")


def next_preview(ctl: Controller) -> Callable[[], NextRound]:
    """What the app's `next_preview` answers at the table `ctl` runs: the next round's session
    and pairs' names, as the station's movement reply gives them."""
    def preview() -> NextRound:
        s = ctl.session
        assert s is not None
        r = s.round + 1
        return NextRound(from_station(MOVEMENT, 1, r, profile=s.profile, td_pin=s.td_pin), NAMES[r])
    return preview
