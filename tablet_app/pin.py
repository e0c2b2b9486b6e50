"""The director PIN as the tablet keeps it: a salted PBKDF2-SHA256 hash, never the digits.

The club sets the PIN (at the station, which sends every tablet the same hash in its movement
reply, or typed in by the TD at setup when there is no station). A PIN of 4-8 digits has at most
10^8 values, so the hash alone does not stop a guesser who has the journal file; what stops a
guesser at the table is the lockout (`lockout_s`): after a few wrong tries each further try is
refused until a time that doubles with every wrong try, and the tries are journalled.
"""
from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from typing import Any

ITERATIONS = 100_000
FREE_TRIES = 3  # a mistyped PIN or two costs nothing
FIRST_DELAY_S = 5.0
MAX_DELAY_S = 3600.0


def valid_digits(pin: Any) -> bool:
    return isinstance(pin, str) and re.fullmatch(r"\d{4,8}", pin) is not None


def hash_pin(pin: str, *, salt: bytes | None = None, iterations: int = ITERATIONS) -> dict[str, Any]:
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, iterations)
    return {"algorithm": "pbkdf2-sha256", "salt": salt.hex(), "hash": digest.hex(), "iterations": iterations}


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
