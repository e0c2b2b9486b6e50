"""The live feed's fan-out: a process of its own that serves the spectators, so that a thousand of
them cost the station's process (the tablets' deliveries) one subscriber and nothing more.

The station (`python -m station --live`) starts it (`Fanout`) and writes it every event the feed
releases (`station/live_feed.py`), one line each, `<kind> <JSON with its seq>`, over the child's
standard input: a local pipe, in order, nothing dropped (the writer waits, on its own thread, if
the child is slow to read). The first line says what the feed shows (`hello`: the event, the
delay, the tables shown, the first number); then the state as it stands (the last event of every
board, match and session's byes, in order of their numbers); then each event as it is released.
The child keeps them in its own `LiveViews` and serves `/live/...` (`station/live_http.py`) on
its own port; it never reads the database and decides nothing: what it shows was released by
the feed, so nothing is shown before its time nor of a table not shown. A child that dies is
started again on the same ports and given the state again; event numbers are the station's, so a
browser reconnecting with its Last-Event-ID goes on where it was. The child ends when its
standard input does (the station stopped or died).

`python -m station.live_fanout` is that child; the organiser never starts it by hand.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import pathlib
import queue
import signal
import subprocess
import sys
import threading
import time
from typing import Any

from .http_server import HttpServer, Limits, Request, Response
from .live_views import LiveConfig, LiveViews

READY = "live fan-out ready"
RESTART_S = 1.0          # a child that died is started again after this long
START_TIMEOUT_S = 60.0   # a child that says nothing for this long after its start has failed
NICE = 10                # the child's priority below the station's (POSIX nice)
MAX_QUEUED = 50_000      # events waiting for a child that does not read: it is stuck, and started again
STOP_WAIT_S = 2.0        # at the station's stop, how long the writer may take to hand over what waits


class FanoutError(RuntimeError):
    """The fan-out process could not start (its port taken, ...): the reason, as it said it."""


# -- the station's side --------------------------------------------------------------------------
class Fanout:
    """Starts the child, feeds it, and starts it again if it dies. `port` (and `local_port`, the
    plain HTTP loopback listener beside a TLS one, else None) once started."""

    def __init__(self, feed: Any, argv: list[str], title: str, scheme: str = "http", host: str = "127.0.0.1"):
        self.feed = feed
        self.argv = argv            # the child's options (ports, TLS, limits), ports fixed after the first start
        self.title = title
        self.scheme, self.host = scheme, host   # how spectators reach it (a name the request gives wins)
        self.port = 0
        self.local_port: int | None = None
        self.restarts = 0
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._proc: subprocess.Popen | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> Fanout:
        """The child started and given the state (FanoutError if it could not start)."""
        self.feed.sinks.append(self._sink)  # before the state is read: nothing falls between
        try:
            self._spawn()
        except (FanoutError, OSError):
            self.feed.sinks.remove(self._sink)
            self._end_child()
            raise
        self._thread = threading.Thread(target=self._run, name="live-fanout", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._lines.put(None)
        with contextlib.suppress(ValueError):
            self.feed.sinks.remove(self._sink)
        if self._thread is not None:
            self._thread.join(STOP_WAIT_S)
            if self._thread.is_alive():
                # The writer waits on a child that does not read (stopped, hung) with the pipe full,
                # holding the pipe: the child is ended, which frees the writer (the station stops
                # now, not when the child reads again).
                proc = self._proc
                if proc is not None:
                    with contextlib.suppress(OSError):
                        proc.kill()
                self._thread.join(10)
        self._end_child()

    def _sink(self, kind: str, doc: dict, data: str) -> None:  # noqa: ARG002 - the feed's sink signature
        self._lines.put(f"{kind} {data}\n".encode())
        proc = self._proc
        if self._lines.qsize() > MAX_QUEUED and proc is not None and proc.poll() is None:
            # A child that has stopped reading: ended, so the writer is free to start it again with
            # the state as it stands (what waits here then goes after, the child skipping what it has).
            proc.kill()

    def _spawn(self) -> None:
        argv = [sys.executable, "-m", "station.live_fanout", *self.argv]
        if self.port:  # started again: on the ports it had
            argv += ["--port", str(self.port)] + (["--local-port", str(self.local_port)] if self.local_port else [])
        # the station's own package, wherever the organiser started it from
        here = str(pathlib.Path(__file__).resolve().parent.parent)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(x for x in (here, os.environ.get("PYTHONPATH")) if x)}
        # Below the station's priority (POSIX: nice, in the child; Windows: its priority class):
        # when the computer is busy, the tablets' deliveries go first and the spectators wait.
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
                                creationflags=getattr(subprocess, "BELOW_NORMAL_PRIORITY_CLASS", 0))
        assert proc.stdout is not None and proc.stdin is not None
        said: list[str] = []
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            line = proc.stdout.readline().decode(errors="replace")
            if not line:
                proc.wait(10)
                raise FanoutError("".join(said).strip() or f"the live feed's process ended with code {proc.returncode}")
            if line.startswith(READY):
                fields = dict(x.split("=", 1) for x in line.split()[3:] if "=" in x)
                self.port = int(fields["port"])
                self.local_port = int(fields["local"]) if fields.get("local", "-") != "-" else None
                break
            said.append(line)
        else:
            proc.kill()
            raise FanoutError("the live feed's process did not start in time")
        # What it prints from now on is its own business (its errors go to the station's stderr).
        threading.Thread(target=lambda: proc.stdout.read() if proc.stdout else None, daemon=True).start()
        self._proc = proc  # from here on ended by stop(), or started again by the writer
        views = self.feed.views
        hello = {"event": views.event, "delay_s": views.config.delay_s, "keepalive_s": views.config.keepalive_s,
                 "seq": self.feed.first_seq,
                 "tables": None if views.config.tables is None else sorted(views.config.tables), "title": self.title}
        lines = [b"hello " + json.dumps(hello).encode() + b"\n"]
        lines += [f"{kind} {json.dumps(doc, separators=(',', ':'))}\n".encode() for kind, doc in views.state()]
        proc.stdin.write(b"".join(lines))
        proc.stdin.flush()

    def _run(self) -> None:
        """Each event to the child, in order; a child that died is started again."""
        while not self._stop.is_set():
            try:
                line = self._lines.get(timeout=RESTART_S)
            except queue.Empty:
                line = b""
            if line is None:
                return
            proc = self._proc
            try:
                if proc is None or proc.poll() is not None:
                    raise BrokenPipeError
                if line:
                    assert proc.stdin is not None
                    proc.stdin.write(line)
                    # more waiting: they go in one write
                    while not self._lines.empty():
                        more = self._lines.get_nowait()
                        if more is None:
                            self._stop.set()
                            break
                        proc.stdin.write(more)
                    proc.stdin.flush()
            except (OSError, ValueError):  # the child is gone: again, with the state as it stands
                self._restart()

    def _restart(self) -> None:
        self._end_child()
        while not self._stop.is_set():
            try:
                self._spawn()
                self.restarts += 1
                print(f"station: the live feed's process was started again on port {self.port}", flush=True)
                return
            except (FanoutError, OSError) as e:
                print(f"station: the live feed's process does not start ({e}); trying again", flush=True)
                self._stop.wait(RESTART_S)

    def _end_child(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        with contextlib.suppress(OSError):
            if proc.stdin is not None:
                proc.stdin.close()  # its end of the feed: it stops
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


# -- the child -------------------------------------------------------------------------------------
class FanoutApp:
    """The child's routes: `/live/...` from its `LiveViews`, `/` to the page, nothing else."""

    def __init__(self, views: LiveViews | None, title: str, access_log: bool):
        self.views = views
        self.title = title
        self.access_log = access_log

    def head(self, request: Request) -> Response | int:
        if request.method not in ("GET", "HEAD"):
            return _error(405, f"{request.method} {request.path} is not supported")
        return 0

    def handle(self, request: Request, body: bytes) -> Response:  # noqa: ARG002 - no body is read
        from . import live_http

        if request.path == "/":
            return Response(303, b"", headers=[("Location", "/live/")])
        if request.path == "/live" or request.path.startswith("/live/"):
            try:
                return live_http.route(self.views, request, self.title)
            except Exception as e:  # noqa: BLE001 - a bug must not take the spectators' process down
                print(f"station live feed: internal error on {request.path}: {e!r}", file=sys.stderr, flush=True)
                return _error(500, f"internal error: {type(e).__name__}")
        return _error(404, "this is the live feed's address: the spectators' page is /live/")

    def log(self, request: Request | None, status: int, client: str) -> None:
        if self.access_log:
            what = f"{request.method} {request.path}" if request else "-"
            print(f'{client} - - [{time.strftime("%d/%b/%Y %H:%M:%S")}] "{what}" {status} (live)', file=sys.stderr,
                  flush=True)


