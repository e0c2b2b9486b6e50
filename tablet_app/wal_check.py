"""Where a SQLite write-ahead log (`<db>-wal`) is damaged, said in one line for the journal's
JournalDamaged (tablet_app/journal.py).

SQLite reads a WAL up to the first frame whose salt or checksum does not hold and ignores that
frame and everything after it, without an error: the journal notices the records that went
missing (its commit mark), and this module says where the log broke. The format is SQLite's
own ("The WAL file format" in its file format document): a 32-byte header (magic, version,
page size, checkpoint sequence, two salts, a checksum of the first 24 bytes), then frames of a
24-byte header (page number, database size after a commit, the two salts, a checksum running
over every frame's first 8 header bytes and page since the log's header) and one page.
Read only when records are missing: the journal never pays for it on a sound file.
"""
from __future__ import annotations

import struct

HEADER = 32
FRAME_HEADER = 24
MAGIC = (0x377F0682, 0x377F0683)  # the checksum's words little-endian, big-endian


def checksum(data: bytes, s0: int, s1: int, big: bool) -> tuple[int, int]:
    """SQLite's WAL checksum of `data` (a multiple of 8 bytes), continuing from (s0, s1)."""
    words = struct.unpack(f"{'>' if big else '<'}{len(data) // 4}I", data)
    mask = 0xFFFFFFFF
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & mask
        s1 = (s1 + words[i + 1] + s0) & mask
    return s0, s1


def describe(path: str) -> str:
    """The first damage in the WAL at `path`, or how it ends when every frame holds."""
    name = f"the write-ahead log {path}"
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return f"{name} is missing"
    except OSError as exc:
        return f"{name} cannot be read ({exc})"
    if not data:  # SQLite makes an empty one where it finds none
        return f"{name} holds nothing (it was emptied or lost)"
    if len(data) < HEADER:
        return f"{name} is cut off in its header ({len(data)} bytes)"
    magic, _version, page = struct.unpack(">III", data[:12])
    big = magic == MAGIC[1]
    if magic not in MAGIC or page < 512 or page > 65536 or page & (page - 1):
        return f"{name} has a damaged header"
    s = checksum(data[:24], 0, 0, big)
    if s != struct.unpack(">II", data[24:32]):
        return f"{name} has a damaged header (its checksum does not match)"
    salt, size = data[16:24], FRAME_HEADER + page
    at, frame = HEADER, 0
    while at + size <= len(data):
        frame += 1
        head = data[at:at + FRAME_HEADER]
        if head[8:16] != salt:
            return f"{name} is damaged at frame {frame} (byte {at}): its salt is not the log's"
        s = checksum(head[:8] + data[at + FRAME_HEADER:at + size], *s, big)
        if s != struct.unpack(">II", head[16:24]):
            return f"{name} is damaged at frame {frame} (byte {at}): its checksum does not match"
        at += size
    if at < len(data):
        return f"{name} is cut off in frame {frame + 1} (byte {at})"
    return f"{name} ends after frame {frame} (byte {at}): the frames after it are missing"
