# The panel's picture (render.Frame, the 10 x 16 capitals font), checked on its pixels: what the
# player sees on the 2.42" OLED at 80 cm, in his language, on MicroPython and CPython alike.
import calls
import entry as E
import font16
import keys as K
import lang as T
import render
import textview
import view as V
from fw_hw_checks import view_with as hw_view_with

from protocol.calls import code

CLUB, DIAMOND, HEART, SPADE = font16.SUITS
GW = 2 * font16.WIDTH  # a glyph's bytes


def diff(a, b):
    return a - b


def view_with(auction, dealer=0, seat=0, turn=0):
    return hw_view_with([(c, 0) for c in auction], dealer, seat, turn)


def glyph(ch):
    g = render.code_of(ch) * GW
    return bytes(font16.FONT[g:g + GW])


def cell(f, i):
    """The 20 bytes the panel holds for cell i of frame f: top page, then bottom page."""
    o = (i // render.WIDTH) * 256 + f.xs[i]
    return bytes(f.buf[o:o + font16.WIDTH]) + bytes(f.buf[o + 128:o + 128 + font16.WIDTH])


def inverted(b):
    """A glyph's bytes drawn inverted: its bottom page whole, its top page from row 2 down
    (render.INV_TOP), so the bar keeps clear of the line above."""
    w = font16.WIDTH
    return bytes(x ^ render.INV_TOP for x in b[:w]) + bytes(x ^ 0xFF for x in b[w:])


def row_text(f, row):
    """A line read back from the pixels, cell by cell, against the font (inverted cells too);
    the two calls of an auction line a space apart."""
    out = ""
    for i in range(row * render.WIDTH, row * render.WIDTH + render.WIDTH):
        if f.slots and row >= 2 and i % render.WIDTH == render.SLOT:
            out += " "
        bits = cell(f, i)
        for g in range(font16.COUNT):
            gb = bytes(font16.FONT[g * GW:g * GW + GW])
            if gb == bits or inverted(gb) == bits:
                out += textview.glyph_char(g)
                break
        else:
            out += "#"  # not a glyph of the font: a broken blit
    return out.rstrip()


def draw(v, ent, now=0, link_up=True):
    f = render.Frame()
    f.draw(v, ent, now, diff, link_up)
    return f


def test_font_has_capitals_digits_the_nordic_letters_and_the_suits_each_its_own():
    assert len(font16.FONT) == font16.COUNT * GW
    seen = set()
    for g in range(font16.COUNT):
        bits = bytes(font16.FONT[g * GW:g * GW + GW])
        assert g == 0 or any(bits), g  # only the space is blank
        seen.add(bits)
    assert len(seen) == font16.COUNT  # no two characters look the same
    # lowercase is shown as capitals (the font's lowercase would be too small at 80 cm)
    for lo, up in (("a", "A"), ("z", "Z"), ("\xe5", "\xc5"), ("\xe4", "\xc4"), ("\xf6", "\xd6"),
                   ("\xe6", "\xc6"), ("\xf8", "\xd8")):
        assert render.code_of(lo) == render.code_of(up) != font16.OTHER, lo
    assert render.code_of("\u2660") == font16.SPADE and render.code_of("\u20ac") == font16.OTHER


def test_the_last_four_calls_in_time_order_with_the_newest_inverted():
    # the table's report: "3D! 1H 2S! P" under W N E S read 1H 2S P 3D in time order, with no
    # mark of the newest. Now: time order left to right and down, the newest bottom right on an
    # inverted bar, each call after its seat's letter
    v = hw_view_with([("P", 0), ("1H", 0), ("2S", V.F_STOP), ("P", 0), ("3D", V.F_STOP)],
                     dealer=0, seat=1, turn=1)
    f = draw(v, E.CallEntry())
    assert row_text(f, 2) == "E 1" + HEART + "   S 2" + SPADE + "!", row_text(f, 2)
    assert row_text(f, 3) == "W P    N 3" + DIAMOND + "!", row_text(f, 3)
    for i in range(3 * render.WIDTH + render.SLOT, 4 * render.WIDTH):
        assert cell(f, i) != glyph(" "), i  # the newest: every cell of its slot inverted
    # the bar starts 2 rows down (its blank cell after the seat letter: page 6 is line 3's top):
    # the calls of the line above keep their gap
    x = render.SLOT_X + font16.WIDTH
    assert (f.buf[6 * 128 + x], f.buf[7 * 128 + x]) == (render.INV_TOP, 0xFF)
    assert cell(f, 3 * render.WIDTH + render.SLOT) == inverted(glyph("N"))
    assert cell(f, 3 * render.WIDTH) == glyph("W")  # the others plain
    # the two calls of a line 8 px apart: nothing drawn between them
    for page in (4, 5, 6, 7):
        assert bytes(f.buf[page * 128 + 60:page * 128 + 68]) == bytes(8)
    assert textview.frame_rows(f)[3] == "W P    N 3" + DIAMOND + "!"


def test_a_state_read_while_the_round_is_composed_does_not_mix_two_rounds():
    # On a bus the draw serves the line between its steps (render.Frame.between), also between
    # the two auction lines; a STATE read there overwrites the calls in place (the view's
    # auction is the STATE body's own bytes). The lines show the calls as they were when the
    # draw began: the next loop turn applies the new STATE and draws it whole.
    v = hw_view_with([("P", 0), ("1H", 0), ("2S", 0), ("P", 0), ("3D", 0)], dealer=0, seat=1, turn=1)
    f = render.Frame()
    seen = []

    def state_read():
        seen.append(1)
        for i in range(v.n):
            v.auction[i] = code("7NT")

    f.between = state_read
    f.draw(v, E.CallEntry(), 0, diff)
    assert seen
    assert row_text(f, 2) == "E 1" + HEART + "   S 2" + SPADE, row_text(f, 2)
    assert row_text(f, 3) == "W P    N 3" + DIAMOND, row_text(f, 3)


def test_the_auction_lines_layout_puts_the_right_call_at_slot_x():
    # the x of every cell, from the layout's two constant tables (render._layout)
    f = render.Frame()
    f.draw(view_with(["1C"]), E.CallEntry(), 0, diff)
    for i in range(render.CELLS):
        c = i % render.WIDTH
        want = render.SLOT_X + font16.WIDTH * (c - render.SLOT) if (
            i >= 2 * render.WIDTH and c >= render.SLOT) else font16.WIDTH * c
        assert f.xs[i] == want, (i, f.xs[i], want)
    f.draw(view_with([]), E.CallEntry(), 0, diff)
    assert not f.slots and list(f.xs) == [font16.WIDTH * (i % render.WIDTH) for i in range(render.CELLS)]


def test_twelve_columns_a_line_and_nothing_beyond():
    v = view_with(["1C"], seat=0, turn=1)
    v.msg = "abcdefghijklmnopqrs"  # longer than a line: cut at 12, never into the next line
    f = draw(v, E.CallEntry())
    assert row_text(f, 1) == "ABCDEFGHIJKL"
    assert cell(f, 2 * render.WIDTH - 1) == glyph("L")


def test_the_call_being_confirmed_is_visible_at_every_auction_length():
    # the longest auction (319 calls: every bid doubled and redoubled), with 3NT selected on
    # the box at each length: the call line always shows it, the newest call is bottom right
    seq = ["P", "P", "P"]
    for b in range(calls.FIRST_BID, calls.COUNT):
        seq += [calls.name(b), "P", "P", "X", "P", "P", "XX", "P", "P"]
    seq.append("P")
    assert len(seq) == 319
    v = view_with([], dealer=0, seat=1, turn=1)
    ent = E.CallEntry()
    ent.press(K.from_token("3"), v, 0, diff)
    ent.press(K.from_token("NT"), v, 0, diff)
    v.lowest = calls.NONE  # whatever the auction: the selection is shown, refused or not
    f = render.Frame()
    for n in range(len(seq) + 1):
        v.n = n
        if n:
            v.auction[n - 1] = code(seq[n - 1])
        f.draw(v, ent, 0, diff)
        assert row_text(f, 1) == "3NT OK?", (n, row_text(f, 1))
        if n:
            last = seq[n - 1]
            for s, g in (("C", CLUB), ("D", DIAMOND), ("H", HEART), ("S", SPADE)):
                last = last.replace(s, g)
            seat = "NESW"[(n - 1) & 3]
            assert row_text(f, 3).endswith(seat + " " + last), (n, row_text(f, 3), last)
    v.sending = code("3NT")  # confirmed: "sending" until the tablet has it
    f.draw(v, ent, 0, diff)
    assert row_text(f, 1) == "3NT SENDING"


def test_stop_prompt_then_the_countdown_on_the_next_box():
    v = view_with(["1C"], dealer=0, seat=1, turn=1)
    v.lowest = code("1D")
    v.stop_jump = True
    ent = E.CallEntry()
    for t in ("3", "H"):
        ent.press(K.from_token(t), v, 0, diff)
    f = draw(v, ent)
    assert row_text(f, 1) == "3" + HEART + " STOP?"  # the regulation wants STOP first
    ent.press(K.STOP, v, 0, diff)  # the STOP card shown: the call stays in sight
    assert row_text(draw(v, ent), 1) == "3" + HEART + " OK?"
    v.stop_deadline = 9000
    f = draw(v, E.CallEntry(), 1000)
    assert row_text(f, 0) == "STOP 8"
    v.stop_deadline = 12000
    assert row_text(draw(v, E.CallEntry(), 1000), 0) == "STOP 11"
    v.stop_deadline = 0
    assert row_text(draw(v, E.CallEntry(), 1000), 0) == "YOUR TURN"


def test_a_refused_call_is_disarmed_and_its_answer_shown_only_while_true():
    # "YOUR TURN" above "NOT YOUR TURN" was the review's finding: a stale answer must go; and a
    # refused call must not stay armed for a later OK
    v = view_with(["1C"], dealer=0, seat=2, turn=1)
    v.prevent = True
    v.has_allowed = False
    ent = E.CallEntry()
    for t in ("1", "H", "OK"):
        ent.press(K.from_token(t), v, 0, diff)
    assert ent.note == E.N_NOT_TURN and ent.sel == calls.NONE
    f = render.Frame()
    f.draw(v, ent, 0, diff)
    assert row_text(f, 0) == "TURN: EAST"
    assert row_text(f, 1) == "OUT OF TURN"
    v.turn = 2  # East passed: now it is South's turn, the answer no longer holds
    v.auction[1] = code("P")
    v.n = 2
    f.draw(v, ent, 0, diff)
    assert row_text(f, 0) == "YOUR TURN"
    assert "TURN" not in row_text(f, 1), row_text(f, 1)


def test_no_link_and_director_and_end_override_the_turn():
    v = view_with(["1C"], dealer=0, seat=1, turn=1)
    assert row_text(draw(v, E.CallEntry(), 0, False), 0) == "NO LINK"
    v.phase = V.FROZEN
    assert row_text(draw(v, E.CallEntry()), 0) == "WAIT FOR TD"
    v.phase = V.ENDED
    assert row_text(draw(v, E.CallEntry()), 0) == "AUCTION OVER"
    v.known = False
    assert row_text(draw(v, E.CallEntry()), 0) == "STARTING"


def test_seat_and_board_when_idle_and_the_dealer_and_vulnerability_before_the_first_call():
    v = view_with([], dealer=1, seat=2, turn=1)  # board 3, East deals, East-West vulnerable
    f = draw(v, E.CallEntry())
    assert row_text(f, 0) == "TURN: EAST"
    assert row_text(f, 1) == "S BOARD 3"
    assert cell(f, render.WIDTH) == inverted(glyph("S"))  # this box's seat, on a bar
    assert row_text(f, 2) == "DEALER EAST"
    assert row_text(f, 3) == "VUL: EW"
    v.auction[0] = code("1C")
    v.n = 1  # the first call: the auction lines take over (their layout changes: redrawn whole)
    v.turn = 2
    assert f.draw(v, E.CallEntry(), 0, diff) & 0xF0 == 0xF0
    assert row_text(f, 2) == ""
    assert row_text(f, 3) == "       E 1" + CLUB


def test_review_pages_four_calls_a_page_from_the_first():
    v = view_with(["1C", "P", "1H", "P", "2H", "P", "P", "P"], dealer=2, seat=0, turn=0)
    v.phase = V.ENDED
    ent = E.CallEntry()
    ent.press(K.REVIEW, v, 0, diff)
    f = draw(v, ent)
    assert row_text(f, 1) == "REVIEW 1/2"
    assert row_text(f, 2) == "S 1" + CLUB + "   W P"  # South dealt: the first call first
    assert row_text(f, 3) == "N 1" + HEART + "   E P"
    ent.press(K.REVIEW, v, 0, diff)
    f = draw(v, ent)
    assert row_text(f, 1) == "REVIEW 2/2"
    assert row_text(f, 2) == "S 2" + HEART + "   W P"


def test_only_the_pages_that_changed_are_marked():
    v = view_with(["1C"], dealer=0, seat=1, turn=1)
    ent = E.CallEntry()
    f = render.Frame()
    assert f.draw(v, ent, 0, diff) == 0xFF  # first picture: every page
    assert f.draw(v, ent, 0, diff) == 0  # nothing changed, nothing to push
    ent.press(K.from_token("2"), v, 0, diff)
    assert f.draw(v, ent, 0, diff) == 0b1100  # the call line: pages 2 and 3
    v.turn = 2
    v.auction[1] = code("P")
    v.n = 2
    assert f.draw(v, ent, 0, diff) == 0b11000011  # status and the line of the newest call
    f.invalidate()
    assert f.draw(v, ent, 0, diff) == 0xFF


def test_the_box_speaks_the_tablets_language():
    # Swedish: N Ö S V, NT; Danish: N Ø S V, PAS, UT; X and XX as the keys say (docs/box-language.md)
    auc = [("1NT", 0), ("X", 0), ("XX", V.F_ALERT), ("P", 0)]
    v = hw_view_with(auc, dealer=0, seat=1, turn=0)
    v.lang = 2
    f = draw(v, E.CallEntry())
    assert row_text(f, 0) == "TUR: NORD"
    assert row_text(f, 2) == "N 1NT  \xd6 X"
    assert row_text(f, 3) == "S XX*  V P"
    assert row_text(f, 1) == "\xd6 BRICKA 3"
    v.lang = 3
    f = draw(v, E.CallEntry())
    assert row_text(f, 2) == "N 1UT  \xd8 X"
    assert row_text(f, 3) == "S XX*  V PAS"
    assert row_text(f, 1) == "\xd8 SPIL 3"
    v.turn = 1
    ent = E.CallEntry()
    ent.press(K.PASS, v, 0, diff)
    f = draw(v, ent)
    assert row_text(f, 0) == "DIN TUR" and row_text(f, 1) == "PAS OK?"
    v.lang = 9  # a language the box does not have: English
    assert row_text(draw(v, ent), 0) == "YOUR TURN"
    v.n = 0
    v.vul = 2
    for lg, dealer, vul in ((2, "GIVARE NORD", "ZON: \xd6V"), (3, "GIVER NORD", "ZONE: \xd8V")):
        v.lang = lg
        f = draw(v, E.CallEntry())
        assert (row_text(f, 2), row_text(f, 3)) == (dealer, vul)


def test_every_answer_to_a_key_fits_its_line_whole():
    v = view_with(["1C"], dealer=0, seat=1, turn=2)
    for lg in range(4):
        v.lang = lg
        for note in range(1, len(render._NOTE_WORD)):
            word = render._NOTE_WORD[note]
            if word == 0xFF:
                continue
            ent = E.CallEntry()
            ent.note = note
            f = draw(v, ent)
            text = T.text(lg, word)
            assert len(text) <= render.WIDTH, text
            assert row_text(f, 1) == "".join(textview.glyph_char(font16.MAP[b]) for b in text)


def test_framebuf_blit_draws_the_same_pixels_as_the_byte_copy():
    # where the native loop does not load, a cell goes through framebuf (C); the byte-for-byte
    # copy is the reference (and what CPython draws): every cell, inverted ones included
    if render.framebuf is None:
        return  # CPython: no framebuf, every Frame copies bytes (the MicroPython run checks)
    v = view_with(["1C", "2D", "P", "3NT", "X"], dealer=1, seat=2, turn=3)
    v.auction[3] |= V.F_ALERT | V.F_STOP
    ent = E.CallEntry()
    ent.press(K.from_token("4"), v, 0, diff)
    fast = render.Frame(native=False)
    ref = render.Frame(native=False)
    ref.lines = None
    for now in (0, 1000):
        assert fast.draw(v, ent, now, diff) == ref.draw(v, ent, now, diff)
        assert fast.buf == ref.buf
        ent.press(K.from_token("NT"), v, now, diff)
        v.auction[4] |= V.F_ALERT


def test_native_cells_draw_the_same_pixels_and_pages_as_the_byte_copy():
    # on the box the changed cells are copied by firmware/blit.py's native code (viper); the
    # byte-for-byte loop is the reference: same pixels, same changed pages and columns
    import sys

    if sys.implementation.name != "micropython":
        assert render._native_cells is None  # CPython has no viper: the loop draws
        return
    assert render._native_cells is not None, "blit.py did not compile to native code"
    v = view_with(["1C", "2D", "P", "3NT", "X"], dealer=1, seat=2, turn=3)
    v.auction[3] |= V.F_ALERT | V.F_STOP
    ent = E.CallEntry()
    nat = render.Frame()
    ref = render.Frame(native=False)
    ref.lines = None
    steps = [("4", 0), ("NT", 1000), ("CLR", 2000), ("P", 3000)]
    for key, now in steps:
        m = nat.draw(v, ent, now, diff)
        assert m == ref.draw(v, ent, now, diff)
        assert nat.buf == ref.buf
        for p in range(8):
            if m >> p & 1:
                assert (nat.lo[p], nat.hi[p]) == (ref.lo[p], ref.hi[p]), p
        ent.press(K.from_token(key), v, now, diff)
        v.auction[4] |= V.F_ALERT
    nat.invalidate()
    ref.invalidate()
    assert nat.draw(v, ent, 0, diff) == ref.draw(v, ent, 0, diff) == 0xFF
    assert nat.buf == ref.buf
    # every status and call line the box composes from fixed texts (native) and from strings
    # (the tablet's message: bytecode), in every language, before and after the first call
    for seat in (0, 3):
        for lg in (1, 2, 3):
            w = view_with(["1S", "P", "2NT"], dealer=3, seat=seat, turn=(seat + 1) & 3)
            w.lang = lg
            e = E.CallEntry()
            for k, (link, phase, stop, msg, key, n) in enumerate((
                    (True, V.AUCTION, 0, "", "REVIEW", 3), (False, V.AUCTION, 0, "", "CLR", 0),
                    (True, V.FROZEN, 0, "", "2", 3), (True, V.ENDED, 0, "4H by N", "CLR", 3),
                    (True, V.AUCTION, 7000, "", "OK", 1), (True, V.AUCTION, 12000, "", "3", 2))):
                w.phase = phase
                w.stop_deadline = stop
                w.msg = msg
                w.n = n
                e.press(K.from_token(key), w, k, diff)
                m = nat.draw(w, e, k, diff, link)
                assert m == ref.draw(w, e, k, diff, link), (seat, lg, k)
                assert nat.buf == ref.buf, (seat, lg, k, row_text(nat, 0), row_text(ref, 0))
