"""A table starts in the club's language with the club's regulations chosen (the station's
`--language` and `--profile`, sent with the movement and kept by the tablet); the TD may still
change them. The real app, started as a club starts it, with no `--lang`."""
import pytest

from tablet_app import i18n

from .conftest import run_driver

pytestmark = pytest.mark.ui


def test_setup_screen_prefilled_in_swedish_from_the_clubs_settings(xvfb_display, tmp_path):
    checks = run_driver("drive_club_start.py", tmp_path, xvfb_display)
    assert checks["rc"] == 0
    assert checks["screen"] == "setup" and checks["lang"] == "sv"
    assert checks["profile"] == ["fsb-2007", i18n.profile_name("fsb-2007", "sv")]
    assert "SV" in checks["texts"]  # the language button
    assert i18n.tr("setup_choose_profile", "sv") not in checks["texts"]
    # the TD changes the language; the club's regulations stay chosen
    assert checks["after"] == ["da", "fsb-2007"]
