"""The boot ROM as `make uf2` gets it: rp2040js's demo/bootrom.ts (a Uint32Array literal of the
B1 ROM) packed into the 16 KiB binary the emulator loads. The upstream file itself is not copied
here; the tests build .ts files in its layout (two comment lines, `export const bootromB1 = new
Uint32Array([`, one `  0x%08x,` word per line, `]);`)."""
import hashlib
import random
import struct
import subprocess
import sys

import pytest

from hardware.emu.bootrom_from_ts import BadRom, rom_from_ts
from tests.conftest import ROOT

PINNED = "90b31e108faedfa6bbcfcc33ba05dac61e645108cfbbdc385f8dafc71fde44ae"
CLI = [sys.executable, str(ROOT / "hardware/emu/bootrom_from_ts.py")]


def as_ts(words, name="bootromB1"):
    head = ("// RP2040 bootrom binary, built from https://github.com/raspberrypi/pico-bootrom\n"
            "// revision: B1 (00a4a19114195e20fb817bdfbca1165e157eef37)\n\n"
            f"export const {name} = new Uint32Array([\n")
    return head + "".join(f"  0x{w:08x},\n" for w in words) + "]);\n"


def test_the_words_are_packed_little_endian_as_the_chip_reads_its_rom():
    # The RP2040 datasheet's ROM layout: the initial stack pointer and reset vector at 0x0 and
    # 0x4, then at 0x10 the bytes 'M' 'u' 0x01 and the ROM version (2 for B1). In the .ts these
    # are the words 0x20041f00, 0x000000ef, ... 0x0201754d.
    words = [0x20041F00, 0x000000EF, 0x00000035, 0x00000031, 0x0201754D] + [0] * 4091
    rom = rom_from_ts(as_ts(words))
    assert len(rom) == 16384
    assert rom[0:4] == bytes([0x00, 0x1F, 0x04, 0x20])
    assert rom[0x10:0x14] == b"Mu\x01\x02"


def test_every_word_lands_at_its_own_offset():
    words = [random.Random(7).getrandbits(32) for _ in range(4096)]
    rom = rom_from_ts(as_ts(words))
    assert [struct.unpack_from("<I", rom, 4 * i)[0] for i in range(4096)] == words


@pytest.mark.parametrize("text, why", [
    (as_ts([0] * 4095), "expected 4096 words"),
    (as_ts([0] * 4097), "expected 4096 words"),
    (as_ts([0] * 4096).replace("0x00000000,", "0x100000000,", 1), "does not fit in 32 bits"),
    (as_ts([0] * 4096).replace("0x00000000,", "x0 + 1,", 1), "not an integer literal"),
    (as_ts([0] * 4096) + as_ts([0] * 4096, "again"), "found 2"),
    ("<html>404: Not Found</html>", "found 0"),
])
def test_anything_but_one_array_of_4096_words_is_refused_with_the_reason(text, why):
    with pytest.raises(BadRom, match=why):
        rom_from_ts(text)


def test_the_command_writes_nothing_when_it_refuses(tmp_path):
    src, out = tmp_path / "bootrom.ts", tmp_path / "rom.bin"
    src.write_text(as_ts([1] * 100))
    p = subprocess.run(CLI + [str(src), str(out)], capture_output=True, text=True)
    assert p.returncode == 1
    assert "expected 4096 words (16 KiB), found 100" in p.stderr
    assert not out.exists()


def test_the_b1_rom_in_the_upstream_layout_converts_to_the_pinned_sha256(tmp_path):
    from hardware.emu.harness import BOOTROM, assets

    a = assets()
    if a is None:
        pytest.skip("RP2040 assets not found: set BOX_RP2040_ASSETS")
    real = (a / BOOTROM).read_bytes()
    src, out = tmp_path / "bootrom.ts", tmp_path / "rom.bin"
    src.write_text(as_ts(struct.unpack("<4096I", real)))
    p = subprocess.run(CLI + [str(src), str(out)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert hashlib.sha256(out.read_bytes()).hexdigest() == PINNED
