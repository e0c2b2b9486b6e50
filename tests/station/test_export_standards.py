"""A club evening's exports read by independent readers: two Mitchell sections in one scoring
group, the official Data Connector client as the scoring program (movement, hand records for
section A only, player data and participations), tablets' results over HTTP, then the PBN file
read back by endplay board by board and the USEBIO file validated by libxml2 against the USEBIO
1.2 DTD."""
import http.client

import pytest
from bridgemate_dataconnector import DataConnectorClient
from bridgemate_dataconnector.dto import (
    DataConnectorResponseData,
    InitDTO,
    ParticipationDTO,
    PlayerDataDTO,
    RoundDTO,
    ScoringGroupDTO,
    SectionDTO,
    SessionDTO,
    TableDirection,
    TableDTO,
)
from endplay.types import Card, Deal, Player

from shared_rules.scoring import score
from station.pbn import MANDATORY

from .conftest import StationProcess, result_record
from .export_readers import (
    check_export_lines,
    conforming_text,
    endplay_boards,
    games,
    pair_no,
    tags,
    usebio_tree,
)
from .test_dataconnector import DEAL_E, DEAL_N, DEAL_S, DEAL_W, handrecord

pytestmark = pytest.mark.server  # starts the results station as a process

GUID = "00112233445566778899AABBCCDDEEFF"
SESSION_NAME = "Tisdagsparen, kväll"
DEAL = "N:" + " ".join(".".join(h) for h in (DEAL_N, DEAL_E, DEAL_S, DEAL_W))
DEALER = {1: "N", 2: "E", 3: "S", 4: "W"}
VUL = {1: "None", 2: "NS", 3: "EW", 4: "All"}
# (section, table, seat) -> (number, first, last)
PLAYERS = {(s, t, seat): (f"{s}{t}{seat}", f"F{s}{t}{seat}", f"Öberg-{s}{t}{seat}")
           for s in "AB" for t in (1, 2, 3) for seat in "NESW"}
PLAYERS[("A", 1, "N")] = ("1001", "Åsa", "Lindström")


def init() -> InitDTO:
    sections = []
    for letters in "AB":
        tables = [TableDTO(session_guid=GUID, section_letters=letters, table_number=t, rounds=[
            RoundDTO(session_guid=GUID, section_letters=letters, table_number=t, round_number=1,
                     low_board_number=1, high_board_number=4, pair_ns=t, pair_ew=t)]) for t in (1, 2, 3)]
        sections.append(SectionDTO(session_guid=GUID, scoring_group_number=1, letters=letters, winners=2,
                                   game_type=10, tables=tables))
    group = ScoringGroupDTO(session_guid=GUID, scoring_group_number=1,
                            scoring_method=ScoringGroupDTO.ScoringType_Pairs, sections=sections)
    session = SessionDTO(session_guid=GUID, name=SESSION_NAME, year=2026, month=11, day=22, scoring_groups=[group])
    return InitDTO(commands=InitDTO.Command_Reset | InitDTO.Command_StartReading, club_id="club-7",
                   sessions=[session])


def auction_from(dealer: str, calls: list[str], think: list) -> list[dict]:
    order = "NESW"
    start = order.index(dealer)
    return [{"seat": order[(start + i) % 4], "call": c, "think": t,
             **({"alerted": True, "explanation": "klöver, 3+ kort"} if c == "1C" else {})}
            for i, (c, t) in enumerate(zip(calls, think, strict=True))]


def played(section, table, board, contract, declarer, tricks, calls, lead="SA", **kw):
    vul = VUL[board]
    think = [2.0] * len(calls)
    think[1] = None  # the box's clock was not known for this call: "?" in the time table
    rec = result_record(table=table, board=board, ns_pair=table, ew_pair=table, dealer=DEALER[board],
                        vulnerability=vul, contract=contract, declarer=declarer, tricks=tricks, lead=lead,
                        score_ns=score(contract, declarer, tricks, vul),
                        auction=auction_from(DEALER[board], calls, think), **kw)
    rec["section"] = section
    rec["key"] = rec["key"].replace("/A/", f"/{section}/")
    return rec


