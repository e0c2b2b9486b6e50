"""The real box firmware (MicroPython unix port, over a real pty) against frames it cannot use:
it answers each with the NAK and reason the golden file says (SPEC.md section 3b), sends its
CAPS at link-up (3c), and never reuses the epoch of its previous boot (4)."""
from __future__ import annotations

import binascii
import os
import subprocess
import time
import tty

import pytest

from protocol import VERSION_MAX, tablet_endpoint
from protocol import messages as M
from protocol.frame_tools import payloads, wire_from_payload
from protocol.session import next_epoch
from protocol.tablet_endpoint import TabletEndpoint
from tests.protocol.test_golden import vectors

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLET_EPOCH = 0x9999


class Wire:
    """The tablet's end of a pty whose other end is a running firmware box."""

    def __init__(self, tmp_path, micropython_bin, seat="N", bus=False):
        self.master, slave = os.openpty()
        tty.setraw(self.master)
        os.set_blocking(self.master, False)
        self.slave_path = os.ttyname(slave)
        self.slave = slave
        self.tmp = tmp_path
        self.mp = micropython_bin
        self.seat = seat
        self.bus = bus
        self.proc = None
        self.tab = TabletEndpoint(seat, TABLET_EPOCH, self.now())
        self.frames: list[dict] = []   # every frame from the box, decoded
        self.hello_epochs: list[int] = []

    @staticmethod
    def now() -> int:
        return int(time.monotonic() * 1000) & 0x3FFFFFFF

    def boot(self) -> None:
        args = [self.mp, "firmware/main.py", "--seat", self.seat, "--port", self.slave_path,
                "--store", str(self.tmp / "flash.bin"), "--screen-file", str(self.tmp / "screen.txt"),
                "--no-draw", "--keep-on-eof"] + (["--bus"] if self.bus else [])
        self.proc = subprocess.Popen(args, cwd=ROOT, stdin=subprocess.PIPE,
                                     stdout=open(self.tmp / "box.log", "ab"), stderr=subprocess.STDOUT)

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def pump(self, seconds: float, until=None, grant: bool | None = None) -> bool:
        """Run the tablet's end for up to `seconds` (bus: grant the seat every 10 ms)."""
        end = time.monotonic() + seconds
        last_grant = 0.0
        while time.monotonic() < end:
            now = self.now()
            try:
                data = os.read(self.master, 4096)
            except BlockingIOError:
                data = b""
            if data:
                for p in payloads(data):
                    m = M.decode_payload(p)
                    if m is not None:
                        self.frames.append(m)
                        if m["type"] == "hello":
                            self.hello_epochs.append(m["epoch"])
                self.tab.receive(data, now)
            if self.bus:
                if time.monotonic() - last_grant > 0.01 and (grant is None or grant):
                    last_grant = time.monotonic()
                    os.write(self.master, bytes(self.tab.output(now, True)))
            else:
                f = self.tab.output(now)
                while f is not None:
                    os.write(self.master, bytes(f))
                    f = self.tab.output(now)
            if until is not None and until():
                return True
            time.sleep(0.002)
        return until is None

    def naks(self) -> list[dict]:
        return [{k: m[k] for k in ("reason", "of_type", "of_seq", "detail")}
                for m in self.frames if m["type"] == "box_nak"]

    def close(self) -> None:
        self.kill()
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def wire(tmp_path, micropython_bin):
    made = []

    def make(**kw):
        w = Wire(tmp_path, micropython_bin, **kw)
        made.append(w)
        return w

    yield make
    for w in made:
        w.close()


def _up(w: Wire) -> None:
    w.tab.set_view({"turn": "N", "lowest": "1C", "allowed": ["P", "1C"], "prevent": True,
                    "message": "1\u2663 to open"})
    w.boot()
    assert w.pump(15, lambda: w.tab.state_acked() and w.tab.caps is not None), \
        (w.tmp / "box.log").read_text()


