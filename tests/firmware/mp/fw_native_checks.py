# The codec's native loops (protocol/native.py: viper, the box's) against the bytecode loops they
# replace on the box (crc16.py, cobs.py, framing.Deframer): the same CRCs, the same COBS bytes,
# the same payloads and error counts from a stream of good, damaged and cut frames. Runs on the
# MicroPython unix port, which compiles native.py for its own CPU (the board gets it compiled
# for the RP2040 by scripts/box_image.py); CPython has no viper and runs the loops (checked too).
import sys

from fw_fuzz_checks import Rng

from protocol import cobs, crc16, framing

MICROPYTHON = sys.implementation.name == "micropython"


def _python_crc(buf, start, end, crc=0xFFFF):
    keep = crc16._native
    crc16._native = None
    try:
        return crc16.crc16(buf, start, end, crc)
    finally:
        crc16._native = keep


def test_the_box_loads_the_native_loops_where_micropython_can_and_cpython_keeps_its_own():
    if MICROPYTHON:
        assert crc16._native is not None and framing._native_run is not None, "native.py failed"
        from protocol import native

        assert framing._cobs_encode is native.cobs_encode
    else:
        assert crc16._native is None and framing._native_run is None
        assert framing._cobs_encode is cobs.encode


def test_native_crc16_is_crc16_ccitt_false():
    assert crc16.crc16(b"123456789") == 0x29B1  # the check value of CRC-16/CCITT-FALSE
    rng = Rng(7)
    for n in (0, 1, 2, 38, 52, 255, 300):
        buf = bytearray(rng.getrandbits(8) for _ in range(n))
        for start, end in ((0, n), (n // 3, n - n // 4)):
            seed = rng.getrandbits(16)
            assert crc16.crc16(buf, start, end, seed) == _python_crc(buf, start, end, seed), n


def test_native_cobs_encode_gives_the_same_bytes():
    rng = Rng(11)
    for n in (0, 1, 5, 253, 254, 255, 256, 600):
        src = bytearray(rng.getrandbits(8) if rng.getrandbits(2) else 0 for _ in range(n))
        a = bytearray(n + n // 254 + 4)
        b = bytearray(n + n // 254 + 4)
        assert framing._cobs_encode(src, n, a, 1) == cobs.encode(src, n, b, 1)
        assert a == b, n


def _deframe(stream, native):
    d = framing.Deframer()
    if not native:
        d.native = None
    out = []
    i = 0
    chunk = 7  # bytes as a UART read hands them over: runs cut anywhere
    while i < len(stream):
        end = min(i + chunk, len(stream))
        j = i
        while j < end:
            j = d.feed(stream, j, end)
            if d.length:
                out.append(bytes(d.payload[0:d.length]))
        i = end
    return out, (d.frames, d.bad_crc, d.bad_cobs, d.bad_size)


def test_native_deframing_gives_the_same_payloads_and_error_counts():
    from protocol.frame_tools import wire_from_payload

    rng = Rng(23)
    stream = bytearray()
    for k in range(60):
        n = 8 + rng.getrandbits(6)
        payload = bytearray(rng.getrandbits(8) if rng.getrandbits(3) else 0 for _ in range(n + 2))
        c = _python_crc(payload, 0, n)
        payload[n] = c >> 8
        payload[n + 1] = c & 0xFF
        wire = bytearray(wire_from_payload(payload))
        kind = k % 5
        if kind == 1 and len(wire) > 4:
            wire[2 + rng.getrandbits(1)] ^= 1 << rng.getrandbits(3)  # a bit flipped
        elif kind == 2:
            wire = wire[:len(wire) // 2] + b"\x00"  # cut short
        stream += wire
    got, counts = _deframe(stream, True)
    ref, ref_counts = _deframe(stream, False)
    assert got == ref and counts == ref_counts, (counts, ref_counts)
    assert counts[0] >= 24 and counts[1] + counts[2] + counts[3] >= 12, counts
