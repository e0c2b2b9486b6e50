"""Writes firmware/font16.py: the box's font, cells 10 px wide and 16 px tall, as one bytes
constant in the SSD1306's own layout, and the table from Latin-1 bytes to its glyph codes.

    python scripts/make_font16.py /usr/share/consolefonts/Uni2-TerminusBold20x10.psf.gz

The glyphs are the top 16 rows of Terminus Bold 20 (10 x 20): its capitals and digits are rows
3-15 (13 px: 5.6 mm on the 2.42" panel, 24 arcmin at 80 cm, hardware/display.md), its accents
rows 0-2, and only its descenders (lowercase, `Q`'s tail, `_`) fall below row 15. So the font
holds capitals only: printable ASCII up to `_`, the capitals the Nordic languages need (Å Ä Ö Æ
Ø, and Ü É for names), the four suits and a placeholder drawn here; lowercase letters are shown
as capitals (the MAP table). The PSF comes with Debian's console-setup-linux package
(`apt-get download console-setup-linux` and `dpkg-deb -x` it if you do not want it installed).
Terminus Font is (c) Dimitar Zhekov, SIL Open Font License 1.1. Only needed to change the font:
the output is committed."""
import gzip
import pathlib
import struct
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]

W = 10      # cell width: the PSF's glyph width
H = 16      # cell height: two of the controller's 8-pixel pages
EXTRA = "ÅÄÖÆØÜÉ"  # after ASCII 0x20..0x5F, in this order
LOWER = "åäöæøüé"  # shown as the capital above
CAP_TOP, CAP_BOTTOM = 3, 15

# 9 x 13 pixels on rows 3..15, the rows of the capitals
SUITS = {
    "C": ("...###...", "..#####..", "..#####..", "..#####..", ".##.#.##.", "####.####",
          "#########", "####.####", ".##.#.##.", "....#....", "...###...", "..#####..",
          ".#######."),
    "D": ("....#....", "...###...", "...###...", "..#####..", "..#####..", ".#######.",
          "#########", ".#######.", "..#####..", "..#####..", "...###...", "...###...",
          "....#...."),
    "H": (".##...##.", "####.####", "#########", "#########", "#########", "#########",
          ".#######.", ".#######.", "..#####..", "..#####..", "...###...", "...###...",
          "....#...."),
    "S": ("....#....", "...###...", "..#####..", ".#######.", "#########", "#########",
          "#########", "#########", ".##.#.##.", "....#....", "...###...", "..#####..",
          ".#######."),
    "?": ("########.", "#......#.", "#......#.", "#......#.", "#......#.", "#......#.",
          "#......#.", "#......#.", "#......#.", "#......#.", "#......#.", "#......#.",
          "########."),
}


def load_psf(path):
    """{character: glyph rows as ints (bit W-1 the left pixel)} of a PSF2 console font."""
    d = gzip.open(path).read() if str(path).endswith(".gz") else pathlib.Path(path).read_bytes()
    _, _, hs, _, n, bpg, h, w = struct.unpack_from("<8I", d)
    assert (w, h) == (W, 20), (w, h)
    bpr = (w + 7) // 8
    out = {}
    for g, chunk in enumerate(d[hs + n * bpg:].split(b"\xff")[:n]):
        raw = d[hs + g * bpg:hs + (g + 1) * bpg]
        rows = [int.from_bytes(raw[r * bpr:(r + 1) * bpr], "big") >> (bpr * 8 - w) for r in range(h)]
        for ch in chunk.split(b"\xfe")[0].decode("utf-8"):
            out.setdefault(ch, rows)
    return out


def drawn(rows):
    out = [0] * H
    for r, line in enumerate(rows):
        for x, p in enumerate(line):
            if p == "#":
                out[CAP_TOP + r] |= 1 << (W - 1 - x)
    return out


