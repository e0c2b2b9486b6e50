"""Exports against poisoned items already in the store: a text field that tries to
forge PBN tags, numbers that are not numbers, a date that is no date, an adjusted score without
its values. The station's door may refuse such items today; these tests put them straight into
the store, as an older station or a copied database would have them, and the exports must still
be whole, readable and honest."""
import math

import pytest

from station import exports
from station.store import Store

from .conftest import EVENT, result_record
from .export_readers import check_export_lines, endplay_boards, games, tags, usebio_tree

FORGE = 'x"]\r\n[Contract "7NT"]\r\n[Result "13"]\r\n{ } [Score "NS 2220"] \\'


@pytest.fixture
def store(tmp_path):
    s = Store(str(tmp_path / "station.db"))
    yield s
    s.close()


def put(store, rec, revision=1):
    store.put_item(rec["key"], "result", rec, event=rec["event"], section=rec["section"], table_no=rec["table"],
                   round_no=rec["round"], board=rec["board"], revision=revision)


def test_forged_tags_in_texts_stay_inside_their_string_or_comment(store):
    # An irregularity kind, a ruling, an alert explanation and a resolution carrying a newline,
    # quotes, brackets and braces: each one tries to add [Contract "7NT"] and [Result "13"].
    auction = [{"seat": "N", "call": "1H", "alerted": True, "explanation": FORGE, "think": 2.0},
               {"seat": "E", "call": "PASS", "think": 1.0},
               {"seat": "S", "call": "4H", "think": 3.0},
               {"seat": "W", "call": "PASS"}, {"seat": "N", "call": "PASS"}, {"seat": "E", "call": "PASS"}]
    put(store, result_record(table=1, auction=auction, irregularities=[
        {"kind": FORGE, "seat": "E", "index": 1, "resolution": FORGE, "law": FORGE},
        {"kind": "insufficient_bid", "seat": "E", "call": "7NT", "ruling": FORGE}]))
    text = exports.pbn_for_event(store, EVENT)
    raw = text.encode("utf-8")
    check_export_lines(text)  # every line is a tag, a comment, a call line or a time row
    (game,) = games(text)
    names = [name for name, _ in tags(game)]
    assert names.count("Contract") == 1 and names.count("Result") == 1 and names.count("Score") == 1
    assert not any(line.startswith(('[Contract "7NT"', '[Result "13"', '[Score "NS 2220"')) for line in game)
    (board,) = endplay_boards(raw)
    assert (board.contract.level, board.contract.denom.name, board.contract.declarer.abbr) == (4, "hearts", "S")
    assert board.contract.result == 0 and board.info["Score"] == "NS 420"
    # The texts are still there for a human to read, escaped.
    assert '(Contract \\"7NT\\")' in board.auction[0].announcement


def test_poisoned_numbers_dates_and_adjusted_scores_never_break_an_export(store):
    nan_think = [{"seat": "N", "call": "1H", "think": math.nan}, {"seat": "E", "call": "PASS", "think": 1e300},
                 {"seat": "S", "call": "4H", "think": -5}, {"seat": "W", "call": "PASS", "think": "soon"},
                 {"seat": "N", "call": "PASS", "think": 2.0}, {"seat": "E", "call": "PASS", "think": 1.0}]
    put(store, result_record(table=1, auction=nan_think, entered_at="garbage",
                             td_calls=[{"at": 1e300}, {"at": math.nan}]))
    put(store, result_record(table=2, ns_pair=2, ew_pair=12, contract=None, declarer=None, tricks=None, lead=None,
                             score_ns=None, adjusted={"kind": "artificial"}, auction=[]))  # no ns / ew
    put(store, result_record(table=3, ns_pair=3, ew_pair=13, score_ns=450, tricks=11,
                             entered_at="2026-13-45T99:99:99Z", lead="X\u202eS"))
    put(store, result_record(table=4, ns_pair=4, ew_pair=14, contract="4H", tricks=10, score_ns=420,
                             auction=[{"seat": "N", "call": "1H\x00\x1b[2J", "alerted": True,
                                       "explanation": "kl\u00f6ver \x07\u2028"}]))
    long = "y" * 400
    chatty = [{"seat": s, "call": c, "alerted": True, "explanation": long}
              for s, c in zip("NESWNESW", ["1C", "1D", "1H", "1S", "PASS", "PASS", "PASS"], strict=False)]
    put(store, result_record(table=5, ns_pair=5, ew_pair=15, contract="1S", declarer="W", tricks=7, score_ns=-80,
                             auction=chatty, irregularities=[{"kind": long, "seat": "W", "index": 3, "law": long},
                                                             {"kind": long, "seat": "W", "index": 3}]))
    text = exports.pbn_for_event(store, EVENT)
    raw = text.encode("utf-8")
    check_export_lines(text)  # ... which holds every line to 255 characters
    boards = {b.info["Table"]: b for b in endplay_boards(raw)}
    assert set(boards) == {"1", "2", "3", "4", "5"}
    rows = boards["1"].info["AuctionTimeTable"]["rows"]
    assert rows[:5] == [["?", "?"], ["?", "?"], ["?", "?"], ["?", "?"], ["00:02", "?"]]
    game1 = next(g for g in games(text) if '[Table "1"]' in g)
    assert '[Date "2026.11.22"]' in game1  # the session's date, not the poisoned entry time
    assert boards["2"].contract is None
    game2 = next(g for g in games(text) if '[Table "2"]' in g)
    assert "{Adjusted score, artificial: values missing}" in game2

    xml = exports.usebio_for_event(store, EVENT).encode("utf-8")
    root = usebio_tree(xml)
    assert root.findtext("EVENT/DATE") == "22/11/2026"  # from the valid dates; "garbage", "2026-13-45" skipped
    lines = {t.findtext("NS_PAIR_NUMBER"): t for t in root.iterfind(".//TRAVELLER_LINE")}
    assert lines["2"].findtext("CONTRACT") == "?" and lines["2"].findtext("NS_MATCH_POINTS") == ""
    assert float(lines["3"].findtext("NS_MATCH_POINTS")) > float(lines["1"].findtext("NS_MATCH_POINTS"))
    assert lines["3"].findtext("LEAD") == ""
