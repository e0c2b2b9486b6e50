"""The station's notices (station/notices.py) have words in English, Swedish and Danish for every
code (station/notice_texts.py), asking only for the parameters the code carries, generated from
the enum itself: a code the station gains without words fails here. A notice goes through its
JSON (the `.bws` status, status.json) and back unchanged; anything else read back is no notice,
and the page says the English it holds (as tests/rules/test_vocabulary_words.py holds the
refusals)."""
from __future__ import annotations

import string
from typing import Any

import pytest

from station.director_texts import LANGUAGES
from station.notice_texts import WORDS, say, words_for
from station.notices import ENGLISH_ONLY, FIELDS, Notice, NoticeCode, more


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_every_code_has_words_in_every_language_and_fields_of_its_own():
    missing = [(c.name, lang) for c in NoticeCode for lang in LANGUAGES if not (WORDS.get(c) or {}).get(lang, "").strip()]
    assert missing == []
    assert set(WORDS) == set(NoticeCode) == set(FIELDS)
    for code, words in WORDS.items():
        assert set(words) == set(LANGUAGES), code
        # the English says every parameter the code carries; Swedish and Danish the same ones, but
        # for a detail in English (a check's own words: the English keeps them)
        assert _fields(words["en"]) == set(FIELDS[code]), code
        assert _fields(words["sv"]) == _fields(words["da"]), code
        assert set(FIELDS[code]) - _fields(words["sv"]) <= ENGLISH_ONLY, code


@pytest.mark.parametrize("lang", ["sv", "da"])
def test_no_code_is_left_in_english(lang: str):
    same = [c.name for c in NoticeCode if WORDS[c][lang] == WORDS[c]["en"]
            and WORDS[c]["en"].strip(" :{}") not in FIELDS[c] and c != NoticeCode.BWS_DRIVER]
    assert same == []  # bws.driver is "{path}: {detail}", the driver's own words, in every language


@pytest.mark.parametrize("code", list(NoticeCode))
def test_each_code_is_said_with_its_parameters_and_read_back_from_json(code: NoticeCode):
    n = Notice.of(code, **{f: f"<{f}>" for f in FIELDS[code]})
    for lang in LANGUAGES:
        said = say(n, lang)
        shown = set(FIELDS[code]) - (ENGLISH_ONLY if lang != "en" else set())
        assert "{" not in said and all(f"<{f}>" in said for f in shown), (code, lang)
    assert Notice.from_json(n.to_json()) == n
    assert str(n) == say(n, "en")


def test_a_notice_inside_another_is_said_in_the_same_language():
    why = [Notice.of(NoticeCode.FILE_OTHER), Notice.of(NoticeCode.FILE_SHORTER, before=10, now=5)]
    first = Notice.of(NoticeCode.FILE_OTHER_SESSION, before="Mandag", now="Onsdag")
    n = Notice.of(NoticeCode.BWS_REPLACED, path="x.bws", why=why, first=first, more=more(2))
    assert str(n).startswith("x.bws was replaced (the path names another file (re-created, copied in or restored); "
                             "it got shorter (10 -> 5 bytes)) by a file the earlier results do not fit: the file "
                             "names another session (Mandag -> Onsdag) (and 2 more).")
    assert say(n, "sv").startswith("x.bws har ersatts (sökvägen pekar på en annan fil")
    assert "den blev kortare (10 -> 5 byte)" in say(n, "sv") and "(och 2 till)" in say(n, "sv")
    assert Notice.from_json(n.to_json()) == n
    assert more(0) == ""


@pytest.mark.parametrize("doc", [
    None, "text", {"code": "bws.missing"}, {"code": "bws.something_new", "params": {}},
    {"code": "bws.missing", "params": {}},  # a parameter its words need is not there
    {"code": "bws.missing", "params": {"path": "x", "extra": 1}},
    {"code": "bws.missing", "params": {"path": True}}, {"code": "bws.missing", "params": {"path": [1]}},
    {"code": "bws.replaced", "params": {"path": "x", "why": [{"code": "nope", "params": {}}], "first": "",
                                        "more": ""}},
])
def test_anything_but_a_notice_is_said_as_the_english_it_holds(doc: Any):
    assert Notice.from_json(doc) is None
    assert words_for(doc, "the English", "sv") == "the English"


@pytest.mark.parametrize("lang, side", [("sv", "ÖV"), ("da", "ØV"), ("en", "EW")])
def test_a_pairs_side_is_written_as_each_language_writes_it(lang: str, side: str):
    # docs/glossary.md: East-West is Öst-Väst / Øst-Vest; the notice keeps "EW" for the English
    notice = Notice.of(NoticeCode.MOVE_PAIR_TWICE, section="A", table=2, round=1, side="EW", pair=4, other=3)
    text = say(notice, lang)
    assert f"({side})" in text or f"pair {side} 4" in text, text
    assert say(Notice.of(NoticeCode.MOVE_PAIR_TWICE, section="A", table=2, round=1, side="NS", pair=4, other=3),
               lang).count("NS") == 1
