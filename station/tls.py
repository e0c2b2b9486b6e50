"""The station's TLS certificate: self-signed, made on first start, kept beside the database,
and pinned by the tablets through its SHA-256 fingerprint (no certificate authority on a club
network; the fingerprint is printed with the table keys and is part of the station address
the tablets are given: `https://<scoring PC>:8080/#sha256=<fingerprint>`).

A scoring program on another computer cannot pin: it verifies the certificate as any HTTPS
client does. For it the certificate names the addresses the club reaches the station by
(`--tls-san`) and is exported (`python -m station cert --export FILE`) into that computer's
trusted roots; or the club serves a certificate it already has (`--tls-cert/--tls-key`)."""
from __future__ import annotations

import datetime
import hashlib
import ipaddress
import os
import pathlib
import re
import socket
import ssl
from collections.abc import Sequence
from typing import Any, NamedTuple

_DNS = re.compile(r"^(?=.{1,253}$)(\*\.)?[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                  r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$")
_PEM = re.compile(r"-----BEGIN CERTIFICATE-----.+?-----END CERTIFICATE-----", re.S)


class Certificate(NamedTuple):
    cert: pathlib.Path
    key: pathlib.Path
    fingerprint: str
    added: list[str]  # names asked for that the certificate did not have: made again with them


def fingerprint(der: bytes) -> str:
    """SHA-256 of the certificate (DER), as 64 lower-case hex digits."""
    return hashlib.sha256(der).hexdigest()


def san(text: str) -> str:
    """An address the certificate may name: an IP address or a host name (`scoring-pc`,
    `scoring-pc.club.lan`); ValueError otherwise."""
    text = text.strip()
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        pass
    if not _DNS.match(text):
        raise ValueError(f"{text!r} is neither an IP address nor a host name")
    return text.lower()


def tls_dir_for(db: str) -> pathlib.Path:
    """Where the certificate lives: beside a SQLite file, else `station-tls` here."""
    if db.startswith(("postgresql://", "postgres://")):
        return pathlib.Path("station-tls")
    path = pathlib.Path(db.removeprefix("sqlite:///"))
    return path.with_name(path.name + ".tls")


def ensure_certificate(directory: pathlib.Path, names: Sequence[str] = ()) -> Certificate:
    """The station's certificate and key, made on first call (EC P-256, 10 years; the key file
    readable by the owner only). `names` (see `san`): addresses it must name besides
    localhost, 127.0.0.1 and this computer's name; one it lacks makes it again with the same
    key and every name it had (a new fingerprint: the tablets need the new address)."""
    cert_path, key_path = directory / "station-cert.pem", directory / "station-key.pem"
    added: list[str] = []
    if not (cert_path.exists() and key_path.exists()):
        _make(directory, cert_path, key_path, _default_names() + [san(n) for n in names])
    else:
        have = names_of(cert_path.read_bytes())
        added = [n for n in dict.fromkeys(san(n) for n in names) if n not in have]
        if added:
            _make(directory, cert_path, key_path, have + added, key_path.read_bytes())
    return Certificate(cert_path, key_path, fingerprint(der_of(cert_path.read_bytes())), added)


def der_of(pem: bytes) -> bytes:
    """The first certificate of a PEM file (the server's own, before any chain), as DER."""
    m = _PEM.search(pem.decode("ascii", "replace"))
    if m is None:
        raise ValueError("no PEM certificate in it")
    return ssl.PEM_cert_to_DER_cert(m.group(0))


def names_of(pem: bytes) -> list[str]:
    """The DNS names and IP addresses the certificate names (its subjectAltName)."""
    from cryptography import x509

    cert = x509.load_der_x509_certificate(der_of(pem))
    try:
        ext: Any = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return []
    return [str(v).lower() for v in ext.get_values_for_type(x509.DNSName)] + \
        [str(v) for v in ext.get_values_for_type(x509.IPAddress)]


def export(cert_path: pathlib.Path, out: pathlib.Path) -> str:
    """Write the certificate for another computer's trust store: DER for `.cer`/`.der` (what
    Windows' certificate import takes), else PEM. Returns the format written."""
    pem = cert_path.read_bytes()
    if out.suffix.lower() in (".cer", ".der"):
        out.write_bytes(der_of(pem))
        return "DER"
    out.write_text(ssl.DER_cert_to_PEM_cert(der_of(pem)))
    return "PEM"


def _default_names() -> list[str]:
    names = ["localhost", "127.0.0.1"]
    host = socket.gethostname()
    try:
        if san(host) not in names:
            names.append(san(host))
    except ValueError:  # a computer name no certificate can carry: the club adds its address
        pass
    return names


def _make(directory: pathlib.Path, cert_path: pathlib.Path, key_path: pathlib.Path, names: list[str],
          key_pem: bytes | None = None) -> None:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    key: Any = (serialization.load_pem_private_key(key_pem, None) if key_pem is not None
                else ec.generate_private_key(ec.SECP256R1()))
    alt: list[x509.GeneralName] = []
    for n in dict.fromkeys(names):
        try:
            alt.append(x509.IPAddress(ipaddress.ip_address(n)))
        except ValueError:
            alt.append(x509.DNSName(n))
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"bidding-box station {socket.gethostname()}"[:64])])
    now = datetime.datetime.now(datetime.UTC)
    # A server certificate that is its own trust anchor (the club imports it as a trusted root):
    # not a CA, for TLS servers only, so trusting it trusts nothing else.
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=3650))
            .add_extension(x509.SubjectAlternativeName(alt), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                         data_encipherment=False, key_agreement=False, key_cert_sign=False,
                                         crl_sign=False, encipher_only=False, decipher_only=False), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
            .sign(key, hashes.SHA256()))
    if key_pem is None:
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
