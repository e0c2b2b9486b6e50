"""The controller's parts, wired together once: each gets the table's state and the parts it uses."""
from __future__ import annotations

import dataclasses
from collections.abc import Callable

from tablet_app.control.auction import Auction
from tablet_app.control.boards import Boards
from tablet_app.control.director_pin import DirectorPin
from tablet_app.control.director_tools import DirectorTools
from tablet_app.control.journal_tx import Transactions
from tablet_app.control.player_numbers import PlayerNumbersPart
from tablet_app.control.reducer import Fold
from tablet_app.control.result_entry import ResultEntry
from tablet_app.control.round_close import RoundClose
from tablet_app.control.setup import TableSetup
from tablet_app.control.snapshot import Publisher, SessionView, build
from tablet_app.control.state import Rules, TableState
from tablet_app.control.station_feed import StationFeed
from tablet_app.control.storage_episode import StorageEpisode
from tablet_app.journal import Journal
from tablet_app.outbox import Outbox
from tablet_app.pin_lockout import PinLockout
from tablet_app.session import Session


@dataclasses.dataclass
class Parts:
    st: TableState
    publisher: Publisher
    feed: StationFeed
    storage: StorageEpisode
    tx: Transactions
    pin: DirectorPin
    setup: TableSetup
    boards: Boards
    auction: Auction
    results: ResultEntry
    tools: DirectorTools
    session_view: SessionView
    players: PlayerNumbersPart
    rounds: RoundClose


def _session(st: TableState) -> Session:
    assert st.session is not None  # the director's tools ask only during a round
    return st.session


def assemble(journal: Journal, outbox: Outbox, rules: Rules, clock: Callable[[], float],
             listeners: list[Callable[[], None]], lockout: PinLockout) -> Parts:
    """`listeners` are called after every committed input; a snapshot is published after every input.
    `lockout`: the PIN's lockout, on its own clock and mark file (tablet_app/pin_lockout.py)."""
    st = TableState()
    publisher = Publisher(lambda: build(p))
    feed = StationFeed(outbox, st, clock)
    storage = StorageEpisode(journal, st, feed, clock)
    tx = Transactions(journal, Fold(st, rules), feed, storage, listeners, publisher.changed)
    setup = TableSetup(st, tx, journal, rules, clock)
    pin = DirectorPin(st, tx, clock, lockout, lambda: setup.club,
                      lambda seen: setup.set_club_defaults(director_pin_seen=seen))
    boards = Boards(st, tx, pin, clock)
    auction = Auction(st, tx, clock)
    p = Parts(st, publisher, feed, storage, tx, pin, setup, boards, auction,
              ResultEntry(st, tx, boards, feed, clock), DirectorTools(st, tx, pin, auction, boards, feed, clock,
                                                                  lambda: rules.profile(_session(st))),
              SessionView(), PlayerNumbersPart(st, tx, pin, outbox, clock, publisher.changed),
              RoundClose(st, tx, pin, setup))
    return p
