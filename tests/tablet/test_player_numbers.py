"""Player numbers at the table (docs/tablet.md "Player numbers"): each player enters a member
number at the round's first board, the station's names come back for confirmation, and only
the confirmed entry is journalled and queued for the station; a number of the wrong form is
refused in the players' language and changes nothing."""
import pytest

from station.records import validate_item
from tablet_app import i18n
from tablet_app.controller import Controller, PinError, Refused
from tests.tablet.conftest import SESSION
from tests.tablet.outbox_rows import outbox_items

CLUB = {"10234": "Anna Berg", "20456": "Björn Dahl", "30789": "Cecilia Ek"}


def lookup(numbers):
    return {n: CLUB.get(n) for n in numbers}


def players_items(ctl):
    return [(k, p) for k, kind, p in outbox_items(ctl.outbox) if kind == "players"]


def test_numbers_entered_at_the_first_board_show_the_names_then_reach_the_station(make_controller):
    ctl = make_controller()
    ctl.player_lookup = lookup
    ctl.setup(SESSION)
    assert ctl.snapshot()["players"]["may_enter"] is True
    waiting = ctl.enter_player_numbers({"N": "10234", "E": " 20456 ", "S": "30789", "W": "99999"})
    assert waiting["names"] == {"N": "Anna Berg", "E": "Björn Dahl", "S": "Cecilia Ek", "W": None}
    assert waiting["looked_up"] is True and waiting["by"] == "players"
    assert ctl.snapshot()["players"]["waiting"]["numbers"]["E"] == "20456"
    assert players_items(ctl) == []  # nothing leaves the table before the players confirm
    item = ctl.confirm_player_numbers()
    [(key, payload)] = players_items(ctl)
    assert key == item.key.format() == "club-2026-11-22/A/3/2/players/1"
    assert payload["numbers"] == {"N": "10234", "E": "20456", "S": "30789", "W": "99999"}
    assert validate_item("players", key, payload)["round_no"] == 2  # what the station's door takes
    assert ctl.player_numbers()["N"] == {"number": "10234", "name": "Anna Berg"}
    assert ctl.snapshot()["players"]["waiting"] is None


def test_a_number_of_the_wrong_form_is_refused_in_the_players_language_and_changes_nothing(make_controller):
    ctl = make_controller()
    ctl.player_lookup = lookup
    ctl.setup(SESSION)
    before = ctl.journal.conn.execute("SELECT COUNT(*) FROM journal").fetchone()[0]
    for bad in ("12-34", "0000", "ABC1", "12345678901234567"):
        with pytest.raises(Refused) as e:
            ctl.enter_player_numbers({"N": "10234", "S": bad})
        assert e.value.key == "players.number_form" and e.value.params["seat"] == "S"
        assert bad in i18n.error_text(e.value, "sv") and "Syd" in i18n.error_text(e.value, "sv")
        assert "medlemsnummer" in i18n.error_text(e.value, "da")
    with pytest.raises(Refused) as e:
        ctl.enter_player_numbers({"N": "", "S": None})
    assert e.value.key == "players.none"
    assert ctl.snapshot()["players"]["waiting"] is None
    assert ctl.journal.conn.execute("SELECT COUNT(*) FROM journal").fetchone()[0] == before
    assert players_items(ctl) == []
    with pytest.raises(Refused):
        ctl.confirm_player_numbers()  # nothing waiting


def test_after_the_first_call_only_the_director_enters_numbers(make_controller, clock):
    ctl = make_controller()
    ctl.setup(SESSION)  # no station: the numbers go unnamed
    clock.advance(2)
    assert ctl.box_event("N", "call", call="1C")["ok"]
    assert ctl.snapshot()["players"]["may_enter"] is False
    with pytest.raises(Refused) as e:
        ctl.enter_player_numbers({"N": "10234"})
    assert e.value.key == "players.too_late"
    with pytest.raises(PinError):
        ctl.enter_player_numbers({"N": "10234"}, pin="0000")
    waiting = ctl.enter_player_numbers({"N": "10234"}, pin="4321")
    assert waiting == {"numbers": {"N": "10234"}, "names": {"N": None}, "looked_up": False, "by": "director"}
    ctl.confirm_player_numbers()
    [(_key, payload)] = players_items(ctl)
    assert payload["by"] == "director"


def test_a_correction_is_the_next_entry_and_a_restart_numbers_on(make_controller, tmp_path, clock):
    db = tmp_path / "journal.db"
    ctl = make_controller(db)
    ctl.setup(SESSION)
    ctl.enter_player_numbers({"N": "10234", "S": "30789"})
    ctl.confirm_player_numbers()
    ctl.close()
    again = Controller(db, clock=clock)  # the journal replays the entry
    try:
        assert again.player_numbers()["S"]["number"] == "30789"
        again.enter_player_numbers({"S": "20456"})
        second = again.confirm_player_numbers()
        assert second.key.format().endswith("/2/players/2")
        assert again.player_numbers() == {"N": {"number": "10234", "name": None},
                                          "S": {"number": "20456", "name": None}}
    finally:
        again.close()


def test_a_station_out_of_reach_leaves_the_numbers_unnamed(make_controller):
    ctl = make_controller()

    def unreachable(numbers):
        raise OSError("no route to host")

    ctl.player_lookup = unreachable
    ctl.setup(SESSION)
    waiting = ctl.enter_player_numbers({"W": "10234"})
    assert waiting["looked_up"] is False and waiting["names"] == {"W": None}
