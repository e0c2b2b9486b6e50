"""The station's HTTP/1.1 front door: an asyncio server with h11 (the HTTP/1.1 state machine
uvicorn and httpx use) that holds up on a club network where anyone can open sockets.

Why not `http.server`: one thread per connection with no read timeout and a listen backlog
of 5, and the body read before the key is checked. 1,034 idle sockets that sent only a
request line made every tablet POST time out. Why not an ASGI server as is (uvicorn,
hypercorn), nor asyncio's own `start_server`: none bounds connections per client address or
the time a client may take to send its request head from the moment it connects, and with
asyncio's TLS transport the TLS state and buffers come before the server sees the socket.

What this server guarantees, all of it counted from the TCP accept (station/http_door.py):
- a listen backlog of `backlog` (default 1024, capped by the kernel's somaxconn);
- at most `per_address` open connections per client address (the next is refused at once,
  plain HTTP with a 503) and `max_connections` overall, within the file descriptors the
  process has (soft limit raised to the hard one, a reserve kept for the database); at the
  limit a new connection replaces the oldest one still waiting for its request head; at most
  `max_handshakes` TLS handshakes under way (the next replaces the oldest);
- the request head (over TLS: the client's first byte, the handshake within
  `handshake_timeout`, then the head) must arrive within `head_timeout` seconds of the
  accept (or of the previous reply on a keep-alive connection after `idle_timeout`), and a
  body within `body_timeout`; a client too slow is disconnected;
- a request head is at most 16 KiB, however its bytes arrive (431 otherwise);
- the application sees the request head first (`App.head`, e.g. the table key) and may
  refuse before the body is read; the body is read only up to the limit `head` returns;
- the application runs in a thread pool (storage is blocking), never on the event loop;
- every response carries the security headers (`SECURITY_HEADERS`; a response may set its
  own Content-Security-Policy).
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import errno
import socket
import ssl
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import parse_qs, urlsplit

import h11

from .http_door import Door, Entry
from .http_stream import Stream

MAX_HEAD_BYTES = 16 * 1024
ACCEPT_BATCH = 64  # connections taken from the backlog per wake-up of the loop
LINGER_S = 2.0      # after a reply that closes the connection: what the client still sends is dropped

# On every response. The pages have no scripts, frames or plugins; a page with an inline
# style sets its own policy with the style's hash (station/server.py).
CSP = "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
SECURITY_HEADERS = (("Content-Security-Policy", CSP), ("X-Frame-Options", "DENY"),
                    ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"))


class Headers(dict):
    """Request headers by lower-case name; `get` takes any case (as http.client's do)."""

    def get(self, name: str, default: Any = "") -> Any:
        return super().get(name.lower(), default)


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: Headers            # lower-case names; a repeated header keeps its first value
    client: str                 # the client's address, for logs and limits
    raw_target: str = ""

    def header(self, name: str, default: str = "") -> str:
        return self.headers.get(name.lower(), default)


@dataclass
class Response:
    status: int
    body: bytes = b""
    content_type: str = "text/plain; charset=utf-8"
    headers: list[tuple[str, str]] = field(default_factory=list)
    close: bool = False         # close the connection after this reply
    # A body sent as it comes (server-sent events): called on the event loop, each chunk sent at
    # once; the connection closes when it ends. `body` is then not sent.
    stream: Callable[[], AsyncIterator[bytes]] | None = None
    whole: bool = False  # the stream's chunks gathered and sent as one body when it ends (a long poll)


def response_headers(response: Response) -> list[tuple[str, str]]:
    """The response's own headers, then each security header it does not set itself."""
    own = {k.lower() for k, _ in response.headers}
    return list(response.headers) + [(k, v) for k, v in SECURITY_HEADERS if k.lower() not in own]


class App(Protocol):
    def head(self, request: Request) -> Response | int:
        """A refusal (sent at once, the body left unread, the connection closed) or the most
        body bytes this request may carry."""

    def handle(self, request: Request, body: bytes) -> Response:
        """The reply to a complete request."""

    def log(self, request: Request | None, status: int, client: str) -> None:
        """One access-log line (the app decides whether and what to print)."""


@dataclass
class Limits:
    backlog: int = 1024
    head_timeout: float = 10.0
    handshake_timeout: float = 5.0
    body_timeout: float = 30.0
    idle_timeout: float = 60.0
    per_address: int = 32
    max_connections: int = 4096
    max_handshakes: int = 256
    workers: int = 32


class _Slow(Exception):
    """The client did not send what it owed in time."""


class _HeadTooBig(Exception):
    """A request head over MAX_HEAD_BYTES."""


_BUSY_BODY = b'{"error": "too many connections from this address; retry later", "status": 503}'
BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 2\r\n"
        + b"".join(f"{k}: {v}\r\n".encode() for k, v in SECURITY_HEADERS)
        + b"Connection: close\r\nContent-Length: " + str(len(_BUSY_BODY)).encode() + b"\r\n\r\n" + _BUSY_BODY)


