"""A Swedish club's evening through the .bws bridge, over the real ODBC path (unixODBC and the
SQLite ODBC driver standing in for the Access driver of the scoring PC).

The scoring program's part is played by plain sqlite3 on the file: it writes the session (a
Mitchell) into the .bws as Ruter would, adds a round mid-evening, marks results processed, and
at the end the file is read back the way the scoring programs and BCS readers read it
(rows in ID order, `Erased` rows withdraw, an erased result voids older bidding). What must
be there is read independently from the tables' own journals."""
from __future__ import annotations

import collections
import datetime
import glob
import itertools
import re
import sqlite3
import time

import pytest

from shared_rules.boards import dealer
from shared_rules.types import SEATS, Seat
from station.bws import schema
from tablet_app.controller import Controller
from tablet_app.journal import Journal
from tablet_app.outbox import Deliverer
from tablet_app.station_client import next_round_from_station, setup_from_station

from .conftest import EVENT, StationProcess

pytestmark = pytest.mark.server  # starts the results station as a process

PIN = "2468"
TABLES, BOARDS_PER_ROUND = 4, 2


def sqlite_odbc_driver() -> str:
    found = sorted(glob.glob("/usr/lib/*/odbc/libsqlite3odbc.so") + glob.glob("/usr/lib/odbc/libsqlite3odbc.so"))
    if not found:
        pytest.skip("the SQLite ODBC driver is not installed (Debian libsqliteodbc, unixodbc: "
                    "scripts/setup-system.sh, run by `make setup`)")
    try:
        import pyodbc  # noqa: F401
    except ImportError as e:
        pytest.skip(f"pyodbc cannot load ({e}): install unixodbc (scripts/setup-system.sh)")
    return found[0]


def odbc_template() -> str:
    # DSN-less, naming the driver's library: nothing to register in odbcinst.ini on a fresh machine.
    return f"Driver={sqlite_odbc_driver()};Database={{path}};Timeout=1500;SyncPragma=FULL"


# -- the scoring program's side -----------------------------------------------------------------
def mitchell(t: int, r: int) -> tuple[int, int, int, int, int, int, int]:
    """4-table Mitchell, pairs numbered per direction: NS sit, EW move up, boards move down (round 1:
    table t is NS t v EW t, which the tablet must accept)."""
    low = ((t - 1 + r - 1) % TABLES) * BOARDS_PER_ROUND + 1
    return (1, t, r, t, (t - r) % TABLES + 1, low, low + BOARDS_PER_ROUND - 1)


def create_bws(path, rounds: int, tables: dict | None = None) -> None:
    """What Ruter writes before the evening: sections, tables, the movement, players, settings."""
    db = sqlite3.connect(path)
    for stmt in schema.ddl("sqlite", tables):
        db.execute(stmt)
    if tables is None:
        db.execute("INSERT INTO [Section] ([ID], [Letter], [Tables], [MissingPair], [Winners]) VALUES (1, 'A', 4, 0, 2)")
        for t in range(1, TABLES + 1):
            db.execute("INSERT INTO [Tables] ([Section], [Table], [CurrentRound], [CurrentBoard]) VALUES (1, ?, 0, 0)", (t,))
            for d in SEATS:
                number, name = player(t, d)
                # Ruter fills in the name for most seats; at table 4 only the number, whose name
                # is in the club's list (PlayerNames).
                db.execute("INSERT INTO [PlayerNumbers] ([Section], [Table], [Direction], [Number], [Name], [Round]) "
                           "VALUES (1, ?, ?, ?, ?, 1)", (t, d, number, "" if t == 4 else name))
                db.execute("INSERT INTO [PlayerNames] ([ID], [Name], [strID]) VALUES (?, ?, ?)",
                           (int(number), name, number))
        add_rounds(db, range(1, rounds + 1))
        db.execute("INSERT INTO [Settings] ([Section], [ShowResults], [LeadCard], [BM2ValidateLeadCard], "
                   "[BM2ScoreRecap], [BM2RecordBidding], [BM2RecordPlay], [BM2PINcode]) "
                   "VALUES (1, 1, 1, 0, 1, 1, 0, '5431')")
    db.commit()
    db.close()


FIRST = {"N": "Anna", "E": "Bo", "S": "Cecilia", "W": "David"}
LAST = {1: "Berg", 2: "Ek", 3: "Lind", 4: "Åström"}


