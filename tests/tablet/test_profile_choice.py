"""Where a TD chooses the regulation profile (the tablet's setup screen, the tablet's and the
station's --help), a profile whose values rest on no cited regulation text says "assumed"
(shared_rules profiles: `cite`, `assumed`)."""
from __future__ import annotations

import subprocess
import sys

import pytest

from shared_rules import profiles
from tablet_app import i18n, present

MARK = {"en": "(assumed)", "sv": "(antagna värden)", "da": "(antagne værdier)"}


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_setup_screen_marks_the_assumed_profiles(lang):
    choices = present.profile_choices(lang)
    assert list(choices) == profiles.names()
    for name, label in choices.items():
        assert label.startswith(i18n.profile_name(name, lang))
        assert label.endswith(MARK[lang]) is bool(profiles.load(name).assumed), (name, label)
    assert not choices["fsb-2007"].endswith(MARK[lang]) and choices["ebu"].endswith(MARK[lang])
    assert len(set(choices.values())) == len(choices)  # a picked label gives back one profile


@pytest.mark.parametrize("module", ["tablet_app.app", "station"])
def test_the_help_of_the_tablet_and_the_station_marks_the_assumed_profiles(module):
    proc = subprocess.run([sys.executable, "-m", module, "--help"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    text = " ".join(proc.stdout.split())  # argparse wraps the lines
    assert "ebu (assumed)" in text and "acbl (assumed)" in text and "wbf-screens-2017 (assumed)" in text
    assert "fsb-2007 (assumed)" not in text and "fsb-2007" in text
