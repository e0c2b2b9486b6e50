"""The .bws bridge's pure parts: values as BCS writes them, and what each tablet item adds to
the file (BiddingData with Erased and SkipBid, PlayData, ReceivedData, corrections)."""
import datetime

import pytest

from station.bws import schema
from station.bws.boardlog import BoardLog
from station.bws.formats import (
    bid_text,
    card_text,
    contract_text,
    counter_for,
    play_card_text,
    received_values,
    result_text,
    slots,
)

EVENT = "club-2026-11-22"


def test_values_are_written_as_the_scoring_programs_parse_them():
    assert [contract_text(c) for c in ("3NTX", "4S", "6HXX", "1C", "PASS")] == \
        ["3 NT x", "4 S", "6 H xx", "1 C", "PASS"]
    assert [result_text("3NT", t) for t in (9, 10, 7)] == ["=", "+1", "-2"]
    assert result_text("PASS", None) == ""
    assert [card_text(c) for c in ("HT", "H10", "sa", None)] == ["H10", "H10", "SA", ""]
    assert [play_card_text(c) for c in ("HT", "H10", "SA", "C2", None)] == ["TH", "TH", "AS", "2C", ""]
    assert [bid_text(c) for c in ("P", "PASS", "X", "XX", "1NT", "7C")] == ["PASS", "PASS", "x", "xx", "1NT", "7C"]
    with pytest.raises(ValueError):
        contract_text("8NT")


def test_a_turn_lost_to_an_accepted_call_out_of_rotation_is_a_skipbid():
    # Dealer East; South calls 1S out of rotation, accepted (L29A): East's turn is lost.
    calls = [{"seat": "S", "call": "1S"}, {"seat": "W", "call": "P"}, {"seat": "N", "call": "4S"}]
    assert slots(calls, "E") == [("E", "SkipBid"), ("S", "1S"), ("W", "PASS"), ("N", "4S")]
    # A call out of rotation waiting for the TD sits in the offender's own turn.
    assert counter_for("S", 0, "E") == 1 and counter_for("E", 0, "E") == 0 and counter_for("N", 1, "N") == 4


def test_declarer_is_the_declaring_pair_and_an_artificial_score_says_which():
    rec = {"table": 3, "round": 2, "board": 5, "ns_pair": 7, "ew_pair": 12, "contract": "3NTX",
           "declarer": "W", "tricks": 10, "lead": "HT", "adjusted": None}
    v = received_values(rec, 1)
    assert (v["Declarer"], v["NS/EW"], v["Contract"], v["Result"], v["LeadCard"], v["Remarks"]) == \
        (12, "W", "3 NT x", "+1", "H10", "")
    art = received_values({**rec, "contract": None, "declarer": None, "tricks": None, "lead": None,
                           "adjusted": {"kind": "artificial", "ns": "avg+", "ew": "avg-"}}, 1)
    assert (art["Declarer"], art["NS/EW"], art["Contract"], art["Result"], art["Remarks"]) == \
        (0, "", "", "", "Avg+/Avg-")
    passed = received_values({**rec, "contract": "PASS", "declarer": None, "tricks": None, "lead": None}, 1)
    assert (passed["Contract"], passed["Declarer"], passed["NS/EW"], passed["LeadCard"]) == ("PASS", 0, "", "")


def _item(i, kind, payload, key=None):
    return {"id": i, "kind": kind, "key": key or f"{EVENT}/A/1/1/1/{kind}/{i}", "payload": payload}


def _bids(rows):
    return [(v["Counter"], v["Direction"], v["Bid"], v["Erased"]) for t, v in rows if t == "BiddingData"]


