"""`python -m tablet_app.app` on a tablet that has the club's settings from the station (its
`--language sv --profile fsb-2007`, kept by the tablet): the setup screen opens in Swedish with the
club's regulations chosen, and the TD may still change the language. Drives the real app started
by `tablet_app.app.main`, with no `--lang` and no boxes:

    python -m tests.ui.drive_club_start OUT_DIR SHOTS_DIR
"""
from __future__ import annotations

from tablet_app.controller import Controller
from tests.ui.driver import Driver
from tests.ui.shots import texts

drv = Driver()
DB = drv.out / "tablet.db"

ctl = Controller(DB)
# what setup_from_station keeps of the station's movement reply (station_client.club_defaults)
ctl.set_club_defaults(language="sv", profile="fsb-2007")
ctl.close()
checks, shots = drv.checks, drv.shots


def step1(_dt):
    app = drv.app
    setup = app.screens["setup"]
    checks["screen"] = app.sm.current
    checks["lang"] = app.lang
    checks["profile"] = [setup.profile_id(), setup.profile.text]
    checks["texts"] = texts(app.sm.current_screen)
    shots.shot("setup-club-defaults-sv")


def step2(_dt):
    app = drv.app
    app.next_language()  # the TD may still change it
    checks["after"] = [app.lang, app.screens["setup"].profile_id()]


drv.run_main([step1, step2], ["--db", str(DB), "--ports", "none"], pace=None)  # each step once the screen stands still after the last
