"""TLS on the club network: the station serves HTTPS with a certificate it made on
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

from .conftest import EVENT, StationProcess, result_record
from .test_outbox_faults import make_tablet_db

pytestmark = pytest.mark.server  # starts the results station as a process


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
    # the address a tablet takes as it is (the one address the station listens on here), not a
    # placeholder
    assert f"https://127.0.0.1:{st.port}/#sha256={st.fingerprint}" in st.startup_text
    assert "<this computer>" not in st.startup_text
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
    with pytest.raises(StationError, match="fingerprint") as e:
        table_id(f"https://127.0.0.1:{tls_station.port}/", 1)
    assert e.value.reason == "certificate"


def test_a_wrong_pin_reaches_the_td_as_a_sentence_in_the_tablets_language(tls_station, tmp_path):
    """Not ssl.SSLError's tuple ("('the station's ...',)"): the setup check and the deliveries
    meet the other certificate, and the director console says so in the TD's language."""
    from tablet_app import present
    from tablet_app.controller import Controller
    from tablet_app.station_client import station_check
    from tests.tablet.conftest import SESSION, Clock

    st = tls_station
    url = f"https://127.0.0.1:{st.port}/#sha256={'0' * 64}"
    with pytest.raises(StationError) as e:
        table_id(url, 1)
    assert e.value.reason == "certificate" and str(e.value).startswith("the station's certificate is not the pinned")
    ctl = Controller(tmp_path / "tablet.db", clock=Clock())
    ctl.station_check = station_check(url, st.keys[f"{EVENT}/A/3"])
    ctl.setup(dict(SESSION))  # the table goes on: its results wait in the outbox
    assert ctl.station_status["ok"] is False and "('" not in ctl.station_status["message"]
    d = Deliverer(str(tmp_path / "tablet.db"), url, f"{EVENT}/A/3", st.keys[f"{EVENT}/A/3"])
    assert d.send_one() is None  # the board's first item, refused before a byte is sent and "('" not in d.last_error
    delivery = ctl.delivery()
    assert "not the pinned one" in delivery["last_error"]
    for lang, words in (("en", "The station's certificate is not the one this tablet was given"),
                        ("sv", "Stationens certifikat är inte det som plattan fick"),
                        ("da", "Stationens certifikat er ikke det, tabletten fik")):
        lines = present.delivery_report(delivery, True, ctl.station_status, lang)
        red = [line for line in lines if line.startswith("[color=")]
        assert len(red) == 1 and words in red[0], lines
    ctl.close()
    d.stop()
    lines = present.delivery_report({"connected": False, "last_error": "station unreachable: " + str(e.value)},
                                    True, None, "sv")
    assert lines[-1] == "[color=cc141f]" + "Stationens certifikat är inte det som plattan fick: inget skickades. " \
        "Jämför stationens adress (delen #sha256=) med den som stationen skrev ut; stämmer den kan någon finnas " \
        "mellan plattan och stationen.[/color]"


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


