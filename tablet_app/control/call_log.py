"""The live feed's auction log: each call logged and encoded once, not at every later event.

Each auction event the tablet queues for the station (`station_feed.auction_event`, docs/station.md
"The live feed") carries the whole auction after it. Made afresh for every event, the earlier
calls of the board would be turned into `LoggedCall`s, into dicts and into JSON again each time:
work that grows with the auction's length, on the path of every call (the longest auctions set
the tablet's p99: bench/tablet_workload.py). `CallLog` keeps each call's `LoggedCall` and its
JSON text, and an item's text is its other fields' text with the calls' text put in: the same
bytes as `outbox.canonical` makes of the whole item.

The engine shares a call's dict between its successive states and never changes it: a call
whose view changes (an alert, a call withdrawn) gets a new dict (shared_rules/state_view.py). So
a dict seen before, at the same place, is the same call.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from shared_rules.records import AuctionEvent, LoggedCall
from tablet_app.outbox import canonical

# where the calls go in an item's text: `"calls"` is the key after `at`, `board` and `call`
# (the text's keys are sorted), and a quote inside a JSON string is escaped, so this is the key
SLOT = '"calls":[]'


class CallLog:
    def __init__(self) -> None:
        self._seen: list[Mapping[str, Any]] = []  # the engine's dicts (held: their ids stay theirs)
        self._logged: list[LoggedCall] = []
        self._text: list[str] = []  # canonical(LoggedCall.to_json()) of each

    def __call__(self, calls: Sequence[Mapping[str, Any]]) -> tuple[LoggedCall, ...]:
        """The auction log of the engine's calls (`state["calls"]`)."""
        seen, logged, text = self._seen, self._logged, self._text
        same, most = 0, min(len(seen), len(calls))
        while same < most and seen[same] is calls[same]:
            same += 1
        del seen[same:], logged[same:], text[same:]
        for c in calls[same:]:
            call = LoggedCall.from_engine(c)
            seen.append(c)
            logged.append(call)
            text.append(canonical(call.to_json()))
        return tuple(logged)

    def text(self, item: AuctionEvent) -> str:
        """`canonical(item.to_json())`, for an item whose calls this log made last (any other is
        encoded whole)."""
        calls, logged = item.calls, self._logged
        if len(calls) != len(logged) or any(a is not b for a, b in zip(calls, logged, strict=True)):
            return canonical(item.to_json())
        head, slot, tail = canonical(dataclasses.replace(item, calls=()).to_json()).partition(SLOT)
        if not slot or SLOT in tail:  # another `"calls":[]` (in `extra`): no telling which is the key
            return canonical(item.to_json())
        return f'{head}"calls":[{",".join(self._text)}]{tail}'
