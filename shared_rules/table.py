"""The table during the auction: a fold over events that applies Laws 17-39 of the selected edition.

`Table(profile, board, policy)` takes events one at a time (`apply`), answers what an event would
be without changing anything (`check`), and gives the full state on request (`state`). The state
dict is built only on request: the per-call path only updates a few integers, so replaying a log
is fast (bench/bench_engine.py).

Events (docs/table-log.md is the catalogue):
  {"t": 6.0, "seat": "E", "call": "3S", "stop": true}      a call (stop: a stop was shown first)
  {"t": 7.0, "seat": "W", "alert": true}                   an alert
  {"t": 9.0, "td": "<pending kind>", "choice": "<option id>", "call": "2H"}   a TD decision
  {"t": 9.0, "td": "correct_call", "seat": "E", "call": "1H"}   TD allows an unintended call to be
                                                            corrected (L25A) without a pending decision
  {"t": 9.0, "td": "exposed_cards", "seat": "E", "cards": ["SK"], "led": false}   Law 24
  {"t": 9.0, "td": "wrong_board_call", "seat": "E"}        2007 L17D / 2017 L15A
  {"t": 9.0, "td": "wrong_board", "played_before": false}  2007 L15C / 2017 L15B
  {"t": 9.0, "td": "cancel_board"}                         2007 L15C: a repeated call differs
  {"t": 9.0, "tray": true}                                 the tray passed under the screen
  {"t": 5.0, "seat": "N", "call": "1H", "taken": true}     the card taken from the box (FSB L112C)

What the Law leaves to people is an explicit event: the LHO accepts by calling (L25B1, L27A1,
L29A), the player in turn calls over an out-of-turn call (L28B), the offender chooses his
replacement, the TD answers judgement questions (comparable? unintended? same denomination?).
The engine freezes the table (`pending`) until that input arrives (L9B2: nobody acts until the TD
has explained the rectification), except for the calls the Law itself gives a meaning to.

The Laws are one module per family, each with its detection, the options the Law offers, what
the LHO's call does and what the TD's choice does: law15_17 (wrong boards), law24 (exposed
cards), law25 (change of call), law26 (lead restrictions), law27 (insufficient bid), law28_33
(calls out of rotation), law34_39 (L36-L39), timing (stop, alerts), box_screens (FSB L112C, the
tray). This class puts them together and fills the registries table_base dispatches on.
Edition differences are data in laws.py; jurisdiction differences are data in profiles/*.toml.
"""
from __future__ import annotations

from shared_rules import box_screens, law15_17, law24, law25, law27, law28_33, law34_39, timing
from shared_rules.table_base import EventError, TableBase


class Table(law15_17.WrongBoards, law24.Law24, law25.Law25, law27.Law27, law28_33.Law28to33,
            law34_39.Law34to39, timing.Timing, box_screens.BoxAndScreens, TableBase):
    """The table during the auction, every law family together (table_base.TableBase has the fold)."""

    _RAISE = {**law25.RAISE, **law27.RAISE, **law28_33.RAISE, **law34_39.RAISE}
    _LHO_CALLS = {**law25.LHO_CALLS, **law27.LHO_CALLS, **law28_33.LHO_CALLS, **law34_39.LHO_CALLS}
    # In this order: L33 (the player in turn, simultaneously), the LHO, L27C (the offender
    # replaces early), L28B (the opponent in turn).
    _WHILE_PENDING = (law28_33.Law28to33._simultaneous, TableBase._lho_calls, *law27.WHILE_PENDING,
                      law28_33.Law28to33._opponent_in_turn_calls)
    _RULINGS = {**law15_17.RULINGS, **law25.RULINGS, **law27.RULINGS, **law28_33.RULINGS, **law34_39.RULINGS}
    _DIRECT = {**law15_17.DIRECT, **law24.DIRECT, **law25.DIRECT}
    _DIRECT_FIELDS = {**law15_17.DIRECT_FIELDS, **law24.DIRECT_FIELDS, **law25.DIRECT_FIELDS}


__all__ = ["Table", "EventError"]
