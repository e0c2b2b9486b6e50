"""A club's first evening on a new tablet, through the real Kivy app's own buttons:

    python -m tests.ui.drive_club OUT_DIR SHOTS_DIR STATION_URL RIGHT_KEY WRONG_KEY

The tablet has no club settings (no regulations, no PIN): the setup screen makes the director
choose; the table is checked against a real station; the players pick the board on the table
(and are refused one the round does not have); the outbox is delivered by a real Deliverer with
a key the station refuses, and the director console shows it in red; the director moves a result
to the board it was played on and withdraws one, each with a reason; three wrong PINs lock the
pad; a full journal puts a red banner on the screen. Checks go to OUT_DIR/checks.json.
"""
from __future__ import annotations

import json
import time

from shared_rules.types import SEATS
from tablet_app.outbox import Deliverer
from tablet_app.station_client import station_check
from tests.ui.driver import Driver
from tests.ui.shots import enter_pin, texts

drv = Driver()
URL, RIGHT_KEY, WRONG_KEY = drv.more
EVENT = "club-2026-11-22"
PIN = "2468"  # the director's, typed in on the setup screen (step1)

clock = drv.clock
ctl = drv.controller(boot_clock=clock)  # the PIN lockout on the test clock
ctl.station_check = station_check(URL, RIGHT_KEY, timeout=30)
drv.pin = PIN
# the outbox goes out with a key the station does not take for this table: every item refused
deliverer = Deliverer(str(drv.out / "journal.db"), URL, f"{EVENT}/A/3", WRONG_KEY, max_backoff=0.2).start()
app = drv.open_app("en", deliverer=deliverer)
checks, shots, box, sign_in = drv.checks, drv.shots, drv.box, drv.sign_in


def step1(_dt):
    su = app.screens["setup"]
    checks["first_screen"] = app.sm.current
    checks["defaults"] = ctl.setup_defaults()
    checks["profile_shown"] = [su.profile.text, su.profile_id()]
    for name, value in (("event", EVENT), ("section", "a"), ("table", "3"), ("round", "1"), ("tables", "4"),
                        ("boards", "1-3"), ("ns_pair", "3"), ("ew_pair", "3"), ("td_pin", PIN)):
        su.inputs[name].text = value
    su.start.trigger_action(0)
    checks["no_profile_error"] = [su.error.text, ctl.journal.count(), ctl.phase]
    app.lang = "sv"
    su.start.trigger_action(0)
    checks["no_profile_error_sv"] = su.error.text
    app.lang = "en"
    app.refresh()
    shots.shot("setup-first")


def step2(_dt):
    su = app.screens["setup"]
    su.profile.text = next(n for n in su.profile.values if "Denmark" in n)
    su.start.trigger_action(0)
    checks["after_setup"] = [app.sm.current, ctl.board, ctl.session.section, ctl.snapshot()["station"]["ok"]]
    a = app.screens["auction"]
    checks["chooser"] = [a.chooser.title.text, sorted(k for k in a.chooser.buttons if k != "other"), a.chooser.height > 0]
    shots.shot("board-chooser")


def step3(_dt):
    a = app.screens["auction"]
    before = ctl.journal.count()
    a.chooser.other_input.text = "7"  # the number on the board in the tray: not one of this round's
    a.chooser.buttons["other"].trigger_action(0)
    checks["board7"] = [a.chooser.msg.text, ctl.board, ctl.journal.count() == before]
    kept = a.chooser.buttons[3]
    app.refresh()  # nothing the buttons say has changed: the same buttons stay
    checks["chooser_kept"] = a.chooser.buttons[3] is kept and kept.parent is a.chooser.grid
    shots.shot("board-chooser-refused")


def step4(_dt):
    a = app.screens["auction"]
    a.chooser.buttons[3].trigger_action(0)
    checks["board3"] = [ctl.board, list(ctl.journal.records())[-1][2].get("by"), a.chooser.msg.text]
    # board 3: South deals; 1NT - 3NT, made with ten tricks
    box("S", "1NT")
    app.refresh()
    checks["chooser_after_first_call"] = a.chooser.height
    for seat, call in (("W", "P"), ("N", "3NT"), ("E", "P"), ("S", "P"), ("W", "P")):
        box(seat, call)
    app.refresh()
    r = app.screens["result"]
    r.trick_buttons[10].trigger_action(0)
    r.enter_btn.trigger_action(0)
    r.confirm_btn.trigger_action(0)
    checks["next_board"] = ctl.board
    app.go("auction")
    checks["marks"] = {n: b.text for n, b in a.chooser.buttons.items() if n != "other"}
    a.chooser.buttons[3].trigger_action(0)
    checks["board3_again"] = [a.chooser.msg.text, ctl.board]


