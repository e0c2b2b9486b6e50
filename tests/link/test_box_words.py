"""The tablet's messages to the boxes in the table's language (tablet_app/link/box_words.py): each
fits the box's 12 columns whole, and the call the director rules on is named with the box's own
seat letters and call names (docs/box-language.md)."""
import pytest

from tablet_app.link.box_words import MESSAGES, box_message
from tablet_app.views import MESSAGES as VIEW_MESSAGES
from tablet_app.views import SHORT_REASONS

BOX_COLS = 12  # firmware/render.py WIDTH: the reference box's CAPS says so too
NT_NAMES = {"en": "NT", "sv": "NT", "da": "UT"}  # docs/box-language.md


def test_every_message_the_views_send_has_its_words_and_fits_the_box():
    sent = set(VIEW_MESSAGES.values()) | {t for _, t in SHORT_REASONS}
    sent |= {"You must pass", "Pass to end", "Tray not here", "Stop shown"}
    sent.discard("")
    assert sent <= set(MESSAGES), sent - set(MESSAGES)
    for words in MESSAGES.values():
        assert all(len(w) <= BOX_COLS for w in words), words


@pytest.mark.parametrize("lang,want", [("en", "W 2\u2663: TD"), ("sv", "V 2\u2663: TL"),
                                       ("da", "V 2\u2663: TL")])
def test_the_call_the_director_rules_on_in_the_box_language(lang, want):
    assert box_message("W 2C: wait TD", lang) == want
    assert len(box_message("E 7NT: wait TD", lang)) <= BOX_COLS


def test_danish_no_trump_and_pass_and_swedish_seats():
    assert box_message("E 3NT: wait TD", "da") == "\u00d8 3UT: TL"
    assert box_message("E P: wait TD", "da") == "\u00d8 Pas: TL"
    assert box_message("S XX: wait TD", "sv") == "S XX: TL"
    assert box_message("Pass to end", "sv") == "Passa ut"


def test_no_language_or_an_unknown_message_goes_as_it_is():
    assert box_message("W 2C: wait TD", None) == "W 2C: wait TD"
    assert box_message("something new", "sv") == "something new"


@pytest.mark.parametrize("english,lang,want", [
    ("Must pass", "sv", "Måste passa"), ("Must pass", "da", "Skal passe"),
    ("No X/XX", "sv", "Ej X/XX"), ("No X/XX", "da", "Ikke X/XX"),
    ("Repeat 3NT", "da", "Gentag 3UT"), ("Repeat 1H", "sv", "Upprepa 1\u2665"),
    ("Repeat P", "da", "Gentag Pas"), ("Repeat 2S", "en", "Repeat 2\u2660")])
def test_2017_L30_L31_L32_and_2007_L30B2b_obligations_told_in_the_box_language(english, lang, want):
    """The tablet tells the box a player's obligation (law_texts.box_message: pass at the next
    turn, pass to the end, repeat a call, no double or redouble) in English; the link puts it in
    the table's language with the box's own call names, within the box's 12 columns."""
    assert box_message(english, lang) == want
    assert len(want) <= BOX_COLS


def test_every_obligations_box_message_fits_the_box_in_every_language():
    from shared_rules.types import Obligation
    from tablet_app.law_texts import BOX

    for kind, words in BOX.items():
        for lang in ("en", "sv", "da"):
            text = box_message(words["en"].format(call="7NT"), lang)
            assert len(text) <= BOX_COLS, (kind, lang, text)
            assert text == words[lang].format(call="7" + NT_NAMES[lang]), (kind, lang, text)
    assert Obligation.REPEAT in BOX


def test_a_repeat_of_something_not_a_call_keeps_it_as_written():
    assert box_message("Repeat 9Q", "sv") == "Upprepa 9Q"
