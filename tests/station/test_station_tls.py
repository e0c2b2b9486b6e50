"""TLS on the club network (issue 12): the station serves HTTPS with a certificate it made on
first start; the tablet pins its fingerprint and refuses any other certificate (someone in
between on the club's Wi-Fi). Real station process, the tablet's real outbox and client."""
import hashlib
import http.client
import json
import re
import ssl

import pytest

from tablet_app.outbox import Deliverer
from tablet_app.station_client import StationError, table_id

from .conftest import EVENT, StationProcess
from .test_outbox_faults import make_tablet_db


def status_over_tls(st) -> dict:
    """The director's view, read over TLS (this test trusts the certificate it just pinned)."""
    conn = http.client.HTTPSConnection("127.0.0.1", st.port, timeout=10, context=ssl._create_unverified_context())
    try:
        conn.request("GET", "/director/status.json", headers={"Authorization": f"Bearer {st.token}"})
        return json.loads(conn.getresponse().read())
    finally:
        conn.close()


@pytest.fixture
def tls_station(tmp_path):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=["--tls"]).start()
    st.fingerprint = re.search(r"fingerprint \(SHA-256\): ([0-9a-f]{64})", st.startup_text).group(1)
    yield st
    st.stop()


def test_the_station_serves_tls_with_the_printed_fingerprint(tls_station):
    st = tls_station
    assert f"https://<this computer>:{st.port}/#sha256={st.fingerprint}" in st.startup_text
    der = ssl.get_server_certificate(("127.0.0.1", st.port))
    assert hashlib.sha256(ssl.PEM_cert_to_DER_cert(der)).hexdigest() == st.fingerprint
    # Plain HTTP on the TLS port gets no reply a plain client can read.
    conn = http.client.HTTPConnection("127.0.0.1", st.port, timeout=10)
    with pytest.raises((http.client.HTTPException, OSError)):
        conn.request("GET", "/api/v1/health")
        conn.getresponse().read()
    conn.close()


def test_a_tablet_with_the_pinned_fingerprint_delivers_over_tls(tls_station, tmp_path):
    st = tls_station
    url = f"https://127.0.0.1:{st.port}/#sha256={st.fingerprint}"
    assert table_id(url, 1) == f"{EVENT}/A/1"  # the setup client, over TLS
    keys = make_tablet_db(str(tmp_path / "tablet.db"), 3)
    d = Deliverer(str(tmp_path / "tablet.db"), url, f"{EVENT}/A/1", st.keys[f"{EVENT}/A/1"]).start()
    try:
        assert d.drain(30), d.last_error
    finally:
        d.stop()
    assert status_over_tls(st)["stored_keys"] == keys


def test_a_wrong_fingerprint_is_refused_before_the_key_is_sent(tls_station, tmp_path):
    """Someone in between presents another certificate: the tablet sends nothing."""
    st = tls_station
    wrong = "0" * 64
    url = f"https://127.0.0.1:{st.port}/#sha256={wrong}"
    with pytest.raises(StationError, match="not the pinned one"):
        table_id(url, 1)
    make_tablet_db(str(tmp_path / "tablet.db"), 1)
    d = Deliverer(str(tmp_path / "tablet.db"), url, f"{EVENT}/A/1", st.keys[f"{EVENT}/A/1"])
    assert d.send_one() is None and "not the pinned one" in d.last_error
    assert status_over_tls(st)["stored_keys"] == []


def test_https_without_a_pin_is_refused(tls_station):
    with pytest.raises(StationError, match="fingerprint"):
        table_id(f"https://127.0.0.1:{tls_station.port}/", 1)


def test_a_certificate_of_another_station_is_refused(tmp_path):
    """Two stations, two certificates: a tablet pinned to one does not talk to the other."""
    one = StationProcess(str(tmp_path / "one.db"), tmp_path, extra=["--tls"]).start()
    two = StationProcess(str(tmp_path / "two.db"), tmp_path, extra=["--tls"]).start()
    try:
        fp_one = re.search(r"\(SHA-256\): ([0-9a-f]{64})", one.startup_text).group(1)
        fp_two = re.search(r"\(SHA-256\): ([0-9a-f]{64})", two.startup_text).group(1)
        assert fp_one != fp_two
        assert table_id(f"https://127.0.0.1:{one.port}/#sha256={fp_one}", 1) == f"{EVENT}/A/1"
        with pytest.raises(StationError, match="not the pinned one"):
            table_id(f"https://127.0.0.1:{two.port}/#sha256={fp_one}", 1)
    finally:
        one.stop()
        two.stop()


def test_over_tls_the_login_cookie_is_secure(tls_station):
    st = tls_station
    conn = http.client.HTTPSConnection("127.0.0.1", st.port, timeout=10, context=ssl._create_unverified_context())
    conn.request("GET", f"/director?token={st.token}")
    resp = conn.getresponse()
    resp.read()
    conn.close()
    assert resp.status == 303 and "; Secure" in resp.getheader("Set-Cookie")


def test_a_scoring_program_on_the_same_computer_uses_plain_http_on_loopback_only(tls_station):
    """The official client cannot pin a self-signed certificate: the station also answers on
    127.0.0.1 (never on the club's network) in plain HTTP."""
    from bridgemate_dataconnector import DataConnectorClient

    st = tls_station
    local = int(re.search(r"http://localhost:(\d+)/ \(Data Connector, loopback only\)", st.out.decode()
                          + st.startup_text).group(1))
    client = DataConnectorClient("club", st.token, f"http://127.0.0.1:{local}")
    from bridgemate_dataconnector.dto import DataConnectorResponseData

    assert client.ping().data_type == DataConnectorResponseData.OK
    conn = http.client.HTTPConnection("127.0.0.1", local, timeout=10)
    conn.request("GET", "/")
    assert b"Bridgemate dataconnector service" in conn.getresponse().read()
    conn.close()
