"""Which results a table may post and read at the station: a table must not learn another
table's result on a board before its own result on that board stands (2017 Law 16D1, 2007 Law
16C1: extraneous information about a board a player "is playing or has yet to play", results
overheard among it).

- **Posting** (`may_post`): where the scoring program sent a movement for the table's session,
  a result (or its withdrawal, or a correction) only for a board of a round the movement gives
  the table, and no later than the round it is on: the first round with a board that has no
  standing result of the table (rounds without two pairs, a sit-out, are skipped), or the round
  the table last moved to (its round-start item: the players confirmed the pairs shown for it,
  or the director set it up), whichever is later. A table on round 1 cannot post a result for
  a board of round 3 and then read that board's traveller.
  A result for a board outside the table's movement is refused for good (422); one of a round
  the table is not on yet is "too early" (425): the tablet keeps it and sends it again, and the
  station takes it once the table is on that round (its round-start item came, or the earlier
  boards' results did). Nothing is lost when a board of an earlier round never gets a result.
- **Reading** (`may_read`): a board's results only for a board of the table's movement, and only
  once the table's own result on it stands: the latest revision of its result there is a result,
  not a withdrawal (a result moved to another board stands on that board, not on this one).

A table set up by hand with `--tables` keys alone has no movement to hold it to: it may post for
any board, and reads a board only after its own standing result there (docs/station.md).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shared_rules.records import RefusalCode, Refused

from .movement import Slot, item_session, session_slots, started
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


# The answer to a result of a round the table is not on yet (RFC 8470 425 Too Early): not
# final, the tablet sends it again later (docs/station.md "Law 16 at the station").
TOO_EARLY = 425


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a result is not taken now: `status` 422 (never: not the table's board) or TOO_EARLY,
    or why a board's results are not shown (403); `why` in English, `refused` its code and
    parameters (the tablet says it in its language)."""

    status: int
    why: str
    refused: Refused


def current_round(slots: list[Slot], done: set[tuple[int, int]], begun: int = 0) -> Slot | None:
    """The round the table is on: its first round with a board without a standing result, or
    the round it last started (`begun`, from its round-start items) when that is later (None
    when every round of the movement is complete)."""
    first = next((s for s in sorted(slots, key=lambda s: s.round)
                  if _plays(s) and any((s.round, b) not in done for b in s.boards)), None)
    if first is not None and begun > first.round:
        return next((s for s in slots if s.round == begun and _plays(s)), first)
    return first


def _movement(store: Any, event: str, section: str, table_no: int) -> list[Slot] | None:
    """The table's slots in the movement of its session; None when there is no movement."""
    ref = item_session(store, event, section)
    return None if ref is None else session_slots(store, ref.guid, section, table_no)


def may_post(store: Any, event: str, section: str, table_no: int, round_no: int, board: int) -> Refusal | None:
    """Why the table may not post a result for this round and board (the reply's status and
    error), or None."""
    slots = _movement(store, event, section, table_no)
    if slots is None:
        return None
    if not slots:
        return Refusal(422, f"table {section}{table_no} is not in the scoring program's movement of section {section}",
                       Refused.of(RefusalCode.LAW16_NOT_IN_MOVEMENT, table=f"{section}{table_no}", section=section))
    slot = next((s for s in slots if s.round == round_no), None)
    if slot is None or board not in slot.boards:
        given = ", ".join(map(str, slot.boards)) if slot else "none"
        return Refusal(422, f"board {board} is not played at table {section}{table_no} in round {round_no} "
                            f"(the movement gives boards {given})",
                       Refused.of(RefusalCode.LAW16_BOARD_NOT_IN_ROUND, board=board, table=f"{section}{table_no}",
                                  round=round_no, boards=given))
    first = current_round(slots, set())
    if first is None or round_no <= first.round:  # the table's first round: nothing before it to finish
        return None
    done = standing(store, event, section, table_no)
    now = current_round(slots, done, started(store, event, section, table_no))
    if now is not None and round_no > now.round:
        left = [b for b in now.boards if (now.round, b) not in done] or list(now.boards)
        return Refusal(TOO_EARLY, (
            f"board {board} is a board of round {round_no} at table {section}{table_no}, and the table "
            f"is on round {now.round}: board{'s' if len(left) > 1 else ''} {', '.join(map(str, left))} "
            f"of round {now.round} {'have' if len(left) > 1 else 'has'} no result at the station yet. "
            f"A result is taken for the round the table is playing ({LAW}); the tablet keeps this one and "
            f"sends it again once the table has started round {round_no} or those results are in"),
            Refused.of(RefusalCode.LAW16_TOO_EARLY, board=board, round=round_no, table=f"{section}{table_no}",
                       current=now.round, missing=left))
    return None


def may_start(store: Any, event: str, section: str, table_no: int, round_no: int) -> Refusal | None:
    """Why the table may not say it moved to this round (422), or None: where there is a
    movement, only to a round of the table's own movement."""
    slots = _movement(store, event, section, table_no)
    if slots is None or any(s.round == round_no for s in slots):
        return None
    rounds = ", ".join(str(s.round) for s in sorted(slots, key=lambda s: s.round)) or "none"
    return Refusal(422, f"round {round_no} is not a round of table {section}{table_no} in the scoring program's "
                        f"movement (its rounds: {rounds})",
                   Refused.of(RefusalCode.LAW16_ROUND_NOT_IN_MOVEMENT, round=round_no, table=f"{section}{table_no}",
                              rounds=rounds))


def may_read(store: Any, event: str, section: str, table_no: int, board: int) -> Refusal | None:
    """Why the table may not read this board's results (403), or None."""
    slots = _movement(store, event, section, table_no)
    if slots is not None and not any(board in s.boards for s in slots):
        return Refusal(403, f"board {board} is not in the movement of table {section}{table_no}",
                       Refused.of(RefusalCode.LAW16_READ_NOT_IN_MOVEMENT, board=board, table=f"{section}{table_no}"))
    if not any(b == board for _, b in standing(store, event, section, table_no)):
        return Refusal(403, f"board {board}: results are shown only after this table's own result on the board "
                            f"stands (a withdrawn one does not) ({LAW})",
                       Refused.of(RefusalCode.LAW16_READ_BEFORE_OWN, board=board))
    return None
