"""Is this file what the box's chip needs? The stock MicroPython UF2 and the RP2040 boot ROM,
checked by what they are, not by a hash of one copy:

    python hardware/emu/check_assets.py uf2 FILE       -> "ok: MicroPython v1.27.0, pico ..."
    python hardware/emu/check_assets.py bootrom FILE   -> exit 1 and the reason when it is not

A UF2 passes when every block is a well-formed UF2 block of the RP2040 family (0xe48bff56), the
blocks are numbered 0..n-1 and fill flash from 0x10000000 without a gap, the second-stage boot
loader in its first 256 bytes carries the CRC32 the boot ROM checks, and the image says it is
MicroPython v1.27.0 for the Raspberry Pi Pico: in its picotool binary info (program name,
version, board) and in the banner the REPL prints. MicroPython's own download and a build from
the v1.27.0 tag both pass (they differ in their build date); another version, board or chip does
not. A boot ROM passes when it is the RP2040's, revision B1: 16 KiB, the initial stack pointer,
the magic "Mu" 0x01 and version byte 2, the function and data tables with every routine
MicroPython calls and pico-bootrom's git revision 0x00a4a191.

Standard library only: `make uf2` (fetch_uf2.sh) runs it before the project's venv exists.
"""
from __future__ import annotations

import re
import struct
import sys

UF2_MAGIC0, UF2_MAGIC1, UF2_MAGIC_END = 0x0A324655, 0x9E5D5157, 0x0AB16F30
UF2_FLAG_FAMILY = 0x2000
RP2040_FAMILY = 0xE48BFF56
FLASH = 0x10000000
FLASH_SIZE = 2 * 1024 * 1024
PAYLOAD = 256

VERSION = "v1.27.0"
PROGRAM = "MicroPython"
BOARD = "pico"  # pico-sdk's board name for MicroPython's RPI_PICO
BOARD_NAME = b"Raspberry Pi Pico with RP2040"  # MICROPY_HW_BOARD_NAME, " with " MICROPY_HW_MCU_NAME

# picotool binary info (pico-sdk binary_info/defs.h)
BI_MARKER_START, BI_MARKER_END = 0x7188EBF2, 0xE71AA390
BI_TAG_RP = 0x5052  # 'R', 'P'
BI_TYPE_ID_AND_STRING = 6
BI_PROGRAM_NAME, BI_VERSION, BI_BOARD = 0x02031C86, 0x11A9BC3A, 0xB63CFFBB

ROM_SIZE = 16384
ROM_SP = 0x20041F00
ROM_VERSION_B1 = 2
ROM_GIT_REVISION_B1 = 0x00A4A191
# the boot ROM routines MicroPython and the pico-sdk look up by their two-letter codes
ROM_FUNCTIONS = ("P3", "R3", "L3", "T3", "MS", "S4", "MC", "C4", "UB", "WV", "IF", "EX", "RE",
                 "RP", "FC", "CX")
ROM_DATA = ("GR", "CR", "SF", "SD")


class Refused(ValueError):
    """The file is not what it should be; the message says how."""


def crc32_mpeg2(data: bytes) -> int:
    """The boot ROM's check of boot2: CRC-32, poly 0x04C11DB7, init 0xFFFFFFFF, no reflection,
    no final xor."""
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b << 24
        for _ in range(8):
            crc = ((crc << 1) ^ 0x04C11DB7) & 0xFFFFFFFF if crc & 0x80000000 else (crc << 1) & 0xFFFFFFFF
    return crc


def uf2_image(data: bytes) -> bytes:
    """The flash image a UF2 writes from 0x10000000, after checking every block."""
    if not data or len(data) % 512:
        raise Refused(f"not a UF2: {len(data)} bytes is not a whole number of 512-byte blocks")
    n = len(data) // 512
    image = bytearray()
    for i in range(n):
        m0, m1, flags, addr, size, no, count, family = struct.unpack_from("<8I", data, i * 512)
        (end,) = struct.unpack_from("<I", data, i * 512 + 508)
        where = f"block {i}"
        if (m0, m1, end) != (UF2_MAGIC0, UF2_MAGIC1, UF2_MAGIC_END):
            raise Refused(f"not a UF2: {where} lacks the UF2 magic numbers")
        if not flags & UF2_FLAG_FAMILY or family != RP2040_FAMILY:
            raise Refused(f"{where} is for family 0x{family:08x}, not the RP2040's 0x{RP2040_FAMILY:08x}")
        if size != PAYLOAD:
            raise Refused(f"{where} carries {size} bytes, not {PAYLOAD}")
        if count != n:
            raise Refused(f"{where} says the file has {count} blocks, it has {n} (one missing or "
                          "doubled)")
        if no != i:
            raise Refused(f"{where} says it is block {no} (out of order)")
        if addr != FLASH + i * PAYLOAD:
            raise Refused(f"{where} writes 0x{addr:08x}, not 0x{FLASH + i * PAYLOAD:08x}: the image "
                          "does not fill flash from its start without a gap")
        image += data[i * 512 + 32:i * 512 + 32 + PAYLOAD]
    if len(image) > FLASH_SIZE:
        raise Refused(f"the image ({len(image)} bytes) is larger than the Pico's 2 MiB flash")
    return bytes(image)


