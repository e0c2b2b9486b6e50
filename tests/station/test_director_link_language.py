"""The director page's last English, in the TD's language: the scoring-program line (the Data
Connector and its sessions), the team-match section (match, rooms, running score, VPs) and the
refusals a table got, in Swedish and Danish as the federations' law texts word them (lag, match,
öppet/slutet rum; hold, kamp, åbent/lukket rum; IMP, VP), laid out by a real Chromium at a desk's
and at a phone's width with nothing clipped. The English page keeps its words (tests of the
matches read them)."""
from __future__ import annotations

import re
from html import unescape
from urllib.parse import quote

from bridgemate_dataconnector import DataConnectorClient
from bridgemate_dataconnector.dto import ResultDTO, TdCallDTO

from .conftest import EVENT, result_record
from .team_play import Room, teams_init
from .test_director_language import get, measure
from .test_director_names import ok

SESSION = "7EA45E55000000000000000000000A02"

# the page's words per language; and English left on a Swedish or Danish page
WORDS = {
    "sv": ["Länk till tävlingsdatorn: Bridgemate Data Connector", "0 resultat hämtade av tävlingsdatorn",
           "Lagmatcher (1)", "Hemmalaget först", "öppet rum A1, slutet rum A2 (rond 1)", "Lag 1 – Lag 2",
           "när matchen är klar", "Räknade brickor", "rörelseschemat",
           "bricka 20 spelas inte vid bord A1 i rond 1 (rörelseschemat ger brickorna 1, 2, 3, 4)", "bords-id",
           "Från tävlingsdatorn (2)", "bord A2, rond 1, bricka 3: 4S= V (lagt in",
           "bord A1, rond 1: TL-tillkallelse tillkallad kl. 20:05"],
    "da": ["Forbindelse til regnskabsprogrammet: Bridgemate Data Connector", "0 resultater hentet af regnskabsprogrammet",
           "Holdkampe (1)", "Hjemmeholdet først", "åbent rum A1, lukket rum A2 (runde 1)", "Hold 1 – Hold 2",
           "når kampen er færdig", "Regnede spil", "turneringsplanen",
           "spil 20 spilles ikke ved bord A1 i runde 1 (turneringsplanen giver spillene 1, 2, 3, 4)", "bord-id",
           "Fra regnskabsprogrammet (2)", "bord A2, runde 1, spil 3: 4S= V (lagt ind",
           "bord A1, runde 1: TL-tilkald tilkaldt kl. 20:05"],
}
ENGLISH = ["Scoring program link", "results taken by the scoring program", "Team matches", "Home team first",
           "open A1", "closed A2", "when complete", "Boards scored", "Set by", "is not played at table",
           "none taken yet", "not polled yet", "table id", "From the scoring program", "TD call", "(put ", "Team "]


def test_the_scoring_link_team_matches_and_refusals_in_swedish_and_danish_fit_a_desk_and_a_phone(
        sqlite_station, chromium, tmp_path):
    st = sqlite_station
    client = DataConnectorClient("club-9", st.token, st.url)
    ok(client.initialize(teams_init(SESSION, [Room(1, 1, 2, 2), Room(2, 2, 1, 1)], (1, 4))))
    # the scoring program's own result and TD call (PutResults, PutTdCalls), listed apart
    ok(client.send_results(SESSION, [ResultDTO(
        session_guid=SESSION, section_letters="A", table_number=2, round_number=1, board_number=3,
        scoring_direction=3, pair_north_south=2, pair_east_west=1, declaring_pair=1, level=4, denomination=4,
        stake=0, declarer_direction=4, total_tricks=10)]))
    ok(client.send_td_calls(SESSION, [TdCallDTO(session_guid=SESSION, section_letters="A", table_number=1,
                                                round_number=1, hour=20, minute=5,
                                                status=TdCallDTO.TdCallStatus_Launched)]))
    # a result of a board the movement does not give table 1: refused (2017 L16D1 at the station)
    refused = result_record(table=1, board=20, ns_pair=1, ew_pair=2)
    assert st.post_item("result", refused)[0] == 422
    english = unescape(get(st, f"/director?event={quote(EVENT)}&lang=en"))
    assert "open A1, closed A2 (round 1)" in english and "Team 1 v Team 2" in english  # as before
    assert "Scoring program link: Bridgemate Data Connector" in english
    assert "table A2, round 1, board 3: 4S= W (put " in english and "table A1, round 1: TD call launched at 20:05" \
        in english
    for lang, words in WORDS.items():
        page = get(st, f"/director?event={quote(EVENT)}&lang={lang}")
        text = re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", page)))
        missing = [w for w in words if w not in text]
        assert missing == [], (lang, missing)
        left = [w for w in ENGLISH if w in text]
        assert left == [], (lang, left)
        sizes = ((1024, 768), (390, 844))
        laid_out = measure(chromium, [(page, width, height, tmp_path / f"link-{lang}-{width}.html")
                                      for width, height in sizes])
        for (width, _height), got in zip(sizes, laid_out, strict=True):
            where = (lang, width)
            assert got["page"] <= width, (where, got["page"])
            assert got["clipped"] == [], (where, got["clipped"])
