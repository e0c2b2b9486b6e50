"""Regulation profiles are data: one TOML file each, selected by name, validated on load."""
import pathlib

import pytest

from shared_rules import profiles
from shared_rules.profiles import ProfileError

ALL = ["acbl", "dbf-2017", "ebu", "fsb-2007", "wbf-screens-2017"]


def test_the_five_profiles_exist_and_load():
    assert profiles.names() == ALL
    for name in ALL:
        p = profiles.load(name)
        assert p.name == name and p.edition in (2007, 2017) and p.policy in ("record", "prevent")


def test_fsb_2007_is_the_swedish_2007_rules():
    p = profiles.load("fsb-2007")
    assert p.edition == 2007
    assert p.stop.triggers == ("opening_two_level", "jump") and p.stop.wait_s == 10.0  # FSB L116B
    assert p.alert.by == ("partner",) and p.alert.cutoff_level == 4  # FSB L115B
    assert p.screens.enabled is False


def test_dbf_2017_and_wbf_screens():
    assert profiles.load("dbf-2017").edition == 2017 and profiles.load("dbf-2017").alert.cutoff_level is None
    w = profiles.load("wbf-screens-2017")
    assert w.screens.enabled and "self" in w.alert.by and w.screens.tray_delay_s > 0


def test_profiles_are_frozen():
    p = profiles.load("fsb-2007")
    with pytest.raises(AttributeError):
        p.edition = 2017


@pytest.mark.parametrize("name", ["nope", "", "../fsb-2007", "FSB-2007", None, 7])
def test_unknown_profile_names_are_rejected(name):
    with pytest.raises(ProfileError, match="profile"):
        profiles.load(name)


GOOD = (pathlib.Path(profiles.__file__).parent / "fsb-2007.toml").read_text()


@pytest.mark.parametrize("mutate,match", [
    (lambda s: s.replace("edition = 2007", "edition = 2011"), "edition must be one of"),
    (lambda s: s.replace('policy = "record"', 'policy = "ignore"'), "policy"),
    (lambda s: s.replace("wait_s = 10.0", 'wait_s = "ten"'), "wrong type"),
    (lambda s: s.replace("wait_s = 10.0", "wait_s = -3"), "stop.wait_s"),
    (lambda s: s.replace('by = ["partner"]', 'by = ["opponent"]'), "alert.by"),
    (lambda s: s.replace("cutoff_level = 4", "cutoff_level = 9"), "cutoff_level"),
    (lambda s: s.replace("enabled = true", "enabled = 1", 1), "wrong type"),
    (lambda s: s + "\nsurprise = 1\n", "not a known field"),
    (lambda s: s.replace('title = "Sweden', 'titel = "Sweden'), "title is missing|titel"),
    (lambda s: s.replace('screenmates = [["N", "E"], ["S", "W"]]', 'screenmates = [["N", "N"], ["S", "W"]]'), "screenmates"),
    (lambda s: s.replace("[stop]", "[stop"), "TOML"),
    (lambda s: s.replace("simultaneous_source", "# simultaneous_source"), "simultaneous_source is missing"),
    (lambda s: s.replace('simultaneous_source = "', 'simultaneous_source = " " # "'), "where the L33 window comes"),
])
def test_malformed_profiles_are_rejected_with_the_field_named(tmp_path, mutate, match):
    path = tmp_path / "broken.toml"
    path.write_text(mutate(GOOD))
    with pytest.raises(ProfileError, match=match):
        profiles.load_file(path)


def test_good_file_round_trips(tmp_path):
    path = tmp_path / "copy.toml"
    path.write_text(GOOD)
    assert profiles.load_file(path) == profiles.load("fsb-2007")


@pytest.mark.parametrize("name", ALL)
def test_L33_every_profile_says_where_its_simultaneous_window_comes_from(name):
    p = profiles.load(name)
    assert 0 < p.simultaneous_window_s <= 1.0 and "choices.md #24" in p.simultaneous_source
