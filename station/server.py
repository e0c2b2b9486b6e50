"""The station's HTTP service: tablet ingestion, the Data Connector endpoint, exports, the
director page and its login. Served by `http_server.HttpServer` (asyncio + h11: timeouts,
per-address limits, the key checked before the body is read), over TLS unless the station is
started with --insecure-http; all state is in `Store`.

Tablet API (docs/station.md has the full description):
  POST /api/v1/items           {"kind", "key", "payload"}; headers X-Table: <event>/<section>/<table>
                               and Authorization: Bearer <table key>. 201 stored, 200 already
                               stored (same content), 409 same key with other content, 4xx bad.
  POST /api/v1/items/batch     {"items": [...]}: several of those in order, one answer each
  GET  /api/v1/boards/<n>/results   the board's results, only to a table that has played it
  GET  /api/v1/movement        the table's movement from the scoring program (station/movement.py);
                               same headers; 404 when the scoring program has not sent one
  POST /api/v1/director-pin    {"pin", "nonce"}: the club's director PIN checked for a tablet, with
                               its lockout (station/director_pin.py); same headers
  GET  /api/v1/health          200 "ok", 200 "degraded" (the .bws missing, unreadable, replaced), or
                               503 "trouble" with the problems (disk, database)
  GET/POST /login              the director's login form; sets the session cookie
  GET  /live/...               307 to the live feed's own process (station/live_fanout.py), with --live
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import re
import sys
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from shared_rules.records import RefusalCode, Refused

from . import __version__, law16, movement, screens, table_players
from .bws import status as bws_status
from .director_pin import MAX_BODY as PIN_BODY
from .director_pin import Answer, PinChecks
from .http_json import JsonError, loads_limited
from .http_server import CSP, Headers, HttpServer, Limits, Request, Response, response_headers
from .listeners import Ingested, Listeners
from .records import MAX_ITEM_BYTES, RecordError, parse_item, validate_item
from .store import Conflict, QuotaExceeded, Store, latest_results, utc_now

PING_TEXT = "Bridgemate dataconnector service version 5 (compatible): bidding-box results station {v}"
MAX_DC_BYTES = 8 * 1024 * 1024  # an InitDTO with hand records for a big event
MAX_BATCH_ITEMS = 64            # items in one POST /api/v1/items/batch
MAX_BATCH_BYTES = 1024 * 1024
MAX_NUMBERS = 8                 # member numbers looked up in one GET /api/v1/players
FINAL = (200, 201, 400, 409, 411, 413, 422)  # answers a tablet never sends the item again for
# An answer the tablet sends the item again for, later, without holding up the items behind it
# (a result of a round the table is not on yet: station/law16.py).
HELD = (law16.TOO_EARLY,)


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
    """An answer other than success: its status, its English message (`error`, as every station
    has sent it) and, for a refusal of the tablet API, its code and parameters (`refused`:
    shared_rules/records/refusals.py), which the tablet says in its language."""

    def __init__(self, status: int, message: str, refused: Refused | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.refused = refused

    def to_json(self) -> dict[str, Any]:
        """The answer's body: `error` and `status`, and `code` and `params` of a refusal."""
        return {"error": self.message, "status": self.status, **(self.refused.to_json() if self.refused else {})}


