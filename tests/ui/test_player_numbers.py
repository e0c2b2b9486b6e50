"""Player numbers typed at the table in Swedish, through the real app under Xvfb
(tests/ui/drive_players.py): the auction screen offers the keypad at the round's first board
before the first call; a number of the wrong form is refused in Swedish and nothing is journalled;
the station's names are shown back; Rätta keeps nothing; Godkänn journals the entry and queues it
for the station; the first call hides the button. Every text on the screen fits, in sv, da and en."""
import pytest

from tablet_app import i18n

from .conftest import run_driver

pytestmark = pytest.mark.ui


@pytest.fixture(scope="module")
def checks(xvfb_display, tmp_path_factory):
    return run_driver("drive_players.py", tmp_path_factory.mktemp("ui"), xvfb_display)


def test_the_auction_screen_offers_player_numbers_before_the_first_call(checks):
    assert checks["button"] == ["Medlemsnummer", 1, False]
    assert checks["opened"] == "players"
    for lang, (needed, given) in checks["button_fit"].items():  # "Medlemsnummer" not broken mid-word
        assert needed <= given, (lang, needed, given)


def test_a_number_of_the_wrong_form_is_refused_in_swedish_and_nothing_is_journalled(checks):
    error, unchanged, waiting, asked = checks["refused"]
    assert error.startswith("Nord: '000' är inget medlemsnummer"), error
    assert "inget har ändrats" in error
    assert unchanged and waiting is None and asked == []  # not even asked at the station


def test_the_stations_names_are_shown_back_in_swedish(checks):
    error, names, numbers, confirm, correct, journalled = checks["names"]
    assert error == ""
    assert numbers == ["10001", "10234", "10567", "99999"]
    assert names == ["Anna Berg", "Åke Öst", "Carl Dahl", i18n.tr("players_unknown", "sv")]
    assert [confirm, correct] == ["Godkänn", "Rätta"]
    assert journalled == 0  # shown, not yet confirmed


def test_correct_keeps_nothing_and_confirm_journals_the_entry(checks):
    waiting, journalled, typed = checks["corrected"]
    assert waiting is None and journalled == 0
    assert typed == ["10001", "10234", "10567", "99999"]  # still typed, for the correction
    # Back with the names waiting keeps nothing either; the keypad opens empty again
    assert checks["back"] == ["auction", None, 0]
    assert checks["reopened_empty"] == ["", "", "", ""]
    screen, n, numbers, by, entered, keys, note = checks["confirmed"]
    assert screen == "auction" and n == 1 and by == "players"
    assert numbers == {"N": "10001", "E": "10234", "S": "10567", "W": "99999"}
    assert entered["E"] == {"number": "10234", "name": "Åke Öst"}
    assert entered["W"] == {"number": "99999", "name": None}
    assert keys == ["club-2026-11-27/A/4/1/players/1"]
    assert note == "Medlemsnumren är sparade"


def test_reopened_before_the_first_call_the_rounds_numbers_are_filled_in(checks):
    assert checks["reopened"] == ["players", ["10001", "10234", "10567", "99999"]]


def test_the_first_call_hides_the_button(checks):
    assert checks["after_call"] == [0, True, 0, False]
    assert "Medlemsnummer" not in checks["auction_texts"]


def test_nothing_is_cut_on_the_player_numbers_screen_in_any_language(checks):
    assert {k: v for k, v in checks["clipped"].items() if v} == {}
    assert sorted(checks["clipped"]) == sorted(f"{s}/{lang}" for s in ("auction", "refused", "names") for lang in ("sv", "da", "en"))
    assert checks["shots"].count("players-names/sv") == 1
