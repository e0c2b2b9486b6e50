"""Who hears of an item the station has just stored: a registry the station's parts subscribe to
(the `.bws` bridge writes results into the scoring program's file at once; a live feed would
push them to a screen), instead of wrapping the station's methods.

An item is announced only after its commit is durable and the tablet's answer no longer
depends on anyone: listeners run on one thread of their own, in the order the items were
stored. A listener that raises is logged and the next one still hears the item; one that
hangs holds up only the listeners behind it, never a tablet. Announcements are a hint to act
now, not the record: each listener must also catch up from the store (the bridge polls it), so
one dropped when the queue is full (a listener stuck) loses nothing.
"""
from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Ingested:
    """An item a tablet delivered and the station stored (`items` row `id`)."""

    id: int
    kind: str
    key: str
    payload: dict[str, Any]


Listener = Callable[[Ingested], None]


class Listeners:
    """`on_ingest(callback)` to subscribe (returns a function that unsubscribes); the station
    calls `announce(item)` after each new item is stored."""

    QUEUE = 10_000  # items waiting for slow listeners; beyond, announcements are dropped (logged)

    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        self._lock = threading.Lock()
        self._queue: queue.Queue[Ingested] = queue.Queue(self.QUEUE)
        self._thread: threading.Thread | None = None
        self._dropped = 0

    def on_ingest(self, callback: Listener) -> Callable[[], None]:
        with self._lock:
            self._listeners.append(callback)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="station-listeners", daemon=True)
                self._thread.start()

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._listeners:
                    self._listeners.remove(callback)
        return unsubscribe

    def announce(self, item: Ingested) -> None:
        """Never raises and never waits: the tablet's answer must not depend on a listener."""
        with self._lock:
            if not self._listeners:
                return
        try:
            self._queue.put_nowait(item)
        except queue.Full:
            self._dropped += 1
            if self._dropped == 1 or self._dropped % 1000 == 0:
                log.warning("station: listeners are %d items behind; %d announcements dropped (they catch "
                            "up from the store)", self.QUEUE, self._dropped)

    def join(self) -> None:
        """Wait until every item announced so far has been handed to every listener (tests)."""
        self._queue.join()

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            try:
                with self._lock:
                    listeners = list(self._listeners)
                for listener in listeners:
                    try:
                        listener(item)
                    except Exception:  # one listener's trouble is not the station's, nor the next one's
                        log.exception("station: a listener failed on %s %s", item.kind, item.key)
            finally:
                self._queue.task_done()
