"""A round's setup, and the club's settings a new setup starts from.

The setup is checked in the TD's words (`SetupError` with a key for the screen), completed with
the club's regulations and director PIN, checked against the station when there is one (the
table's key, and the movement the station sent: `setup_check.py`), then journalled with its
first board. The club's settings (the station's movement reply, or the
tablet's own setting) are kept in the tablet's database outside the journal: they are not the
table's, and a setup journals the values it used.
"""
from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from typing import Any, NotRequired, TypedDict

from tablet_app import pin
from tablet_app.control.errors import DiskFull, Refused
from tablet_app.control.journal_tx import Transactions
from tablet_app.control.reducer import Effects, Fold, handles
from tablet_app.control.setup_check import check_against
from tablet_app.control.state import Rules, TableState
from tablet_app.i18n import LANGS
from tablet_app.journal import Journal, StorageFull
from tablet_app.session import Session, SetupError

# Where this tablet's station is, as typed once (`--station`, `--table`, `--table-key`): the
# next start finds it without them.
STATION_KEYS = ("station", "table", "table_key")
MAX_GRACE_S = 120  # the longest a club may let the console reopen without the PIN (docs/td-guide.md)
CLUB_SCHEMA = "CREATE TABLE IF NOT EXISTS club_settings (id INTEGER PRIMARY KEY CHECK (id = 1), value TEXT NOT NULL)"

StationCheck = Callable[[Session], Any]  # station_client.station_check: the movement, or StationError


class StationStatus(TypedDict):
    """The last check of this table against the station (shown on the director console)."""

    ok: bool
    table: str
    reason: str | None
    message: str | None
    refusal: NotRequired[dict[str, Any] | None]  # the station's refusal's code and params (said in the language)


class SetupDefaults(TypedDict):
    profile: str | None  # None: the TD must choose (never a built-in default)
    pin_set: bool
    event: str | None
    section: str | None
    table: int | None


class SetupBody(TypedDict):
    session: dict[str, Any]  # Session.to_dict(), the PIN as its hash


