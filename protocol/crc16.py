# CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor; check("123456789")
# = 0x29B1). Table-driven: the 256-entry table is built once at import so the per-frame path
# allocates nothing.
from array import array

_T = array("H", bytes(512))


def _build():
    for i in range(256):
        c = i << 8
        for _ in range(8):
            if c & 0x8000:
                c = ((c << 1) ^ 0x1021) & 0xFFFF
            else:
                c = (c << 1) & 0xFFFF
        _T[i] = c


_build()


def crc16(buf, start=0, end=-1, crc=0xFFFF):
    """CRC of buf[start:end] (end -1: to the end of buf), without slicing."""
    if end < 0:
        end = len(buf)
    t = _T
    for i in range(start, end):
        crc = ((crc << 8) & 0xFFFF) ^ t[((crc >> 8) ^ buf[i]) & 0xFF]
    return crc
