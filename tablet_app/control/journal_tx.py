"""Journal first, then apply: every input is one transaction; the replay at start.

Every input (a box event, a TD decision, a result) is validated, journalled, and only then applied
to the table in memory by the reducer (`reducer.apply`). A restart replays the journal through the
same reducer, so a `kill -9` at any moment comes back to exactly the same table: same auction,
same pending TD decision, same results waiting in the outbox.

What must happen exactly once (an item for the station in the outbox) happens in the live path,
in the same SQLite transaction as the journal record, never in the reducer: replay never queues.
Memory never runs ahead of disk: if anything fails before or at the COMMIT (an engine refusal, a
full disk), the transaction is rolled back and the table in memory is rebuilt from the journal.
"""
from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Iterator
from typing import Any

from tablet_app.control import reducer
from tablet_app.control.errors import DiskFull
from tablet_app.control.reducer import Fold
from tablet_app.control.station_feed import StationFeed
from tablet_app.control.storage_episode import StorageEpisode
from tablet_app.journal import Journal, JournalDamaged, StorageFull

# What a record that cannot be applied raises; the replay reports it as the journal's damage.
REPLAY_ERRORS = (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError)


class Transactions:
    def __init__(self, journal: Journal, fold: Fold, feed: StationFeed, storage: StorageEpisode,
                 listeners: list[Callable[[], None]], on_end: Callable[[], None]):
        self.journal = journal
        self.fold = fold
        self.feed = feed
        self.storage = storage
        self.listeners = listeners  # called after every commit
        self.on_end = on_end  # called after every input, committed or not (the table may have changed)
        self._depth = 0
        self._applied = 0
        self._checkpoint = False

    @contextlib.contextmanager
    def tx(self) -> Iterator[None]:
        """One input: its journal records and outbox items commit together, or none of them
        does and the table in memory is rebuilt from the journal on disk. A full disk refuses
        the input (DiskFull) with the table as it was."""
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        self._depth, self._applied, self._checkpoint = 1, 0, False
        try:
            try:
                with self.journal.transaction():
                    yield
                    self.storage.queue_over()
            except BaseException as exc:
                self._depth = 0
                if self._applied:
                    self.replay()  # what was applied before the failure was never committed
                if isinstance(exc, StorageFull):
                    self.storage.refused(str(exc))
                    raise DiskFull(f"tablet storage full: nothing was recorded ({exc})") from exc
                raise
            self._depth = 0
            self.storage.took()
            if self._checkpoint:
                self.journal.checkpoint()
            for fn in list(self.listeners):
                fn()
        finally:
            self.on_end()

    def record(self, kind: str, body: dict[str, Any]) -> None:
        """Journal one record, then apply it: what is in memory never runs ahead of disk."""
        with self.tx():
            seq = self.journal.append(kind, body)
            fx = reducer.apply(self.fold, kind, body)
            self._applied += 1
            self.feed.journalled(seq, kind, body)  # each call, alert, stop ... to the station as it happens
            if fx.progress is not None:
                self.feed.progress(fx.progress)
            for n, status in fx.td:
                self.feed.td_call(n, status)
            if fx.checkpoint:
                self._checkpoint = True

    def replay(self) -> None:
        """The table from the journal on disk (at start, and after a write that did not commit).
        The engine's state is built only when something reads it, not after every replayed
        event: a long journal replays in time linear in its length."""
        f = self.fold
        f.st.reset()
        f.replaying = True
        # The replay builds what the table keeps (records, the log, the engine's calls); what it
        # drops is freed by reference counting. The cycle collector, run every few hundred new
        # objects, would walk the kept ones again and again: it runs once, after the replay.
        collecting = gc.isenabled()
        gc.disable()
        try:
            for seq, kind, body in self.journal.records():
                try:
                    reducer.apply(f, kind, body)
                except REPLAY_ERRORS as exc:
                    # Never guess past a record we cannot apply: the TD must know the table is not
                    # what was played (e.g. a journal from a newer version).
                    raise JournalDamaged(self.journal.path, seq,
                                         f"the {kind!r} record cannot be replayed ({exc})") from exc
        finally:
            f.replaying = False
            if collecting:
                gc.enable()

    def resume_storage_episode(self) -> None:
        """At start: an episode the tablet was stopped in is told to the station again, and
        ended at once if the storage takes a write now (space was freed while it was off), so
        the director page's call does not stay open."""
        if self.storage.since is not None:
            with contextlib.suppress(DiskFull), self.tx():
                pass  # commits the episode's call and its end (StorageEpisode.queue_over)
