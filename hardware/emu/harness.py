"""Boxes on emulated RP2040s, seen from Python: one node process (hardware/emu/emu.js, rp2040js)
runs every box of a table in lockstep on the chip's clock; each box's UART is a pseudo-terminal
the tablet's LinkMaster opens with pyserial (point-to-point), or one pty is the RS-485 line.

    with EmuTable(workdir, "NESW") as t:
        t.ports            # {"N": "/dev/pts/5", ...} for LinkMaster (bus: the same path 4 times)
        t.press("N", "1 NT OK")
        t.screen("N").lines, t.save_png("N", "n.png")
        t.power_cycle("N"); t.display_unplugged("N"); t.hang("N")
"""
from __future__ import annotations

import array
import contextlib
import fcntl
import json
import os
import pathlib
import pty
import re
import select
import shutil
import subprocess
import termios
import threading
import time
import tty
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from hardware.emu import image
from hardware.emu.lockstep import EmuPort, OneClock, Tablet
from shared_rules.types import SEATS

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
UF2 = "micropython-v1.27.0-RPI_PICO.uf2"
BOOTROM = "rp2040-bootrom-b1.bin"
UF2_URL = "https://micropython.org/resources/firmware/RPI_PICO-20251209-v1.27.0.uf2"
# A box pushes a new picture to its panel a page at a time (all pages at once point to point, a
# page per loop turn on a bus or in the refresh): a picture that has stood still this long on the
# chip's clock is whole, not half the old one and half the new.
STILL_US = 60_000
# The waits below are budgets of the chip's own time (the emulator runs the boxes slower than real
# time, and slower still on a busy machine); the wall clock only catches an emulator that has
# stopped: no chip time passing for this long.
STALL_S = 120.0
# a folder of booted boxes' states for every EmuTable that is given none (EmuTable: snapshots)
SNAPSHOTS_ENV = "BOX_EMU_SNAPSHOTS"
PTY_PUMP = "emu-pty-pump"  # the thread that hands the tablet's bytes on a pty to the boxes


def user_cache() -> pathlib.Path:
    """Where `make uf2` keeps the pair for every checkout on this machine."""
    base = os.environ.get("XDG_CACHE_HOME") or str(pathlib.Path.home() / ".cache")
    return pathlib.Path(base) / "bidding-box" / "rp2040"


def assets() -> pathlib.Path | None:
    """The stock UF2 and the boot ROM: $BOX_RP2040_ASSETS, build/rp2040 (fetched by `make uf2`),
    or the user's cache that `make uf2` also fills (~/.cache/bidding-box/rp2040)."""
    cands = [os.environ.get("BOX_RP2040_ASSETS", ""), str(ROOT / "build/rp2040"), str(user_cache())]
    for c in cands:
        if c and (pathlib.Path(c) / UF2).is_file() and (pathlib.Path(c) / BOOTROM).is_file():
            return pathlib.Path(c)
    return None


def missing() -> str | None:
    """Why the emulator cannot run here, or None."""
    if assets() is None:
        return "RP2040 assets (MicroPython UF2 + boot ROM) not found: set BOX_RP2040_ASSETS"
    if not shutil.which("node"):
        return "node not found (make setup)"
    if not (HERE / "node_modules/rp2040js").is_dir():
        return "rp2040js not installed (make setup runs npm ci in hardware/emu)"
    return None


def _keymap() -> dict[str, tuple[int, int]]:
    km = json.loads((ROOT / "hardware/pinmap.json").read_text())["keypad"]["keys"]
    out: dict[str, tuple[int, int]] = {}
    for r, row in enumerate(km):
        for c, tok in enumerate(row):
            if tok and tok not in out:
                out[tok] = (r, c)
    return out


KEYS = _keymap()
ALIASES = {"PASS": "P", "DBL": "X", "RDBL": "XX", "N": "NT", "ENTER": "OK", "BID": "OK",
           "ESC": "CLR", "CANCEL": "CLR"}

_GLYPHS: dict[bytes, tuple[str, bool]] | None = None
_SUIT_LETTERS = str.maketrans({"\u2663": "C", "\u2666": "D", "\u2665": "H", "\u2660": "S"})
CW = 10  # a cell's width (firmware/font16.py WIDTH)
COLS = 12  # cells a line (firmware/render.py WIDTH)
SLOT = 6  # the cells of one call in the auction lines (render.SLOT)
SLOT_X = 68  # where an auction line's second call starts (render.SLOT_X)


