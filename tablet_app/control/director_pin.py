"""The director PIN: checked before every ruling, the console's sitting, the lockout.

How the PIN is checked depends on the session's `td_pin` (`tablet_app/pin.py`): by the station
(`pin_check`, asked with a one-time nonce; the grant must come back for that nonce), else, with
the station out of reach, against the last PIN the station confirmed at this tablet
(`director_pin_seen` in the club's settings); or against the salted hash typed in at this
tablet. A wrong PIN is journalled (`pin_wrong`) and sent to the station's director page; after
a few, tries are refused without looking at the PIN until a time that doubles with each wrong
one (`pin_lockout.py`: on the boot clock, across restarts, reboots and a full disk). A token from
`sign_in` stands for the PIN while the director sits at the console (`director_session.py`).
"""
from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Callable
from typing import Any, TypedDict

from tablet_app import pin
from tablet_app.control.director_session import Context, DirectorSessions, DirectorState
from tablet_app.control.errors import DiskFull, PinError, PinLocked
from tablet_app.control.journal_tx import Transactions
from tablet_app.control.reducer import Effects, Fold, handles
from tablet_app.control.state import TableState
from tablet_app.pin_lockout import PinLockout

PinCheck = Callable[[str, str, str], pin.StationVerdict]  # station_client.pin_checker: (table id, digits, nonce)


class PinState(TypedDict):
    set: bool
    wrong_tries: int
    locked_until: float | None  # wall-clock estimate of the end of the wait, for display only
    wait_s: int


class PinBody(TypedDict):
    at: float  # wall clock of the try


