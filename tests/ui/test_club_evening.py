"""A club's first evening on a new tablet, the real Kivy app driven through its buttons
(tests/ui/drive_club.py) against a real station: the setup makes the director choose the
regulations, the players choose the board on the table, refused deliveries are red on the
director console, results are moved and withdrawn with a reason, the PIN pad locks, a full
journal is a red banner. Screenshots in English, Swedish and Danish go to build/screenshots (`make screenshots`)."""
import pytest

from tests.station.conftest import EVENT, StationProcess
from tests.ui.conftest import run_driver

pytestmark = [pytest.mark.ui, pytest.mark.server]


@pytest.fixture(scope="module")
def evening(xvfb_display, tmp_path_factory):
    out = tmp_path_factory.mktemp("club")
    station = StationProcess(str(out / "station.db"), out).start()
    try:
        return run_driver("drive_club.py", out, xvfb_display, station.url, station.keys[f"{EVENT}/A/3"],
                          station.keys[f"{EVENT}/A/2"])
    finally:
        station.stop()


def test_a_new_tablet_makes_the_director_choose_the_regulations_never_the_first_name(evening):
    assert evening["first_screen"] == "setup"
    assert evening["defaults"]["profile"] is None and evening["defaults"]["pin_set"] is False
    assert evening["profile_shown"] == ["Choose the regulations", None]
    # Start without a choice: refused, said with the field in plain words, nothing journalled
    assert evening["no_profile_error"] == ["Regulations: choose the club's regulations", 0, "setup"]
    assert evening["no_profile_error_sv"] == "Regelverk: välj klubbens regelverk"
    # chosen: checked against the station (section letters normalised), the chooser is shown
    assert evening["after_setup"] == ["auction", 1, "A", True]


def test_players_choose_the_board_on_the_table_and_a_board_outside_the_round_is_refused(evening):
    title, boards, shown = evening["chooser"]
    assert title == "Which board is on the table?" and boards == [1, 2, 3] and shown
    msg, board, unchanged = evening["board7"]
    assert msg.startswith("Board 7 is not one of this round's boards (1,2,3)") and "L15" in msg
    assert board == 1 and unchanged
    assert evening["board3"] == [3, "players", ""]
    # a refresh that changes nothing the board buttons say keeps them (no 30 new widgets per event)
    assert evening["chooser_kept"] is True
    assert evening["chooser_after_first_call"] == 0  # after the first call only the director changes it
    assert evening["next_board"] == 1
    assert "played" in evening["marks"]["3"] and "played" not in evening["marks"]["1"]
    assert evening["board3_again"] == ["Board 3 already has a result at this table", 1]


def test_after_the_first_call_only_the_director_changes_the_board(evening):
    assert evening["chooser_with_calls"] == 0
    assert evening["board_tool"] == ["choose1", "choose2", "choose3"]
    board, by, message, calls = evening["td_board"]
    assert board == 2 and by == "director" and message.endswith("Board 2 is on the table[/color]") and calls == []


def test_deliveries_the_station_refuses_are_red_on_the_console_with_its_status_and_reason(evening):
    lines = evening["delivery_lines"]
    refused = [x for x in lines if "Refused by the station" in x]
    assert refused and all(x.startswith("[color=cc141f]") for x in refused)
    assert any("(403)" in x or "(401)" in x for x in refused)
    assert {"board", "fix", "withdraw", "move"} <= set(evening["tools"])


def test_a_result_moved_to_its_board_and_one_withdrawn_each_with_a_reason(evening):
    # board 1 is on the table but not begun (it may be the one played), 3 is the one moved
    assert evening["move_targets"] == ["to1", "to2"]
    assert evening["moved_message"].endswith("Result moved from board 3 to board 2[/color]")
    assert evening["after_move"]["played"] == [2]
    assert evening["withdraw_blank"] == ["Say why (a few words for the scorer and the players)", "reason"]
    assert "Board 2: result withdrawn" in evening["withdrawn_message"]
    assert [tuple(r) for r in evening["revisions"]] == [
        ("1/3/1", False, None),
        ("1/3/2", True, "Result entered on the wrong board"),
        ("1/2/1", False, "Result entered on the wrong board"),
        ("1/2/2", True, "played at the wrong table"),
    ]
    assert evening["after_withdraw"]["played"] == []


def test_three_wrong_pins_lock_the_pad_with_the_wait_said(evening):
    wait, unlock_disabled, unlocked = evening["locked"][0], evening["locked"][-2], evening["locked"][-1]
    assert wait == "Too many wrong PINs: wait 5 s" and unlock_disabled and not unlocked
    assert evening["after_wait"] is True


def test_a_full_journal_is_a_red_banner_and_the_call_is_refused_until_space_returns(evening):
    full = evening["full_call"]
    assert full["ok"] is False and full.get("disk_full") is True
    bid, calls = evening["refused_bid"]
    assert bid not in calls  # memory never ahead of disk: the auction did not advance
    text, height = evening["banner"]
    assert text.startswith("Tablet storage is full") and height > 0
    assert evening["after_space"] == [True, True] and evening["banner_after_space"] == 0


def test_club_screens_have_no_english_left_in_swedish_and_danish(evening):
    from tests.ui.test_app import english_left

    for lang in ("sv", "da"):
        shots = evening[f"texts_{lang}"]
        assert {"setup-first", "board-chooser", "board-chooser-refused", "director-delivery-refused",
                "director-move-result", "pin-locked", "storage-full", "director-board"} <= set(shots)
        left = english_left(shots, lang)
        assert not left, sorted(left)
