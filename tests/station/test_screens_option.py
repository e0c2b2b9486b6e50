"""The organiser plays with screens (FSB L114: "när arrangören så kräver"; 2007/2017 L80B2(e)):
`python -m station --screens all | A | A:1-4` puts `"screens": true` in the movement of those
tables, and the tablet's setup from the station plays them behind screens."""
from __future__ import annotations

import subprocess
import sys

import pytest
from bridgemate_dataconnector import DataConnectorClient

from tablet_app.station_client import session_from_station

from .conftest import EVENT, ROOT, StationProcess
from .test_dataconnector import init_dto
from .test_sessions import movement

pytestmark = pytest.mark.server  # starts the results station as a process


def test_FSB_L114_screens_reach_the_tables_the_organiser_named(tmp_path):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=["--profile", "fsb-2007", "--director-pin", "2468",
                                                                       "--screens", "A:2"]).start()
    try:
        DataConnectorClient("club-7", st.token, st.url).initialize(init_dto())
        status, mv = movement(st, f"{EVENT}/A/2", st.keys[f"{EVENT}/A/2"])
        assert status == 200 and mv["screens"] is True
        status, other = movement(st, f"{EVENT}/A/1", st.keys[f"{EVENT}/A/1"])
        assert status == 200 and "screens" not in other
        session = session_from_station(st.url, "2", st.keys[f"{EVENT}/A/2"])
        assert session.screens is True and session.profile == "fsb-2007"
    finally:
        st.stop()


def test_screens_under_a_regulation_without_screen_rules_are_refused_at_start(tmp_path):
    out = subprocess.run([sys.executable, "-m", "station", "--db", str(tmp_path / "s.db"), "--no-serve",
                          "--profile", "ebu", "--screens", "all"], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 2 and "has no screen rules" in out.stderr
