"""A member number with a leading letter on the players' keypad, and the director's player numbers
after the round's first call, on the real app under Xvfb (tests/ui/drive_member_letters.py)."""
import pytest

from .conftest import run_driver

pytestmark = pytest.mark.ui


@pytest.fixture(scope="module")
def checks(xvfb_display, tmp_path_factory):
    return run_driver("drive_member_letters.py", tmp_path_factory.mktemp("letters"), xvfb_display)


def test_the_keypad_types_a_leading_letter_as_the_station_takes_it(checks):
    assert checks["letter_offered"] == ["Bokstav", False, [True, False]]
    assert checks["alphabet_shown"] == [False, True]
    assert checks["back_to_digits"] == [[True, False], True, "K"]  # one letter, first, then digits
    assert checks["names"] == ["K1234", "", "", "", "Karin Lund"]
    assert checks["confirmed"] == [[{"N": "K1234"}], ["players"], ["club-2026-11-28/A/5/1/players/1"]]


def test_a_letter_after_a_digit_is_refused_in_swedish(checks):
    assert checks["letter_off_after_digit"] is True
    assert checks["letter_refused"] == ["En bokstav får bara stå först", "5"]


def test_the_letter_key_in_swedish_danish_and_english_and_nothing_cut(checks):
    words = {"sv": "Bokstav", "da": "Bogstav", "en": "Letter"}
    assert checks["letter_key"] == {f"{name}/{lang}": w for name in ("letters", "td_players") for lang, w in words.items()}
    assert {k: v for k, v in checks["clipped"].items() if v} == {}
    assert sorted(checks["clipped"]) == sorted(f"{s}/{lang}" for s in ("letters", "td_players")
                                               for lang in ("sv", "da", "en"))


def test_after_the_first_call_the_director_enters_a_number_on_his_console(checks):
    assert checks["players_closed"] == "players.too_late"  # the players' own entry is closed
    assert checks["tool"] == "Medlemsnummer"
    assert checks["td_panel"][0] == "players" and checks["td_panel"][1]["N"] == "K1234"
    waiting = checks["td_waiting"]
    assert waiting["by"] == "director" and waiting["numbers"] == {"N": "K1234", "E": "L77"}
    assert waiting["names"] == {"N": "Karin Lund", "E": "Lars Ek"}
    numbers, by, keys, east, mode = checks["td_confirmed"]
    assert numbers == [{"N": "K1234"}, {"N": "K1234", "E": "L77"}] and by == ["players", "director"]
    assert keys == ["club-2026-11-28/A/5/1/players/1", "club-2026-11-28/A/5/1/players/2"]
    assert east == {"number": "L77", "name": "Lars Ek"} and mode is None
