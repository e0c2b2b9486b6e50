"""Team matches played through the station for the tests: the scoring program's teams movement
(the official Data Connector client's DTOs), real tablet controllers set up from the station
over HTTP, and an independent recomputation of every score, written out here from the Laws
and the WBF's published formula (never with shared_rules):

- `law77`: the Law 77 score table (2017 §77, the same table as 2007 L77);
- `IMP_STEPS`: the IMP scale of Law 78B;
- `wbf_vp`: the WBF 2013 20-0 continuous scale: 10 + 10 (1 - t^(3M/B)) / (1 - t^3),
  t = (sqrt 5 - 1) / 2, B = 15 sqrt(boards), two decimals, and the WBF's rule that no IMP is
  worth more VPs than the IMP before it.
"""
from __future__ import annotations

import functools
import math
import pathlib
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from bridgemate_dataconnector.dto import (
    Bm3ViewResultsOption,
    Bridgemate3SettingsDTO,
    InitDTO,
    RoundDTO,
    ScoringGroupDTO,
    SectionDTO,
    SessionDTO,
    TableDTO,
)

from shared_rules.types import SEATS, Seat
from tablet_app.controller import Controller
from tablet_app.outbox import Deliverer
from tablet_app.station_client import setup_from_station

PIN = "2468"
CLUB = "club-9"


# -- the Laws written out ----------------------------------------------------------------------------
def vulnerability(board: int) -> str:
    """Law 2: the 16-board cycle of vulnerability."""
    return ["None", "NS", "EW", "All", "NS", "EW", "All", "None",
            "EW", "All", "None", "NS", "All", "None", "NS", "EW"][(board - 1) % 16]


def dealer(board: int) -> str:
    return SEATS[(board - 1) % 4]


def law77(contract: str, declarer: str, tricks: int, vul: str) -> int:
    """North-South's score (Law 77) for a contract like "4H", "3NTX", "6SXX"."""
    level, rest = int(contract[0]), contract[1:]
    doubled = rest.count("X")
    strain = rest.replace("X", "")
    vulnerable = vul == "All" or (vul in ("NS", "EW") and declarer in vul)
    need = level + 6
    mult = (1, 2, 4)[doubled]
    if tricks >= need:
        per = {"C": 20, "D": 20, "H": 30, "S": 30, "NT": 30}[strain]
        trick_score = (per * level + (10 if strain == "NT" else 0)) * mult
        score = trick_score + (50 if doubled == 1 else 100 if doubled == 2 else 0)
        score += (500 if vulnerable else 300) if trick_score >= 100 else 50
        if level == 6:
            score += 750 if vulnerable else 500
        if level == 7:
            score += 1500 if vulnerable else 1000
        over = tricks - need
        score += over * (per if doubled == 0 else (200 if vulnerable else 100) * doubled)
    else:
        down = need - tricks
        if doubled == 0:
            score = -down * (100 if vulnerable else 50)
        else:
            steps = ([200] + [300] * 12) if vulnerable else ([100, 200, 200] + [300] * 10)
            score = -sum(steps[:down]) * doubled
    return score if declarer in "NS" else -score


IMP_STEPS = [(20, 1), (50, 2), (90, 3), (130, 4), (170, 5), (220, 6), (270, 7), (320, 8), (370, 9),
             (430, 10), (500, 11), (600, 12), (750, 13), (900, 14), (1100, 15), (1300, 16), (1500, 17),
             (1750, 18), (2000, 19), (2250, 20), (2500, 21), (3000, 22), (3500, 23), (4000, 24)]


def imp(difference: int) -> int:
    """Law 78B: the lowest difference of each IMP step."""
    got = 0
    for low, n in IMP_STEPS:
        if abs(difference) >= low:
            got = n
    return got if difference >= 0 else -got


def wbf_vp(margin: int, boards: int) -> tuple[float, float]:
    """(VP for the side `margin` IMPs ahead, the other side's) on the WBF 2013 scale."""
    table = _wbf_table(boards)
    win = table[min(abs(margin), len(table) - 1)]
    a, b = float(win), float(Decimal(20) - win)
    return (a, b) if margin >= 0 else (b, a)


