"""Screens and the bidding box in the tablet's log: the tray the tablet's screen
model passes is journalled as the engine's `tray` event, so the engine, the tablet after a restart
and `python -m shared_rules replay` of the exported log all rule the same table; alerts reach
only the alerter's screenmate; FSB L112C calls count when taken from the box.

Board 1: North deals; screenmates N-E and S-W (wbf-screens-2017, tray delay 15 s).
"""
import json
import subprocess
import sys

from tests.tablet.conftest import SESSION

PIN = "4321"
SCREENS = {**SESSION, "profile": "wbf-screens-2017", "policy": "record"}
FSB = {**SESSION, "profile": "fsb-2007", "policy": "record"}
RULED = ("calls", "irregularities", "obligations", "lead_restrictions", "withdrawn", "tray", "status", "next",
         "box_taken", "timing")


def replay_cli(log):
    """The TD's tool on the log the tablet exports: `python -m shared_rules replay -`."""
    out = subprocess.run([sys.executable, "-m", "shared_rules", "replay", "-"], input=json.dumps(log),
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def export_cli(db, *board):
    """`python -m tablet_app.table_log TABLET.db [BOARD]`: the log from the tablet's journal."""
    return subprocess.run([sys.executable, "-m", "tablet_app.table_log", str(db), *map(str, board)],
                          capture_output=True, text=True)


def ruled(state):
    return {k: state[k] for k in RULED}


def calls(ctl, clock, *seq, think=2.0):
    for seat, call in seq:
        clock.advance(think)
        r = ctl.box_event(seat, "call", call=call)
        assert r["ok"], (seat, call, r)


def same_ruling_everywhere(make_controller, ctl, tmp_path):
    """The live table, the table replayed from the tablet's journal, and the TD's replay of the
    exported log give the same ruling. `tmp_path`: the test's directory, or the journal itself."""
    live = ruled(ctl.estate)
    log = ctl.table_log()
    ctl.close()
    again = make_controller(tmp_path if tmp_path.suffix == ".db" else tmp_path / "journal.db")
    assert ruled(again.estate) == live
    assert again.table_log() == log
    assert ruled(replay_cli(json.loads(json.dumps(log)))) == live
    return again, log


def test_wbf_screen_regulations_call_out_of_rotation_caught_before_the_tray_passes(make_controller, clock, tmp_path):
    # East bids 1H at North's turn; the tray has never left North-East, so West (East's partner)
    # never saw it: the profile's screen rule (unpassed_call = cancel) cancels it without the
    # L31 consequences, and the tray never moved.
    ctl = make_controller()
    ctl.setup(SCREENS)
    calls(ctl, clock, ("E", "1H"))
    assert ctl.phase == "frozen"
    clock.advance(40)
    assert not ctl.tick()  # the tray stays while the TD rules
    ctl.td_decide(PIN, "cancel")
    st = ctl.estate
    assert st["irregularities"][-1]["resolution"] == "cancelled_behind_screen"
    assert st["withdrawn"][-1]["law"] == "WBF screen regulations, 2017 L80B2(e)"
    assert st["obligations"] == [] and st["lead_restrictions"] == [] and st["next"] == "N"
    assert st["tray"] == {"seats": ["N", "E"], "passes": []}
    again, log = same_ruling_everywhere(make_controller, ctl, tmp_path)
    assert not any("tray" in e for e in log["events"])
    again.close()
    out = export_cli(tmp_path / "journal.db")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == log


def test_wbf_screen_regulations_call_out_of_rotation_after_the_tray_has_passed(make_controller, clock, tmp_path):
    # N 1C, E P, the tray passes to South-West after 15 s (journalled as the engine's tray
    # event); West then bids at South's turn. West's partner (East) is on the other side and the
    # tray cannot pass while the TD rules: cancelled behind the screen, as the profile says.
    # After the ruling the tray goes on to North-East with the standing calls only.
    ctl = make_controller()
    ctl.setup(SCREENS)
    calls(ctl, clock, ("N", "1C"), ("E", "P"))
    clock.advance(12)  # 16 s into the board: the tray was due at 15 s
    assert ctl.tick()
    assert ctl.estate["tray"] == {"seats": ["S", "W"], "passes": [{"t": 15.0, "to": ["S", "W"], "calls": 2}]}
    assert ctl.estate["tray"]["seats"] == ctl.snapshot()["screen"]["tray_seats"]
    calls(ctl, clock, ("W", "1H"))
    assert ctl.estate["pending"]["kind"] == "call_out_of_rotation"
    ctl.td_decide(PIN, "cancel")
    assert ctl.estate["irregularities"][-1]["resolution"] == "cancelled_behind_screen"
    assert ctl.estate["obligations"] == [] and ctl.estate["next"] == "S"
    calls(ctl, clock, ("S", "1S"), ("W", "P"))
    clock.advance(20)
    assert ctl.tick()
    tray = ctl.estate["tray"]
    assert tray["seats"] == ["N", "E"] and [p["calls"] for p in tray["passes"]] == [2, 4]
    # North-East receive 1C P 1S P: West's cancelled 1H never crosses the screen
    assert [v["call"] for v in ctl.views()["N"]["auction"]] == ["1C", "P", "1S", "P"]
    again, log = same_ruling_everywhere(make_controller, ctl, tmp_path)
    assert [e["t"] for e in log["events"] if "tray" in e] == [15.0, tray["passes"][1]["t"]]
    # the restarted tablet's screen model agrees with the engine's tray
    assert again.snapshot()["screen"]["tray_seats"] == ["N", "E"]
    assert [p["t"] for p in again.screen.passes] == [p["t"] for p in tray["passes"]]
    again.close()
    out = export_cli(tmp_path / "journal.db", 1)
    assert out.returncode == 0, out.stderr
    assert ruled(replay_cli(json.loads(out.stdout))) == ruled(again.estate)


def test_table_log_export_refuses_a_board_not_played_and_a_missing_journal(make_controller, clock, tmp_path):
    ctl = make_controller()
    ctl.setup(SCREENS)
    calls(ctl, clock, ("N", "1C"))
    ctl.close()
    out = export_cli(tmp_path / "journal.db", 3)
    assert out.returncode == 1 and out.stderr.count("\n") == 1 and "board 3" in out.stderr
    out = export_cli(tmp_path / "nothing.db")
    assert out.returncode == 1 and "no tablet journal" in out.stderr
    assert not (tmp_path / "nothing.db").exists()


def test_wbf_tray_due_before_a_call_passes_first_in_the_log(make_controller, clock, tmp_path):
    # No clock tick reached the tablet between East's pass and South's call 30 s later: the tray
    # was due at 15 s, so the log holds the pass at 15 s before South's call (event times in
    # order), and South's call is taken.
    ctl = make_controller()
    ctl.setup(SCREENS)
    calls(ctl, clock, ("N", "1C"), ("E", "P"))
    calls(ctl, clock, ("S", "1H"), think=30)
    events = ctl.table_log()["events"]
    assert [next(iter(k for k in e if k != "t")) for e in events] == ["seat", "seat", "tray", "seat"]
    assert events[2] == {"t": 15.0, "tray": True}
    same_ruling_everywhere(make_controller, ctl, tmp_path)


def test_wbf_screen_regulations_alert_shown_only_to_the_alerters_screenmate(make_controller, clock):
    ctl = make_controller()
    ctl.setup(SCREENS)
    calls(ctl, clock, ("N", "1C"))
    assert ctl.box_event("N", "alert")["ok"]  # North alerts his own 1C to East
    v = ctl.views()
    assert v["E"]["auction"][0]["alert"] is True
    assert v["N"]["auction"][0]["alert"] is False  # the screenmate is told, not the table
    calls(ctl, clock, ("E", "P"))
    clock.advance(16)
    assert ctl.tick()
    v = ctl.views()
    assert v["S"]["auction"][0] == {"call": "1C", "alert": False, "stop": False}
    assert v["W"]["auction"][0]["alert"] is False
    assert ctl.box_event("S", "alert")["ok"]  # South alerts his partner's 1C to West
    v = ctl.views()
    assert ctl.estate["calls"][0]["alerted_to"] == ["E", "W"]
    assert {s: v[s]["auction"][0]["alert"] for s in "NESW"} == {"N": False, "E": True, "S": False, "W": True}


def test_fsb_L115_without_screens_an_alert_is_shown_to_every_box(make_controller, clock):
    ctl = make_controller()
    ctl.setup(FSB)
    calls(ctl, clock, ("N", "1C"))
    assert ctl.box_event("S", "alert")["ok"]
    assert {s: v["auction"][0]["alert"] for s, v in ctl.views().items()} == {s: True for s in "NESW"}


def test_fsb_L112C_a_box_call_counts_when_taken_and_a_second_one_is_a_change_of_call(make_controller, clock, tmp_path):
    # The box's confirm is the taking of the card (the box sends nothing earlier): under fsb-2007
    # (call_made = taken) the tablet sends each confirmed call as taken, the engine records it
    # under FSB L112C, and another call by the same player before his LHO is a change of call (L25).
    ctl = make_controller()
    ctl.setup(FSB)
    calls(ctl, clock, ("N", "1H"))
    assert ctl.table_log()["events"][0] == {"t": 2.0, "seat": "N", "call": "1H", "taken": True}
    assert ctl.estate["box_taken"] == [{"seat": "N", "call": "1H", "t": 2.0, "made": True, "law": "FSB L112C"}]
    clock.advance(1)
    ctl.box_event("N", "call", call="1S")
    assert ctl.estate["pending"]["kind"] == "change_of_call"
    assert [c["call"] for c in ctl.estate["calls"]] == ["1H"]
    same_ruling_everywhere(make_controller, ctl, tmp_path)


def test_2017_call_made_when_confirmed_the_box_call_is_a_plain_call(make_controller, clock):
    ctl = make_controller()
    ctl.setup({**SESSION, "profile": "dbf-2017"})
    calls(ctl, clock, ("N", "1H"))
    assert ctl.table_log()["events"] == [{"t": 2.0, "seat": "N", "call": "1H"}]
    assert ctl.estate["box_taken"] == []


def test_wbf_tray_due_on_a_full_disk_waits_and_no_call_is_lost(make_controller, clock, tmp_path, monkeypatch):
    # The tray is due but the journal cannot take its pass: nothing moves (the screen model moves
    # only when the pass is journalled), South's call is kept for a retry, and once the storage
    # takes writes again the pass and the call go in, in that order.
    from tablet_app.journal import StorageFull

    ctl = make_controller()
    ctl.setup(SCREENS)
    calls(ctl, clock, ("N", "1C"), ("E", "P"))
    clock.advance(16)
    append = ctl.journal.append

    def full(kind, body):
        raise StorageFull("disk full")

    monkeypatch.setattr(ctl.journal, "append", full)
    assert not ctl.tick()
    assert ctl.snapshot()["disk_full"] and ctl.estate["tray"]["seats"] == ["N", "E"]
    assert ctl.snapshot()["screen"]["tray_seats"] == ["N", "E"]
    r = ctl.box_event("S", "call", call="1H", seq=1, box_ms=20000)
    assert r["retry"] and [c["call"] for c in ctl.estate["calls"]] == ["1C", "P"]
    monkeypatch.setattr(ctl.journal, "append", append)
    assert ctl.box_event("S", "call", call="1H", seq=1, box_ms=20000)["ok"]
    assert [c["call"] for c in ctl.estate["calls"]] == ["1C", "P", "1H"]
    assert ctl.estate["tray"]["passes"] == [{"t": 15.0, "to": ["S", "W"], "calls": 2}]
    same_ruling_everywhere(make_controller, ctl, tmp_path)


def test_2017_L25A_wbf_tray_stays_while_a_box_holds_the_table_for_the_director(make_controller, clock, tmp_path):
    # East presses UNDO after his pass (a change of call: the director is called, 2017 L25). The
    # tray was due at 15 s but stays on North-East until the director has seen to it, so South-West
    # never see a call the director may still let East correct; it passes once he dismisses the call.
    ctl = make_controller()
    ctl.setup(SCREENS)
    calls(ctl, clock, ("N", "1C"), ("E", "P"))
    clock.advance(1)
    ctl.box_event("E", "undo")
    assert ctl.held()
    clock.advance(25)  # 30 s into the board
    assert not ctl.tick()
    assert ctl.estate["tray"]["passes"] == [] and ctl.views()["S"]["auction"] == [
        {"call": None, "alert": False, "stop": False}] * 2
    ctl.td_attended(PIN)
    assert ctl.tick()
    assert ctl.estate["tray"]["passes"] == [{"t": 30.0, "to": ["S", "W"], "calls": 2}]
    same_ruling_everywhere(make_controller, ctl, tmp_path)
