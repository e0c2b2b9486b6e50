"""The director ends the round from the console on the real Kivy app under Xvfb, in Swedish
(tests/ui/drive_end_round.py): one confirmation naming the round, the next round's pairs and what
is left without a result, then the table is on the next round and the station is told (2007 and
2017 Law 8B1; its station side, over HTTP: tests/tablet/test_td_end_round.py)."""
import pytest

from tests.ui.conftest import run_driver
from tests.ui.test_app import english_left


@pytest.fixture(scope="module")
def session(xvfb_display, tmp_path_factory):
    return run_driver("drive_end_round.py", tmp_path_factory.mktemp("ui"), xvfb_display)


def test_2007_L8B1_one_confirmation_names_the_round_the_pairs_and_the_board_left(session):
    assert "end_round" in session["tools"] and session["mode"] == "end_round"
    shown = "\n".join(session["confirm_texts"])
    assert "Avsluta rond 1 vid bord 1" in shown
    assert "Sedan börjar rond 2:" in shown
    assert "N-S par 1: Anna Berg – Carl Dahl" in shown and "Ö-V par 12: Åke Öst – Kim Lund" in shown
    assert "Brickor: 3, 4" in shown
    assert "Bricka 2 spelas: den avbryts utan resultat" in shown
    assert "Inget resultat från bordet för bricka 2: korrigerad poäng ges i tävlingsdatorn (lag 12C)" in shown
    assert "Ja - avsluta rond 1, starta rond 2" in shown
    assert "\n".join(session["confirm_texts_again"]) == shown
    assert session["confirm_clipped"] == []


def test_2007_L8B1_yes_moves_the_table_to_the_next_round_and_tells_the_station(session):
    assert session["after"] == ["auction", "auction", 2, 1, 12, 3]
    assert session["round_items"] == [["club-2026-11-27/A/1/round/1", "director"],
                                      ["club-2026-11-27/A/1/round/2", "director"]]
    assert session["results"] == ["club-2026-11-27/A/1/1/1/1"]  # board 1's only: board 2 has none
    assert session["round_end"] == [{"by": "director", "in_play": 2, "without_result": [2]}]
    note = "Rond 1 avslutad av tävlingsledaren: rond 2 börjar (N-S par 1, Ö-V par 12)"
    assert session["note"] == note and session["bar"][1] == note
    assert session["bar_clipped"] == []


def test_the_end_of_round_confirmation_has_no_english_in_swedish_and_danish(session):
    for lang in ("sv", "da"):
        assert "director-end-round" in session[f"texts_{lang}"]
        assert not english_left(session[f"texts_{lang}"], lang)
    da = "\n".join(session["texts_da"]["director-end-round"])
    assert "Afslut runde 1 ved bord 1" in da and "Ø-V par 12: Åke Öst – Kim Lund" in da
    assert "Intet resultat fra bordet for spil 2: justeret score gives i regnskabsprogrammet (§ 12C)" in da
