"""Who comes in at the station's HTTP door, decided at the TCP accept, before a byte is read
and before any TLS state exists (station/http_stream.py).

- One client address holds at most `per_address` connections; the next is refused at once.
- All addresses together hold at most `max_connections`, and never so many that the station's
  own files (the database, its journal, the worker threads) would find no file descriptor:
  the soft RLIMIT_NOFILE is raised to the hard limit at start and `RESERVE_FDS` are kept back.
- At the limit a new connection takes the place of the oldest one still waiting for its
  request head (silent sockets, slow heads, idle keep-alives): a flood of silent sockets from
  many addresses cannot keep a tablet out, it only shortens its own sockets' lives.
- At most `max_handshakes` TLS handshakes are under way at once (each holds about 50 kB of
  TLS state); the next takes the place of the oldest. A tablet's handshake is one round trip
  on the club's network, so only a client that stalls in it is ever pushed out.
- After a flood the memory it took is handed back to the system (`release_memory`).
"""
from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import resource
import socket
import threading
from collections.abc import Callable

RESERVE_FDS = 256   # the database and its -wal/-shm, worker threads, logs, the TLS files, epoll
TRIM_AFTER = 256    # a peak of this many connections is a flood worth handing memory back after


def raise_fd_limit() -> int:
    """Raise the soft limit on open files to the hard one; the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    return 1 << 20 if soft == resource.RLIM_INFINITY else soft


class _Descriptors:
    """The sockets every door of this process holds (the TLS door and the loopback one share
    the process's descriptors)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.held = 0
        self.budget = 0  # set by the first door (raising the limit is no side effect of an import)

    def setup(self) -> int:
        with self.lock:
            if not self.budget:
                self.budget = max(16, raise_fd_limit() - RESERVE_FDS)
            return self.budget

    def take(self) -> bool:
        with self.lock:
            if self.held >= self.budget:
                return False
            self.held += 1
            return True

    def give(self) -> None:
        with self.lock:
            self.held -= 1


DESCRIPTORS = _Descriptors()


class Entry:
    """One connection let in: counted from the accept until `Door.leave`. Until its first
    bytes arrive it is only a socket watched by the loop (no task, no buffer: `timer` closes
    it at its deadline); then `task` serves it."""

    __slots__ = ("client", "sock", "deadline", "timer", "task", "gone")

    def __init__(self, client: str, sock: socket.socket, deadline: float):
        self.client = client
        self.sock = sock
        self.deadline = deadline
        self.timer: asyncio.TimerHandle | None = None
        self.task: asyncio.Task | None = None
        self.gone = False


class Door:
    """The counts of one server; used only on its event loop's thread."""

    def __init__(self, per_address: int, max_connections: int, max_handshakes: int,
                 evict: Callable[[Entry], None]):
        self.per_address = per_address
        self.max_handshakes = max(1, max_handshakes)
        self.evict = evict  # ends an entry's connection (Door.leave already done)
        self.max_connections = max(16, min(max_connections, DESCRIPTORS.setup()))
        self.by_address: dict[str, int] = {}
        self.open = 0
        self.peak = 0
        self.waiting: dict[Entry, None] = {}  # still owing a request head, oldest first
        self.handshakes: dict[Entry, None] = {}  # in the TLS handshake, oldest first

    def admit(self, client: str, sock: socket.socket, deadline: float) -> Entry | None:
        """An entry for a new connection from `client`, or None: refused."""
        if self.by_address.get(client, 0) >= self.per_address:
            return None
        if self.open >= self.max_connections and not self._evict_oldest():
            return None
        if not DESCRIPTORS.take():
            if not self._evict_oldest() or not DESCRIPTORS.take():
                return None
        entry = Entry(client, sock, deadline)
        self.open += 1
        self.peak = max(self.peak, self.open)
        self.by_address[client] = self.by_address.get(client, 0) + 1
        self.waiting[entry] = None
        return entry

    def head_due(self, entry: Entry, due: bool) -> None:
        """The connection waits for a request head (evictable) or is serving one (not)."""
        self.waiting.pop(entry, None)
        if due and not entry.gone:
            self.waiting[entry] = None  # the newest: an idle keep-alive goes to the back

    def handshake(self, entry: Entry, under_way: bool) -> None:
        """The connection starts (True) or ends (False) its TLS handshake."""
        if not under_way or entry.gone:
            self.handshakes.pop(entry, None)
            return
        if len(self.handshakes) >= self.max_handshakes:
            self._evict_oldest(self.handshakes)
        self.handshakes[entry] = None

    def leave(self, entry: Entry) -> None:
        """The connection is done (or evicted); counted once however often it is called."""
        if entry.gone:
            return
        entry.gone = True
        self.waiting.pop(entry, None)
        self.handshakes.pop(entry, None)
        self.open -= 1
        DESCRIPTORS.give()
        left = self.by_address[entry.client] - 1
        if left:
            self.by_address[entry.client] = left
        else:
            del self.by_address[entry.client]
        if self.peak >= TRIM_AFTER and self.open <= self.peak // 8:
            self.peak = self.open
            release_memory()

    def _evict_oldest(self, among: dict[Entry, None] | None = None) -> bool:
        entry = next(iter(self.waiting if among is None else among), None)
        if entry is None:
            return False
        self.leave(entry)
        self.evict(entry)
        return True


_libc: ctypes.CDLL | None | bool = None


def release_memory() -> None:
    """Hand the heap's free pages back to the system (glibc's malloc_trim). A flood's thousands
    of short-lived buffers leave free holes all over the heap that glibc keeps otherwise."""
    global _libc
    if _libc is None:
        name = ctypes.util.find_library("c")
        try:
            _libc = ctypes.CDLL(name) if name else False
            if _libc and not hasattr(_libc, "malloc_trim"):
                _libc = False
        except OSError:
            _libc = False
    if _libc:
        _libc.malloc_trim(0)  # type: ignore[union-attr]
