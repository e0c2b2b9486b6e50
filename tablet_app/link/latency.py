"""The USB bridge's latency timer, set to 1 ms on every port the link opens.

An FTDI bridge (the hub's FT231X, hardware/hub.md; an FTDI USB-RS485 cable per box point to
point) holds the bytes it receives from the wire until its latency timer expires, 16 ms unless
the host sets it, or until a USB packet's worth has gathered. A box's reply is a few bytes: at
16 ms every one of them waits up to 16 ms, and on a bus the tablet, which grants the next box
only after the reply (SPEC.md section 1), then polls at a sixth of its pace. The timer is a
driver setting, not one the chip keeps (the FT-X configuration memory has no field for it), and
Linux's ftdi_sio reads it back from the chip, 16 ms after every plug-in: so the tablet sets it
each time it opens the port.

Linux: the sysfs attribute `latency_timer` of the ttyUSB device (ftdi_sio), else pyserial's
`set_low_latency_mode` (the ASYNC_LOW_LATENCY flag, with which ftdi_sio uses 1 ms). Windows: the
FTDI VCP driver's `LatencyTimer` value in the device's registry key (read at the port's open, so
it is set before the port is opened). A port without a latency timer (a pty, a CDC-ACM device,
an on-board UART) needs nothing. When the timer cannot be set, one WARNING says what it costs
and how to fix it (docs in hardware/hub.md).
"""
from __future__ import annotations

import logging
import os
import sys
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

WANT_MS = 1
SYSFS = "/sys"


@dataclass(frozen=True)
class Latency:
    """What was found and done on one port: timer_ms is the bridge's latency timer as it is now
    (None: no timer, or it could not be read); ok is False only for a bridge left slow."""
    path: str
    timer_ms: int | None
    how: str
    ok: bool


def _attr(path: str, sysfs: str) -> str | None:
    """The sysfs latency_timer file of the ttyUSB device behind `path` (a /dev/serial/by-id
    link resolves to it), or None when the port is no usb-serial device."""
    name = os.path.basename(os.path.realpath(path))
    attr = os.path.join(sysfs, "bus", "usb-serial", "devices", name, "latency_timer")
    return attr if os.path.isfile(attr) else None


def _read_attr(attr: str) -> int | None:
    try:
        with open(attr, encoding="ascii") as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None


def _write_attr(attr: str, ms: int) -> None:
    with open(attr, "w", encoding="ascii") as f:
        f.write(f"{ms}\n")


def set_linux(ser: Any, path: str, sysfs: str = SYSFS) -> Latency:
    """Set the latency timer of the open port `ser` (device `path`) to 1 ms on Linux."""
    attr = _attr(path, sysfs)
    if attr is None:
        return Latency(path, None, "no latency timer (not an FTDI usb-serial device)", True)
    before = _read_attr(attr)
    if before is not None and before <= WANT_MS:
        return Latency(path, before, "already 1 ms", True)
    why = ""
    try:
        _write_attr(attr, WANT_MS)
    except OSError as exc:
        why = f"{attr}: {exc.strerror or exc}"
    now = _read_attr(attr)
    if now is not None and now <= WANT_MS:
        return Latency(path, now, f"set from {before} ms in sysfs", True)
    try:
        ser.set_low_latency_mode(True)  # ASYNC_LOW_LATENCY: ftdi_sio then uses 1 ms
    except (AttributeError, ValueError, OSError) as exc:
        why += f"; ASYNC_LOW_LATENCY: {exc}"
    now = _read_attr(attr)
    if now is not None and now <= WANT_MS:
        return Latency(path, now, f"set from {before} ms by ASYNC_LOW_LATENCY", True)
    return Latency(path, now, f"could not be set ({why.strip('; ')})", False)


# Windows: the FTDI VCP driver keeps its per-device settings under this key, one subkey per
# device (VID+PID+serial), each with "0000\Device Parameters" holding PortName and LatencyTimer.
FTDIBUS = r"SYSTEM\CurrentControlSet\Enum\FTDIBUS"


def set_windows(path: str, winreg: Any = None) -> Latency:
    """Set LatencyTimer = 1 for the FTDI device whose PortName is `path` (COM3 ...), before the
    port is opened (the driver reads it at open). Writing needs administrator rights."""
    if winreg is None:
        import winreg  # Windows only
    try:
        root = winreg.OpenKey(winreg.HKEY_LOCAL_MACHINE, FTDIBUS)
    except OSError:
        return Latency(path, None, "no FTDI VCP driver", True)
    i = 0
    while True:
        try:
            dev = winreg.EnumKey(root, i)
        except OSError:
            return Latency(path, None, "no latency timer (not an FTDI VCP port)", True)
        i += 1
        sub = FTDIBUS + "\\" + dev + r"\0000\Device Parameters"
        try:
            key = winreg.OpenKey(winreg.HKEY_LOCAL_MACHINE, sub, 0, winreg.KEY_READ)
            port, _ = winreg.QueryValueEx(key, "PortName")
            before, _ = winreg.QueryValueEx(key, "LatencyTimer")
        except OSError:
            continue
        if str(port).upper() != path.upper():
            continue
        if int(before) <= WANT_MS:
            return Latency(path, int(before), "already 1 ms", True)
        try:
            key = winreg.OpenKey(winreg.HKEY_LOCAL_MACHINE, sub, 0, winreg.KEY_SET_VALUE)
            winreg.SetValueEx(key, "LatencyTimer", 0, winreg.REG_DWORD, WANT_MS)
        except OSError as exc:
            return Latency(path, int(before), f"could not be set (registry: {exc})", False)
        return Latency(path, WANT_MS, f"set from {before} ms in the registry", True)


def set_low_latency(ser: Any, path: str, platform: str = sys.platform, sysfs: str = SYSFS) -> Latency:
    """Set the bridge's latency timer behind `path` to 1 ms and log what came of it."""
    if platform.startswith("linux"):
        r = set_linux(ser, path, sysfs)
    elif platform == "win32":
        r = set_windows(path)
    else:
        r = Latency(path, None, f"not set on {platform} (hardware/hub.md)", True)
    if not r.ok:
        log.warning("%s: the USB bridge's latency timer is %s ms and %s: every reply from a box "
                    "waits that long in the bridge; see hardware/hub.md, 'Latency timer'",
                    path, r.timer_ms if r.timer_ms is not None else "unknown", r.how)
    elif r.timer_ms is not None:
        log.info("%s: USB bridge latency timer %d ms (%s)", path, r.timer_ms, r.how)
    else:
        log.debug("%s: %s", path, r.how)
    return r
