"""The UF2 and the boot ROM checked by what they are (hardware/emu/check_assets.py): the copies
at hand pass, MicroPython's own download passes (made here from the local build with the
official build's dates: nobody here has seen its bytes), and crafted images fail, each with a
message that says what is wrong."""
import struct

import pytest

from hardware.emu import check_assets as C

UF2 = "micropython-v1.27.0-RPI_PICO.uf2"
ROM = "rp2040-bootrom-b1.bin"


@pytest.fixture(scope="module")
def real():
    from hardware.emu.harness import assets

    a = assets()
    if a is None:
        pytest.skip("RP2040 assets not found: set BOX_RP2040_ASSETS")
    return a


def blocks(data: bytes) -> list[bytearray]:
    return [bytearray(data[i:i + 512]) for i in range(0, len(data), 512)]


def joined(bs: list[bytearray]) -> bytes:
    return b"".join(bytes(b) for b in bs)


def patched(data: bytes, old: bytes, new: bytes) -> bytes:
    """Replace `old` by `new` (same length) in the image's payloads, wherever a block holds it."""
    assert len(old) == len(new)
    bs = blocks(data)
    hits = 0
    for b in bs:
        payload = bytes(b[32:288])
        if old in payload:
            b[32:288] = payload.replace(old, new)
            hits += 1
    assert hits, old
    return joined(bs)


def as_official(data: bytes) -> bytes:
    """The local build as MicroPython's download of 2025-12-09 would read: its build date in the
    banner and in the binary info (the other bytes the two builds differ in are code)."""
    img = C.uf2_image(data)
    banner = img[img.index(b"MicroPython v1.27.0 on "):][:33]
    day = C.binary_info(img)[0x9DA22254].encode()
    out = patched(data, banner, b"MicroPython v1.27.0 on 2025-12-09")
    return patched(out, day, b"Dec  9 2025".ljust(len(day), b"\0")[:len(day)])


def test_the_copies_at_hand_are_micropython_1_27_0_for_the_pico_and_the_b1_boot_rom(real):
    assert C.check_uf2((real / UF2).read_bytes()).startswith(
        "MicroPython v1.27.0 of 2026-11-23, board pico (Raspberry Pi Pico with RP2040), 1326 blocks")
    assert C.check_bootrom((real / ROM).read_bytes()).startswith("RP2040 boot ROM B1 (pico-bootrom 0x00a4a191)")


def test_the_official_download_passes_though_its_bytes_differ(real):
    official = as_official((real / UF2).read_bytes())
    assert official != (real / UF2).read_bytes()
    assert "of 2025-12-09" in C.check_uf2(official)


def _refused(data: bytes, check=C.check_uf2) -> str:
    with pytest.raises(C.Refused) as e:
        check(data)
    return str(e.value)


def test_a_uf2_for_another_chip_is_refused(real):
    bs = blocks((real / UF2).read_bytes())
    for b in bs:
        struct.pack_into("<I", b, 28, 0xE48BFF59)  # the RP2350's family
    assert "family 0xe48bff59, not the RP2040's 0xe48bff56" in _refused(joined(bs))


def test_a_uf2_with_a_block_missing_or_a_broken_block_is_refused(real):
    bs = blocks((real / UF2).read_bytes())
    assert "says the file has 1326 blocks, it has 1325 (one missing" in _refused(joined(bs[:700] + bs[701:]))
    assert "block 700 says it is block 701 (out of order)" in _refused(
        joined(bs[:700] + [bs[701], bs[700]] + bs[702:]))
    bs[3][508] ^= 1
    assert "block 3 lacks the UF2 magic numbers" in _refused(joined(bs))
    assert "not a whole number of 512-byte blocks" in _refused((real / UF2).read_bytes()[:-1])


def test_another_micropython_version_or_board_is_refused(real):
    data = (real / UF2).read_bytes()
    older = patched(data, b"v1.27.0", b"v1.26.1")
    assert "MicroPython v1.26.1 for board pico, not MicroPython v1.27.0" in _refused(older)
    banner_only = patched(data, b"MicroPython v1.27.0 on", b"MicroPython v1.27.1 on")
    assert "the REPL banner says v1.27.1" in _refused(banner_only)
    other_board = patched(data, b"Raspberry Pi Pico with RP2040", b"Raspberry Pi Pico2with RP2040")
    assert "does not name its board 'Raspberry Pi Pico with RP2040'" in _refused(other_board)


def test_an_image_the_boot_rom_would_not_start_is_refused(real):
    bs = blocks((real / UF2).read_bytes())
    bs[0][32 + 100] ^= 0x01  # one bit of the second-stage boot loader
    assert "boot loader's CRC32" in _refused(joined(bs))


def test_a_boot_rom_not_b1_or_not_the_rp2040_s_is_refused(real):
    rom = bytearray((real / ROM).read_bytes())
    b0 = bytearray(rom)
    b0[0x13] = 1
    assert "boot ROM version 1, not 2 (revision B1)" in _refused(bytes(b0), C.check_bootrom)
    assert "16384" in _refused(bytes(rom[:8192]), C.check_bootrom)
    other = bytearray(rom)
    other[0x10:0x12] = b"Xu"
    assert "no 'Mu' magic" in _refused(bytes(other), C.check_bootrom)
    func_at = struct.unpack_from("<H", rom, 0x14)[0]
    gone = bytearray(rom)
    gone[func_at:func_at + 2] = b"ZZ"  # the first routine's code (popcount32, "P3") renamed
    assert "tables lack P3" in _refused(bytes(gone), C.check_bootrom)


def test_the_command_line_says_ok_or_why_not(real, tmp_path, capsys):
    assert C.main(["uf2", str(real / UF2)]) == 0
    assert capsys.readouterr().out.startswith("ok: MicroPython v1.27.0")
    bad = tmp_path / "bad.uf2"
    bad.write_bytes(b"\0" * 512)
    assert C.main(["uf2", str(bad)]) == 1
    assert "lacks the UF2 magic numbers" in capsys.readouterr().err