def player(t: int, d: str) -> tuple[str, str]:
    """The player Ruter seats at table t, seat d in round 1: (member number, "First Last")."""
    return str(100 * t + SEATS.index(d)), f"{FIRST[d]} {LAST[t]}"


def add_rounds(db, rounds) -> None:
    for r in rounds:
        for t in range(1, TABLES + 1):
            db.execute("INSERT INTO [RoundData] ([Section], [Table], [Round], [NSPair], [EWPair], [LowBoard], "
                       "[HighBoard]) VALUES (?, ?, ?, ?, ?, ?, ?)", mitchell(t, r))


def rows(path, table: str) -> list[dict]:
    db = sqlite3.connect(path)
    db.row_factory = sqlite3.Row
    try:
        order = " ORDER BY [ID]" if table.endswith("Data") else ""
        return [dict(r) for r in db.execute(f"SELECT * FROM [{table}]{order}")]
    finally:
        db.close()


def when(row: dict) -> str:
    return row["DateLog"][:10] + row["TimeLog"][10:19]


def read_results(path) -> dict[tuple, dict]:
    """ReceivedData as a scoring program takes it: the last row of a board counts; an Erased row
    withdraws the result before it."""
    out: dict[tuple, dict] = {}
    for r in rows(path, "ReceivedData"):
        k = (r["Section"], r["Table"], r["Round"], r["Board"])
        if r["Erased"]:
            out.pop(k, None)
        else:
            out[k] = r
    return out


def read_bidding(path) -> tuple[dict[tuple, list[tuple[str, str]]], dict[tuple, list[tuple[str, str]]]]:
    """BiddingData as BCS readers take it (rows in ID order; an Erased row drops the call at its
    counter if the direction matches; bidding older than an erased result of the board is void).
    Returns (auction per board as (direction, bid) by counter, erased calls per board)."""
    voided: dict[tuple, str] = {}
    for r in rows(path, "ReceivedData"):
        k = (r["Section"], r["Table"], r["Round"], r["Board"])
        if r["Erased"]:
            voided[k] = max(voided.get(k, ""), when(r))
    auctions: dict[tuple, dict[int, tuple[str, str]]] = {}
    erased: dict[tuple, list[tuple[str, str]]] = collections.defaultdict(list)
    for r in rows(path, "BiddingData"):
        k = (r["Section"], r["Table"], r["Round"], r["Board"])
        if k in voided and when(r) <= voided[k]:
            continue
        calls = auctions.setdefault(k, {})
        if r["Erased"]:
            if calls.get(r["Counter"], ("",))[0] == r["Direction"]:
                del calls[r["Counter"]]
                erased[k].append((r["Direction"], r["Bid"]))
        else:
            calls[r["Counter"]] = (r["Direction"], r["Bid"])
    return {k: [v[c] for c in sorted(v)] for k, v in auctions.items()}, erased


# -- what the tables' journals say ----------------------------------------------------------------
def table_logs(journals: dict[int, str]) -> dict[tuple, dict]:
    """Per (section id, table, round, board): the calls made at the table (boxes and the TD's
    replacements), and the result the table agreed last (a Law 79C correction replaces it)."""
    out: dict[tuple, dict] = {}
    for db in journals.values():
        j = Journal(db)
        session: dict | None = None  # the journal's setup, its first record
        board = None
        for _seq, kind, body in j.records():
            if kind == "setup":
                session = body["session"]
            elif kind == "board":
                assert session is not None, "a board before the setup"
                board = body["board"] if "board" in body else session["boards"][body["index"]]
            elif kind in ("event", "confirm", "correction", "adjusted"):
                rec = body.get("record")
                b = rec["board"] if rec else board
                assert session is not None, "a call before the setup"
                k = (1, session["table"], session["round"], b)
                entry = out.setdefault(k, {"made": [], "record": None})
                ev = body.get("ev") or {}
                if "call" in ev and "seat" in ev and ev.get("td") != "correct_call":
                    entry["made"].append((ev["seat"], ev["call"]))
                elif "call" in ev:  # the TD's replacement is made by the offender in turn
                    entry["made"].append((None, ev["call"]))
                if rec and (kind != "confirm" or body.get("accepted")):
                    entry["record"] = rec
        j.close()
    return out


