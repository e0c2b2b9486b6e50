"""The address the club's tablets reach this station by: its LAN address, printed at start for the
TD to give each tablet once (typed, or read from the director page), never a placeholder.

`lan_address(host)`: the interface the station listens on when it is one address; otherwise the
address of the interface that routes to the LAN (a UDP socket "connected" to a private address
sends nothing, it only asks the kernel for the route), and the loopback address when this
computer has no network at all (a station for one table on the same computer)."""
from __future__ import annotations

import ipaddress
import socket

# a private address no packet is sent to (RFC 1918); only the route to it is asked for
PROBE = ("10.255.255.255", 1)


def lan_address(host: str = "0.0.0.0") -> str:
    """This station's address for the tablets (an IPv4 literal, or `host` when it names one)."""
    if host not in ("", "0.0.0.0", "::"):
        return host
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(PROBE)
            addr = s.getsockname()[0]
        if not ipaddress.ip_address(addr).is_unspecified:
            return str(addr)
    except OSError:
        pass  # no route at all: no network
    return "127.0.0.1"


def station_url(scheme: str, host: str, port: int, pin: str = "") -> str:
    """`https://192.168.1.20:8080/#sha256=...`: what a tablet's `--station` takes."""
    addr = lan_address(host)
    if ":" in addr:
        addr = f"[{addr}]"  # an IPv6 literal in a URL
    return f"{scheme}://{addr}:{port}/{pin}"