class Station:
    """Everything a request needs, shared by the handler threads."""

    def __init__(self, store: Store, config: StationConfig):
        self.store = store
        self.config = config
        self.progress: Any = None   # director.Progress, made on the first page view
        self.storage_trouble: str | None = None  # why the last store failed, until one succeeds
        self.listeners = Listeners()  # who hears of each stored item (station/listeners.py)
        self.pin_checks = PinChecks(store)  # the director PIN for tablets, with its lockout
        self.live: Any = None  # the live feed (station/live_feed.py), with --live
        self.live_fanout: Any = None  # the process that serves its spectators (station/live_fanout.py)
        self._probe: tuple[float, str | None] = (0.0, None)
        self._probe_lock = threading.Lock()

    # -- health --------------------------------------------------------------------------------
    MIN_FREE_BYTES = 32 * 1024 * 1024
    PROBE_EVERY = 5.0

    def _write_probe(self) -> str | None:
        """Can the database take a commit now? Probed with a real write at most every few
        seconds (an unauthenticated health check must not drive the disk)."""
        with self._probe_lock:
            at, problem = self._probe
            if time.monotonic() - at >= self.PROBE_EVERY:
                try:
                    self.store.set_setting("health/probe", utc_now())
                    problem = None
                except Exception as e:
                    problem = f"the database does not take writes: {type(e).__name__}: {e}"[:300]
                self._probe = (time.monotonic(), problem)
            return problem

    def health(self) -> tuple[int, dict]:
        """200 "ok", or 503 "trouble" with the problems: database unreadable or not taking
        writes, the disk under 32 MB free, the last delivery failed to store; 200 "degraded"
        when only the .bws link has trouble (station/bws/status.py)."""
        problems, items = [], None
        try:
            items = self.store.count_items()
        except Exception as e:
            problems.append(f"the database cannot be read: {type(e).__name__}: {e}"[:300])
        free = _free_bytes(self.store)
        if free is not None and free < self.MIN_FREE_BYTES:
            problems.append(f"the disk holding the database is nearly full: {free // 1024} kB free")
        probe = self._write_probe()
        if probe:
            problems.append(probe)
        if self.storage_trouble:
            problems.append(f"the last delivery could not be stored: {self.storage_trouble}")
        # The scoring program's .bws gone or replaced degrades the station, 200: the tables'
        # results are safe here and the tablets must not be turned away (docs/station.md).
        try:
            degraded, link = bws_status.health(self.store)
        except Exception:  # the database itself is the trouble, said above
            degraded, link = [], None
        doc = {"status": "trouble" if problems else ("degraded" if degraded else "ok"), "event": self.config.event,
               "items": items, "problems": problems + degraded, **({"scoring_link": link} if link else {})}
        if items is not None:
            # Rows no reader can use (station/stored.py): named on the director page and in
            # status.json. They do not stop deliveries, so the station is still "ok".
            from .director import progress_of
            try:
                doc["damaged"] = progress_of(self).damaged_count(self.store)
            except Exception as e:  # noqa: BLE001 - a count must not turn the health check into a 500
                doc["damaged"] = None
                print(f"station: could not count damaged rows: {e!r}", file=sys.stderr, flush=True)
        return (503 if problems else 200), doc

    # -- table keys --------------------------------------------------------------------------
    def table_key(self, event: str, section: str, table_no: int) -> str:
        """The table's key for this event, derived from the station's secret so the TD can print
        or show it again at any time; unguessable without the secret (HMAC-SHA256). Reissuing
        (a lost tablet) bumps the table's generation, which changes the key."""
        return self.table_keys(event, [(section, table_no)])[(section, table_no)]

    def table_keys(self, event: str, tables: list[tuple[str, int]]) -> dict[tuple[str, int], str]:
        """`table_key` for many tables with two reads (the director page lists them all)."""
        secret = self.store.ensure_secret("table_key_secret").encode()
        prefix = f"keygen/{event}/"
        gens = {name[len(prefix):]: value for name, value in self.store.query(
            "SELECT name, value FROM settings WHERE name LIKE ?", (prefix.replace("%", "") + "%",))
            if name.startswith(prefix)}
        keys = {}
        for section, table_no in tables:
            gen = int(gens.get(f"{section}/{table_no}", "0") or 0)
            msg = f"{event}/{section}/{table_no}" + (f"/{gen}" if gen else "")
            mac = hmac.new(secret, msg.encode(), hashlib.sha256).digest()
            code = base64.b32encode(mac).decode()[:16]
            keys[(section, table_no)] = "-".join(code[i:i + 4] for i in range(0, 16, 4))
        return keys

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
            raise HttpError(401, "missing or malformed X-Table header (expected <event>/<section>/<table>)",
                            Refused.of(RefusalCode.TABLE_ID_FORM))
        if not auth.startswith("Bearer ") or not auth[7:].strip():
            raise HttpError(401, "missing table key (Authorization: Bearer <key>)",
                            Refused.of(RefusalCode.TABLE_KEY_MISSING))
        event, section, table_no = m.group(1), m.group(2), int(m.group(3))
        if not self.store.check_table_key(event, section, table_no, auth[7:].strip()):
            raise HttpError(403, f"unknown table or wrong key for {table_id}",
                            Refused.of(RefusalCode.TABLE_KEY_WRONG, table=f"{section}{table_no}"))
        return event, section, table_no

    def ingest(self, headers: Any, body: bytes) -> tuple[int, dict]:
        event, section, table_no = self.authenticate_table(headers)
        try:
            return self._ingest(event, section, table_no, self._parse(body))
        except HttpError as e:
            key = None
            try:
                key = loads_limited(body).get("key")
            except (JsonError, AttributeError):
                pass
            self._refused(event, section, table_no, key, e)
            raise

    def ingest_batch(self, headers: Any, body: bytes) -> tuple[int, dict]:
        """Several items of one table in one request (`POST /api/v1/items/batch`, `{"items":
        [...]}`): each stored or refused exactly as alone, in order, with its own answer. The
        first item that the tablet must send again (its answer is not final: a 5xx, a 507) ends
        the batch: the items behind it get status 0 and are sent again, so the order holds. An
        item held as too early (425) does not: the tablet sends it again later on its own."""
        event, section, table_no = self.authenticate_table(headers)
        doc = self._parse(body)
        items = doc.get("items")
        if not isinstance(items, list) or not 1 <= len(items) <= MAX_BATCH_ITEMS:
            raise HttpError(422, f"items: expected a list of 1 to {MAX_BATCH_ITEMS} items",
                            Refused.of(RefusalCode.BATCH_SIZE, most=MAX_BATCH_ITEMS))
        results: list[dict] = []
        for item in items:
            if results and results[-1]["status"] not in FINAL + HELD:
                results.append({"status": 0, "error": "not tried: send it again"})
                continue
            key = item.get("key") if isinstance(item, dict) else None
            try:
                if not isinstance(item, dict):
                    raise HttpError(400, "expected a JSON object {kind, key, payload}",
                                    Refused.of(RefusalCode.BATCH_ITEM))
                status, reply = self._ingest(event, section, table_no, item)
                results.append({**reply, "status": status})
            except HttpError as e:
                self._refused(event, section, table_no, key, e)
                results.append({**e.to_json(), "key": key if isinstance(key, str) else None})
        return 200, {"results": results}

    def _refused(self, event: str, section: str, table_no: int, key: Any, e: HttpError) -> None:
        """The TD must hear of an item the station refused (the tablet keeps it as rejected): its
        trace is kept per table (the item itself is stored nowhere). A 503 is no refusal (the
        tablet retries), and a store that cannot write must not hide the reply."""
        if e.status < 500 or e.status == 507:  # 507: no room for a result, retried
            try:
                self.store.refuse(event, section, table_no, str(key) if key else None, e.status, e.message,
                                  e.refused.to_json() if e.refused else None)
            except Exception as trouble:  # noqa: BLE001 - the refusal itself still goes out
                print(f"station: could not record a refusal: {trouble!r}", file=sys.stderr, flush=True)

    @staticmethod
    def _parse(body: bytes) -> dict:
        try:
            return parse_item(body)
        except RecordError as e:
            raise HttpError(400, str(e), Refused.of(RefusalCode.RECORD_FORM, detail=str(e))) from e

    def _ingest(self, event: str, section: str, table_no: int, doc: dict) -> tuple[int, dict]:
        try:
            where = validate_item(doc.get("kind"), doc.get("key"), doc.get("payload"))
        except RecordError as e:
            raise HttpError(422, str(e), e.refusal or Refused.of(RefusalCode.RECORD_INVALID, detail=str(e))) from e
        if (where["section"], where["table_no"]) != (section, table_no) or (
                where["event"] != event
                and self.store.station_event_of(where["event"]) != self.store.station_event_of(event)):
            # A table's key is its station event's: an item of another session of that event (a
            # tablet that moved on to the evening session keeps its X-Table) is still its own.
            raise HttpError(403, f"table {event}/{section}/{table_no} may only send its own items",
                            Refused.of(RefusalCode.TABLE_NOT_OWN, table=f"{section}{table_no}"))
        event = where["event"]
        if doc["kind"] == "result":  # results only for the round the table is on (station/law16.py)
            refusal = law16.may_post(self.store, event, section, table_no, where["round_no"], where["board"])
            if refusal:
                raise HttpError(refusal.status, refusal.why, refusal.refused)
        elif doc["kind"] == "round":  # a round of the table's movement (station/law16.py)
            refusal = law16.may_start(self.store, event, section, table_no, where["round_no"])
            if refusal:
                raise HttpError(refusal.status, refusal.why, refusal.refused)
        elif doc["kind"] == "players":  # numbers only for a round of the table's movement
            why = table_players.may_post(self.store, event, section, table_no, where["round_no"])
            if why:
                raise HttpError(422, why, Refused.of(RefusalCode.PLAYERS_ROUND, table=f"{section}{table_no}",
                                                     round=where["round_no"]))
        try:
            item_id, created = self.store.put_item(doc["key"], doc["kind"], doc["payload"], **where)
        except Conflict as e:
            raise HttpError(409, str(e), Refused.of(RefusalCode.RECORD_CONFLICT, key=doc["key"])) from e
        except QuotaExceeded as e:
            # A result or a TD call is never refused for good for space: 507, which the tablet
            # keeps and retries (no table in play comes near its room: docs/station.md "Room");
            # a progress snapshot is dropped (413).
            raise HttpError(413 if e.kind in ("auction", "auction_event") else 507, str(e), e.refused) from e
        except Exception as e:  # disk full, I/O error: nothing stored, the tablet retries later
            self.storage_trouble = f"{type(e).__name__}: {e}"[:300]
            raise HttpError(503, f"the station cannot store right now ({type(e).__name__}: {e}); "
                                 "the tablet keeps the item and retries") from e
        self.storage_trouble = None
        if created:
            self.listeners.announce(Ingested(item_id, doc["kind"], doc["key"], doc["payload"]))
        # The commit above is durable: only now may the tablet forget the item.
        return (201 if created else 200), {"status": "stored" if created else "duplicate",
                                           "key": doc["key"], "id": item_id}

    def board_results(self, headers: Any, board: int) -> dict:
        """The board's results in the table's section (the latest revision of each table's),
        only once the table's own result on that board stands (2007 L16C1 / 2017 L16D1:
        station/law16.py). A damaged row is left out (station/stored.py)."""
        event, section, table_no = self.authenticate_table(headers)
        refusal = law16.may_read(self.store, event, section, table_no, board)
        if refusal:
            raise HttpError(refusal.status, refusal.why, refusal.refused)
        items = self.store.items(event, "result", section=section, board=board)
        shown = [it["payload"] for it in latest_results(items)]
        # A team match hides the other room's result until the match is over (docs/station.md
        # "Team matches"), whatever the club's show-results setting.
        from .match_store import law16_visible
        return {"board": board, "results": law16_visible(self.store, event, section, table_no, board, shown)}

    def table_movement(self, headers: Any, session: str | None = None) -> dict:
        """The table's movement; `session` (`?session=<SessionGuid>`): the session the tablet was
        set up with, which it stays in whatever the scoring program initialises meanwhile."""
        event, section, table_no = self.authenticate_table(headers)
        _check_session(session)
        try:
            # The club's regulations (python -m station --profile, kept in the settings).
            doc = movement.for_table(self.store, event, section, table_no,
                                     self.config.extra.get("profile") or self.store.setting("profile"), session)
        except movement.NoMovement as e:
            raise HttpError(404, str(e), e.refused) from e
        # The club's director PIN for its tablets (python -m station --director-pin): nothing of
        # it leaves the station, not even a hash (a key holder could guess it offline); the
        # tablet asks POST /api/v1/director-pin (station/director_pin.py).
        if self.store.setting("director_pin"):
            doc["director_pin"] = {"algorithm": "station"}
        grace = self.store.setting("director_grace_s")
        if grace is not None and grace.isdigit():
            doc["director_grace_s"] = int(grace)  # the club's choice (python -m station --director-grace)
        # The organiser's screens (python -m station --screens): the table plays behind screens
        # (FSB L114, 2007/2017 L80B2(e)); the tablet checks its regulation has screen rules.
        if screens.covers(screens.stored(self.store.setting("screens")), section, table_no):
            doc["screens"] = True
        # The language the club's tablets start in (python -m station --language); the TD may
        # still change it at the table.
        language = self.store.setting("language")
        if language:
            doc["language"] = language
        self._names(doc, section, table_no)
        return doc

    def _names(self, doc: dict, section: str, table_no: int) -> None:
        """Each round's players by seat (`names`: {seat: "First Last"}), where the scoring
        program sent them: the players confirm them at the round change (docs/tablet.md
        "Between rounds"). A row that does not read leaves the names out, never the reply."""
        from .director import seating_of

        try:
            seated = seating_of(self.store, doc["event"], only=lambda s, t, r: (s, t) == (section, table_no))
        except (KeyError, TypeError, ValueError, AttributeError):
            return
        for r, tables in doc.get("rounds", {}).items():
            place = seated.get((section, table_no, int(r)))
            if place and place["names"] and str(table_no) in tables:
                tables[str(table_no)]["names"] = place["names"]

    def director_pin(self, headers: Any, body: bytes) -> Answer:
        """A tablet's director PIN checked (station/director_pin.py): the table key first."""
        event, section, table_no = self.authenticate_table(headers)
        key = headers.get("Authorization", "")[7:].strip()
        return self.pin_checks.check(event, section, table_no, headers.get("X-Table", ""), key, body)

    def player_names(self, headers: Any, numbers: list[str], session: str | None = None) -> dict:
        """The names the scoring program gave member numbers, for a table to show its players
        (`?number=` once per number, at most 8; `?session=` the table's session)."""
        event, section, table_no = self.authenticate_table(headers)
        if not numbers or len(numbers) > MAX_NUMBERS:
            raise HttpError(400, f"give 1 to {MAX_NUMBERS} numbers: ?number=<member number>&number=...",
                            Refused.of(RefusalCode.PLAYERS_COUNT, most=MAX_NUMBERS))
        from shared_rules.records import check_number
        for n in numbers:
            try:
                check_number(n)
            except RecordError as e:
                raise HttpError(400, str(e), Refused.of(RefusalCode.PLAYERS_NUMBER, number=n)) from e
        _check_session(session)
        ref = movement.session_for(self.store, event, section, table_no, session)
        return {"players": table_players.lookup(self.store, ref.guid if ref else None, numbers)}

    # -- director ------------------------------------------------------------------------------
    def check_director(self, query: dict, headers: Any) -> str:
        """How the request proves it is the director's: "cookie" (the session cookie the login
        set), "bearer" (`Authorization: Bearer <token>`, for scripts) or "token" (`?token=` in
        the URL: accepted once, the caller redirects to the same page without it). Every
        comparison is constant-time."""
        m = re.search(r"(?:^|;\s*)director=([^;]+)", headers.get("Cookie", ""))
        if m and _same(m.group(1), self.director_session()):
            return "cookie"
        auth = headers.get("Authorization", "")
        if auth.startswith("Bearer ") and self.director_login(auth[7:].strip()):
            return "bearer"
        if self.director_login((query.get("token") or [""])[0]):
            return "token"
        raise HttpError(403, "director page: log in at /login with the director token (printed when the "
                             "station starts)")

    def director_login(self, token: str) -> bool:
        return bool(token) and _same(token, self.config.director_token)

    def director_session(self) -> str:
        """The login cookie's value: derived from the token (so it is not the token itself, and
        a new token ends every session), the same across restarts."""
        return hmac.new(self.config.director_token.encode(), b"director-session", hashlib.sha256).hexdigest()

    def session_cookie(self) -> tuple[str, str]:
        secure = "; Secure" if self.config.extra.get("tls") else ""
        return ("Set-Cookie", f"director={self.director_session()}; HttpOnly; SameSite=Strict; Path=/{secure}")

    def licence_ok(self, key: Any) -> bool:
        return isinstance(key, str) and _same(key, self.config.dc_licence_key or self.config.director_token)