def expected_contract(rec: dict) -> tuple[str, str, str, str, int]:
    c = rec["contract"]
    if c == "PASS":
        return "PASS", "", "", "", 0
    m = re.match(r"(\d)(NT|[CDHS])(X*)", c)
    assert m, c
    stake = {"": "", "X": " x", "XX": " xx"}[m.group(3)]
    over = rec["tricks"] - int(m.group(1)) - 6
    lead = rec["lead"][0] + ("10" if rec["lead"][1:] == "T" else rec["lead"][1:]) if rec["lead"] else ""
    pair = rec["ns_pair"] if rec["declarer"] in "NS" else rec["ew_pair"]
    return f"{m.group(1)} {m.group(2)}{stake}", "=" if over == 0 else f"{over:+d}", rec["declarer"], lead, pair


def expected_auction(rec: dict) -> list[tuple[str, str]]:
    """Turns from the dealer: the standing calls, with a `SkipBid` for each turn lost to an
    accepted call out of rotation (from the seat whose turn it was up to the offender)."""
    skips = {}
    for irr in rec["irregularities"]:
        if irr["kind"] == "call_out_of_rotation" and irr.get("resolution") == "accepted":
            seats, i = [], SEATS.index(irr["turn"])
            while SEATS[i] != irr["seat"]:
                seats.append(SEATS[i])
                i = (i + 1) % 4
            skips[(irr["seat"], irr["call"])] = seats
    out = []
    for c in rec["auction"]:
        out += [(s, "SkipBid") for s in skips.pop((c["seat"], c["call"]), [])]
        bid = {"P": "PASS", "X": "x", "XX": "xx"}.get(c["call"], c["call"])
        out.append((c["seat"], bid))
    return out


# -- the tables -----------------------------------------------------------------------------------
class Clock:
    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def wait(ctl: Controller, seconds: float) -> None:
    """Moves the table's clock (a `Clock`) on by `seconds`."""
    assert isinstance(ctl.clock, Clock), ctl.clock
    ctl.clock.t += seconds


def calls(ctl: Controller, board: int, seq: list[str], stop_at: int | None = None) -> None:
    seats = itertools.cycle(SEATS[(SEATS.index(dealer(board)) + i) % 4] for i in range(4))
    for i, c in enumerate(seq):
        wait(ctl, 4)
        r = ctl.box_event(next(seats), "call", call=c, stop=(i == stop_at))
        assert r["ok"], r
        if i == stop_at:
            wait(ctl, 10)  # the stop: the next player waits (FSB: about 10 seconds)


def play_board(ctl: Controller, style: str) -> None:
    board = ctl.board
    assert board is not None  # a board is on the table
    if style == "insufficient":
        # The dealer opens 1H; LHO bids 1D (insufficient, L27); the TD has it replaced by 2D,
        # the lowest sufficient bid in the same denomination (2007 L27B1(a)).
        calls(ctl, board, ["1H", "1D"])
        ctl.td_decide(PIN, "replace", call="2D")
        ctl.td_decide(PIN, "b1a")
        seats = SEATS[(SEATS.index(dealer(board)) + 2) % 4:] + SEATS
        for s in seats[:3]:
            wait(ctl, 4)
            assert ctl.box_event(s, "call", call="P")["ok"]
        ctl.enter_result(8, "SK")
    elif style == "out_of_rotation":
        # The dealer's LHO's partner calls 1S before the dealer; LHO accepts (2007 L29A): the
        # skipped turns are lost. Then 4S with the stop card.
        d = SEATS.index(dealer(board))
        order = [SEATS[(d + k) % 4] for k in range(2, 8)]  # offender, then on in rotation
        wait(ctl, 4)
        assert ctl.box_event(order[0], "call", call="1S")["ok"]
        ctl.td_decide(PIN, "accept")
        for s, c in zip(order[1:], ["P", "4S", "P", "P", "P"], strict=True):
            wait(ctl, 4)
            assert ctl.box_event(s, "call", call=c, stop=(c == "4S"))["ok"]
            if c == "4S":
                wait(ctl, 10)
        ctl.enter_result(10, "HT")
    elif style == "oor_cancelled":
        # The dealer's partner calls 1S at the dealer's turn; not accepted (2007 L31B): the call
        # is cancelled, the dealer must pass for the rest of the auction.
        d = SEATS.index(dealer(board))
        seat = [SEATS[(d + k) % 4] for k in range(6)]
        wait(ctl, 4)
        assert ctl.box_event(seat[2], "call", call="1S")["ok"]
        ctl.td_decide(PIN, "cancel")
        for s, c in zip([seat[0], seat[1], seat[2], seat[3], seat[4]], ["P", "1H", "P", "P", "P"], strict=True):
            wait(ctl, 4)
            assert ctl.box_event(s, "call", call=c)["ok"]
        ctl.enter_result(7, "DA")
    elif style == "passed":
        calls(ctl, board, ["P", "P", "P", "P"])
        ctl.enter_result(None)
    else:
        calls(ctl, board, ["1NT", "P", "3NT", "X", "P", "P", "P"], stop_at=2)
        ctl.enter_result(9 if board % 2 else 7, "HT" if board % 3 else "C4")
    ctl.ew_confirm(True)


