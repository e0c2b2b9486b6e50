"""Team matches at the station, played with real tablet controllers over HTTP: the match known
from the scoring program's teams movement, IMPs per board and VPs equal to a recomputation from
the contracts and tricks (Law 77, L78B and the WBF scale written out in team_play.py), the other
room's result hidden until the match is over (2017 L16D1, FSB 110B) whatever the club's
show-results setting, the PBN and USEBIO files read back by independent readers, and bad
teams movements refused with nothing changed."""
from __future__ import annotations

import re
import subprocess
import sys
from fractions import Fraction

import pytest
from bridgemate_dataconnector import DataConnectorClient

from .conftest import ROOT, StationProcess
from .export_readers import endplay_boards, games, tags, usebio_tree
from .team_play import PIN, Room, Tablet, imp, law77, teams_init, vulnerability, wbf_vp
from .usebio_readers import import_usebio

pytestmark = pytest.mark.server  # starts the results station as a process

SESSION = "7EA45E55000000000000000000000A01"
EVENT = "club-2026-11-23"

# Team 1 (home) sits NS at table 1 (the open room), team 2 NS at table 2 (the closed room).
OPEN = [(1, "4H", 10), (2, "3NT", 8), (3, "2S", 9), (4, "6D", 12), (5, "1NT", 7), (6, "4SX", 9),
        (7, "3C", 10), (8, "5H", 11)]
CLOSED = [(1, "4H", 9), (2, "3NT", 9), (3, "2S", 8), (4, "3D", 10), (5, "1NT", 6), (6, "4S", 10),
          (7, "3NT", 9)]  # board 8: the TD's artificial score, Avg+ to NS (team 2), Avg- to EW (team 1)


def ns_score(board: int, contract: str, tricks: int) -> int:
    from .team_play import dealer
    return law77(contract, dealer(board), tricks, vulnerability(board))


def expected_board_imps() -> dict[int, tuple[int, int]]:
    """(home, away) IMPs per board: the open room's NS score against the closed room's."""
    out = {}
    closed = {b: (c, t) for b, c, t in CLOSED}
    for b, c, t in OPEN:
        if b in closed:
            d = imp(ns_score(b, c, t) - ns_score(b, *closed[b]))
            out[b] = (d, -d)
        else:  # 2017 §12C2b: Avg+ is +3 IMPs, Avg- is -3 IMPs; team 1 sits EW in the closed room
            out[b] = (-3, 3)
    return out


def won(want: dict[int, tuple[int, int]], boards) -> tuple[int, int]:
    """(home, away) IMPs won over `boards`: each board's IMPs go to the team that gained them."""
    return sum(max(want[b][0], 0) for b in boards), sum(max(want[b][1], 0) for b in boards)


def start(tmp_path, extra=()) -> StationProcess:
    return StationProcess(str(tmp_path / "station.db"), tmp_path, event=EVENT,
                          extra=["--profile", "dbf-2017", "--director-pin", PIN, *extra]).start()


def ok(reply) -> None:
    assert reply.error_type in (0, None) and reply.data_type != 4, reply


def director_keys(st: StationProcess) -> dict[str, str]:
    page = st.request("GET", f"/director?token={st.token}")[1]
    assert isinstance(page, str), page
    return dict(re.findall(r"<tr><td>([A-Z]+\d+)</td><td><code>([A-Z0-9-]+)</code>", page))


def play_rooms(tmp_path, st: StationProcess, closed_boards: int = 4) -> list[Tablet]:
    """Tables 1 and 2 (the open and closed room) play boards 1-4, the closed room its first
    `closed_boards` of them, and deliver their results: the two tablets."""
    keys = director_keys(st)
    tablets = [Tablet(tmp_path, st.url, f"{EVENT}/A/{n}", keys[f"A{n}"]) for n in (1, 2)]
    for b, c, t in OPEN[:4]:
        tablets[0].play(b, c, t)
    for b, c, t in CLOSED[:closed_boards]:
        tablets[1].play(b, c, t)
    for tablet in tablets:
        tablet.drain()
    return tablets


