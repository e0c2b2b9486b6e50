"""Session setup from the results station (GET /api/v1/movement, docs/station.md).

The tablet asks with the same table id and key it delivers results with (`outbox.Deliverer`).
No Kivy here: `python -m tablet_app.app` uses it at start, and tests and headless tools call
`setup_from_station(controller, ...)` directly. Every failure is a `StationError` whose message
is one line the TD can act on; nothing is journalled unless the whole setup is good.
"""
from __future__ import annotations

import http.client
import json
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit

from shared_rules.records import RecordError, Refused, TableId

from .http_transport import PinError, connection
from .pin import StationVerdict, grant_ok
from .session import Session, SetupError, from_station

SHORT_TABLE = re.compile(r"^(?:([A-Za-z]{1,3})/)?(\d{1,3})$")  # what a TD types: `3` or `B/3`


class StationError(Exception):
    """The station could not give this table its setup. `reason`: `unreachable`, `refused`
    (key or table id), `no_movement` (nothing from the scoring program for this table),
    `bad_reply` or `certificate` (not the pinned one, or an https address without a pin).
    `refused`: the station's refusal by its code (shared_rules/records/refusals.py), where it
    sent one this tablet knows: the screens say it in the table's language."""

    def __init__(self, reason: str, message: str, refused: Refused | None = None):
        super().__init__(message)
        self.reason = reason
        self.refused = refused


def _get(station_url: str, path: str, headers: dict[str, str], timeout: float) -> tuple[int, Any]:
    return _request("GET", station_url, path, headers, timeout)


def _request(method: str, station_url: str, path: str, headers: dict[str, str], timeout: float,
             body: bytes | None = None) -> tuple[int, Any]:
    url = urlsplit(station_url)
    if url.scheme not in ("http", "https") or not url.hostname:
        raise StationError("unreachable", f"station address must be http://host:port, not {station_url!r}")
    try:
        conn = connection(url, timeout)
        try:
            conn.request(method, url.path.rstrip("/") + path, body=body,
                         headers={**headers, "Connection": "close"})
            resp = conn.getresponse()
            data = resp.read()
        finally:
            conn.close()
    except PinError as e:
        raise StationError("certificate", str(e)) from e
    except (OSError, http.client.HTTPException) as e:
        raise StationError("unreachable", f"station {station_url} unreachable: {e}") from e
    try:
        return resp.status, json.loads(data)
    except ValueError:
        return resp.status, data.decode("utf-8", "replace")[:200]


def table_of(session: Session) -> TableId:
    """The session's table id, `<event>/<section>/<table>`: the X-Table of every request."""
    return TableId(session.event, session.section, session.table)


def _parse(table_id: str) -> TableId:
    try:
        return TableId.parse(table_id)
    except RecordError as e:  # an event id the station gave that no key can carry
        raise StationError("bad_reply", f"table id {table_id!r}: {e}") from None


def _why(reply: Any) -> str:
    return str(reply.get("error", reply)) if isinstance(reply, dict) else str(reply)


def table_id(station_url: str, table: str | int, *, timeout: float = 10.0) -> str:
    """`club-2026-11-22/A/3` as is; `A/3` or `3` (section A) completed with the station's event,
    so a club with one section types only the table number."""
    text = str(table).strip()
    m = SHORT_TABLE.match(text)
    if m:
        # the station's sections are upper case: a typed `b/3` is table B3
        return TableId(station_event(station_url, timeout), (m.group(1) or "A").upper(), int(m.group(2))).format()
    try:
        return TableId.parse(text).format()  # the full id, as the station printed it
    except RecordError as e:
        raise StationError("refused", f"table {table!r}: give the number (3), SECTION/number (B/3) "
                                      f"or the full id the station printed (club-2026-11-22/A/3): {e}") from None


def station_event(station_url: str, timeout: float = 10.0) -> str:
    """The event (session) id the station's scoring program set: the first part of a table id."""
    status, reply = _get(station_url, "/api/v1/health", {}, timeout)
    if status != 200 or not isinstance(reply, dict) or not reply.get("event"):
        raise StationError("bad_reply", f"station {station_url} did not say its event (HTTP {status}: "
                                        f"{_why(reply)})")
    return str(reply["event"])


