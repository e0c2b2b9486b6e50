"""The station's HTTP service: tablet ingestion, the Data Connector endpoint, exports, the
director page. stdlib http.server (threaded, HTTP/1.1 keep-alive); all state is in `Store`.

Tablet API (docs/station.md has the full description):
  POST /api/v1/items           {"kind", "key", "payload"}; headers X-Table: <event>/<section>/<table>
                               and Authorization: Bearer <table key>. 201 stored, 200 already
                               stored (same content), 409 same key with other content, 4xx bad.
  GET  /api/v1/boards/<n>/results   the board's results, only to a table that has played it
  GET  /api/v1/movement        the table's movement from the scoring program (station/movement.py);
                               same headers; 404 when the scoring program has not sent one
  GET  /api/v1/health
"""
from __future__ import annotations

import base64
import collections
import hashlib
import hmac
import json
import re
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from . import __version__, movement
from .records import MAX_ITEM_BYTES, RecordError, parse_item, validate_item
from .store import Conflict, QuotaExceeded, Store, latest_results, utc_now

PING_TEXT = "Bridgemate dataconnector service version 5 (compatible): bidding-box results station {v}"
MAX_DC_BYTES = 8 * 1024 * 1024  # an InitDTO with hand records for a big event


@dataclass
class StationConfig:
    db: str = "station.db"
    host: str = "0.0.0.0"
    port: int = 8080
    event: str = ""
    director_token: str = ""   # also the Data Connector licence key unless dc_licence_key is set
    dc_licence_key: str = ""
    late_minutes: float = 10.0
    extra: dict = field(default_factory=dict)


