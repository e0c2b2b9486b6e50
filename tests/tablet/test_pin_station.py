"""The tablet with the club's PIN kept at the station (docs/station.md "The director PIN"): the
station checks it and grants a sign-in for the tablet's one-time nonce; a tablet keeps its own
check of the PIN the station confirmed there, for when the station is out of reach; a tablet that
never had it confirmed cannot take it offline."""
import json
import sqlite3

import pytest
from bridgemate_dataconnector import DataConnectorClient

from tablet_app import pin
from tablet_app.controller import PinError, PinLocked
from tablet_app.station_client import check_director_pin, pin_checker, setup_from_station
from tests.station.conftest import EVENT
from tests.station.test_movement import mitchell_init

pytestmark = pytest.mark.server  # starts the results station as a process

PIN = "97531"  # the station fixture's (tests/tablet/conftest.py)
T1 = f"{EVENT}/A/1"


@pytest.fixture
def tablet(station, make_controller, tmp_path):
    DataConnectorClient("club-7", station.token, station.url).initialize(mitchell_init())
    ctl = make_controller(tmp_path / "tablet.db")
    setup_from_station(ctl, station.url, "1", station.keys[T1], 1)
    return ctl


def stored_files(tmp_path):
    return b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("tablet.db"))


def test_the_station_checks_the_pin_and_the_tablet_keeps_only_what_it_confirmed(tablet, station, tmp_path):
    ctl = tablet
    assert ctl.session.td_pin == pin.STATION and ctl.pin_check is not None
    assert not ctl.check_pin("11111")  # wrong at the station: journalled here too, and counted there
    assert ctl.pin_state()["wrong_tries"] == 1
    assert [k for _, k, _ in ctl.journal.records()].count("pin_wrong") == 1
    token = ctl.sign_in(PIN)
    assert ctl.check_pin(token) and ctl.pin_state()["wrong_tries"] == 0
    # The journal holds no hash of the PIN (the station checks it); the club's settings hold a
    # salted hash of the PIN the station confirmed at this tablet, for a station out of reach.
    setup = next(body for _, kind, body in ctl.journal.records() if kind == "setup")
    assert setup["session"]["td_pin"] == {"algorithm": "station"}
    seen = ctl.club["director_pin_seen"]
    assert pin.verify(PIN, seen) and seen["hash"].encode() not in b"".join(
        json.dumps(body).encode() for _, _, body in ctl.journal.records())
    assert PIN.encode() not in stored_files(tmp_path)
    # the station out of reach: the PIN it confirmed here still signs in, a wrong one still counts
    station.stop()
    assert ctl.check_pin(PIN)
    assert not ctl.check_pin("22222") and ctl.pin_state()["wrong_tries"] == 1


def test_a_tablet_the_station_never_confirmed_the_pin_at_cannot_take_it_offline(tablet, station):
    ctl = tablet
    station.stop()
    n = ctl.journal.count()
    with pytest.raises(PinError) as e:
        ctl.sign_in(PIN)
    assert e.value.key == "pin.offline_unknown" and e.value.params["reason"] == "unreachable"
    # not a wrong try: nothing was looked at
    assert ctl.journal.count() == n and ctl.pin_state()["wrong_tries"] == 0


def test_the_stations_lockout_holds_at_the_tablet(tablet, station, boot):
    ctl = tablet
    for _ in range(3):
        assert not ctl.check_pin("11111")
    # the station counted them too; its wait made long, so that no slow machine sees it end
    conn = sqlite3.connect(station.db)
    name = f"pin_lockout/{EVENT}/A/1"
    assert json.loads(conn.execute("SELECT value FROM settings WHERE name = ?", (name,)).fetchone()[0])["wrong"] == 3
    conn.execute("UPDATE settings SET value = ? WHERE name = ?", (json.dumps({"wrong": 3, "until": 4e9}), name))
    conn.commit()
    conn.close()
    boot.advance(ctl.pin_state()["wait_s"])  # the tablet's own wait is over (its clock is the test's) ...
    with pytest.raises(PinLocked) as e:  # ... the station's, on the station's clock, is not
        ctl.sign_in(PIN)
    assert e.value.params["station"] is True and e.value.params["wait_s"] >= 1
    assert ctl.pin_state()["wrong_tries"] == 3  # refused unseen: not one more wrong try


def test_a_grant_not_asked_for_or_not_signed_with_the_table_key_is_not_taken(tablet, station):
    ctl = tablet
    key = station.keys[T1]
    # a yes to another request (a reply recorded and played again): refused, and not a wrong try
    ctl.pin_check = lambda table, digits, nonce: pin.StationVerdict("granted", nonce="00" * 16)
    with pytest.raises(PinError) as e:
        ctl.sign_in(PIN)
    assert e.value.key == "pin.station_stale"
    # a reply that says granted without the table key's signature is no answer from the station
    forged = {"granted": True, "table": T1, "nonce": "ab" * 16, "valid_s": 30, "mac": "00" * 32}
    assert not pin.grant_ok(forged, key, T1, "ab" * 16)
    assert pin.grant_ok({**forged, "mac": pin.grant_mac(key, T1, "ab" * 16, 30)}, key, T1, "ab" * 16)
    # the station's real answer, through the tablet's own client
    assert check_director_pin(station.url, T1, key, PIN, "ab" * 16).outcome == "granted"
    assert check_director_pin(station.url, T1, "wrong-key", PIN, "ab" * 16) == \
        pin.StationVerdict("unavailable", reason="refused")
    ctl.pin_check = pin_checker(station.url, key)
    assert ctl.check_pin(PIN)


def test_the_clubs_grace_set_at_the_station_reaches_the_tablet_and_a_bad_one_changes_nothing(make_controller, tmp_path):
    import subprocess
    import sys

    from tablet_app.session import SetupError
    from tests.station.conftest import StationProcess

    db = str(tmp_path / "station.db")
    st = StationProcess(db, tmp_path, ["--director-pin", PIN, "--director-grace", "20", "--profile", "dbf-2017"]).start()
    try:
        DataConnectorClient("club-7", st.token, st.url).initialize(mitchell_init())
        ctl = make_controller(tmp_path / "tablet.db")
        assert ctl.director()["grace_setting"] == 0  # 0 by default: the PIN every time
        setup_from_station(ctl, st.url, "1", st.keys[T1], 1)
        assert ctl.director() == {"signed_in": False, "grace_s": 0, "grace_setting": 20}
    finally:
        st.stop()
    # out of range at the station: refused with a clear line, the club's setting kept
    r = subprocess.run([sys.executable, "-m", "station", "--db", db, "--director-grace", "121", "--no-serve"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "--director-grace must be 0 to 120 seconds" in r.stderr
    assert sqlite3.connect(db).execute("SELECT value FROM settings WHERE name = 'director_grace_s'").fetchone() == ("20",)
    # and at the tablet
    for bad in (121, -1, "20", True):
        with pytest.raises(SetupError) as e:
            ctl.set_club_defaults(director_grace_s=bad)
        assert e.value.key == "setup.grace"
    assert ctl.director()["grace_setting"] == 20
