"""The spectators' page's tables in Swedish and Danish (`GET /live/?lang=sv|da`), in real Chromium
over real HTTP: two team matches of the scoring program's movement (the official Data Connector
client), one board a round, real tablet controllers delivering through their outboxes. Table A3 is
in the middle of an auction, stopped for the director (an alerted 1NT, a double, a pass, an
insufficient 1♠: 2017 L27, L9B2); table A2 has finished the board, as has the other room of its
match, after an insufficient bid that was accepted (2017 L27A1), so its contract, result and deal
show. Every word of the cards is in the page's language (the glossary's terms, docs/glossary.md)
and no English word of a card remains; the page without `?lang=`, and with a language it does not
have, stays English."""
from __future__ import annotations

import re
from html import unescape

import pytest
from bridgemate_dataconnector import DataConnectorClient

from .conftest import Chromium, StationProcess
from .live_play import Spectator, deal_of, handrecords
from .team_play import PIN, Room, Tablet, teams_init
from .test_team_matches import director_keys, ok

pytestmark = [pytest.mark.slow, pytest.mark.server]

SESSION = "7EA45E55000000000000000000000B21"
EVENT = "club-2026-11-28"
BOARD = 2  # East deals, North-South vulnerable

# Every English word a card says (the English page says each of them: the last test).
ENGLISH = ("Table", "board", "Dealer", "North", "East", "South", "West", "vulnerable", "pair", "Pass", "Alerted",
           "Irregularity", "insufficient bid", "by", "accepted", "Waiting", "director", "Contract", "Result",
           "tricks", "Board finished", "open room", "closed room", "Team")
# ... but one Swedish says as English does (S07 Definitioner "Pass")
SHARED = {"sv": {"Pass"}, "da": set()}

# What each card says in each language: the glossary's terms and the vocabulary's names.
SAID = {
    "en": {"A3": ["Table A3 (open room, Team 3 v Team 4): board 2", "Dealer East, N-S vulnerable",
                  "N: North (pair 3), E: East (pair 4), S: South (pair 3), W: West (pair 4)",
                  "Irregularity: insufficient bid by North (1\u2660) [2017 L27]", "Waiting for the director"],
           "A2": ["Table A2 (closed room, Team 1 v Team 2): board 2", "Dealer East, N-S vulnerable",
                  "Irregularity: insufficient bid by South (1\u2660), accepted [2017 L27]", "Board finished",
                  "Contract 4\u2665 by North", "Result: 10 tricks, NS 620"],
           "seats": ["W", "N", "E", "S"], "pass": "Pass", "alerted": "Alerted", "nt": "1NT*"},
    "sv": {"A3": ["Bord A3 (öppet rum, Lag 3 – Lag 4): bricka 2", "Givare Öst, N-S i riskzonen",
                  "N: Nord (par 3), Ö: Öst (par 4), S: Syd (par 3), V: Väst (par 4)",
                  "Felaktighet: otillräckligt bud av Nord (1\u2660) [2017 L27]", "Väntar på tävlingsledaren"],
           "A2": ["Bord A2 (slutet rum, Lag 1 – Lag 2): bricka 2", "Givare Öst, N-S i riskzonen",
                  "Felaktighet: otillräckligt bud av Syd (1\u2660), accepterat [2017 L27]",
                  "Brickan är färdigspelad", "Kontrakt 4\u2665, spelförare Nord", "Resultat: 10 stick, NS 620"],
           "seats": ["V", "N", "Ö", "S"], "pass": "Pass", "alerted": "Alerterat", "nt": "1NT*"},
    "da": {"A3": ["Bord A3 (åbent rum, Hold 3 – Hold 4): spil 2", "Kortgiver Øst, N-S i farezonen",
                  "N: Nord (par 3), Ø: Øst (par 4), S: Syd (par 3), V: Vest (par 4)",
                  "Uregelmæssighed: utilstrækkeligt bud af Nord (1\u2660) [2017 L27]",
                  "Venter på turneringslederen"],
           "A2": ["Bord A2 (lukket rum, Hold 1 – Hold 2): spil 2", "Kortgiver Øst, N-S i farezonen",
                  "Uregelmæssighed: utilstrækkeligt bud af Syd (1\u2660), accepteret [2017 L27]",
                  "Spillet er færdigspillet", "Kontrakt 4\u2665, spilfører Nord", "Resultat: 10 stik, NS 620"],
           "seats": ["V", "N", "Ø", "S"], "pass": "Pas", "alerted": "Alerteret", "nt": "1UT*"},
}