def glyphs() -> dict[bytes, tuple[str, bool]]:
    """The box's font (firmware/font16.py, cells 10 x 16), as the SSD1306's pages hold a glyph:
    the 10 column bytes of the top page then the bottom page -> (character, inverted) (suits as
    their symbols; inverted cells, render.INV, as the same characters)."""
    global _GLYPHS
    if _GLYPHS is None:
        import importlib.util

        spec = importlib.util.spec_from_file_location("font16", ROOT / "firmware/font16.py")
        assert spec is not None and spec.loader is not None
        font = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(font)
        _GLYPHS = {}
        for g in range(font.COUNT):
            if g < 64:
                ch = chr(g + 32)
            elif g < font.CLUB:
                ch = font.EXTRA[g - 64]
            elif g <= font.SPADE:
                ch = font.SUITS[g - font.CLUB]
            else:
                ch = "\ufffd"
            bits = bytes(font.FONT[g * 2 * CW:(g + 1) * 2 * CW])
            _GLYPHS.setdefault(bits, (ch, False))
            # inverted: the bottom page whole, the top page from row 2 (render.INV_TOP)
            inv = bytes(b ^ 0xFC for b in bits[:CW]) + bytes(b ^ 0xFF for b in bits[CW:])
            _GLYPHS.setdefault(inv, (ch, True))
    return _GLYPHS


@dataclass
class Slot:
    """One call of the auction lines as the panel shows it."""
    seat: str     # the seat's letter in the box's language (N, E, Ö, Ø, V ...)
    call: str     # suits as letters: "1H", "3NT", "P", "X", "PAS", "UT" ...
    mark: str     # "" or * (alerted), ! (STOP card), + (both)
    newest: bool  # drawn inverted: the latest call


@dataclass
class Screen:
    ram: bytes  # the display's 1024 bytes: 8 pages of 128 columns
    leds: dict[str, int] = field(default_factory=dict)
    on: bool = False
    changed_us: int = 0  # chip time the picture last changed (a byte of memory, on or off)
    read_us: int = 0     # chip time it was read

    @property
    def still_us(self) -> int:
        """How long the picture had stood still when it was read (chip time)."""
        return self.read_us - self.changed_us

    def _cell(self, r: int, x: int) -> tuple[str, bool] | None:
        top = self.ram[2 * r * 128 + x:2 * r * 128 + x + CW]
        bot = self.ram[(2 * r + 1) * 128 + x:(2 * r + 1) * 128 + x + CW]
        return glyphs().get(bytes(top) + bytes(bot))

    def _row(self, r: int, slots: bool) -> list[tuple[str, bool]] | None:
        xs = [CW * c if not slots or c < SLOT else SLOT_X + CW * (c - SLOT) for c in range(COLS)]
        cells = [c for c in (self._cell(r, x) for x in xs) if c is not None]
        return cells if len(cells) == COLS else None  # a cell that is no glyph: not this layout

    def _cells(self, r: int) -> tuple[list[tuple[str, bool]], bool]:
        """Line r's cells and whether they are two calls (the auction lines' layout)."""
        if r >= 2:
            text = self._row(r, False)
            if text is None:
                return self._row(r, True) or [("?", False)] * COLS, True
            return text, False
        return self._row(r, False) or [("?", False)] * COLS, False

    @property
    def lines(self) -> list[str]:
        """The 4 text lines of 12 cells (firmware/render.py Frame): status, the call line, and two
        lines of the auction (two calls each, a space apart: "N 1\u2665   \u00d6 2\u2660!") or,
        before the first call, the dealer and the vulnerability. "?" for a line that is no
        glyphs of the font."""
        out = []
        for r in range(4):
            cells, slots = self._cells(r)
            s = "".join(ch for ch, _ in cells[:SLOT]) + (" " if slots else "") + \
                "".join(ch for ch, _ in cells[SLOT:])
            out.append(s.rstrip())
        return out

    @property
    def status(self) -> str:
        return self.lines[0]

    @property
    def call_line(self) -> str:
        """The selection being confirmed, the call being sent, a note, or the seat and board."""
        return self.lines[1]

    @property
    def slots(self) -> list[Slot]:
        """The calls of the auction lines in time order (the newest last), [] when they show
        the board's dealer and vulnerability instead."""
        out = []
        for r in (2, 3):
            cells, slots = self._cells(r)
            if not slots:
                if any(ch != " " for ch, _ in cells):
                    return []  # a text: the dealer, the vulnerability
                continue  # no call on this line yet
            for k in (0, SLOT):
                text = "".join(ch for ch, _ in cells[k:k + SLOT]).rstrip()
                if not text:
                    continue
                body = text[2:]
                mark = body[-1] if body and body[-1] in "*!+" else ""
                call = (body[:-1] if mark else body).translate(_SUIT_LETTERS)
                out.append(Slot(text[0], call, mark, cells[k][1]))
        return out

    @property
    def auction(self) -> str:
        """The calls shown, in time order, suits written as letters, marks kept: "1H 2S! P 3D!"."""
        return " ".join(s.call + s.mark for s in self.slots)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def png(self, path: str | pathlib.Path, scale: int = 4) -> None:
        from PIL import Image

        img = Image.new("RGB", (128, 64), (8, 12, 24))
        px = img.load()
        assert px is not None
        for page in range(8):
            for x in range(128):
                b = self.ram[page * 128 + x]
                for bit in range(8):
                    if b >> bit & 1:
                        px[x, page * 8 + bit] = (140, 220, 255)
        img.resize((128 * scale, 64 * scale), Image.Resampling.NEAREST).save(str(path))


