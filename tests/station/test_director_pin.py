"""The club's director PIN kept at the station (station/director_pin.py). Found by an attack: the
movement reply carried the PIN's PBKDF2 hash to every table-key holder, and a 4-digit PIN fell in
about 20 minutes on one core, a 6-digit one in about 33 hours. Now the reply carries nothing of
the PIN, and a guess costs a request the station counts and locks out."""
import json
import sqlite3

import pytest
from bridgemate_dataconnector import DataConnectorClient

from station import director_pin
from station.store import Store
from tablet_app import pin

from .conftest import EVENT, StationProcess
from .test_movement import mitchell_init

pytestmark = pytest.mark.server  # starts the results station as a process

PIN = "97531"
T1, T2 = f"{EVENT}/A/1", f"{EVENT}/A/2"


def ask(st, digits, table=T1, nonce="ab" * 16, key=None):
    body = json.dumps({"pin": digits, "nonce": nonce}).encode()
    return st.request("POST", "/api/v1/director-pin", body, st.table_headers(table, key))


def every_value(doc):
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield k
            yield from every_value(v)
    elif isinstance(doc, list):
        for v in doc:
            yield from every_value(v)
    else:
        yield doc


def test_the_movement_reply_holds_nothing_of_the_pin_to_guess_against(tmp_path):
    db = str(tmp_path / "station.db")
    st = StationProcess(db, tmp_path, ["--director-pin", PIN, "--profile", "dbf-2017"]).start()
    try:
        DataConnectorClient("club-7", st.token, st.url).initialize(mitchell_init())
        status, reply = st.request("GET", "/api/v1/movement", headers=st.table_headers(T1))
        assert status == 200 and reply["director_pin"] == {"algorithm": "station"}
    finally:
        st.stop()
    # The same station with another PIN gives a key holder the very same reply: nothing in it
    # depends on the PIN, so nothing in it can be guessed against offline.
    other = StationProcess(db, tmp_path, ["--director-pin", "13579"]).start()
    try:
        status, again = other.request("GET", "/api/v1/movement", headers=other.table_headers(T1))
        assert status == 200 and again == reply
        assert {"salt", "hash", "iterations"}.isdisjoint(set(every_value(reply)))
        # and the station's own copy is keyed with a secret kept outside the database
        kept = json.loads(sqlite3.connect(db).execute("SELECT value FROM settings WHERE name = 'director_pin'")
                          .fetchone()[0])
        assert kept["algorithm"] == "pbkdf2-sha256+hmac" and kept["iterations"] >= 100_000
        assert not pin.verify("13579", {**kept, "algorithm": "pbkdf2-sha256"})  # the hash alone: no match
    finally:
        other.stop()


def test_a_flood_of_wrong_pins_is_locked_out_and_a_restart_of_the_station_does_not_end_it(tmp_path):
    db = str(tmp_path / "station.db")
    st = StationProcess(db, tmp_path, ["--director-pin", PIN]).start()
    try:
        answers = []
        for n in range(200):  # every 4-digit PIN from 0000, as fast as the station answers
            status, reply = ask(st, f"{n:04d}")
            answers.append((status, reply.get("reason"), reply.get("granted")))
        wrong = [a for a in answers if a[1] == "wrong"]
        locked = [a for a in answers if a == (429, "locked", False)]
        # the free tries, then tries refused unseen while the doubling wait runs (a machine slow
        # enough to let a wait end takes one more try each time, counted the same way)
        assert len(wrong) >= director_pin.FREE_TRIES and len(wrong) + len(locked) == 200
        assert answers[:director_pin.FREE_TRIES] == [(200, "wrong", False)] * director_pin.FREE_TRIES
        assert len(locked) > 190
        counted = json.loads(sqlite3.connect(db).execute(
            "SELECT value FROM settings WHERE name = ?", (f"pin_lockout/{EVENT}/A/1",)).fetchone()[0])
        assert counted["wrong"] == len(wrong)
        # the director page names the table
        assert "Table " + EVENT + "/A/1: " + str(len(wrong)) + " wrong in a row" in \
            st.request("GET", f"/director?token={st.token}")[1]
    finally:
        st.kill()  # a crash, or a key holder's hope that a restart resets the count
    # the wait set now is a long one: the restarted station still takes no try, not even the right one
    conn = sqlite3.connect(db)
    conn.execute("UPDATE settings SET value = ? WHERE name = ?",
                 (json.dumps({"wrong": 9, "until": 4_000_000_000.0}), f"pin_lockout/{EVENT}/A/1"))
    conn.commit()
    conn.close()
    again = StationProcess(db, tmp_path, []).start()
    try:
        status, reply = ask(again, PIN)
        assert status == 429 and reply["reason"] == "locked" and reply["wait_s"] == director_pin.MAX_DELAY_S
        # another table is not locked by it: the right PIN there is granted, for that table and nonce
        nonce = "cd" * 16
        status, grant = ask(again, PIN, table=T2, nonce=nonce)
        assert status == 200 and grant["granted"] is True
        assert pin.grant_ok(grant, again.keys[T2], T2, nonce)
        assert not pin.grant_ok(grant, again.keys[T2], T2, "ef" * 16)  # another request's nonce
        assert not pin.grant_ok(grant, again.keys[T1], T2, nonce)  # signed with another table's key
    finally:
        again.stop()