STYLES = {(1, 1, 1): "insufficient", (2, 1, 1): "out_of_rotation", (3, 1, 1): "oor_cancelled", (3, 2, 0): "passed",
          (4, 3, 1): "insufficient"}


def deliver(st: StationProcess, db: str, t: int) -> None:
    d = Deliverer(db, st.url, f"{EVENT}/A/{t}", st.keys[f"{EVENT}/A/{t}"]).start()
    try:
        assert d.drain(60), d.last_error
    finally:
        d.stop()


def wait_for(pred, what: str, timeout: float = 60.0):  # the limit only ends a hang
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = pred()
        if value:
            return value
        time.sleep(0.2)  # how often it looks, not how long it waits
    raise AssertionError(f"timed out waiting for {what}")


def a_pass_begun_after_now(st: StationProcess, what: str) -> None:
    """Returns once the bridge has finished a pass that began after this call: the pass's start,
    `checked_at` in /api/v1/health (kept to the second, stored at the pass's end), is in a later
    second than this call's. What a pass would write once it sees the file is then written."""
    since = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time()))

    def checked_at() -> str:
        health = st.request("GET", "/api/v1/health")[1]
        assert isinstance(health, dict), health
        return str((health.get("scoring_link") or {}).get("checked_at") or "")

    wait_for(lambda: checked_at() > since, what)


def pbn_names(st: StationProcess) -> dict[tuple[int, int], dict[str, str]]:
    """(table, round) -> {seat: "First Last"} from the station's PBN export."""
    from .export_readers import conforming_text, games, tags
    from .test_export_standards import fetch

    out = {}
    for game in games(conforming_text(fetch(st, "/export/pbn"))):
        t = dict(tags(game))
        if "Table" in t:
            out[(int(t["Table"]), int(t["Round"]))] = {
                s: " ".join(reversed(t[n].split(", "))) for s, n in zip(SEATS, ("North", "East", "South", "West"),
                                                                       strict=True)}
    return out


def bws_station(tmp_path, bws) -> StationProcess:
    return StationProcess(str(tmp_path / "bws-station.db"), tmp_path,
                          ["--bws", str(bws), "--bws-odbc", odbc_template(), "--bws-poll", "0.5"]).start()


def director(st: StationProcess) -> str:
    page = st.request("GET", f"/director?token={st.token}")[1]
    assert isinstance(page, str), page
    return page


