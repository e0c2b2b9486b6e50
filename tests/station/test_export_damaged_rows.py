"""Exports never fail on stored data: rows written straight into the station's database with every
kind of damage a copied, hand-edited or older database can hold (a payload that is no JSON or no
object, missing fields, wrong types, unknown kinds, keys that are no result's, huge values, a
correction that is itself damaged). The PBN and USEBIO files are still produced; every good
result is in them exactly as without the damage (read back by endplay, cobalt's and ImportUsebio's
logic); every damaged row is named by its key in a comment of the file."""
from __future__ import annotations

import json
import re

import pytest

from station import exports
from station.records import validate_item
from station.store import Store

from .conftest import EVENT, result_record
from .export_readers import check_export_lines, endplay_boards, games, tags, usebio_tree
from .usebio_readers import read_as_others_do


@pytest.fixture
def store(db_url, tmp_path):
    s = Store(db_url, str(tmp_path / "station.secrets"))
    yield s
    s.close()


def put(store, rec: dict) -> None:
    store.put_item(rec["key"], "result", rec, **validate_item("result", rec["key"], rec))


def raw_row(store, key, kind, payload, *, section="A", table=9, round_no=1, board=1, revision=1) -> None:
    """A row as a damaged database holds it: no door, no check."""
    with store.transaction() as tx:
        tx.execute("INSERT INTO items (item_key, kind, event, section, table_no, round_no, board, revision, digest, "
                   "payload, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (key, kind, EVENT, section, table, round_no, board, revision, "x", payload,
                    "2026-11-22T20:00:00Z"))


def good(table: int, board: int, **over) -> dict:
    return result_record(table=table, board=board, ns_pair=table, ew_pair=table + 4, **over)


def result_payload(table: int, board: int, /, **over) -> str:
    return json.dumps({k: v for k, v in good(table, board).items() if k != "key"} | over)


def key(table: int, board: int, revision: int = 1) -> str:
    return f"{EVENT}/A/{table}/1/{board}/{revision}"


# Each damaged row: (key, kind, payload text). The tables 5 and up are damaged only.
DAMAGED = [
    (key(5, 1), "result", "{not json"),                                  # a payload that is no JSON
    (key(5, 2), "result", "[1, 2, 3]"),                                  # JSON, not an object
    (key(5, 3), "result", "42"),
    (key(5, 4), "result", '"a string"'),
    (key(6, 1), "result", json.dumps({"contract": "4H"})),               # missing every field
    (key(6, 2), "result", result_payload(6, 2, board="2")),              # wrong types
    (key(6, 3), "result", result_payload(6, 3, table=6.0)),
    (key(6, 4), "result", result_payload(6, 4, section=7)),
    (key(6, 5), "result", result_payload(6, 5, round=True)),
    (key(6, 6), "result", result_payload(6, 6, board=3)),                # the key says board 6
    (key(6, 7), "result", result_payload(6, 7, withdrawn="no")),
    (key(7, 1), "result", result_payload(7, 1, board=10 ** 30)),         # huge values
    (key(7, 2), "result", '{"board": ' + "9" * 5000 + "}"),
    (key(7, 3), "result", result_payload(7, 3, lead="S" + "A" * 600_000)),
    (key(7, 4), "result", '{"auction": ' + "[" * 100_000 + "]" * 100_000 + "}"),
    ("garbage key", "result", result_payload(7, 5)),                     # no result's key
    ("x" * 20_000, "result", result_payload(7, 6)),
    (key(8, 1), "banana", result_payload(8, 1)),                         # unknown kinds
    (key(8, 2), "", result_payload(8, 2)),
    (key(8, 3), "Result", result_payload(8, 3)),
]
# Odd values in a row that reads: written as unknown, the rest of the result kept.
ODD = result_payload(4, 1, contract=44, tricks="ten", score_ns="420", auction="1H P", irregularities={"a": 1},
                     adjusted="yes", lead=5, entered_at=12, declarer=["S"], ns_pair="4", ew_pair=None,
                     td_calls="none")
# Nothing but where it was played: a traveller line of unknowns, no game in the scoring.
BARE = json.dumps({"section": "A", "table": 4, "round": 1, "board": 3})
# A dealer and vulnerability that are none: PBN's "?" (which endplay cannot read, so games
# without a dealer are checked by their tags alone).
NO_DEALER = result_payload(4, 2, dealer="Q", vulnerability=3)


