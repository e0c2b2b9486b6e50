"""The club's director PIN at the station: kept, checked for a tablet, and guessed no faster
than its lockout allows (docs/station.md "The director PIN").

Why the station checks it: the movement reply goes to whoever holds a table's key (any player
who saw the key or its QR code). A PIN hash in that reply could be guessed offline, every 4-digit
PIN in about 20 minutes on one core however slow the hash, a 4-8 digit PIN having at most 10^8
values. So the reply says only that the station checks the PIN (`{"algorithm": "station"}`), and
a tablet asks `POST /api/v1/director-pin` with its table key. Each guess then costs a request
the station counts:

- per table (its station event's section and table): the first `FREE_TRIES` wrong PINs in a row
  are free, then no try is looked at for 5 s, doubling with each further wrong one up to an
  hour; kept in the database, so a restart of the station does not reset it; the right PIN ends it;
- station-wide: at most `STATION_WRONG_PER_HOUR` wrong PINs in any hour from all tables
  together (memory only: a key holder cannot restart the station), so holding several tables'
  keys does not multiply the guesses. Above it every table is answered `station_limit` and
  tablets use their own offline check (docs/td-guide.md).

Kept as PBKDF2-SHA256 of the digits with a salt, then HMAC-SHA256 with the secret
`director_pin_key` of the secrets file: a copy of the database alone cannot be guessed against.

A granted check is answered with a grant bound to the tablet's one-time nonce, valid for
`GRANT_VALID_S`, and signed with the table key the tablet sent (HMAC-SHA256): on a network
without TLS (`--insecure-http`) someone without the key cannot forge the yes.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from shared_rules.records import RefusalCode, Refused

ITERATIONS = 100_000
FREE_TRIES = 3
FIRST_DELAY_S = 5.0
MAX_DELAY_S = 3600.0
STATION_WRONG_PER_HOUR = 30
GRANT_VALID_S = 30
SETTING = "director_pin"
SECRET = "director_pin_key"
LOCKOUT_PREFIX = "pin_lockout/"
MAX_BODY = 512
NONCE = re.compile(r"[0-9a-f]{32,64}")


def lockout_s(wrong_tries: int) -> float:
    """Seconds a table waits after `wrong_tries` wrong PINs in a row (the tablet's own schedule,
    tablet_app/pin.py: 0 for the first FREE_TRIES, then 5 s doubling to an hour)."""
    if wrong_tries < FREE_TRIES:
        return 0.0
    return min(FIRST_DELAY_S * 2 ** min(wrong_tries - FREE_TRIES, 20), MAX_DELAY_S)


def make_verifier(digits: str, pepper: str, *, iterations: int | None = None) -> dict[str, Any]:
    salt = secrets.token_bytes(16)
    iterations = ITERATIONS if iterations is None else iterations  # read at the call: the tests lower it (docs/testing.md)
    return {"algorithm": "pbkdf2-sha256+hmac", "salt": salt.hex(), "iterations": iterations,
            "hash": _digest(digits, salt, iterations, pepper).hex()}


def _digest(digits: str, salt: bytes, iterations: int, pepper: str | None) -> bytes:
    d = hashlib.pbkdf2_hmac("sha256", digits.encode(), salt, iterations)
    return d if pepper is None else hmac.new(pepper.encode(), d, hashlib.sha256).digest()


def matches(digits: str, rec: Any, pepper: str) -> bool:
    """`digits` against the kept verifier; a station from before kept plain PBKDF2 (no pepper)."""
    if not isinstance(rec, dict):
        return False
    algorithm = rec.get("algorithm")
    try:
        salt, want, it = bytes.fromhex(rec["salt"]), bytes.fromhex(rec["hash"]), int(rec["iterations"])
    except (KeyError, TypeError, ValueError):
        return False
    if algorithm not in ("pbkdf2-sha256+hmac", "pbkdf2-sha256") or not 1_000 <= it <= 10_000_000:
        return False
    got = _digest(digits, salt, it, pepper if algorithm == "pbkdf2-sha256+hmac" else None)
    return hmac.compare_digest(got, want)


def grant_mac(key: str, table_id: str, nonce: str, valid_s: int) -> str:
    """The grant's signature: HMAC-SHA256 with the table key (tablet_app/pin.py checks it)."""
    msg = f"director-pin-grant\n{table_id}\n{nonce}\n{valid_s}".encode()
    return hmac.new(key.encode(), msg, hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class Answer:
    status: int
    doc: dict[str, Any]
    retry_after: int | None = None


class PinChecks:
    """The endpoint's logic; one lock for every check (a PBKDF2 takes tens of milliseconds, so
    they are few, and this keeps each table's count exact under concurrent requests)."""

    def __init__(self, store: Any, clock: Callable[[], float] = time.time):
        self.store = store
        self.clock = clock
        self.lock = threading.Lock()
        self.recent: deque[float] = deque()  # wrong PINs from every table in the last hour

    def check(self, event: str, section: str, table_no: int, table_id: str, key: str, body: bytes) -> Answer:
        pin, nonce = _parse(body)
        if pin is None or nonce is None:
            return Answer(400, {"error": 'expected {"pin": "<4-8 digits>", "nonce": "<32-64 hex digits>"}',
                                "status": 400, **Refused.of(RefusalCode.PIN_REQUEST).to_json()})
        kept = self.store.setting(SETTING)
        if not kept:
            return Answer(404, {"error": "no director PIN is set at the station (python -m station "
                                         "--director-pin)", "reason": "no_pin", "status": 404,
                                **Refused.of(RefusalCode.PIN_NOT_SET).to_json()})
        name = f"{LOCKOUT_PREFIX}{self.store.station_event_of(event)}/{section}/{table_no}"
        with self.lock:
            now = self.clock()
            wrong, until = self._lockout(name, now)
            if now < until:  # not looked at, not counted: a guesser learns nothing
                wait = max(1, int(until - now + 0.999))
                return Answer(429, {"granted": False, "reason": "locked", "wrong_tries": wrong, "wait_s": wait,
                                    **Refused.of(RefusalCode.PIN_LOCKED, wrong_tries=wrong, wait_s=wait).to_json()},
                              wait)
            while self.recent and self.recent[0] <= now - 3600:
                self.recent.popleft()
            if len(self.recent) >= STATION_WRONG_PER_HOUR:
                wait = max(1, int(self.recent[0] + 3600 - now + 0.999))
                return Answer(429, {"granted": False, "reason": "station_limit", "wait_s": wait,
                                    **Refused.of(RefusalCode.PIN_STATION_LIMIT, wait_s=wait).to_json()}, wait)
            if matches(pin, json.loads(kept), self.store.ensure_secret(SECRET)):
                if wrong:
                    self.store.set_setting(name, json.dumps({"wrong": 0, "until": 0.0}))
                return Answer(200, {"granted": True, "table": table_id, "nonce": nonce, "valid_s": GRANT_VALID_S,
                                    "mac": grant_mac(key, table_id, nonce, GRANT_VALID_S)})
            wrong += 1
            self.recent.append(now)
            self.store.set_setting(name, json.dumps({"wrong": wrong, "until": now + lockout_s(wrong),
                                                     "last": now}))
            wait = int(lockout_s(wrong))
            return Answer(200, {"granted": False, "reason": "wrong", "wrong_tries": wrong, "wait_s": wait,
                                **Refused.of(RefusalCode.PIN_WRONG, wrong_tries=wrong, wait_s=wait).to_json()})

    def _lockout(self, name: str, now: float) -> tuple[int, float]:
        try:
            rec = json.loads(self.store.setting(name) or "{}")
            wrong, until = int(rec.get("wrong", 0)), float(rec.get("until", 0.0))
        except (TypeError, ValueError, AttributeError):
            return FREE_TRIES, now + MAX_DELAY_S  # a damaged count is no free guess
        # the station's clock set back must not stretch a wait beyond its longest
        return wrong, min(until, now + MAX_DELAY_S)

    def tables(self) -> list[dict[str, Any]]:
        """Tables with wrong PINs in a row, for the director page."""
        out = []
        for name, value in self.store.query("SELECT name, value FROM settings WHERE name LIKE ?",
                                            (LOCKOUT_PREFIX + "%",)):
            try:
                rec = json.loads(value)
                wrong, until = int(rec.get("wrong", 0)), float(rec.get("until", 0.0))
            except (TypeError, ValueError, AttributeError):
                continue
            if wrong:
                out.append({"table": name[len(LOCKOUT_PREFIX):], "wrong_tries": wrong, "until": until,
                            "last": rec.get("last")})
        return sorted(out, key=lambda r: r["table"])


def _parse(body: bytes) -> tuple[str | None, str | None]:
    try:
        doc = json.loads(body[:MAX_BODY])
    except (ValueError, UnicodeDecodeError):
        return None, None
    if not isinstance(doc, dict):
        return None, None
    pin, nonce = doc.get("pin"), doc.get("nonce")
    pin = pin if isinstance(pin, str) and re.fullmatch(r"\d{4,8}", pin) else None
    nonce = nonce if isinstance(nonce, str) and NONCE.fullmatch(nonce) else None
    return pin, nonce