def test_a_swedish_club_evening_ends_in_the_bws_as_the_tables_played_it(tmp_path):
    bws = tmp_path / "Mandag.bws"
    create_bws(bws, rounds=2)
    st = bws_station(tmp_path, bws)
    journals = {t: str(tmp_path / f"table{t}.db") for t in range(1, TABLES + 1)}
    ctls = {t: Controller(journals[t], clock=Clock(1_790_000_000.0 + t)) for t in journals}
    try:
        assert ".bws bridge: session from" in st.startup_text and "4 tables" not in st.startup_text
        assert "Scoring program link: .bws file" in director(st)
        for rnd in (1, 2, 3):
            if rnd == 2:
                # The station dies between rounds and is started again: nothing is lost or doubled.
                st.kill()
                st = bws_station(tmp_path, bws)
                # Mid-evening the scorer adds a third round; the station takes it without a restart.
                db = sqlite3.connect(bws)
                add_rounds(db, [3])
                db.commit()
                db.close()
            if rnd == 3:
                wait_for(lambda st=st: "3" in st.request("GET", "/api/v1/movement", headers=st.table_headers(
                    f"{EVENT}/A/1"))[1].get("rounds", {}), "round 3 in the station's movement")
            for t, ctl in ctls.items():
                key = st.keys[f"{EVENT}/A/{t}"]
                if rnd == 1:
                    setup_from_station(ctl, st.url, str(t), key, 1, profile="fsb-2007", td_pin=PIN)
                else:
                    next_round_from_station(ctl, st.url, key)
                s = ctl.session
                assert (s.ns_pair, s.ew_pair, s.boards) == (mitchell(t, rnd)[3], mitchell(t, rnd)[4],
                                                            tuple(range(mitchell(t, rnd)[5], mitchell(t, rnd)[6] + 1)))
                for i in range(BOARDS_PER_ROUND):
                    play_board(ctl, STYLES.get((t, rnd, i), "normal"))
                if (t, rnd) == (2, 1):
                    # The scoring program has read table 2's results when the TD corrects board 3
                    # (eight tricks, not nine; L79C): the processed row must stay as it was.
                    deliver(st, journals[t], t)
                    wait_for(lambda: sum(k[1] == 2 for k in read_results(bws)) == BOARDS_PER_ROUND, "table 2's results")
                    db = sqlite3.connect(bws)
                    db.execute("UPDATE [ReceivedData] SET [Processed] = 1 WHERE [Table] = 2")
                    db.commit()
                    db.close()
                    ctl.td_correct_result(PIN, ctl.session.boards[0], 8, reason="tricks miscounted (L79C)")
                deliver(st, journals[t], t)
            if rnd == 1:
                wait_for(lambda: len(read_results(bws)) == TABLES * BOARDS_PER_ROUND, "round 1 in ReceivedData")
                # The scoring program reads round 1 and marks it processed.
                db = sqlite3.connect(bws)
                db.execute("UPDATE [ReceivedData] SET [Processed] = 1")
                db.commit()
                db.close()
        total = 3 * TABLES * BOARDS_PER_ROUND
        wait_for(lambda: len(read_results(bws)) == total, "every result in ReceivedData")
        wait_for(lambda: "read; last read by the scoring program at" in director(st), "the last read on the director page")
        # The players Ruter seated are in the export, after the restart and the added round: in
        # round 3 EW pair n, seated at table n in round 1, has moved on two tables.
        names = pbn_names(st)
        for t in range(1, TABLES + 1):
            ew_from = next(x for x in range(1, TABLES + 1) if mitchell(x, 1)[4] == mitchell(t, 3)[4])
            assert names[(t, 3)] == {"N": player(t, "N")[1], "S": player(t, "S")[1],
                                     "E": player(ew_from, "E")[1], "W": player(ew_from, "W")[1]}, t
    finally:
        for ctl in ctls.values():
            ctl.close()
        st.stop()

    logs = table_logs(journals)
    results = read_results(bws)
    auctions, erased = read_bidding(bws)
    assert set(results) == set(logs) and len(logs) == total
    for k, log in logs.items():
        rec, row = log["record"], results[k]
        contract, result, decl, lead, pair = expected_contract(rec)
        assert (row["Contract"], row["Result"], row["NS/EW"], row["LeadCard"], row["Declarer"]) == \
            (contract, result, decl, lead, pair), k
        assert (row["PairNS"], row["PairEW"]) == (rec["ns_pair"], rec["ew_pair"])
        assert auctions[k] == expected_auction(rec), k
        standing = collections.Counter((c["seat"], c["call"]) for c in rec["auction"])
        made = collections.Counter(m for m in log["made"] if m[0] is not None)
        withdrawn = sorted((s, {"P": "PASS"}.get(c, c)) for s, c in (made - standing).elements())
        assert sorted(erased.get(k, [])) == withdrawn, k

    # The forms the scoring programs parse, seen in the file itself.
    bids = {r["Bid"] for r in rows(bws, "BiddingData")}
    assert {"1NT", "3NT", "PASS", "x", "SkipBid", "1D", "2D"} <= bids
    assert {"3 NT x", "PASS", "2 D", "4 S"} <= {r["Contract"] for r in results.values()}
    assert {"=", "-2", "+1"} & {r["Result"] for r in results.values()}
    assert "H10" in {r["LeadCard"] for r in results.values()}
    # The irregular boards: 1D withdrawn (Erased) and replaced by 2D at the same counter; a turn lost.
    assert erased[(1, 1, 1, mitchell(1, 1)[6])] == [("E" if dealer(mitchell(1, 1)[6]) == "N" else
                                                    Seat.of(dealer(mitchell(1, 1)[6])).lho.letter, "1D")]
    assert any(b == "SkipBid" for a in auctions.values() for _, b in a)
    oor = (1, 3, 1, mitchell(3, 1)[6])
    assert erased[oor] == [(SEATS[(SEATS.index(dealer(oor[3])) + 2) % 4], "1S")]
    # Nothing written twice, though the station was killed between rounds: one live row per result,
    # and the only erased result is the corrected one, whose processed row was left as it was.
    all_rows = rows(bws, "ReceivedData")
    assert len([r for r in all_rows if not r["Erased"]]) == total + 1
    [gone] = [r for r in all_rows if r["Erased"]]
    corrected = (1, 2, 1, mitchell(2, 1)[5])
    assert (gone["Section"], gone["Table"], gone["Round"], gone["Board"]) == corrected
    old = [r for r in all_rows if (r["Section"], r["Table"], r["Round"], r["Board"]) == corrected]
    assert [(r["Result"], r["Erased"]) for r in old] == [("=", 0), ("=", 1), ("-1", 0)]
    assert old[0]["Processed"] == 1 and old[1]["ID"] > old[0]["ID"]
    # PlayData: the opening lead of each played board, by the declarer's LHO.
    leads = {(r["Section"], r["Table"], r["Round"], r["Board"]): (r["Direction"], r["Card"])
             for r in rows(bws, "PlayData") if not r["Erased"]}
    for k, row in results.items():
        if row["LeadCard"]:
            # PlayData as TabPlay reads it: rank then suit, T for the ten (LeadCard: H10).
            card = row["LeadCard"][1:].replace("10", "T") + row["LeadCard"][0]
            assert leads[k] == (Seat.of(row["NS/EW"]).lho.letter, card)
    # The tables' current round and board, where BCS keeps them.
    status = {r["Table"]: (r["CurrentRound"], r["CurrentBoard"]) for r in rows(bws, "Tables")}
    assert all(status[t][0] == 3 for t in range(1, TABLES + 1))
    assert all(isinstance(r["DateLog"], str) and r["TimeLog"].startswith("1899-12-30") for r in all_rows)
    assert datetime.date.fromisoformat(all_rows[0]["DateLog"][:10]).year >= 2026


