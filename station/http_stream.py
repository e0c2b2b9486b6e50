"""One accepted socket of the station's HTTP door, plain or TLS, read and written with deadlines.

TLS runs on `ssl.MemoryBIO` over the plain socket instead of asyncio's SSL transport, for two
reasons measured on the door (docs/station.md, "The door"):
- asyncio's SSL transport is made at accept, before the server sees the connection: every
  socket, a silent one too, got a 256 kB read buffer and its TLS state before any limit
  applied (4,400 silent sockets: 1.36 GB, never given back);
- here no TLS state exists until the client's first byte has arrived, after the door's limits
  have let the connection in, and the reads go through one small buffer per read.
"""
from __future__ import annotations

import asyncio
import socket
import ssl

READ_SIZE = 16 * 1024  # one TLS record at most; a request head is read in a few of them


class Stream:
    """Reads (`recv`) and writes (`send`) one connection's bytes; TLS after `start_tls`.
    Every wait ends at its deadline (loop time) with TimeoutError."""

    def __init__(self, loop: asyncio.AbstractEventLoop, sock: socket.socket):
        self.loop = loop
        self.sock = sock
        self.tls: ssl.SSLObject | None = None
        self._in = self._out = ssl.MemoryBIO()
        self.ended_by_reply = False  # the last reply said Connection: close

    async def start_tls(self, context: ssl.SSLContext, deadline: float) -> None:
        """The TLS handshake, done by `deadline`; called once the client has sent its first
        bytes (a socket that never speaks never gets TLS state)."""
        self._in, self._out = ssl.MemoryBIO(), ssl.MemoryBIO()
        self.tls = context.wrap_bio(self._in, self._out, server_side=True)
        while True:
            try:
                self.tls.do_handshake()
                break
            except ssl.SSLWantReadError:
                await self._flush(deadline)
                data = await self._recv_raw(deadline)
                if not data:
                    raise ConnectionError("the client left during the TLS handshake") from None
                self._in.write(data)
        await self._flush(deadline)

    async def recv(self, deadline: float) -> bytes:
        """The next bytes from the client (decrypted); b"" when it has closed."""
        if self.tls is None:
            return await self._recv_raw(deadline)
        while True:
            try:
                return self.tls.read(READ_SIZE)
            except ssl.SSLWantReadError:
                await self._flush(deadline)
                data = await self._recv_raw(deadline)
                if not data:
                    return b""
                self._in.write(data)
            except ssl.SSLZeroReturnError:  # the client's close_notify
                return b""

    async def send(self, data: bytes, deadline: float) -> None:
        if self.tls is not None:
            self.tls.write(data)
            data = self._out.read()
        # Most replies fit the socket's buffer: sent at once, without a future and a timer (a
        # thousand live-feed spectators are a thousand sends a tick); the rest waits, with the deadline.
        try:
            sent = self.sock.send(data)
        except (BlockingIOError, InterruptedError):
            sent = 0
        if sent == len(data):
            return
        async with asyncio.timeout_at(deadline):
            await self.loop.sock_sendall(self.sock, memoryview(data)[sent:])

    async def linger(self, deadline: float) -> None:
        """Stop sending (TLS close_notify, then FIN) and drop what the client still sends until
        it closes or `deadline`: closing with unread bytes would reset the connection, and a
        reset can make the client lose the reply it has not read yet."""
        try:
            self._close_notify()
            self.sock.shutdown(socket.SHUT_WR)
            while await self._recv_raw(deadline):
                pass
        except (OSError, TimeoutError):
            pass

    def _close_notify(self) -> None:
        if self.tls is not None:
            try:
                self.tls.unwrap()
            except (ssl.SSLError, ValueError):
                pass  # the client's own close_notify is not waited for
            self.tls = None
            tail = self._out.read()
            if tail:
                self.sock.send(tail)

    def close(self) -> None:
        """Close at once (a TLS close_notify if it fits in the socket's buffer, never a wait)."""
        try:
            self._close_notify()
        except OSError:
            pass
        finally:
            self.sock.close()

    async def _recv_raw(self, deadline: float) -> bytes:
        async with asyncio.timeout_at(deadline):
            return await self.loop.sock_recv(self.sock, READ_SIZE)

    async def _flush(self, deadline: float) -> None:
        data = self._out.read()
        if data:
            async with asyncio.timeout_at(deadline):
                await self.loop.sock_sendall(self.sock, data)