class TableSetup:
    def __init__(self, st: TableState, tx: Transactions, journal: Journal, rules: Rules,
                 clock: Callable[[], float]):
        self.st = st
        self.tx = tx
        self.journal = journal
        self.rules = rules
        self.clock = clock
        # What the club set: the regulations and the director PIN's hash a new setup starts
        # from. Never a built-in one.
        self.club: dict[str, Any] = self._load_club()
        # Checks a typed-in setup against the station before its first board; None without one.
        self.station_check: StationCheck | None = None
        self.station_status: StationStatus | None = None

    def setup(self, session: dict[str, Any] | Session, by: str = "director") -> None:
        """`by`: who starts the round, "players" (the next round of the movement, its pairs
        confirmed: `next_round`) or "director" (any setup, with the PIN on the screen)."""
        st = self.st
        if st.phase not in ("setup", "round_end") and st.session is not None:
            raise Refused("finish the round (or have the TD end it) before setting up a new one", "setup.round_open")
        self.start(self.prepare(session), by)

    def prepare(self, session: dict[str, Any] | Session) -> Session:
        """The setup checked in the TD's words, completed with the club's PIN and regulations,
        and checked against the station when there is one; nothing journalled (a refusal is a
        SetupError, the station's I/O happens before any transaction is open)."""
        st = self.st
        if isinstance(session, Session):
            d = session.to_dict()
        elif isinstance(session, dict):
            d = dict(session)
        else:
            raise SetupError("the setup must be a set of named fields", "setup.not_a_setup")
        if d.get("td_pin") in (None, ""):
            # the club's PIN (the station's, or the one the TD set for this session earlier)
            if st.session is not None and st.session.td_pin:
                d["td_pin"] = st.session.td_pin
            elif self.club.get("director_pin"):
                d["td_pin"] = self.club["director_pin"]
        if not d.get("profile") and self.club.get("profile"):
            d["profile"] = self.club["profile"]
        elif not d.get("profile"):
            raise SetupError("Regulations: choose the club's regulations (no default is assumed)", "setup.profile",
                             field="profile", value="")
        s = Session.from_dict(d)
        try:
            self.rules.engine(s, s.boards[0])
        except ImportError:
            raise
        except Exception as exc:
            raise SetupError(f"Regulations: the rules engine cannot run this setup ({exc})", "setup.engine",
                             field="profile", detail=str(exc)) from exc
        if self.station_check is not None:
            self._check_station(s)
        return s

    def start(self, s: Session, by: str) -> None:
        """The round `s` (prepared) starts: journalled with its first board, and its round item
        queued for the station, in one transaction (the caller's, when it has one open)."""
        with self.tx.tx():
            self.tx.record("setup", {"session": s.to_dict()})
            self.tx.record("board", {"board": s.boards[0], "started_at": self.clock(), "by": None})
            # the station's Law 16 gate opens this round's results (docs/station.md)
            self.tx.feed.round_start(s, by)

    def next_round(self, session: Session) -> None:
        """The players move the table on: after the last board of the round, to the next round
        of the movement, whose pairs and boards they have confirmed: the movement is the
        director's instruction how players and boards move (2007 and 2017 Law 8A1). Anything
        else (a round not over, another table, a round back) is the director's, with the PIN
        (`setup`, or `RoundClose.end` from the console): a round ends when he says so, and a
        board he postponed keeps it open for the players concerned (Law 8B)."""
        st = self.st
        if st.session is None or st.phase != "round_end":
            raise Refused("the round is not over: the director moves the table to the next round",
                          "round.not_over")
        self.check_next(session)
        self.setup(session, by="players")

    def check_next(self, session: Session) -> None:
        """`session` is the table's own next round: not another table's (Refused
        `round.other_table`), not the round it is on or one before it (`round.not_next`)."""
        now = self.st.session
        assert now is not None
        if (session.event, session.section, session.table) != (now.event, now.section, now.table) \
                and session.station_session == now.station_session:
            raise Refused("that is another table's round: call the director", "round.other_table")
        if session.round <= now.round and session.station_session == now.station_session:
            raise Refused(f"round {session.round} is not after round {now.round}: call the director",
                          "round.not_next", round=session.round, now=now.round)

    def _check_station(self, s: Session) -> None:
        """The table id and key as the outbox will deliver them, before the first board: a
        refusal is a SetupError (shown on the setup screen); a station out of reach is said in
        the snapshot (`station`) but does not stop the table (results wait in the outbox)."""
        from tablet_app.station_client import StationError, club_defaults, table_of

        assert self.station_check is not None
        tid = table_of(s).format()
        try:
            movement = self.station_check(s)
        except StationError as exc:
            refusal = exc.refused.to_json() if exc.refused else None
            self.station_status = {"ok": False, "table": tid, "reason": exc.reason, "message": str(exc),
                                   "refusal": refusal}
            if exc.reason == "refused":
                raise SetupError(f"The station refused table {tid}: {exc}", "setup.station_refused",
                                 table=tid, reason=str(exc), refusal=refusal) from exc
            return
        if movement is not None:
            try:
                check_against(s, movement)  # what the station would refuse later, refused now
            except SetupError as exc:
                self.station_status = {"ok": False, "table": tid, "reason": "movement", "message": str(exc)}
                raise
        self.station_status = {"ok": True, "table": tid, "reason": None, "message": None}
        if movement is not None:
            self.set_club_defaults(**club_defaults(movement))

    def set_club_defaults(self, **values: Any) -> None:
        """What the club set: `profile` (regulations), `language` (the screens' language at the
        next start), `station`, `table`, `table_key` (where this tablet delivers, typed once),
        `director_pin` (digits, hashed here; a hash; or `{"algorithm": "station"}`: the station
        checks it), `director_grace_s` (0-120 s, how
        long the console reopens without the PIN after the director leaves it), and
        `director_pin_seen`: the hash of the last PIN the station confirmed at this tablet, its
        check when the station is out of reach. Used by the next setup that does not give its own."""
        club = dict(self.club)
        if values.get("profile"):
            club["profile"] = str(values["profile"])
        if values.get("language") in LANGS:
            club["language"] = str(values["language"])
        for k in STATION_KEYS:  # the station's address, this table and its key, typed once
            if isinstance(values.get(k), str) and values[k]:
                club[k] = values[k]
        p = values.get("director_pin")
        if isinstance(p, str) and pin.valid_digits(p):
            club["director_pin"] = pin.hash_pin(p)
        elif pin.valid_verifier(p):
            club["director_pin"] = p
        elif p is not None:
            raise SetupError("Director PIN: give 4 to 8 digits", "setup.pin_format", field="td_pin")
        grace = values.get("director_grace_s")
        if grace is not None:
            if isinstance(grace, bool) or not isinstance(grace, int) or not 0 <= grace <= MAX_GRACE_S:
                raise SetupError(f"Director's grace: 0 to {MAX_GRACE_S} seconds", "setup.grace", field="grace")
            club["director_grace_s"] = grace
        seen = values.get("director_pin_seen")
        if pin.valid_hash(seen):
            club["director_pin_seen"] = seen
        if club != self.club:
            # the tablet's own setting: remembered for the next evening
            try:
                with self.journal.transaction() as conn:
                    conn.execute(CLUB_SCHEMA)
                    conn.execute("INSERT OR REPLACE INTO club_settings (id, value) VALUES (1, ?)", (json.dumps(club),))
            except StorageFull as exc:
                raise DiskFull(f"tablet storage full: the club's settings were not kept ({exc})") from exc
            self.club = club

    def _load_club(self) -> dict[str, Any]:
        try:
            row = self.journal.conn.execute("SELECT value FROM club_settings WHERE id = 1").fetchone()
            club = json.loads(row[0]) if row else {}
        except (sqlite3.Error, ValueError, TypeError):
            return {}  # no setting (or an unreadable one): the TD chooses
        if not isinstance(club, dict):
            return {}
        text = lambda v: isinstance(v, str) and bool(v)  # noqa: E731 - a table of checks
        keep = {"profile": text, "director_pin": pin.valid_verifier,
                "director_pin_seen": pin.valid_hash,
                "director_grace_s": lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_GRACE_S,
                "language": lambda v: v in LANGS, **dict.fromkeys(STATION_KEYS, text)}
        return {k: v for k, v in club.items() if k in keep and keep[k](v)}

    def defaults(self) -> SetupDefaults:
        """What the setup screen starts from: the club's regulations (None: the TD must choose;
        never a built-in default) and whether a director PIN is already set by the club."""
        s = self.st.session
        return {"profile": self.club.get("profile") or (s.profile if s else None),
                "pin_set": bool(self.club.get("director_pin") or (s and s.td_pin)),
                "event": s.event if s else None, "section": s.section if s else None,
                "table": s.table if s else None}


@handles("setup")
def on_setup(f: Fold, body: SetupBody) -> Effects:
    st = f.st
    # A director call outlives its round: the TD may attend to it after the table has moved
    # on, and the station keeps it open until he does; so does the PIN's lockout. The player
    # numbers entered are each round's own (their key names the round): kept for the numbering.
    st.reset(keep=("td_calls", "pin_wrong", "player_entries"))
    st.session = Session.from_dict(body["session"])
    st.phase = "auction"
    st.log.append({"what": "setup", **body["session"]})
    return Effects(checkpoint=True)
