# The panel's picture: 4 lines of 12 cells of the 10 x 16 font (font16), capitals only, in the
# player's language (lang.py), drawn into a preallocated 128x64 frame buffer without allocating,
# telling which 8-pixel pages changed so the push sends only those. The OLED shows it; the unix
# backend's terminal prints its text. Runs only when something changed, never in the idle poll
# loop. The layout and its reasons (legible at 80 cm, one job per line): hardware/display.md.
# (The unix backend's screen file, the whole state as text, is textview.py.)
#
#   line 0  status     YOUR TURN | TURN: EAST | STOP 7 | WAIT FOR TD | AUCTION OVER | NO LINK
#   line 1  call line  4♥ OK? | 4♥ STOP? | 3NT SENDING | INSUFFICIENT | MIN 2♥ | N BOARD 12
#   line 2  the last four calls in time order, two a line: seat letter, call, mark (* alerted,
#   line 3  ! with the STOP card, + both); the newest (bottom right) inverted. Before the first
#           call: DEALER NORTH / VUL: NS.
import calls
import entry as E
import font16
import lang as T
import view as V

try:
    # the changed cells copied in native code (viper): the box's draw in tens of microseconds
    from blit import cells as _native_cells  # type: ignore[attr-defined]  # defined by exec on the box
    from blit import text as _native_text  # type: ignore[attr-defined]
except (ImportError, ValueError, NameError, SyntaxError):
    # CPython (tests, the emulator's screen reader: no `micropython`), a port without native
    # code, an .mpy compiled for another architecture (ValueError): the loops below
    _native_cells = None
    _native_text = None
try:
    import framebuf
except ImportError:  # CPython: cells copied in Python
    framebuf = None  # type: ignore[assignment]

WIDTH = 12  # cells a line: 128 px / 10 px, 8 px to spare (the gap between two calls of a line)
ROWS = 4    # 64 px / 16 px
CELLS = ROWS * WIDTH
CW = font16.WIDTH  # a cell's width in pixels
SLOT = 6    # the cells of a call in the auction lines: seat letter, space, call (3), mark
SLOT_X = 68  # the right call of an auction line starts here: 8 px after the left one's end
INV = 0x80  # a cell's code with this bit is drawn inverted: rows 2-15 of the cell (its top page
INV_TOP = 0xFC  # xor'ed with this): the bar keeps 2 rows clear of the line above, whose capitals
            # end on their cell's last row
_BLANK = bytes(CELLS)  # all cells " " (code 0): one slice store clears the lines
_UNSHOWN = b"\xff" * (2 * WIDTH)  # the auction lines' cells as never drawn (_layout)
# the x of each cell (_layout): the text layout, 10 px apart; and with the auction lines
# holding two calls of SLOT cells each, the right one from SLOT_X
_XS_TEXT = bytes(CW * (i % WIDTH) for i in range(CELLS))
_XS_SLOTS = bytes(SLOT_X + CW * (i % WIDTH - SLOT) if i >= 2 * WIDTH and i % WIDTH >= SLOT
                  else CW * (i % WIDTH) for i in range(CELLS))
_OK = b" OK?"
_DASHES = b"--"
# the word of each entry note (entry.N_*), 0xFF: none shown
_NOTE_WORD = bytes((0xFF, T.LEVEL_FIRST, T.SELECT, T.OUT_OF_TURN, T.INSUFFICIENT, T.NOT_ALLOWED,
                    T.STOP_WAIT, T.NOT_NOW, 0xFF, T.STOP_SHOWN, T.ALERTED, T.MISTAKE,
                    T.TD_CALLED, 0xFF, T.WAIT, T.WAIT))
# marks after a call in the auction: none, alerted, stop card, both
_MARKS = b" *!+"


def code_of(ch):
    """font16 code of a character (an int from Latin-1 bytes, or a one-character str)."""
    c = ch if type(ch) is int else ord(ch)
    if c < 256:
        return font16.MAP[c]
    i = font16.SUITS.find(chr(c))
    return font16.CLUB + i if i >= 0 else font16.OTHER