def _free_bytes(store: Store) -> int | None:
    if store.dialect != "sqlite":
        return None  # PostgreSQL's disk is the database server's: it reports its own trouble
    try:
        st = os.statvfs(os.path.dirname(os.path.abspath(store.url.removeprefix("sqlite:///"))))
    except OSError:
        return None
    return st.f_bavail * st.f_frsize


def _same(a: str, b: str) -> bool:
    """Constant-time comparison of two secrets (no early exit on the first wrong character)."""
    return hmac.compare_digest(a.encode("utf-8", "surrogateescape"), b.encode("utf-8", "surrogateescape"))


def _check_session(session: str | None) -> None:
    """`?session=`, when given, is a SessionGuid (what the movement gave the tablet)."""
    if session is not None and not re.fullmatch(r"[0-9A-F]{32}", session):
        raise HttpError(400, "?session= must be the SessionGuid the movement gave (32 characters 0-9, A-F)",
                        Refused.of(RefusalCode.SESSION_FORM))


def _first(query: dict[str, list[str]], name: str) -> str | None:
    """The first value of a query parameter, None when it is not given."""
    values = query.get(name)
    return values[0] if values else None


def _filename(event: str) -> str:
    """An event id as a download's file name: no user text goes into a header unescaped."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", event)[:100] or "event"


LOGIN_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Director login</title></head><body>
<h1>Director login</h1>{message}
<form method="post" action="/login"><label>Director token
<input type="password" name="token" autocomplete="current-password" autofocus></label>
<button type="submit">Log in</button></form>
<p>The token is printed in the station's window when it starts.</p></body></html>"""


