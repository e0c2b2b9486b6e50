"""The RP2040 boot ROM (16 KiB) from a TypeScript `new Uint32Array([...])` literal of it.

Raspberry Pi publishes the B1 boot ROM as source (raspberrypi/pico-bootrom); the rp2040js
emulator's demo ships the built ROM as `demo/bootrom.ts`, one 32-bit word per element. The chip
reads its ROM little-endian, and rp2040js loads it from the same words
(`mcu.loadBootrom(Uint32Array)`), so the binary is the words packed little-endian in order.

    python hardware/emu/bootrom_from_ts.py bootrom.ts rp2040-bootrom-b1.bin

Anything but exactly one array of 4096 integer words is refused with the reason; the output is
written only after the whole input has been read and checked. Standard library only: `make uf2`
runs it before the project's venv may exist.
"""
import re
import struct
import sys

ROM_WORDS = 16 * 1024 // 4

_ARRAY = re.compile(r"new\s+Uint32Array\s*\(\s*\[(.*?)\]\s*\)", re.S)
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_WORD = re.compile(r"0[xX][0-9a-fA-F]+|[0-9]+")


class BadRom(ValueError):
    pass


def words_from_ts(text: str) -> list[int]:
    arrays = _ARRAY.findall(_COMMENT.sub("", text))
    if len(arrays) != 1:
        raise BadRom(f"expected one `new Uint32Array([...])`, found {len(arrays)}")
    words = []
    for n, tok in enumerate(t.strip() for t in arrays[0].split(",")):
        if not tok:
            continue  # the trailing comma after the last word
        if not _WORD.fullmatch(tok):
            raise BadRom(f"element {n} is not an integer literal: {tok[:40]!r}")
        w = int(tok, 0) if tok[:2] in ("0x", "0X") else int(tok, 10)
        if w > 0xFFFFFFFF:
            raise BadRom(f"element {n} does not fit in 32 bits: {tok}")
        words.append(w)
    if len(words) != ROM_WORDS:
        raise BadRom(f"expected {ROM_WORDS} words (16 KiB), found {len(words)}")
    return words


def rom_from_ts(text: str) -> bytes:
    return struct.pack(f"<{ROM_WORDS}I", *words_from_ts(text))


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: bootrom_from_ts.py BOOTROM.ts OUT.bin", file=sys.stderr)
        return 2
    src, out = argv
    try:
        with open(src, encoding="utf-8") as f:
            rom = rom_from_ts(f.read())
    except (OSError, UnicodeDecodeError, BadRom) as e:
        print(f"bootrom: {src}: {e}", file=sys.stderr)
        return 1
    with open(out, "wb") as f:
        f.write(rom)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
