"""The club's language and regulations come from the station's movement reply and stay with the
tablet for the setup screen and the next start (station `--language`, `--profile`)."""
from tablet_app.controller import Controller
from tablet_app.station_client import club_defaults


def test_the_clubs_language_and_regulations_are_kept_across_a_restart(tmp_path):
    movement = {"profile": "fsb-2007", "language": "sv", "event": "e"}
    assert club_defaults(movement) == {"profile": "fsb-2007", "language": "sv"}
    ctl = Controller(tmp_path / "t.db")
    try:
        assert "language" not in ctl.club  # nothing assumed before the club says
        ctl.set_club_defaults(**club_defaults(movement))
    finally:
        ctl.close()
    ctl = Controller(tmp_path / "t.db")
    try:
        assert ctl.club["language"] == "sv" and ctl.setup_defaults()["profile"] == "fsb-2007"
    finally:
        ctl.close()


def test_a_language_the_tablet_does_not_speak_is_not_taken():
    assert club_defaults({"language": "fr"}) == {}
    assert club_defaults({"language": 3, "profile": ""}) == {}


def test_the_station_address_is_typed_once_and_kept_for_the_next_start(tmp_path):
    """`--station` as the station printed it, with the table and its key, the first time; the
    next start of the same tablet finds them without."""
    import argparse

    from tablet_app.app import remember_station

    url = "https://192.168.1.20:8080/#sha256=" + "ab" * 32
    ctl = Controller(tmp_path / "t.db")
    try:
        remember_station(ctl, argparse.Namespace(station=url, table="3", table_key="KEY"))
    finally:
        ctl.close()
    ctl = Controller(tmp_path / "t.db")
    try:
        later = argparse.Namespace(station=None, table=None, table_key="")
        remember_station(ctl, later)
        assert (later.station, later.table, later.table_key) == (url, "3", "KEY")
        # a tablet never given one stays without
        fresh = Controller(tmp_path / "other.db")
        try:
            none = argparse.Namespace(station=None, table=None, table_key="")
            remember_station(fresh, none)
            assert none.station is None
        finally:
            fresh.close()
    finally:
        ctl.close()
