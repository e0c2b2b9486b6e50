"""The table controller's parts, one job each; `tablet_app.controller.Controller` puts them together.

- `state.py`: the table as the journal folds it (`TableState`), the rules engine's interface
  (`Engine`), and the typed records the parts hand each other;
- `reducer.py`: one function per journal record kind, registered where it is defined
  (`@handles("kind")`), and what applying a record means for the station (`Effects`);
- `journal_tx.py`: journal first, then apply: one transaction per input, the replay at start;
- `storage_episode.py`: a full disk, told to the station while it lasts and after;
- `director_pin.py`: the director PIN (sign in and out, the lockout after wrong tries);
- `setup.py`: a round's setup and the club's settings;
- `boards.py`: which of the round's boards is on the table, and the round's end;
- `board_engine.py`: the rules engine of the board in play;
- `auction.py`: the auction at the table (box events, the tray under a screen);
- `td_calls.py`: the calls for the director (box TD keys, the table's own at an irregularity);
- `director_tools.py`: the director's rulings and result changes (`td_*`);
- `result_entry.py`: North's tricks, East-West's confirmation, the traveller;
- `player_numbers.py`: the players' member numbers, looked up and confirmed at the round's first board;
- `station_feed.py`: the items for the station in the outbox (progress, the live feed, TD calls, results);
- `call_log.py`: the live feed's auction log, each call logged and encoded once;
- `snapshot.py`: what a screen renders, published as an immutable snapshot after each change;
- `parts.py`: the parts wired together once (`assemble`).

No part imports Kivy or a serial port; each is used by the controller only.
"""