def vlsb(rows):
    """Row-major glyph (bit W-1 left) -> W bytes of the top page and W of the bottom page, each
    byte a column with its top pixel in bit 0: what the SSD1306 holds in GDDRAM."""
    out = bytearray(2 * W)
    for r in range(H):
        for x in range(W):
            if rows[r] >> (W - 1 - x) & 1:
                out[(r // 8) * W + x] |= 1 << (r % 8)
    return bytes(out)


def _set(g, r, c):
    g[r] |= 1 << (W - 1 - c)


def zero_dotted(font):
    """Terminus's zero is slashed, and its Ø is the same slashed oval with a pixel more at each
    end: on the box "Ø 2♠" (Danish East) read as "0 2♠". So the zero is the O with a dot in it:
    0, O and Ø each look their own."""
    g = list(font["O"][:H])
    for r in (8, 9, 10):
        for c in (4, 5):
            _set(g, r, c)
    return g


def glyph_rows(font):
    rows = []
    for c in range(0x20, 0x60):
        g = list(font[chr(c)][:H])
        if chr(c) == "_":
            g[H - 1] = font["_"][17]  # its line is below row 15: raised to the last row
        if chr(c) == "0":
            g = zero_dotted(font)
        rows.append(g)
    rows += [list(font[ch][:H]) for ch in EXTRA]
    rows += [drawn(SUITS[k]) for k in "CDHS?"]
    return rows


def latin1_map(club, other):
    """MAP[b]: the glyph code of Latin-1 byte b (lowercase as capitals), `other` for none."""
    m = bytearray([other]) * 256
    for c in range(0x20, 0x60):
        m[c] = c - 0x20
    for c in range(ord("a"), ord("z") + 1):
        m[c] = c - 0x40
    for i, ch in enumerate(EXTRA):
        m[ord(ch)] = 0x40 + i
        m[ord(LOWER[i])] = 0x40 + i
    return bytes(m)


def main(psf):
    font = load_psf(psf)
    rows = glyph_rows(font)
    data = b"".join(vlsb(g) for g in rows)
    club = 0x40 + len(EXTRA)
    other = club + 4
    mp = latin1_map(club, other)
    lines = [data[i:i + 40] for i in range(0, len(data), 40)]
    body = "\n".join(f"    {bytes(x)!r}" for x in lines)
    mlines = "\n".join(f"    {bytes(mp[i:i + 32])!r}" for i in range(0, 256, 32))
    src = f'''# The box's font (generated by scripts/make_font16.py; do not edit by hand): cells {W} px wide
# and {H} px tall, capitals only. Glyph g is FONT[{2 * W} g:{2 * W} g + {2 * W}]: the {W} column bytes of its top
# page, then of its bottom page, bit 0 the top pixel, as the SSD1306 holds them: a glyph goes to
# the panel's memory byte for byte. Codes: 0-63 ASCII 0x20-0x5F (code = ord - 32), then
# {EXTRA}, the suits and a placeholder for any other character; MAP gives the code of a
# Latin-1 byte (lowercase as its capital). Capitals and digits are rows {CAP_TOP}..{CAP_BOTTOM} (13 px: 5.6 mm
# on the 2.42" panel), accents rows 0-2. The top 16 rows of Terminus Bold 20 (10 x 20), (c)
# Dimitar Zhekov, SIL Open Font License 1.1; suits and placeholder drawn for the box. Bytes
# constants: frozen or in a ROMFS they stay in flash.
WIDTH = {W}
CLUB = {club}
DIAMOND = {club + 1}
HEART = {club + 2}
SPADE = {club + 3}
OTHER = {other}
COUNT = {other + 1}
EXTRA = "{EXTRA.encode("unicode_escape").decode()}"  # the glyphs of codes 64.. (Latin-1: MAP)
SUITS = "\\u2663\\u2666\\u2665\\u2660"  # the characters of codes CLUB..SPADE, for text views
CAP_TOP = {CAP_TOP}
CAP_BOTTOM = {CAP_BOTTOM}

FONT = (
{body}
)

MAP = (
{mlines}
)
'''
    (ROOT / "firmware/font16.py").write_text(src)
    print("wrote firmware/font16.py:", len(data), "bytes,", len(rows), "glyphs")


if __name__ == "__main__":
    main(sys.argv[1])