def test_the_station_checks_the_key_before_the_pin_and_refuses_what_is_not_a_try(tmp_path):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, ["--director-pin", PIN]).start()
    try:
        assert ask(st, PIN, key="not-the-key")[0] == 403
        assert st.request("POST", "/api/v1/director-pin", b"{}", {"X-Table": T1})[0] == 401
        assert ask(st, "12ab")[0] == 400 and ask(st, PIN, nonce="short")[0] == 400
        status, reply = ask(st, PIN)
        assert status == 200 and reply["granted"] is True  # nothing before it counted
    finally:
        st.stop()
    bare = StationProcess(str(tmp_path / "other.db"), tmp_path, []).start()
    try:
        status, reply = ask(bare, PIN)
        assert status == 404 and reply["reason"] == "no_pin"
    finally:
        bare.stop()


class Clock:
    def __init__(self):
        self.t = 1_790_000_000.0

    def __call__(self):
        return self.t


@pytest.fixture
def checks(tmp_path):
    store = Store(str(tmp_path / "s.db"))
    store.set_setting(director_pin.SETTING,
                      json.dumps(director_pin.make_verifier(PIN, store.ensure_secret(director_pin.SECRET))))
    clock = Clock()
    yield director_pin.PinChecks(store, clock), clock
    store.close()


def try_pin(checks, digits, table):
    body = json.dumps({"pin": digits, "nonce": "ab" * 16}).encode()
    return checks.check(EVENT, "A", table, f"{EVENT}/A/{table}", "KEY", body)


def test_each_tables_wait_doubles_from_5_s_to_an_hour(checks):
    pc, clock = checks
    waits = []
    for _ in range(16):
        a = try_pin(pc, "0000", 1)
        assert a.doc["reason"] == "wrong"
        waits.append(a.doc["wait_s"])
        if waits[-1]:
            a = try_pin(pc, PIN, 1)  # the right PIN during the wait: not looked at
            assert (a.status, a.doc["reason"], a.retry_after) == (429, "locked", waits[-1])
        clock.t += waits[-1]
    assert waits == [0, 0, 5, 10, 20, 40, 80, 160, 320, 640, 1280, 2560, 3600, 3600, 3600, 3600]
    assert try_pin(pc, PIN, 1).doc["granted"] is True
    assert try_pin(pc, "0000", 1).doc["wrong_tries"] == 1  # the right PIN started the count again


def test_keys_of_many_tables_do_not_multiply_the_guesses(checks):
    pc, clock = checks
    wrong = 0
    for table in range(1, 41):  # a guesser with 40 tables' keys, three free tries at each
        for _ in range(3):
            a = try_pin(pc, "0000", table)
            wrong += a.doc.get("reason") == "wrong"
            clock.t += 1
    assert wrong == director_pin.STATION_WRONG_PER_HOUR
    a = try_pin(pc, PIN, 40)
    assert (a.status, a.doc["reason"]) == (429, "station_limit")  # the tablets check it themselves
    clock.t += 3600
    assert try_pin(pc, PIN, 40).doc["granted"] is True