def test_an_insufficient_bid_replaced_is_erased_where_it_was_made():
    log = BoardLog(1, 1, 1, 1, "N")
    irr = {"kind": "insufficient_bid", "seat": "E", "call": "1D", "t": 2.0, "resolution": None}
    frozen = _item(1, "auction", {"calls": [{"seat": "N", "call": "1H"}], "irregularities": [irr],
                                  "at": "2026-11-22T19:00:00Z"})
    assert _bids(log.apply(frozen)) == [(0, "N", "1H", False), (1, "E", "1D", False)]
    done = {**irr, "resolution": "replaced_insufficient"}
    calls = [{"seat": "N", "call": "1H"}, {"seat": "E", "call": "2D"}, {"seat": "S", "call": "P"},
             {"seat": "W", "call": "P"}, {"seat": "N", "call": "P"}]
    rec = {"table": 1, "round": 1, "board": 1, "ns_pair": 1, "ew_pair": 2, "contract": "2D", "declarer": "E",
           "tricks": 8, "lead": "SK", "adjusted": None, "auction": calls, "irregularities": [done],
           "entered_at": "2026-11-22T19:05:00Z"}
    rows = log.apply(_item(2, "result", rec, key=f"{EVENT}/A/1/1/1/1"))
    assert _bids(rows) == [(1, "E", "1D", True), (1, "E", "2D", False), (2, "S", "PASS", False),
                           (3, "W", "PASS", False), (4, "N", "PASS", False)]
    assert [(t, v.get("Card"), v.get("Direction")) for t, v in rows if t == "PlayData"] == [("PlayData", "KS", "S")]
    [(table, received)] = [r for r in rows if r[0] == "ReceivedData"]
    assert (received["Contract"], received["Result"], received["Declarer"], received["Erased"]) == ("2 D", "=", 2, False)
    assert received["TimeLog"].date() == datetime.date(1899, 12, 30)
    # The same result again, or a snapshot after it, adds nothing.
    assert log.apply(_item(3, "result", rec, key=f"{EVENT}/A/1/1/1/1")) == []
    assert log.apply(_item(4, "auction", {"calls": [], "irregularities": [], "at": "2026-11-22T19:06:00Z"})) == []


def test_a_correction_erases_the_result_and_writes_the_board_again_later():
    log = BoardLog(1, 1, 1, 1, "N")
    calls = [{"seat": "N", "call": "4H"}, {"seat": "E", "call": "P"}, {"seat": "S", "call": "P"},
             {"seat": "W", "call": "P"}]
    rec = {"table": 1, "round": 1, "board": 1, "ns_pair": 1, "ew_pair": 2, "contract": "4H", "declarer": "N",
           "tricks": 10, "lead": "CA", "adjusted": None, "auction": calls, "irregularities": [],
           "entered_at": "2026-11-22T19:05:00Z"}
    first = log.apply(_item(1, "result", rec, key=f"{EVENT}/A/1/1/1/1"))
    fixed = log.apply(_item(2, "result", {**rec, "tricks": 9, "entered_at": "2026-11-22T19:20:00Z"},
                            key=f"{EVENT}/A/1/1/1/2"))
    received = [v for t, v in fixed if t == "ReceivedData"]
    assert [(v["Result"], v["Erased"]) for v in received] == [("=", True), ("-1", False)]
    assert received[0]["TimeLog"] < received[1]["TimeLog"]
    bids = [v for t, v in fixed if t == "BiddingData"]
    assert _bids(fixed) == _bids(first) and all(b["TimeLog"] > received[0]["TimeLog"] for b in bids)
    # An older revision arriving late changes nothing.
    assert log.apply(_item(3, "result", rec, key=f"{EVENT}/A/1/1/1/1")) == []


def test_the_schema_builds_for_access_and_sqlite_and_says_what_a_file_lacks():
    access = schema.ddl("access")
    assert any("[NS/EW] TEXT(2)" in s and "[ID] COUNTER" in s for s in access)
    assert any("[Erased] BIT" in s for s in schema.ddl("sqlite"))
    present = {t.lower(): {c for c, _ in cols} for t, cols in schema.TABLES.items()}
    assert schema.missing(present) == []
    del present["biddingdata"]
    present["receiveddata"].discard("LeadCard")
    assert schema.missing(present) == ["ReceivedData.LeadCard", "BiddingData"]


