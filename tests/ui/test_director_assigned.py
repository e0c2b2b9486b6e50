"""The director's assigned and weighted adjusted scores (Law 12C1), on the real app under Xvfb
(tests/ui/drive_assigned.py): through the console, with the PIN; refused input said in the
table's language and nothing changed."""
import pytest

from tests.ui.conftest import run_driver

pytestmark = pytest.mark.ui


@pytest.fixture(scope="module")
def run(xvfb_display, tmp_path_factory):
    return run_driver("drive_assigned.py", tmp_path_factory.mktemp("assigned"), xvfb_display)


def test_2017_L12C1b_the_console_offers_the_assigned_score_with_its_law(run):
    assert "assigned" in run["tools"] and "players" in run["tools"]
    assert run["tool_label"] == "Assigned adjusted score\n[size=16]2017 L12C1(b)[/size]"
    assert run["boards_offered"] == ["aboard1", "aboard2"]  # the agreed board, and the one on the table


def test_2017_L12C1b_an_assigned_score_replaces_the_agreed_result(run):
    assert run["asked_why"] == "reason"  # an agreed result changes: the director says why
    sent, key, contract, adjusted, reason, said = run["assigned"]
    assert sent == 1 and key == "club-2026-11-28/A/2/1/1/2" and contract == "3NT"  # the table's, for the record
    assert adjusted == {"kind": "assigned", "contract": "4S", "declarer": "S", "tricks": 9, "law": "2017 L12C1(b)"}
    assert reason == "Director's ruling"  # the ready phrase, in the language shown
    assert "Board 1: the adjusted score is sent" in said
    assert run["board_after"] == [2, "auction"]


def test_2017_L12C1c_weights_that_do_not_add_up_to_100_are_refused_in_swedish_and_change_nothing(run):
    assert run["boards_offered_2"] == ["aboard1", "aboard2"]
    assert run["second_weight"] == 40  # what is left to weigh
    said, journal_same, queue_same, board, mode, weights = run["refused"]
    assert "Vikterna måste bli 100 % tillsammans (de blir 90 %): inget har ändrats" in said
    assert journal_same and queue_same and board == 2
    assert mode == "assign" and weights == [60, 30]  # what he picked stays, to mend it


def test_2017_L12C1c_the_weighted_score_reaches_the_station_and_the_round_ends(run):
    assert run["listed"] == [60, 40]
    board, contract, adjusted = run["weighted"]
    assert board == 2 and contract is None
    assert adjusted == {"kind": "weighted", "ruled_by": "td", "law": "2017 L12C1(c)", "outcomes": [
        {"weight": "3/5", "contract": "4H", "declarer": "E", "tricks": 10},
        {"weight": "2/5", "contract": "4H", "declarer": "E", "tricks": 9}]}
    assert run["round_after"] == "round_end"


def test_the_assigned_score_panel_fits_in_every_language(run):
    assert run["clipped"] == {f"assign/{lang}": [] for lang in ("en", "sv", "da")}
    assert {"director-assigned/sv", "director-assigned/da"} <= set(run["shots"])
    assert not any("Weight" in t for t in run["texts_sv"]["director-assigned"])
