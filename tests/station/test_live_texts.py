"""The spectators' page's words (station/live_texts.py): every one in English, Swedish and Danish
with the same fields to fill, an unknown `?lang=` English, the note of each delay."""
from __future__ import annotations

import string

from shared_rules.vocabulary.words import LANGUAGES
from station import live_texts


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_word_in_every_language_with_the_same_fields():
    for key, words in live_texts.WORDS.items():
        assert set(words) == set(LANGUAGES), key
        assert len({frozenset(fields(w)) for w in words.values()}) == 1, (key, words)


def test_the_language_asked_when_it_is_ours_else_english():
    assert [live_texts.language(x) for x in ("sv", "da", "en", "de", None, "")] == ["sv", "da", "en", "en", "en", "en"]
    assert live_texts.texts("sv")["bye"] == "{team}: frirond i rond {round}, {vp}"


def test_the_note_says_the_delay():
    assert live_texts.note(0, "en") == "Shown as the calls are made."
    assert live_texts.note(10, "sv") == "Visas 10 sekunder efter varje bud."
    assert live_texts.note(90, "en") == "Shown 1.5 minutes after each call."
    assert live_texts.note(90, "da") == "Vises 1,5 minutter efter hver melding."
