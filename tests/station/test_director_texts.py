"""The director page's words: every text in Swedish, Danish and English, and every name the engine
can give an irregularity, a decision the table waits for, a ruling or a status has words (built from
the engine's own enums, so a new member without texts fails here)."""
import re
import string
import time

import pytest

from shared_rules.types import Decision, IrregularityKind, Resolution, Seat, Status
from shared_rules.vocabulary import IRREGULARITIES
from station import director_calls
from station import director_texts as tx


@pytest.mark.parametrize("table", sorted(tx.TABLES))
def test_every_text_is_in_swedish_danish_and_english_with_the_same_fields(table):
    for key, texts in tx.TABLES[table].items():
        assert set(texts) == set(tx.LANGUAGES), (table, key)
        assert all(texts[lang].strip() for lang in tx.LANGUAGES), (table, key)
        fields = {lang: {f for _, f, _, _ in string.Formatter().parse(texts[lang]) if f} for lang in tx.LANGUAGES}
        assert fields["sv"] == fields["da"] == fields["en"], (table, key, fields)


@pytest.mark.parametrize(("table", "members"), [
    ("irregularity", list(IrregularityKind)),
    ("reason", list(Decision) + list(Status)),
    ("ruling", list(Resolution)),
])
def test_every_name_the_engine_can_give_has_words(table, members):
    missing = [m.value for m in members if m.value not in tx.TABLES[table]]
    assert not missing, f"{table}: no words for {missing}"
    for m in members:  # and the words are words, not the engine's name
        assert all("_" not in tx.words(table, m.value, lang) for lang in tx.LANGUAGES), m


def test_a_reason_naming_a_decision_finds_the_irregularity_it_is_about():
    # Every decision is about an irregularity kind the engine records (matched to the call's board).
    assert {d.value: director_calls.irregularity_of(d.value) is not None for d in Decision} == \
        {d.value: True for d in Decision}
    assert director_calls.irregularity_of("wrong_pin") is None and director_calls.irregularity_of(None) is None


def test_seats_are_written_as_each_countrys_bidding_boxes_print_them():
    assert [tx.seat(s.name, "sv") for s in Seat] == ["N", "Ö", "S", "V"]
    assert [tx.seat(s.name, "da") for s in Seat] == ["N", "Ø", "S", "V"]
    assert [tx.seat(s.name, "en") for s in Seat] == ["N", "E", "S", "W"]
    assert tx.seat("<b>", "sv") == "<b>"  # not a seat: as given (escaped by the page)


@pytest.mark.parametrize(("ref", "lang", "edition", "words"), [
    ("2007 L27B2", "sv", None, "Lag 27B2 (2007)"),
    ("2017 L27B1(b), L23A", "da", None, "Lov 27B1(b) (2017), Lov 23A (2017)"),
    ("2007 L25A1, FSB L112D", "sv", None, "Lag 25A1 (2007), FSB lag 112D"),
    ("L9B2", "da", 2017, "Lov 9B2 (2017)"),  # the table's profile gives the edition
    ("2017 L27", "en", 2007, "Law 27 (2017)"),  # the table's own edition wins
    ("the Laws are silent", "en", 2017, "the Laws are silent"),
])
def test_a_law_is_named_in_the_language_with_its_edition(ref, lang, edition, words):
    assert tx.law(ref, lang, edition) == words


def test_the_page_language_is_the_requests_then_the_clubs_then_english():
    assert tx.language("da", "sv") == "da"
    assert tx.language(None, "sv") == "sv"
    assert tx.language("xx", "da") == "da" and tx.language("<script>", None) == "en"


def test_an_earlier_day_is_written_with_the_languages_month():
    now = time.mktime((2026, 11, 27, 12, 0, 0, 0, 0, -1))
    may = time.mktime((2026, 5, 22, 19, 45, 0, 0, 0, -1))
    assert tx.clock(may, "sv", now) == "22 maj 19:45" and tx.clock(may, "en", now) == "22 May 19:45"
    assert re.fullmatch(r"\d\d:\d\d:\d\d", tx.clock(now - 60, "da", now))


def test_2017_L27A1_an_accepted_insufficient_bid_is_told_with_seat_law_and_ruling():
    call = {"seat": None, "reason": "insufficient_bid", "t": 4.0, "status": "resolved",
            "note": "insufficient bid (2017 L27)"}
    record = {"kind": "insufficient_bid", "seat": "E", "law": "2017 L27", "t": 4.0, "call": "1S",
              "resolution": "accepted", "ruling": "2017 L27A1"}
    assert director_calls.match(call, [dict(record, t=9.0, seat="W"), record]) == record  # by the moment
    w = director_calls.words(call, record, None, "sv", 2017)
    # the irregularity in the tablet's words: one vocabulary (shared_rules/vocabulary)
    named = IRREGULARITIES[IrregularityKind.INSUFFICIENT_BID]
    assert (w.who, w.what, w.law, w.ruling, w.note) == (
        "bordet tillkallade (felande: Ö)", named["sv"], "Lag 27 (2017)", "accepterat (Lag 27A1 (2017))", "")
    open_ = director_calls.words(dict(call, status="launched"), None, None, "da", 2017)
    assert (open_.what, open_.law, open_.ruling) == (named["da"], "Lov 27 (2017)", "afventer kendelse")


def test_L12_an_adjusted_score_is_the_ruling_in_words():
    call = {"seat": "S", "reason": None, "status": "resolved"}
    w = director_calls.words(call, None, {"kind": "artificial", "ns": "avg+", "ew": "avg-"}, "da", 2017)
    assert w.who == "tilkaldt af S" and w.what == "TL-knappen"
    assert w.ruling == "justeret resultat (kunstigt) NS avg+, ØV avg-"


def test_a_wrong_pin_awaits_no_ruling_and_a_reason_without_words_is_shown_as_sent():
    pin = director_calls.words({"reason": "wrong_pin", "status": "launched", "note": "try 3"}, None, None, "sv", 2007)
    assert (pin.who, pin.what, pin.ruling, pin.note) == ("bordet tillkallade", "fel TL-PIN vid bordet", "", "")
    odd = director_calls.words({"seat": "W", "reason": "new_kind", "status": "launched", "note": "<b>x</b>"},
                               None, None, "da", 2017)
    assert (odd.who, odd.what, odd.note) == ("tilkaldt af V", "new kind", "<b>x</b>")  # the page escapes them
