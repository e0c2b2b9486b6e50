"""hardware.sim.boxes.ScreenWatch: what the latency bench watches the box screens with.

The situation that found it: `python -m bench tablet` stopped with "a box did not show the call in
5 s" after some 10-40 calls, while every box did show the call. The calling box redraws twice
within a few ms (the tablet's ack clears "sending", then the STATE with the call comes), the kernel
stamps both screen files from its coarse clock with the same mtime (ext4 even hands the second
file the first one's inode number), and a watcher keyed on the mtime never read the second one.
"""
import os
import time

from hardware.sim.boxes import SETTLE_NS, ScreenWatch

SENDING = "N Bd1 DN V- \nYOUR TURN\n> 1NT sending\nW   N   E   S\n"
SHOWN = "N Bd1 DN V-\nE to call\n> sent\nW   N   E   S\n    1NT\n"
assert len(SENDING) == len(SHOWN)  # so that the size gives nothing away either


def redraw_in_place(path, text, stamp_ns):
    """The box's next screen with the previous version's inode, size and mtime: all a stat shows
    of two redraws within one tick of the kernel's file clock."""
    with open(path, "r+") as f:
        f.write(text)
        f.truncate()
    os.utime(path, ns=(stamp_ns, stamp_ns))


def test_second_redraw_within_one_clock_tick_is_seen(tmp_path):
    screen = tmp_path / "screen-N.txt"
    screen.write_text(SENDING)
    st = os.stat(screen)
    w = ScreenWatch(screen)
    assert w.poll().selection == "> 1NT sending"
    redraw_in_place(screen, SHOWN, st.st_mtime_ns)
    same = os.stat(screen)
    assert (same.st_ino, same.st_mtime_ns, same.st_size) == (st.st_ino, st.st_mtime_ns, st.st_size)
    sc = w.poll()
    assert sc is not None and sc.calls == ["1NT"] and sc.status == "E to call"
    assert w.poll() is None  # nothing new: not reported again


def test_settled_screen_is_not_read_again(tmp_path):
    # the bench's driver shares the app's GIL: a screen whose stamp is older than one tick of
    # the file clock is not read again until its stamp changes
    screen = tmp_path / "screen-E.txt"
    screen.write_text(SENDING)
    old = time.time_ns() - 10 * SETTLE_NS
    os.utime(screen, ns=(old, old))
    w = ScreenWatch(screen)
    assert w.poll().selection == "> 1NT sending"
    redraw_in_place(screen, SHOWN, old)  # no box can do this (the stamp of a write is its time)
    assert w.poll() is None  # so it was not read


def test_a_new_version_after_the_tick_is_seen_and_a_missing_file_is_none(tmp_path):
    screen = tmp_path / "screen-S.txt"
    w = ScreenWatch(screen)
    assert w.poll() is None  # the box has drawn nothing yet
    tmp = tmp_path / "screen-S.txt.tmp"
    tmp.write_text(SENDING)
    os.rename(tmp, screen)  # as hal_unix.Display writes it
    assert w.poll().selection == "> 1NT sending"
    tmp.write_text(SHOWN)
    os.rename(tmp, screen)
    assert w.poll().calls == ["1NT"]
