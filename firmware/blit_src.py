# The source of blit.py's native loops, as text: blit.py compiles it on the box and then
# drops this module, so the text does not stay in the heap (it would, as a constant of the
# module that holds it). Kept as text because native code is for one CPU: mpy-cross refuses it
# without an architecture, and the box's own compiler knows its CPU.
SRC = '''
@micropython.viper
def cells(fr) -> int:
    """For each of the 48 cells (4 lines of 12) whose font code in fr.want differs from
    fr.shown: copy its glyph (20 bytes: its 10 columns in the line's top page, then in the
    bottom page; inverted when bit 7 of the code is set) from fr.font into fr.buf at the cell's
    x (fr.xs), note it shown, and widen the changed columns fr.lo/fr.hi of its two pages.
    Returns the mask of the changed pages (bit p: page p). The same as render.Frame._cells,
    byte for byte (tests/firmware/mp/fw_frame_checks.py)."""
    w = ptr8(fr.want)
    s = ptr8(fr.shown)
    xs = ptr8(fr.xs)
    buf = ptr8(fr.buf)
    font = ptr8(fr.font)
    lo = ptr8(fr.lo)
    hi = ptr8(fr.hi)
    mask = 0
    i = 0
    r = 0
    while r < 4:
        col = 0
        while col < 12:
            c = w[i]
            if c != s[i]:
                s[i] = c
                g = (c & 0x7F) * 20
                inv = 0
                top = 0
                if c & 0x80:
                    inv = 0xFF
                    top = 0xFC  # render.INV_TOP: the bar starts 2 rows down
                x = xs[i]
                o = (r << 8) + x  # line r is pages 2r and 2r + 1
                k = 0
                while k < 10:
                    buf[o + k] = font[g + k] ^ top
                    buf[o + 128 + k] = font[g + 10 + k] ^ inv
                    k += 1
                p = r << 1
                if ((mask >> p) & 1) == 0:
                    lo[p] = x
                    lo[p + 1] = x
                hi[p] = x + 9
                hi[p + 1] = x + 9
                mask |= 3 << p
            i += 1
            col += 1
        r += 1
    return mask


@micropython.viper
def text(want, pos: int, end: int, s, inv: int, mp, start: int, stop: int) -> int:
    """The Latin-1 bytes s[start:stop] as font codes (mp: font16.MAP) into want from pos,
    or'ed with inv, cut at end (the end of pos's line); returns the position after the last
    (render.Frame._text for a bytes text)."""
    w = ptr8(want)
    p = ptr8(s)
    m = ptr8(mp)
    n = stop
    i = start
    while i < n and pos < end:
        w[pos] = m[p[i]] | inv
        pos += 1
        i += 1
    return pos
'''
