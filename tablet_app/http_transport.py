"""The tablet's connection to the station: plain HTTP, or HTTPS pinned to the station's own
certificate. The station's certificate is self-signed (no certificate authority on a club
network), so instead of a CA the tablet checks the SHA-256 fingerprint it was given with the
station address, `https://<station>:8080/#sha256=<64 hex digits>` (the station prints that
address at start); any other certificate is refused before a byte of the request is sent."""
from __future__ import annotations

import hashlib
import hmac
import http.client
import re
import ssl
from urllib.parse import SplitResult


class PinError(ssl.SSLError):
    """The station's certificate is not the one pinned (or no pin was given for https). Its
    text is one sentence (ssl.SSLError's own would show the arguments as a tuple); the TD sees
    it in the tablet's language (i18n.station_problem)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


def pinned_fingerprint(url: SplitResult) -> str | None:
    m = re.search(r"(?:^|&)sha256=([0-9A-Fa-f:]{64,95})(?:&|$)", url.fragment)
    return m.group(1).replace(":", "").lower() if m else None


class PinnedHTTPSConnection(http.client.HTTPSConnection):
    def __init__(self, host: str, port: int | None, fingerprint: str, timeout: float):
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        ctx.minimum_version = ssl.TLSVersion.TLSv1_2
        ctx.check_hostname = False      # the pin below identifies the station, not a CA
        ctx.verify_mode = ssl.CERT_NONE
        super().__init__(host, port, timeout=timeout, context=ctx)
        self.fingerprint = fingerprint

    def connect(self) -> None:
        super().connect()
        der = self.sock.getpeercert(binary_form=True) or b""
        if not hmac.compare_digest(hashlib.sha256(der).hexdigest(), self.fingerprint):
            self.sock.close()
            raise PinError(f"the station's certificate is not the pinned one (sha256 "
                           f"{hashlib.sha256(der).hexdigest()[:16]}..., expected {self.fingerprint[:16]}...): "
                           "check the station address, or someone is in between")


def connection(url: SplitResult, timeout: float) -> http.client.HTTPConnection:
    """An HTTP(S) connection to the station at `url` (as `urlsplit` gives it)."""
    if url.scheme != "https":
        return http.client.HTTPConnection(url.hostname or "", url.port, timeout=timeout)
    pin = pinned_fingerprint(url)
    if pin is None:
        raise PinError("an https station address needs the certificate's fingerprint: "
                       "https://<station>:<port>/#sha256=<fingerprint> (printed by the station)")
    return PinnedHTTPSConnection(url.hostname or "", url.port, pin, timeout)
