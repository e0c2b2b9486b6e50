"""The USB bridge's latency timer (tablet_app/link/latency.py): set to 1 ms on every port the
link opens, against a fake sysfs tree (a pty has no latency timer) and a fake Windows registry;
a bridge left at 16 ms is said once, loudly, with its fix."""
import logging
import os
import pty

from tablet_app.link import LinkMaster
from tablet_app.link import latency as L


def fake_usb_serial(tmp_path, name="ttyUSB0", ms=16):
    """/sys/bus/usb-serial/devices/NAME/latency_timer and a /dev/serial/by-id link to NAME."""
    attr = tmp_path / "sys/bus/usb-serial/devices" / name / "latency_timer"
    attr.parent.mkdir(parents=True)
    attr.write_text(f"{ms}\n")
    dev = tmp_path / "dev" / name
    dev.parent.mkdir()
    dev.write_text("")
    by_id = tmp_path / "dev/serial/by-id/usb-FTDI_FT231X_USB_UART_DO01ABCD-if00-port0"
    by_id.parent.mkdir(parents=True)
    by_id.symlink_to(dev)
    return attr, str(by_id)


class FakeSerial:
    """pyserial's set_low_latency_mode: with ASYNC_LOW_LATENCY ftdi_sio writes 1 ms itself."""

    def __init__(self, attr=None, fails=False):
        self.attr = attr
        self.fails = fails
        self.calls = []

    def set_low_latency_mode(self, on):
        self.calls.append(on)
        if self.fails:
            raise ValueError("Failed to update ASYNC_LOW_LATENCY flag to low_latency_mode: [Errno 25]")
        if self.attr is not None:
            self.attr.write_text("1\n")


def test_a_bridge_at_its_16_ms_default_is_set_to_1_ms_in_sysfs_through_its_by_id_link(tmp_path, caplog):
    attr, path = fake_usb_serial(tmp_path)
    caplog.set_level(logging.INFO, logger="tablet_app.link.latency")
    r = L.set_low_latency(FakeSerial(), path, platform="linux", sysfs=str(tmp_path / "sys"))
    assert attr.read_text().strip() == "1"
    assert (r.timer_ms, r.ok) == (1, True) and "from 16 ms" in r.how
    assert "latency timer 1 ms" in caplog.text


def test_a_bridge_already_at_1_ms_is_left_alone(tmp_path):
    attr, path = fake_usb_serial(tmp_path, ms=1)
    mtime = attr.stat().st_mtime_ns
    ser = FakeSerial()
    r = L.set_low_latency(ser, path, platform="linux", sysfs=str(tmp_path / "sys"))
    assert (r.timer_ms, r.ok, r.how) == (1, True, "already 1 ms")
    assert attr.stat().st_mtime_ns == mtime and ser.calls == []


def test_sysfs_not_writable_falls_back_to_async_low_latency(tmp_path, monkeypatch):
    """A tablet that runs the app as a plain user cannot write sysfs (root only without a udev
    rule); pyserial's ASYNC_LOW_LATENCY needs no rights and ftdi_sio then uses 1 ms."""
    attr, path = fake_usb_serial(tmp_path)

    def denied(a, ms):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(L, "_write_attr", denied)
    ser = FakeSerial(attr)
    r = L.set_low_latency(ser, path, platform="linux", sysfs=str(tmp_path / "sys"))
    assert ser.calls == [True]
    assert (r.timer_ms, r.ok) == (1, True) and "ASYNC_LOW_LATENCY" in r.how


def test_a_bridge_left_at_16_ms_is_one_warning_with_its_cost_and_fix(tmp_path, monkeypatch, caplog):
    attr, path = fake_usb_serial(tmp_path)

    def denied(a, ms):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(L, "_write_attr", denied)
    caplog.set_level(logging.INFO, logger="tablet_app.link.latency")
    r = L.set_low_latency(FakeSerial(fails=True), path, platform="linux", sysfs=str(tmp_path / "sys"))
    assert (r.timer_ms, r.ok) == (16, False)
    warnings = [x for x in caplog.records if x.levelno == logging.WARNING]
    assert len(warnings) == 1
    text = warnings[0].getMessage()
    assert "latency timer is 16 ms" in text and "Permission denied" in text
    assert "ASYNC_LOW_LATENCY" in text and "hardware/hub.md" in text
    assert attr.read_text().strip() == "16"


def test_a_port_without_a_usb_bridge_needs_nothing(tmp_path):
    """A pty, an on-board UART, a CDC-ACM box: no latency timer, nothing written, no warning."""
    (tmp_path / "sys/bus/usb-serial/devices").mkdir(parents=True)
    ser = FakeSerial()
    for path in ("/dev/pts/3", "/dev/ttyAMA0", "/dev/ttyACM0"):
        r = L.set_low_latency(ser, path, platform="linux", sysfs=str(tmp_path / "sys"))
        assert (r.timer_ms, r.ok) == (None, True), path
    assert ser.calls == []


class FakeWinreg:
    """The part of winreg the Windows path uses, over a dict of key -> {name: value}."""

    HKEY_LOCAL_MACHINE = "HKLM"
    KEY_READ = 1
    KEY_SET_VALUE = 2
    REG_DWORD = 4

    def __init__(self, keys, writable=True):
        self.keys = keys
        self.writable = writable

    def OpenKey(self, root, sub, reserved=0, access=1):  # noqa: N802 (winreg's names)
        if sub not in self.keys and not any(k.startswith(sub + "\\") for k in self.keys):
            raise OSError(2, "not found")
        if access == self.KEY_SET_VALUE and not self.writable:
            raise OSError(5, "Access is denied")
        return sub

    def EnumKey(self, key, i):  # noqa: N802
        subs = sorted({k[len(key) + 1:].split("\\")[0] for k in self.keys if k.startswith(key + "\\")})
        if i >= len(subs):
            raise OSError(259, "no more")
        return subs[i]

    def QueryValueEx(self, key, name):  # noqa: N802
        return self.keys[key][name], self.REG_DWORD

    def SetValueEx(self, key, name, reserved, kind, value):  # noqa: N802
        self.keys[key][name] = value


def _registry(ms=16):
    base = L.FTDIBUS + "\\"
    return {base + r"VID_0403+PID_6001+A1\0000\Device Parameters": {"PortName": "COM3", "LatencyTimer": 16},
            base + r"VID_0403+PID_6015+DO01ABCDA\0000\Device Parameters": {"PortName": "COM7",
                                                                            "LatencyTimer": ms}}


def test_windows_sets_the_vcp_driver_s_latency_timer_of_that_com_port_only():
    reg = FakeWinreg(_registry())
    r = L.set_windows("COM7", reg)
    assert (r.timer_ms, r.ok) == (1, True)
    values = {v["PortName"]: v["LatencyTimer"] for v in reg.keys.values()}
    assert values == {"COM3": 16, "COM7": 1}


def test_windows_without_administrator_rights_says_so():
    r = L.set_windows("COM7", FakeWinreg(_registry(), writable=False))
    assert (r.timer_ms, r.ok) == (16, False) and "Access is denied" in r.how
    assert L.set_windows("COM9", FakeWinreg(_registry())).ok  # no FTDI port of that name


def test_the_link_sets_the_timer_on_each_port_it_opens_and_reports_it():
    """LinkMaster on a pty: the port is opened, its latency looked at (no bridge there)."""
    m, s = pty.openpty()
    path = os.ttyname(s)
    with LinkMaster({"N": path}) as lm:
        got = lm.latency()[path]
    os.close(m)
    os.close(s)
    assert got is not None and got.ok and got.timer_ms is None
