"""The director PIN as the tablet knows it: never the digits.

Two ways (docs/station.md "The director PIN" has the threat model):

- **Checked at the station** (`{"algorithm": "station"}`, what the station's movement reply
  says when the club set the PIN there): the tablet asks the station for every sign-in
  (`station_client.check_director_pin`) and gets a grant bound to a one-time nonce and signed
  with the table key (`grant_ok`). Nothing in the movement reply lets a table-key holder guess
  the PIN offline. For a station out of reach the tablet keeps its own salted hash of the last
  PIN the station confirmed *at this tablet* (`Controller.club`, outside the journal).
- **A salted PBKDF2-SHA256 hash** typed in by the TD at this tablet (a setup without a station).

A PIN of 4-8 digits has at most 10^8 values, so a hash alone does not stop a guesser who has the
tablet's files; what stops a guesser at the table is the lockout (`lockout_s`, kept by
`pin_lockout.py`): after a few wrong tries each further try is refused until a time that doubles
with every wrong try.
"""
from __future__ import annotations

import dataclasses
import hashlib
import hmac
import re
import secrets
from typing import Any, Literal

ITERATIONS = 100_000  # a new hash's count; a kept one says its own (1,000 to 10,000,000 are read)
FREE_TRIES = 3  # a mistyped PIN or two costs nothing
FIRST_DELAY_S = 5.0
MAX_DELAY_S = 3600.0


def valid_digits(pin: Any) -> bool:
    return isinstance(pin, str) and re.fullmatch(r"\d{4,8}", pin) is not None


def hash_pin(pin: str, *, salt: bytes | None = None, iterations: int | None = None) -> dict[str, Any]:
    salt = salt if salt is not None else secrets.token_bytes(16)
    iterations = ITERATIONS if iterations is None else iterations  # read at the call: the tests lower it (docs/testing.md)
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, iterations)
    return {"algorithm": "pbkdf2-sha256", "salt": salt.hex(), "hash": digest.hex(), "iterations": iterations}


STATION: dict[str, Any] = {"algorithm": "station"}


def checked_at_station(rec: Any) -> bool:
    return isinstance(rec, dict) and rec.get("algorithm") == "station"


def valid_verifier(rec: Any) -> bool:
    """What a session may hold as its PIN: a hash typed in at this tablet, or "the station checks it"."""
    return checked_at_station(rec) or valid_hash(rec)


def valid_hash(rec: Any) -> bool:
    """The shape the station sends and the journal keeps: {salt, hash, iterations} in hex."""
    if not isinstance(rec, dict) or rec.get("algorithm", "pbkdf2-sha256") != "pbkdf2-sha256":
        return False
    it = rec.get("iterations")
    if isinstance(it, bool) or not isinstance(it, int) or not 1_000 <= it <= 10_000_000:
        return False
    return all(isinstance(rec.get(k), str) and re.fullmatch(r"[0-9a-f]{32,128}", rec[k]) for k in ("salt", "hash"))


def verify(pin: Any, rec: dict[str, Any]) -> bool:
    if not isinstance(pin, str) or not valid_hash(rec):
        return False
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), bytes.fromhex(rec["salt"]), rec["iterations"])
    return hmac.compare_digest(digest.hex(), rec["hash"])


def lockout_s(wrong_tries: int) -> float:
    """Seconds a table must wait after `wrong_tries` wrong tries in a row before the next try:
    0 for the first FREE_TRIES, then 5 s doubling to an hour."""
    if wrong_tries < FREE_TRIES:
        return 0.0
    return min(FIRST_DELAY_S * 2 ** min(wrong_tries - FREE_TRIES, 20), MAX_DELAY_S)


# -- the station's answer ------------------------------------------------------------------------
GRANT_VALID_S = 30.0  # a grant is used at once; an older one (a reply replayed) is refused


@dataclasses.dataclass(frozen=True)
class StationVerdict:
    """What the station said of a PIN (`station_client.check_director_pin`).
    `granted`: the grant checked (nonce, table, signature); `wrong`: counted there; `locked`: not
    looked at, try again in `wait_s`; `unavailable`: no answer to go by (`reason`: unreachable,
    refused, certificate, bad_reply, station_limit, no_pin), the tablet checks it itself."""

    outcome: Literal["granted", "wrong", "locked", "unavailable"]
    nonce: str = ""
    wait_s: int = 0
    reason: str = ""


def new_nonce() -> str:
    return secrets.token_hex(16)


def grant_mac(key: str, table_id: str, nonce: str, valid_s: int) -> str:
    """The station's signature of a grant (station/director_pin.py makes it the same way)."""
    msg = f"director-pin-grant\n{table_id}\n{nonce}\n{valid_s}".encode()
    return hmac.new(key.encode(), msg, hashlib.sha256).hexdigest()


def grant_ok(reply: Any, key: str, table_id: str, nonce: str) -> bool:
    """The station's yes for this table, this nonce, signed with this table's key."""
    if not isinstance(reply, dict) or reply.get("granted") is not True:
        return False
    valid_s, mac = reply.get("valid_s"), reply.get("mac")
    if reply.get("table") != table_id or reply.get("nonce") != nonce or not isinstance(mac, str):
        return False
    if isinstance(valid_s, bool) or not isinstance(valid_s, int) or not 0 < valid_s <= 300:
        return False
    return hmac.compare_digest(mac, grant_mac(key, table_id, nonce, valid_s))
