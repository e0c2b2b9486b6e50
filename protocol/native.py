# The byte loops of the codec in native code (MicroPython's viper emitter), for the box: the CRC
# of a frame the box sends, the COBS encoding, and the receiver's run of data bytes (COBS decode
# and CRC together, framing.Deframer). Each is the same loop as its bytecode original, byte for
# byte (tests/firmware/mp/fw_native_checks.py runs both on the MicroPython unix port).
# MicroPython only: crc16.py, cobs.py and framing.py import this where they can and otherwise keep
# their own loops (CPython on the tablet: no `micropython` module; a port without native code;
# an .mpy compiled for another CPU: scripts/box_image.py compiles this one with -march=armv6m
# for the RP2040). The CRC tables come in as arguments (crc16.py's constants, in flash).
import micropython


@micropython.viper
def crc16(buf, start: int, end: int, crc: int, th, tl) -> int:
    """CRC-16/CCITT-FALSE of buf[start:end] from crc (crc16.crc16)."""
    b = ptr8(buf)  # noqa: F821 - viper's pointer casts exist only inside viper code
    h = ptr8(th)  # noqa: F821
    lo_t = ptr8(tl)  # noqa: F821
    hi = (crc >> 8) & 0xFF
    lo = crc & 0xFF
    i = start
    while i < end:
        j = hi ^ b[i]
        hi = lo ^ h[j]
        lo = lo_t[j]
        i += 1
    return (hi << 8) | lo


@micropython.viper
def cobs_encode(src, n: int, dst, off: int) -> int:
    """COBS of src[0:n] into dst from off; the index after the last byte (cobs.encode)."""
    s = ptr8(src)  # noqa: F821
    d = ptr8(dst)  # noqa: F821
    code_i = off
    o = off + 1
    code = 1
    i = 0
    while i < n:
        v = s[i]
        if v == 0:
            d[code_i] = code
            code_i = o
            o += 1
            code = 1
        else:
            d[o] = v
            o += 1
            code += 1
            if code == 0xFF:
                d[code_i] = code
                code_i = o
                o += 1
                code = 1
        i += 1
    d[code_i] = code
    return o


@micropython.viper
def deframe_run(data, i: int, j: int, raw, n: int, crc: int, th, tl) -> int:
    """The data bytes data[i:j] of a COBS run onto raw[n:], summed into crc (its high byte in
    bits 8-15), up to a 0 (which ends the frame early: not taken). Returns (bytes taken << 16)
    | the CRC after them (framing.Deframer.feed)."""
    s = ptr8(data)  # noqa: F821
    r = ptr8(raw)  # noqa: F821
    h = ptr8(th)  # noqa: F821
    lo_t = ptr8(tl)  # noqa: F821
    hi = (crc >> 8) & 0xFF
    lo = crc & 0xFF
    k = i
    while k < j:
        b = s[k]
        if b == 0:
            break
        r[n] = b
        n += 1
        b ^= hi
        hi = lo ^ h[b]
        lo = lo_t[b]
        k += 1
    return ((k - i) << 16) | (hi << 8) | lo