def binary_info(image: bytes) -> dict[int, str]:
    """The RP-tagged id-and-string entries of the image's picotool binary info."""
    for off in range(PAYLOAD, 2 * PAYLOAD, 4):  # picotool looks in the 256 bytes after boot2
        if struct.unpack_from("<I", image, off)[0] == BI_MARKER_START:
            break
    else:
        raise Refused("no picotool binary info after the boot loader: not a pico-sdk program")
    start, end, mapping, marker = struct.unpack_from("<4I", image, off + 4)
    if marker != BI_MARKER_END:
        raise Refused("the binary info header is broken")
    maps = []
    m = mapping - FLASH
    while 0 <= m <= len(image) - 12:
        src, lo, hi = struct.unpack_from("<3I", image, m)
        if src == 0:
            break
        maps.append((src, lo, hi))
        m += 12

    def read(addr: int, n: int) -> bytes:
        if FLASH <= addr and addr - FLASH + n <= len(image):
            return image[addr - FLASH:addr - FLASH + n]
        for src, lo, hi in maps:  # data the program copies to RAM: its bytes are in flash at src
            if lo <= addr < hi and src - FLASH + (addr - lo) + n <= len(image):
                o = src - FLASH + (addr - lo)
                return image[o:o + n]
        raise Refused(f"the binary info points outside the image (0x{addr:08x})")

    out: dict[int, str] = {}
    for p in range(start, end, 4):
        (entry,) = struct.unpack("<I", read(p, 4))
        kind, tag, ident = struct.unpack("<HHI", read(entry, 8))
        if kind == BI_TYPE_ID_AND_STRING and tag == BI_TAG_RP:
            (s,) = struct.unpack("<I", read(entry + 8, 4))
            out[ident] = read(s, 64).split(b"\0")[0].decode("ascii", "replace")
    return out


def check_uf2(data: bytes) -> str:
    """What the UF2 is, in one line; raises Refused when it is not MicroPython v1.27.0 for the
    Raspberry Pi Pico (RP2040)."""
    image = uf2_image(data)
    (stored,) = struct.unpack_from("<I", image, 252)
    if crc32_mpeg2(image[:252]) != stored:
        raise Refused("the boot loader's CRC32 (flash bytes 252-255) is wrong: the boot ROM "
                      "would not start this image")
    bi = binary_info(image)
    got = (bi.get(BI_PROGRAM_NAME), bi.get(BI_VERSION), bi.get(BI_BOARD))
    if got != (PROGRAM, VERSION, BOARD):
        raise Refused(f"the image is {got[0]} {got[1]} for board {got[2]}, not {PROGRAM} {VERSION} "
                      f"for {BOARD} (picotool binary info)")
    banner = re.search(rb"MicroPython (v[0-9][^ \0]*) on (\d{4}-\d{2}-\d{2})", image)
    if banner is None or banner.group(1).decode() != VERSION:
        raise Refused(f"the REPL banner says {banner.group(1).decode() if banner else 'nothing'}, "
                      f"not MicroPython {VERSION}")
    if BOARD_NAME not in image:
        raise Refused(f"the image does not name its board {BOARD_NAME.decode()!r}")
    return (f"{PROGRAM} {VERSION} of {banner.group(2).decode()}, board {BOARD} "
            f"({BOARD_NAME.decode()}), {len(data) // 512} blocks, RP2040 family")


def _table(rom: bytes, off: int) -> dict[str, int]:
    out = {}
    while off + 4 <= len(rom):
        code, ptr = struct.unpack_from("<HH", rom, off)
        if code == 0:
            break
        out[chr(code & 0xFF) + chr(code >> 8)] = ptr
        off += 4
    return out


def check_bootrom(rom: bytes) -> str:
    """What the boot ROM is, in one line; raises Refused when it is not the RP2040's, B1."""
    if len(rom) != ROM_SIZE:
        raise Refused(f"{len(rom)} bytes: the RP2040's boot ROM is {ROM_SIZE}")
    (sp,) = struct.unpack_from("<I", rom, 0)
    if sp != ROM_SP or rom[0x10:0x13] != b"Mu\x01":
        raise Refused("not the RP2040's boot ROM: no 'Mu' magic at 0x10 or another initial "
                      "stack pointer")
    if rom[0x13] != ROM_VERSION_B1:
        raise Refused(f"boot ROM version {rom[0x13]}, not {ROM_VERSION_B1} (revision B1)")
    func_at, data_at = struct.unpack_from("<HH", rom, 0x14)
    funcs, data = _table(rom, func_at), _table(rom, data_at)
    lacking = [c for c in ROM_FUNCTIONS if c not in funcs] + [c for c in ROM_DATA if c not in data]
    if lacking:
        raise Refused(f"the boot ROM's tables lack {', '.join(lacking)}")
    bad = [c for c in ROM_FUNCTIONS if not funcs[c] & 1 or funcs[c] >= ROM_SIZE]
    if bad:
        raise Refused(f"the boot ROM's routines {', '.join(bad)} do not point at Thumb code in it")
    (rev,) = struct.unpack_from("<I", rom, data["GR"])
    if rev != ROM_GIT_REVISION_B1:
        raise Refused(f"pico-bootrom git revision 0x{rev:08x}, not B1's 0x{ROM_GIT_REVISION_B1:08x}")
    copyright_ = rom[data["CR"]:data["CR"] + 64].split(b"\0")[0].decode("ascii", "replace")
    return f"RP2040 boot ROM B1 (pico-bootrom 0x{rev:08x}), {len(funcs)} routines; {copyright_}"


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("uf2", "bootrom"):
        print("usage: check_assets.py uf2|bootrom FILE", file=sys.stderr)
        return 2
    try:
        with open(argv[1], "rb") as f:
            data = f.read()
        print("ok: " + (check_uf2(data) if argv[0] == "uf2" else check_bootrom(data)))
        return 0
    except (OSError, Refused, struct.error) as exc:
        print(exc, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
