# Consistent Overhead Byte Stuffing (Cheshire & Baker 1999): removes every 0x00 from a frame so
# 0x00 can delimit frames and a receiver resynchronises on the next 0x00 after any line error.
# Both functions work between caller-owned buffers: no allocation per frame.


def encode(src, n, dst, off=0):
    """COBS-encode src[0:n] into dst starting at off; returns the index after the last byte
    written (no delimiter is written)."""
    code_i = off
    o = off + 1
    code = 1
    for i in range(n):
        b = src[i]
        if b == 0:
            dst[code_i] = code
            code_i = o
            o += 1
            code = 1
        else:
            dst[o] = b
            o += 1
            code += 1
            if code == 0xFF:
                dst[code_i] = code
                code_i = o
                o += 1
                code = 1
    dst[code_i] = code
    return o


def decode(src, n, dst):
    """Decode src[0:n] (one frame, no delimiter) into dst; returns the decoded length, or -1 if
    src is not valid COBS or does not fit in dst."""
    cap = len(dst)
    i = 0
    o = 0
    while i < n:
        code = src[i]
        if code == 0:
            return -1
        i += 1
        end = i + code - 1
        if end > n or o + code > cap + 1:
            return -1
        while i < end:
            b = src[i]
            if b == 0:
                return -1
            dst[o] = b
            o += 1
            i += 1
        if code != 0xFF and i < n:
            if o >= cap:
                return -1
            dst[o] = 0
            o += 1
    return o