def team1_margins() -> list[int]:
    """Team 1's IMPs on each of boards 1-4 (NS at table 1), worked out from the contracts."""
    closed = {b: (c, t) for b, c, t in CLOSED}
    return [imp(ns_score(b, c, t) - ns_score(b, *closed[b])) for b, c, t in OPEN[:4]]


def board_results(st: StationProcess, table: int, key: str, board: int) -> list[dict]:
    code, doc = st.request("GET", f"/api/v1/boards/{board}/results",
                           headers={"X-Table": f"{EVENT}/A/{table}", "Authorization": f"Bearer {key}"})
    assert code == 200 and isinstance(doc, dict), doc
    return doc["results"]


def match_row(st: StationProcess) -> dict:
    page = st.request("GET", f"/director?token={st.token}")[1]
    assert isinstance(page, str), page
    m = re.search(r'<tr class="match"[^>]*>(.*?)</tr>', page, re.S)
    assert m, page
    cells = re.findall(r"<td[^>]*>(.*?)</td>", m.group(1), re.S)
    return {"teams": cells[1], "rooms": cells[2], "boards": cells[3], "imps": cells[4], "vp": cells[5]}


def test_2017_L16D1_a_two_table_match_scored_in_imps_and_vps_with_the_other_room_hidden(tmp_path):
    st = start(tmp_path)
    tablets = []
    try:
        client = DataConnectorClient("club-9", st.token, st.url)
        ok(client.initialize(teams_init(SESSION, [Room(1, 1, 2, 2), Room(2, 2, 1, 1)], (1, 8))))
        keys = director_keys(st)
        t1 = Tablet(tmp_path, st.url, f"{EVENT}/A/1", keys["A1"])
        t2 = Tablet(tmp_path, st.url, f"{EVENT}/A/2", keys["A2"])
        tablets = [t1, t2]
        # The club shows every result after the table's own; a team match overrides it.
        assert t1.ctl.session.setting("show_results") == "own"
        assert t1.ctl.session.settings["club_show_results"] == "all"

        for b, c, t in OPEN:
            t1.play(b, c, t)
        for b, c, t in CLOSED[:4]:
            t2.play(b, c, t)
        t1.drain()
        t2.drain()
        # Both rooms have played boards 1-4, the match is not over: each table sees its own only.
        for b in (1, 4):
            assert [(r["table"], r["board"]) for r in board_results(st, 1, keys["A1"], b)] == [(1, b)]
            assert [(r["table"], r["board"]) for r in board_results(st, 2, keys["A2"], b)] == [(2, b)]
        want = expected_board_imps()
        row = match_row(st)
        so_far = won(want, (1, 2, 3, 4))  # the IMPs each team won, as scorers show them
        assert row["boards"] == "4/8" and row["imps"] == f"{so_far[0]}–{so_far[1]}", row
        assert row["vp"] == "when complete" and "open A1, closed A2" in row["rooms"], row

        for b, c, t in CLOSED[4:]:
            t2.play(b, c, t)
        t2.artificial(8, "avg+", "avg-")
        t2.drain()
        # Over: both rooms are shown now.
        assert sorted(r["table"] for r in board_results(st, 1, keys["A1"], 3)) == [1, 2]
        home, away = won(want, range(1, 9))
        vp = wbf_vp(home - away, 8)  # the match's margin: what team 1 won over team 2
        row = match_row(st)
        assert row["boards"] == "8/8" and row["imps"] == f"{home}–{away}", row
        assert row["vp"] == f"{vp[0]:.2f}–{vp[1]:.2f}", (row, vp)

        # The scoring program gets the tables' results as before: 15 results and the adjusted board.
        got = client.poll_for_results(SESSION, all=True)
        assert sorted((r.table_number, r.board_number) for r in got) == \
            sorted([(1, b) for b in range(1, 9)] + [(2, b) for b in range(1, 9)])

        # PBN: one game per room, read back by endplay; the team tags per the PBN 2.1 standard.
        code, text = st.request("GET", f"/export/pbn?token={st.token}")
        assert code == 200
        boards = endplay_boards(text.encode("utf-8"))
        assert len(boards) == 16
        for g, board in zip(games(text), boards, strict=True):
            t = dict(tags(g))
            table, n = int(t["Table"]), int(t["Board"])
            assert board.board_num == n
            assert (board.info["Room"], board.info["HomeTeam"], board.info["VisitTeam"]) == \
                ("Open" if table == 1 else "Closed", "Team 1", "Team 2")
            ns_imps = want[n][0] if table == 1 else want[n][1]  # NS is team 1 at table 1, team 2 at table 2
            assert board.info["ScoreIMP"] == f"NS {ns_imps}", (table, n, board.info)
        assert "not scored" not in text
        # The header's running score: the IMPs each team won, as on the director page.
        head = [x for x in text.splitlines() if x.startswith("% Match ")]
        assert head and head[0].startswith(f"% Match Team 1 (home) v Team 2: 8 of 8 boards, IMPs {home}-{away}, VP "), head

        # USEBIO: a teams event ImportUsebio takes (its parser and validation), with the match.
        code, xml = st.request("GET", f"/export/usebio?token={st.token}")
        read = import_usebio(xml.encode("utf-8"))
        event = read["events"][0]
        assert event["type"] == "teams" and event["board_scoring"] == "imps" and event["match_scoring"] == "vps"
        assert {p["number"]: p["score"] for p in event["participants"]} == {"1": vp[0], "2": vp[1]}
        assert {p["number"]: p["place"] for p in event["participants"]} == \
            ({"1": 1, "2": 2} if vp[0] > vp[1] else {"1": 2, "2": 1})
        (match,) = event["matches"]
        assert (match["number"], match["opposing_number"], match["score"], match["opposing_score"]) == \
            ("1", "2", home, away)
        assert (match["vp"], match["opposing_vp"]) == vp
        assert [b["ns_score"] for b in match["boards"]] == [want[b][0] for b in range(1, 9)]
        assert match["pair_numbers"] == {"1"} and match["opposing_pair_numbers"] == {"2"}
        root = usebio_tree(xml.encode("utf-8"))
        lines = root.findall("EVENT/MATCH/BOARD[BOARD_NUMBER='2']/TRAVELLER_LINE")
        assert [(x.findtext("DIRECTION"), x.findtext("CONTRACT"), x.findtext("TRICKS"), x.findtext("SCORE"))
                for x in lines] == [("NS", "3NT", "8", str(ns_score(2, "3NT", 8))),
                                    ("EW", "3NT", "9", str(ns_score(2, "3NT", 9)))]
    finally:
        for t in tablets:
            t.stop()
        st.stop()