def test_a_changed_call_replaces_the_call_at_its_own_turn():
    # North bids 1H and at once 1S (L25): the TD rules the 1H unintended; 1S takes counter 0.
    log = BoardLog(1, 1, 1, 1, "N")
    irr = {"kind": "change_of_call", "seat": "N", "call": "1S", "t": 2.0, "resolution": None, "replaces": "1H"}
    assert _bids(log.apply(_item(1, "auction", {"calls": [{"seat": "N", "call": "1H"}], "irregularities": [irr],
                                                "at": "2026-11-22T19:00:00Z"}))) == [(0, "N", "1H", False)]
    after = log.apply(_item(2, "auction", {"calls": [{"seat": "N", "call": "1S"}],
                                           "irregularities": [{**irr, "resolution": "unintended"}],
                                           "at": "2026-11-22T19:01:00Z"}))
    assert _bids(after) == [(0, "N", "1H", True), (0, "N", "1S", False)]


def test_players_from_the_bws_as_the_scoring_program_left_them():
    from station.bws.session import people, settings, split_name

    assert split_name("Berg, Anna") == ("Anna", "Berg")
    assert split_name("  Anna   von Berg ") == ("Anna von", "Berg")
    assert split_name("Åström") == ("", "Åström")
    session = {"sections": {1: "A", 2: "B"},
               "player_names": [{"ID": 101, "Name": "Ek, Bo", "strID": None},
                                {"ID": 0, "Name": "Nobody", "strID": "S-7"}],
               "players": [
                   {"Section": 1, "Table": 1, "Direction": "N", "Number": "100", "Name": "Anna Berg", "Round": 0},
                   {"Section": 1, "Table": 1, "Direction": "E", "Number": "101", "Name": "", "Round": 1},
                   {"Section": 1, "Table": 1, "Direction": "S", "Number": "0", "Name": "Cilla Lind", "Round": 1},
                   {"Section": 1, "Table": 1, "Direction": "W", "Number": "S-7", "Name": "", "Round": 1},
                   {"Section": 2, "Table": 3, "Direction": "N", "Number": "", "Name": "", "Round": 1},  # nobody
                   {"Section": 9, "Table": 1, "Direction": "N", "Number": "5", "Name": "X Y", "Round": 1},  # no section 9
                   {"Section": 1, "Table": 2, "Direction": "Z", "Number": "6", "Name": "X Y", "Round": 1},
                   {"Section": 1, "Table": 1, "Direction": "N", "Number": "102", "Name": "Dan Holm", "Round": 3}],
               "settings": [{"Section": 1, "ShowResults": -1, "LeadCard": 0, "BM2RecordBidding": 1,
                             "BM2ResultsOverview": 2}, {"Section": 7, "ShowResults": 1}]}
    players, seats = people(session)
    assert sorted((p["number"], p["first_name"], p["last_name"]) for p in players) == [
        ("100", "Anna", "Berg"), ("101", "Bo", "Ek"), ("102", "Dan", "Holm"), ("S-7", None, "Nobody")]
    assert [(s["section"], s["table"], s["round"], s["direction"], s["number"], s["last_name"]) for s in seats] == [
        ("A", 1, 1, "N", "100", "Berg"), ("A", 1, 1, "E", "101", "Ek"), ("A", 1, 1, "S", None, "Lind"),
        ("A", 1, 1, "W", "S-7", "Nobody"), ("A", 1, 3, "N", "102", "Holm")]
    [(letter, dto)] = settings(session)
    assert letter == "A" and (dto["ShowResults"], dto["LeadCard"], dto["BM2RecordBidding"]) == (True, False, True)
    assert dto["BM2ResultsOverview"] == 2 and dto["ShowOwnResult"] is False and "BM2PINcode" not in dto