def wait_refused(_dt):
    deadline = time.monotonic() + 60  # only ends a hang
    while not ctl.snapshot()["delivery"]["refused"] and time.monotonic() < deadline:
        time.sleep(0.2)  # how often it looks, not how long it waits
        deliverer.wake()


def step5(_dt):
    d = sign_in()
    checks["delivery_lines"] = d.delivery.text.split("\n")
    checks["tools"] = sorted(d.tool_buttons)
    shots.shot("director-delivery-refused")


def step6(_dt):
    # the result entered for board 3 was the play of board 2 (the boards were swapped in the tray)
    d = app.screens["director"]
    d.tool_buttons["move"].trigger_action(0)
    d.tool_buttons["board3"].trigger_action(0)
    checks["move_targets"] = sorted(k for k in d.tool_buttons if k.startswith("to"))
    d.tool_buttons["to2"].trigger_action(0)
    d.tool_buttons["reason_wrong_board"].trigger_action(0)
    shots.shot("director-move-result")


def step7(_dt):
    d = app.screens["director"]
    d.tool_buttons["record_reason"].trigger_action(0)
    checks["moved_message"] = d.message.text
    checks["after_move"] = ctl.board_choices()
    d.tool_buttons["withdraw"].trigger_action(0)
    d.tool_buttons["board2"].trigger_action(0)
    d.reason_input.text = "  "  # blank is no reason
    d.tool_buttons["record_reason"].trigger_action(0)
    checks["withdraw_blank"] = [d.message.text, d.mode]
    d.reason_input.text = "played at the wrong table"
    d.tool_buttons["record_reason"].trigger_action(0)
    checks["withdrawn_message"] = d.message.text
    rows = ctl.journal.conn.execute("SELECT item_key, payload FROM outbox WHERE kind='result' ORDER BY id").fetchall()
    checks["revisions"] = [(k.split("/", 3)[-1], json.loads(p).get("withdrawn", False),
                            (json.loads(p).get("correction") or {}).get("reason")) for k, p in rows]
    checks["after_withdraw"] = ctl.board_choices()
    d.back.trigger_action(0)


def step8(_dt):
    # three wrong PINs: the pad says how long to wait and takes no try until then
    app.go("director")
    d = app.screens["director"]
    for _ in range(3):
        enter_pin(d, "1111")
    app.refresh()
    checks["locked"] = [t for t in texts(d) if "wrong PINs" in t] + [d.pin_buttons["unlock"].disabled, d.unlocked]
    shots.shot("pin-locked")


def step9(_dt):
    clock.t += 6  # the wait is over
    d = sign_in()
    checks["after_wait"] = d.unlocked
    d.back.trigger_action(0)
    # the tablet's storage fills up: the call is refused and every screen says so in red
    # (SQLite's own limit on the journal's size: the write fails as on a full disk)
    pages = ctl.journal.conn.execute("PRAGMA page_count").fetchone()[0]
    ctl.journal.conn.execute(f"PRAGMA max_page_count = {pages}")
    bids = [f"{level}{s}" for level in range(1, 8) for s in ("C", "D", "H", "S", "NT")]
    seats = SEATS  # board 1: North deals
    for i, bid in enumerate(bids):
        answer = box(seats[i % 4], bid)
        if not answer["ok"]:
            break
    checks["full_call"] = answer
    checks["refused_bid"] = [bid, [c["call"] for c in ctl.estate.get("calls", [])]]
    global refused_seat
    refused_seat = seats[i % 4]
    app.refresh()
    a = app.screens["auction"]
    checks["banner"] = [a.topbar.banner.label.text, a.topbar.banner.height]
    shots.shot("storage-full")


refused_seat = "N"


def step10(_dt):
    ctl.journal.conn.execute("PRAGMA max_page_count = 1073741823")
    bid = checks["refused_bid"][0]
    checks["after_space"] = [box(refused_seat, bid)["ok"], ctl.estate["calls"][-1]["call"] == bid]
    app.refresh()
    checks["banner_after_space"] = app.screens["auction"].topbar.banner.height


def step11(_dt):
    # board 1 has calls now: the players' chooser is gone, the director changes the board
    checks["chooser_with_calls"] = app.screens["auction"].chooser.height
    d = sign_in()
    d.tool_buttons["board"].trigger_action(0)
    checks["board_tool"] = sorted(k for k in d.tool_buttons if k.startswith("choose"))
    shots.shot("director-board")


def step12(_dt):
    d = app.screens["director"]
    d.tool_buttons["choose2"].trigger_action(0)
    checks["td_board"] = [ctl.board, list(ctl.journal.records())[-1][2].get("by"), d.message.text, ctl.estate["calls"]]


drv.run([step1, step2, step3, step4, wait_refused, step5, step6, step7, step8, step9, step10, step11, step12],
        on_end=deliverer.stop, pace=None)  # each step once the screen stands still after the last