def fill(store, damaged: bool) -> None:
    for t, b in ((1, 1), (2, 1), (1, 2), (2, 2), (3, 1), (3, 2), (1, 3), (2, 3)):
        put(store, good(t, b))
    if not damaged:
        return
    for k, kind, payload in DAMAGED:
        raw_row(store, k, kind, payload)
    raw_row(store, key(4, 1), "result", ODD, table=4)
    raw_row(store, key(4, 2), "result", NO_DEALER, table=4, board=2)
    raw_row(store, key(4, 3), "result", BARE, table=4, board=3)
    # A correction (Law 79C) that is itself damaged: the board's result is not known any more.
    raw_row(store, key(3, 2, 2), "result", "{broken correction", table=3, board=2, revision=2)
    if store.dialect == "sqlite":  # a BLOB that is no UTF-8 text (PostgreSQL's TEXT cannot hold one)
        raw_row(store, key(9, 1), "result", b"\xff\xfe\x00junk")


def pbn_games(text: str) -> dict[tuple[str, str], dict[str, str]]:
    return {(t["Table"], t["Board"]): t for t in (dict(tags(g)) for g in games(text)) if "Table" in t}


def test_pbn_and_usebio_keep_every_good_result_and_name_every_damaged_row(store, tmp_path):
    clean_store = Store(str(tmp_path / "clean.db"), str(tmp_path / "clean.secrets"))
    try:
        fill(clean_store, damaged=False)
        clean_pbn = exports.pbn_for_event(clean_store, EVENT)
        clean_usebio = exports.usebio_for_event(clean_store, EVENT)
    finally:
        clean_store.close()
    fill(store, damaged=True)

    text = exports.pbn_for_event(store, EVENT)
    check_export_lines(text)  # every line is one export format allows, under 255 characters
    no_dealer = pbn_games(text)[("4", "2")]
    assert (no_dealer["Dealer"], no_dealer["Vulnerable"], no_dealer["Contract"]) == ("?", "?", "4H")
    bare = pbn_games(text)[("4", "3")]
    assert (bare["Dealer"], bare["Contract"], bare["Declarer"], bare["Result"]) == ("?", "?", "?", "?")
    readable = "\r\n\r\n".join("\r\n".join(g) for g in [text.split("\r\n\r\n")[0].split("\r\n")] + games(text)
                               if '[Dealer "?"]' not in g)
    boards = {(b.info["Table"], str(b.board_num)): b for b in endplay_boards(readable.encode("utf-8"))}
    clean = {(b.info["Table"], str(b.board_num)): b for b in endplay_boards(clean_pbn.encode("utf-8"))}
    # The good results, exactly as without the damage; board 2 of table 3 only as its
    # correction would have it: the damaged correction leaves it out, never the old revision.
    assert set(boards) == set(clean) - {("3", "2")} | {("4", "1")}
    for k in set(clean) - {("3", "2")}:
        a, b = boards[k], clean[k]
        assert (a.contract, a.deal.to_pbn(), [str(c) for c in a.auction], a.info["Score"]) == \
            (b.contract, b.deal.to_pbn(), [str(c) for c in b.auction], b.info["Score"]), k
    odd = pbn_games(text)[("4", "1")]
    assert (odd["Contract"], odd["Declarer"], odd["Result"], odd["Dealer"]) == ("?", "?", "?", "N")
    assert "Score" not in odd and "PairNS" not in odd
    comments = [line for g in games(text) for line in g if line.startswith("{")]
    for k, kind, _ in DAMAGED:
        shown = re.sub(r"\s+", " ", k)[:60]
        assert any(shown in c and "damaged" in c.lower() for c in comments), (k[:80], kind)
    assert any(key(3, 2, 2) in c and "damaged" in c.lower() for c in comments)
    assert sum(1 for c in comments if "damaged" in c.lower()) == len(DAMAGED) + 1 + (store.dialect == "sqlite")
    assert "damaged" not in clean_pbn
    # Every row the files leave out is also on the director page's list (station/stored.py).
    listed = {d.key for d in store.damaged(EVENT)}
    assert {k[:200] for k, _, _ in DAMAGED} | {key(3, 2, 2)} <= listed  # it names a key by 200 characters

    raw = exports.usebio_for_event(store, EVENT).encode("utf-8")
    root = usebio_tree(raw)
    travellers = {(int(b.findtext("BOARD_NUMBER")), tl.findtext("NS_PAIR_NUMBER")): tl
                  for b in root.iter("BOARD") if b.find("TRAVELLER_LINE") is not None
                  for tl in b.findall("TRAVELLER_LINE")}
    clean_root = usebio_tree(clean_usebio.encode("utf-8"))
    clean_travellers = {(int(b.findtext("BOARD_NUMBER")), tl.findtext("NS_PAIR_NUMBER")): tl
                        for b in clean_root.iter("BOARD") if b.find("TRAVELLER_LINE") is not None
                        for tl in b.findall("TRAVELLER_LINE")}
    for k, tl in clean_travellers.items():
        if k == (2, "3"):
            assert k not in travellers  # the damaged correction
            continue
        assert [(c.tag, c.text) for c in tl if "MATCH_POINTS" not in c.tag] == \
            [(c.tag, c.text) for c in travellers[k] if "MATCH_POINTS" not in c.tag], k
    assert travellers[(1, "")].findtext("CONTRACT") == "?"  # the odd row of table 4: no pairs, no contract
    xml_comments = [c.text for c in root.iter() if callable(c.tag)]  # lxml: comments have a function tag
    for k, kind, _ in DAMAGED:
        shown = re.sub(r"\s+", " ", k)[:60].replace("--", "- -")
        assert any(shown in c and "damaged" in c.lower() for c in xml_comments), (k[:80], kind)
    others = read_as_others_do(raw, policy=False)
    clean_pairs = set(read_as_others_do(clean_usebio.encode("utf-8"), policy=False)["cobalt"]["pairs"])
    assert set(others["cobalt"]["pairs"]) == clean_pairs | {"4", "8"}  # the pairs of the no-dealer row


