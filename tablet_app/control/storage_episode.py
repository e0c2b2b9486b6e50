"""A full disk: an episode the station hears of while it lasts, and after.

While the storage refuses writes nothing can be queued in the full file, so the Deliverer
(`outbox.Deliverer.watch_storage`) tells the station itself: from where the table stood when the
refusals began (`since`), woken by `listeners`. The end is durable: the first transaction that
commits after the episode also queues the call and `<key>/resolved` in the outbox
(`queue_over`). A tablet switched off during the episode knows of it at start from its
`<journal>.storage` mark (`tablet_app/storage_mark.py`).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypedDict

from tablet_app.control.state import TableState
from tablet_app.control.station_feed import StationFeed
from tablet_app.journal import Journal
from tablet_app.storage_mark import StorageMark


class StorageSince(TypedDict):
    """Where the table stood when the storage began refusing writes (`outbox.storage_call`)."""

    seq: int  # the last journalled record: it names the episode
    at: float
    board: int | None
    round: int
    place: list[Any] | None  # [event, section, table]; None before any setup


class StorageEpisode:
    def __init__(self, journal: Journal, st: TableState, feed: StationFeed, clock: Callable[[], float]):
        self.journal = journal
        self.st = st
        self.feed = feed
        self.clock = clock
        self.error: str | None = None  # the storage's refusal, while it refuses
        self.listeners: list[Callable[[], None]] = []
        self.since: StorageSince | None = None
        self.mark: StorageMark | None = None

    def remember(self) -> None:
        """At start, once the journal has replayed: an episode the tablet was stopped in."""
        self.mark = StorageMark(self.journal.path + ".storage")
        self.since = self.mark.read()  # type: ignore[assignment]  # read() checks what it reads

    def refused(self, error: str) -> None:
        """A write was refused: an episode begins, unless one is going on (or was remembered
        from before a restart)."""
        was, self.error = self.error, error
        if was is not None or self.since is not None:
            return
        # The last journalled record names the episode: nothing can be journalled until it ends.
        s = self.st.session
        self.since = {"seq": self.journal._last()[0], "at": self.clock(), "board": self.st.board,
                      "round": s.round if s is not None else 0,
                      "place": [s.event, s.section, s.table] if s is not None else None}
        self._changed()

    def took(self) -> None:
        """A write committed: the episode, if any, is over."""
        self.error = None
        if self.since is None:
            return
        self.since = None
        self._changed()

    def _changed(self) -> None:
        assert self.mark is not None
        self.mark.write(dict(self.since) if self.since is not None else None)
        for fn in list(self.listeners):
            fn()

    def queue_over(self) -> None:
        """Inside the first transaction that commits after an episode: its call and its end go
        into the outbox with it, so the station hears the end even if the tablet stops before
        the pump runs (the direct alarm is memory only)."""
        if self.since is not None and self.since["place"] is not None:
            self.feed.storage_over(self.since)
