"""The simulated link itself: real ptys, byte timing at the baud rate, faults on demand."""
import os
import select
import time

import pytest
import serial

from hardware.sim.link import SimLink

pytestmark = pytest.mark.link  # runs the simulated serial link in real time


HANG_S = 60  # a guard against a hang, never a speed requirement


def wait_for(cond, seconds=HANG_S):
    """Until cond() holds; the limit only ends a hang."""
    end = time.monotonic() + seconds
    while not cond():
        assert time.monotonic() < end, "condition not met"
        time.sleep(0.005)


def read_for(fd, seconds, want):
    got = bytearray()
    end = time.monotonic() + seconds
    while len(got) < want and time.monotonic() < end:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            got += os.read(fd, 4096)
    return bytes(got)


def open_box(path):
    fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
    return fd


def test_bytes_cross_unchanged_both_ways_and_take_their_wire_time():
    with SimLink("N", baud=115200) as link:
        tab = serial.Serial(link.tablet_ports["N"], 115200, timeout=0)
        box = open_box(link.box_ports["N"])
        data = bytes(range(256)) * 4  # every byte value, 0x00 included: the relay is transparent
        marks = []
        link.on_mark = lambda t, what, seat: marks.append((t, what))
        tab.write(data)
        got = read_for(box, HANG_S, len(data))
        assert got == data
        # the relay's schedule, not the wall clock: 1024 bytes at 10 bits each at 115200 baud are
        # 88.9 ms on the wire from the first byte read to the last byte's stop bit, and no byte
        # is delivered before its time (the relay holds each chunk until it is due). The schedule
        # is a sum of a thousand float steps on a clock hours from zero: its rounding reaches 2 ns,
        # so the bound allows 1 us (a byte is 87 us on the wire)
        # the relay marks "delivered" when a queue runs dry, after writing its bytes: the reader
        # can be first on a busy machine. Every byte has been read, so every read is marked: wait
        # for a "delivered" after the last of them (a fixed pause for it can be too short)
        wait_for(lambda: [what for _, what in list(marks) if what.startswith("down_")][-1:] == ["down_delivered"])
        first_read = min(t for t, what in marks if what == "down_read")
        wire_end = max(t for t, what in marks if what == "down_wire_end")
        assert wire_end - first_read >= 1024 * 10 / 115200 - 1e-6
        assert max(t for t, what in marks if what == "down_delivered") >= wire_end
        os.write(box, b"\x01\x02hello")
        back = read_for(tab.fileno(), HANG_S, 7)
        assert back == b"\x01\x02hello"
        st = link.stats()["N"]
        assert st["down"]["relayed"] == 1024 and st["up"]["relayed"] == 7
        tab.close()
        os.close(box)


def test_corruption_and_drop_rates_are_applied_per_byte_and_counted():
    with SimLink("E", baud=2_000_000, corrupt=0.05, drop=0.03, seed=5) as link:
        tab = serial.Serial(link.tablet_ports["E"], 2_000_000, timeout=0)
        box = open_box(link.box_ports["E"])
        data = bytes(20000)
        tab.write(data)
        st = None
        got = b""
        end = time.monotonic() + HANG_S
        while time.monotonic() < end:
            got += read_for(box, 0.2, 20000)
            st = link.stats()["E"]["down"]
            if st["relayed"] + st["dropped"] == 20000 and len(got) == st["relayed"]:
                break
        assert st["relayed"] + st["dropped"] == 20000 and len(got) == st["relayed"]
        assert 400 <= st["dropped"] <= 800          # 3 % of 20000 = 600
        assert 700 <= st["corrupted"] <= 1300       # 5 % of the rest
        assert sum(1 for b in got if b) == st["corrupted"]  # every corrupted byte differs
        tab.close()
        os.close(box)


def test_a_pulled_cable_loses_everything_both_ways_then_works_again():
    with SimLink("S") as link:
        tab = serial.Serial(link.tablet_ports["S"], 115200, timeout=0)
        box = open_box(link.box_ports["S"])
        link.pull("S", 3600)  # out until plugged back below
        assert link.is_pulled("S")
        tab.write(b"lost")
        os.write(box, b"lost too")
        wait_for(lambda: link.stats()["S"]["down"]["pulled"] == 4 and link.stats()["S"]["up"]["pulled"] == 8)
        assert read_for(box, 0.2, 1) == b"" and read_for(tab.fileno(), 0.05, 1) == b""
        link.plug("S")
        assert not link.is_pulled("S")
        tab.write(b"back")
        assert read_for(box, HANG_S, 4) == b"back"
        assert link.stats()["S"]["down"]["pulled"] == 4
        tab.close()
        os.close(box)