def fetch_movement(station_url: str, table_id: str, key: str, *, timeout: float = 10.0,
                   session: str | None = None) -> dict[str, Any]:
    """This table's movement (the dict `session.from_station` reads) from the station.
    `session`: the scoring program's session the tablet is in (`Session.station_session`), so
    the station answers for that session whatever it was sent since."""
    if not key:
        raise StationError("refused", f"no table key for {table_id}: the station printed one per table "
                                      "(also on its director page)")
    path = "/api/v1/movement" + (f"?session={quote(session)}" if session else "")
    status, reply = _get(station_url, path, {"X-Table": table_id, "Authorization": f"Bearer {key}"}, timeout)
    if status in (401, 403):
        raise StationError("refused", f"the station refused table {table_id}: {_why(reply)}",
                           Refused.from_reply(reply))
    if status == 404:
        raise StationError("no_movement", _why(reply), Refused.from_reply(reply))
    if status != 200 or not isinstance(reply, dict) or not isinstance(reply.get("rounds"), dict):
        raise StationError("bad_reply", f"unexpected reply from the station (HTTP {status}): {_why(reply)}")
    return reply


def check_table(station_url: str, table_id: str, key: str, *, timeout: float = 10.0,
                session: str | None = None) -> dict[str, Any] | None:
    """Before the first board: does the station take this table id and key? Returns the
    movement (None when the scoring program has sent none yet: the key is good, the setup is
    typed in). A refused id or key is a StationError `refused` whose message is the station's."""
    try:
        return fetch_movement(station_url, table_id, key, timeout=timeout, session=session)
    except StationError as exc:
        if exc.reason == "no_movement":
            return None
        raise


def check_director_pin(station_url: str, table_id: str, key: str, digits: str, nonce: str, *,
                       timeout: float = 3.0) -> StationVerdict:
    """The director PIN asked of the station (`POST /api/v1/director-pin`, docs/station.md).
    Never raises: a station that cannot answer is `unavailable` with its reason, and the
    controller then checks the PIN itself (`pin.py`). A yes counts only with a grant for this
    table and this nonce signed with this table's key."""
    body = json.dumps({"pin": digits, "nonce": nonce}).encode()
    headers = {"X-Table": table_id, "Authorization": f"Bearer {key}", "Content-Type": "application/json"}
    try:
        status, reply = _request("POST", station_url, "/api/v1/director-pin", headers, timeout, body)
    except StationError as e:
        return StationVerdict("unavailable", reason=e.reason)
    doc = reply if isinstance(reply, dict) else {}
    given = doc.get("wait_s")
    wait: int = given if isinstance(given, int) and not isinstance(given, bool) else 0
    if status == 200 and doc.get("granted") is True:
        if grant_ok(doc, key, table_id, nonce):
            return StationVerdict("granted", nonce=nonce)
        return StationVerdict("unavailable", reason="bad_reply")  # not the station's yes: not taken
    if status == 200 and doc.get("granted") is False and doc.get("reason") == "wrong":
        return StationVerdict("wrong", wait_s=max(0, wait))
    if status == 429 and doc.get("reason") == "locked":
        return StationVerdict("locked", wait_s=max(1, min(wait, 3600)))
    if status == 429 and doc.get("reason") == "station_limit":
        return StationVerdict("unavailable", reason="station_limit")
    if status == 404 and doc.get("reason") == "no_pin":
        return StationVerdict("unavailable", reason="no_pin")
    if status in (401, 403):
        return StationVerdict("unavailable", reason="refused")
    return StationVerdict("unavailable", reason="bad_reply")


def pin_checker(station_url: str, key: str, *, timeout: float = 3.0) -> Any:
    """For `Controller.pin_check`: `check(table_id, digits, nonce)` asks this station."""
    def check(table_id: str, digits: str, nonce: str) -> StationVerdict:
        return check_director_pin(station_url, table_id, key, digits, nonce, timeout=timeout)
    return check