def test_damaged_rows_alone_still_give_both_files(store):
    for k, kind, payload in DAMAGED:
        raw_row(store, k, kind, payload)
    text = exports.pbn_for_event(store, EVENT)
    check_export_lines(text)
    assert endplay_boards(text.encode("utf-8")) == []
    root = usebio_tree(exports.usebio_for_event(store, EVENT).encode("utf-8"))
    assert root.find("EVENT") is not None


GUID = "0123456789ABCDEF0123456789ABCDEF"


def test_damaged_rows_of_the_scoring_programs_session_never_break_an_export(tmp_path):
    """The session's own rows (what the scoring program sent: its payload, sections, movement,
    hand records, players) damaged the same way: the files are still written, the results in
    them; what cannot be read is left out (no names, no deal, matchpoints)."""
    # SQLite only: PostgreSQL's typed columns cannot hold a text where a number belongs.
    store = Store(str(tmp_path / "station.db"), str(tmp_path / "station.secrets"))
    try:
        damage_the_session(store)
        text = exports.pbn_for_event(store, EVENT)
        check_export_lines(text)
        assert len(endplay_boards(text.encode("utf-8"))) == 8
        assert all(t["Event"] == "Tisdag" and t["Deal"].endswith("- - - -") for t in pbn_games(text).values())
        raw = exports.usebio_for_event(store, EVENT).encode("utf-8")
        root = usebio_tree(raw)
        assert root.find("EVENT").findtext("BOARD_SCORING_METHOD") == "MATCH_POINTS"
        assert len(list(root.iter("TRAVELLER_LINE"))) == 8
        read_as_others_do(raw, policy=False)
    finally:
        store.close()


def damage_the_session(store) -> None:
    fill(store, damaged=False)
    with store.transaction() as tx:
        tx.execute("INSERT INTO dc_session_ids (session_guid, event, tablet_event, event_guid, created_at) "
                   "VALUES (?, ?, ?, NULL, ?)", (GUID, EVENT, EVENT, "2026-11-22T18:00:00Z"))
        tx.execute("INSERT INTO dc_sessions (session_guid, event, name, payload, created_at) VALUES (?, ?, ?, ?, ?)",
                   (GUID, EVENT, "Tisdag", "{not json", "2026-11-22T18:00:00Z"))
        tx.execute("INSERT INTO dc_sections (session_guid, section, scoring_group, scoring_method, game_type) "
                   "VALUES (?, 'A', 'one', 'ten', 'x')", (GUID,))
        for t in (1, 2, 3):
            tx.execute("INSERT INTO dc_rounds (session_guid, section, table_no, round_no, low_board, high_board, "
                       "pair_ns, pair_ew) VALUES (?, 'A', ?, 1, 1, 3, ?, ?)", (GUID, t, t, t + 4))
        tx.execute("INSERT INTO dc_rounds (session_guid, section, table_no, round_no, low_board, high_board, "
                   "pair_ns, pair_ew) VALUES (?, 'A', 'x', 2, 1, 3, 'NS', 1e400)", (GUID,))
        tx.execute("INSERT INTO dc_handrecords (session_guid, section, board, deal, payload) VALUES (?, 'A', ?, ?, ?)",
                   (GUID, "one", "N:AKQ.. garbage", "[]"))
        tx.execute("INSERT INTO dc_handrecords (session_guid, section, board, deal, payload) VALUES (?, 'A', 2, ?, ?)",
                   (GUID, "not a deal", "{"))
        tx.execute("INSERT INTO dc_participations (session_guid, section, table_no, round_no, direction, "
                   "player_number, first_name, last_name, country_code) VALUES (?, 'A', 'x', 'y', 'N', '7', "
                   "'Anna', 'Berg', NULL)", (GUID,))