# -- bad input: a clear message, and nothing written ---------------------------------------------
def _count(path, table: str) -> int:
    return len(rows(path, table))


def test_a_file_without_the_bws_tables_is_refused_and_nothing_is_written(tmp_path):
    bws = tmp_path / "not-a-session.bws"
    tables = {k: v for k, v in schema.TABLES.items() if k != "BiddingData"}
    tables["ReceivedData"] = [c for c in tables["ReceivedData"] if c[0] != "LeadCard"]
    create_bws(bws, rounds=0, tables=tables)
    before = bws.read_bytes()
    st = bws_station(tmp_path, bws)
    try:
        assert "missing ReceivedData.LeadCard, BiddingData" in st.startup_text
        page = director(st)
        assert "missing ReceivedData.LeadCard, BiddingData" in page and 'class="bws-error"' in page
        code, reply = st.request("GET", "/api/v1/movement", headers=st.table_headers())
        assert code == 404 and "no movement yet" in reply["error"]
    finally:
        st.stop()
    assert bws.read_bytes() == before


def test_a_movement_the_tablets_cannot_play_is_refused_until_the_scorer_mends_it(tmp_path):
    bws = tmp_path / "Tisdag.bws"
    create_bws(bws, rounds=1)
    db = sqlite3.connect(bws)
    db.execute("UPDATE [RoundData] SET [LowBoard] = 5, [HighBoard] = 3 WHERE [Table] = 2")
    db.execute("UPDATE [RoundData] SET [EWPair] = 4 WHERE [Table] = 3")  # EW 4 at tables 3 and 4
    db.commit()
    db.close()
    st = bws_station(tmp_path, bws)
    try:
        assert "cannot be played by the tablets" in st.startup_text
        assert "section A table 2 round 1: boards 5-3" in st.startup_text
        assert "pair EW 4 is also at table" in director(st)
        assert st.request("GET", "/api/v1/movement", headers=st.table_headers())[0] == 404
        assert st.post_item("result", result_record_for(1, 1, 1))[0] == 201
        a_pass_begun_after_now(st, "a pass of the bridge after the result was stored")
        assert _count(bws, "ReceivedData") == 0 and _count(bws, "BiddingData") == 0
        db = sqlite3.connect(bws)
        db.execute("DELETE FROM [RoundData]")
        add_rounds(db, [1])
        db.commit()
        db.close()
        wait_for(lambda: st.request("GET", "/api/v1/movement", headers=st.table_headers())[0] == 200,
                 "the mended movement")
        wait_for(lambda: _count(bws, "ReceivedData") == 1, "the held result written")
        # the pass that wrote it stores its status (the page's source) after the file's commit
        wait_for(lambda: 'class="bws-error"' not in director(st), "the error gone from the director page")
    finally:
        st.stop()


