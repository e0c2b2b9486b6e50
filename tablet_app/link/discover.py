"""Which serial port is which seat: the tablet finds its boxes by the seat each box reports.

Every frame a box sends carries its seat in the address byte (protocol/SPEC.md section 2,
`addr` bits 0-1; a box knows its seat from its jumpers), so nobody types `N=/dev/ttyACM0,...`.
`find_boxes(paths)` opens each candidate port, listens for box frames and answers with the
seats found on each port:

- a box on its own port (point-to-point) talks by itself: HELLO every 100 ms without a session,
  something at least every 200 ms in one (SPEC.md section 4);
- boxes on an RS-485 bus talk only when granted (SPEC.md section 1), so every port also gets a
  PING for each seat in turn, spaced so that a reply has the line to itself. A box without a
  session answers a grant with its HELLO; a box in a session of another tablet epoch ends it and
  HELLOs (SPEC.md section 3a, rows 10 and 11), exactly what the LinkMaster opened next would
  cause anyway.

The result says what is wrong in words the setup screen shows in the players' language
(`problems`): two boxes that claim one seat (a jumper set wrong), a seat no box reported (a box
unplugged or off). Nothing is opened for the table until the caller has a seat-to-port map.
"""
from __future__ import annotations

import glob
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import serial

from protocol import messages as M
from protocol.calls import SEATS
from protocol.frame_tools import wire_from_payload
from protocol.framing import Deframer
from tablet_app.link.master import open_serial

# Long enough for a box's HELLO retry (100 ms) and its p2p heartbeat (200 ms) several times over,
# and for a bus box to be granted many times; a box that says nothing in this is not there.
LISTEN_S = 1.5
PING_GAP_S = 0.012   # a bus grant's reply window is 7.5 ms (SPEC.md section 1)
PORT_GLOBS = ("/dev/ttyACM*", "/dev/ttyUSB*")


def candidate_ports() -> list[str]:
    """The serial ports a box can be on: USB-CDC boards (ttyACM) and USB-serial bridges (ttyUSB)."""
    return sorted(p for g in PORT_GLOBS for p in glob.glob(g))


def box_seat(payload: bytes) -> str | None:
    """The seat of a CRC-checked payload if a box sent it (addr bit 7), else None."""
    m = M.decode_payload(payload)
    if m is None or m["type"] not in M.BOX_TYPES.values():
        return None
    return str(m["seat"])


@dataclass
class Found:
    """What the ports said: `seats[path]` the seats heard on that port (several: a bus)."""
    seats: dict[str, set[str]] = field(default_factory=dict)
    unopened: dict[str, str] = field(default_factory=dict)  # path -> why it could not be opened

    def claims(self) -> dict[str, list[str]]:
        """Seat -> the ports a box claiming it was heard on."""
        out: dict[str, list[str]] = {s: [] for s in SEATS}
        for path in sorted(self.seats):
            for s in self.seats[path]:
                out[s].append(path)
        return out

    def ports(self) -> dict[str, str]:
        """Seat -> port, for `LinkMaster`; only seats claimed on exactly one port."""
        return {s: paths[0] for s, paths in self.claims().items() if len(paths) == 1}

    def clashes(self) -> dict[str, list[str]]:
        return {s: paths for s, paths in self.claims().items() if len(paths) > 1}

    def missing(self) -> list[str]:
        return [s for s, paths in self.claims().items() if not paths]

    def complete(self) -> bool:
        return not self.missing() and not self.clashes()

    def problems(self) -> list[tuple[str, dict[str, Any]]]:
        """(i18n key, fields) for each thing the players or the TD must fix before the table starts."""
        out: list[tuple[str, dict[str, Any]]] = []
        for seat, paths in self.clashes().items():
            out.append(("boxes_clash", {"seat": seat, "ports": ", ".join(paths)}))
        missing = self.missing()
        if missing:
            out.append(("boxes_missing", {"seats": missing}))
        return out


def _ping(seat: str, epoch: int) -> bytes:
    return wire_from_payload(M.encode_payload({"type": "ping", "seat": seat, "epoch": epoch, "seq": 0,
                                               "ack": 0}))


def find_boxes(paths: Iterable[str] | None = None, listen_s: float = LISTEN_S, baud: int = 115200,
               open_port: Callable[[str, int], Any] = open_serial,
               clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep) -> Found:
    """Listen on each port (default `candidate_ports()`) until every seat is heard once on one
    port and every port that opened has a box, or `listen_s` has passed; the ports are closed
    again. A port that cannot be opened (taken, no permission) is noted, not fatal."""
    found = Found()
    opened: dict[str, tuple[Any, Deframer]] = {}
    for path in (candidate_ports() if paths is None else list(paths)):
        try:
            opened[path] = (open_port(path, baud), Deframer())
            found.seats[path] = set()
        except (serial.SerialException, OSError) as exc:
            found.unopened[path] = str(exc)
    epoch = random.randint(1, 0xFFFF)  # never 0 (SPEC.md section 2)
    pings = [_ping(s, epoch) for s in SEATS]
    end = clock() + listen_s
    turn = 0
    try:
        while opened and clock() < end:
            for path, (ser, deframer) in list(opened.items()):
                try:
                    ser.write(pings[turn % 4])
                    data = ser.read(4096)
                except (serial.SerialException, OSError) as exc:
                    found.unopened[path] = str(exc)
                    found.seats.pop(path, None)
                    del opened[path]
                    continue
                _take(data or b"", deframer, found.seats[path])
            turn += 1
            if not found.missing() and all(found.seats[p] for p in opened):
                break
            sleep(PING_GAP_S)
    finally:
        for ser, _ in opened.values():
            try:
                ser.close()
            except (serial.SerialException, OSError):
                pass
    return found


def _take(data: bytes, deframer: Deframer, seats: set[str]) -> None:
    i, n = 0, len(data)
    while i < n:
        i = deframer.feed(data, i, n)
        if deframer.length:
            seat = box_seat(bytes(deframer.payload[0:deframer.length]))
            if seat is not None:
                seats.add(seat)


def describe(found: Found, lang: str = "en") -> list[str]:
    """The problems of `found` as sentences in the players' language (the setup screen, the
    terminal that started the tablet)."""
    from tablet_app import i18n

    lines = []
    for key, fields in found.problems():
        if "seat" in fields:
            fields = {**fields, "seat": i18n.seat_name(fields["seat"], lang)}
        if "seats" in fields:
            fields = {**fields, "seats": ", ".join(i18n.seat_name(s, lang) for s in fields["seats"])}
        lines.append(i18n.tr(key, lang, **fields))
    return lines
