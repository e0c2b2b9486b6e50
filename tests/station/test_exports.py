"""PBN export of every board (validated by re-parsing with endplay) and USEBIO XML
(validated by parsing it back), fetched over HTTP from a running station."""
import xml.etree.ElementTree as ET

import pytest
from bridgemate_dataconnector import DataConnectorClient

from shared_rules.scoring import score, score_board
from station.movement import Slot

from .conftest import EVENT, result_record
from .export_readers import endplay_boards, pair_no, usebio_sections
from .test_dataconnector import DEAL_E, DEAL_N, DEAL_S, DEAL_W, GUID, handrecord, pairs_init


def rec_with(table, board, contract, declarer, tricks, vul="None", dealer="N", **kw):
    s = score(contract, declarer or "N", tricks or 0, vul)
    return result_record(table=table, board=board, contract=contract, declarer=declarer, tricks=tricks,
                         vulnerability=vul, dealer=dealer, score_ns=s, **kw)


ALERTED = [{"seat": "N", "call": "1NT", "think": 4.4},
           {"seat": "E", "call": "PASS", "think": 1.0},
           {"seat": "S", "call": "2D", "alerted": True, "explanation": "transfer to hearts", "think": 6.0},
           {"seat": "W", "call": "PASS", "think": 2.0},
           {"seat": "N", "call": "2H", "alerted": True, "think": 1.2},
           {"seat": "E", "call": "PASS", "think": 1.0},
           {"seat": "S", "call": "4H", "stop": True, "think": 12.0},
           {"seat": "W", "call": "PASS", "think": 3.0},
           {"seat": "N", "call": "PASS", "think": 0.8},
           {"seat": "E", "call": "PASS", "think": 0.6}]
INSUFFICIENT = [{"seat": "N", "call": "1H"}, {"seat": "E", "call": "1D"}, {"seat": "S", "call": "2H"},
                {"seat": "W", "call": "PASS"}, {"seat": "N", "call": "PASS"}, {"seat": "E", "call": "PASS"}]
OUT_OF_ROTATION = [{"seat": "E", "call": "1S"}, {"seat": "S", "call": "PASS"}, {"seat": "W", "call": "2S"},
                   {"seat": "N", "call": "PASS"}, {"seat": "E", "call": "PASS"}, {"seat": "S", "call": "PASS"}]


@pytest.fixture
def event(sqlite_station):
    st = sqlite_station
    client = DataConnectorClient("club-7", st.token, st.url)
    # Boards 1-3 duplicated for every table in round 1: a table posts only what its movement
    # gives it (the station refuses the rest).
    client.initialize(pairs_init([Slot(t, 1, 1, 3, t, t + 10) for t in range(1, 5)]))
    client.send_handrecords(GUID, [handrecord(b) for b in (1, 2)])
    recs = [
        rec_with(1, 1, "4H", "S", 10, auction=ALERTED),
        rec_with(2, 1, "4H", "S", 11, auction=ALERTED),
        rec_with(3, 1, "4H", "S", 10),
        rec_with(1, 2, "2H", "N", 8, irregularities=[
            {"kind": "insufficient_bid", "seat": "E", "index": 1, "accepted": True, "law": "2017 L27A1"}],
            auction=INSUFFICIENT),
        rec_with(2, 2, "2S", "W", 8, vul="EW", irregularities=[
            {"kind": "call_out_of_rotation", "seat": "E", "index": 0, "accepted": True, "skipped": ["N"],
             "law": "2017 L29A"}], auction=OUT_OF_ROTATION),
        result_record(table=3, board=2, contract="PASS", declarer=None, tricks=None, lead=None, score_ns=0,
                      auction=[{"seat": s, "call": "PASS"} for s in "NESW"]),
        result_record(table=4, board=1, contract=None, declarer=None, tricks=None, lead=None, score_ns=None,
                      adjusted={"kind": "artificial", "ns": "avg+", "ew": "avg-", "law": "2017 L12C2"},
                      auction=[]),
    ]
    for r in recs:
        assert st.post_item("result", r)[0] == 201, r
    # A correction (Law 79C): revision 2 replaces table 3's board 1 in every export.
    assert st.post_item("result", rec_with(3, 1, "4H", "S", 9, revision=2))[0] == 201
    return st