def result_record_for(table: int, round_no: int, board: int) -> dict:
    from .conftest import result_record

    _, t, r, ns, ew, _, _ = mitchell(table, round_no)
    return result_record(table=t, round_no=r, board=board, ns_pair=ns, ew_pair=ew)


def test_a_locked_file_is_left_alone_until_it_is_free(tmp_path):
    bws = tmp_path / "Onsdag.bws"
    create_bws(bws, rounds=1)
    st = bws_station(tmp_path, bws)
    lock = sqlite3.connect(bws, isolation_level=None)
    try:
        lock.execute("BEGIN EXCLUSIVE")  # the scoring program compacting the file, say
        assert st.post_item("result", result_record_for(1, 1, 1))[0] == 201
        wait_for(lambda: "is locked by another program" in director(st), "the lock on the director page")
        assert lock.execute("SELECT COUNT(*) FROM [ReceivedData]").fetchone()[0] == 0
        lock.execute("ROLLBACK")
        wait_for(lambda: _count(bws, "ReceivedData") == 1, "the result once the file is free")
        wait_for(lambda: "is locked" not in director(st), "the message cleared")
        a_pass_begun_after_now(st, "a pass of the bridge after the one that wrote the result")
        assert _count(bws, "ReceivedData") == 1
        [row] = rows(bws, "ReceivedData")
        assert (row["Contract"], row["Result"], row["NS/EW"], row["LeadCard"], row["Declarer"]) == \
            ("4 H", "=", "S", "SA", 1)
        assert [(r["Counter"], r["Direction"], r["Bid"]) for r in rows(bws, "BiddingData")] == [
            (0, "N", "1H"), (1, "E", "PASS"), (2, "S", "4H"), (3, "W", "PASS"), (4, "N", "PASS"), (5, "E", "PASS")]
    finally:
        lock.close()
        st.stop()


def test_a_result_outside_the_movement_is_refused_and_the_data_connector_page_says_so(tmp_path, sqlite_station):
    bws = tmp_path / "Torsdag.bws"
    create_bws(bws, rounds=1)
    st = bws_station(tmp_path, bws)
    try:
        # Table 1 has a key, but the scorer's movement has no round 2 yet: the station refuses
        # the result at the door (the movement gate), the tablet keeps it, nothing reaches the file.
        status, reply = st.post_item("result", result_record_for(1, 2, 3))
        assert status == 422 and "movement" in reply["error"], reply
        wait_for(lambda: "422" in director(st), "the refusal on the director page")
        assert _count(bws, "ReceivedData") == 0
    finally:
        st.stop()
    assert "Scoring program link: Bridgemate Data Connector" in director(sqlite_station)


