"""The station's HTTP/1.1 front door: an asyncio server with h11 (the HTTP/1.1 state machine
uvicorn and httpx use) that holds up on a club network where anyone can open sockets.

Why not `http.server`: one thread per connection with no read timeout and a listen backlog
of 5, and the body read before the key is checked. 1,034 idle sockets that sent only a
request line made every tablet POST time out. Why not an ASGI server as is (uvicorn,
hypercorn): neither bounds connections per client address nor the time a client may take to
send its request head, and those two bounds are what keeps the station serving.

What this server guarantees:
- a listen backlog of `backlog` (default 1024, capped by the kernel's somaxconn);
- a request head must arrive within `head_timeout` seconds of the connection (or of the
  previous reply on a keep-alive connection after `idle_timeout`), and a body within
  `body_timeout`; a client too slow is disconnected;
- at most `per_address` open connections per client address and `max_connections` overall;
  the next one gets a 503 and is closed without reading a byte;
- the application sees the request head first (`App.head`, e.g. the table key) and may
  refuse before the body is read; the body is read only up to the limit `head` returns;
- the application runs in a thread pool (storage is blocking), never on the event loop.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import resource
import socket
import threading
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import parse_qs, urlsplit

import h11

MAX_HEAD_BYTES = 16 * 1024


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
    body_timeout: float = 30.0
    idle_timeout: float = 60.0
    per_address: int = 32
    max_connections: int = 4096
    workers: int = 32


def _fd_budget(wanted: int) -> int:
    """Open connections must leave file descriptors for the database and the thread pool."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted + 256:
        target = wanted + 256 if hard == resource.RLIM_INFINITY else min(hard, wanted + 256)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return max(16, min(wanted, soft - 128))


class _Slow(Exception):
    """The client did not send what it owed in time."""


