"""The director's sitting at the console: signed in once with the PIN, signed out when he leaves.

Only the director rules: the Law's options and every TD tool take the PIN each time the console
opens. A sitting (the token `sign_in` gives the console, memory only, gone at a restart) ends,
and the PIN is asked again:

- when the console is left (`leave`): Back, the ruling made and the console returning to the
  auction, a new irregularity, the app going to the background (`end`);
- when the table moves on under it (`observe`, at every snapshot the controller publishes): the
  table frozen or freed (a ruling made, a new irregularity), another round, so a console the app
  failed to close cannot be used for the next irregularity (the board the director changes, or
  ends with an adjusted score, from the console is his own doing: he stays);
- when the console has not been touched for `IDLE_S` (`touch`).

After leaving, and after the table moved on within the round, the club's grace (`grace_s()`,
0-120 s, 0 by default: docs/td-guide.md) lets `resume` open the console again without the PIN;
the snapshot counts it down (`grace_s`). A new round, the idle timeout and the app going to the
background end a sitting with no grace.
"""
from __future__ import annotations

import dataclasses
import hmac
import secrets
from collections.abc import Callable
from typing import Any, TypedDict

IDLE_S = 120.0  # an unattended console signs out (docs/td-guide.md)

Context = tuple[Any, ...]  # (the round's place, frozen)


class DirectorState(TypedDict):
    signed_in: bool
    grace_s: int  # > 0: the console reopens without the PIN for that long
    grace_setting: int  # the club's grace, seconds


@dataclasses.dataclass
class Sitting:
    token: str
    round: Any  # the round's place it began in: another round ends it
    context: Context | None  # None: left, resumable until `grace_until`
    grace_until: float
    used: float


class DirectorSessions:
    def __init__(self, clock: Callable[[], float], grace_s: Callable[[], int]):
        self.clock = clock  # the boot clock (pin_lockout.boot_clock): the wall clock moves
        self.grace_s = grace_s
        self.current: Sitting | None = None
        self.issued: set[str] = set()  # every token given this run: a stale one is no PIN guess

    def start(self, context: Context) -> str:
        token = secrets.token_urlsafe(24)
        self.issued.add(token)
        self.current = Sitting(token, context[0], context, 0.0, self.clock())
        return token

    def valid(self, token: Any, context: Context) -> bool:
        """The console's token stands for the PIN now (and counts as a use)."""
        self.observe(context)
        s = self.current
        if s is None or s.context is None or not isinstance(token, str) or not hmac.compare_digest(token, s.token):
            return False
        s.used = self.clock()
        return True

    def is_token(self, given: Any) -> bool:
        return isinstance(given, str) and any(hmac.compare_digest(given, t) for t in self.issued)

    def touch(self, token: Any) -> None:
        """The director is at the console (a touch on it): the idle time starts again."""
        s = self.current
        if s is not None and s.context is not None and isinstance(token, str) and hmac.compare_digest(token, s.token):
            s.used = self.clock()

    def leave(self, token: str | None = None, grace: bool = True) -> None:
        """The console is left: the sitting can be resumed within the club's grace (`grace`
        False: ended now)."""
        s = self.current
        if s is None or (token is not None and not hmac.compare_digest(token, s.token)):
            return
        if grace and self.grace_s() > 0 and s.context is not None:
            s.context, s.grace_until = None, self.clock() + self.grace_s()
        elif s.context is not None or not grace:
            self.current = None

    def end(self) -> None:
        self.current = None

    def resume(self, token: Any, context: Context) -> bool:
        """The console opens again: True (signed in, no PIN) within the grace after leaving, or
        if the sitting is still on."""
        self.observe(context)
        s = self.current
        if s is None or not isinstance(token, str) or not hmac.compare_digest(token, s.token):
            return False
        if s.context is None:
            s.context = context
        s.used = self.clock()
        return True

    def observe(self, context: Context) -> None:
        """The table as it is now: a sitting whose table moved on is left (another round: ended);
        an idle one ends; a grace that ran out ends."""
        s = self.current
        if s is None:
            return
        now = self.clock()
        if s.round != context[0]:
            self.current = None
        elif s.context is None:
            if now >= s.grace_until:
                self.current = None
        elif now - s.used >= IDLE_S:
            self.current = None
        elif s.context != context:
            self.leave(s.token)

    def state(self, context: Context) -> DirectorState:
        self.observe(context)
        s, now = self.current, self.clock()
        grace = int(s.grace_until - now + 0.999) if s is not None and s.context is None else 0
        return {"signed_in": s is not None and s.context is not None, "grace_s": max(0, grace),
                "grace_setting": self.grace_s()}

