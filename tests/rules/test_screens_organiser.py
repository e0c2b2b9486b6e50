"""Screens wherever the regulation has screen rules, turned on by the organiser for a table.

FSB L114: "Spelare är skyldiga att använda skärmar, när arrangören så kräver" (players must use
screens when the organiser requires them); 2007/2017 L80B2(e): the organiser sets the conditions
of play, e.g. play with screens ("spel med skärmar", "spil med skærme"). So "screens available
under this regulation" is profile data (`[screens] available`), "screens on at this table" is the
table's configuration (`Table(..., screens=True)`, a log's top-level `"screens": true`).
"""
from __future__ import annotations

import io
import json

import pytest

from shared_rules import profiles
from shared_rules.replay import LogError, replay
from shared_rules.replay_cli import main as replay_main
from shared_rules.table import EventError, Table

from .helpers import events

WITH_SCREEN_RULES = ["fsb-2007", "dbf-2017", "wbf-screens-2017"]


def test_FSB_L114_fsb_2007_has_screen_rules_and_screens_are_off_until_the_organiser_requires_them():
    p = profiles.load("fsb-2007")
    assert p.screens.available and not p.screens.enabled
    assert Table("fsb-2007", 1).state()["tray"] is None
    on = Table("fsb-2007", 1, screens=True)
    assert on.state()["tray"] == {"seats": ["N", "E"], "passes": []}
    assert on.profile.name == "fsb-2007" and on.profile.screens.law.startswith("FSB L114")


@pytest.mark.parametrize("name", WITH_SCREEN_RULES)
def test_2017_L80B2e_every_profile_with_screen_rules_plays_a_screen_table(name):
    table = Table(name, 1, screens=True)
    for e in events("N 1C", "E P"):
        table.step(e)
    assert [c["call"] for c in table.visible_calls("S")] == []  # the tray has not passed
    assert table.step({"t": 30.0, "tray": True}).status == "bidding"
    assert [c["call"] for c in table.visible_calls("S")] == ["1C", "P"]


@pytest.mark.parametrize("name", ["ebu", "acbl"])
def test_screens_cannot_be_turned_on_under_a_regulation_without_screen_rules(name):
    with pytest.raises(EventError, match="has no screen rules"):
        Table(name, 1, screens=True)


def test_the_organiser_may_turn_screens_off_at_a_table_of_a_screen_profile():
    table = Table("wbf-screens-2017", 1, screens=False)
    assert table.state()["tray"] is None and table.tray_due_at() is None


def test_FSB_L115B_with_screens_every_alertable_call_is_alerted_past_4C():
    # FSB L115B: no alerts once a bid of 4C or more is made, "Undantaget är när man spelar med
    # skärmar, då alla alerteringsbara bud skall alerteras"
    setup = events("N 1C", "E 4H", {"tray": True}, "S 4NT")
    without, screened = Table("fsb-2007", 1), Table("fsb-2007", 1, screens=True)
    for e in setup:
        if "tray" not in e:
            without.step(e)
        screened.step(e)
    alert = {"t": 10.0, "seat": "N", "alert": True}  # N alerts S's 4NT (no tray has brought it: refused)
    assert without.step(alert).kind == "alert_not_permitted"
    got = screened.step({"t": 10.0, "seat": "W", "alert": True})  # W alerts E's 4H to S
    assert got.status == "bidding" and not [f for f in got.timing if f["kind"] == "alert_not_permitted"]


def test_a_log_says_screens_at_the_top_level_and_replay_rules_it_as_a_screen_table():
    log = {"profile": "fsb-2007", "board": 1, "screens": True,
           "events": events("N 1C", "E P", {"tray": True}, "S 1H")}
    assert replay(log)["tray"]["passes"] == [{"t": 2.0, "to": ["S", "W"], "calls": 2}]
    with pytest.raises(LogError, match="no tray"):
        replay({**log, "screens": False})
    with pytest.raises(LogError, match="screens must be true or false"):
        replay({**log, "screens": "yes"})
    out = io.StringIO()
    assert replay_main(["-"], stdin=io.StringIO(json.dumps(log)), stdout=out) == 0
    assert json.loads(out.getvalue())["tray"]["seats"] == ["S", "W"]


def test_a_profile_that_turns_screens_on_must_have_screen_rules():
    import tomllib

    data = tomllib.loads((profiles.HERE / "wbf-screens-2017.toml").read_text(encoding="utf-8"))
    assert profiles.parse(data).screens.available
    data["screens"]["available"] = False
    with pytest.raises(profiles.ProfileError, match="screens.enabled needs screens.available"):
        profiles.parse(data)
    data["screens"]["available"] = True
    data["screens"]["partner_alert"] = "whenever"
    with pytest.raises(profiles.ProfileError, match="partner_alert must be one of"):
        profiles.parse(data)
