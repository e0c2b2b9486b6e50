"""The board chooser works for any number of boards a round can have (1 to 36: a Howell, a club's
one-round evening): on the real Kivy app under Xvfb (tests/ui/drive_board_chooser.py), in
en/sv/da, upright and flat, with and without a refusal shown, every text fits its widget (measured
with Kivy's renderer, tests/ui/fit.py), *Other number* keeps the width its text needs, the
auction's first row stays in view, and every board is reachable and starts when chosen. The app is
started once: the table plays a round of each size in turn (the director ends each round and
starts the next), and each size is its own test."""
import pytest

from tests.ui.conftest import run_driver

COUNTS = (1, 4, 16, 36)
KEYS = [f"{lang}/{layout}{state}" for lang in ("en", "sv", "da") for layout in ("upright", "flat")
        for state in ("", "/refused")]


@pytest.fixture(scope="module")
def rounds(xvfb_display, tmp_path_factory):
    """The checks of every round, from one run of the app."""
    checks = run_driver("drive_board_chooser.py", tmp_path_factory.mktemp("boards"), xvfb_display, *COUNTS)
    return checks


@pytest.fixture(params=COUNTS)
def chooser(request, rounds):
    count = request.param
    checks = rounds["rounds"][str(count)]
    # each round after the first was started by the director, on its first board
    assert checks["round"] == ["auction", list(range(1, count + 1))], count
    return count, {**checks, "shots": rounds["shots"]}


def test_every_label_fits_and_the_chooser_leaves_the_auction_in_view(chooser):
    count, checks = chooser
    played = [f"{lang}/{layout}/played" for lang in ("en", "sv", "da") for layout in ("upright", "flat")]
    assert set(checks["shown"]) == set(KEYS + (played if count > 1 else []))
    for key, shown in checks["shown"].items():
        assert shown["clipped"] == [], (count, key, shown["clipped"])
        assert shown["chooser_inside"] and shown["status_inside"] and shown["buttons_inside"], (count, key)
        assert shown["first_call_in_view"], (count, key, shown["auction_height"])
        # "Other number" (152 px of text in English) is never squeezed by the boards' buttons
        assert shown["other_width"] >= 160, (count, key)
        assert shown["boards"] == list(range(1, count + 1))
        assert bool(shown["msg"]) == key.endswith("/refused"), (count, key)
        if key.endswith("/refused"):
            assert str(count + 1) in shown["msg"]
        # the last board, once played, says so under its number (in the language shown)
        assert shown["marked"] == ([count] if key.endswith("/played") else []), (count, key)


def test_the_boards_take_pages_only_when_one_does_not_hold_them(chooser):
    count, checks = chooser
    for key, shown in checks["shown"].items():
        pages = shown["pages"]
        if count <= 16 and key.count("/") == 1:
            # up to 16 boards share one page in either layout
            assert pages == [] and shown["on_page"] == count, (count, key)
        if pages:
            # the pages' buttons name their boards and cover the round between them
            spans = [tuple(map(int, p.split("-"))) if "-" in p else (int(p), int(p)) for p in pages]
            assert spans[0][0] == 1 and spans[-1][1] == count, (count, key, pages)
            assert all(b[0] == a[1] + 1 for a, b in zip(spans, spans[1:], strict=False)), (count, key, pages)
            assert shown["on_page"] == spans[0][1] - spans[0][0] + 1
    assert checks["shown"]["en/upright"]["on_page"] == count  # upright, 36 boards fit on one page
    if count == 36:
        assert checks["shown"]["en/flat"]["pages"] == ["1-18", "19-36"]


def test_every_board_is_reachable_and_choosing_it_puts_it_on_the_table(chooser):
    count, checks = chooser
    assert checks["chosen"] == {str(n): [n, ""] for n in range(1, count + 1)}
    # typed in the number field and chosen by Other number: on the table, the field emptied
    assert checks["typed"] == [1, "", ""]
    assert {f"board-chooser-{count}/en", f"board-chooser-{count}-flat/da"} <= set(checks["shots"])
    if count > 1:
        assert checks["after_play"] == ["auction", [count]]