def test_a_team_match_with_damaged_rows_still_gives_both_files(tmp_path):
    """A teams section (the TD's `match teams A` on the session's movement): damaged result rows, a
    result with odd values in the match, and a damaged TD entry; the team files are still
    written, with the match's good boards and every damaged row named."""
    from station import match_store

    store = Store(str(tmp_path / "station.db"), str(tmp_path / "station.secrets"))
    try:
        with store.transaction() as tx:
            tx.execute("INSERT INTO dc_session_ids (session_guid, event, tablet_event, event_guid, created_at) "
                       "VALUES (?, ?, ?, NULL, ?)", (GUID, EVENT, EVENT, "2026-11-22T18:00:00Z"))
            tx.execute("INSERT INTO dc_sessions (session_guid, event, name, payload, created_at) VALUES (?, ?, ?, ?, ?)",
                       (GUID, EVENT, "Lag", "{}", "2026-11-22T18:00:00Z"))
            tx.execute("INSERT INTO dc_sections (session_guid, section, scoring_group, scoring_method, game_type) "
                       "VALUES (?, 'A', 1, 10, 10)", (GUID,))
            for table, ns, ew in ((1, 1, 2), (2, 2, 1)):  # team 1 v team 2, boards 1-3 in both rooms
                tx.execute("INSERT INTO dc_rounds (session_guid, section, table_no, round_no, low_board, high_board, "
                           "pair_ns, pair_ew) VALUES (?, 'A', ?, 1, 1, 3, ?, ?)", (GUID, table, ns, ew))
        match_store.set_teams(store, GUID, "A")
        for t, b in ((1, 1), (2, 1), (1, 2), (2, 2), (1, 3)):
            put(store, result_record(table=t, board=b, ns_pair=t, ew_pair=3 - t))
        for k, kind, payload in DAMAGED:
            raw_row(store, k, kind, payload)
        odd = json.loads(result_payload(2, 3, contract=44, tricks="ten", score_ns="420", declarer=["S"],
                                        adjusted="yes", ns_pair=2, ew_pair=1))
        raw_row(store, key(2, 3), "result", json.dumps(odd), table=2, board=3)
        with store.transaction() as tx:
            tx.execute("INSERT INTO team_matches (session_guid, entry, payload, created_at) VALUES (?, ?, ?, ?)",
                       (GUID, "match/junk", "{broken", "2026-11-22T18:30:00Z"))
        text = exports.pbn_for_event(store, EVENT)
        check_export_lines(text)
        assert {(t["Table"], t["Board"]) for t in pbn_games(text).values()} == \
            {("1", "1"), ("2", "1"), ("1", "2"), ("2", "2"), ("1", "3"), ("2", "3")}
        assert any(line.startswith("% Match Team 1 (home) v Team 2: 2 of 3 boards") for line in text.split("\r\n"))
        comments = [line for g in games(text) for line in g if line.startswith("{")]
        assert sum(1 for c in comments if "damaged" in c.lower()) == len(DAMAGED)
        root = usebio_tree(exports.usebio_for_event(store, EVENT, section="A").encode("utf-8"))
        assert root.find("EVENT").get("EVENT_TYPE") == "TEAMS"
        xml_comments = [c.text for c in root.iter() if callable(c.tag)]
        assert sum(1 for c in xml_comments if "damaged" in c.lower()) == len(DAMAGED)
    finally:
        store.close()