def station_check(station_url: str, key: str, *, timeout: float = 10.0) -> Any:
    """For `Controller.station_check`: a typed-in setup is checked against the station before
    its first board (the same X-Table the outbox will deliver with)."""
    def check(session: Session) -> dict[str, Any] | None:
        return check_table(station_url, table_of(session).format(), key, timeout=timeout,
                           session=session.station_session)
    return check


def player_lookup(station_url: str, table_id: str, key: str, *, session: str | None = None,
                  timeout: float = 10.0) -> Any:
    """For `Controller.player_lookup`: the names the scoring program gave member numbers
    (GET /api/v1/players), number -> name or None (unknown to it); StationError when the
    station does not answer (the numbers are then taken unnamed)."""
    def lookup(numbers: list[str]) -> dict[str, str | None]:
        query = "&".join(f"number={quote(n)}" for n in numbers) + (f"&session={quote(session)}" if session else "")
        status, reply = _get(station_url, f"/api/v1/players?{query}",
                             {"X-Table": table_id, "Authorization": f"Bearer {key}"}, timeout)
        found = reply.get("players") if isinstance(reply, dict) else None
        if status != 200 or not isinstance(found, dict):
            raise StationError("refused" if status in (400, 401, 403) else "bad_reply",
                               f"the station did not look the numbers up (HTTP {status}): {_why(reply)}",
                               Refused.from_reply(reply))
        return {n: found[n] if isinstance(found.get(n), str) else None for n in numbers}
    return lookup


def club_defaults(movement: dict[str, Any] | None) -> dict[str, Any]:
    """What the club set at the station and the movement reply carries: the regulations
    (`profile`), the tablets' language (`language`, one the tablet speaks), how the director PIN
    is checked (`director_pin`: `{"algorithm": "station"}`; a station from before sent its salted
    hash) and the console's grace (`director_grace_s`)."""
    from tablet_app.i18n import LANGS

    out: dict[str, Any] = {}
    if isinstance(movement, dict):
        if isinstance(movement.get("profile"), str) and movement["profile"]:
            out["profile"] = movement["profile"]
        if movement.get("language") in LANGS:
            out["language"] = movement["language"]
        if isinstance(movement.get("director_pin"), dict):
            out["director_pin"] = movement["director_pin"]
        grace = movement.get("director_grace_s")
        if isinstance(grace, int) and not isinstance(grace, bool):
            out["director_grace_s"] = grace
    return out


def session_from_station(station_url: str, table: str | int, key: str, round_: int | None = None, *,
                         timeout: float = 10.0, defaults: dict[str, Any] | None = None,
                         movement: dict[str, Any] | None = None, **extra: Any) -> Session:
    """Fetch and build the session (SetupError if the movement cannot make one). Without
    `round_`, the round the station says this table is on: the first with a board still to play.
    `movement`: one already fetched for this table (`next_round_from_station`)."""
    tid = table_id(station_url, table, timeout=timeout)
    if movement is None:
        movement = fetch_movement(station_url, tid, key, timeout=timeout)
    if round_ is None:
        round_ = movement.get("current_round")
        if not isinstance(round_, int):
            raise StationError("no_movement", f"table {tid} has results for every round of the movement; "
                                              "give the round to play")
    return from_station(movement, _parse(tid).table, round_, defaults=defaults, **extra)


