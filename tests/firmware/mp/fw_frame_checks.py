# The panel's picture (render.Frame, the 8x16 font), checked on its pixels: what the player sees
# on the 2.42" OLED, on MicroPython and CPython alike.
import calls
import entry as E
import font16
import keys as K
import render
import textview
import view as V
from fw_hw_checks import view_with as hw_view_with

from protocol.calls import code


def diff(a, b):
    return a - b


def view_with(auction, dealer=0, seat=0, turn=0):
    return hw_view_with([(c, 0) for c in auction], dealer, seat, turn)


def glyph(ch):
    g = render.code_of(ch) * 16
    return bytes(font16.FONT[g:g + 16])


def cell(buf, row, col):
    """The 16 bytes the panel holds for the cell at (row, col): top page, then bottom page."""
    o = row * 256 + col * 8
    return bytes(buf[o:o + 8]) + bytes(buf[o + 128:o + 136])


def row_text(buf, row):
    """Read a line back from the pixels, cell by cell, against the font (inverted cells too)."""
    out = ""
    for col in range(16):
        bits = cell(buf, row, col)
        inv = bytes(b ^ 0xFF for b in bits)
        for g in range(font16.COUNT):
            gb = bytes(font16.FONT[g * 16:g * 16 + 16])
            if gb == bits or gb == inv:
                out += chr(g + 32) if g < 95 else font16.SUITS[g - 95] if g < 99 else "?"
                break
        else:
            out += "#"  # not a glyph of the font: a broken blit
    return out.rstrip()


HEART = font16.SUITS[2]


def draw(v, ent, now=0, link_up=True):
    f = render.Frame()
    f.draw(v, ent, now, diff, link_up)
    return f


def test_font_has_the_suits_and_every_printable_ascii_character():
    assert len(font16.FONT) == font16.COUNT * 16
    seen = set()
    for g in range(font16.COUNT):
        bits = bytes(font16.FONT[g * 16:g * 16 + 16])
        assert g == 0 or any(bits), g  # only the space is blank
        seen.add(bits)
    assert len(seen) == font16.COUNT  # no two characters look the same


def test_the_suit_glyph_of_a_bid_is_drawn_in_its_seats_cell():
    # West deals 2H: the latest round shows it in the first column (the tablet's W N E S)
    v = view_with(["2H"], dealer=3, seat=0, turn=0)
    f = draw(v, E.CallEntry())
    assert cell(f.buf, 3, 0) == glyph("2")
    assert cell(f.buf, 3, 1) == glyph(HEART)
    assert row_text(f.buf, 2) == "W   N   E   S"
    assert row_text(f.buf, 3) == "2" + HEART
    # North deals 3NT, East doubles, South redoubles: N E S columns, W's still empty
    v = view_with(["3NT", "X", "XX"], dealer=0, seat=3, turn=3)
    f = draw(v, E.CallEntry())
    assert row_text(f.buf, 3) == "    3NT X   XX", row_text(f.buf, 3)


def test_sixteen_columns_a_line_and_nothing_beyond():
    v = view_with([], seat=0, turn=0)
    v.msg = "ABCDEFGHIJKLMNOPQRS"  # longer than a line: cut at 16, never into the next line
    f = draw(v, E.CallEntry())
    assert cell(f.buf, 1, 15) == glyph("P")
    assert row_text(f.buf, 1) == "ABCDEFGHIJKLMNOP"
    assert row_text(f.buf, 2) == "W   N   E   S"


def test_the_call_being_confirmed_is_visible_at_every_auction_length():
    # the longest auction (319 calls: every bid doubled and redoubled), with 3NT selected on
    # the box at each length: the call line always shows it, the latest round the last call
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
        assert row_text(f.buf, 1) == "> 3NT OK?", (n, row_text(f.buf, 1))
        if n:
            last = seq[n - 1]
            last = "P" if last == "P" else last.replace("H", HEART)
            col = (v.dealer + n - 1 + 1) & 3
            shown = row_text(f.buf, 3)[4 * col:4 * col + 4].strip()
            assert shown == last or last[1:] in "CDS" and shown[0] == last[0], (n, shown, last)
    v.sending = code("3NT")  # confirmed: "sending" until the tablet has it
    f.draw(v, ent, 0, diff)
    assert row_text(f.buf, 1) == "> 3NT sending"


def test_stop_keeps_the_selection_and_the_countdown_on_screen():
    v = view_with(["1C"], dealer=0, seat=1, turn=1)
    v.lowest = code("1D")
    v.stop_jump = True
    ent = E.CallEntry()
    for t in ("3", "H"):
        ent.press(K.from_token(t), v, 0, diff)
    f = draw(v, ent)
    assert row_text(f.buf, 1) == "> 3" + HEART + " OK? STOP?"
    ent.press(K.STOP, v, 0, diff)  # the STOP card shown: the call stays in sight
    v.stop_deadline = 9000
    f = draw(v, ent, 1000)
    assert row_text(f.buf, 0) == "STOP 8 YOUR TURN"
    assert row_text(f.buf, 1) == "> 3" + HEART + " OK?"
    v.stop_deadline = 12000
    f = draw(v, ent, 1000)
    assert row_text(f.buf, 0) == "STOP11 YOUR TURN"  # 16 characters: nothing clipped
    v.turn = 2
    v.stop_deadline = 12000
    assert row_text(draw(v, ent, 1000).buf, 0) == "STOP11 S to call"