@functools.cache
def _wbf_table(boards: int) -> tuple[Decimal, ...]:
    t = (math.sqrt(5) - 1) / 2
    blitz = 15 * math.sqrt(boards)

    def raw(m: int) -> Decimal:
        v = 10 + 10 * (1 - t ** (3 * m / blitz)) / (1 - t**3)
        return min(Decimal(20), Decimal(repr(v)).quantize(Decimal("0.01"), ROUND_HALF_UP))
    table = [raw(m) for m in range(0, int(blitz) + 3)]
    while True:  # no IMP is worth more VPs than the IMP before it
        bad = next((i for i in range(2, len(table)) if table[i] - table[i - 1] > table[i - 1] - table[i - 2]), None)
        if bad is None:
            break
        table[bad - 1] += Decimal("0.01")
    return tuple(table)


# -- the scoring program's teams movement ------------------------------------------------------------------
@dataclass(frozen=True)
class Room:
    table: int
    team_ns: int
    team_ew: int
    mates: int  # the table where the teammates play the same boards


def teams_init(session: str, rooms: list[Room], boards: tuple[int, int], method: int = 51,
               section: str = "A", mates: bool = True, show_results: bool = True) -> InitDTO:
    """One teams section (GameType 30), one round, every table on the same boards."""
    tables = [TableDTO(session_guid=session, section_letters=section, table_number=r.table, rounds=[RoundDTO(
        session_guid=session, section_letters=section, table_number=r.table, round_number=1,
        low_board_number=boards[0], high_board_number=boards[1], pair_ns=r.team_ns, pair_ew=r.team_ew,
        team_ns=r.team_ns, team_ew=r.team_ew,
        mates_table_section_letters=section if mates else None, mates_table_table_number=r.mates if mates else 0,
        mates_table_round_number=1 if mates else 0)]) for r in rooms]
    sec = SectionDTO(session_guid=session, scoring_group_number=1, letters=section, winners=1, game_type=30,
                     tables=tables)
    s = SessionDTO(session_guid=session, name="Lagmatch", year=2026, month=11, day=23,
                   scoring_groups=[ScoringGroupDTO(session_guid=session, scoring_group_number=1, scoring_method=method,
                                                   sections=[sec])])
    init = InitDTO(commands=InitDTO.Command_Reset | InitDTO.Command_StartReading, club_id=CLUB, sessions=[s])
    if show_results:  # the club shows every result of a board after the table's own (Bridgemate 3)
        init.bridgemate3_settings = [Bridgemate3SettingsDTO(session_guid=session, section_letters=section,
                                                            bm3_view_results=Bm3ViewResultsOption(2),
                                                            bm3_pi_ncode="7391", bm3_screen_brightness=4)]
    return init


# -- a tablet -----------------------------------------------------------------------------------------------
class Tablet:
    """A table's controller with its own journal and outbox Deliverer, set up from the station."""

    def __init__(self, folder: pathlib.Path, url: str, table_id: str, key: str):
        self.ctl = Controller(folder / (table_id.replace("/", "-") + ".db"))
        setup_from_station(self.ctl, url, table_id, key, policy="record")
        s = self.ctl.session
        assert s is not None  # set up from the station just now
        self.deliverer = Deliverer(str(folder / (table_id.replace("/", "-") + ".db")), url,
                                   f"{s.event}/{s.section}/{s.table}", key, timeout=5.0, min_backoff=0.05,
                                   max_backoff=0.4).start()
        self.ctl.listeners.append(self.deliverer.wake)

    def play(self, board: int, contract: str, tricks: int, lead: str = "SA") -> None:
        """The dealer bids the contract (doubled by the next hand when it ends in X), all pass."""
        self.ctl.choose_board(board)
        seat = dealer(board)
        calls = [contract.replace("X", "")] + (["X"] if contract.endswith("X") else []) + ["P", "P", "P"]
        for c in calls:
            r = self.ctl.box_event(seat, "call", call=c)
            assert r["ok"], (board, seat, c, r)
            seat = Seat.of(seat).lho.letter
        self.ctl.enter_result(tricks, lead)
        assert self.ctl.ew_confirm(True) is not None

    def artificial(self, board: int, ns: str, ew: str) -> None:
        """The board cannot be played: the TD gives an artificial score (2017 §12C2)."""
        self.ctl.choose_board(board)
        self.ctl.td_artificial_score(PIN, ns, ew, "2017 §12C2")

    def drain(self) -> None:
        assert self.deliverer.drain(30), self.deliverer.last_error
        assert self.ctl.outbox.items("rejected") == []

    def stop(self) -> None:
        self.deliverer.stop()
