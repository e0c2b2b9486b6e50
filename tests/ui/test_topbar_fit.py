"""The top bar's title is never cut beside a notice (a result confirmed and sent, member numbers
saved, the journal recovered, the round moved on): on the real Kivy app under Xvfb
(tests/ui/drive_topbar.py), the widest title of each language beside the widest notice, upright
and flat, measured with Kivy's renderer (tests/ui/fit.py)."""
import pytest

from tests.ui.conftest import run_driver

LAYOUTS = [f"{lang}/{layout}" for lang in ("en", "sv", "da") for layout in ("upright", "flat")]


@pytest.fixture(scope="module")
def session(xvfb_display, tmp_path_factory):
    return run_driver("drive_topbar.py", tmp_path_factory.mktemp("ui"), xvfb_display)


@pytest.mark.parametrize("key", LAYOUTS)
def test_the_widest_title_and_the_widest_notice_fit_the_top_bar(session, key):
    bar = session["bar"][key]
    assert bar["title"] == bar["header"]  # the whole title, nothing cut or shortened
    assert bar["note"]  # the notice is shown ...
    assert bar["note_height"] > 0 and bar["height"] > 72  # ... on a line of its own under the title
    assert session["clipped"][key] == [] and session["inside"][key]


def test_every_notice_was_a_candidate_and_the_widest_ones_were_shown(session):
    assert session["notices"] == ["damaged_recovered", "players_saved", "result_sent", "round_moved"]
    shown = {key: notice for key, (_board, notice) in session["shown"].items()}
    assert set(shown) == set(LAYOUTS)
    # the recovered journal's notice, with the path of the kept file, is the widest in every language
    assert set(shown.values()) == {"damaged_recovered"}
    # Danish and Swedish vulnerabilities are the laws' words (2007 L2 "i riskzonen", 2017 § 2 "i farezonen")
    da = session["bar"]["da/upright"]["title"]
    assert "farezonen" in da and "Kortgiver" in da
    assert "riskzon" in session["bar"]["sv/upright"]["title"]


def test_without_a_notice_the_bar_is_one_line(session):
    assert session["plain"] == {"height": 72, "note_opacity": 0, "inside": True}


def test_every_screens_bar_shows_its_title_inside_it(session):
    assert set(session["screens"]) == {"director", "tempo", "result", "round_end", "auction"}
    for name, bar in session["screens"].items():
        assert bar["title"].startswith("Spil "), name  # the Danish of the last shot
        assert bar["inside"] and bar["clipped"] == [], (name, bar)
