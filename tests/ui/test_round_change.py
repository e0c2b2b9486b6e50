"""A table that runs itself between rounds, on the real Kivy app under Xvfb in Swedish
(tests/ui/drive_rounds.py): the players confirm the next round's pairs and start it without the
director's PIN; pairs they find wrong go to the director (PIN), as before."""
import pytest

from tests.ui.conftest import run_driver
from tests.ui.test_app import english_left


@pytest.fixture(scope="module")
def session(xvfb_display, tmp_path_factory):
    return run_driver("drive_rounds.py", tmp_path_factory.mktemp("ui"), xvfb_display)


def test_players_confirm_the_next_rounds_pairs_and_start_it_without_the_director(session):
    assert session["round1_end"] == ["round_end", "round_end"]
    assert session["after_next"] == "round_end"  # the pairs shown there, no PIN screen
    shown = "\n".join(session["confirm_texts"])
    assert "Rond 2 vid bord 1: är det här paren vid bordet?" in shown
    assert "N-S par 1: Anna Berg – Carl Dahl" in shown and "Ö-V par 12: Åke Öst – Kim Lund" in shown
    assert "Brickor: 2" in shown and "Ja - starta ronden" in shown and "Nej - tillkalla TL" in shown
    assert "\n".join(session["confirm_texts_again"]) == shown
    assert session["round2"] == ["auction", "auction", 2, 1, 12, 2]
    # the round start goes to the station (it opens round 2's results at its Law 16 gate)
    assert session["round_items"] == ["club-2026-11-27/A/1/round/1", "club-2026-11-27/A/1/round/2"]


def test_pairs_the_players_find_wrong_go_to_the_director_with_the_pin(session):
    assert "Ö-V par 13: Eva Ek – Fia Falk" in "\n".join(session["round3_shown"])
    assert session["wrong_pairs"] == ["pin", "round_end", 2]
    assert session["asked"] == [2, 3]


def test_the_round_confirmation_has_no_english_in_swedish_and_danish(session):
    for lang in ("sv", "da"):
        shots = session[f"texts_{lang}"]
        assert "round-confirm" in shots
        assert not english_left(shots, lang)
    assert "Runde 2 ved bord 1: er det disse par ved bordet?" in session["texts_da"]["round-confirm"]
    assert "Ø-V par 12: Åke Öst – Kim Lund" in "\n".join(session["texts_da"]["round-confirm"])
