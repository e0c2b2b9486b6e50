"""Who may weight an assigned adjusted score is the regulation profile's `[adjusted]` (Law
12C1(c)): 2017, the director ("En korrigeret score kan dannes som en vægtet score"); the Swedish
2007 edition, an appeals committee and the Laws Commission only ("kan en tävlingsjury och LK
låta det tilldelade korrigerade resultatet viktas"). The scoring presets of the same names read
it from there."""
import pathlib

import pytest

from shared_rules import profiles
from shared_rules.profiles import ProfileError
from shared_rules.scoring.rules import RULES

GOOD = (pathlib.Path(profiles.__file__).parent / "fsb-2007.toml").read_text()


@pytest.mark.parametrize("name", profiles.names())
def test_L12C1c_every_profile_says_who_may_weight_and_by_which_law(name):
    p = profiles.load(name)
    want = (False, "2007 L12C1(c)") if p.edition == 2007 else (True, "2017 L12C1(c)")
    assert (p.adjusted.weighting_by_td, p.adjusted.law) == want


def test_2007_L12C1c_the_scoring_presets_take_the_permission_from_the_profile():
    for name, rules in RULES.items():
        assert rules.weighting_by_td is profiles.load(name).adjusted.weighting_by_td
    assert RULES["fsb-2007"].weighting_by_td is False and RULES["dbf-2017"].weighting_by_td is True


@pytest.mark.parametrize("mutate,match", [
    (lambda s: s.replace("weighting_by_td = false", 'weighting_by_td = "no"'), "adjusted.weighting_by_td"),
    (lambda s: s.replace("weighting_by_td = false\n", ""), "adjusted.weighting_by_td is missing"),
    (lambda s: s.replace('law = "2007 L12C1(c)"', 'law = " "'), "adjusted.law must name the Law"),
    (lambda s: s.replace("[adjusted]", "[adjusted_scores]"), "adjusted is missing|adjusted_scores"),
])
def test_L12C1c_a_malformed_adjusted_table_is_refused_with_the_field_named(tmp_path, mutate, match):
    path = tmp_path / "broken.toml"
    path.write_text(mutate(GOOD))
    with pytest.raises(ProfileError, match=match):
        profiles.load_file(path)