class Frame:
    """The 128x64 picture: 4 lines of 12 cells of the 10 x 16 font, drawn into `buf` (MONO_VLSB,
    the SSD1306's page layout: page p is buf[128 p:128 p + 128], bit 0 its top row), which may
    be the display driver's own buffer. draw() allocates nothing: the lines are composed as
    font codes into a preallocated array and only cells whose code changed are copied from the
    font (in native code where the box compiled it, else by framebuf or byte for byte). Cell i
    is drawn at x = xs[i] of its line: 10 px apart, and in the auction lines, when they hold
    calls, two calls of 6 cells each at x 0 and SLOT_X."""

    def __init__(self, buf=None, native=True):
        """native=False: the bytecode loop even where blit's native code loads (tests)."""
        self.buf = bytearray(128 * 64 // 8) if buf is None else buf
        self.native = _native_cells if native else None
        self.ntext = _native_text if native else None
        self.font = memoryview(font16.FONT)
        self.map = font16.MAP
        self.tx = T.TEXTS[0]  # the texts of the language being drawn (draw() sets them)
        self.at = T.AT[0]
        self.want = bytearray(CELLS)
        self.shown = bytearray(CELLS)
        self.xs = bytearray(CELLS)
        self.four = bytearray(4)  # the calls the auction lines show, copied from the STATE (draw)
        self.fresh = 0xFF  # pages to report whole at the next draw (invalidate)
        # the auction lines' four pages, cleared in C when their layout changes (_layout): a
        # loop over the 512 bytes took about 4 ms on the chip, longer than a grant may wait
        # for its reply on a bus (SPEC.md section 1)
        self.lower = (framebuf.FrameBuffer(memoryview(self.buf)[512:1024], 128, 4, framebuf.GS8)
                      if framebuf is not None else None)
        self.slots = True
        self._layout(False)
        # per 8-pixel page, the first and last pixel column the last draw() changed
        self.lo = bytearray(8)
        self.hi = bytearray(8)
        self.lines = None
        self.between = None  # called between the parts of a draw (on a bus: the line served)
        if framebuf is not None and self.native is None:
            # framebuf's blit copies a cell in C. Seen as GS8 (one byte a pixel), the font is a
            # picture CW wide whose rows 2 g and 2 g + 1 are glyph g's top and bottom page, and
            # a line of cells is a picture 128 wide and 2 high (its two pages): a glyph goes in
            # at y = -2 g and the line's clipping keeps just its bytes.
            self.fontfb = framebuf.FrameBuffer(_writable(font16.FONT), CW, 2 * font16.COUNT,
                                               framebuf.GS8)
            mv = memoryview(self.buf)
            self.lines = [framebuf.FrameBuffer(mv[256 * r:256 * r + 256], 128, 2, framebuf.GS8)
                          for r in range(ROWS)]
        self.invalidate()

    def invalidate(self):
        """Draw every cell at the next draw() (the buffer was cleared or is not what we drew),
        and report every page whole: the columns right of the last cell are no cell's, and a
        panel just powered up holds anything there."""
        for i in range(CELLS):
            self.shown[i] = 0xFF
        self.fresh = 0xFF

    def _layout(self, slots):
        """The x of each cell: the auction lines hold two calls each (slots) or a text. A
        change clears those lines' pages (the gap between the calls is no cell's) and draws
        their cells again. Returns the mask of the pages cleared."""
        if slots == self.slots:
            return 0
        self.slots = slots
        # slice stores from constants, in C: the loops over the cells took about 3 ms on the
        # chip, longer than a grant may wait on a bus (app.BoxApp.serve)
        self.xs[:] = _XS_SLOTS if slots else _XS_TEXT
        if self.lower is not None:
            self.lower.fill(0)
        else:
            b = self.buf
            for i in range(512, 1024):
                b[i] = 0
        self.shown[2 * WIDTH:] = _UNSHOWN
        return 0xF0

    # -- composing (font codes into self.want) -------------------------------------------------
    def _text(self, pos, s, inv=0, start=0, stop=-1):
        """s[start:stop] (bytes: Latin-1; or a str) from cell pos, cut at the line's end;
        returns the cell after it."""
        end = pos - pos % WIDTH + WIDTH  # a line never runs into the next: what does not fit is cut
        if stop < 0:
            stop = len(s)
        if self.ntext is not None and type(s) is bytes:
            return self.ntext(self.want, pos, end, s, inv, self.map, start, stop)  # fixed texts
        w = self.want
        m = self.map
        for k in range(start, stop):
            if pos >= end:
                break
            ch = s[k]
            w[pos] = (m[ch] if type(ch) is int else code_of(ch)) | inv
            pos += 1
        return pos

    def _say(self, pos, i, inv=0):
        """Text i of the language draw() set (lang.py) from cell pos: a run of that language's
        one bytes constant, no slice made (straight to the native loop: a draw says up to 8)."""
        at = self.at
        if self.ntext is not None:
            return self.ntext(self.want, pos, pos - pos % WIDTH + WIDTH, self.tx, inv, self.map,
                              at[i], at[i + 1] - 1)
        return self._text(pos, self.tx, inv, at[i], at[i + 1] - 1)

    def _num(self, pos, n):
        if n >= 10:
            pos = self._num(pos, n // 10)
        self.want[pos] = 16 + n % 10  # "0" is ASCII 48: code 16
        return pos + 1

    def _call(self, pos, c, lg, inv=0, cell=False):
        w = self.want
        if c == calls.HIDDEN:
            return self._text(pos, _DASHES, inv)
        if c == calls.PASS:
            return self._say(pos, T.PASS_CELL if cell else T.PASS, inv)
        if c == calls.DOUBLE:
            return self._say(pos, T.DOUBLE, inv)
        if c == calls.REDOUBLE:
            return self._say(pos, T.REDOUBLE, inv)
        if not calls.is_bid(c):
            w[pos] = font16.OTHER | inv
            return pos + 1
        w[pos] = (16 + calls.level(c)) | inv
        d = calls.denom(c)
        if d == 4:
            return self._say(pos + 1, T.NT, inv)
        w[pos + 1] = (font16.CLUB + d) | inv
        return pos + 2

    def _slot(self, pos, view, i, inv, lg):
        """Call i of the auction (its byte the (i & 3)-th of `four`: draw copied the four calls
        the lines show) in the 6 cells from pos: its seat's letter, the call, its mark."""
        f = self.four[i & 3]
        w = self.want
        if inv:
            for k in range(pos, pos + SLOT):
                w[k] = INV  # the newest: a bar the width of the slot
        w[pos] = self.map[T.LETTERS[lg][(view.dealer + i) & 3]] | inv
        p = self._call(pos + 2, f & V.CALL_MASK, lg, inv, True)
        m = (1 if f & V.F_ALERT else 0) + (2 if f & V.F_STOP else 0)
        if m:
            w[p] = self.map[_MARKS[m]] | inv

    def _status(self, view, now, ticks_diff, link_up, version_error, lg):
        if version_error:
            return self._say(0, T.UPDATE)  # the tablet speaks no protocol version we know
        if not view.known:
            return self._say(0, T.STARTING)
        if not link_up:
            return self._say(0, T.NO_LINK)  # never "YOUR TURN" on a box the tablet cannot hear
        if view.phase == V.WAITING:
            return self._say(0, T.NO_BOARD)
        if view.phase == V.ENDED:
            return self._say(0, T.OVER)
        if view.phase == V.FROZEN:
            return self._say(0, T.TD_WAIT)
        left = view.stop_left_ms(now, ticks_diff)
        if left > 0 and view.turn < 4:
            # this box's own wait (the STATE's stop_ms is for this seat): the seconds left
            return self._num(self._say(0, T.STOP), (left + 999) // 1000)
        if view.turn == view.seat:
            return self._say(0, T.YOUR_TURN)
        if view.turn < 4:
            return self._say(self._say(0, T.TURN), T.SEAT + view.turn)
        return 0

    def _note(self, view, ent):
        """The word answering the last key, while it is still true, else 0xFF."""
        n = ent.note
        if n == E.N_NOT_TURN and view.my_turn():
            return 0xFF  # a stale "out of turn" must never stand under "YOUR TURN"
        if (n == E.N_LEVEL_FIRST or n == E.N_SELECT_FIRST) and ent.sel != calls.NONE:
            return 0xFF
        return _NOTE_WORD[n] if n < len(_NOTE_WORD) else 0xFF

    def _call_line(self, view, ent, lg):
        p = WIDTH
        if view.sending != calls.NONE:
            # the call being confirmed stays in sight until the tablet has it
            return self._say(self._call(p, view.sending, lg), T.SENDING)
        if ent.sel != calls.NONE:
            q = self._call(p, ent.sel, lg)
            if (view.lowest != calls.NONE and not ent.stop_given
                    and calls.stop_due(ent.sel, view.lowest, view.stop_jump, view.stop_opening2)):
                return self._say(q, T.STOP_Q)  # STOP first (the regulation's trigger)
            return self._text(q, _OK)
        if ent.level:
            self.want[p] = 16 + ent.level
            self.want[p + 1] = 63  # "_": the denomination comes next
            return p + 2
        word = self._note(view, ent)
        if word != 0xFF:
            return self._say(p, word)
        if ent.review and view.n:
            rows = (view.n + 3) // 4
            page = ent.review_page % rows + 1
            need = (2 if page >= 10 else 1) + (2 if rows >= 10 else 1) + 1
            at = self.at
            if at[T.REVIEW + 1] - 1 - at[T.REVIEW] + need <= WIDTH:  # else the pages alone:
                p = self._say(p, T.REVIEW)                      # "10/12" cut is no use
            q = self._num(p, page)
            self.want[q] = 15  # "/"
            return self._num(q + 1, rows)
        if view.msg:
            return self._text(p, view.msg)
        if view.my_turn() and calls.is_bid(view.lowest) and view.lowest != calls.FIRST_BID:
            return self._call(self._say(p, T.MIN), view.lowest, lg)
        # nothing to do on this box: its seat and the board
        self.want[p] = (self.map[T.LETTERS[lg][view.seat]] if view.seat < 4 else 31) | INV
        if not (view.known and view.board):
            return p + 1
        return self._num(self._say(p + 2, T.BOARD), view.board)

    def _auction(self, view, ent, lg):
        n = view.n
        if not n:
            # before the first call: who deals, who is vulnerable (the board's own marks)
            if view.known and view.board:
                self._say(self._say(2 * WIDTH, T.DEALER), T.SEAT + (view.dealer & 3))
                self._say(self._say(3 * WIDTH, T.VUL), T.VUL_NAME + (view.vul & 3))
            return False
        if ent.review:
            # REVIEW (Law 20B): the auction four calls a page, from the first, in time order
            first = (ent.review_page % ((n + 3) // 4)) * 4
        else:
            # the last four calls in time order, left to right and down: the newest bottom
            # right, inverted (it is the one the player in turn answers)
            first = n - 4
        # the four calls' bytes first: the STATE's own, which a STATE read by `between` (on a
        # bus: the line served) overwrites, and the line is served between the two lines
        # (composing the four took longer on the chip than a grant may wait)
        a = view.auction
        four = self.four
        for s in range(4):
            i = first + s
            four[i & 3] = a[i] if 0 <= i < n else 0
        for s in range(4):
            i = first + s
            if s == 2 and self.between is not None:
                self.between()
            if 0 <= i < n:
                self._slot(2 * WIDTH + (s >> 1) * WIDTH + (s & 1) * SLOT, view, i,
                           INV if i == n - 1 else 0, lg)
        return True

    # -- drawing ---------------------------------------------------------------------------
    def draw(self, view, ent, now, ticks_diff, link_up=True, version_error=False):
        """Compose the 4 lines and draw the cells that changed. Returns the mask of the frame's
        8-pixel pages that changed (bit p: page p), with their changed columns in lo/hi: the
        display need push only those."""
        lg = T.of(view.lang)
        self.tx = T.TEXTS[lg]  # the language's texts, for _say
        self.at = T.AT[lg]
        w = self.want
        w[:] = _BLANK
        # the auction lines first: they copy the calls from the STATE's own bytes, which a
        # STATE read by `between` (on a bus: the line served) overwrites; the other lines read
        # the view's fields, which only the next apply changes (the lines write disjoint
        # cells). The line is served between the steps of a draw (the two auction lines, their
        # layout, the other two, the cells copied): together they took longer on the chip than
        # a grant may wait (3 ms: app.BoxApp.serve)
        slots = self._auction(view, ent, lg)
        if self.between is not None:
            self.between()
        cleared = self._layout(slots) | self.fresh
        if self.between is not None:
            self.between()
        self._status(view, now, ticks_diff, link_up, version_error, lg)
        self._call_line(view, ent, lg)
        if self.between is not None:
            self.between()
        self.fresh = 0
        if w == self.shown and not cleared:
            return 0
        if self.native is not None:
            mask = self.native(self)
        else:
            mask = self._cells()
        if self.between is not None:
            self.between()
        for p in range(8):
            if cleared >> p & 1:
                self.lo[p] = 0
                self.hi[p] = 127
        return mask | cleared

    def _cells(self):
        w = self.want
        shown = self.shown
        lo = self.lo
        hi = self.hi
        mask = 0
        for i in range(CELLS):
            c = w[i]
            if c != shown[i]:
                shown[i] = c
                self._blit(i, c)
                p = (i // WIDTH) << 1  # line r is pages 2r and 2r + 1
                x = self.xs[i]
                if not mask >> p & 1:
                    lo[p] = x
                    lo[p + 1] = x
                hi[p] = x + CW - 1
                hi[p + 1] = x + CW - 1
                mask |= 3 << p
        return mask

    def _blit(self, i, c):
        r = i // WIDTH
        x = self.xs[i]
        if self.lines is not None and not c & INV:
            # (an inverted cell, a few a picture, goes byte by byte: its two pages differ)
            self.lines[r].blit(self.fontfb, x, -((c & 0x7F) << 1))
            return
        buf = self.buf
        f = self.font
        g = (c & 0x7F) * 2 * CW
        o = (r << 8) + x  # line r is pages 2r and 2r + 1
        inv = 0xFF if c & INV else 0
        top = INV_TOP if c & INV else 0
        for k in range(CW):
            buf[o + k] = f[g + k] ^ top
            buf[o + 128 + k] = f[g + CW + k] ^ inv


def _writable(b):
    """b as a bytearray (framebuf takes no bytes): on MicroPython an alias of the constant's
    own memory, so the font is not copied to the heap (framebuf only reads it), else a copy."""
    try:
        import uctypes

        return uctypes.bytearray_at(uctypes.addressof(b), len(b))
    except (ImportError, TypeError, AttributeError):
        return bytearray(b)
