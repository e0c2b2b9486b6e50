"""The station's own troubles on the director page in the TD's language, fetched over HTTP from a
running station: the `.bws` bridge's error (a real file locked, deleted, overwritten with garbage,
replaced by another session's), a team match the movement no longer holds (the rooms on other
boards, a team in one room only), and a damaged row written straight into the database. Each
reaches the page as a code with parameters (station/notices.py) and is said in Swedish and Danish
(station/notice_texts.py, the terms of docs/glossary.md); the English of the same messages is
gone from those pages, and stays on the English page, in status.json and in /api/v1/health."""
from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
from html import unescape
from typing import Any

import pytest
from bridgemate_dataconnector import DataConnectorClient

from .conftest import ROOT, StationProcess, result_record
from .team_play import Room, teams_init
from .test_bws_session import bws_station, create_bws, result_record_for, rows, wait_for
from .test_damaged_rows import result_text, write
from .test_director_names import ok

pytestmark = pytest.mark.server  # starts its own stations


def page_text(st, lang: str) -> str:
    code, page = st.request("GET", f"/director?token={st.token}&lang={lang}")
    assert code == 200 and isinstance(page, str), page
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", page)))


def check(st, said: dict[str, list[str]], english: list[str]) -> None:
    """Each language's words on its page, and none of the English."""
    for lang, words in said.items():
        text = page_text(st, lang)
        missing = [w for w in words if w not in text]
        left = [w for w in english if w in text]
        assert (missing, left) == ([], []), (lang, text[:3000])


def session_row(path, name: str, date: str) -> None:
    db = sqlite3.connect(path)
    db.execute("INSERT INTO [Session] ([ID], [Name], [Date], [GUID]) VALUES (1, ?, ?, ?)",
               (name, date, os.urandom(8).hex()))
    db.commit()
    db.close()


LOCKED = ["is locked by another program", "nothing was written", "the station tries again"]
MISSING = ["no such file", "the scoring program re-creating it", "the results are kept and written"]
UNREADABLE = ["cannot be read as a database", "the scoring program may be writing it", "nothing was written"]
REPLACED = ["was replaced", "by a file the earlier results do not fit", "the file names another session",
            "Nothing is written into it until the TD answers", "the path names another file"]


def test_the_bws_bridges_errors_in_swedish_and_danish(tmp_path):
    bws = tmp_path / "Mandag.bws"
    create_bws(bws, rounds=1)
    session_row(bws, "Mandag", "2026-11-23")
    st = bws_station(tmp_path, bws)
    lock = sqlite3.connect(bws, isolation_level=None)
    try:
        assert st.post_item("result", result_record_for(1, 1, 1))[0] == 201
        wait_for(lambda: len(rows(bws, "ReceivedData")) == 1, "the result in the .bws")
        # locked (the scoring program compacting it)
        lock.execute("BEGIN EXCLUSIVE")
        assert st.post_item("result", result_record_for(2, 1, 3))[0] == 201
        wait_for(lambda: "är låst av ett annat program" in page_text(st, "sv"), "the lock, in Swedish")
        check(st, {"sv": ["är låst av ett annat program", "inget skrevs, stationen försöker igen"],
                   "da": ["er låst af et andet program", "intet blev skrevet, stationen prøver igen"]}, LOCKED)
        assert "is locked by another program" in page_text(st, "en")  # the English page keeps its words
        lock.execute("ROLLBACK")
        wait_for(lambda: len(rows(bws, "ReceivedData")) == 2, "the result once the file is free")
        # missing (the scoring program re-creating it)
        kept = bws.read_bytes()
        bws.unlink()
        wait_for(lambda: "filen finns inte" in page_text(st, "sv"), "the missing file, in Swedish")
        check(st, {"sv": ["filen finns inte (skapar tävlingsdatorn den på nytt?)", "resultaten sparas"],
                   "da": ["filen findes ikke (er regnskabsprogrammet ved at oprette den igen?)",
                          "resultaterne gemmes"]}, MISSING)
        code, health = st.request("GET", "/api/v1/health")  # the API keeps its English
        assert code == 200 and health["problems"][0].startswith("the .bws file is missing")
        # garbage (half written)
        bws.write_bytes(os.urandom(4096))
        wait_for(lambda: "kan inte läsas som en databas" in page_text(st, "sv"), "the garbage file, in Swedish")
        check(st, {"sv": ["kan inte läsas som en databas", "tävlingsdatorn skriver kanske i den"],
                   "da": ["kan ikke læses som en database", "regnskabsprogrammet skriver måske i den"]}, UNREADABLE)
        # put back, then replaced by a file of another session: the TD's question
        back = tmp_path / "back.bws"
        back.write_bytes(kept)
        os.replace(back, bws)
        wait_for(lambda: "den saknades eller var oläslig" in page_text(st, "sv"), "the file back, in Swedish")
        new = tmp_path / "new.bws"
        create_bws(new, rounds=1)
        session_row(new, "Onsdag", "2026-11-25")
        os.replace(new, bws)
        wait_for(lambda: "av en fil som de tidigare resultaten inte passar in i" in page_text(st, "sv"),
                 "the replaced file, in Swedish")
        check(st, {"sv": ["har ersatts (sökvägen pekar på en annan fil", "filen anger en annan omgång",
                          "Inget skrivs in i den förrän tävlingsledaren svarar"],
                   "da": ["er blevet erstattet (stien peger på en anden fil", "filen angiver en anden session",
                          "Intet skrives ind i den, før turneringslederen svarer"]}, REPLACED)
        assert "the file names another session" in page_text(st, "en")
    finally:
        lock.close()
        st.stop()