def test_2017_L16D1_two_matches_on_the_same_boards_hide_each_other_until_each_is_over(tmp_path):
    st = start(tmp_path)
    tablets = []
    try:
        client = DataConnectorClient("club-9", st.token, st.url)
        # No MatesTable fields: the other room is the table with the two teams the other way round.
        ok(client.initialize(teams_init(SESSION, [Room(1, 1, 2, 0), Room(2, 2, 1, 0), Room(3, 3, 4, 0),
                                                  Room(4, 4, 3, 0)], (1, 4), mates=False)))
        keys = director_keys(st)
        tabs = {n: Tablet(tmp_path, st.url, f"{EVENT}/A/{n}", keys[f"A{n}"]) for n in (1, 2, 3, 4)}
        tablets = list(tabs.values())
        plays = {1: ["4S", "3NT", "2H", "5C"], 2: ["4S", "2NT", "2H", "4C"], 3: ["3S", "3NT", "3H", "5C"],
                 4: ["4S", "3NT", "2HX", "5C"]}
        made = {1: [10, 9, 8, 11], 2: [9, 9, 8, 11], 3: [10, 8, 9, 11], 4: [10, 9, 8, 10]}
        for n in (1, 2, 3):
            for b in range(1, 5):
                tabs[n].play(b, plays[n][b - 1], made[n][b - 1])
        for b in range(1, 4):
            tabs[4].play(b, plays[4][b - 1], made[4][b - 1])
        for t in tablets:
            t.drain()
        # Match 1 (tables 1, 2) is over; match 2 (tables 3, 4) is not: table 1 sees its own
        # match's results, never table 3's; table 3 sees only its own.
        assert sorted(r["table"] for r in board_results(st, 1, keys["A1"], 1)) == [1, 2]
        assert sorted(r["table"] for r in board_results(st, 3, keys["A3"], 1)) == [3]
        tabs[4].play(4, plays[4][3], made[4][3])
        tabs[4].drain()
        assert sorted(r["table"] for r in board_results(st, 1, keys["A1"], 1)) == [1, 2, 3, 4]

        page = st.request("GET", f"/director?token={st.token}")[1]
        rows = re.findall(r'<tr class="match"[^>]*>(.*?)</tr>', page, re.S)
        assert len(rows) == 2
        for (a, b), row in zip(((1, 2), (3, 4)), rows, strict=True):
            per_board = [imp(law77_at(a, x, plays, made) - law77_at(b, x, plays, made)) for x in range(1, 5)]
            home, away = sum(max(d, 0) for d in per_board), sum(max(-d, 0) for d in per_board)
            vp = wbf_vp(home - away, 4)  # the match's margin: what the home team won over the visitors
            cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
            assert cells[1] == f"Team {a} v Team {b}" and cells[3] == "4/4", cells
            assert cells[4] == f"{home}–{away}" and cells[5] == f"{vp[0]:.2f}–{vp[1]:.2f}", (cells, vp)
        code, xml = st.request("GET", f"/export/usebio?token={st.token}")
        event = import_usebio(xml.encode("utf-8"))["events"][0]
        assert len(event["matches"]) == 2 and len(event["participants"]) == 4
    finally:
        for t in tablets:
            t.stop()
        st.stop()