@pytest.fixture(scope="module")
def station(tmp_path_factory):
    """The station with A3 stopped for the director mid-auction and A2's board finished in both rooms."""
    tmp_path = tmp_path_factory.mktemp("live-lang")
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, event=EVENT,
                        extra=["--profile", "dbf-2017", "--director-pin", PIN, "--live"]).start()
    tablets: list[Tablet] = []
    spectator = Spectator(st.live_port).start()
    try:
        client = DataConnectorClient("club-9", st.token, st.url)
        ok(client.initialize(teams_init(SESSION, [Room(1, 1, 2, 2), Room(2, 2, 1, 1), Room(3, 3, 4, 4),
                                                  Room(4, 4, 3, 3)], (BOARD, BOARD))))
        ok(client.send_handrecords(SESSION, handrecords(SESSION, range(BOARD, BOARD + 1))))
        keys = director_keys(st)
        t1, t2, t3 = tablets = [Tablet(tmp_path, st.url, f"{EVENT}/A/{t}", keys[f"A{t}"]) for t in (1, 2, 3)]
        t1.play(BOARD, "4H", 10)
        # A2: South's insufficient 1S is accepted (2017 L27A1), North bids 4H
        t2.ctl.choose_board(BOARD)
        assert t2.ctl.box_event("E", "call", call="1NT")["ok"]
        t2.ctl.box_event("S", "call", call="1S")
        t2.ctl.td_decide(PIN, "accept")
        for seat, call in (("W", "P"), ("N", "4H"), ("E", "P"), ("S", "P"), ("W", "P")):
            assert t2.ctl.box_event(seat, "call", call=call)["ok"], (seat, call)
        t2.ctl.enter_result(10, "SA")
        assert t2.ctl.ew_confirm(True) is not None
        # A3: 1NT alerted by West, double, pass, North's insufficient 1S: the table waits for the
        # director (2017 L9B2), the call not in the auction until he rules
        t3.ctl.choose_board(BOARD)
        assert t3.ctl.box_event("E", "call", call="1NT")["ok"]
        assert t3.ctl.box_event("W", "alert")["ok"]
        for seat, call in (("S", "X"), ("W", "P")):
            assert t3.ctl.box_event(seat, "call", call=call)["ok"], (seat, call)
        t3.ctl.box_event("N", "call", call="1S")
        for t in tablets:
            t.drain()
        spectator.wait(lambda s: any(v["table"] == "A2" and v["deal"] for _, v in s.boards()),
                       what="A2's board with its deal")
        spectator.wait(lambda s: any(v["table"] == "A3" and v["status"] == "awaiting_td" for _, v in s.boards()),
                       what="A3 waiting for the director")
        yield st
    finally:
        spectator.stop()
        for t in tablets:
            t.stop()
        st.stop()


def cards(chromium: Chromium, url: str) -> dict[str, str]:
    """Each table's card as Chromium drew it: its text, one line per element."""
    dom = chromium.dump_dom(url)
    found = {}
    for table, body in re.findall(r'<article class="table" id="table-(\w+)">(.*?)</article>', dom, re.S):
        found[table] = body
    return found


def text(card: str) -> str:
    return unescape(re.sub(r"\s*\n\s*", "\n", re.sub(r"<[^>]+>", "\n", card))).strip()


def english_left(card: str) -> list[str]:
    """The English words still on a card (its text and its cells' titles)."""
    said = text(card) + "\n" + "\n".join(unescape(t) for t in re.findall(r'title="([^"]*)"', card))
    return [w for w in ENGLISH if re.search(rf"\b{w}\b", said)]


