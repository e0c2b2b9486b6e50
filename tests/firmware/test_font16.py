"""The box's 8x16 font and the emulator's reading of the panel (CPython): the capital height the
display choice promises (hardware/fit.py, hardware/display.md) is the font's own, and the
emulator's I2C display model reads back exactly what the firmware drew."""
import sys

from hardware import fit
from hardware.emu.harness import Screen
from tests.conftest import ROOT

sys.path[:0] = [str(ROOT / "firmware"), str(ROOT)]
import calls  # noqa: E402
import entry as E  # noqa: E402
import font16  # noqa: E402
import render  # noqa: E402
import textview  # noqa: E402
import view as V  # noqa: E402


def rows_of(g):
    """Glyph g as 16 rows of 10 bits (bit 9 the left pixel)."""
    w = font16.WIDTH
    out = [0] * 16
    for x in range(w):
        for page in range(2):
            b = font16.FONT[g * 2 * w + page * w + x]
            for k in range(8):
                if b >> k & 1:
                    out[page * 8 + k] |= 1 << (w - 1 - x)
    return out


def ink_rows(g):
    r = rows_of(g)
    lit = [i for i in range(16) if r[i]]
    return lit[0], lit[-1]


def test_capitals_digits_and_suits_are_as_tall_as_the_display_choice_says():
    for ch in "ABCDEFHIKLMNOPRSTUVWXYZ0123456789\xc6\xd8":  # (no accents above these)
        top, bottom = ink_rows(render.code_of(ch))
        assert (top, bottom) == (font16.CAP_TOP, font16.CAP_BOTTOM), ch
    for ch in "\xc5\xc4\xd6":  # their accents above, in the rows over the capitals
        top, bottom = ink_rows(render.code_of(ch))
        assert top < font16.CAP_TOP and bottom == font16.CAP_BOTTOM, ch
    for g in (font16.CLUB, font16.DIAMOND, font16.HEART, font16.SPADE):
        assert ink_rows(g) == (font16.CAP_TOP, font16.CAP_BOTTOM)
    assert fit.FONT_10X16.cap_h == font16.CAP_BOTTOM - font16.CAP_TOP + 1
    assert fit.FONT_10X16.cell_w == font16.WIDTH
    assert fit.visual_angle_arcmin(fit.glyph_height_mm(fit.PANEL_242, fit.FONT_10X16),
                                   fit.FAR_DISTANCE_MM) >= fit.MIN_ARCMIN


def test_the_emulators_display_model_reads_what_the_firmware_drew():
    v = V.BoxView(0)
    v.known, v.phase, v.board, v.turn = True, V.AUCTION, 5, 0
    for i, c in enumerate(("1D", "1S", "X", "3NT")):
        v.auction[i] = calls.NAMES.index(c)
    v.auction[3] |= V.F_ALERT
    v.n = 4
    v.dealer = 1
    ent = E.CallEntry()
    ent.sel = calls.bid(4, 2)
    fr = render.Frame()
    fr.draw(v, ent, 0, lambda a, b: a - b)
    sc = Screen(bytes(fr.buf))
    assert sc.lines == textview.frame_rows(fr)  # the terminal view: the same lines
    assert sc.status == "YOUR TURN"
    assert sc.call_line == "4\u2665 OK?"
    assert sc.auction == "1D 1S X 3NT*"  # in time order (East dealt); North's 3NT alerted
    assert [(s.seat, s.newest) for s in sc.slots] == [("E", False), ("S", False), ("W", False),
                                                       ("N", True)]


def test_zero_o_and_o_stroke_each_look_their_own():
    """Terminus's slashed zero and its Ø differed by 2 pixels: a Danish box's "Ø 2♠" (East's
    2♠) read as "0 2♠". The box's zero is dotted: each pair of 0, O, Ø differs in 6 pixels or
    more."""
    glyphs = {ch: rows_of(render.code_of(ch)) for ch in ("0", "O", "\xd8")}
    for a, b in (("0", "O"), ("0", "\xd8"), ("O", "\xd8")):
        differ = sum(bin(x ^ y).count("1") for x, y in zip(glyphs[a], glyphs[b], strict=True))
        assert differ >= 6, (a, b, differ)