def law77_at(table: int, board: int, plays: dict, made: dict) -> int:
    from .team_play import dealer
    return law77(plays[table][board - 1], dealer(board), made[table][board - 1], vulnerability(board))


def test_a_teams_movement_whose_rooms_play_other_boards_is_refused_and_changes_nothing(tmp_path):
    st = start(tmp_path)
    try:
        client = DataConnectorClient("club-9", st.token, st.url)
        init = teams_init(SESSION, [Room(1, 1, 2, 2), Room(2, 2, 1, 1)], (1, 8))
        init.sessions[0].scoring_groups[0].sections[0].tables[1].rounds[0].low_board_number = 9
        init.sessions[0].scoring_groups[0].sections[0].tables[1].rounds[0].high_board_number = 16
        reply = client.initialize(init)
        assert reply.data_type == 4, reply
        assert "the two rooms of a match play the same boards" in reply.serialized_data
        assert "Nothing was changed" in reply.serialized_data
        # Nothing stored: no movement for the tables.
        code, _ = st.request("GET", "/api/v1/movement", headers=st.table_headers(f"{EVENT}/A/1"))
        assert code == 404
        # A team in one room only: table 1 seats teams 1 and 2, its other room teams 2 and 3.
        reply = client.initialize(teams_init(SESSION, [Room(1, 1, 2, 2), Room(2, 2, 3, 1)], (1, 8)))
        assert reply.data_type == 4 and "team 1, 3 would play in one room only" in reply.serialized_data, reply
        code, _ = st.request("GET", "/api/v1/movement", headers=st.table_headers(f"{EVENT}/A/1"))
        assert code == 404
    finally:
        st.stop()