class DirectorPin:
    def __init__(self, st: TableState, tx: Transactions, clock: Callable[[], float], lockout: PinLockout,
                 club: Callable[[], dict[str, Any]], remember: Callable[[dict[str, Any]], None]):
        self.st = st
        self.tx = tx
        self.clock = clock  # the wall clock: only for the journal's `at` and display
        self.lockout = lockout
        self.club = club  # the club's settings (the grace, the PIN last confirmed by the station here)
        self.remember = remember  # keeps the hash of a PIN the station confirmed (`director_pin_seen`)
        self.sessions = DirectorSessions(lockout.clock, lambda: int(self.club().get("director_grace_s") or 0))
        self.pin_check: PinCheck | None = None
        self._nonces: dict[str, float] = {}  # asked of the station, not yet answered (boot clock)
        self._fast: tuple[str, str] | None = None  # (hash, sha256) of the last good local PIN, memory only

    # -- the console's sitting -----------------------------------------------------------------------
    def context(self) -> Context:
        st = self.st
        return (tuple(st.place()) if st.session else None, st.phase == "frozen")

    def sign_in(self, given: str, verdict: pin.StationVerdict | None = None) -> str:
        """A token the console passes instead of the PIN. PinError / PinLocked otherwise."""
        self.require(given, verdict, token_ok=False)
        return self.sessions.start(self.context())

    def director(self) -> DirectorState:
        return self.sessions.state(self.context())

    # -- the PIN -----------------------------------------------------------------------------------
    def check(self, given: str, verdict: pin.StationVerdict | None = None) -> bool:
        """True for the director's PIN (or the sitting's token); False for a wrong one
        (journalled) and, without looking at the PIN, while tries are locked out (`state()`)."""
        try:
            self.require(given, verdict)
        except PinError:
            return False
        return True

    def state(self) -> PinState:
        st, wait = self.st, self.lockout.wait_s()
        return {"set": bool(st.session and st.session.td_pin), "wrong_tries": self.lockout.wrong,
                "locked_until": self.clock() + wait if wait else None, "wait_s": int(wait + 0.999)}

    def station_question(self, given: Any) -> Callable[[], pin.StationVerdict] | None:
        """What to ask the station about `given` (run it without the controller's lock), or None
        when the station is not the one to ask (a token, no station, a PIN typed in here, a lockout)."""
        s = self.st.session
        if (self.pin_check is None or s is None or not pin.checked_at_station(s.td_pin) or not _digits(given)
                or self.lockout.wait_s() > 0):
            return None
        nonce, ask, table = pin.new_nonce(), self.pin_check, f"{s.event}/{s.section}/{s.table}"
        self._nonces[nonce] = self.lockout.clock()
        return lambda: ask(table, given, nonce)

    def require(self, given: Any, verdict: pin.StationVerdict | None = None, *, token_ok: bool = True) -> None:
        """Nothing if `given` is the PIN or the sitting's token; PinError (journalled) or PinLocked
        otherwise. `verdict`: the station's answer to `station_question(given)`, asked without the lock."""
        if token_ok and self.sessions.valid(given, self.context()):
            return
        if self.sessions.is_token(given):
            raise PinError("signed out: give the director PIN again (nothing was changed)", "pin.signed_out")
        st = self.st
        if st.session is None or not st.session.td_pin:
            raise PinError("no director PIN is set for this table yet: nothing was changed", "pin.not_set")
        wait = self.lockout.wait_s()
        if wait > 0:
            raise PinLocked(wait, self.clock())  # not looked at, not counted: no guessing
        if not _digits(given):
            raise PinError(key="pin.wrong", tries=self.lockout.wrong)  # never a PIN: nothing to count
        if self._matches(given, verdict):
            if self.lockout.wrong:
                try:
                    self.tx.record("pin_ok", {"at": self.clock()})
                    self.lockout.reset(journalled=True)
                except DiskFull:
                    self.lockout.reset(journalled=False)  # the mark says so (pin_lockout.py)
            return
        try:
            self.tx.record("pin_wrong", {"at": self.clock()})
            journalled = True
        except DiskFull:
            journalled = False  # never a free guess: the mark counts it (pin_lockout.py)
        self.lockout.wrong_try(journalled)
        raise PinError(key="pin.wrong", tries=self.lockout.wrong)

    def _matches(self, given: str, verdict: pin.StationVerdict | None) -> bool:
        rec = self.st.session.td_pin if self.st.session else None
        if not pin.checked_at_station(rec):
            return self._local(given, rec)
        if verdict is None:
            ask = self.station_question(given)
            verdict = ask() if ask is not None else pin.StationVerdict("unavailable", reason="no_station")
        if verdict.outcome == "granted":
            asked = self._nonces.pop(verdict.nonce, None)
            if asked is None or self.lockout.clock() - asked > pin.GRANT_VALID_S:
                raise PinError("the station's answer came too late or was not asked for: sign in again",
                               "pin.station_stale")
            seen = self.club().get("director_pin_seen")
            if not (pin.valid_hash(seen) and self._local(given, seen)):
                try:
                    self.remember(pin.hash_pin(given))  # for a station out of reach later
                except DiskFull:
                    pass
            return True
        if verdict.outcome == "wrong":
            return False
        if verdict.outcome == "locked":
            raise PinLocked(float(verdict.wait_s), self.clock(), station=True)
        # unavailable: the PIN the station last confirmed at this tablet
        seen = self.club().get("director_pin_seen")
        if not pin.valid_hash(seen):
            raise PinError("the station cannot check the PIN now and has not confirmed it at this tablet yet: "
                           f"nothing was changed ({verdict.reason})", "pin.offline_unknown", reason=verdict.reason)
        return self._local(given, seen)

    def _local(self, given: str, rec: Any) -> bool:
        if not pin.valid_hash(rec):
            return False
        fast = hashlib.sha256(bytes.fromhex(rec["salt"]) + given.encode()).hexdigest()
        if self._fast is not None and self._fast[0] == rec["hash"]:
            return hmac.compare_digest(fast, self._fast[1])
        if pin.verify(given, rec):
            # a console checks the PIN at every TD action: the slow hash once per session
            self._fast = (rec["hash"], fast)
            return True
        return False


def _digits(given: Any) -> bool:
    return isinstance(given, str) and re.fullmatch(r"\d{4,8}", given) is not None


@handles("pin_wrong")
def on_pin_wrong(f: Fold, body: PinBody) -> Effects | None:
    st = f.st
    st.pin_wrong += 1
    # `until` (wall clock) is for the log only: the wait itself runs on the boot clock (pin_lockout.py)
    st.log.append({"what": "pin_wrong", "tries": st.pin_wrong, "until": float(body["at"]) + pin.lockout_s(st.pin_wrong)})
    if st.session is None:
        return None
    st.td_calls.append({"seat": None, "t": None, "board": st.board, "reason": "wrong_pin", "pin": True,
                        "note": f"wrong director PIN at the table (try {st.pin_wrong} in a row)",
                        "place": st.place()})
    return Effects(td=[(len(st.td_calls), "launched")])


@handles("pin_ok")
def on_pin_ok(f: Fold, body: PinBody) -> None:
    f.st.pin_wrong = 0