class HttpServer:
    """Runs the event loop in the calling thread (`serve_forever`); `shutdown` from any thread."""

    def __init__(self, app: App, host: str, port: int, limits: Limits | None = None,
                 ssl_context: ssl.SSLContext | None = None, server_header: str = "BiddingBoxStation"):
        self.app = app
        self.limits = limits or Limits()
        self.door = Door(self.limits.per_address, self.limits.max_connections, self.limits.max_handshakes,
                         self._evict)
        self.max_connections = self.door.max_connections
        self.ssl_context = ssl_context
        self.server_header = server_header.encode()
        self.pool = concurrent.futures.ThreadPoolExecutor(self.limits.workers, thread_name_prefix="station")
        self.loop = asyncio.new_event_loop()
        self._framed: tuple[bytes, bytes] = (b"", b"")  # the last streamed chunk and its chunked framing (loop only)
        self._stopped = asyncio.Event()
        # Bind here, so a busy port is an error the caller can report before serving.
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.sock = socket.socket(family, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self.sock.bind((host, port))
        except OSError:
            self.sock.close()
            raise
        self.sock.listen(self.limits.backlog)
        self.sock.setblocking(False)
        self.server_address = self.sock.getsockname()[:2]
        self._ready = threading.Event()

    # -- life cycle ----------------------------------------------------------------------------
    def serve_forever(self, poll_interval: float = 0.5) -> None:  # noqa: ARG002 - http.server's signature
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self._serve())
            # Stopping: end the connections still open (their replies were sent or never will be).
            tasks = asyncio.all_tasks(self.loop)
            for task in tasks:
                task.cancel()
            self.loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
        finally:
            self.loop.close()

    async def _serve(self) -> None:
        self.loop.add_reader(self.sock.fileno(), self._accept)
        self._ready.set()
        try:
            await self._stopped.wait()
        finally:
            self.loop.remove_reader(self.sock.fileno())

    def shutdown(self) -> None:
        self.loop.call_soon_threadsafe(self._stopped.set)

    def server_close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
        try:
            self.sock.close()
        except OSError:
            pass

    # -- the accept: limits before anything is read ---------------------------------------------
    def _accept(self) -> None:
        for _ in range(ACCEPT_BATCH):
            try:
                sock, peer = self.sock.accept()
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                return
            except OSError as e:
                if e.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                    # Out of descriptors after all (something else in the process holds them):
                    # stop taking connections for a moment; the backlog keeps them.
                    self.loop.remove_reader(self.sock.fileno())
                    self.loop.call_later(0.1, self._resume_accept)
                return
            client = str(peer[0])
            entry = self.door.admit(client, sock, self.loop.time() + self.limits.head_timeout)
            if entry is None:
                self._refuse_busy(sock, client)
                continue
            # Until it speaks, the connection is a watched socket and a timer, nothing more.
            sock.setblocking(False)
            self.loop.add_reader(sock.fileno(), self._first_bytes, entry)
            entry.timer = self.loop.call_at(entry.deadline, self._silent, entry)

    def _first_bytes(self, entry: Entry) -> None:
        self._unwatch(entry)
        entry.task = self.loop.create_task(self._connection(entry))

    def _silent(self, entry: Entry) -> None:
        """Nothing came before the head's deadline: closed without a reply."""
        self.door.leave(entry)
        self._evict(entry)

    def _unwatch(self, entry: Entry) -> None:
        self.loop.remove_reader(entry.sock.fileno())
        if entry.timer is not None:
            entry.timer.cancel()
            entry.timer = None

    def _evict(self, entry: Entry) -> None:
        """End a connection the door has let go (`Door.leave` done): the task closes its own
        socket as it unwinds; a socket that never spoke is closed here."""
        if entry.task is not None:
            entry.task.cancel()
        elif entry.sock.fileno() >= 0:
            self._unwatch(entry)
            entry.sock.close()

    def _resume_accept(self) -> None:
        if not self._stopped.is_set():
            self.loop.add_reader(self.sock.fileno(), self._accept)

    def _refuse_busy(self, sock: socket.socket, client: str) -> None:
        """One address (or everyone) holds too many sockets: a 503 in plain HTTP if it fits the
        socket's buffer at once (over TLS the socket is only closed), nothing read, no wait."""
        try:
            if self.ssl_context is None:
                sock.setblocking(False)
                sock.send(BUSY)
        except OSError:
            pass
        finally:
            sock.close()
        self.app.log(None, 503, client)

    # -- one connection -------------------------------------------------------------------------
    async def _connection(self, entry: Entry) -> None:
        stream = Stream(self.loop, entry.sock)
        deadline = entry.deadline
        try:
            entry.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if self.ssl_context is not None:
                # Its own short deadline from the client's first byte, within the head's.
                self.door.handshake(entry, True)
                await stream.start_tls(self.ssl_context,
                                       min(deadline, self.loop.time() + self.limits.handshake_timeout))
                self.door.handshake(entry, False)
            await self._serve_connection(stream, entry, deadline)
            if stream.ended_by_reply:
                # The client may still be sending (a body refused unread, a head too big): its
                # bytes are read and dropped a moment, so that the reply is not lost to a reset.
                self.door.head_due(entry, True)
                await stream.linger(self.loop.time() + LINGER_S)
        except (ConnectionError, OSError, TimeoutError, _Slow, ssl.SSLError, h11.ProtocolError):
            pass
        except asyncio.CancelledError:
            pass  # evicted for a newer connection, or the server stops
        finally:
            self.door.leave(entry)
            stream.close()

    async def _read_head(self, conn: h11.Connection, stream: Stream, deadline: float) -> Any:
        """The next request head (or the end of the connection). Its size is counted from the
        bytes h11 was given, so the limit holds whether the head came in one read or many."""
        fed = len(conn.trailing_data[0])  # pipelined bytes left over from the last request
        while True:
            event = conn.next_event()
            if event is h11.NEED_DATA:
                data = await self._recv(stream, deadline)
                fed += len(data)
                conn.receive_data(data)
                continue
            if isinstance(event, h11.Request) and fed - len(conn.trailing_data[0]) > MAX_HEAD_BYTES:
                raise _HeadTooBig()
            return event

    async def _next_event(self, conn: h11.Connection, stream: Stream, deadline: float) -> Any:
        while True:
            event = conn.next_event()
            if event is not h11.NEED_DATA:
                return event
            conn.receive_data(await self._recv(stream, deadline))

    async def _recv(self, stream: Stream, deadline: float) -> bytes:
        if deadline <= self.loop.time():
            raise _Slow()
        try:
            return await stream.recv(deadline)
        except TimeoutError:
            raise _Slow() from None

    async def _serve_connection(self, stream: Stream, entry: Entry, deadline: float) -> None:
        conn = h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_HEAD_BYTES)
        lim, client = self.limits, entry.client
        while True:
            self.door.head_due(entry, True)
            try:
                event = await self._read_head(conn, stream, deadline)
            except h11.RemoteProtocolError as e:
                await self._send(conn, stream, None, Response(e.error_status_hint or 400,
                                                               f"bad request: {e}\n".encode(), close=True), client)
                return
            except _HeadTooBig:
                await self._send(conn, stream, None, Response(
                    431, f"request head over {MAX_HEAD_BYTES} bytes\n".encode(), close=True), client)
                return
            self.door.head_due(entry, False)
            if not isinstance(event, h11.Request):  # the client closed (or h11's EndOfMessage)
                return
            request = self._request(event, client)
            verdict = await self.loop.run_in_executor(self.pool, self.app.head, request)
            if isinstance(verdict, Response):
                verdict.close = True  # the unread body must not be taken for the next request
                await self._send(conn, stream, request, verdict, client)
                return
            body = await self._read_body(conn, stream, request, verdict, client)
            if body is None:
                return
            response = await self.loop.run_in_executor(self.pool, self.app.handle, request, body)
            await self._send(conn, stream, request, response, client)
            if response.close or conn.our_state is not h11.DONE or conn.their_state is not h11.DONE:
                return
            conn.start_next_cycle()
            # A keep-alive connection may idle a while before its next head.
            deadline = self.loop.time() + lim.idle_timeout

    async def _read_body(self, conn: h11.Connection, stream: Stream, request: Request, limit: int,
                         client: str) -> bytes | None:
        """The body, or None when the connection ends (too slow, too big: replied to)."""
        body = bytearray()
        if conn.they_are_waiting_for_100_continue:
            await self._write(conn, stream, h11.InformationalResponse(status_code=100, headers=[]))
        deadline = self.loop.time() + self.limits.body_timeout
        while True:
            try:
                part = await self._next_event(conn, stream, deadline)
            except h11.RemoteProtocolError as e:
                await self._send(conn, stream, request, Response(400, f"bad request: {e}\n".encode(),
                                                                 close=True), client)
                return None
            if isinstance(part, h11.Data):
                body += part.data
                if len(body) > limit:
                    await self._send(conn, stream, request, Response(
                        413, f"body over the limit of {limit} bytes\n".encode(), close=True), client)
                    return None
            elif isinstance(part, h11.EndOfMessage):
                return bytes(body)
            else:
                return None

    def _request(self, event: h11.Request, client: str) -> Request:
        target = event.target.decode("latin-1")
        url = urlsplit(target)
        headers = Headers()
        for name, value in event.headers:
            headers.setdefault(name.decode("latin-1").lower(), value.decode("latin-1"))
        return Request(event.method.decode("latin-1"), url.path, parse_qs(url.query), headers, client, target)

    async def _write(self, conn: h11.Connection, stream: Stream, event: Any) -> None:
        data = conn.send(event)
        if data:
            await stream.send(data, self.loop.time() + self.limits.body_timeout)

    async def _send(self, conn: h11.Connection, stream: Stream, request: Request | None,
                    response: Response, client: str) -> None:
        if response.stream is not None and response.whole:
            # A long poll: nothing is sent until it has its answer, then the whole of it with its
            # length (a cache in front holds every other request for the same address meanwhile).
            response.body = b"".join([chunk async for chunk in response.stream()])
            response.stream = None
        headers = [(b"Server", self.server_header), (b"Content-Type", response.content_type.encode())]
        if response.stream is None and response.status != 304:
            headers.append((b"Content-Length", str(len(response.body)).encode()))
        if not any(k.lower() == "cache-control" for k, _ in response.headers):
            headers.append((b"Cache-Control", b"no-store"))  # unless the reply says otherwise (the live feed)
        headers += [(k.encode("latin-1"), v.encode("latin-1")) for k, v in response_headers(response)]
        streaming = response.stream is not None and (request is None or request.method != "HEAD")
        if streaming:
            response.close = True
            if conn.their_http_version == b"1.1":
                headers.append((b"Transfer-Encoding", b"chunked"))  # framed by `_stream` itself
        if response.close:
            headers.append((b"Connection", b"close"))
            stream.ended_by_reply = True
        self.app.log(request, response.status, client)
        if conn.our_state is not h11.SEND_RESPONSE and conn.our_state is not h11.IDLE:
            return
        # One write for the whole reply: one TLS record and one segment where it fits, not three.
        data = conn.send(h11.Response(status_code=response.status, headers=headers)) or b""
        if streaming:
            await self._stream(conn, stream, data, response)
            return
        if (request is None or request.method != "HEAD") and response.body:
            data += conn.send(h11.Data(data=response.body)) or b""
        data += conn.send(h11.EndOfMessage()) or b""
        try:
            await stream.send(data, self.loop.time() + self.limits.body_timeout)
        except TimeoutError:
            raise _Slow() from None

    async def _stream(self, conn: h11.Connection, stream: Stream, head: bytes, response: Response) -> None:
        """A body sent as it comes: each chunk at once; a client that does not read a chunk
        within the body timeout is disconnected (no buffer grows behind a stalled reader)."""
        assert response.stream is not None
        chunked = conn.their_http_version == b"1.1"
        try:
            await stream.send(head, self.loop.time() + self.limits.body_timeout)
            async for chunk in response.stream():
                if chunk:
                    # framed here, not by h11, and once for every stream sent the same chunk (the
                    # live feed gives the spectators at the same point one chunk)
                    data = chunk
                    if chunked:
                        if chunk is not self._framed[0]:
                            self._framed = (chunk, b"%x\r\n%b\r\n" % (len(chunk), chunk))
                        data = self._framed[1]
                    await stream.send(data, self.loop.time() + self.limits.body_timeout)
            await stream.send(conn.send(h11.EndOfMessage()) or b"", self.loop.time() + self.limits.body_timeout)
        except TimeoutError:
            raise _Slow() from None