def test_a_crash_between_the_file_and_the_station_db_writes_nothing_twice(tmp_path, db_url):
    """The station records an item as `writing` (with its last row) before the .bws commit and
    `done` after it. Each way a crash can fall, the next bridge writes the item exactly once
    (the station's database in SQLite or PostgreSQL)."""
    from station.bws import Bridge
    from station.records import validate_item
    from station.server import Station, StationConfig
    from station.store import Store

    bws = tmp_path / "Fredag.bws"
    create_bws(bws, rounds=1)
    store = Store(db_url, str(tmp_path / "station.secrets"))
    st = Station(store, StationConfig(event=EVENT, director_token="t"))
    said: list[str] = []

    def bridge() -> Bridge:  # a fresh bridge: what a restarted station has
        return Bridge(st, str(bws), odbc=odbc_template(), say=said.append)

    try:
        rec = result_record_for(1, 1, 1)
        store.put_item(rec["key"], "result", rec, **validate_item("result", rec["key"], rec))
        assert bridge().run_once()["error"] is None
        assert (_count(bws, "ReceivedData"), _count(bws, "BiddingData"), _count(bws, "PlayData")) == (1, 6, 1)
        # Killed after the .bws commit, before `done`: the row is found in the file, not written again.
        with store.transaction() as tx:
            tx.execute("UPDATE bws_items SET state = 'writing'")
        bridge().run_once()
        assert (_count(bws, "ReceivedData"), _count(bws, "BiddingData"), _count(bws, "PlayData")) == (1, 6, 1)
        # Killed before the .bws commit (the file never got the rows): written now, once.
        db = sqlite3.connect(bws)
        for table in ("ReceivedData", "BiddingData", "PlayData"):
            db.execute(f"DELETE FROM [{table}]")
        db.commit()
        db.close()
        with store.transaction() as tx:
            tx.execute("UPDATE bws_items SET state = 'writing'")
        bridge().run_once()
        assert (_count(bws, "ReceivedData"), _count(bws, "BiddingData"), _count(bws, "PlayData")) == (1, 6, 1)
        # Rows the scoring program deleted after they were written are not written again.
        db = sqlite3.connect(bws)
        db.execute("DELETE FROM [ReceivedData]")
        db.commit()
        db.close()
        bridge().run_once()
        assert _count(bws, "ReceivedData") == 0
        assert any(".bws bridge: session from" in s for s in said)
    finally:
        store.close()


def test_a_row_the_scorer_changed_by_hand_is_reported_and_never_written_over(tmp_path):
    """The scorer typed 3H over the table's 4H in ReceivedData; then the table's TD corrects the
    tricks (L79C). The station's correction would erase the row in force: it is held with the
    difference on the director page until the row is as the station wrote it."""
    from station.bws import Bridge
    from station.records import validate_item
    from station.server import Station, StationConfig
    from station.store import Store

    bws = tmp_path / "Lordag.bws"
    create_bws(bws, rounds=1)
    store = Store(str(tmp_path / "station.db"), str(tmp_path / "station.secrets"))
    st = Station(store, StationConfig(event=EVENT, director_token="t"))
    bridge = Bridge(st, str(bws), odbc=odbc_template(), say=lambda _: None)

    def put(rec):
        store.put_item(rec["key"], "result", rec, **validate_item("result", rec["key"], rec))

    try:
        rec = result_record_for(1, 1, 1)
        put(rec)
        assert bridge.run_once()["error"] is None
        db = sqlite3.connect(bws)
        db.execute("UPDATE [ReceivedData] SET [Contract] = '3 H', [Result] = '+1'")
        db.commit()
        db.close()
        from .conftest import result_record

        put(result_record(table=1, round_no=1, board=1, revision=2, ns_pair=rec["ns_pair"], ew_pair=rec["ew_pair"],
                          tricks=9, score_ns=-50))
        state = bridge.run_once()
        [held] = state["held"]
        assert "changed by hand (Contract '4 H' -> '3 H', Result '=' -> '+1')" in held and "board 1" in held
        assert [(r["Contract"], r["Erased"]) for r in rows(bws, "ReceivedData")] == [("3 H", 0)]
        bridge.run_once()
        assert len(rows(bws, "ReceivedData")) == 1  # still held, pass after pass
        db = sqlite3.connect(bws)
        db.execute("UPDATE [ReceivedData] SET [Contract] = '4 H', [Result] = '='")
        db.commit()
        db.close()
        assert bridge.run_once()["held"] == []
        assert [(r["Contract"], r["Result"], r["Erased"]) for r in rows(bws, "ReceivedData")] == [
            ("4 H", "=", 0), ("4 H", "=", 1), ("4 H", "-1", 0)]
    finally:
        store.close()