def _content_length(request: Request, limit: int) -> HttpError | None:
    if "chunked" in request.header("Transfer-Encoding").lower():
        return HttpError(411, "send a Content-Length (chunked bodies are not accepted)",
                         Refused.of(RefusalCode.BODY_LENGTH))
    try:
        n = int(request.header("Content-Length"))
    except ValueError:
        return HttpError(411, "Content-Length required", Refused.of(RefusalCode.BODY_LENGTH))
    if n < 0 or n > limit:
        return HttpError(413, f"body of {n} bytes is over the limit of {limit} bytes",
                         Refused.of(RefusalCode.BODY_TOO_BIG, size=n, limit=limit))
    return None


def _styled_page(text: str) -> Response:
    """A director page: its one inline <style> allowed by hash, nothing else inline."""
    from .director import STYLE_HASH

    return Response(200, text.encode(), "text/html; charset=utf-8",
                    [("Content-Security-Policy", f"{CSP}; style-src {STYLE_HASH}")])


def _dc_error_envelope(message: str) -> dict:
    """The Data Connector's contract is HTTP 200 with an error reply (DataType error,
    ErrorType validation), whatever the request was."""
    from .dataconnector import E_VALIDATION, ERROR
    return {"RequestCommand": 0, "DataType": ERROR, "LastQueueItemId": 0, "ErrorType": E_VALIDATION,
            "SessionGuid": None, "SerializedData": json.dumps(message)}