def _with_box_epoch(v: dict, box_epoch: int) -> bytes:
    """The vector's wire bytes; a WELCOME that echoes the golden box epoch gets the real box's."""
    p = bytearray(binascii.unhexlify(v["payload"]))
    if p[1] == M.WELCOME and len(p) == M.HEADER + M.WELCOME_BODY + M.CRC \
            and (p[M.HEADER + 2] << 8 | p[M.HEADER + 3]) == v["box_epoch"]:
        p[M.HEADER + 2] = box_epoch >> 8
        p[M.HEADER + 3] = box_epoch & 0xFF
        M.put_crc(p, len(p) - 2)
        return wire_from_payload(bytes(p))
    return binascii.unhexlify(v["wire"])


def test_the_box_naks_every_frame_it_cannot_use_with_the_golden_reason(wire, monkeypatch):
    """Attack: a second vendor's tablet sends the box each kind of frame the box cannot use.
    Before version 2 the box dropped them all in silence and the tablet re-sent forever; now
    the box names the reason, and stays silent only where the SPEC says so. The golden file's
    lines are read in a session of version 2 (protocol/SPEC.md, its opening): the tablet here
    speaks up to version 2, so the version 3 box talks version 2 with it, as the SPEC has it."""
    monkeypatch.setattr(tablet_endpoint, "VERSION_MAX", 2)
    w = wire()
    _up(w)
    assert w.tab.version == 2
    caps = w.tab.caps
    assert (caps["vendor"], caps["name"], caps["lines"], caps["cols"], caps["suits"]) == (
        0, "ref-box", 4, 12, True)  # 12 columns of the 10 x 16 font (hardware/display.md)
    cases = [v for v in vectors() if "to_box" in v and not v["bus"] and v.get("version", 2) == 2]
    # the version refusal last: it leaves the box showing "update firmware"
    cases.sort(key=lambda v: v["nak"] is not None and v["nak"]["reason"] == "version")
    assert len(cases) >= 20
    for v in cases:
        w.pump(0.05)  # more than the box's 20 ms between NAKs
        before = len(w.naks())
        os.write(w.master, _with_box_epoch(v, w.tab.box_epoch))
        if v["nak"] is None:
            w.pump(0.15)
            assert w.naks()[before:] == [], v["to_box"]
        else:
            assert w.pump(3, lambda b=before: len(w.naks()) > b), v["to_box"]
            want = dict(v["nak"])
            if want["reason"] == "version":  # the detail is the box's own highest version
                want["detail"] = VERSION_MAX
            assert w.naks()[before:] == [want], v["to_box"]
    # the tablet heard every one of them, by reason
    reps = [r for r in w.tab.take_reports() if r["kind"] == "nak"]
    assert len(reps) == sum(1 for v in cases if v["nak"])


def test_on_a_bus_the_box_does_not_nak_a_garbled_frame_but_does_nak_a_bad_field(wire):
    w = wire(bus=True)
    _up(w)
    crc = next(v for v in vectors() if "to_box" in v and v["bus"])
    os.write(w.master, binascii.unhexlify(crc["wire"]))
    w.pump(0.3)
    assert w.naks() == []
    dealer = next(v for v in vectors() if v.get("to_box") == "STATE dealer 4")
    os.write(w.master, binascii.unhexlify(dealer["wire"]))
    assert w.pump(3, lambda: w.naks())
    assert w.naks() == [dealer["nak"]]


def test_the_reference_box_says_it_has_suit_glyphs_and_is_sent_the_symbols(wire):
    # its 8x16 font has them (firmware/font16.py); a box whose CAPS lacks them gets letters
    # (tests/protocol/test_nak_caps.py)
    w = wire()
    _up(w)
    assert w.pump(3, lambda: "1\u2663 to open" in (w.tmp / "screen.txt").read_text(encoding="utf-8"))


def test_a_rebooted_box_never_comes_back_with_the_epoch_of_its_previous_boot(wire):
    """Attack: a box reboots (power glitch) and draws the same random epoch as before; the
    tablet takes it for the same box and drops its first new calls as duplicates. The box now
    keeps its last epoch in flash and takes the next one."""
    w = wire()
    epochs = []
    for _ in range(3):
        w.frames.clear()
        w.hello_epochs.clear()
        w.boot()
        assert w.pump(15, lambda: w.hello_epochs), (w.tmp / "box.log").read_text()
        epochs.append(w.hello_epochs[0])
        w.kill()
    assert epochs[1] == next_epoch(epochs[0]) and epochs[2] == next_epoch(epochs[1])
    assert len(set(epochs)) == 3
