"""The station's TLS certificate: self-signed, made on first start, kept beside the database,
and pinned by the tablets through its SHA-256 fingerprint (no certificate authority on a club
network; the fingerprint is printed with the table keys and is part of the station address
the tablets are given: `https://<scoring PC>:8080/#sha256=<fingerprint>`)."""
from __future__ import annotations

import datetime
import hashlib
import ipaddress
import os
import pathlib
import socket
import ssl


def fingerprint(der: bytes) -> str:
    """SHA-256 of the certificate (DER), as 64 lower-case hex digits."""
    return hashlib.sha256(der).hexdigest()


def tls_dir_for(db: str) -> pathlib.Path:
    """Where the certificate lives: beside a SQLite file, else `station-tls` here."""
    if db.startswith(("postgresql://", "postgres://")):
        return pathlib.Path("station-tls")
    path = pathlib.Path(db.removeprefix("sqlite:///"))
    return path.with_name(path.name + ".tls")


def ensure_certificate(directory: pathlib.Path) -> tuple[pathlib.Path, pathlib.Path, str]:
    """(certificate, private key, fingerprint); made on first call (EC P-256, 10 years), the
    key file readable by the owner only."""
    cert_path, key_path = directory / "station-cert.pem", directory / "station-key.pem"
    if not (cert_path.exists() and key_path.exists()):
        _make(directory, cert_path, key_path)
    der = ssl.PEM_cert_to_DER_cert(cert_path.read_text())
    return cert_path, key_path, fingerprint(der)


def _make(directory: pathlib.Path, cert_path: pathlib.Path, key_path: pathlib.Path) -> None:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"bidding-box station {socket.gethostname()}"[:64])])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=3650))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                        x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .sign(key, hashes.SHA256()))
    tmp_key = key_path.with_suffix(".tmp")
    fd = os.open(tmp_key, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                  serialization.NoEncryption()))
    os.replace(tmp_key, key_path)
    tmp_cert = cert_path.with_suffix(".tmp")
    tmp_cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    os.replace(tmp_cert, cert_path)


def server_context(cert_path: pathlib.Path, key_path: pathlib.Path) -> ssl.SSLContext:
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.load_cert_chain(str(cert_path), str(key_path))
    return ctx