class StationApp:
    """The station's routes, for `http_server.HttpServer`: `head` decides from the request line
    and headers alone (the table key is checked before a byte of the body is read), `handle`
    answers the complete request."""

    def __init__(self, station: Station):
        self.station = station

    # -- access log: never the query string (it may carry the director token) -------------------
    def log(self, request: Request | None, status: int, client: str) -> None:
        if not self.station.config.extra.get("access_log"):
            return
        what = f"{request.method} {request.path}" if request else "-"
        line = f'{client} - - [{time.strftime("%d/%b/%Y %H:%M:%S")}] "{what}" {status}'
        print(line.encode("ascii", "backslashreplace").decode(), file=sys.stderr, flush=True)

    def head(self, request: Request) -> Response | int:
        try:
            if request.method == "POST" and request.path in ("/api/v1/items", "/api/v1/items/batch"):
                self.station.authenticate_table(request.headers)
                limit = MAX_ITEM_BYTES if request.path == "/api/v1/items" else MAX_BATCH_BYTES
                bad = _content_length(request, limit)
                if bad:
                    raise bad
                return limit
            if request.method == "POST" and request.path == "/api/v1/director-pin":
                self.station.authenticate_table(request.headers)
                bad = _content_length(request, PIN_BODY)
                if bad:
                    raise bad
                return PIN_BODY
            if request.method == "POST" and request.path == "/dc-scoringprogram":
                bad = _content_length(request, MAX_DC_BYTES)
                if bad:
                    raise bad
                return MAX_DC_BYTES
            if request.method == "POST" and request.path == "/login":
                bad = _content_length(request, 4096)
                if bad:
                    raise bad
                return 4096
            if request.method not in ("GET", "HEAD"):
                raise HttpError(405, f"{request.method} {request.path} is not supported")
            return 0
        except HttpError as e:
            return self._error(e)
        except Exception as e:  # storage trouble while checking a key: the tablet retries
            return self._internal(request, e)

    def handle(self, request: Request, body: bytes) -> Response:
        try:
            return self._route(request, body)
        except HttpError as e:
            return self._error(e)
        except Exception as e:  # a bug must not take the station down; the tablet retries
            return self._internal(request, e)

    def _internal(self, request: Request, e: Exception) -> Response:
        print(f"station: internal error on {request.method} {request.path}: {e!r}", file=sys.stderr, flush=True)
        return self._error(HttpError(500, f"internal error: {type(e).__name__}"))

    @staticmethod
    def _json(status: int, doc: Any, headers: list[tuple[str, str]] | None = None) -> Response:
        return Response(status, json.dumps(doc).encode(), "application/json; charset=utf-8", headers or [])

    @staticmethod
    def _login_form(status: int, message: str) -> Response:
        return Response(status, LOGIN_PAGE.format(message=message).encode(), "text/html; charset=utf-8")

    def _login(self, request: Request, body: bytes) -> Response:
        if request.method != "POST":
            return self._login_form(200, "")
        form = parse_qs(body.decode("utf-8", "replace"))
        if not self.station.director_login((form.get("token") or [""])[0]):
            return self._login_form(403, "<p>Wrong token.</p>")
        return Response(303, b"", headers=[("Location", "/director"), self.station.session_cookie()])

    def _error(self, e: HttpError) -> Response:
        return self._json(e.status, e.to_json())

    def _route(self, request: Request, body: bytes) -> Response:
        st, path, query = self.station, request.path, request.query
        if request.method == "POST" and path == "/api/v1/items":
            status, doc = st.ingest(request.headers, body)
            return self._json(status, doc)
        if request.method == "POST" and path == "/api/v1/director-pin":
            answer = st.director_pin(request.headers, body)
            retry = [("Retry-After", str(answer.retry_after))] if answer.retry_after else []
            return self._json(answer.status, answer.doc, retry)
        if request.method == "POST" and path == "/api/v1/items/batch":
            return self._json(*st.ingest_batch(request.headers, body))
        if request.method == "POST" and path == "/dc-scoringprogram":
            from . import dataconnector
            try:
                req = loads_limited(body)  # the door's limits, before the Data Connector parses it
                if isinstance(req, dict) and not st.licence_ok(req.get("LicenceKey")):
                    # Checked here in constant time; the Data Connector sees only a right key.
                    env = _dc_error_envelope("Unknown club id or licence key: use the licence key the station "
                                             "printed at start (also on the director page)")
                    command = req.get("Command")
                    env["RequestCommand"] = command if isinstance(command, int) and not isinstance(command, bool) \
                        and abs(command) < 2**31 else 0
                    env["SessionGuid"] = req.get("SessionGuid") if isinstance(req.get("SessionGuid"), str) else None
                    return self._json(200, env)
                return self._json(200, dataconnector.handle_request(st, req))
            except JsonError as e:
                return self._json(200, _dc_error_envelope(f"Malformed ScoringProgramRequest: {e}"))
            except Exception as e:
                print(f"station: Data Connector error: {e!r}", file=sys.stderr, flush=True)
                return self._json(200, _dc_error_envelope(f"Invalid data: {type(e).__name__}"))
        if path == "/":
            if st.store.setting("integration") == "bws":
                # No Data Connector greeting: a scoring program's Connect must fail, not find a
                # link that refuses every command (docs/bws.md).
                from .dataconnector import BWS_MODE
                text = f"bidding-box results station {__version__}\n{BWS_MODE}\nDirector page: /director\n"
            else:
                text = PING_TEXT.format(v=__version__) + "\nDirector page: /director\n"
            return Response(200, text.encode())
        if path == "/login":
            return self._login(request, body)
        if path == "/api/v1/health":
            return self._json(*st.health())
        if path == "/api/v1/movement":
            return self._json(200, st.table_movement(request.headers, _first(query, "session")))
        if path == "/api/v1/players":
            return self._json(200, st.player_names(request.headers, query.get("number") or [],
                                                   _first(query, "session")))
        m = re.match(r"^/api/v1/boards/(\d{1,3})/results$", path)
        if m:
            return self._json(200, st.board_results(request.headers, int(m.group(1))))
        if path in ("/director", "/director/status.json", "/director/table", "/export/pbn", "/export/usebio"):
            try:
                how = st.check_director(query, request.headers)
            except HttpError:
                if path in ("/director", "/director/table"):  # a person at a browser: the login form
                    return self._login_form(403, "")
                raise
            if how == "token" and path in ("/director", "/director/table"):
                # A page: log in once, then the same page without the token in its address (and
                # the browser's history). A download (export, status.json) is served at once.
                rest = urlencode([(k, v) for k, vs in query.items() if k != "token" for v in vs])
                return Response(303, b"", headers=[("Location", path + ("?" + rest if rest else "")),
                                                   st.session_cookie()])
            from . import director, exports
            event = (query.get("event") or [st.config.event])[0]
            if path == "/director":
                return _styled_page(director.render(st, event, _first(query, "lang")))
            if path == "/director/table":
                m = re.match(r"^([A-Z]{1,3})$", (query.get("section") or [""])[0])
                t = (query.get("table") or [""])[0]
                if not m or not t.isdigit() or len(t) > 3:
                    raise HttpError(400, "expected ?section=<letters>&table=<number>")
                return _styled_page(director.render_table(st, event, m.group(1), int(t),
                                                          _first(query, "lang")))
            if path == "/director/status.json":
                return self._json(200, director.status(st, event))
            # One session's file: ?session=<SessionGuid>, else the session whose tablets use the
            # id ?event= (docs/station.md "Files"); &section= one of its sections (USEBIO).
            session = _first(query, "session")
            from .session_scope import UnknownSession, scope
            try:
                sc = scope(st.store, event, session)
                name = _filename(sc.tablet_event)
                if path == "/export/pbn":
                    return Response(200, exports.pbn_for_event(st.store, event, session=session).encode(),
                                    "application/x-pbn; charset=utf-8",
                                    [("Content-Disposition", f'attachment; filename="{name}.pbn"')])
                section = _first(query, "section")
                if section is not None and not re.fullmatch(r"[A-Z]{1,3}", section):
                    raise HttpError(400, "?section= must be the section's letters (A, B ...)")
                xml = exports.usebio_for_event(st.store, event, session=session, section=section)
            except (UnknownSession, exports.UnknownSection) as e:
                raise HttpError(404, str(e)) from e
            suffix = f"-{section}" if section else ""
            return Response(200, xml.encode(), "application/xml; charset=utf-8",
                            [("Content-Disposition", f'attachment; filename="{name}{suffix}.xml"')])
        if path == "/live" or path.startswith("/live/"):
            from . import live_http
            fanout = st.live_fanout
            if fanout is not None:  # the spectators' own process (station/live_fanout.py)
                return live_http.elsewhere(request, fanout.scheme, fanout.host, fanout.port)
            return live_http.route(st.live.views if st.live is not None else None, request, live_http.title_of(st))
        raise HttpError(404, f"no such page: {path}")