SESSION = "7EA45E55000000000000000000000A03"


def test_a_team_match_the_movement_no_longer_holds_in_swedish_and_danish(tmp_path):
    """The TD set a match on a pairs movement (FSB 110A); then the scoring program sent the
    movement again with the closed room on other boards, and again with another team there."""
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=["--profile", "fsb-2007"]).start()
    try:
        client = DataConnectorClient("club-9", st.token, st.url)

        def pairs(rooms: list[Room], closed_boards: tuple[int, int] = (1, 4)) -> None:
            init = teams_init(SESSION, rooms, (1, 4), method=10, mates=False, show_results=False)
            sec: Any = init.sessions[0].scoring_groups[0].sections[0]  # type: ignore[index]
            sec.game_type = 10
            for t in sec.tables:
                t.rounds[0].team_ns = t.rounds[0].team_ew = 0
            sec.tables[1].rounds[0].low_board_number, sec.tables[1].rounds[0].high_board_number = closed_boards
            ok(client.initialize(init))

        pairs([Room(1, 1, 2, 0), Room(2, 2, 1, 0)])
        done = subprocess.run([sys.executable, "-m", "station", "match", "--db", st.db, "set", "A1", "A2"], cwd=ROOT,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        pairs([Room(1, 1, 2, 0), Room(2, 2, 1, 0)], closed_boards=(5, 8))  # the closed room on other boards
        check(st, {"sv": ["match A1-A2 uppsatt av tävlingsledaren: bord A1 rond 1 spelar brickorna 1-4 men bord A2 "
                          "rond 1, det andra rummet för lag 1 mot lag 2, spelar brickorna 5-8: en matchs två rum "
                          "spelar samma brickor"],
                   "da": ["kamp A1-A2 sat op af turneringslederen: bord A1 runde 1 spiller spillene 1-4, men bord A2 "
                          "runde 1, det andet rum for hold 1 mod hold 2, spiller spillene 5-8: en kamps to rum "
                          "spiller de samme spil"]},
              ["set by the TD", "plays boards", "the other room of team", "the two rooms of a match"])
        assert "match A1-A2 set by the TD: table A1 round 1 plays boards 1-4 but table A2 round 1" in page_text(st, "en")
        pairs([Room(1, 1, 2, 0), Room(2, 3, 1, 0)])  # team 3 at the closed room: team 2 and 3 in one room only
        check(st, {"sv": ["vid bord A1 rond 1 sitter lag 1 (NS) och 2 (ÖV) men vid bord A2 rond 1, dess andra rum, "
                          "sitter 3 och 1: lag 2, 3 skulle spela i bara ett rum"],
                   "da": ["ved bord A1 runde 1 sidder hold 1 (NS) og 2 (ØV), men ved bord A2 runde 1, dets andet rum, "
                          "sidder 3 og 1: hold 2, 3 ville kun spille i ét rum"]},
              ["set by the TD", "seats teams", "its other room", "would play in one room only"])
    finally:
        st.stop()


def test_a_damaged_rows_reason_in_swedish_and_danish(sqlite_station):
    st = sqlite_station
    assert st.post_item("result", result_record(table=1, board=1, ns_pair=1, ew_pair=5))[0] == 201
    key, p = result_text(table=2, revision=1)
    p["table"] = 3  # the payload names another table than its key
    write(st.db, [{"key": key, "kind": "result", "payload": json.dumps(p), "cols": {"revision": 1}}])
    key2, p2 = result_text(table=2, revision=2)
    write(st.db, [{"key": key2, "kind": "result", "payload": "{not json", "cols": {"revision": 2}}])
    check(st, {"sv": ["payload.table är 3, nyckeln säger 2", "innehållet är ingen JSON:"],
               "da": ["payload.table er 3, nøglen siger 2", "indholdet er ikke JSON:"]},
          ["its key says", "the payload is not JSON"])
    code, doc = st.request("GET", "/director/status.json", headers={"Authorization": f"Bearer {st.token}"})
    assert code == 200
    why = sorted(d["why"] for d in doc["damaged"])  # status.json keeps the English, and the code beside it
    assert why[0] == "payload.table is 3, its key says 2" and why[1].startswith("the payload is not JSON: ")
    assert {d["notice"]["code"] for d in doc["damaged"]} == {"stored.payload", "stored.not_json"}