def test_the_td_sets_a_match_on_a_pairs_movement_and_a_bad_one_is_refused(tmp_path):
    """A `.bws` (Ruter, Magic Contest) or a scoring program that sends a teams event as pairs:
    the TD names the rooms; the match is checked against the movement first."""
    st = start(tmp_path)
    try:
        client = DataConnectorClient("club-9", st.token, st.url)
        init = teams_init(SESSION, [Room(1, 1, 2, 0), Room(2, 2, 1, 0), Room(3, 3, 4, 0)], (1, 4), method=10,
                          mates=False, show_results=False)
        sec = init.sessions[0].scoring_groups[0].sections[0]
        sec.game_type = 10
        for t in sec.tables:
            t.rounds[0].team_ns = t.rounds[0].team_ew = 0
        ok(client.initialize(init))
        db = str(st.db)

        def match(*args: str) -> subprocess.CompletedProcess:
            return subprocess.run([sys.executable, "-m", "station", "match", "--db", db, *args], cwd=ROOT,
                                  capture_output=True, text=True, timeout=60)

        bad = match("set", "A1", "A3")  # teams 1 v 2 and 3 v 4: not one match
        assert bad.returncode == 2 and "would play in one room only" in bad.stderr and "Nothing was changed" in bad.stderr
        assert "0 team match(es)" in match("list").stdout
        good = match("set", "A2", "A1", "--home", "1")  # the TD names A2 the open room (FSB 110A)
        assert good.returncode == 0, good.stderr
        assert "team 1 (home) v team 2: open A2 closed A1 (round 1); set by td" in good.stdout
        keys = director_keys(st)
        tabs = [Tablet(tmp_path, st.url, f"{EVENT}/A/{n}", keys[f"A{n}"]) for n in (1, 2)]
        try:
            tabs[0].play(1, "4H", 10)
            tabs[1].play(1, "4H", 9)
            for t in tabs:
                t.drain()
        finally:
            for t in tabs:
                t.stop()
        code, text = st.request("GET", f"/export/pbn?token={st.token}")
        by_table = {int(dict(tags(g))["Table"]): dict(tags(g)) for g in games(text)}
        d = imp(law77("4H", "N", 10, "None") - law77("4H", "N", 9, "None"))
        # Team 1 sits NS at A1, the closed room here; its IMPs are the home team's.
        assert (by_table[1]["Room"], by_table[1]["ScoreIMP"]) == ("Closed", f"NS {d}")
        assert (by_table[2]["Room"], by_table[2]["ScoreIMP"]) == ("Open", f"NS {-d}")
        assert by_table[1]["Scoring"] == "IMP"
        # The TD's list: the IMPs each team won so far (the home team's d IMPs, if it gained them).
        listed = match("list").stdout
        assert f"1/4 boards, IMPs {max(d, 0)}-{max(-d, 0)}" in listed, listed
    finally:
        st.stop()


def test_wbf_scale_no_imp_is_worth_more_than_the_one_before():
    """The WBF 2013 scale (shared_rules.scoring.wbf_vp) equals the formula written out here,
    for every margin of matches of 1 to 64 boards, and never gains more for an IMP than for the
    IMP before (the WBF's rule), which the plain rounded formula breaks (8 boards, 39-41 IMPs)."""
    from shared_rules.scoring.vp import WbfContinuousScale
    from shared_rules.scoring.wbf_vp import WbfScale2013

    scale = WbfScale2013()
    for boards in range(1, 65):
        ours = [scale.winner_vp(m, boards) for m in range(0, 130)]
        assert ours == [wbf_vp(m, boards)[0] for m in range(0, 130)], boards
        gains = [Fraction(str(b)) - Fraction(str(a)) for a, b in zip(ours, ours[1:], strict=False)]
        assert all(g2 <= g1 for g1, g2 in zip(gains, gains[1:], strict=False)), boards
    plain = [WbfContinuousScale().winner_vp(m, 8) for m in (39, 40, 41)]
    assert plain == [19.62, 19.73, 19.85]  # gains 0.11 then 0.12: the plain rounding's cusp
    assert [scale.winner_vp(m, 8) for m in (39, 40, 41)] != plain