def _error(status: int, message: str) -> Response:
    return Response(status, json.dumps({"error": message, "status": status}).encode(), "application/json; charset=utf-8")


def _feed_from(stdin: Any, app: FanoutApp, servers: list[HttpServer]) -> None:
    """Read the station's lines into the views until the station stops; then stop serving."""
    try:
        for raw in stdin:
            _take_line(raw, app)
    finally:
        for server in servers:
            server.shutdown()


def _take_line(raw: bytes, app: FanoutApp) -> None:
    if not raw:
        return
    kind, _, data = raw.decode().rstrip("\n").partition(" ")
    doc = json.loads(data)
    if kind == "hello":
        tables = None if doc["tables"] is None else frozenset((str(s), int(t)) for s, t in doc["tables"])
        config = LiveConfig(float(doc["delay_s"]), tables, float(doc["keepalive_s"]))
        app.views = LiveViews(config, str(doc["event"]), int(doc["seq"]))
        app.title = str(doc["title"])
    elif app.views is not None:
        app.views.take(kind, doc, data)


def _die_with_parent() -> None:
    """On Linux the child is killed when the station dies, even by SIGKILL (its stdin ending says
    the same elsewhere, a moment later)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            import ctypes

            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m station.live_fanout",
                                description="the live feed's fan-out process (started by python -m station --live)")
    p.add_argument("--host", default="0.0.0.0")
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--local-port", type=int, default=-1, help="with TLS: plain HTTP on 127.0.0.1 too (-1: off)")
    p.add_argument("--tls-cert")
    p.add_argument("--tls-key")
    p.add_argument("--connections-per-address", type=int, default=32)
    p.add_argument("--backlog", type=int, default=1024)
    p.add_argument("--head-timeout", type=float, default=10.0)
    p.add_argument("--access-log", action="store_true")
    args = p.parse_args(argv)
    _die_with_parent()
    if hasattr(os, "nice"):
        os.nice(NICE)  # the spectators yield to the tablets (Fanout starts it so on Windows)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in the organiser's terminal is the station's to act on
    ssl_context = None
    if args.tls_cert:
        from .tls import server_context

        ssl_context = server_context(pathlib.Path(args.tls_cert), pathlib.Path(args.tls_key))
    limits = Limits(backlog=args.backlog, per_address=args.connections_per_address, head_timeout=args.head_timeout)
    app = FanoutApp(None, "", args.access_log)
    servers: list[HttpServer] = []
    try:
        servers.append(HttpServer(app, args.host, args.port, limits, ssl_context, server_header="BiddingBoxStation"))
        if ssl_context is not None and args.local_port >= 0:
            servers.append(HttpServer(app, "127.0.0.1", args.local_port, limits, None,
                                      server_header="BiddingBoxStation"))
    except OSError as e:
        print(f"cannot listen on {args.host}:{args.port} ({e})", flush=True)
        return 2
    local = servers[1].server_address[1] if len(servers) > 1 else "-"
    print(f"{READY} port={servers[0].server_address[1]} local={local}", flush=True)
    # What the feed shows, before the first spectator is answered (they wait in the backlog).
    stdin = sys.stdin.buffer
    _take_line(stdin.readline(), app)
    if app.views is None:
        return 2  # the station went away before it said anything
    threading.Thread(target=_feed_from, args=(stdin, app, servers), daemon=True).start()
    for server in servers[1:]:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        servers[0].serve_forever()
    finally:
        for server in servers:
            server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