def export_cert(tmp_path, db: str, name: str, *extra: str) -> bytes:
    """`python -m station cert --export FILE`, as the club runs it on the scoring PC."""
    import subprocess
    import sys

    from .conftest import ROOT

    out = tmp_path / name
    r = subprocess.run([sys.executable, "-m", "station", "cert", "--db", db, "--export", str(out), *extra],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return out.read_bytes()


def test_a_scoring_program_on_another_computer_verifies_the_exported_certificate(tmp_path, monkeypatch):
    """The scoring program runs on the club secretary's laptop, not on the station's computer:
    the official Data Connector client cannot pin a fingerprint, it verifies the certificate
    as any HTTPS client does (trust store + the address in the certificate). The club exports
    the station's certificate into that computer's trusted roots and names the station's
    address in it (`--tls-san`); no `--insecure-http`. The station listens on 127.0.0.2 here:
    an address its first certificate does not name, as the scoring PC's LAN address."""
    from bridgemate_dataconnector import DataConnectorClient
    from bridgemate_dataconnector.dto import DataConnectorResponseData

    from .test_dataconnector import GUID, pairs_init
    from .test_dc_club import SLOTS

    db = str(tmp_path / "station.db")
    laptop_roots = tmp_path / "laptop-trusted-roots.pem"  # the other computer's trust store
    monkeypatch.setenv("SSL_CERT_FILE", str(laptop_roots))
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)

    st = StationProcess(db, tmp_path, extra=["--tls", "--host", "127.0.0.2"]).start()
    try:
        laptop_roots.write_bytes(export_cert(tmp_path, db, "station.pem"))
        client = DataConnectorClient("club-7", st.token, f"https://127.0.0.2:{st.port}")
        refused = client.ping()  # trusted, but the certificate does not name this address
        assert refused.data_type == DataConnectorResponseData.Error
        assert re.search("CERTIFICATE_VERIFY_FAILED.*IP address mismatch", refused.serialized_data), \
            refused.serialized_data
    finally:
        st.stop()

    st = StationProcess(db, tmp_path, extra=["--tls", "--host", "127.0.0.2", "--tls-san", "127.0.0.2",
                                             "--tls-san", "scoring-pc.club.lan"]).start()
    try:
        fp = re.search(r"fingerprint \(SHA-256\): ([0-9a-f]{64})", st.startup_text).group(1)
        assert "the certificate now also names 127.0.0.2" in st.startup_text  # the tablets' address changed
        client = DataConnectorClient("club-7", st.token, f"https://127.0.0.2:{st.port}")
        laptop_roots.write_bytes(b"")
        refused = client.ping()  # not yet trusted on the laptop: refused, nothing sent
        assert refused.data_type == DataConnectorResponseData.Error
        assert "CERTIFICATE_VERIFY_FAILED" in refused.serialized_data, refused.serialized_data
        der = export_cert(tmp_path, db, "station.cer")  # what the Windows certificate import takes
        assert hashlib.sha256(der).hexdigest() == fp
        pem = export_cert(tmp_path, db, "station.pem")
        assert ssl.PEM_cert_to_DER_cert(pem.decode()) == der
        laptop_roots.write_bytes(pem)
        assert client.ping().data_type == DataConnectorResponseData.OK
        assert client.initialize(pairs_init(SLOTS)).data_type == DataConnectorResponseData.OK
        rec = result_record()  # a table's result, over the same verified TLS
        conn = http.client.HTTPSConnection("127.0.0.2", st.port, timeout=10,
                                           context=ssl.create_default_context(cafile=str(laptop_roots)))
        conn.request("POST", "/api/v1/items", json.dumps({"kind": "result", "key": rec["key"], "payload": rec}),
                     st.table_headers())
        assert conn.getresponse().status == 201
        conn.close()
        [result] = client.poll_for_results(GUID)
        assert result.board_number == 1
        # the tablets still pin: the same certificate, by its fingerprint
        assert table_id(f"https://127.0.0.2:{st.port}/#sha256={fp}", 1) == f"{EVENT}/A/1"
    finally:
        st.stop()


def test_a_club_certificate_is_served_and_pinned(tmp_path, monkeypatch):
    """The club already has a certificate for its scoring PC (its own CA, or one its IT made):
    `--tls-cert/--tls-key` serve it; the scoring program verifies it through the club's CA,
    the tablets pin its fingerprint."""
    import datetime
    import ipaddress

    from bridgemate_dataconnector import DataConnectorClient
    from bridgemate_dataconnector.dto import DataConnectorResponseData
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Bridge club CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
          .serial_number(1).not_valid_before(now - datetime.timedelta(days=1))
          .not_valid_after(now + datetime.timedelta(days=30))
          .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "scoring-pc")]))
            .issuer_name(ca_name).public_key(key.public_key()).serial_number(2)
            .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=30))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.2"))]),
                           critical=False)
            .sign(ca_key, hashes.SHA256()))
    (tmp_path / "club.crt").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (tmp_path / "club.key").write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                                          serialization.PrivateFormat.PKCS8,
                                                          serialization.NoEncryption()))
    (tmp_path / "club.key").chmod(0o600)
    (tmp_path / "ca.pem").write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "ca.pem"))
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=[
        "--tls", "--host", "127.0.0.2", "--tls-cert", str(tmp_path / "club.crt"),
        "--tls-key", str(tmp_path / "club.key")]).start()
    try:
        fp = re.search(r"fingerprint \(SHA-256\): ([0-9a-f]{64})", st.startup_text).group(1)
        assert fp == hashlib.sha256(cert.public_bytes(serialization.Encoding.DER)).hexdigest()
        client = DataConnectorClient("club-7", st.token, f"https://127.0.0.2:{st.port}")
        assert client.ping().data_type == DataConnectorResponseData.OK
        assert table_id(f"https://127.0.0.2:{st.port}/#sha256={fp}", 1) == f"{EVENT}/A/1"
        assert not (tmp_path / "station.db.tls").exists()  # no certificate of its own made
    finally:
        st.stop()


@pytest.mark.parametrize("args, says", [
    (["--tls-cert", "nowhere.crt", "--tls-key", "nowhere.key"], "cannot set up TLS"),
    (["--tls-cert", "club.crt"], "--tls-cert and --tls-key go together"),
    (["--tls-san", "not a name!"], "--tls-san"),
])
def test_a_wrong_tls_option_is_a_clear_error(tmp_path, args, says):
    import subprocess
    import sys

    from .conftest import ROOT

    r = subprocess.run([sys.executable, "-m", "station", "--db", str(tmp_path / "station.db"), "--port", "0",
                        "--host", "127.0.0.1", *args], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                       env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 2 and says in r.stderr and "Traceback" not in r.stderr, r.stderr
