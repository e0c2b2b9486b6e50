"""A typed-in setup against the movement the station sent, before the first board: what the
station would refuse later (a result for a board or round the movement does not give the
table, docs/station.md "Law 16 at the station") is refused now, while nothing has been played,
and said in the players' language with what to do (`SetupError` keys `setup.movement_*`).

Pairs are checked too: the station would take a result with other pairs, but the scoring
program would then credit it to the wrong pairs. The round the table is on at the station is
not: a table's earlier results may still be on their way (in its outbox, or from a tablet
restarted on its journal), and the station takes the later round once they are in. Pure: the movement is the dict
`tablet_app.session.from_station` reads (only this table's slots).
"""
from __future__ import annotations

from typing import Any

from tablet_app.session import Session, SetupError


def _numbers(values: Any) -> list[int]:
    return [v for v in values if isinstance(v, int) and not isinstance(v, bool)] if isinstance(values, list) else []


def check_against(s: Session, movement: dict[str, Any]) -> None:
    """Nothing when the typed setup is one the movement gives this table; SetupError otherwise."""
    rounds = movement.get("rounds")
    if not isinstance(rounds, dict):
        return  # no movement to hold the setup to (a station without a scoring program)
    table = f"{s.section}{s.table}"
    given = sorted(int(r) for r, slots in rounds.items()
                   if str(r).isdigit() and isinstance(slots, dict) and str(s.table) in slots)
    slot = rounds.get(str(s.round), {}).get(str(s.table)) if isinstance(rounds.get(str(s.round)), dict) else None
    if not isinstance(slot, dict):
        raise SetupError(f"Round: the station's movement has no round {s.round} for table {table} "
                         f"(rounds {', '.join(map(str, given)) or 'none'}): check the table and round, or take the "
                         "setup from the station", "setup.movement_round", field="round", table=table,
                         round=s.round, rounds=", ".join(map(str, given)) or "-")
    boards = _numbers(slot.get("boards"))
    wrong = [b for b in s.boards if b not in boards]
    if wrong:
        raise SetupError(f"Boards: the movement gives table {table} boards {', '.join(map(str, boards))} in round "
                         f"{s.round}, not {', '.join(map(str, wrong))}", "setup.movement_boards", field="boards",
                         table=table, round=s.round, boards=", ".join(map(str, boards)) or "-",
                         wrong=", ".join(map(str, wrong)))
    pairs = (slot.get("ns"), slot.get("ew"))
    if (s.ns_pair, s.ew_pair) != pairs:
        raise SetupError(f"Pairs: the movement seats pair {pairs[0]} North-South and pair {pairs[1]} East-West at "
                         f"table {table} in round {s.round}, not {s.ns_pair} and {s.ew_pair}",
                         "setup.movement_pairs", field="ns_pair", table=table, round=s.round, ns=pairs[0],
                         ew=pairs[1])
