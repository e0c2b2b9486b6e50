# The source of blit.py's native loops, as text: blit.py compiles it on the box and then
# drops this module, so the text does not stay in the heap (it would, as a constant of the
# module that holds it). Kept as text because native code is for one CPU: mpy-cross refuses it
# without an architecture, and the box's own compiler knows its CPU.
SRC = '''
@micropython.viper
def cells(fr) -> int:
    """For each of the 64 cells whose font code in fr.want differs from fr.shown: copy its glyph
    (16 bytes: its 8 columns in the line's top page, then in the bottom page; inverted when bit
    7 of the code is set) from fr.font into fr.buf, note it shown, and widen the changed columns
    fr.lo/fr.hi of its two pages. Returns the mask of the changed pages (bit p: page p). The
    same as render.Frame's loop, byte for byte (tests/firmware/mp/fw_frame_checks.py)."""
    w = ptr8(fr.want)
    s = ptr8(fr.shown)
    buf = ptr8(fr.buf)
    font = ptr8(fr.font)
    lo = ptr8(fr.lo)
    hi = ptr8(fr.hi)
    mask = 0
    i = 0
    while i < 64:
        c = w[i]
        if c != s[i]:
            s[i] = c
            g = (c & 0x7F) << 4
            inv = 0
            if c & 0x80:
                inv = 0xFF
            o = ((i >> 4) << 8) + ((i & 15) << 3)  # line r is pages 2r and 2r + 1
            k = 0
            while k < 8:
                buf[o + k] = font[g + k] ^ inv
                buf[o + 128 + k] = font[g + 8 + k] ^ inv
                k += 1
            p = (i >> 4) << 1
            x = (i & 15) << 3
            if ((mask >> p) & 1) == 0:
                lo[p] = x
                lo[p + 1] = x
            hi[p] = x + 7
            hi[p + 1] = x + 7
            mask |= 3 << p
        i += 1
    return mask


@micropython.viper
def text(want, pos: int, s, inv: int) -> int:
    """The bytes s as font codes into want from pos, or'ed with inv, cut at the end of pos's
    line; returns the position after the last (render.Frame._text for a bytes text: printable
    ASCII is code c - 32, anything else font16.OTHER, 99)."""
    w = ptr8(want)
    p = ptr8(s)
    n = int(len(s))
    end = (pos | 15) + 1
    i = 0
    while i < n and pos < end:
        c = p[i]
        if c >= 32 and c < 127:
            w[pos] = (c - 32) | inv
        else:
            w[pos] = 99 | inv
        pos += 1
        i += 1
    return pos
'''
