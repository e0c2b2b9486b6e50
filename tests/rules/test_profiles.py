"""Regulation profiles are data: one TOML file each, selected by name, validated on load."""
import pathlib

import pytest

from shared_rules import profiles
from shared_rules.outcome import Accepted
from shared_rules.profiles import ProfileError
from shared_rules.table import Table

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
    (lambda s: s.replace("card = true", "card = 1", 1), "stop.card has the wrong type"),
    (lambda s: s.replace("pause_without_card = false", "", 1), "stop.pause_without_card is missing"),
    (lambda s: s.replace("card = true", "card = false", 1), "neither a card nor pause_without_card"),
    (lambda s: s.replace("simultaneous_source", "# simultaneous_source"), "simultaneous_source is missing"),
    (lambda s: s.replace('simultaneous_source = "', 'simultaneous_source = " " # "'), "where the L33 window comes"),
    # 2007 L78D: the VP scale is one a source gives (shared_rules/scoring/vp_scales.py), and says why
    (lambda s: s.replace('vp_scale = "wbf"', 'vp_scale = "sbf-25-0"'), "vp_scale must be one of wbf, none"),
    (lambda s: s.replace('vp_scale_source = "', 'vp_scale_source = " " # "'), "where the VP scale comes from"),
    (lambda s: s.replace("vp_scale_source", "# vp_scale_source"), "vp_scale_source is missing"),
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


# ---------------------------------------------------------------- what rests on a cited text
def test_a_profile_is_assumed_until_every_rule_it_applies_is_cited():
    # A rule group a profile applies (call_made, and stop, alert, screens when enabled) rests on a
    # regulation only with a citation: the regulation, its edition, the section and the text
    # quoted. Until then it is assumed; so is any value the profile itself lists in `assumed`.
    assert profiles.load("fsb-2007").assumed == ()  # FSB L112C, L115, L116 in the seed texts
    dbf = profiles.load("dbf-2017").assumed
    assert {"call_made", "alert", "stop.wait_s", "stop.long_thought_s"} <= set(dbf) and "stop" not in dbf
    wbf = profiles.load("wbf-screens-2017").assumed
    # the WBF Alerting Policy gives its alerts, not who alerts; its stop and screen rules and
    # call_made rest on no WBF text found (docs/laws/choices.md #39)
    assert {"call_made", "stop", "screens", "alert.by"} <= set(wbf) and "alert" not in wbf
    # ebu and acbl cite their pause after a skip bid; its margin and enforcement stay assumed, and
    # so does what they do not cite (their alerting rules; acbl's call_made)
    for name in ("ebu", "acbl"):
        assumed = set(profiles.load(name).assumed)
        assert "stop" not in assumed and {"alert", "stop.tolerance_s", "stop.enforcement"} <= assumed, name
    assert "call_made" not in profiles.load("ebu").assumed and "call_made" in profiles.load("acbl").assumed


def test_EBU_bidding_box_regulations_the_pause_is_owed_without_the_card_and_a_call_is_made_when_taken():
    # EBU Bidding Box Regulations, "The Stop card": the pause follows a jump bid, card or not;
    # "Instructions for use": a call is made once removed from the box with apparent intent
    ebu = profiles.load("ebu")
    cites = {c.section: c for c in ebu.cites}
    assert cites["The Stop card"].covers == ("stop",) and "as though the Stop card had been used" in \
        cites["The Stop card"].quote
    assert ebu.stop.card and ebu.stop.pause_without_card and ebu.stop.wait_s == 10.0
    assert cites["Instructions for use"].covers == ("call_made",) and ebu.call_made == "taken"


def test_ACBL_skip_bid_procedure_2018_no_stop_card_and_the_lho_still_pauses():
    # ACBL Board of Directors, from 1 January 2018: no Stop card, no warning; the LHO of a jump
    # waits approximately 10 seconds
    acbl = profiles.load("acbl")
    (cite,) = acbl.cites
    assert cite.covers == ("stop",) and "should not be used" in cite.quote and "approximately 10 seconds" in cite.quote
    assert not acbl.stop.card and acbl.stop.pause_without_card and acbl.stop.wait_s == 10.0


def test_every_citation_names_the_regulation_its_edition_section_and_quotes_it():
    for name in profiles.names():
        for cite in profiles.load(name).cites:
            assert cite.regulation and cite.edition and cite.section and cite.quote and cite.covers, (name, cite)
    fsb = {c.section: c for c in profiles.load("fsb-2007").cites}
    assert "avvakta i cirka 10 sekunder" in fsb["L116B"].quote and fsb["L116B"].covers == ("stop",)


def test_WBF_alerting_policy_with_screens_every_alertable_call_is_alerted_at_any_level():
    # WBF Alerting Policy: calls at the four level or higher are not alerted "except when screens
    # are in use"; the profile cites it and has no cut-off
    wbf = profiles.load("wbf-screens-2017")
    (cite,) = [c for c in wbf.cites if "alert" in c.covers]
    assert cite.regulation == "WBF Alerting Policy" and "except when screens are in use" in cite.quote
    assert "four level or higher" in cite.quote and wbf.alert.cutoff_level is None
    table = Table("wbf-screens-2017", 1)
    assert isinstance(table.step({"t": 0.0, "seat": "N", "call": "4H"}), Accepted)
    got = table.step({"t": 1.0, "seat": "N", "alert": True})  # North alerts his 4H to East
    assert isinstance(got, Accepted) and got.timing == ()


@pytest.mark.parametrize("mutate,match", [
    (lambda s: s.replace('section = "L116B"', 'section = ""'), r"cite\[\d\]\.section must not be empty"),
    (lambda s: s.replace('covers = ["stop"]', 'covers = ["stops"]'), r"cite\[\d\]\.covers"),
    (lambda s: s.replace("assumed = []", 'assumed = ["stop.wait"]'), "assumed"),
    (lambda s: s.replace("assumed = []", ""), "assumed is missing"),
    (lambda s: s.replace('quote = "Om en', 'quot = "Om en'), r"cite\[\d\]\.quot"),
])
def test_malformed_citations_are_rejected_with_the_field_named(tmp_path, mutate, match):
    path = tmp_path / "broken.toml"
    text = mutate(GOOD)
    assert text != GOOD
    path.write_text(text)
    with pytest.raises(ProfileError, match=match):
        profiles.load_file(path)


def test_a_stop_without_a_citation_makes_the_profile_assumed(tmp_path):
    path = tmp_path / "uncited.toml"
    i = GOOD.index('[[cite]]\ncovers = ["stop"]')
    j = GOOD.index("[[cite]]", i + 1) if "[[cite]]" in GOOD[i + 1:] else len(GOOD)
    path.write_text(GOOD[:i] + GOOD[j:])
    assert profiles.load_file(path).assumed == ("stop",)


def test_the_profiles_listed_for_a_tools_help_say_which_are_assumed():
    # the tablet's and the station's --help name the profiles a TD may choose
    assert profiles.listing() == ("acbl (assumed), dbf-2017 (assumed), ebu (assumed), fsb-2007, "
                                  "wbf-screens-2017 (assumed)")
@pytest.mark.parametrize("name", ALL)
def test_L33_every_profile_says_where_its_simultaneous_window_comes_from(name):
    p = profiles.load(name)
    assert 0 < p.simultaneous_window_s <= 1.0 and "choices.md #24" in p.simultaneous_source
