"""A tablet worker: the controllers of several tables in one process (one process per table is
too many for the test machine), each table with its own journal file and outbox Deliverer, as on
its own tablet. Driven by JSON lines on stdin, one reply line per command on stdout:

  {"op": "open", "tables": [{"id": "A/1", "key": ...}], "profiles": {"C": "fsb-2007"}}
  {"op": "run", "tables": {"A/1": [[step], ...], ...}}      steps: plan.table_plays
  {"op": "state", "table": "A/1"}                            board and calls on the table
  {"op": "drain"}                                            every outbox delivered

The test kills the process with SIGKILL and starts it again on the same directory: every table
comes back from its journal.
"""
from __future__ import annotations

import json
import pathlib
import sys
import traceback

from tablet_app.controller import Controller, Refused
from tablet_app.outbox import Deliverer
from tablet_app.station_client import next_round_from_station, pin_checker, player_lookup, setup_from_station

from .plan import PIN


class Tablet:
    def __init__(self, folder: pathlib.Path, station: str, table: str, key: str, profile: str | None):
        self.station, self.table, self.key, self.profile = station, table, key, profile
        self.db = folder / (table.replace("/", "") + ".db")
        self.ctl = Controller(self.db)
        self.deliverer: Deliverer | None = None
        if self.ctl.session is not None:
            self.ctl.pin_check = pin_checker(station, key)  # as the app started with --table-key
            self._deliver()

    def _deliver(self) -> None:
        s = self.ctl.session
        assert s is not None
        self.deliverer = Deliverer(str(self.db), self.station, f"{s.event}/{s.section}/{s.table}", self.key,
                                   timeout=5.0, min_backoff=0.05, max_backoff=0.4).start()
        self.ctl.listeners.append(self.deliverer.wake)
        if self.ctl.player_lookup is None:  # restarted: the players' names from the same station
            self.ctl.player_lookup = player_lookup(self.station, f"{s.event}/{s.section}/{s.table}", self.key,
                                                   session=s.station_session)

    def step(self, op: str, *args) -> None:
        ctl = self.ctl
        if op == "round":
            if ctl.session is None:
                setup_from_station(ctl, self.station, self.table, self.key, policy="record", profile=self.profile)
                self._deliver()
            else:
                # Next round opens after the director PIN (ui/round_end.py), checked by the station
                assert ctl.check_pin(PIN)
                next_round_from_station(ctl, self.station, self.key)
        elif op == "choose":
            ctl.choose_board(args[0])
            assert ctl.board == args[0], (ctl.board, args)
        elif op == "refuse":  # a board not in the round, caught before its first call
            before = ctl.journal.count()
            try:
                ctl.choose_board(args[0])
            except Refused as e:
                assert e.key == "board.not_in_round", e.key
            else:
                raise AssertionError(f"board {args[0]} was taken")
            assert ctl.journal.count() == before and ctl.board != args[0]
        elif op == "call":
            r = ctl.box_event(args[0], "call", call=args[1])
            assert r["ok"], (args, r)
        elif op == "frozen":  # the irregularity: the table waits for the TD, under the profile's law
            pending = ctl.estate.get("pending") or {}
            assert ctl.phase == "frozen" and pending.get("law") == args[0], (ctl.phase, pending)
        elif op == "td":
            ctl.td_decide(PIN, args[0], args[1])
        elif op == "result":
            ctl.enter_result(args[0], args[1] if len(args) > 1 else None)
            assert ctl.ew_confirm(True) is not None
        elif op == "adjust":
            ctl.td_artificial_score(PIN, args[0], args[1], args[2])
        elif op == "assign":  # the TD's assigned or weighted score on the board in play (Law 12C1)
            board = ctl.board
            assert board is not None  # a board is on the table
            rec = ctl.td_assigned_score(PIN, board, args[0])
            assert rec["board"] == board and ctl.board != board, (rec, ctl.board)
        elif op == "players":  # member numbers at the round's first board, the station's names shown back
            shown = ctl.enter_player_numbers(args[0])
            assert shown["looked_up"] and shown["names"] == args[1], shown
            ctl.confirm_player_numbers()
        elif op == "players_bad":  # a number of the wrong form: refused, nothing journalled
            before = ctl.journal.count()
            try:
                ctl.enter_player_numbers(args[0])
            except Refused as e:
                assert e.key == "players.number_form", e.key
            else:
                raise AssertionError(f"{args[0]} was taken")
            assert ctl.journal.count() == before
        elif op == "withdraw":
            ctl.td_withdraw_result(PIN, args[0], reason="the board was fouled", by="TD")
        elif op == "move":
            ctl.td_move_result(PIN, args[0], args[1], reason="the cards were the other board's", by="TD")
        else:
            raise ValueError(f"unknown step {op!r}")


def main() -> None:
    folder, station = pathlib.Path(sys.argv[1]), sys.argv[2]
    tablets: dict[str, Tablet] = {}
    for line in sys.stdin:
        cmd = json.loads(line)
        try:
            op = cmd["op"]
            reply: dict = {"ok": True}
            if op == "open":
                for t in cmd["tables"]:
                    tablets[t["id"]] = Tablet(folder, station, t["id"], t["key"],
                                              cmd.get("profiles", {}).get(t["id"].split("/")[0]))
            elif op == "run":
                for table, steps in cmd["tables"].items():
                    for n, step in enumerate(steps):
                        try:
                            tablets[table].step(*step)
                        except Exception as e:
                            raise AssertionError(f"table {table} step {n} {step}: {type(e).__name__}: {e}") from e
            elif op == "state":
                ctl = tablets[cmd["table"]].ctl
                reply.update(board=ctl.board, phase=ctl.phase, calls=[c["call"] for c in ctl.estate.get("calls", [])])
            elif op == "drain":
                for t in tablets.values():
                    if t.deliverer is not None and not t.deliverer.drain(cmd.get("timeout", 30)):
                        raise AssertionError(f"table {t.table}: not delivered: {t.deliverer.last_error}")
                reply["refused"] = {k: t.ctl.outbox.items("rejected") for k, t in tablets.items()
                                    if t.ctl.outbox.items("rejected")}
            else:
                raise ValueError(f"unknown op {op!r}")
        except Exception as e:
            reply = {"ok": False, "error": f"{type(e).__name__}: {e}", "trace": traceback.format_exc()}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
