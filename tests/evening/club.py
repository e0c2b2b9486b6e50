"""The scoring program's side of the evening (the official Data Connector client's DTOs) and
the tablet worker processes, for test_club_evening."""
from __future__ import annotations

import json
import pathlib
import subprocess
import sys
from collections.abc import Callable

from bridgemate_dataconnector.dto import (
    HandrecordDTO,
    InitDTO,
    ParticipationDTO,
    PlayerDataDTO,
    RoundDTO,
    ScoringGroupDTO,
    SectionDTO,
    SectionUpdateDTO,
    SessionDTO,
    TableDirection,
    TableDTO,
)
from endplay.types import Deal, Player

from .plan import DATE, SESSION, Slot, group

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLUB = "club-7"


def _tables(slots: list[Slot], letters: str, session: str = SESSION) -> list[TableDTO]:
    tables: dict[int, list[RoundDTO]] = {}
    for s in slots:
        if s.section == letters:
            tables.setdefault(s.table, []).append(RoundDTO(
                session_guid=session, section_letters=letters, table_number=s.table, round_number=s.round,
                low_board_number=min(s.boards), high_board_number=max(s.boards), pair_ns=s.ns, pair_ew=s.ew))
    return [TableDTO(session_guid=session, section_letters=letters, table_number=t, rounds=rs)
            for t, rs in sorted(tables.items())]


def second_session(slots: list[Slot], session: str, name: str) -> SessionDTO:
    """A session the scoring program adds to the event (AddSession) while the first still runs:
    its own section letters and scoring group (the guide: no duplicates in an event)."""
    letters = sorted({s.section for s in slots})
    sections = [SectionDTO(session_guid=session, scoring_group_number=3, letters=x, winners=2, game_type=10,
                           tables=_tables(slots, x, session)) for x in letters]
    year, month, day = DATE
    return SessionDTO(session_guid=session, event_guid=SESSION, name=name, year=year, month=month, day=day,
                      scoring_groups=[ScoringGroupDTO(session_guid=session, scoring_group_number=3,
                                                      scoring_method=10, sections=sections)])


def late_arrival(slots: list[Slot], letters: str, player: PlayerDataDTO) -> SectionUpdateDTO:
    """UpdateMovement as a scoring program sends it for a player who arrives late: the section's
    movement unchanged, the new player in AddedPlayers (the table enters the number)."""
    return SectionUpdateDTO(session_guid=SESSION, scoring_group_number=group(letters), scoring_group_scoring_method=10,
                            letters=letters, winners=2, game_type=10, tables=_tables(slots, letters),
                            added_players=[player])


def init(slots: list[Slot]) -> InitDTO:
    """Two Mitchells in one scoring group (two winners each: NS and EW) and a Howell in another."""
    def section(letters: str, winners: int) -> SectionDTO:
        return SectionDTO(session_guid=SESSION, scoring_group_number=group(letters), letters=letters,
                          winners=winners, game_type=10, tables=_tables(slots, letters))
    groups = [ScoringGroupDTO(session_guid=SESSION, scoring_group_number=1, scoring_method=10,
                              sections=[section("A", 2), section("B", 2)]),
              ScoringGroupDTO(session_guid=SESSION, scoring_group_number=2, scoring_method=10,
                              sections=[section("C", 1)])]
    year, month, day = DATE
    session = SessionDTO(session_guid=SESSION, name="Tisdagsparen", year=year, month=month, day=day,
                         scoring_groups=groups)
    return InitDTO(commands=InitDTO.Command_Reset | InitDTO.Command_StartReading, club_id=CLUB, sessions=[session])


def handrecords(deals: dict[tuple[int, int], Deal]) -> list[HandrecordDTO]:
    """One section per scoring group: A for A and B, C for C."""
    out = []
    for (g, board), deal in deals.items():
        h = HandrecordDTO(session_guid=SESSION, scoring_group_number=g, section_letters="A" if g == 1 else "C",
                          board_number=board)
        for player in Player:
            hand = deal[player]
            for suit, name in zip(hand.to_pbn().split("."), ("spades", "hearts", "diamonds", "clubs"), strict=True):
                setattr(h, f"{player.name}_{name}", suit)
        out.append(h)
    return out


def people(slots: list[Slot]) -> tuple[list[PlayerDataDTO], list[ParticipationDTO], Callable[[str, int, int, str], str]]:
    """Two players a pair, seated in round 1; `name_at(section, table, round, seat)` is the PBN
    name ("Last, First") of the player in that seat that round (the player follows the pair)."""
    players, seats = [], []
    pair_players: dict[tuple[str, str, int], list[str]] = {}
    number = 7000
    for s in (s for s in slots if s.round == 1):
        for side, pair, first_seat in (("NS", s.ns, "N"), ("EW", s.ew, "E")):
            key = (s.section, side if s.section != "C" else "", pair)
            pair_players[key] = []
            for seat in (first_seat, {"N": "S", "E": "W"}[first_seat]):
                number += 1
                first, last = f"{seat}{s.section}{pair}", f"Öberg-{s.section}{side}{pair}"
                players.append(PlayerDataDTO(session_guid=SESSION, club_id=CLUB, player_number=str(number),
                                             first_name=first, last_name=last))
                seats.append(ParticipationDTO(session_guid=SESSION, section_letters=s.section, table_number=s.table,
                                              round_number=1, direction=TableDirection("NESW".index(seat) + 1),
                                              player_number=str(number)))
                pair_players[key].append(f"{last}, {first}")
    by_place = {(s.section, s.table, s.round): s for s in slots}

    def name_at(section: str, table: int, round_: int, seat: str) -> str:
        s = by_place[(section, table, round_)]
        side = "NS" if seat in "NS" else "EW"
        pair = s.ns if side == "NS" else s.ew
        two = pair_players[(section, side if section != "C" else "", pair)]
        return two[0] if seat in "NE" else two[1]

    return players, seats, name_at


class Worker:
    """A tablet worker process (tests/evening/worker.py), killable with SIGKILL."""

    def __init__(self, folder: pathlib.Path, station_url: str, tables: list[dict], profiles: dict):
        self.folder, self.url, self.tables, self.profiles = folder, station_url, tables, profiles
        self.proc: subprocess.Popen | None = None

    def start(self) -> Worker:
        self.folder.mkdir(exist_ok=True)
        self.proc = subprocess.Popen([sys.executable, "-m", "tests.evening.worker", str(self.folder), self.url],
                                     cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.send({"op": "open", "tables": self.tables, "profiles": self.profiles})
        self.reply()
        return self

    def send(self, cmd: dict) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()

    def reply(self) -> dict:
        assert self.proc is not None and self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, f"worker {self.folder.name} died (exit {self.proc.poll()})"
        r = json.loads(line)
        assert r["ok"], r["error"] + "\n" + r.get("trace", "")
        return r

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()  # SIGKILL
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None and self.proc.stdin is not None:
            self.proc.stdin.close()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def send_all(workers: dict[str, Worker], per_table: dict[str, list]) -> list[Worker]:
    """One command to every worker at once (they play in parallel); the workers now busy."""
    busy = []
    for name, w in workers.items():
        mine = {t: steps for t, steps in per_table.items() if t.split("/")[0] == name and steps}
        if mine:
            w.send({"op": "run", "tables": mine})
            busy.append(w)
    return busy


def run_all(workers: dict[str, Worker], per_table: dict[str, list]) -> None:
    for w in send_all(workers, per_table):
        w.reply()