def test_a_bws_teams_section_declared_by_the_td_and_a_bad_one_changes_nothing():
    """A `.bws` session as the bridge stores it (station/bws/session.py install: scoring method 10,
    game type 10, RoundData's pairs = the team numbers): `match teams A` finds its matches; a
    section where a team sits at one table only is refused and nothing is kept."""
    from station import match_store
    from station.matches import MatchError
    from station.store import Store

    store = Store(":memory:")
    guid = "B" * 32
    with store.transaction() as tx:
        for letter in ("A", "B"):
            tx.execute("INSERT INTO dc_sections (session_guid, section, scoring_group, scoring_method, game_type) "
                       "VALUES (?, ?, 1, 10, 10)", (guid, letter))
        # A: two matches on boards 1-6 (teams 1 v 2 at tables 1, 2; 3 v 4 at tables 3, 4), two halves.
        for table, ns, ew, rnd, low in ((1, 1, 2, 1, 1), (2, 2, 1, 1, 1), (3, 3, 4, 1, 1), (4, 4, 3, 1, 1),
                                        (1, 1, 2, 2, 4), (2, 2, 1, 2, 4), (3, 3, 4, 2, 4), (4, 4, 3, 2, 4)):
            tx.execute("INSERT INTO dc_rounds (session_guid, section, table_no, round_no, low_board, high_board, "
                       "pair_ns, pair_ew) VALUES (?, 'A', ?, ?, ?, ?, ?, ?)", (guid, table, rnd, low, low + 2, ns, ew))
        # B: team 5 v 6 at table 1, but table 2 seats 6 v 7.
        for table, ns, ew in ((1, 5, 6), (2, 6, 7)):
            tx.execute("INSERT INTO dc_rounds (session_guid, section, table_no, round_no, low_board, high_board, "
                       "pair_ns, pair_ew) VALUES (?, 'B', ?, 1, 1, 3, ?, ?)", (guid, table, ns, ew))
    found = match_store.set_teams(store, guid, "A")
    assert sorted((m.home, m.away, [b for b in m.boards]) for m in found) == [(1, 2, [1, 2, 3, 4, 5, 6]),
                                                                             (3, 4, [1, 2, 3, 4, 5, 6])]
    assert {(s.open.room.name, s.closed.room.name) for m in found for s in m.segments} == {("A1", "A2"), ("A3", "A4")}
    try:
        match_store.set_teams(store, guid, "B")
    except MatchError as e:
        assert "team 5, 7 would play in one room only" in str(e), e
    else:
        raise AssertionError("a team at one table only was taken")
    assert match_store.teams_sections(store, guid) == {"A"}
    assert len(match_store.session_matches(store, guid).matches) == 2
    store.close()