def setup_from_station(controller: Any, station_url: str, table: str | int, key: str,
                       round_: int | None = None, *, timeout: float = 10.0,
                       movement: dict[str, Any] | None = None, **extra: Any) -> Session:
    """`session_from_station` then `controller.setup`: the tablet's start without a screen."""
    if hasattr(controller, "station_check"):
        # a setup typed in later (no movement yet) is checked against the same station
        controller.station_check = station_check(station_url, key, timeout=timeout)
    if hasattr(controller, "pin_check"):
        # the club's PIN is checked by the station (docs/station.md "The director PIN")
        controller.pin_check = pin_checker(station_url, key)
    try:
        if movement is None:
            movement = fetch_movement(station_url, table_id(station_url, table, timeout=timeout), key,
                                      timeout=timeout)
        if hasattr(controller, "set_club_defaults"):
            # the club's language and regulations, kept for the setup screen and the next start
            controller.set_club_defaults(**{k: v for k, v in club_defaults(movement).items()
                                            if k in ("language", "profile")})
        session = session_from_station(station_url, table, key, round_, timeout=timeout,
                                       defaults=getattr(controller, "club", None), movement=movement, **extra)
    except StationError as exc:
        # shown on the setup screen (snapshot "station"), not only printed
        controller.station_status = {"ok": False, "table": str(table), "reason": exc.reason, "message": str(exc),
                                     "refusal": exc.refused.to_json() if exc.refused else None}
        raise
    grace = club_defaults(movement).get("director_grace_s")
    if grace is not None and hasattr(controller, "set_club_defaults"):
        controller.set_club_defaults(director_grace_s=grace)  # the club's, kept for the next evening
    controller.setup(session)
    controller.station_status = {"ok": True, "table": table_of(session).format(), "reason": None, "message": None}
    if hasattr(controller, "player_lookup"):
        # the players' member numbers are looked up in this session's players
        controller.player_lookup = player_lookup(station_url, table_of(session).format(), key,
                                                 session=session.station_session, timeout=timeout)
    return session


@dataclass(frozen=True)
class NextRound:
    """The table's next round as the players confirm it: the session to start, and the names
    the scoring program gave for its seats (`{seat: "First Last"}`, empty without)."""

    session: Session
    names: dict[str, str]


def next_round(controller: Any, station_url: str, key: str, *, timeout: float = 10.0) -> NextRound:
    """`next_round_session` with the names of its players, for the players' round change."""
    seen: list[dict[str, Any]] = []
    session = next_round_session(controller, station_url, key, timeout=timeout, seen=seen)
    rounds = seen[-1].get("rounds") if seen else None
    slot = ((rounds or {}).get(str(session.round)) or {}).get(str(session.table)) if isinstance(rounds, dict) else None
    names = slot.get("names") if isinstance(slot, dict) else None
    return NextRound(session, {k: v for k, v in (names or {}).items()
                               if k in ("N", "E", "S", "W") and isinstance(v, str)})


def next_round_session(controller: Any, station_url: str, key: str, *, timeout: float = 10.0,
                       seen: list[dict[str, Any]] | None = None) -> Session:
    """At the round end: this table's next round from the station's movement, not started yet
    (the players confirm its pairs first: `Controller.next_round`). What the TD chose at the
    table (profile, policy, PIN, tray delay) carries over; pairs and boards come from the
    movement. SetupError after the last round; StationError when the station cannot say.

    The tablet asks for its own session's movement (`Session.station_session`), so a session
    the scoring program initialises while this one runs does not take the table over. At the
    end of its own session it asks with the station's event (the session this table plays
    next, docs/station.md "Events and sessions") and moves into that session when it is
    another one; the TD can always set the tablet up for a session by its id."""
    s = controller.session
    if s is None:
        raise SetupError("no session yet: nothing to follow on from")
    tid = table_of(s).format()
    carried = {"profile": s.profile, "policy": s.policy, "td_pin": s.td_pin, "tray_delay_s": s.tray_delay_s,
               "screens": s.screens}
    defaults = getattr(controller, "club", None)
    own = fetch_movement(station_url, tid, key, timeout=timeout, session=s.station_session)
    seen = [] if seen is None else seen
    seen.append(own)
    later = [int(r) for r in (own.get("rounds") or {}) if str(r).isdigit() and int(r) > s.round]
    if later or s.station_session is None:
        return session_from_station(station_url, tid, key, min(later, default=s.round + 1), timeout=timeout,
                                    defaults=defaults, movement=own, **carried)
    # The session is over for this table: the one it plays next, if the scoring program sent one.
    nxt_id = TableId(station_event(station_url, timeout), s.section, s.table).format()
    nxt = fetch_movement(station_url, nxt_id, key, timeout=timeout)
    seen.append(nxt)
    if nxt.get("session") == s.station_session or not isinstance(nxt.get("current_round"), int):
        raise SetupError(f"table {s.section}{s.table} has no round {s.round + 1} in this session: round {s.round} "
                         "was its last",
                         "setup.movement_missing", table=s.table, round=s.round + 1)
    return session_from_station(station_url, nxt_id, key, None, timeout=timeout, defaults=defaults, movement=nxt,
                                **carried)


