"""Player numbers at the table, as Bridgemate tables take them: at the first board of a round
each player enters a member number (or the director does, at any time in the round); the
station looks the numbers up in the players the scoring program sent and the tablet shows the
names back; once the players confirm, the numbers are journalled and queued for the station in
one transaction (a `players` item, `shared_rules/records/players.py`; docs/tablet.md "Player
numbers").

A number of the wrong form, an entry after the round's first call without the director, or a
confirmation with nothing entered is refused (`Refused`, keyed for the players' language) and
changes nothing. The names shown are the station's answer at the time: a number the station
does not know is shown as unknown and may still be confirmed (a guest, a new member: the
scoring program names them), and without a station the numbers are taken unnamed.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypedDict

from shared_rules.records import PlayerNumbers, PlayersKey, RecordError, TableId, check_number, iso_utc
from tablet_app.control.director_pin import DirectorPin
from tablet_app.control.errors import Refused
from tablet_app.control.journal_tx import Transactions
from tablet_app.control.reducer import Fold, handles
from tablet_app.control.state import SEATS, TableState
from tablet_app.outbox import Outbox

# number -> the name the scoring program gave it (None: unknown to it); raises on no answer
PlayerLookup = Callable[[list[str]], Mapping[str, str | None]]


class PlayerEntry(TypedDict):
    """Numbers entered, with the names the station found, waiting for the players' confirmation
    (or, in a journalled `players` record, confirmed: with `at`)."""

    numbers: dict[str, str]  # seat -> member number, only the seats entered
    names: dict[str, str | None]  # seat -> name (None: unknown to the scoring program, or no station)
    looked_up: bool  # False: the station could not be asked (the names are not known yet)
    by: str  # "players" or "director"


class PlayersBody(PlayerEntry):
    at: float
    place: list[Any]  # [event, section, table, round]


class PlayerNumbersPart:
    def __init__(self, st: TableState, tx: Transactions, pin: DirectorPin, outbox: Outbox,
                 clock: Callable[[], float], changed: Callable[[], None]):
        self.st = st
        self.tx = tx
        self.pin = pin
        self.outbox = outbox
        self.clock = clock
        self.changed = changed
        self.lookup: PlayerLookup | None = None  # station_client.player_lookup; None without a station
        self.pending: PlayerEntry | None = None

    def may_enter_unaided(self) -> bool:
        """The players enter their numbers at the round's first board, before its first call."""
        st = self.st
        return st.session is not None and st.phase == "auction" and not st.done and not st.engine_events

    def enter(self, numbers: Mapping[str, Any], given_pin: str | None = None) -> PlayerEntry:
        """Numbers typed for the seats (an empty seat: not entered), looked up at the station and
        held for the players' confirmation. Refused (nothing changed) for a number of the wrong
        form, no number at all, or (without the director) after the round's first call."""
        st = self.st
        if st.session is None or st.phase in ("setup", "round_end"):
            raise Refused("player numbers are entered during a round: set up the round first", "players.no_round")
        if not isinstance(numbers, Mapping):
            raise Refused("give the numbers seat by seat (N, E, S, W)", "players.none")
        typed: dict[str, str] = {}
        for seat, value in numbers.items():
            if seat not in SEATS:
                raise Refused(f"{seat!r} is not a seat (N, E, S, W)", "players.none")
            text = value.strip().upper() if isinstance(value, str) else value
            if text in (None, ""):
                continue
            try:
                typed[seat] = check_number(text if isinstance(text, str) else str(text))
            except RecordError as e:
                raise Refused(f"{seat}: {e}: nothing was changed", "players.number_form", seat=seat,
                              number=str(value)) from None
        if not typed:
            raise Refused("enter at least one player number", "players.none")
        by = "players"
        if given_pin is not None:
            self.pin.require(given_pin)
            by = "director"
        elif not self.may_enter_unaided():
            raise Refused("the auction has started: only the director can enter player numbers now",
                          "players.too_late")
        names, looked_up = self._names(list(dict.fromkeys(typed.values())))
        self.pending = {"numbers": {s: typed[s] for s in SEATS if s in typed},
                        "names": {s: names.get(typed[s]) for s in SEATS if s in typed},
                        "looked_up": looked_up, "by": by}
        self.changed()
        return self.pending

    def _names(self, numbers: list[str]) -> tuple[Mapping[str, str | None], bool]:
        if self.lookup is None:
            return {}, False
        try:
            return self.lookup(numbers), True
        except Exception:  # noqa: BLE001 - a station out of reach: the numbers go unnamed, the table plays on
            return {}, False

    def cancel(self) -> None:
        """The players did not recognise the names: nothing is kept."""
        self.pending = None
        self.changed()

    def confirm(self) -> PlayerNumbers:
        """The players saw the names: the entry is journalled and queued for the station."""
        st, entry = self.st, self.pending
        if entry is None or st.session is None or st.phase in ("setup", "round_end"):
            raise Refused("there are no player numbers waiting for confirmation", "players.nothing_waiting")
        place = st.place()
        n = 1 + sum(1 for e in st.player_entries if e["place"] == place)
        body: PlayersBody = {**entry, "at": self.clock(), "place": place}
        item = PlayerNumbers(PlayersKey(TableId(*place[:3]), place[3], n), dict(entry["numbers"]), entry["by"],
                             iso_utc(body["at"]))
        with self.tx.tx():
            self.tx.record("players", dict(body))
            self.outbox.put(item)
        self.pending = None
        return item

    def entered(self) -> dict[str, dict[str, Any]]:
        """This round's latest number for each seat entered: seat -> {number, name}."""
        st = self.st
        if st.session is None:
            return {}
        place = st.place()
        out: dict[str, dict[str, Any]] = {}
        for e in st.player_entries:
            if e["place"] == place:
                out.update({s: {"number": num, "name": e["names"].get(s)} for s, num in e["numbers"].items()})
        return out


@handles("players")
def on_players(f: Fold, body: PlayersBody) -> None:
    f.st.player_entries.append(body)
    f.st.log.append({"what": "players", "numbers": dict(body["numbers"]), "by": body["by"]})