def results() -> list[dict]:
    out = []
    for s in "AB":
        for t in (1, 2, 3):
            # Board 1 (dealer N): 1C (alerted "klöver") ... 4H by S; tables 1 and 2 make 10, table 3 nine.
            out.append(played(s, t, 1, "4H", "S", 10 if t < 3 else 9, ["1C", "PASS", "4H", "PASS", "PASS", "PASS"]))
            # Board 2 (dealer E): 2S by E, South leads.
            out.append(played(s, t, 2, "2S", "E", 8, ["1S", "PASS", "2S", "PASS", "PASS", "PASS"], lead="HK"))
            # Board 3 (dealer S): 3NT by N.
            out.append(played(s, t, 3, "3NT", "N", 9, ["PASS", "PASS", "1NT", "PASS", "3NT", "PASS", "PASS", "PASS"],
                              lead="C10"))
    # Board 4 (dealer W, all vulnerable): A1 and A2 play 3NT by N; A3 gets an assigned 4S by S
    # one down (Law 12C1) after making 3NT.
    for t in (1, 2, 3):
        rec = played("A", t, 4, "3NT", "N", 9, ["PASS", "1NT", "PASS", "3NT", "PASS", "PASS", "PASS"])
        if t == 3:
            rec["adjusted"] = {"kind": "assigned", "contract": "4S", "declarer": "S", "tricks": 9,
                               "law": "2017 L12C1"}
        out.append(rec)
    # Section B board 4: two artificial scores (Law 12C2), Avg+/Avg- one way and the other.
    for t, (ns, ew) in ((1, ("avg+", "avg-")), (2, ("avg-", "avg+"))):
        rec = result_record(table=t, board=4, ns_pair=t, ew_pair=t, dealer="W", vulnerability="All", contract=None,
                            declarer=None, tricks=None, lead=None, score_ns=None, auction=[],
                            adjusted={"kind": "artificial", "ns": ns, "ew": ew, "law": "2017 L12C2"})
        rec["section"] = "B"
        rec["key"] = rec["key"].replace("/A/", "/B/")
        out.append(rec)
    out.append({**played("B", 3, 4, "3NT", "N", 9, ["PASS", "1NT", "PASS", "3NT", "PASS", "PASS", "PASS"])})
    return out


