"""`python -m tablet_app.app` as a club starts it: the session from a movement with the TD's own
profile, policy and PIN; a bad profile is one clear line and exit 2, with nothing journalled."""
import json
import os
import pathlib
import subprocess
import sys

import pytest

pytestmark = pytest.mark.ui
ROOT = pathlib.Path(__file__).resolve().parents[2]

MOVEMENT = {"event": "club-2026-11-23", "section": "A", "tables": 2,
            "rounds": {"1": {"1": {"ns": 1, "ew": 2, "boards": [1, 2],
                                   "next": {"ns": {"pair": 1, "table": 1, "seat": "NS"}}}}}}


def start(tmp_path, display, *args):
    mv = tmp_path / "movement.json"
    mv.write_text(json.dumps(MOVEMENT))
    env = {**os.environ, "DISPLAY": display, "KIVY_HOME": str(tmp_path / "kivy"), "KIVY_NO_ARGS": "1"}
    return subprocess.run([sys.executable, "-m", "tablet_app.app", "--db", str(tmp_path / "t.db"),
                           "--movement", str(mv), "--table", "1", "--exit-when-ready", *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


def test_session_from_a_movement_takes_the_directors_profile_policy_and_pin(xvfb_display, tmp_path):
    p = start(tmp_path, xvfb_display, "--profile", "dbf-2017", "--policy", "prevent", "--pin", "2468")
    assert p.returncode == 0 and "ready" in p.stdout, p.stderr[-2000:]
    from tablet_app.controller import Controller

    ctl = Controller(tmp_path / "t.db")
    try:
        s = ctl.session
        assert (s.profile, s.policy, s.boards, s.ns_pair, s.ew_pair) == ("dbf-2017", "prevent", (1, 2), 1, 2)
        # the PIN is kept as a salted hash (tablet_app/pin.py), never the digits: it checks
        # (no field of the record is the digits; its hex hash and salt may contain them by chance)
        assert isinstance(s.td_pin, dict) and "2468" not in {str(v) for v in s.td_pin.values()}
        assert ctl.check_pin("2468") and not ctl.check_pin("2469")
        assert ctl.estate["edition"] == 2017
    finally:
        ctl.close()


def test_an_unknown_profile_is_one_clear_line_and_nothing_is_journalled(xvfb_display, tmp_path):
    # with the PIN given (there is no default PIN any more: without one that is the first error)
    p = start(tmp_path, xvfb_display, "--profile", "sbf-1997", "--pin", "2468")
    assert p.returncode == 2
    assert "sbf-1997" in p.stderr and "Traceback" not in p.stderr
    from tablet_app.journal import Journal

    assert Journal(tmp_path / "t.db").count() == 0