def test_a_box_process_can_close_and_reopen_its_port_and_flush_drops_stale_bytes():
    with SimLink("W") as link:
        tab = serial.Serial(link.tablet_ports["W"], 115200, timeout=0)
        box = open_box(link.box_ports["W"])
        os.close(box)  # the box process dies
        tab.write(b"stale")
        # the relay has read them (they are on the wire or in the box's pty), however long a busy
        # machine takes: after a fixed pause they could still be read after the flush, and
        # reach the restarted box
        wait_for(lambda: link.stats()["W"]["down"]["relayed"] == 5)
        link.flush_box("W")
        box = open_box(link.box_ports["W"])  # restarted
        tab.write(b"fresh")
        assert read_for(box, HANG_S, 5) == b"fresh"
        tab.close()
        os.close(box)


def test_a_flush_leaves_no_stale_byte_for_the_next_box_however_late_the_relay_delivers(monkeypatch):
    """A chunk the relay delivers while flush_box runs must not reach the restarted box: the pty's
    flush and the queue's clearing are one step for the relay. Here the flush is held up until the
    stale chunk is due on the wire (5 bytes at 300 baud: 0.17 s), as a busy machine can."""
    import termios

    real = termios.tcflush

    def slow_flush(fd, queue):
        real(fd, queue)
        time.sleep(0.5)

    with SimLink("W", baud=300) as link:
        tab = serial.Serial(link.tablet_ports["W"], 300, timeout=0)
        tab.write(b"stale")  # no box process is running
        wait_for(lambda: link.stats()["W"]["down"]["relayed"] == 5)  # read, on the wire
        monkeypatch.setattr(termios, "tcflush", slow_flush)
        link.flush_box("W")
        monkeypatch.undo()
        box = open_box(link.box_ports["W"])  # restarted
        tab.write(b"fresh")
        assert read_for(box, HANG_S, 5) == b"fresh"
        tab.close()
        os.close(box)


def test_command_line_prints_ports_and_obeys_commands():
    import json
    import subprocess
    import sys

    p = subprocess.Popen([sys.executable, "-m", "hardware.sim.link", "--seats", "NE"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        ports = json.loads(p.stdout.readline())
        assert set(ports["tablet"]) == {"N", "E"} and ports["baud"] == 115200
        assert all(os.path.exists(v) for v in ports["box"].values())
        p.stdin.write("pull N 1\nbogus\nstats\n")
        p.stdin.flush()
        assert "unknown command" in json.loads(p.stdout.readline())["error"]
        st = json.loads(p.stdout.readline())
        assert st["N"]["down"]["relayed"] == 0
        p.stdin.write("quit\n")
        p.stdin.flush()
        assert p.wait(120) == 0  # the limit only ends a hang
    finally:
        if p.poll() is None:
            p.kill()


def test_relay_process_marks_each_frame_read_on_the_wire_and_delivered(tmp_path):
    # the latency bench runs the relay as its own process and reads this timeline from it: a
    # frame's bytes are read, leave the wire no earlier than their wire time, and are delivered
    import json
    import subprocess
    import sys

    marks = tmp_path / "marks.txt"
    p = subprocess.Popen([sys.executable, "-m", "hardware.sim.link", "--seats", "S", "--marks", str(marks)],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        ports = json.loads(p.stdout.readline())
        tab = serial.Serial(ports["tablet"]["S"], 115200, timeout=0)
        box = open_box(ports["box"]["S"])
        tab.write(bytes(100))
        assert read_for(box, HANG_S, 100) == bytes(100)
        p.stdin.write("quit\n")
        p.stdin.flush()
        assert p.wait(120) == 0  # the limit only ends a hang
        rows = [line.split() for line in marks.read_text().splitlines()]
        got = {what: float(t) for t, what, seat in rows if seat == "S"}
        assert set(got) == {"down_read", "down_wire_end", "down_delivered"}
        # 100 bytes at 10 bits each at 115200 baud: 8.7 ms on the wire
        assert got["down_wire_end"] - got["down_read"] >= 100 * 10 / 115200 - 1e-6
        assert got["down_read"] <= got["down_delivered"]
        assert got["down_delivered"] >= got["down_wire_end"] - 16 * 10 / 115200  # a chunk may go early
        tab.close()
        os.close(box)
    finally:
        if p.poll() is None:
            p.kill()
