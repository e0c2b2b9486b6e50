"""Results as players expect them, tapped through the real Kivy app under Xvfb
(tests/ui/drive_results.py): "Not agreed" keeps North's entry to correct; after East-West confirm
the board's results show at once and are drawn as soon as the station's copy arrives; during the
next board the Result button shows them again (the club shows all results: Bridgemate
`show_results`); never before the table's own result (2007 L16C1, 2017 L16D1: the station gives the
copy only after it)."""
import pytest

from tests.ui.conftest import run_driver


@pytest.fixture(scope="module")
def session(xvfb_display, tmp_path_factory):
    return run_driver("drive_results.py", tmp_path_factory.mktemp("ui"), xvfb_display)


def test_not_agreed_keeps_norths_entry_to_correct(session):
    assert session["after_auction"] == "result" and session["confirm_phase"] == "confirm"
    assert session["after_dispute_phase"] == "play"
    assert session["after_dispute_chosen"] == ["10", "H", "K"]  # 10 tricks, the lead ♥K, as entered
    assert session["after_dispute_enter_enabled"] is True
    assert session["corrected_entry"] == [9, "HK"]  # only the tricks were changed


def test_the_boards_results_right_after_east_west_confirm_drawn_when_they_arrive(session):
    assert session["after_confirm_screen"] == "result" and session["board_now"] == 2
    assert not any("results so far" in t for t in session["before_traveller"])
    assert session["taken"] is True
    assert session["arrived_screen"] == "result"
    shown = session["arrived_texts"]
    assert "Board 1: the results so far" in shown
    assert "N-S pair 2: 2 of 4 MP (50.0 %) on 1 board" in shown
    assert session["arrived_clipped"] == []


def test_result_button_during_the_next_board_shows_the_last_boards_results(session):
    assert session["next_board_screen"] == "auction" and session["result_btn_enabled"] is True
    assert session["on_demand_screen"] == "result"
    assert "Board 1: the results so far" in session["on_demand_texts"]
    assert "Bricka 1: resultaten hittills" in session["on_demand_sv"]
    assert "N-S par 2: 2 av 4 MP (50.0 %) på 1 bricka" in session["on_demand_sv"]
    assert "Spil 1: resultaterne indtil nu" in session["on_demand_da"]
    assert session["on_demand_clipped_sv"] == [] and session["on_demand_clipped_da"] == []


def test_the_round_end_draws_the_last_boards_results_when_they_arrive(session):
    assert session["round_end_screen"] == "round_end" and session["taken2"] is True
    assert "Board 1: the results so far" in session["round_end_before"]  # board 2's not in yet
    after = session["round_end_after"]
    assert "Board 2: the results so far" in after and "Board 1: the results so far" not in after
    assert "N-S pair 2: 6 of 8 MP (75.0 %) on 2 boards" in after
    assert session["round_end_clipped_sv"] == [] and session["round_end_clipped_da"] == []
