"""The director ends the round while a ruling is not finished, on the real Kivy app under Xvfb in
Swedish (tests/ui/drive_end_round_ruling.py): *End the round* under the Law's options, a
confirmation that names the ruling with its Law and what ending does to it, *Finish the ruling
first* back to the options, and the end that leaves it journalled (2007 L8B1, L27;
docs/laws/choices.md #42; the controller's side: tests/tablet/test_td_end_round_ruling.py)."""
import pytest

from tests.ui.conftest import run_driver
from tests.ui.test_app import english_left


@pytest.fixture(scope="module")
def session(xvfb_display, tmp_path_factory):
    return run_driver("drive_end_round_ruling.py", tmp_path_factory.mktemp("ui"), xvfb_display)


def test_2007_L9B2_a_ruling_raised_after_the_confirmation_was_drawn_is_not_left_unseen(session):
    assert "Ja - avsluta rond 1, starta rond 2" in session["before_texts"]
    assert not any("Domslutet" in t for t in session["before_texts"])
    screen, mode, said, ended, shown = session["raised_since"]
    assert (screen, mode, ended) == ("director", "end_round", [])
    assert "Domslutet på bricka 1 (2007 L27) är inte fällt" in said
    assert any("Domslutet på bricka 1 är inte fällt" in t for t in shown)
    assert "Avsluta rond 1 ändå, starta rond 2" in shown
    assert session["message_after_back"] == ""  # back on the options, the refusal is over


def test_2007_L8B1_end_the_round_is_offered_under_the_laws_options(session):
    assert session["phase"] == "frozen"
    assert session["options"] == ["accept", "replace", "unintended"]  # 2007 L27A1, L27B, L25A
    assert "end_round" in session["tools"]
    assert any("Avsluta ronden" in t and "2007 L8B1" in t for t in session["options_texts"])
    assert session["options_clipped"] == []


def test_2007_L27_the_confirmation_names_the_ruling_its_law_and_what_the_end_does(session):
    assert session["mode"] == "end_round"
    shown = "\n".join(session["confirm_texts"])
    assert "Domslutet på bricka 1 är inte fällt: Otillräckligt bud (2007 L27)" in shown
    assert "Syd kan ännu godkänna det genom att bjuda; annars väljer tävlingsledaren" in shown
    assert ("Avslutas ronden nu förblir domslutet ofällt: det noteras med rondens slut, och bricka 1 får inget "
            "resultat från bordet") in shown
    assert "Sedan börjar rond 2:" in shown and "Bricka 1 spelas: den avbryts utan resultat" in shown
    assert "Fäll domslutet först" in shown and "Avsluta rond 1 ändå, starta rond 2" in shown
    assert "\n".join(session["confirm_texts_again"]) == shown
    assert session["confirm_clipped"] == []


def test_finish_the_ruling_first_goes_back_to_the_options_with_nothing_journalled(session):
    assert session["back"] == ["director", None, ["accept", "replace", "unintended"], 0, "frozen"]


def test_2007_L8B1_ending_anyway_leaves_the_ruling_in_the_rounds_end(session):
    assert session["after"] == ["auction", "auction", 2, 3]
    assert session["round_end"] == [{"by": "director", "in_play": 1, "without_result": [1, 2],
                                     "ruling": {"board": 1, "kind": "insufficient_bid", "law": "2007 L27",
                                                "seat": "E", "asks": "lho", "call": "1D"}}]
    assert session["results"] == []


def test_the_ruling_screens_have_no_english_in_swedish_and_danish(session):
    for lang in ("sv", "da"):
        for shot in ("director-ruling-end-round", "director-end-round-ruling"):
            assert shot in session[f"texts_{lang}"]
        assert not english_left(session[f"texts_{lang}"], lang)
    da = "\n".join(session["texts_da"]["director-end-round-ruling"])
    assert "Afgørelsen på spil 1 er ikke truffet" in da and "Træf afgørelsen først" in da