def test_a_refusal_is_shown_only_while_it_is_true():
    # "YOUR TURN" above "NOT YOUR TURN" was the review's finding: a stale note must go
    v = view_with(["1C"], dealer=0, seat=2, turn=1)
    v.prevent = True
    v.has_allowed = False
    ent = E.CallEntry()
    for t in ("1", "H", "OK"):
        ent.press(K.from_token(t), v, 0, diff)
    assert ent.note == E.N_NOT_TURN
    f = render.Frame()
    f.draw(v, ent, 0, diff)
    assert row_text(f.buf, 0) == "NOT YOUR TURN"
    assert row_text(f.buf, 1) == "> 1" + HEART + " OK?"  # the selection stays in sight
    v.turn = 2  # East passed: now it is South's turn, the note no longer holds
    v.auction[1] = code("P")
    v.n = 2
    f.draw(v, ent, 0, diff)
    assert row_text(f.buf, 0) == "YOUR TURN"
    assert "NOT" not in row_text(f.buf, 1)


def test_no_link_and_director_and_end_override_the_turn():
    v = view_with(["1C"], dealer=0, seat=1, turn=1)
    assert row_text(draw(v, E.CallEntry(), 0, False).buf, 0) == "NO LINK"
    v.phase = V.FROZEN
    assert row_text(draw(v, E.CallEntry()).buf, 0) == "DIRECTOR: wait"
    v.phase = V.ENDED
    assert row_text(draw(v, E.CallEntry()).buf, 0) == "AUCTION OVER"
    v.known = False
    assert row_text(draw(v, E.CallEntry()).buf, 0) == "wait for tablet"


def test_board_line_own_column_and_alerts_inverted():
    v = view_with(["1C", "2D"], dealer=1, seat=2, turn=3)
    v.auction[1] |= V.F_ALERT | V.F_STOP
    f = draw(v, E.CallEntry())
    assert row_text(f.buf, 0) == "W to call"
    assert row_text(f.buf, 1) == "S Bd3 DE VEW"
    assert cell(f.buf, 2, 12) == bytes(b ^ 0xFF for b in glyph("S"))  # this box's column,
    assert cell(f.buf, 2, 11) == cell(f.buf, 2, 13) == b"\xff" * 16  # on a bar 3 cells wide
    assert cell(f.buf, 2, 10) == b"\x00" * 16
    assert cell(f.buf, 3, 12) == bytes(b ^ 0xFF for b in glyph("2"))  # S's alerted 2D
    assert row_text(f.buf, 3) == "        1" + font16.SUITS[0] + "  2" + font16.SUITS[1] + "!"


def test_review_pages_through_the_rounds():
    v = view_with(["1C", "P", "1H", "P", "2H", "P", "P", "P"], dealer=2, seat=0, turn=0)
    v.phase = V.ENDED
    ent = E.CallEntry()
    ent.press(K.REVIEW, v, 0, diff)
    f = draw(v, ent)
    assert row_text(f.buf, 1) == "review 1/3"
    assert row_text(f.buf, 3) == "            1" + font16.SUITS[0]  # South dealt: last column
    ent.press(K.REVIEW, v, 0, diff)
    f = draw(v, ent)
    assert row_text(f.buf, 1) == "review 2/3"
    assert row_text(f.buf, 3) == "P   1" + HEART + "  P   2" + HEART


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
    assert f.draw(v, ent, 0, diff) == 0b11000011  # status and the latest round
    f.invalidate()
    assert f.draw(v, ent, 0, diff) == 0xFF


def test_terminal_rows_show_the_same_suits():
    v = view_with(["1S", "P", "4S"], dealer=0, seat=2, turn=3)
    rows = textview.frame_rows(draw(v, E.CallEntry()))
    assert rows[3] == "    1" + font16.SUITS[3] + "  P   4" + font16.SUITS[3], rows
    assert rows[0] == "W to call"


def test_every_note_fits_its_line_whole():
    # a refusal on the status line, an acknowledgement on the call line: never cut at 16
    v = view_with(["1C"], dealer=0, seat=1, turn=2)
    for note in render._ROW0_NOTES + render._ROW1_NOTES:
        ent = E.CallEntry()
        ent.note = note
        if note in (E.N_INSUFFICIENT, E.N_NOT_ALLOWED):
            ent.sel = calls.PASS  # shown only while the refused selection is there
        f = draw(v, ent)
        text = E.NOTES[note]
        assert len(text) <= 16, text
        assert text in (row_text(f.buf, 0), row_text(f.buf, 1)), (text, row_text(f.buf, 0))


def test_framebuf_blit_draws_the_same_pixels_as_the_byte_copy():
    # on the box a cell goes through framebuf (C); the byte-for-byte copy is the reference (and
    # what CPython draws): every cell, inverted ones included, must come out the same
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
    # (the tablet's message, the notes: bytecode), and another seat's header line
    for seat in (0, 3):
        w = view_with(["1S", "P", "2NT"], dealer=3, seat=seat, turn=(seat + 1) & 3)
        e = E.CallEntry()
        for k, (link, phase, stop, msg, key) in enumerate((
                (True, V.AUCTION, 0, "", "REVIEW"), (False, V.AUCTION, 0, "", "CLR"),
                (True, V.FROZEN, 0, "", "2"), (True, V.ENDED, 0, "4H by N", "CLR"),
                (True, V.AUCTION, 7000, "", "OK"), (True, V.AUCTION, 12000, "", "3"))):
            w.phase = phase
            w.stop_deadline = stop
            w.msg = msg
            e.press(K.from_token(key), w, k, diff)
            m = nat.draw(w, e, k, diff, link)
            assert m == ref.draw(w, e, k, diff, link), (seat, k)
            assert nat.buf == ref.buf, (seat, k, row_text(nat.buf, 0), row_text(ref.buf, 0))
