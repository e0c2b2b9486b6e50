"""The station gives the tablets an address they can use as it is (its LAN address), never a
placeholder for the TD to retype (docs/station.md, the options table and what the station prints at start)."""
import ipaddress
import re

import pytest

from station.lan import lan_address, station_url


def test_the_address_is_an_ip_literal_of_this_computer():
    addr = lan_address()
    ip = ipaddress.ip_address(addr)
    assert not ip.is_unspecified
    assert "<" not in station_url("https", "0.0.0.0", 8080, "#sha256=ab")


def test_a_station_bound_to_one_address_gives_that_address():
    assert lan_address("192.168.1.20") == "192.168.1.20"
    assert station_url("https", "192.168.1.20", 8443, "#sha256=ab") == "https://192.168.1.20:8443/#sha256=ab"
    assert station_url("http", "fe80::1", 8080) == "http://[fe80::1]:8080/"


@pytest.mark.server  # starts the results station as a process
def test_the_printed_address_is_on_the_director_page_and_a_tablet_takes_it(tmp_path):
    from tablet_app.station_client import table_id

    from .conftest import EVENT, StationProcess

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