class HttpError(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


class Station:
    """Everything a request needs, shared by the handler threads."""

    def __init__(self, store: Store, config: StationConfig):
        self.store = store
        self.config = config
        self.refusals: collections.deque[dict] = collections.deque(maxlen=50)

    # -- table keys --------------------------------------------------------------------------
    def table_key(self, event: str, section: str, table_no: int) -> str:
        """The table's key for this event, derived from the station's secret so the TD can print
        or show it again at any time; unguessable without the secret (HMAC-SHA256). Reissuing
        (a lost tablet) bumps the table's generation, which changes the key."""
        secret = self.store.ensure_secret("table_key_secret").encode()
        gen = int(self.store.setting(f"keygen/{event}/{section}/{table_no}", "0") or 0)
        msg = f"{event}/{section}/{table_no}" + (f"/{gen}" if gen else "")
        mac = hmac.new(secret, msg.encode(), hashlib.sha256).digest()
        code = base64.b32encode(mac).decode()[:16]
        return "-".join(code[i:i + 4] for i in range(0, 16, 4))

    def register_tables(self, event: str, section: str, tables: list[int], reissue: bool = False) -> dict[int, str]:
        keys = {}
        known = set(self.store.tables_with_keys(event))
        for t in tables:
            if reissue:
                name = f"keygen/{event}/{section}/{t}"
                self.store.set_setting(name, str(int(self.store.setting(name, "0") or 0) + 1))
            keys[t] = self.table_key(event, section, t)
            if reissue or (section, t) not in known:
                self.store.register_table(event, section, t, keys[t])
        return keys

    # -- tablets -----------------------------------------------------------------------------
    def authenticate_table(self, headers: Any) -> tuple[str, str, int]:
        table_id = headers.get("X-Table", "")
        auth = headers.get("Authorization", "")
        m = re.match(r"^([A-Za-z0-9._-]+)/([A-Z]{1,3})/(\d{1,3})$", table_id)
        if not m:
            raise HttpError(401, "missing or malformed X-Table header (expected <event>/<section>/<table>)")
        if not auth.startswith("Bearer ") or not auth[7:].strip():
            raise HttpError(401, "missing table key (Authorization: Bearer <key>)")
        event, section, table_no = m.group(1), m.group(2), int(m.group(3))
        if not self.store.check_table_key(event, section, table_no, auth[7:].strip()):
            raise HttpError(403, f"unknown table or wrong key for {table_id}")
        return event, section, table_no

    def ingest(self, headers: Any, body: bytes) -> tuple[int, dict]:
        event, section, table_no = self.authenticate_table(headers)
        try:
            return self._ingest(event, section, table_no, body)
        except HttpError as e:
            # The TD must hear of a result the station refused (the tablet keeps it as rejected).
            # Kept in memory only: a refused item is stored nowhere.
            key = None
            try:
                key = json.loads(body).get("key")
            except (ValueError, AttributeError, RecursionError):
                pass
            self.refusals.appendleft({"at": utc_now(), "table": f"{section}{table_no}", "event": event,
                                      "key": str(key)[:200] if key else None, "status": e.status,
                                      "error": e.message[:300]})
            self.store.refuse(event, section, table_no, str(key) if key else None, e.status, e.message)
            raise

    def _ingest(self, event: str, section: str, table_no: int, body: bytes) -> tuple[int, dict]:
        try:
            doc = parse_item(body)
        except RecordError as e:
            raise HttpError(400, str(e)) from e
        try:
            where = validate_item(doc.get("kind"), doc.get("key"), doc.get("payload"))
        except RecordError as e:
            raise HttpError(422, str(e)) from e
        if (where["event"], where["section"], where["table_no"]) != (event, section, table_no):
            raise HttpError(403, f"table {event}/{section}/{table_no} may only send its own items")
        if doc["kind"] == "result":  # issue 12: results only where the movement allows
            why = movement.gate(self.store, event, section, table_no, where["round_no"], where["board"])
            if why:
                raise HttpError(422, why)
        try:
            item_id, created = self.store.put_item(doc["key"], doc["kind"], doc["payload"], **where)
        except Conflict as e:
            raise HttpError(409, str(e)) from e
        except QuotaExceeded as e:
            raise HttpError(413, str(e)) from e
        # The commit above is durable: only now may the tablet forget the item.
        return (201 if created else 200), {"status": "stored" if created else "duplicate",
                                           "key": doc["key"], "id": item_id}

    def board_results(self, headers: Any, board: int) -> dict:
        """Scoring spec 6.5 (L16C1 2007 / 16D1 2017, R-INFO-1): a table sees a board's results
        only once its own result on that board is in."""
        event, section, table_no = self.authenticate_table(headers)
        why = movement.gate(self.store, event, section, table_no, None, board)
        if why:
            raise HttpError(403, why)
        items = self.store.items(event, "result", section=section, board=board)
        if not any(it["payload"]["table"] == table_no for it in items):
            raise HttpError(403, f"board {board}: results are shown only after this table's own result "
                                 "is in (Law 16: extraneous information)")
        return {"board": board, "results": [it["payload"] for it in latest_results(items)
                                            if it["payload"]["section"] == section]}

    def table_movement(self, headers: Any) -> dict:
        event, section, table_no = self.authenticate_table(headers)
        try:
            # The club's regulations (python -m station --profile, kept in the settings).
            doc = movement.for_table(self.store, event, section, table_no,
                                     self.config.extra.get("profile") or self.store.setting("profile"))
        except movement.NoMovement as e:
            raise HttpError(404, str(e)) from e
        # The club's director PIN for its tablets (python -m station --director-pin): only its
        # salted hash leaves the station.
        pin = self.store.setting("director_pin")
        if pin:
            doc["director_pin"] = json.loads(pin)
        return doc

    # -- director ------------------------------------------------------------------------------
    def check_director(self, query: dict, headers: Any) -> None:
        token = (query.get("token") or [""])[0]
        cookie = headers.get("Cookie", "")
        m = re.search(r"(?:^|;\s*)director=([^;]+)", cookie)
        if token != self.config.director_token and not (m and m.group(1) == self.config.director_token):
            raise HttpError(403, "director page: add ?token=<director token> (printed when the station starts)")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out as separate writes; with Nagle on, a keep-alive client waits for
    # a delayed ACK (~40 ms) on every reply.
    disable_nagle_algorithm = True
    server_version = f"BiddingBoxStation/{__version__}"
    station: Station  # set on the subclass made by make_server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        if self.station.config.extra.get("access_log"):
            super().log_message(format, *args)

    # -- replies -------------------------------------------------------------------------
    def _send(self, status: int, body: bytes, ctype: str, extra: dict | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, doc: Any) -> None:
        self._send(status, json.dumps(doc).encode(), "application/json; charset=utf-8")

    def _error(self, e: HttpError) -> None:
        self._json(e.status, {"error": e.message, "status": e.status})

    def _body(self, limit: int) -> bytes:
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            self.close_connection = True
            raise HttpError(411, "send a Content-Length (chunked bodies are not accepted)")
        try:
            n = int(self.headers.get("Content-Length", ""))
        except ValueError:
            self.close_connection = True
            raise HttpError(411, "Content-Length required") from None
        if n < 0 or n > limit:
            self.close_connection = True  # do not read an oversized body off the socket
            raise HttpError(413, f"body of {n} bytes is over the limit of {limit} bytes")
        return self.rfile.read(n)

    # -- routing ---------------------------------------------------------------------------
    def do_GET(self) -> None:  # noqa: N802 - stdlib naming
        self._route("GET")

    def do_HEAD(self) -> None:  # noqa: N802
        self._route("GET")

    def do_POST(self) -> None:  # noqa: N802
        self._route("POST")

    def _route(self, method: str) -> None:
        url = urlsplit(self.path)
        path, query = url.path, parse_qs(url.query)
        st = self.station
        try:
            if method == "POST" and path == "/api/v1/items":
                status, doc = st.ingest(self.headers, self._body(MAX_ITEM_BYTES))
                return self._json(status, doc)
            if method == "POST" and path == "/dc-scoringprogram":
                body = self._body(MAX_DC_BYTES)
                from . import dataconnector
                return self._json(200, dataconnector.handle(st, body))
            if method != "GET":
                raise HttpError(405, f"{method} {path} is not supported")
            if path == "/":
                text = PING_TEXT.format(v=__version__) + "\nDirector page: /director?token=...\n"
                return self._send(200, text.encode(), "text/plain; charset=utf-8")
            if path == "/api/v1/health":
                return self._json(200, {"status": "ok", "event": st.config.event,
                                         "items": st.store.count_items()})
            if path == "/api/v1/movement":
                return self._json(200, st.table_movement(self.headers))
            m = re.match(r"^/api/v1/boards/(\d{1,3})/results$", path)
            if m:
                return self._json(200, st.board_results(self.headers, int(m.group(1))))
            if path in ("/director", "/director/status.json", "/export/pbn", "/export/usebio"):
                st.check_director(query, self.headers)
                from . import director, exports
                event = (query.get("event") or [st.config.event])[0]
                cookie = {"Set-Cookie": f"director={st.config.director_token}; HttpOnly; SameSite=Strict; Path=/"}
                if path == "/director":
                    html = director.render(st, event)
                    return self._send(200, html.encode(), "text/html; charset=utf-8", cookie)
                if path == "/director/status.json":
                    return self._json(200, director.status(st, event))
                # ?session=<SessionGuid>: one session of the scoring program (default: all).
                session = (query.get("session") or [None])[0]
                if path == "/export/pbn":
                    return self._send(200, exports.pbn_for_event(st.store, event, session=session).encode(),
                                      "application/x-pbn; charset=utf-8",
                                      {"Content-Disposition": f'attachment; filename="{event}.pbn"'})
                return self._send(200, exports.usebio_for_event(st.store, event, session=session).encode(),
                                  "application/xml; charset=utf-8",
                                  {"Content-Disposition": f'attachment; filename="{event}.xml"'})
            raise HttpError(404, f"no such page: {path}")
        except HttpError as e:
            self._error(e)
        except Exception as e:  # a bug must not take the station down; the tablet retries
            self.log_error("internal error on %s: %r", path, e)
            self._error(HttpError(500, f"internal error: {type(e).__name__}"))


def make_server(station: Station) -> ThreadingHTTPServer:
    handler = type("StationHandler", (Handler,), {"station": station})
    server = ThreadingHTTPServer((station.config.host, station.config.port), handler)
    server.daemon_threads = True
    return server

