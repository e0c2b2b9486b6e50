"""Which results a table may post and read at the station: a table must not learn another
table's result on a board before its own result on that board stands (2017 Law 16D1, 2007 Law
16C1: extraneous information about a board a player "is playing or has yet to play", results
overheard among it).

- **Posting** (`may_post`): where the scoring program sent a movement for the table's session,
  a result (or its withdrawal, or a correction) only for a board of a round the movement gives
  the table, and no later than the round it is on: the first round with a board that has no
  standing result of the table (rounds without two pairs, a sit-out, are skipped). A table on
  round 1 cannot post a result for a board of round 3 and then read that board's traveller.
- **Reading** (`may_read`): a board's results only for a board of the table's movement, and only
  once the table's own result on it stands: the latest revision of its result there is a result,
  not a withdrawal (a result moved to another board stands on that board, not on this one).

A table set up by hand with `--tables` keys alone has no movement to hold it to: it may post for
any board, and reads a board only after its own standing result there (docs/station.md).
"""
from __future__ import annotations

from typing import Any

from .movement import Slot, item_session, session_slots
from .store import latest_results

LAW = "2017 Law 16D1, 2007 Law 16C1: a table sees a board's results only once its own result there stands"


def standing(store: Any, event: str, section: str, table_no: int) -> set[tuple[int, int]]:
    """(round, board) of each result of the table that stands: its latest revision is not a
    withdrawal. Damaged rows are no result (station/stored.py)."""
    return {(it["payload"]["round"], it["payload"]["board"])
            for it in latest_results(store.items(event, "result", section=section, table_no=table_no))}


def _plays(slot: Slot) -> bool:
    """A round with boards and two pairs (a sit-out or a phantom pair has nothing to post)."""
    return bool(slot.boards) and bool(slot.ns) and bool(slot.ew)


def current_round(slots: list[Slot], done: set[tuple[int, int]]) -> Slot | None:
    """The round the table is on: its first round with a board without a standing result (None
    when every round of the movement is complete)."""
    return next((s for s in sorted(slots, key=lambda s: s.round)
                 if _plays(s) and any((s.round, b) not in done for b in s.boards)), None)


def _movement(store: Any, event: str, section: str, table_no: int) -> list[Slot] | None:
    """The table's slots in the movement of its session; None when there is no movement."""
    ref = item_session(store, event, section)
    return None if ref is None else session_slots(store, ref.guid, section, table_no)


def may_post(store: Any, event: str, section: str, table_no: int, round_no: int, board: int) -> str | None:
    """Why the table may not post a result for this round and board (the reply's error), or None."""
    slots = _movement(store, event, section, table_no)
    if slots is None:
        return None
    if not slots:
        return f"table {section}{table_no} is not in the scoring program's movement of section {section}"
    slot = next((s for s in slots if s.round == round_no), None)
    if slot is None or board not in slot.boards:
        given = ", ".join(map(str, slot.boards)) if slot else "none"
        return (f"board {board} is not played at table {section}{table_no} in round {round_no} "
                f"(the movement gives boards {given})")
    first = current_round(slots, set())
    if first is None or round_no <= first.round:  # the table's first round: nothing before it to finish
        return None
    done = standing(store, event, section, table_no)
    now = current_round(slots, done)
    if now is not None and round_no > now.round:
        left = [b for b in now.boards if (now.round, b) not in done]
        return (f"board {board} is a board of round {round_no} at table {section}{table_no}, and the table "
                f"is on round {now.round}: board{'s' if len(left) > 1 else ''} {', '.join(map(str, left))} "
                f"of round {now.round} {'have' if len(left) > 1 else 'has'} no result at the station yet. "
                f"A result is taken for the round the table is playing ({LAW})")
    return None


def may_read(store: Any, event: str, section: str, table_no: int, board: int) -> str | None:
    """Why the table may not read this board's results (the reply's error), or None."""
    slots = _movement(store, event, section, table_no)
    if slots is not None and not any(board in s.boards for s in slots):
        return f"board {board} is not in the movement of table {section}{table_no}"
    if not any(b == board for _, b in standing(store, event, section, table_no)):
        return (f"board {board}: results are shown only after this table's own result on the board stands "
                f"(a withdrawn one does not) ({LAW})")
    return None
