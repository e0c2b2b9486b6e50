"""What the scoring program wrote into the .bws beside the movement, as the club sees it: the
players (PlayerNumbers, PlayerNames) in the PBN and USEBIO exports of the evening, and the
Bridgemate settings (Settings) in the tablets' movement. The .bws is read over the real ODBC
path; the exports are read back by the independent readers (export_readers)."""
from __future__ import annotations

import sqlite3

from .export_readers import conforming_text, games, pair_no, tags, usebio_tree
from .test_bws_session import (
    EVENT,
    LAST,
    bws_station,
    create_bws,
    mitchell,
    player,
    result_record_for,
    rows,
    wait_for,
)
from .test_export_standards import fetch


def export(st, kind: str) -> bytes:
    return fetch(st, f"/export/{kind}")


def pbn_name(t: int, d: str) -> str:
    first, last = player(t, d)[1].split(" ")
    return f"{last}, {first}"


def test_the_exports_of_a_bws_evening_carry_the_players_ruter_seated(tmp_path):
    """Ruter seats the players in round 1 (PlayerNumbers; at table 4 by member number only, the
    names in PlayerNames). The pairs move (a Mitchell: EW up one table a round) and the players
    with them: each game of the PBN names the four players at that table in that round."""
    bws = tmp_path / "Måndag.bws"
    create_bws(bws, rounds=2)
    st = bws_station(tmp_path, bws)
    # Table 2 plays all of round 1 before round 2 (the station takes a round's results only then).
    first = mitchell(2, 1)
    played = [(1, 1, mitchell(1, 1)[5]), (4, 1, mitchell(4, 1)[5]),
              *((2, 1, b) for b in range(first[5], first[6] + 1)), (2, 2, mitchell(2, 2)[5])]
    try:
        for t, r, b in played:
            assert st.post_item("result", result_record_for(t, r, b))[0] == 201
        wait_for(lambda: len(rows(bws, "ReceivedData")) == len(played), "the results in the .bws")
        pbn = conforming_text(export(st, "pbn"))
        xml = usebio_tree(export(st, "usebio"))
    finally:
        st.stop()
    seen = {}
    for game in games(pbn):
        t = dict(tags(game))
        if "Table" in t:
            seen[(int(t["Table"]), int(t["Round"]))] = t
    assert set(seen) == {(t, r) for t, r, _ in played}
    for (t, r), tag in seen.items():
        ew_from = next(x for x in range(1, 5) if mitchell(x, 1)[4] == mitchell(t, r)[4])  # EW pair's first table
        assert (tag["North"], tag["South"]) == (pbn_name(t, "N"), pbn_name(t, "S")), (t, r)
        assert (tag["East"], tag["West"]) == (pbn_name(ew_from, "E"), pbn_name(ew_from, "W")), (t, r)
        assert tag["Event"] == "Måndag"
    assert seen[(4, 1)]["North"] == "Åström, Anna"  # from PlayerNames by member number
    assert seen[(2, 2)]["East"] == "Berg, Bo"  # EW pair 1 moved from table 1 to table 2
    # USEBIO: each pair's PLAYERs with name and member number.
    pairs = {(p.findtext("DIRECTION"), pair_no(p.findtext("PAIR_NUMBER"))): p for p in xml.iter("PAIR")}
    assert [(x.findtext("PLAYER_NAME"), x.findtext("NATIONAL_ID_NUMBER")) for x in pairs[("NS", 4)].findall("PLAYER")] \
        == [(f"Anna {LAST[4]}", "400"), (f"Cecilia {LAST[4]}", "402")]
    assert [x.findtext("PLAYER_NAME") for x in pairs[("EW", 1)].findall("PLAYER")] == ["Bo Berg", "David Berg"]


def test_the_bws_settings_reach_the_tablets_as_the_data_connector_settings_do(tmp_path):
    """Ruter's Settings row for the section (results after the board, lead entry, auction recording)
    is in the movement each tablet fetches, in the Data Connector's Bridgemate 2 field names and in
    plain words; a change the scorer makes mid-evening is served without a restart."""
    bws = tmp_path / "Tisdag.bws"
    create_bws(bws, rounds=1)
    st = bws_station(tmp_path, bws)
    headers = st.table_headers(f"{EVENT}/A/3")
    try:
        wait_for(lambda: st.request("GET", "/api/v1/movement", headers=headers)[0] == 200, "the movement")
        s = st.request("GET", "/api/v1/movement", headers=headers)[1]["settings"]
        assert (s["show_results"], s["lead_entry"], s["score_recap"], s["next_seating"]) == ("all", "enter", True, False)
        bm2 = s["bm2"]
        assert (bm2["ShowResults"], bm2["LeadCard"], bm2["BM2RecordBidding"], bm2["BM2RecordPlay"]) == \
            (True, True, True, False)
        assert "BM2PINcode" not in bm2 and "5431" not in str(s)  # the Bridgemates' TD PIN stays in the file
        db = sqlite3.connect(bws)
        db.execute("UPDATE [Settings] SET [BM2ValidateLeadCard] = 1, [BM2RecordBidding] = 0, [ShowResults] = 0, "
                   "[ShowOwnResult] = 1")
        db.commit()
        db.close()

        def changed():
            s = st.request("GET", "/api/v1/movement", headers=headers)[1]["settings"]
            return s if s["lead_entry"] == "validate" else None

        s = wait_for(changed, "the changed settings in the movement")
        assert (s["show_results"], s["bm2"]["BM2RecordBidding"]) == ("own", False)
    finally:
        st.stop()
