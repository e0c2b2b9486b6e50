"""`python -m tablet_app.app` on a journal someone has edited (a 1NT turned into 2NT): the app shows
the damage on screen with its reason, and the director's Recover goes on from the records before
it. Drives the real app started by `tablet_app.app.main`:

    python -m tests.ui.drive_damaged OUT_DIR SHOTS_DIR
"""
from __future__ import annotations

import re
import sqlite3

from tablet_app.controller import Controller
from tests.ui.driver import Driver
from tests.ui.shots import texts

drv = Driver()
DB = drv.out / "tablet.db"

ctl = Controller(DB)
ctl.setup({"event": "club-2026-11-22", "section": "A", "table": 3, "round": 1, "boards": [1, 2], "ns_pair": 3,
           "ew_pair": 3, "tables": 4, "profile": "dbf-2017", "td_pin": "2468"})
for seat, call in (("N", "1C"), ("E", "P"), ("S", "1NT"), ("W", "P")):
    assert ctl.box_event(seat, "call", call=call)["ok"]
ctl.close()
conn = sqlite3.connect(DB)
seq, body = next((s, b) for s, b in conn.execute("SELECT seq, body FROM journal WHERE kind = 'event'")
                 if '"call":"1NT"' in b)
conn.execute("UPDATE journal SET body = ? WHERE seq = ?", (body.replace('"1NT"', '"2NT"'), seq))
conn.commit()
conn.close()

checks, shots = drv.checks, drv.shots
checks["edited_seq"] = seq


def step1(_dt):
    app = drv.app
    checks["screen"] = app.sm.current
    checks["texts"] = texts(app.sm.current_screen)
    shots.shot("journal-damaged")


def step2(_dt):
    app = drv.app
    app.damaged_screen.recover_btn.trigger_action(0)
    checks["after"] = [app.sm.current, [c["call"] for c in app.controller.estate["calls"]], app.controller.board]
    checks["note"] = app.current_note()
    # the files kept aside, without their time: the journal and the files that go with it
    checks["aside"] = sorted(re.sub(r"-\d{8}T\d{6}", "", p.name) for p in drv.out.glob("tablet.db.damaged-*"))
    shots.shot("journal-recovered")


drv.run_main([step1, step2], ["--db", str(DB), "--lang", "en"], pace=None)  # each step once the screen stands still after the last