def test_pbn_export_of_every_board_reparses_with_endplay(event):
    code, text = event.request("GET", f"/export/pbn?token={event.token}")
    assert code == 200 and text.startswith("\ufeff% PBN 2.1\r\n% EXPORT")
    games = [g for g in text.split("\r\n\r\n")[1:] if g.strip()]
    assert len(games) == 7  # every table's board once, the corrected one in its last revision
    # endplay 0.5.12 does not know the ^I/^S irregularity tokens: check them here (export_readers
    # strips them for endplay).
    lines = text.split("\r\n")
    # Four calls a line; what the TD ruled on a call is a comment on its own line after it.
    i = lines.index("1H ^I 1D 2H Pass")
    assert lines[i + 1] == "{1D by East: Insufficient bid by East, accepted (2017 L27A1)}"
    i = lines.index("^S 1S Pass 2S")
    assert lines[i + 1] == "{1S by East: Call out of rotation by East, accepted (2017 L29A)}"
    boards = endplay_boards(text.encode("utf-8"))
    assert len(boards) == 7
    got = {(b.info["Table"], b.board_num): b for b in boards}
    b = got[("1", 1)]
    assert (b.contract.level, b.contract.denom.name, b.contract.declarer.abbr, b.contract.result) == (4, "hearts", "S", 0)
    assert (got[("2", 1)].contract.result, got[("3", 1)].contract.result) == (1, -1)
    assert str(b.deal.to_pbn()) == "N:" + " ".join(".".join(h) for h in (DEAL_N, DEAL_E, DEAL_S, DEAL_W))
    calls = [str(c) for c in b.auction]
    assert len(calls) == 10
    alerts = [(i, c.announcement) for i, c in enumerate(b.auction) if c.alertable]
    assert alerts == [(2, "transfer to hearts"), (4, "alerted")]
    tt = b.info["AuctionTimeTable"]
    assert tt["headers"] == ["Time", "TotalTime"] and len(tt["rows"]) == 10
    assert tt["rows"][6] == ["00:12", "00:28"]  # the 4H after a stop: 12 s, 27.6 s in total
    assert got[("3", 1)].info["Score"] == "NS -50"  # revision 2: one off
    passed = got[("3", 2)]
    assert passed.info.get("Declarer") in (None, "") and len(passed.auction) == 4
    assert got[("2", 2)].info["Score"] == f"NS {score('2S', 'W', 8, 'EW')}"
    assert got[("4", 1)].contract is None  # not played: Contract "?" (artificial score in a comment)
    assert "{Adjusted score, artificial: Avg+ to NS, Avg- to EW (2017 L12C2)}" in text.split("\r\n")


def test_usebio_pairs_results_parse_back_with_matchpoints(event):
    code, text = event.request("GET", f"/export/usebio?token={event.token}")
    assert code == 200
    root = ET.fromstring(text.encode())
    assert root.tag == "USEBIO" and root.get("Version") == "1.2"
    ev = root.find("EVENT")
    assert ev.get("EVENT_TYPE") == "PAIRS" and ev.findtext("BOARD_SCORING_METHOD") == "MATCH_POINTS"
    sec = usebio_sections(root)["A"]
    boards = {int(b.findtext("BOARD_NUMBER")): b for b in sec.findall("BOARD")}
    b1 = boards[1].findall("TRAVELLER_LINE")
    assert len(b1) == 4
    line = {pair_no(t.findtext("NS_PAIR_NUMBER")): t for t in b1}
    # Board 1: 420, 450, -50 (the correction replaced 420) and an artificial avg+/avg- (L12C2).
    mp = {n: float(t.findtext("NS_MATCH_POINTS")) for n, t in line.items()}
    assert line[2].findtext("SCORE") == "450" and line[3].findtext("SCORE") == "-50"
    assert mp[2] > mp[1] > mp[3] >= 0
    want = score_board([{"ns_pair": n, "ew_pair": n + 10, "score_ns": s, "adjusted": None, "vulnerability": "None"}
                        for n, s in ((1, 420), (2, 450), (3, -50))]
                       + [{"ns_pair": 4, "ew_pair": 14, "score_ns": None, "vulnerability": "None",
                           "adjusted": {"kind": "artificial", "ns": "avg+", "ew": "avg-"}}])
    assert [mp[n] for n in (1, 2, 3, 4)] == [r["ns_mp"] for r in want]  # the project's one scorer
    top = want[0]["top"]
    assert line[4].findtext("CONTRACT") == "AVE+" and mp[4] == pytest.approx(0.6 * top)
    pairs = sec.find("PARTICIPANTS").findall("PAIR")
    assert {p.findtext("PAIR_NUMBER") for p in pairs} >= {"1", "2", "3", "11", "12", "13"}
    hs = root.find("HANDSET").findall("BOARD")  # one section: after the EVENT, as Compscore writes it
    assert [h.findtext("BOARD_NUMBER") for h in hs] == ["1", "2"]
    north = next(h for h in hs[0].findall("HAND") if h.findtext("DIRECTION") == "North")
    assert north.findtext("SPADES") == DEAL_N[0]


def test_exports_need_the_director_token(event):
    code, doc = event.request("GET", "/export/pbn")
    assert code == 403
    code, doc = event.request("GET", "/export/usebio?token=nope")
    assert code == 403


def test_2007_L16C1_results_not_exported_to_tables(event):
    # The table API never hands out another table's result on an unplayed board.
    code, doc = event.request("GET", "/api/v1/boards/2/results",
                              headers=event.table_headers(f"{EVENT}/A/4"))
    assert code == 403