class LegacyHandler(BaseHTTPRequestHandler):
    """The stdlib server the station used before (kept for `make bench`, `--http-server
    threading`): one thread per connection, no timeouts, backlog 5."""

    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server_version = f"BiddingBoxStation/{__version__}"
    app: StationApp

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        pass

    def _serve(self) -> None:
        url = urlsplit(self.path)
        headers = Headers()
        for k, v in self.headers.items():
            headers.setdefault(k.lower(), v)
        request = Request(self.command, url.path, parse_qs(url.query), headers, self.client_address[0], self.path)
        verdict = self.app.head(request)
        if isinstance(verdict, Response):
            self.close_connection = True
            return self._reply(verdict)
        try:
            n = max(0, int(self.headers.get("Content-Length") or 0))
        except ValueError:
            n = 0
        self._reply(self.app.handle(request, self.rfile.read(min(n, verdict))))

    def _reply(self, r: Response) -> None:
        self.send_response(r.status)
        self.send_header("Content-Type", r.content_type)
        self.send_header("Content-Length", str(len(r.body)))
        for k, v in response_headers(r):
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(r.body)

    do_GET = do_HEAD = do_POST = _serve  # noqa: N815 - stdlib naming


def make_server(station: Station, kind: str = "asyncio", limits: Limits | None = None,
                ssl_context: Any = None, address: tuple[str, int] | None = None) -> Any:
    """The HTTP server for the station; `serve_forever`, `shutdown`, `server_close` and
    `server_address` as http.server's. `kind="threading"` is the old stdlib server (bench only)."""
    app = StationApp(station)
    if kind == "threading":
        handler = type("StationHandler", (LegacyHandler,), {"app": app})
        server = ThreadingHTTPServer((station.config.host, station.config.port), handler)
        server.daemon_threads = True
        return server
    host, port = address or (station.config.host, station.config.port)
    return HttpServer(app, host, port, limits, ssl_context,
                      server_header=f"BiddingBoxStation/{__version__}")