# not in lockstep: bytes the tablet wrote and this process never read (a write cut short) stop
# its clock no longer than this
UNREAD_MAX_S = 5.0
# not in lockstep: a pty hands bytes written on its master to the reader's side through a kernel
# workqueue, a moment later; the tablet's clock stands this long (wall) after bytes were handed
# to it even while its side shows nothing to read yet (tablet_us)
HANDED_S = 0.005
# ... and while they lie unread, no longer than this (a port the tablet closed to open again
# holds what came meanwhile until it does, on a timer of the clock that stands)
UNREAD_IN_MAX_S = 1.0


def _unread(fd: int) -> int:
    """Bytes waiting to be read on a pty end (FIONREAD)."""
    buf = array.array("i", [0])
    fcntl.ioctl(fd, termios.FIONREAD, buf)
    return buf[0]


class EmuTable:
    def __init__(self, workdir: pathlib.Path, seats: str = "".join(SEATS), bus: bool = False,
                 realtime: bool = True, jumpers: dict[str, tuple[int, int]] | None = None,
                 seat_in_config: bool = True, frames: bool = False,
                 extra_config: dict | None = None, display: str = "spi",
                 bridge_ms: float | None = None, lockstep: Tablet | None = None,
                 snapshots: pathlib.Path | None = None):
        """display: how the boxes' panels are wired, "spi" (the reference box) or "i2c"
        (`make flash DISPLAY_BUS=i2c`); the emulated panel listens on both buses.
        bridge_ms: model the USB bridge between the wire and the tablet with this latency timer
        (the FT231X's 16 ms default, or the 1 ms the tablet sets: tablet_app/link/latency.py).
        lockstep: the tablet (hardware/emu/lockstep.py Tablet) on the chips' clock: the chips
        stand while it works and its bytes enter the line at its own clock's time (lockstep.py;
        open its ports with `open_port`). Without it the tablet's wall time weighs as little on
        the chip's clock as the emulation is slower than real time, and its bytes land when a
        harness thread reads them.
        snapshots: a directory where each box's state at the moment its firmware enables the
        UART is kept, by what the box was built from (emu.js, snapshot.js): a box built the same
        way later starts from there instead of booting the same way again (the tests share one
        directory per run); by default $BOX_EMU_SNAPSHOTS if set (the demo's boxes), else none."""
        why = missing()
        if why:
            raise RuntimeError(why)
        a = assets()
        assert a is not None
        if snapshots is None and os.environ.get(SNAPSHOTS_ENV):
            snapshots = pathlib.Path(os.environ[SNAPSHOTS_ENV])
        self.seats = seats
        self.bus = bus
        self.workdir = pathlib.Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        boxes = []
        for s in seats:
            flash = self.workdir / f"box-{s}.flash"
            image.flash_file(flash, s if seat_in_config else None, bus, extra_config, display)
            b: dict = {"flash": str(flash)}
            if jumpers and s in jumpers:
                b["jumpers"] = list(jumpers[s])
            boxes.append(b)
        sp = json.loads((ROOT / "hardware/pinmap.json").read_text())["display"]["spi"]
        cfg = {"uf2": str(a / UF2), "bootrom": str(a / BOOTROM), "bus": bus, "boxes": boxes,
               "realtime": realtime, "frames": frames, "lockstep": lockstep is not None,
               "bridge": {"latency_ms": bridge_ms, "packet": 62} if bridge_ms else None,
               "spi": {"id": sp["id"], "cs": sp["cs"], "dc": sp["dc"], "res": sp.get("res", -1)},
               "snapshots": str(snapshots) if snapshots is not None else None}
        cfgp = self.workdir / "emu.json"
        cfgp.write_text(json.dumps(cfg))
        self.console: dict[str, list[tuple[int, str]]] = {s: [] for s in seats}
        self.keys_done: dict[str, int] = {s: 0 for s in seats}
        self.key_downs: dict[str, list[tuple[int, int, int]]] = {s: [] for s in seats}
        self.frames: dict[str, list[tuple[int, Screen]]] = {s: [] for s in seats}  # (chip us, frame)
        self.resets: dict[str, list[tuple[str, int]]] = {s: [] for s in seats}
        # the boxes that started from a snapshot: the chip time of their boot it was taken at
        self.restored: dict[str, int] = {}
        self.collisions = 0
        self.line_log: list[tuple[int, str, str]] = []  # bus: (chip us, who, hex) as driven
        self.undriven: list[tuple[int, str]] = []  # bus: (chip us, seat) of bytes sent with DE low
        self.collided: list[tuple[int, str]] = []  # (chip us, line) of each collision
        self.bus_bytes = 0  # bytes the boxes put on the RS-485 line (bus mode)
        self.unplugged: set[str] = set()  # cables pulled between a box and the tablet
        self.sim_us = 0
        self.bridge_ms = bridge_ms
        self.to_boxes: list[tuple[int, str, str]] = []  # p2p: (chip us, seat, hex) from the tablet
        self.to_tablet: list[tuple[int, str, str]] = []  # bridge: (chip us, port, hex) handed over
        self.wire_log: list[tuple[int, str, str]] = []  # point to point: (chip us, seat, hex) boxes sent
        self._tablet_us = 0  # the latest time tablet_us() gave (not in lockstep)
        self._in_flight = 0  # not in lockstep: the tablet's writes sent on, not yet placed (M)
        self._lag_us = 0  # ... how far the tablet's clock is behind the chips' (tablet_us)
        self._unread_n = 0  # ... bytes the tablet has written that the pump has not read yet
        self._unread_t = 0.0  # ... since this wall time
        self._handed_t = 0.0  # ... the wall time bytes from the chips were last handed to it
        self._unread_in_t = 0.0  # ... since when some of them wait unread (0: none wait)
        self._clock_lock = threading.Lock()
        self._send_lock = threading.Lock()  # one line at a time to emu.js, from any thread
        self._pipes: dict[str, tuple[int, int]] = {}  # lockstep: the tablet's read ends (EmuPort)
        # lockstep: a test's hook, the chip us by which a write of the tablet enters the line
        # later than its clock says (a grant swept over the moments of the box's loop)
        self.write_later: Callable[[bytes], int] | None = None
        self._cv = threading.Condition()
        self._replies: dict[str, str] = {}
        # ptys: the tablet opens the slave path; we keep the master (and the slave open, so the
        # line never hangs up while the tablet reopens it)
        self._pty: dict[str, tuple[int, int, str]] = {}
        self._pty_lock = threading.Lock()  # the tablet's writes against close()
        self._pty_closed = False
        for name in (["bus"] if bus else list(seats)):
            m, sl = pty.openpty()
            tty.setraw(sl)
            os.set_blocking(m, False)
            self._pty[name] = (m, sl, os.ttyname(sl))
        self.ports = {s: self._pty["bus" if bus else s][2] for s in seats}
        self.one: OneClock | None = None
        if lockstep is not None:
            self.one = OneClock(self._send, self._tablet_unread)
            self.one.attach(lockstep)
        self.proc = subprocess.Popen(["node", str(HERE / "emu.js"), str(cfgp)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=open(self.workdir / "emu.stderr", "wb"), text=True,
                                     bufsize=1)
        self._closed = False
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._pump: threading.Thread | None = None
        if self.one is None:  # in lockstep the tablet's bytes come through open_port's ports
            self._pump = threading.Thread(target=self._tablet_bytes, name=PTY_PUMP, daemon=True)
            self._pump.start()

    # -- plumbing -----------------------------------------------------------------------------
    def _send(self, line: str) -> None:
        assert self.proc.stdin is not None
        with self._send_lock:
            try:
                self.proc.stdin.write(line + "\n")
                self.proc.stdin.flush()
            except (BrokenPipeError, ValueError):
                pass

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            parts = line.rstrip("\n").split(" ", 3)
            op = parts[0]
            if op == "N":
                self.sim_us = max(self.sim_us, int(parts[1]))
            elif op == "U":
                self.sim_us = max(self.sim_us, int(parts[2]))
                self.wire_log.append((int(parts[2]), self.seats[int(parts[1])], parts[3]))
                if not self.bridge_ms:
                    self._to_tablet(self.seats[int(parts[1])], bytes.fromhex(parts[3]))
            elif op == "Y":
                port = parts[1] if parts[1] == "bus" else self.seats[int(parts[1])]
                self.sim_us = max(self.sim_us, int(parts[2]))
                self.to_tablet.append((int(parts[2]), port, parts[3]))
                if self.one is not None:  # the chips stand while the tablet takes its turn
                    self.one.stopped_at(int(parts[2]), "bridge", ready=False)
                self._to_tablet(port, bytes.fromhex(parts[3]))
            elif op == "H" and self.one is not None:  # the chips stand: the tablet's time, a driver
                pin = int(parts[3]) if parts[2] == "pin" else 0
                self.one.stopped_at(int(parts[1]), "driver" if pin else parts[2], pin)
            elif op == "J" and self.one is not None:  # a tablet write the chips had passed
                self.one.late_write(int(parts[1]), int(parts[3]))
            elif op == "B":
                hexs, who = parts[2], parts[3]
                data = bytes.fromhex(hexs)
                self.bus_bytes += len(data)
                self.sim_us = max(self.sim_us, int(parts[1]))
                self.line_log.append((int(parts[1]), self.seats[int(who)], hexs))
                if not self.bridge_ms:
                    self._to_tablet("bus", data)
            elif op == "M":
                if self.one is None:
                    with self._clock_lock:
                        # the tablet's clock runs on from where it stood, at the chips' speed
                        self._in_flight = max(0, self._in_flight - 1)
                        self._lag_us = max(self._lag_us, int(parts[1]) - self._tablet_us)
                if len(parts) > 3:  # point to point (lockstep): the tablet's bytes to one box

                    self.to_boxes.append((int(parts[1]), self.seats[int(parts[3])], parts[2]))
                else:
                    self.line_log.append((int(parts[1]), "tablet", parts[2] if len(parts) > 2 else ""))
            elif op == "L":
                with self._cv:
                    self.console[self.seats[int(parts[1])]].append((int(parts[2]), parts[3] if len(parts) > 3 else ""))
                    self._cv.notify_all()
            elif op == "KD":
                r, c = (int(x) for x in parts[3].split())
                self.key_downs[self.seats[int(parts[1])]].append((int(parts[2]), r, c))
            elif op == "V":
                with self._cv:
                    self.frames[self.seats[int(parts[1])]].append((int(parts[2]), Screen(bytes.fromhex(parts[3]))))
                    self._cv.notify_all()
            elif op == "K":
                with self._cv:
                    self.keys_done[self.seats[int(parts[1])]] += 1
                    self._cv.notify_all()
            elif op == "RS":
                self.restored[self.seats[int(parts[1])]] = int(parts[2])
            elif op in ("R", "D"):
                with self._cv:
                    self.resets[self.seats[int(parts[1])]].append((op, int(parts[2])))
                    self._cv.notify_all()
            elif op == "Z":
                with self._cv:
                    self.undriven.append((int(parts[1]), self.seats[int(parts[2])]))
            elif op == "C":
                with self._cv:
                    self.collisions += 1
                    self.collided.append((int(parts[1]), line.rstrip("\n")))
                    owner, (who, v) = int(parts[2]), parts[3].split()
                    over = "tablet" if owner < 0 else self.seats[owner]
                    self.line_log.append((int(parts[1]), f"{self.seats[int(who)]} over {over}", v))
            elif op in ("F", "T"):
                with self._cv:
                    self._replies[op + (parts[1] if op == "F" else "")] = line.rstrip("\n")
                    self._cv.notify_all()

    def _to_tablet(self, name: str, data: bytes) -> None:
        if name in self.unplugged:
            return
        if self.one is not None:  # lockstep: the tablet reads a pipe (EmuPort)
            with self._clock_lock:  # a pipe open_port or its port's close is not closing meanwhile
                ends = self._pipes.get(name)
                if ends is not None:
                    try:
                        os.write(ends[1], data)
                    except OSError:
                        pass  # full or closed: lost, as on a wire nobody reads
            return
        with self._pty_lock:  # never a descriptor close() has given back
            if self._pty_closed:
                return
            try:
                os.write(self._pty[name][0], data)
            except (BlockingIOError, OSError):
                return  # nobody reads the line: the bytes are lost, as on a wire
        with self._clock_lock:
            self._handed_t = time.monotonic()  # unread by the tablet until it takes them

    def _tablet_bytes(self) -> None:
        """Not in lockstep: what the tablet writes on a pty goes to the boxes when this thread
        reads it (the tablet's clock stands meanwhile: tablet_us)."""
        fds = {v[0]: k for k, v in self._pty.items()}
        while not self._closed:
            r, _, _ = select.select(list(fds), [], [], 0.1)
            for fd in r:
                try:
                    data = os.read(fd, 4096)
                except (BlockingIOError, OSError):
                    continue
                if not data:
                    continue
                sent = fds[fd] not in self.unplugged  # else read and dropped: a pulled cable
                with self._clock_lock:
                    self._unread_n = max(0, self._unread_n - len(data))
                    if sent:
                        self._in_flight += 1  # until emu.js says where it placed them (M)
                if sent:
                    name = fds[fd]
                    port = "bus" if name == "bus" else self.seats.index(name)
                    self._send(f"W {port} {data.hex()}")

    def open_port(self, path: str, baud: int = 115200) -> EmuPort:
        """The tablet's end of a line in lockstep (LinkMaster(open_port=...)): its writes enter
        the line at the tablet's clock (lockstep.py); what the line hands it comes through a
        pipe, readable the moment it is written (a pty passes bytes on through the kernel's
        workqueue: a moment later, when the tablet could look settled without having them)."""
        name = next((k for k, v in self._pty.items() if v[2] == path), None)
        if name is None:
            raise OSError(f"no emulated line at {path}")
        r, w = os.pipe()
        os.set_blocking(r, False)
        os.set_blocking(w, False)
        with self._clock_lock:
            old = self._pipes.pop(name, None)
            self._pipes[name] = (r, w)
            if old is not None:
                os.close(old[1])  # the port opened before: its reader sees the line end

        def closed(ends: tuple[int, int] = (r, w), n: str = name) -> None:
            # its writing end is closed once: here, or by the open_port that replaced it (closing
            # it again would close whatever the process has opened since under its number)
            with self._clock_lock:
                if self._pipes.get(n) == ends:
                    del self._pipes[n]
                    os.close(ends[1])

        def write(data: bytes, n: str = name) -> None:
            self._tablet_write(n, data)

        return EmuPort(path, r, write, closed)

    def _tablet_write(self, name: str, data: bytes) -> None:
        if name in self.unplugged or not data:
            return  # a pulled cable: the bytes are lost
        port = "bus" if name == "bus" else self.seats.index(name)
        assert self.one is not None
        self.one.writes += 1
        later = self.write_later(data) if self.write_later is not None else 0
        self._send(f"W {port} {data.hex()} {self.one.now_us() + later}")

    def _tablet_unread(self) -> int:
        """Bytes handed to the tablet that it has not read yet."""
        with self._clock_lock:
            ends = list(self._pipes.values())
        return sum(_unread(r) for r, _ in ends)

    def tablet_us(self) -> int:
        """The tablet's time on the table's clock (the LinkMaster's clock: rig.ChipClock). In
        lockstep the clock of lockstep.py; otherwise the chips' time as last reported, never
        backwards, except that it stands while bytes the tablet wrote (tablet_wrote) are on their
        way to the chips (in its pty, or sent to emu.js and not yet placed on a wire) and then
        runs on from there, behind the chips' time by its stops: the tablet's timers count from
        when its frame is on the wire, as a real UART sends at once, however late this process
        forwards it on a busy machine. (It ran on before: a bus grant still on its way timed out
        on the tablet's clock, and its next grant reached the line with it, at the same chip
        microsecond: two boxes answered.)"""
        if self.one is not None:
            return self.one.now_us()
        with self._clock_lock:
            wall = time.monotonic()
            if self._unread_n and wall - self._unread_t > UNREAD_MAX_S:
                self._unread_n = 0  # written and never read (a write cut short): run on
            if self._in_flight or self._unread_n or self._unread_by_tablet(wall):
                return self._tablet_us
            t = self.sim_us - self._lag_us
            if t > self._tablet_us:
                self._tablet_us = t
            return self._tablet_us

    def _unread_by_tablet(self, wall: float) -> bool:
        """Not in lockstep: bytes the chips sent the tablet wait on its side of a pty, unread (or
        were handed to it less than HANDED_S ago and may not show yet). Its clock stands
        meanwhile (tablet_us): a tablet thread the machine keeps waiting must not find its reply
        window closed on a clock that ran on past a reply it has not read. It did: it granted
        the box again, then read the old reply, took it for the answer to that new grant and
        granted the box once more at once: two grants reached it back to back, it answered
        once, and the first counted as let pass."""
        if wall - self._handed_t < HANDED_S:
            return True
        if not any(_unread(sl) for _, sl, _ in self._pty.values()):
            self._unread_in_t = 0.0
            return False
        if not self._unread_in_t:
            self._unread_in_t = wall
        return wall - self._unread_in_t <= UNREAD_IN_MAX_S  # else nobody reads it now: run on

    def tablet_wrote(self, n: int) -> None:
        """Not in lockstep: the tablet writes `n` bytes to a pty now (-n: the write failed); its
        clock stands until this process has read them and emu.js has placed them (tablet_us)."""
        if self.one is not None:
            return  # lockstep.py places them at the tablet's clock
        with self._clock_lock:
            if n > 0 and not self._unread_n:
                self._unread_t = time.monotonic()
            self._unread_n = max(0, self._unread_n + n)

    @contextlib.contextmanager
    def stopped(self) -> Iterator[None]:
        """In lockstep, the chips stand while the block runs (a driver acting on the tablet:
        lockstep.py `pinned`); otherwise nothing."""
        if self.one is None:
            yield
            return
        with self.one.pinned():
            yield

    @property
    def holds(self) -> int:
        """Lockstep: the stops the chips made for the tablet."""
        return len(self.one.stops) if self.one else 0

    @property
    def held_s(self) -> float:
        """Lockstep: the wall time the chips stood for the tablet in all."""
        return sum(r.wall_s for r in self.one.stops) if self.one else 0.0

    def _wait_reply(self, key: str, timeout: float = STALL_S) -> str:
        deadline = time.monotonic() + timeout
        with self._cv:
            while key not in self._replies:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"emulator did not answer {key}")
                self._cv.wait(left)
            return self._replies.pop(key)

    # -- the boxes ------------------------------------------------------------------------------
    def press(self, seat: str, keys: str, hold_ms: int = 60, gap_ms: int = 60,
              at_us: int | None = None) -> None:
        """Key tokens (as the unix backend takes them) pressed on the box's matrix, each held
        hold_ms of chip time (a press counts after press_ms, 3 ms, a release after debounce_ms, 20 ms:
        hardware/pinmap.json). at_us: the first key goes down no earlier than this chip time
        (else when the emulator reads the command, wherever the chips then are)."""
        i = self.seats.index(seat)
        for tok in keys.upper().split():
            tok = ALIASES.get(tok, tok)
            r, c = KEYS[tok]
            at = f" {at_us}" if at_us is not None else ""
            self._send(f"P {i} {r} {c} {hold_ms} {gap_ms}{at}")
            at_us = None

    def wait_keys(self, seat: str, n: int, timeout: float = 30.0) -> None:
        self.wait(lambda: self.keys_done[seat] >= n, timeout, f"{seat} keys")

    def screen(self, seat: str) -> Screen:
        """The panel as it is this moment: a picture may be half pushed (see `wait_screen`)."""
        self._send(f"S {self.seats.index(seat)}")
        _, _, ram, rest = self._wait_reply(f"F{self.seats.index(seat)}").split(" ", 3)
        leds, on, changed, now = rest.rsplit(" ", 3)
        self.sim_us = max(self.sim_us, int(now))
        return Screen(bytes.fromhex(ram), json.loads(leds), on == "1", int(changed), int(now))

    def whole_screen(self, seat: str) -> Screen:
        """The panel once its picture has stood still for STILL_US of chip time: a whole picture."""
        sc = self.screen(seat)
        while sc.still_us < STILL_US:
            self.wait_chip((sc.changed_us + STILL_US - sc.read_us) / 1000)
            sc = self.screen(seat)
        return sc

    def save_png(self, seat: str, path: str | pathlib.Path) -> Screen:
        sc = self.screen(seat)
        sc.png(path)
        return sc

    def clock(self) -> tuple[int, int, list[int]]:
        """(chip time us, wall time us, busy cycles per box)."""
        _, sim, wall, busy, _, _ = self._wait_reply_after("T")
        return int(sim), int(wall), [int(x) for x in busy.split(",")]

    def flash_bytes(self) -> tuple[list[int], list[int]]:
        """(bytes programmed, bytes erased) per box since its last power-on."""
        _, _, _, _, prog, erased = self._wait_reply_after("T")
        return [int(x) for x in prog.split(",")], [int(x) for x in erased.split(",")]

    def _wait_reply_after(self, op: str) -> list[str]:
        self._send(op)
        return self._wait_reply(op).split(" ")

    def wait(self, pred, timeout: float = 30.0, what: str = "condition") -> None:
        """Until pred() holds, within `timeout` seconds of the chip's time."""
        budget = ChipBudget(self, timeout, what)
        with self._cv:
            while not pred():
                budget.check()
                self._cv.wait(0.2)

    def line_frames(self) -> list[tuple[int, int, str, str]]:
        """The bus line's traffic as frames: (first byte's chip us, last byte's chip us, who
        drove it, what it is: "GRANT->E", "CALL from N" ...). A collided byte counts to the box
        that sent it ("N over S")."""
        from protocol import layout as L
        from protocol.framing import Deframer

        names = {v: k for k, v in vars(L).items() if k.isupper() and isinstance(v, int)
                 and k in ("HELLO", "ACK", "CALL", "STOP", "ALERT", "UNDO", "REVIEW", "TD",
                           "WELCOME", "PING", "NAK", "STATE")}
        out: list[tuple[int, int, str, str]] = []
        open_: dict[str, tuple[int, Deframer]] = {}
        for t, who, h in list(self.line_log):
            data = bytes.fromhex(h)
            start, d = open_.get(who, (t, Deframer()))
            if d.n == 0:  # this chunk starts a frame
                start = t
            i = 0
            while i < len(data):
                i = d.feed(data, i, len(data))
                if data[i - 1] == 0:  # a frame ended here (good or bad)
                    what = "garbled"
                    if d.length:
                        addr, typ = d.payload[0], d.payload[1]
                        seat = SEATS[addr & 3] if addr & 0x7F < 4 else f"#{addr}"
                        what = f"{names.get(typ, hex(typ))} {'from' if addr & 0x80 else 'to'} {seat}"
                    if d.length or " over " in who:
                        out.append((start, t, who, what))
                    start = t
            open_[who] = (start, d)
        # in the order they went on the line: in lockstep the tablet's writes are logged when
        # it makes them, at its own clock's time, before the chips have run up to it
        out.sort(key=lambda f: f[0])
        return out

    def grants(self, since_us: int = 0) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
        """The grants (PINGs) the tablet put on the bus line after `since_us`, split into those
        the box answered before the tablet's next frame and those it let pass: (chip us, seat)
        each."""
        fr = [f for f in self.line_frames() if f[0] >= since_us]
        answered: list[tuple[int, str]] = []
        missed: list[tuple[int, str]] = []
        for k, (t, _, who, what) in enumerate(fr[:-1]):
            if who != "tablet" or not what.startswith("PING to "):
                continue
            seat = what[-1]
            nxt = next((f for f in fr[k + 1:] if f[2] in ("tablet", seat)), None)
            (answered if nxt is not None and nxt[2] == seat else missed).append((t, seat))
        return answered, missed

    def line_around(self, us: int, before: int = 8, after: int = 3) -> str:
        """The bus line's frames around chip time `us`, one a line."""
        fr = self.line_frames()
        i = next((k for k, f in enumerate(fr) if f[1] >= us), len(fr))
        return "\n".join(f"  {a:>9}-{b:>9} us {who:>10}: {what}" for a, b, who, what in fr[max(0, i - before):i + after])

    def wait_chip(self, ms: float) -> None:
        """Let `ms` of the table's chip time pass."""
        until = self.sim_us + int(ms * 1000)
        self.wait(lambda: self.sim_us >= until, ms / 1000 + 1, f"{ms} ms of chip time")

    def wait_screen(self, seat: str, pred, timeout: float = 30.0) -> Screen:
        """The first whole picture (stood still STILL_US) that `pred` holds for, within `timeout`
        seconds of chip time: never a read between two pages of a push."""
        budget = ChipBudget(self, timeout, f"{seat}: the screen")
        while True:
            sc = self.screen(seat)
            if pred(sc):
                if sc.still_us >= STILL_US:
                    return sc
                self.wait_chip((sc.changed_us + STILL_US - sc.read_us) / 1000)
                continue
            budget.check(f"\n{sc.text}")
            time.sleep(0.05)

    wait_still = wait_screen  # every picture wait_screen returns stands still

    def wait_console(self, seat: str, pattern: str, timeout: float = 30.0) -> re.Match:
        rx = re.compile(pattern)
        found: list[re.Match] = []

        def seen() -> bool:
            for _, text in self.console[seat]:
                m = rx.search(text)
                if m:
                    found.append(m)
                    return True
            return False

        self.wait(seen, timeout, f"{seat} printing {pattern!r}")
        return found[0]

    def power_off(self, seat: str) -> None:
        self._send(f"X {self.seats.index(seat)}")

    def power_on(self, seat: str) -> None:
        self._send(f"O {self.seats.index(seat)}")

    def power_cycle(self, seat: str) -> None:
        self.power_off(seat)
        self.power_on(seat)

    def unplug(self, seat: str, out: bool = True) -> None:
        """Pull (or push back) the cable between the box and the tablet: nothing passes either
        way meanwhile (point-to-point; on the bus, pass "bus" to cut the tablet's line)."""
        if out:
            self.unplugged.add(seat)
        else:
            self.unplugged.discard(seat)

    def display_unplugged(self, seat: str, out: bool = True) -> None:
        """The display's cable out (its power with it: on I2C nothing acknowledges, on SPI the
        bytes go nowhere) or back in (the panel starts as at power-on: off, memory cleared)."""
        self._send(f"I {self.seats.index(seat)} {1 if out else 0}")

    def hang(self, seat: str) -> None:
        self._send(f"H {self.seats.index(seat)}")

    def flash_file(self, seat: str, name: str) -> bytes | None:
        """A file from the box's flash as it was last written back (power-off or close)."""
        return image.read_file(self.workdir / f"box-{seat}.flash", name)

    def close(self) -> None:
        if self._closed:
            return
        if self.one is not None:
            self.one.close()
        self._send("Q")
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._closed = True
        # The pty reader ends (within its select's 0.1 s) before the ptys are closed: a thread
        # reading a closed descriptor reads whatever the process opens next under its number.
        if self._pump is not None:
            self._pump.join(60)  # only ends a hang
            if self._pump.is_alive():
                return  # the ptys are left open rather than handed to a thread that still reads
        with self._pty_lock:
            for m, sl, _ in self._pty.values():
                os.close(m)
                os.close(sl)
            self._pty_closed = True

    def __enter__(self) -> EmuTable:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class ChipBudget:
    """A wait's budget of chip time, with the wall clock only as a guard against an emulator
    that has stopped (no chip time passing for STALL_S)."""

    def __init__(self, emu: EmuTable, chip_s: float, what: str):
        self.emu = emu
        self.chip_s = chip_s
        self.what = what
        self.start_us = self.last_us = emu.sim_us
        self.last_wall = time.monotonic()

    def check(self, detail: str = "") -> None:
        now_us = self.emu.sim_us
        if now_us - self.start_us > self.chip_s * 1e6:
            raise TimeoutError(f"{self.what} not met in {self.chip_s} s of chip time{detail}")
        if now_us != self.last_us:
            self.last_us, self.last_wall = now_us, time.monotonic()
        elif time.monotonic() - self.last_wall > STALL_S:
            raise TimeoutError(f"{self.what}: the emulator stopped (no chip time for {STALL_S:.0f} s){detail}")