def check(chromium: Chromium, url: str, lang: str) -> dict[str, str]:
    found = cards(chromium, url)
    assert set(found) == {"A1", "A2", "A3"}, found.keys()
    want = SAID[lang]
    for table in ("A3", "A2"):
        lines = text(found[table]).split("\n")
        for line in want[table]:
            assert line in lines, (table, line, lines)
    a3, a2 = found["A3"], found["A2"]
    assert re.findall(r"<th>([^<]*)</th>", a3) == want["seats"]
    cells = re.findall(r'<td class="call[^"]*"[^>]*>([^<]*)</td>', a3)
    assert cells == [want["nt"], "X", want["pass"]], cells  # the insufficient bid: in its mark
    assert re.findall(r'<td class="call alert"[^>]*title="([^"]*)"', a3) == [want["alerted"]]
    assert re.findall(r'<td class="call[^"]*"[^>]*>([^<]*)</td>', a2)[-3:] == [want["pass"]] * 3
    # the deal, seat by seat, the ranks as the language writes them (Swedish and Danish E D Kn)
    ranks = {"A": "E", "Q": "D", "J": "Kn"} if lang != "en" else {}
    hands = deal_of(BOARD)

    def hand(seat: str) -> str:
        return " ".join(suit + re.sub("[AQJ]", lambda r: ranks.get(r[0], r[0]), cards)
                        for suit, cards in zip("\u2660\u2665\u2666\u2663", hands[seat], strict=True))
    letter = dict(zip("WNES", want["seats"], strict=True))
    assert re.findall(r'<div class="deal">([^<]*)</div>', a2) == ["; ".join(f"{letter[seat]}: {hand(seat)}"
                                                                           for seat in "NESW")]
    return found


@pytest.mark.parametrize("lang", ["sv", "da"])
def test_the_tables_cards_are_in_swedish_and_danish_with_no_english_left(station, chromium, lang):
    found = check(chromium, f"{station.url}/live/?lang={lang}", lang)
    left = {table: [w for w in english_left(card) if w not in SHARED[lang]] for table, card in found.items()}
    assert left == {"A1": [], "A2": [], "A3": []}


@pytest.mark.parametrize("query", ["", "?lang=fr", "?lang=en"])
def test_the_page_stays_english_by_default_and_for_a_language_it_does_not_have(station, chromium, query):
    found = check(chromium, f"{station.url}/live/{query}", "en")
    # The English page says every word of the list: the Swedish and Danish pages' lack of them
    # means something.
    said = {word for card in found.values() for word in english_left(card)}
    assert sorted(set(ENGLISH) - said) == []


def test_FSB_L109A_an_imps_only_walkover_shows_its_imps_in_each_language(tmp_path, chromium):
    """docs/laws/choices.md #46: in an event scored in IMPs only the walk-over has no VPs; the
    page shows the IMPs each team won (Avg+ / Avg- on each of 4 boards: 12 - 0)."""
    from .test_team_matches import station_match

    st = StationProcess(str(tmp_path / "station.db"), tmp_path, event=EVENT,
                        extra=["--profile", "fsb-2007", "--director-pin", PIN, "--live"]).start()
    spectator = Spectator(st.live_port).start().connected()
    try:
        client = DataConnectorClient("club-9", st.token, st.url)
        ok(client.initialize(teams_init(SESSION, [Room(1, 1, 2, 2), Room(2, 2, 1, 1)], (1, 4), method=40)))
        assert station_match(st, "walkover", "A1-A2:1v2", "2").returncode == 0
        spectator.wait(lambda s: any(k == "match" and d["walkover"] for _, k, d in s.events), what="the walk-over")
        for lang, line in (("en", "Team 1 v Team 2: walk-over: Team 2 did not appear (FSB L109A), 12 - 0 IMPs"),
                           ("sv", "Lag 1 – Lag 2: walk-over: Lag 2 ställde inte upp (FSB L109A), 12 - 0 IMP"),
                           ("da", "Hold 1 – Hold 2: walk-over: Hold 2 mødte ikke op (FSB L109A), 12 - 0 IMP")):
            dom = chromium.dump_dom(f"{st.url}/live/?lang={lang}")
            assert re.findall(r'<div class="match"[^>]*>([^<]*)</div>', dom) == [line], lang
    finally:
        spectator.stop()
        st.stop()