def next_round_from_station(controller: Any, station_url: str, key: str, *, timeout: float = 10.0) -> Session:
    """`next_round_session` started at once by the director (`controller.setup`): nothing is
    journalled on any error."""
    if hasattr(controller, "station_check"):
        controller.station_check = station_check(station_url, key, timeout=timeout)
    try:
        session = next_round_session(controller, station_url, key, timeout=timeout)
    except StationError as exc:
        s = controller.session
        controller.station_status = {"ok": False, "table": table_of(s).format() if s else "", "reason": exc.reason,
                                     "message": str(exc), "refusal": exc.refused.to_json() if exc.refused else None}
        raise
    controller.setup(session)
    controller.station_status = {"ok": True, "table": table_of(session).format(), "reason": None, "message": None}
    return session


def fetch_board_results(station_url: str, table_id: str, key: str, board: int, *,
                        timeout: float = 10.0) -> list[dict[str, Any]]:
    """What the station stored of this table's result on `board` (every revision it holds, the
    latest last): after a damaged journal the TD checks the board against it. The station shows
    a board's results only to a table whose own result is in (Law 16)."""
    me = _parse(table_id)
    return [r for r in fetch_traveller(station_url, table_id, key, board, timeout=timeout)
            if r.get("section") == me.section and r.get("table") == me.table]


def fetch_traveller(station_url: str, table_id: str, key: str, board: int, *,
                    timeout: float = 10.0) -> list[dict[str, Any]]:
    """Every table's result on `board` in this table's section (the latest revision of each), as
    the station gives it to a table whose own result on the board is in (2007 L16C1, 2017 L16D1);
    a StationError `refused` before that."""
    if isinstance(board, bool) or not isinstance(board, int) or board < 1:
        raise StationError("bad_reply", f"board must be a number from 1 up, not {board!r}")
    status, reply = _get(station_url, f"/api/v1/boards/{board}/results",
                         {"X-Table": table_id, "Authorization": f"Bearer {key}"}, timeout)
    if status in (401, 403):
        raise StationError("refused", f"the station has no result of table {table_id} on board {board}: "
                                      f"{_why(reply)}")
    if status != 200 or not isinstance(reply, dict) or not isinstance(reply.get("results"), list):
        raise StationError("bad_reply", f"unexpected reply from the station (HTTP {status}): {_why(reply)}")
    return [r for r in reply["results"] if isinstance(r, dict)]


def traveller_hook(controller: Any, station_url: str, table_id: str, key: str, *,
                   timeout: float = 10.0) -> Any:
    """For `outbox.Deliverer(on_delivered=...)`: once the station has stored one of this table's
    results (and only then), fetch that board's traveller and give it to the controller when the
    club's settings show results (`Controller.set_traveller`). Runs on the deliverer's thread; a
    failed fetch only leaves the traveller out."""
    def on_delivered(kind: str, item_key: str, payload: dict[str, Any]) -> None:
        s = controller.session
        if kind != "result" or s is None or s.setting("show_results") not in ("all", "round_end"):
            return
        if controller.own_result(item_key) is None:
            return  # withdrawn, superseded, or another round's: nothing to show
        try:
            # The session's own id: after a move into a later session the deliverer's table id
            # is still the first one's, and a traveller is one session's.
            results = fetch_traveller(station_url, table_of(s).format(), key, int(payload["board"]),
                                      timeout=timeout)
        except (StationError, KeyError, TypeError, ValueError):
            return
        controller.set_traveller(item_key, results)
    return on_delivered
