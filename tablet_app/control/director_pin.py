"""The director PIN: checked before every ruling, sign in and out on the console, the lockout.

The PIN is kept only as a salted PBKDF2 hash (`tablet_app/pin.py`, in the session). A wrong PIN is
journalled (`pin_wrong`: the lockout survives a restart) and sent to the station's director page;
after a few, tries are refused without looking at the PIN until a time that doubles with each wrong
one. A token from `sign_in` (memory only, gone at a restart) stands for the PIN on the console.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from typing import Any, TypedDict

from tablet_app import pin
from tablet_app.control.errors import DiskFull, PinError, PinLocked
from tablet_app.control.journal_tx import Transactions
from tablet_app.control.reducer import Effects, Fold, handles
from tablet_app.control.state import TableState


class PinState(TypedDict):
    set: bool
    wrong_tries: int
    locked_until: float | None  # epoch seconds, while tries are refused
    wait_s: int


class PinBody(TypedDict):
    at: float  # wall clock of the try


class DirectorPin:
    def __init__(self, st: TableState, tx: Transactions, clock: Callable[[], float]):
        self.st = st
        self.tx = tx
        self.clock = clock
        self._tokens: set[str] = set()
        self._unjournalled_wrong = 0  # wrong tries the full storage could not journal
        self._fast: tuple[str, str] | None = None  # (salt, sha256) of the last good PIN, memory only

    def check(self, given: str) -> bool:
        """True for the director's PIN (or a token from `sign_in`); False for a wrong one (journalled)
        and, without looking at the PIN, while tries are locked out (`state()`)."""
        try:
            self.require(given)
        except PinError:
            return False
        return True

    def sign_in(self, given: str) -> str:
        """A token the console passes instead of the PIN. PinError / PinLocked otherwise."""
        self.require(given)
        token = secrets.token_urlsafe(24)
        self._tokens.add(token)
        return token

    def sign_out(self, token: str | None = None) -> None:
        if token is None:
            self._tokens.clear()
        else:
            self._tokens.discard(token)

    def state(self) -> PinState:
        st, now = self.st, self.clock()
        until = st.pin_locked_until if st.pin_locked_until > now else None
        return {"set": bool(st.session and st.session.td_pin), "wrong_tries": st.pin_wrong,
                "locked_until": until, "wait_s": int(until - now + 0.999) if until else 0}

    def require(self, given: Any) -> None:
        """Nothing if `given` is the PIN or a token; PinError (journalled) or PinLocked otherwise."""
        if isinstance(given, str) and any(hmac.compare_digest(given, t) for t in self._tokens):
            return
        st = self.st
        if st.session is None or not st.session.td_pin:
            raise PinError("no director PIN is set for this table yet: nothing was changed", "pin.not_set")
        now = self.clock()
        if now < st.pin_locked_until:
            raise PinLocked(st.pin_locked_until, now)  # not looked at, not counted: no guessing
        if self._matches(given):
            if st.pin_wrong:
                self.tx.record("pin_ok", {"at": now})
            return
        try:
            self.tx.record("pin_wrong", {"at": now})
        except DiskFull:
            # Not journalled (the storage is full), but never a free guess: the lockout holds
            # in memory until the next start.
            self._unjournalled_wrong += 1
            st.pin_locked_until = max(st.pin_locked_until,
                                      now + pin.lockout_s(st.pin_wrong + self._unjournalled_wrong))
        raise PinError(key="pin.wrong", tries=st.pin_wrong + self._unjournalled_wrong)

    def _matches(self, given: Any) -> bool:
        rec = self.st.session.td_pin if self.st.session else None
        if not isinstance(given, str) or not isinstance(rec, dict):
            return False
        fast = hashlib.sha256(bytes.fromhex(rec["salt"]) + given.encode()).hexdigest() if pin.valid_hash(rec) else ""
        if self._fast is not None and self._fast[0] == rec["hash"]:
            return hmac.compare_digest(fast, self._fast[1])
        if pin.verify(given, rec):
            # a console checks the PIN at every TD action: the slow hash once per session
            self._fast = (rec["hash"], fast)
            return True
        return False


@handles("pin_wrong")
def on_pin_wrong(f: Fold, body: PinBody) -> Effects | None:
    st = f.st
    st.pin_wrong += 1
    st.pin_locked_until = float(body["at"]) + pin.lockout_s(st.pin_wrong)
    st.log.append({"what": "pin_wrong", "tries": st.pin_wrong, "until": st.pin_locked_until})
    if st.session is None:
        return None
    st.td_calls.append({"seat": None, "t": None, "board": st.board, "reason": "wrong_pin", "pin": True,
                        "note": f"wrong director PIN at the table (try {st.pin_wrong} in a row)",
                        "place": st.place()})
    return Effects(td=[(len(st.td_calls), "launched")])


@handles("pin_ok")
def on_pin_ok(f: Fold, body: PinBody) -> None:
    f.st.pin_wrong = 0
    f.st.pin_locked_until = 0.0
