# The source of native.py's native loops, as text: native.py compiles it on the box and then
# drops this module, so the text does not stay in the heap (it would, as a constant of the
# module that holds it). Kept as text because native code is for one CPU: mpy-cross refuses it
# without an architecture, and the box's own compiler knows its CPU.
SRC = '''
@micropython.viper
def crc16(buf, start: int, end: int, crc: int, th, tl) -> int:
    """CRC-16/CCITT-FALSE of buf[start:end] from crc (crc16.crc16)."""
    b = ptr8(buf)
    h = ptr8(th)
    lo_t = ptr8(tl)
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
    s = ptr8(src)
    d = ptr8(dst)
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
    s = ptr8(data)
    r = ptr8(raw)
    h = ptr8(th)
    lo_t = ptr8(tl)
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
'''
