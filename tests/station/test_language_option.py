"""`python -m station --language sv --profile fsb-2007`: the club's language and regulations go
with every table's movement, and a tablet set up from the station keeps them (its setup screen and
its next start are in the club's language). The address the station prints is one a tablet takes
as it is, and the director page shows it."""
from __future__ import annotations

import re

import pytest
from bridgemate_dataconnector import DataConnectorClient

from tablet_app.controller import Controller
from tablet_app.station_client import setup_from_station

from .conftest import EVENT, StationProcess
from .test_dataconnector import init_dto
from .test_sessions import movement

pytestmark = pytest.mark.server  # starts the results station as a process


def test_the_clubs_language_and_regulations_reach_the_tablet(tmp_path):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path,
                        extra=["--profile", "fsb-2007", "--language", "sv", "--director-pin", "2468"]).start()
    try:
        DataConnectorClient("club-7", st.token, st.url).initialize(init_dto())
        status, mv = movement(st, f"{EVENT}/A/2", st.keys[f"{EVENT}/A/2"])
        assert status == 200 and (mv["language"], mv["profile"]) == ("sv", "fsb-2007")
        ctl = Controller(tmp_path / "t.db")
        try:
            session = setup_from_station(ctl, st.url, "2", st.keys[f"{EVENT}/A/2"])
            assert session.profile == "fsb-2007"
            assert (ctl.club["language"], ctl.setup_defaults()["profile"]) == ("sv", "fsb-2007")
        finally:
            ctl.close()
    finally:
        st.stop()


def test_without_language_the_movement_names_none(tmp_path):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=["--profile", "fsb-2007"]).start()
    try:
        DataConnectorClient("club-7", st.token, st.url).initialize(init_dto())
        status, mv = movement(st, f"{EVENT}/A/1", st.keys[f"{EVENT}/A/1"])
        assert status == 200 and "language" not in mv
    finally:
        st.stop()


def test_the_printed_address_is_on_the_director_page_and_a_tablet_takes_it(tmp_path):
    from tablet_app.station_client import table_id

    st = StationProcess(str(tmp_path / "station.db"), tmp_path).start()
    try:
        printed = re.search(r"tablets' station address (\S+)", st.startup_text).group(1)
        assert printed == f"http://127.0.0.1:{st.port}/"  # the one address it listens on here
        status, page = st.request("GET", "/director", headers={"Authorization": f"Bearer {st.token}"})
        assert status == 200 and f"<code>{printed}</code>" in page
        # typed once into the tablet as printed, it reaches the station
        assert table_id(printed, "2") == f"{EVENT}/A/2"
    finally:
        st.stop()
