"""The Law's texts fit where the real app shows them, in English, Swedish and Danish, upright and
flat: measured with Kivy's renderer against each label's size under Xvfb (tests/ui/drive_texts.py,
tests/ui/fit.py), not guessed from the English words."""
import pytest

from tests.ui.conftest import run_driver


@pytest.fixture(scope="module")
def session(xvfb_display, tmp_path_factory):
    return run_driver("drive_texts.py", tmp_path_factory.mktemp("ui"), xvfb_display)


REPEAT = {"en": "North must repeat 4\u2660", "sv": "Nord måste upprepa 4\u2660", "da": "Nord skal gentage 4\u2660"}
LONG = {"en": "long thought after STOP", "sv": "lång betänketid efter STOPP", "da": "lang betænkningstid efter STOP"}


@pytest.mark.parametrize("lang", ("en", "sv", "da"))
@pytest.mark.parametrize("layout", ("upright", "flat"))
def test_2007_L31A1_the_repeat_is_shown_and_fits_on_the_auction_screen(session, lang, layout):
    key = f"auction/{lang}/{layout}"
    shown = session["texts"][key]
    lines = [t for t in shown if REPEAT[lang] in t]
    assert lines, shown
    if layout == "flat":  # the consequences and North's own strip
        assert any(t.startswith(f"[b]{REPEAT[lang].split()[0]}[/b]") for t in lines), lines
    mine = [c for c in session["clipped"][key] if any(w in c["text"] for w in (REPEAT[lang], "2007 L31A1"))]
    assert mine == []


@pytest.mark.parametrize("lang", ("en", "sv", "da"))
def test_FSB_L116B_the_long_thought_is_on_the_slow_call_and_fits(session, lang):
    key = f"tempo/{lang}/upright"
    shown = session["texts"][key]
    flagged = [i for i, t in enumerate(shown) if LONG[lang] in t]
    assert len(flagged) == 1, shown
    # the row reads: #, seat, call, think, marks, flags; East's pass after 17.6 s is row 2
    i = flagged[0]
    assert "17.6" in shown[i - 2] or "17.6" in shown[i - 1], shown[i - 5:i + 1]
    assert [c for c in session["clipped"][key] if LONG[lang] in c["text"]] == []


def test_nothing_is_cut_on_the_auction_and_tempo_screens_in_any_language_or_layout(session):
    assert {k: v for k, v in session["clipped"].items() if v} == {}
    assert len(session["clipped"]) == 9  # auction: 3 languages x 2 layouts; tempo: 3 languages
