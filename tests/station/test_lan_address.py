"""The station gives the tablets an address they can use as it is (its LAN address), never a
placeholder for the TD to retype (docs/station.md, the options table and what the station prints at start)."""
import ipaddress

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