class HttpServer:
    """Runs the event loop in the calling thread (`serve_forever`); `shutdown` from any thread."""

    def __init__(self, app: App, host: str, port: int, limits: Limits | None = None,
                 ssl_context: Any = None, server_header: str = "BiddingBoxStation"):
        self.app = app
        self.limits = limits or Limits()
        self.max_connections = _fd_budget(self.limits.max_connections)
        self.ssl_context = ssl_context
        self.server_header = server_header.encode()
        self.pool = concurrent.futures.ThreadPoolExecutor(self.limits.workers, thread_name_prefix="station")
        self.by_address: dict[str, int] = {}
        self.open = 0
        self.loop = asyncio.new_event_loop()
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
        server = await asyncio.start_server(self._connection, sock=self.sock, ssl=self.ssl_context,
                                            backlog=self.limits.backlog, limit=MAX_HEAD_BYTES)
        self._ready.set()
        async with server:
            await self._stopped.wait()

    def shutdown(self) -> None:
        self.loop.call_soon_threadsafe(self._stopped.set)

    def server_close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
        try:
            self.sock.close()
        except OSError:
            pass

    # -- one connection -------------------------------------------------------------------------
    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername") or ("?", 0)
        client = str(peer[0])
        if self.open >= self.max_connections or self.by_address.get(client, 0) >= self.limits.per_address:
            # Refused before reading anything: one address (or everyone) holds too many sockets.
            await self._refuse_busy(writer, client)
            return
        self.open += 1
        self.by_address[client] = self.by_address.get(client, 0) + 1
        try:
            sock = writer.get_extra_info("socket")
            if sock is not None:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            await self._serve_connection(reader, writer, client)
        except (ConnectionError, OSError, _Slow, asyncio.IncompleteReadError, h11.ProtocolError):
            pass
        finally:
            self.open -= 1
            left = self.by_address[client] - 1
            if left:
                self.by_address[client] = left
            else:
                del self.by_address[client]
            writer.close()
            try:
                await asyncio.wait_for(writer.wait_closed(), 2)
            except (TimeoutError, ConnectionError, OSError):
                pass

    async def _refuse_busy(self, writer: asyncio.StreamWriter, client: str) -> None:
        body = b'{"error": "too many connections from this address; retry later", "status": 503}'
        try:
            writer.write(b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
                         b"Retry-After: 2\r\nConnection: close\r\nContent-Length: "
                         + str(len(body)).encode() + b"\r\n\r\n" + body)
            await asyncio.wait_for(writer.drain(), 2)
        except (TimeoutError, ConnectionError, OSError):
            pass
        finally:
            writer.close()
        self.app.log(None, 503, client)

    async def _next_event(self, conn: h11.Connection, reader: asyncio.StreamReader, deadline: float) -> Any:
        while True:
            event = conn.next_event()
            if event is not h11.NEED_DATA:
                return event
            left = deadline - self.loop.time()
            if left <= 0:
                raise _Slow()
            try:
                data = await asyncio.wait_for(reader.read(65536), left)
            except TimeoutError:
                raise _Slow() from None
            conn.receive_data(data)

    async def _serve_connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                                client: str) -> None:
        conn = h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_HEAD_BYTES)
        lim = self.limits
        first = True
        while True:
            # The head of the first request is due at once; a keep-alive connection may idle a while.
            wait = lim.head_timeout if first else lim.idle_timeout
            first = False
            try:
                event = await self._next_event(conn, reader, self.loop.time() + wait)
            except h11.RemoteProtocolError as e:
                await self._send(conn, writer, None, Response(e.error_status_hint or 400,
                                                               f"bad request: {e}\n".encode(), close=True), client)
                return
            if isinstance(event, (h11.ConnectionClosed, h11.EndOfMessage)) or not isinstance(event, h11.Request):
                return
            request = self._request(event, client)
            verdict = await self.loop.run_in_executor(self.pool, self.app.head, request)
            if isinstance(verdict, Response):
                verdict.close = True  # the unread body must not be taken for the next request
                await self._send(conn, writer, request, verdict, client)
                return
            body = bytearray()
            if conn.they_are_waiting_for_100_continue:
                await self._write(conn, writer, h11.InformationalResponse(status_code=100, headers=[]))
            deadline = self.loop.time() + lim.body_timeout
            while True:
                try:
                    part = await self._next_event(conn, reader, deadline)
                except h11.RemoteProtocolError as e:
                    await self._send(conn, writer, request, Response(400, f"bad request: {e}\n".encode(),
                                                                     close=True), client)
                    return
                if isinstance(part, h11.Data):
                    body += part.data
                    if len(body) > verdict:
                        await self._send(conn, writer, request, Response(
                            413, f"body over the limit of {verdict} bytes\n".encode(), close=True), client)
                        return
                elif isinstance(part, h11.EndOfMessage):
                    break
                else:
                    return
            response = await self.loop.run_in_executor(self.pool, self.app.handle, request, bytes(body))
            await self._send(conn, writer, request, response, client)
            if response.close or conn.our_state is not h11.DONE or conn.their_state is not h11.DONE:
                return
            conn.start_next_cycle()

    def _request(self, event: h11.Request, client: str) -> Request:
        target = event.target.decode("latin-1")
        url = urlsplit(target)
        headers = Headers()
        for name, value in event.headers:
            headers.setdefault(name.decode("latin-1").lower(), value.decode("latin-1"))
        return Request(event.method.decode("latin-1"), url.path, parse_qs(url.query), headers, client, target)

    async def _write(self, conn: h11.Connection, writer: asyncio.StreamWriter, event: Any) -> None:
        data = conn.send(event)
        if data:
            writer.write(data)
            await asyncio.wait_for(writer.drain(), self.limits.body_timeout)

    async def _send(self, conn: h11.Connection, writer: asyncio.StreamWriter, request: Request | None,
                    response: Response, client: str) -> None:
        headers = [(b"Server", self.server_header), (b"Content-Type", response.content_type.encode()),
                   (b"Content-Length", str(len(response.body)).encode()), (b"Cache-Control", b"no-store")]
        headers += [(k.encode("latin-1"), v.encode("latin-1")) for k, v in response.headers]
        if response.close:
            headers.append((b"Connection", b"close"))
        self.app.log(request, response.status, client)
        if conn.our_state is not h11.SEND_RESPONSE and conn.our_state is not h11.IDLE:
            return
        try:
            await self._write(conn, writer, h11.Response(status_code=response.status, headers=headers))
            if request is None or request.method != "HEAD":
                await self._write(conn, writer, h11.Data(data=response.body))
            await self._write(conn, writer, h11.EndOfMessage())
        except TimeoutError:
            raise _Slow() from None