def station_match(st: StationProcess, *args: str) -> subprocess.CompletedProcess:
    """The TD's `station match ...` command on the running station's database."""
    return subprocess.run([sys.executable, "-m", "station", "match", "--db", str(st.db), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("method, td_scale", [(40, None), (50, None), (51, "none")],
                         ids=["method 40", "method 50", "match scale none"])
def test_2017_L78B_an_imps_only_or_discrete_vp_match_shows_the_imps_each_team_won(tmp_path, method, td_scale):
    """Data Connector method 40 (team IMPs), or a VP event the TD scores in IMPs only (`match scale
    none`, the `none` of `vp_scales`, 2007 L78D / 2017 §78D): no VPs; the director page says
    "IMPs only", the PBN header gives the IMPs each team won and no VP, and the USEBIO event is
    scored in IMPs with the teams' TOTAL_SCORE their net IMPs (the margin). Method 50 ("discrete
    VPs"): no discrete table is named in a source here, so the WBF 2013 scale (docs/station.md
    "Team matches"). Either way the IMPs each team won are shown."""
    st = start(tmp_path)
    tablets = []
    imps_only = method == 40 or td_scale == "none"
    try:
        client = DataConnectorClient("club-9", st.token, st.url)
        ok(client.initialize(teams_init(SESSION, [Room(1, 1, 2, 2), Room(2, 2, 1, 1)], (1, 4), method=method)))
        if td_scale is not None:
            set_scale = station_match(st, "scale", td_scale)
            assert set_scale.returncode == 0 and "IMPs only" in set_scale.stdout, set_scale
        keys = director_keys(st)
        tablets = [Tablet(tmp_path, st.url, f"{EVENT}/A/{n}", keys[f"A{n}"]) for n in (1, 2)]
        for b, c, t in OPEN[:4]:
            tablets[0].play(b, c, t)
        for b, c, t in CLOSED[:4]:
            tablets[1].play(b, c, t)
        for t in tablets:
            t.drain()
        per_board = {b: imp(ns_score(b, c, t) - ns_score(b, *{x: (y, z) for x, y, z in CLOSED}[b]))
                     for b, c, t in OPEN[:4]}
        assert {d > 0 for d in per_board.values()} == {True, False}, per_board  # both teams won IMPs
        home = sum(max(d, 0) for d in per_board.values())
        away = sum(max(-d, 0) for d in per_board.values())
        vp = wbf_vp(home - away, 4)
        row = match_row(st)
        assert row["boards"] == "4/4" and row["imps"] == f"{home}–{away}", row
        assert row["vp"] == ("IMPs only" if imps_only else f"{vp[0]:.2f}–{vp[1]:.2f}"), (row, vp)

        code, text = st.request("GET", f"/export/pbn?token={st.token}")
        assert code == 200
        head = [x for x in text.splitlines() if x.startswith("% Match ")]
        match_line = f"% Match Team 1 (home) v Team 2: 4 of 4 boards, IMPs {home}-{away}"
        assert head == [match_line if imps_only else f"{match_line}, VP {vp[0]:.2f}-{vp[1]:.2f} (WBF 2013 20-0)"], head
        by_table = {(int(t["Table"]), int(t["Board"])): t for t in (dict(tags(g)) for g in games(text))}
        for b, d in per_board.items():  # each room's IMPs, NS's: team 1 at table 1, team 2 at table 2
            assert (by_table[(1, b)]["ScoreIMP"], by_table[(2, b)]["ScoreIMP"]) == (f"NS {d}", f"NS {-d}")

        code, xml = st.request("GET", f"/export/usebio?token={st.token}")
        event = import_usebio(xml.encode("utf-8"))["events"][0]
        assert event["type"] == "teams" and event["match_scoring"] == ("imps" if imps_only else "vps")
        (match,) = event["matches"]
        assert (match["score"], match["opposing_score"]) == (home, away)
        totals = {p["number"]: p["score"] for p in event["participants"]}
        if imps_only:
            assert "vp" not in match and "opposing_vp" not in match
            assert totals == {"1": home - away, "2": away - home}
        else:
            assert (match["vp"], match["opposing_vp"]) == vp and totals == {"1": vp[0], "2": vp[1]}
        if td_scale is not None:  # back to the profile's scale (dbf-2017 names the WBF's): VPs again
            assert station_match(st, "scale", "profile").returncode == 0
            assert match_row(st)["vp"] == f"{vp[0]:.2f}–{vp[1]:.2f}"
    finally:
        for t in tablets:
            t.stop()
        st.stop()


def test_2017_L12C1c_a_weighted_score_in_a_team_match_keeps_its_fraction_and_the_vps_round_the_margin(tmp_path):
    """The TD weights board 4 in the closed room (2017 §12C1c, dbf-2017: the TD may): half 6D
    made, half 6D+1, against 6D made in the open room: 0 and 1 IMP, half an IMP to the team
    sitting EW there. The record names no offender, so the match keeps the half IMP (the
    director page and the files print it to two decimals) and the VPs are the WBF scale's at the
    margin rounded half away from zero (docs/laws/choices.md #44)."""
    from .team_play import dealer

    st = start(tmp_path)
    tablets = []
    try:
        client = DataConnectorClient("club-9", st.token, st.url)
        ok(client.initialize(teams_init(SESSION, [Room(1, 1, 2, 2), Room(2, 2, 1, 1)], (1, 4))))
        keys = director_keys(st)
        tablets = [Tablet(tmp_path, st.url, f"{EVENT}/A/{n}", keys[f"A{n}"]) for n in (1, 2)]
        for b, c, t in OPEN[:4]:
            tablets[0].play(b, c, t)
        for b, c, t in CLOSED[:3]:
            tablets[1].play(b, c, t)
        assert OPEN[3] == (4, "6D", 12)
        tablets[1].ctl.choose_board(4)
        tablets[1].ctl.td_assigned_score(PIN, 4, [{"contract": "6D", "declarer": dealer(4), "tricks": 12, "weight": 50},
                                                  {"contract": "6D", "declarer": dealer(4), "tricks": 13, "weight": 50}])
        for t in tablets:
            t.drain()
        closed = {b: (c, t) for b, c, t in CLOSED}
        per_board = {b: Fraction(imp(ns_score(b, c, t) - ns_score(b, *closed[b]))) for b, c, t in OPEN[:3]}
        made, over = (ns_score(4, "6D", 12), ns_score(4, "6D", 13))
        per_board[4] = Fraction(imp(made - made) + imp(made - over), 2)  # team 1's, NS in the open room
        assert per_board[4] == Fraction(1, 2)
        home = sum(max(d, 0) for d in per_board.values())
        away = sum(max(-d, 0) for d in per_board.values())
        margin = home - away
        assert margin.denominator == 2
        whole = int(margin + Fraction(1, 2)) if margin > 0 else -int(-margin + Fraction(1, 2))  # half away from 0
        vp = wbf_vp(whole, 4)

        def text(x: Fraction) -> str:
            return str(x.numerator) if x.denominator == 1 else f"{float(x):.2f}"

        row = match_row(st)
        assert row["boards"] == "4/4" and row["imps"] == f"{text(home)}–{text(away)}", row
        assert row["vp"] == f"{vp[0]:.2f}–{vp[1]:.2f}", (row, vp, margin)

        code, pbn = st.request("GET", f"/export/pbn?token={st.token}")
        head = [x for x in pbn.splitlines() if x.startswith("% Match ")]
        assert head == [f"% Match Team 1 (home) v Team 2: 4 of 4 boards, IMPs {text(home)}-{text(away)}, "
                        f"VP {vp[0]:.2f}-{vp[1]:.2f} (WBF 2013 20-0)"], head
        by_table = {(int(t["Table"]), int(t["Board"])): t for t in (dict(tags(g)) for g in games(pbn))}
        assert (by_table[(1, 4)]["ScoreIMP"], by_table[(2, 4)]["ScoreIMP"]) == ("NS 0.50", "NS -0.50")

        code, xml = st.request("GET", f"/export/usebio?token={st.token}")
        event = import_usebio(xml.encode("utf-8"))["events"][0]
        (match,) = event["matches"]
        assert (float(match["score"]), float(match["opposing_score"])) == (float(home), float(away))
        assert (match["vp"], match["opposing_vp"]) == vp
        assert {p["number"]: p["score"] for p in event["participants"]} == {"1": vp[0], "2": vp[1]}
    finally:
        for t in tablets:
            t.stop()
        st.stop()
