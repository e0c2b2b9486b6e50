"""The live feed's addresses (docs/station.md "The live feed"), plain HTTP that a cache can fan out:

- `GET /live/` the spectators' page (`?poll=1`: it follows the long poll instead of the stream;
  `?lang=sv` or `da`: the whole page, the standing and the tables' cards, in Swedish or Danish;
  any other language, or none, English);
- `GET /live/<section>/<table>.lin` a table's boards so far, BBO vugraph LIN;
- `GET /live/match/<open table>-<closed table>.lin` both rooms of a team match (`A1-A2`);
- `GET /live/stream` the push stream, server-sent events (`Last-Event-ID` or `?after=N` to go on
  after event N), held open and never cached;
- `GET /live/poll?after=N` the same events as one short reply (waits up to 25 s for the next),
  which a cache in front (nginx, a CDN) answers once for every spectator at the same point.

Every page and file carries an ETag (the feed's sequence number of its last change) and
`Cache-Control: public, max-age=1`; a request with that ETag in `If-None-Match` gets 304.
"""
from __future__ import annotations

import hashlib
import re
from typing import Any

from . import live_page, live_texts
from .http_server import Request, Response
from .live_views import LiveViews, NotShown

PAGE_CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; base-uri 'none'; "
            "form-action 'none'; frame-ancestors 'none'")
SHORT = "public, max-age=1"          # a cache may answer from its copy for a second
STATIC = "public, max-age=300"
POLL_HOLD_S = 25.0
_SEQ = re.compile(r"\d{1,18}")


def _etag(text: bytes) -> str:
    return '"' + hashlib.sha256(text).hexdigest()[:16] + '"'


STATIC_FILES = {
    "/live/page.js": (live_page.SCRIPT.encode(), "text/javascript; charset=utf-8"),
    "/live/page.css": (live_page.CSS.encode(), "text/css; charset=utf-8"),
}


def _error(status: int, message: str) -> Response:
    import json

    return Response(status, json.dumps({"error": message, "status": status}).encode(),
                    "application/json; charset=utf-8")


def _cached(request: Request, body: bytes, content_type: str, etag: str, control: str = SHORT,
            extra: list[tuple[str, str]] | None = None) -> Response:
    headers = [("ETag", etag), ("Cache-Control", control), *(extra or [])]
    if request.header("If-None-Match") == etag:
        return Response(304, b"", content_type, headers)
    return Response(200, body, content_type, headers)


def _after(request: Request) -> int | None | Response:
    # A reconnecting EventSource asks the address it was given (`?after=` as the page was loaded)
    # and adds Last-Event-ID, the newer of the two.
    raw = request.header("Last-Event-ID") or next(iter(request.query.get("after") or []), None) or None
    if raw is None:
        return None
    if not _SEQ.fullmatch(raw):
        return _error(400, f"?after= (or Last-Event-ID) must be an event number, not {raw[:20]!r}")
    return int(raw)


def route(feed: LiveViews | None, request: Request, title: str) -> Response:
    """The reply to a GET under /live."""
    path = request.path
    if feed is None:
        return _error(404, "the live feed is off: the organiser starts the station with --live")
    if path in STATIC_FILES:
        body, kind = STATIC_FILES[path]
        return _cached(request, body, kind, _etag(body), STATIC)
    if path in ("/live", "/live/"):
        boards, matches, byes, seq = feed.page_state()
        lang = live_texts.language(next(iter(request.query.get("lang") or []), None))
        html = live_page.render(title, live_texts.note(feed.config.delay_s, lang), boards, matches, byes, seq,
                                (request.query.get("poll") or [""])[0] == "1", lang)
        return _cached(request, html.encode(), "text/html; charset=utf-8", f'"p{seq}-{lang}"',
                       extra=[("Content-Security-Policy", PAGE_CSP)])
    if path in ("/live/stream", "/live/poll"):
        after = _after(request)
        if isinstance(after, Response):
            return after
        once = path == "/live/poll"
        return Response(200, b"", "text/event-stream; charset=utf-8",
                        # the stream: not cached, not buffered by a proxy; the poll: a short reply to cache
                        [("Cache-Control", SHORT)] if once else [("Cache-Control", "no-cache"), ("X-Accel-Buffering", "no")],
                        stream=lambda: feed.stream(after, POLL_HOLD_S if once else 600.0, once), whole=once)
    m = re.fullmatch(r"/live/([A-Z]{1,3})/(\d{1,3})\.lin", path)
    if m:
        try:
            text, etag = feed.table_lin(m.group(1), int(m.group(2)))
        except NotShown as e:
            return _error(404, str(e))
        return _cached(request, text.encode(), "text/plain; charset=utf-8", etag,
                       extra=[("Content-Disposition", f'inline; filename="{m.group(1)}{m.group(2)}.lin"')])
    m = re.fullmatch(r"/live/match/([A-Z]{1,3})(\d{1,3})-([A-Z]{1,3})(\d{1,3})\.lin", path)
    if m:
        try:
            text, etag = feed.match_lin((m.group(1), int(m.group(2))), (m.group(3), int(m.group(4))))
        except NotShown as e:
            return _error(404, str(e))
        return _cached(request, text.encode(), "text/plain; charset=utf-8", etag)
    return _error(404, f"no such page in the live feed: {path[:80]} (the page is /live/, a table's boards "
                       "/live/<section>/<table>.lin, the stream /live/stream)")


_HOST = re.compile(r"([A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?")


def elsewhere(request: Request, scheme: str, host: str, port: int) -> Response:
    """The live feed is served by its own process on its own port (station/live_fanout.py): a
    spectator who asks the station is sent there, to the same name the station was reached by."""
    m = _HOST.fullmatch(request.header("Host"))
    name = m.group(1) if m else host
    target = request.raw_target if request.raw_target.startswith("/") else request.path
    return Response(307, b"", headers=[("Location", f"{scheme}://{name}:{port}{target}")])


def title_of(station: Any) -> str:
    club = station.store.setting("club_name") or ""
    return f"{club} live".strip() if club else "Live bridge"
