"""`python -m tablet_app.app` on a tablet that has the club's settings from the station (its
`--language sv --profile fsb-2007`, kept by the tablet): the setup screen opens in Swedish with the
club's regulations chosen, and the TD may still change the language. Drives the real app started
by `tablet_app.app.main`, with no `--lang` and no boxes:

    python tests/ui/drive_club_start.py OUT_DIR SHOTS_DIR
"""
from __future__ import annotations

import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tablet_app.controller import Controller  # noqa: E402
from tests.ui.shots import Shots, texts  # noqa: E402

OUT, SHOTS = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
OUT.mkdir(parents=True, exist_ok=True)
DB = OUT / "tablet.db"

ctl = Controller(DB)
# what setup_from_station keeps of the station's movement reply (station_client.club_defaults)
ctl.set_club_defaults(language="sv", profile="fsb-2007")
ctl.close()

from kivy.app import App  # noqa: E402

import tablet_app.app as A  # noqa: E402

checks: dict[str, object] = {}
shots = Shots(None, checks, SHOTS)


def step1(_dt):
    app = shots.app = App.get_running_app()
    setup = app.screens["setup"]
    checks["screen"] = app.sm.current
    checks["lang"] = app.lang
    checks["profile"] = [setup.profile_id(), setup.profile.text]
    checks["texts"] = texts(app.sm.current_screen)
    shots.shot("setup-club-defaults-sv")


def step2(_dt):
    app = shots.app
    app.next_language()  # the TD may still change it
    checks["after"] = [app.lang, app.screens["setup"].profile_id()]


shots.run([step1, step2], OUT)
rc = A.main(["--db", str(DB), "--ports", "none"])
data = json.loads((OUT / "checks.json").read_text())
data["rc"] = rc
(OUT / "checks.json").write_text(json.dumps(data, indent=1, ensure_ascii=False))
