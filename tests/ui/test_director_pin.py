"""Only the director rules (tests/ui/drive_director.py drives the real app under Xvfb). Found at a
club evening: after the first ruling the console went back to the auction with the director still
signed in; the Director button then opened every TD tool without the PIN, and the next
irregularity opened straight on the Law's options for the players to pick."""
import pytest

from tests.ui.conftest import SHOTS, run_driver

pytestmark = pytest.mark.ui


@pytest.fixture(scope="module")
def run(xvfb_display, tmp_path_factory):
    return run_driver("drive_director.py", tmp_path_factory.mktemp("director"), xvfb_display)


def locked(console):
    """The console as the players see it: the PIN pad, no option, no tool."""
    return console["signed_in"] is False and console["pin_pad"] and console["options"] == [] and console["tools"] == []


def test_2017_L27_the_irregularity_shows_players_that_the_director_is_called_and_not_the_options(run):
    assert run["frozen"]["screen"] == "director" and locked(run["frozen"])
    assert "The director is called. The Law's options are shown to the director only." in run["frozen"]["texts"]
    # in the director's language on the other screens too
    assert any("Tävlingsledaren är tillkallad" in t for t in run["texts_sv"]["director-called"])
    assert any("Turneringslederen er tilkaldt" in t for t in run["texts_da"]["director-called"])
    # the PIN opens the Law's options
    assert run["signed_in"]["signed_in"] and run["signed_in"]["options"] == ["accept", "replace", "unintended"]


def test_2017_L27A1_the_ruling_returns_the_console_to_the_auction_and_signs_the_director_out(run):
    assert run["after_ruling"] == ["auction", "auction", False]
    # the Director button after the ruling: the PIN pad, no tool
    assert run["director_button"]["screen"] == "director" and locked(run["director_button"])


def test_the_next_irregularity_asks_for_the_pin_again(run):
    assert run["next_irregularity"]["screen"] == "director" and locked(run["next_irregularity"])
    assert run["after_second_ruling"] == ["auction", "auction"]


def test_the_clubs_grace_counts_down_on_the_director_button_and_then_the_pin_is_asked_again(run):
    assert run["grace_button"] == ["auction", "Director (open 30 s)"]
    assert run["grace_countdown"] == "Director (open 20 s)"
    # shown to the table in the players' language, and whole on the button
    assert "TL (öppen 20 s)" in run["texts_sv"]["auction-director-grace"]
    assert "TL (åben 20 s)" in run["texts_da"]["auction-director-grace"]
    for lang, (text, drawn, width) in run["grace_fits"].items():
        assert "20 s" in text and drawn <= width, (lang, text, drawn, width)
    reopened = run["grace_reopened"]
    assert reopened["signed_in"] and not reopened["pin_pad"] and "correct" in reopened["tools"]
    assert run["grace_after_back"] == "Director (open 30 s)"  # Back leaves the console: the grace again
    assert run["grace_over"] == "Director" and locked(run["after_grace"])
    assert (SHOTS / "auction-director-grace.png").exists() and (SHOTS / "director-called.png").exists()


def test_an_idle_console_and_the_app_in_the_background_sign_out_with_no_grace(run):
    assert run["idle_signed_in"] is True
    assert run["idle"] == ["auction", {"signed_in": False, "grace_s": 0, "grace_setting": 30}]
    assert run["on_pause"]["screen"] == "director" and locked(run["on_pause"])
    assert locked(run["after_idle"]) and locked(run["after_background"])


def test_2017_L27_a_grace_counting_at_the_round_end_does_not_reach_the_next_round(run):
    assert run["grace_at_board_end"] == "Director (open 30 s)"
    assert run["round_end"] == ["round_end", True]
    # the next round, set up at the table: no grace left, the Director button plain
    assert run["next_round"] == [3, 2, "auction", "Director", {"signed_in": False, "grace_s": 0, "grace_setting": 30}]
    # its first irregularity opens on the PIN pad, not on the Law's options
    first = run["next_round_irregularity"]
    assert first["screen"] == "director" and locked(first)
    assert "The director is called. The Law's options are shown to the director only." in first["texts"]