@pytest.fixture(scope="module")
def evening(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("evening")
    st = StationProcess(str(tmp / "station.db"), tmp, extra=["--tables", "B:1-3", "--club", "Bridgeklubben Öst",
                                                              "--club-id", "4711"]).start()
    try:
        client = DataConnectorClient("club-7", st.token, st.url)
        assert client.initialize(init()).data_type == DataConnectorResponseData.OK
        assert client.send_handrecords(GUID, [handrecord(b, GUID) for b in (1, 2, 3, 4)]).data_type == \
            DataConnectorResponseData.OK
        players = [PlayerDataDTO(session_guid=GUID, club_id="club-7", player_number=n, first_name=f, last_name=last)
                   for (n, f, last) in PLAYERS.values()]
        reply = client.send_player_data(GUID, players)
        assert reply.data_type == DataConnectorResponseData.OK, reply.serialized_data
        seats = [ParticipationDTO(session_guid=GUID, section_letters=s, table_number=t, round_number=1,
                                  direction=TableDirection("NESW".index(seat) + 1), player_number=n)
                 for (s, t, seat), (n, _f, _l) in PLAYERS.items()]
        reply = client.send_participations(GUID, seats)
        assert reply.data_type == DataConnectorResponseData.OK, reply.serialized_data
        for r in results():
            code, doc = st.post_item("result", r)
            assert code == 201, (r["key"], doc)
        yield st
    finally:
        st.stop()


def fetch(st, path: str) -> bytes:
    conn = http.client.HTTPConnection("127.0.0.1", st.port, timeout=30)
    try:
        conn.request("GET", f"{path}{'&' if '?' in path else '?'}token={st.token}")
        resp = conn.getresponse()
        assert resp.status == 200
        return resp.read()
    finally:
        conn.close()


def pbn_name(section, table, seat):
    _n, first, last = PLAYERS[(section, table, seat)]
    return f"{last}, {first}"


def test_pbn_follows_the_standard_and_reads_back_board_by_board(evening):
    raw = fetch(evening, "/export/pbn")
    assert raw.startswith(b"\xef\xbb\xbf% PBN 2.1\r\n% EXPORT\r\n")  # UTF-8 needs the byte order mark
    text = conforming_text(raw)
    check_export_lines(text)
    assert "[Note \"1:klöver, 3+ kort\"]" in text.split("\r\n")  # read as the standard says, not "klÃ¶ver"
    got = {}
    for game in games(text):
        t = dict(tags(game))
        got[(t["Section"], int(t["Table"]), int(t["Board"]))] = (game, t)
        names = [n for n, _ in tags(game)]
        assert names[:15] == list(MANDATORY)
        supplemental = names[15:names.index("Auction")] if "Auction" in names else names[15:]
        assert supplemental == sorted(supplemental) and len(set(names) - {"Note"}) == len(names) - names.count("Note")
        assert "Lead" not in names
        assert t["Event"] == SESSION_NAME and t["Site"] == "Bridgeklubben Öst"
        assert t["Deal"].startswith(t["Dealer"] + ":")  # the export format starts the deal with the dealer
        assert Deal(t["Deal"]).to_pbn() == Deal(DEAL).to_pbn()  # section B took section A's hand record
    assert len(got) == 24
    boards = endplay_boards(raw)
    assert len(boards) == 24
    for b in boards:
        section, table = b.info["Section"], int(b.info["Table"])
        game, t = got[(section, table, b.board_num)]
        assert b.dealer.abbr == DEALER[b.board_num]
        assert {p.abbr: b.deal[p].to_pbn() for p in Player} == {p.abbr: Deal(DEAL)[p].to_pbn() for p in Player}
        assert {s: b.info[n] for s, n in (("N", "North"), ("E", "East"), ("S", "South"), ("W", "West"))} == \
            {s: pbn_name(section, table, s) for s in "NESW"}
        if section == "B" and b.board_num == 4 and table < 3:
            assert b.contract is None and t["Contract"] == "?" and len(b.auction) == 0
            continue
        want = {1: (4, "hearts", "S", 10 if table < 3 else 9), 2: (2, "spades", "E", 8),
                3: (3, "nt", "N", 9), 4: (3, "nt", "N", 9)}[b.board_num]
        c = b.contract
        assert (c.level, c.denom.name, c.declarer.abbr, c.level + 6 + c.result) == want
        assert len(b.auction) == {1: 6, 2: 6, 3: 8, 4: 7}[b.board_num]
        # The lead is the first card of the Play section, from declarer's left-hand opponent.
        leader = {"N": "E", "E": "S", "S": "W", "W": "N"}[c.declarer.abbr]
        assert f'[Play "{leader}"]' in game and len(b.play) == 1
        assert b.play[0] == Card({1: "SA", 2: "HK", 3: "CT", 4: "SA"}[b.board_num])
        rows = b.info["AuctionTimeTable"]["rows"]
        assert rows[0] == ["00:02", "00:02"] and rows[1] == ["?", "?"] and len(rows) == len(b.auction)
    b1 = next(b for b in boards if b.board_num == 1)
    assert b1.auction[0].alertable and b1.auction[0].announcement == "klöver, 3+ kort"


def test_usebio_valid_against_the_dtd_with_the_conventions_readers_use(evening):
    root = usebio_tree(fetch(evening, "/export/usebio"))
    assert root.findtext("CLUB/CLUB_NAME") == "Bridgeklubben Öst" and root.findtext("CLUB/CLUB_ID_NUMBER") == "4711"
    ev = root.find("EVENT")
    assert ev.findtext("WINNER_TYPE") == "2"  # a Mitchell ranked per direction: two winners
    assert ev.findtext("BOARDS_PLAYED") == "4"  # boards, not sections times boards
    assert ev.findtext("EVENT_DESCRIPTION") == SESSION_NAME
    secs = {s.get("SECTION_ID"): s for s in ev.findall("SECTION")}
    assert set(secs) == {"A", "B"} and ev.find("SECTION/SECTION_ID") is None
    pairs = {(p.findtext("DIRECTION"), pair_no(p.findtext("PAIR_NUMBER"))): p
             for p in secs["B"].findall("PARTICIPANTS/PAIR")}
    assert set(pairs) == {(d, n) for d in ("NS", "EW") for n in (1, 2, 3)}
    # A and B are one scoring group: one field, ranked per direction across both sections, ties
    # written "n=" (the points themselves: test_scoring_groups.py).
    field = {(x, p.findtext("DIRECTION"), pair_no(p.findtext("PAIR_NUMBER"))): p
             for x in ("A", "B") for p in secs[x].findall("PARTICIPANTS/PAIR")}
    pct = {k: float(p.findtext("PERCENTAGE")) for k, p in field.items()}
    for k, p in field.items():
        rivals = [j for j in pct if j[1] == k[1]]
        better = sum(pct[j] > pct[k] for j in rivals)
        tied = sum(pct[j] == pct[k] for j in rivals) > 1
        assert p.findtext("PLACE") == f"{better + 1}{'=' if tied else ''}", k
    a_pairs = {(p.findtext("DIRECTION"), pair_no(p.findtext("PAIR_NUMBER"))): p for p in secs["A"].findall("PARTICIPANTS/PAIR")}
    players = a_pairs[("NS", 1)].findall("PLAYER")
    assert [(x.findtext("PLAYER_NAME"), x.findtext("NATIONAL_ID_NUMBER")) for x in players] == \
        [("Åsa Lindström", "1001"), ("FA1S Öberg-A1S", "A1S")]
    assert [x.findtext("PLAYER_NAME") for x in a_pairs[("EW", 2)].findall("PLAYER")] == \
        ["FA2E Öberg-A2E", "FA2W Öberg-A2W"]
    # Adjusted scores on the traveller: A3's assigned 4S-1 (-100), not the 3NT= (600) it played;
    # B1 avg+/avg- and B2 avg-/avg+ written apart.
    line = {(s, t.findtext("NS_PAIR_NUMBER")): t for s, sec in secs.items()
            for b in sec.findall("BOARD") if b.findtext("BOARD_NUMBER") == "4" for t in b.findall("TRAVELLER_LINE")}
    a3 = line[("A", "3NS")]
    assert [a3.findtext(x) for x in ("CONTRACT", "PLAYED_BY", "TRICKS", "SCORE")] == ["4S", "S", "9", "-100"]
    assert line[("A", "1NS")].findtext("SCORE") == "600"
    assert line[("B", "1NS")].findtext("CONTRACT") == "AVE+" and line[("B", "2NS")].findtext("CONTRACT") == "AVE-"
    assert float(line[("A", "3NS")].findtext("NS_MATCH_POINTS")) < float(line[("A", "1NS")].findtext("NS_MATCH_POINTS"))
    hands = secs["B"].findall("HANDSET/BOARD")
    assert len(hands) == 4 and [h for h in hands[0].findall("HAND") if h.findtext("DIRECTION") == "West"][0].findtext("CLUBS") == DEAL_W[3]
