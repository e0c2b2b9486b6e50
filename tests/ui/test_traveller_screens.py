"""The club's Bridgemate settings show the board's other results, and the director rules with the
stop card: the real Kivy app under Xvfb (tests/ui/drive_traveller.py)."""
import pytest

from tests.ui.conftest import run_driver
from tests.ui.test_app import english_left


@pytest.fixture(scope="module")
def session(xvfb_display, tmp_path_factory):
    return run_driver("drive_traveller.py", tmp_path_factory.mktemp("ui"), xvfb_display)


def test_show_results_all_result_screen_draws_the_traveller_and_running_score(session):
    assert session["taken"] is True
    assert not any("results so far" in t for t in session["before_traveller"])  # none before the station's copy
    shown = session["result_texts"]
    assert "Board 1: the results so far" in shown
    # our own line (table 2: 3NT by North, ten tricks, +430, a top on three results: Law 78A)
    i = shown.index("3NT by North")
    assert shown[i - 3:i + 5] == ["2", "2", "12", "3NT by North", "10 (+1)", "+430", "4", "0"]
    j = shown.index("4♠ by South")
    assert shown[j - 3:j + 5] == ["1", "1", "11", "4♠ by South", "10 (=)", "+420", "2", "2"]
    assert "N-S pair 2: 4 of 4 MP (100.0 %) on 1 board" in shown
    assert "E-W pair 12: 0 of 4 MP (0.0 %) on 1 board" in shown


def test_round_end_screen_draws_the_last_boards_traveller(session):
    assert session["round_end_screen"] == "round_end"
    shown = session["round_end_texts"]
    assert "Board 2: the results so far" in shown
    i = shown.index("3♣ by South")
    assert shown[i - 3:i + 5] == ["2", "2", "12", "3♣ by South", "8 (-1)", "-100", "2", "0"]
    assert "N-S pair 2: 6 of 6 MP (100.0 %) on 2 boards" in shown


def test_fsb_L116B_stop_card_shown_before_the_replacement_defaults_the_picker_to_on(session):
    assert session["pending_seat"] == "S"
    assert session["stop_not_shown"] == [False, "Made with the stop card: no"]
    assert session["stop_shown"] == ["S"]
    assert session["stop_default"] == [True, "Made with the stop card: yes"]
    assert session["stop_toggled"] is False  # the director can overrule it
    # the jump replacement 3C over 1NT went in with the stop card: no stop_missing
    assert session["replacement"] == [["E", "1NT", False], ["S", "3C", True]]
    assert "stop_missing" not in session["irregularities"]


def test_L25A_correction_keeps_the_stop_card_unless_the_director_says(session):
    assert session["correct_stop"] == [None, "Stop card: as the replaced call"]
    assert session["correct_stop_on"] == [True, "Made with the stop card: yes"]
    assert session["corrected"] == ["N", "P", True]


def test_traveller_and_stop_card_screens_have_no_english_in_swedish_and_danish(session):
    for lang in ("sv", "da"):
        shots = session[f"texts_{lang}"]
        assert {"result-traveller", "director-stop-card", "round-end-traveller"} <= set(shots)
        left = english_left(shots, lang)
        assert not left, "\n".join(map(str, sorted(left)))
    sv = session["texts_sv"]
    assert "Bricka 1: resultaten hittills" in sv["result-traveller"] and "Ö-V" in sv["result-traveller"]
    assert "Gjort med stoppkortet: ja" in sv["director-stop-card"]
    assert "Spil 2: resultaterne indtil nu" in session["texts_da"]["round-end-traveller"]
