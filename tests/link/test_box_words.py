"""The tablet's messages to the boxes in the table's language (tablet_app/link/box_words.py): each
fits the box's 12 columns whole, and the call the director rules on is named with the box's own
seat letters and call names (docs/box-language.md)."""
import pytest

from tablet_app.link.box_words import MESSAGES, box_message
from tablet_app.views import MESSAGES as VIEW_MESSAGES
from tablet_app.views import SHORT_REASONS

BOX_COLS = 12  # firmware/render.py WIDTH: the reference box's CAPS says so too


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
