# The panel's picture: 4 lines of 16 characters in the 8x16 font (font16), drawn into a
# preallocated 128x64 frame buffer without allocating, telling which 8-pixel pages changed so the
# push sends only those. The OLED shows it; the unix backend's terminal prints its text. Runs only
# when something changed, never in the idle poll loop. The layout and its reasons:
# hardware/display.md. (The unix backend's screen file, the whole state as text, is textview.py.)
import calls
import entry as E
import font16
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

WIDTH = 16  # 128 px / 8 px per character
VULS = ("-", "NS", "EW", "All")


# -- the panel's picture -------------------------------------------------------------------------
ROWS = 4  # 64 px / 16 px
CELLS = ROWS * WIDTH
INV = 0x80  # a cell's code with this bit is drawn inverted (white on black's opposite)
_SP = 0     # font16 code of " "
_BLANK = bytes(CELLS)  # all cells " ": one slice store clears the lines
_PASS = b"Pass"
_NT = b"NT"
_HEAD = b"W   N   E   S"
_STATUS = (b"wait for tablet", b"wait for board", b"AUCTION OVER", b"DIRECTOR: wait",
           b"YOUR TURN", b" to call", b"STOP ", b"NO LINK", b"update firmware", b" OK?",
           b" STOP?", b" sending", b"> ", b" Bd", b" D", b" V", b"review ", b"min ")
# notes that answer a key the state may still refuse: shown on the status line while still true
_ROW0_NOTES = (E.N_LEVEL_FIRST, E.N_SELECT_FIRST, E.N_NOT_TURN, E.N_INSUFFICIENT,
               E.N_NOT_ALLOWED)
# notes that report a key that was acted on: shown on the call line while nothing is selected
_ROW1_NOTES = (E.N_STOP_SENT, E.N_ALERT_SENT, E.N_UNDO_SENT, E.N_TD_SENT, E.N_QUEUE_FULL)


def code_of(ch):
    """font16 code of a character (an int from bytes, or a one-character str)."""
    c = ch if type(ch) is int else ord(ch)
    if 32 <= c < 127:
        return c - 32
    i = font16.SUITS.find(chr(c)) if c > 255 else -1
    return font16.CLUB + i if i >= 0 else font16.OTHER


class Frame:
    """The 128x64 picture: 4 lines of 16 cells of the 8x16 font, drawn into `buf` (MONO_VLSB,
    the SSD1306's page layout: page p is buf[128 p:128 p + 128], bit 0 its top row), which may
    be the display driver's own buffer. draw() allocates nothing: the lines are composed as
    font codes into a preallocated array and only cells whose code changed are copied from the
    font (by framebuf where there is one, else byte for byte)."""

    def __init__(self, buf=None, native=True):
        """native=False: the bytecode loop even where blit's native code loads (tests)."""
        self.buf = bytearray(128 * 64 // 8) if buf is None else buf
        self.native = _native_cells if native else None
        self.ntext = _native_text if native else None
        self.head = bytearray(WIDTH)  # line 2, the seats W N E S with this box's own inverted
        self.head_seat = -1  # ... for this seat (it never changes: composed once)
        self.font = memoryview(font16.FONT)
        self.want = bytearray(CELLS)
        self.shown = bytearray(CELLS)
        # per 8-pixel page, the first and last pixel column the last draw() changed: a new call
        # changes a cell or two of a line, and only those columns need go over I2C
        self.lo = bytearray(8)
        self.hi = bytearray(8)
        self.lines = None
        if framebuf is not None and self.native is None:
            # framebuf's blit copies a cell in C, about 7 times faster than 16 byte stores in
            # Python on the chip. Seen as GS8 (one byte a pixel), the font is a picture 8 wide
            # whose rows 2 g and 2 g + 1 are glyph g's top and bottom page, and a line of cells
            # is a picture 128 wide and 2 high (its two pages): a glyph goes in at y = -2 g and
            # the line's clipping keeps just its 16 bytes. (As MONO_VLSB pixels a cell would be
            # 128 pixel copies instead of 16.) An inverted cell goes through a palette that maps
            # each byte to its complement.
            self.fontfb = framebuf.FrameBuffer(_writable(font16.FONT), 8, 2 * font16.COUNT,
                                               framebuf.GS8)
            mv = memoryview(self.buf)
            self.lines = [framebuf.FrameBuffer(mv[256 * r:256 * r + 256], 128, 2, framebuf.GS8)
                          for r in range(ROWS)]
            inv = bytearray(256)
            for i in range(256):
                inv[i] = i ^ 0xFF
            self.inv = framebuf.FrameBuffer(inv, 256, 1, framebuf.GS8)
        self.invalidate()

    def invalidate(self):
        """Draw every cell at the next draw() (the buffer was cleared or is not what we drew)."""
        for i in range(CELLS):
            self.shown[i] = 0xFF

    # -- composing (font codes into self.want) -------------------------------------------------
    def _text(self, pos, s, inv=0):
        if self.ntext is not None and type(s) is bytes:
            return self.ntext(self.want, pos, s, inv)  # every fixed text: in native code
        end = (pos | 15) + 1  # a line never runs into the next: what does not fit is cut
        w = self.want
        for ch in s:
            if pos >= end:
                break
            # printable ASCII from bytes (every fixed text) without a call: a call a character
            # is a good part of composing the lines on the chip
            if type(ch) is int and 32 <= ch < 127:
                w[pos] = (ch - 32) | inv
            else:
                w[pos] = code_of(ch) | inv
            pos += 1
        return pos

    def _num(self, pos, n):
        if n >= 10:
            pos = self._num(pos, n // 10)
        self.want[pos] = 16 + n % 10  # "0" is ASCII 48: code 16
        return pos + 1

    def _call(self, pos, c, inv=0, short=False):
        w = self.want
        if c == calls.HIDDEN:
            return self._text(pos, b"--", inv)
        if c == calls.PASS:
            # in the 4-character auction cells "Pass" would run into the next call
            return self._text(pos, b"P" if short else _PASS, inv)
        if c == calls.DOUBLE or c == calls.REDOUBLE:
            w[pos] = code_of(88) | inv  # X
            if c == calls.REDOUBLE:
                w[pos + 1] = code_of(88) | inv
                return pos + 2
            return pos + 1
        if not calls.is_bid(c):
            w[pos] = font16.OTHER
            return pos + 1
        w[pos] = (16 + calls.level(c)) | inv
        d = calls.denom(c)
        if d == 4:
            return self._text(pos + 1, _NT, inv)
        w[pos + 1] = (font16.CLUB + d) | inv
        return pos + 2

    def _cell(self, pos, f):
        # an alerted call is drawn inverted, as the alert card stands out; "!" after a bid made
        # with the STOP card
        inv = INV if f & V.F_ALERT else 0
        p = self._call(pos, f & V.CALL_MASK, inv, True)
        if f & V.F_STOP and p < (pos | 15) + 1:
            self.want[p] = code_of(33) | inv

    def _status(self, view, ent, now, ticks_diff, link_up, version_error):
        t = _STATUS
        if version_error:
            return self._text(0, t[8])  # the tablet speaks no protocol version we know
        if not view.known:
            return self._text(0, t[0])
        if not link_up:
            return self._text(0, t[7])  # never "YOUR TURN" on a box the tablet cannot hear
        if view.phase == V.WAITING:
            return self._text(0, t[1])
        if view.phase == V.ENDED:
            return self._text(0, t[2])
        if view.phase == V.FROZEN:
            return self._text(0, t[3])
        note = ent.note
        if note in _ROW0_NOTES:
            # the answer to the key just pressed, as long as it is still true (a stale "NOT YOUR
            # TURN" under a new turn would contradict the state)
            sel = ent.sel != calls.NONE
            if ((note == E.N_NOT_TURN and not view.my_turn())
                    or (note == E.N_INSUFFICIENT or note == E.N_NOT_ALLOWED) and sel
                    or (note == E.N_LEVEL_FIRST or note == E.N_SELECT_FIRST) and not sel):
                return self._text(0, E.NOTES[note])
        left = view.stop_left_ms(now, ticks_diff)
        p = 0
        if left > 0 and view.turn < 4:
            secs = (left + 999) // 1000
            # "STOP 7 YOUR TURN" is 16: from 10 s on the space after STOP goes
            p = self._num(self._text(0, t[6]) - (secs >= 10), secs) + 1
        if view.turn == view.seat:
            return self._text(p, t[4])
        if view.turn < 4:
            self.want[p] = code_of(V.SEATS[view.turn])
            return self._text(p + 1, t[5])
        return p

    def _call_line(self, view, ent):
        t = _STATUS
        p = self._text(16, t[12])
        if view.sending != calls.NONE:
            # the call being confirmed stays in sight until the tablet has it
            return self._text(self._call(p, view.sending), t[11])
        if ent.sel != calls.NONE:
            p = self._text(self._call(p, ent.sel), t[9])
            if (view.lowest != calls.NONE and not ent.stop_given
                    and calls.stop_due(ent.sel, view.lowest, view.stop_jump, view.stop_opening2)):
                p = self._text(p, t[10])
            return p
        if ent.level:
            self.want[p] = 16 + ent.level
            self.want[p + 1] = code_of(95)  # "_": the denomination comes next
            return p + 2
        if ent.note in _ROW1_NOTES:
            return self._text(16, E.NOTES[ent.note])
        if ent.review and view.n:
            col0 = (view.dealer + 1) & 3
            rows = (col0 + view.n + 3) // 4
            p = self._num(self._text(16, t[16]), ent.review_page % rows + 1)
            self.want[p] = code_of(47)  # "/"
            return self._num(p + 1, rows)
        if view.msg:
            return self._text(16, view.msg)
        if view.my_turn() and calls.is_bid(view.lowest) and view.lowest != calls.FIRST_BID:
            return self._call(self._text(p, t[17]), view.lowest)
        # nothing to do on this box: which board it is
        w = self.want
        w[16] = code_of(V.SEATS[view.seat] if view.seat < 4 else "?")
        if not (view.known and view.board):
            return 17
        p = self._num(self._text(17, t[13]), view.board)
        p = self._text(p, t[14])
        w[p] = code_of(V.SEATS[view.dealer & 3])
        return self._text(self._text(p + 1, t[15]), VULS[view.vul & 3])

    def _auction(self, view, ent):
        if self.head_seat != view.seat:
            self._text(32, _HEAD)
            if view.seat < 4:
                # this box's own column: its letter on an inverted bar three cells wide
                c = 32 + 4 * ((view.seat + 1) & 3)
                for i in range(c - 1 if c > 32 else c, c + 2):
                    self.want[i] |= INV
            for i in range(WIDTH):
                self.head[i] = self.want[32 + i]
            self.head_seat = view.seat
        else:
            self.want[32:48] = self.head  # the same every time: one copy
        n = view.n
        a = view.auction
        if ent.review and n:
            col0 = (view.dealer + 1) & 3
            first = (ent.review_page % ((col0 + n + 3) // 4)) * 4 - col0
            for c in range(4):
                i = first + c
                if 0 <= i < n:
                    self._cell(48 + 4 * c, a[i])
            return
        # the latest round: the last four calls, each under its seat (the newest is the one
        # before the seat the status line names)
        for i in range(n - 4 if n > 4 else 0, n):
            self._cell(48 + 4 * ((view.dealer + i + 1) & 3), a[i])

    # -- drawing ---------------------------------------------------------------------------
    def draw(self, view, ent, now, ticks_diff, link_up=True, version_error=False):
        """Compose the 4 lines and draw the cells that changed. Returns the mask of the frame's
        8-pixel pages that changed (bit p: page p), with their changed columns in lo/hi: the
        display need push only those."""
        w = self.want
        w[:] = _BLANK
        self._status(view, ent, now, ticks_diff, link_up, version_error)
        self._call_line(view, ent)
        self._auction(view, ent)
        mask = 0
        shown = self.shown
        if w == shown:
            return 0
        if self.native is not None:
            return self.native(self)
        lo = self.lo
        hi = self.hi
        for i in range(CELLS):
            c = w[i]
            if c != shown[i]:
                shown[i] = c
                self._blit(i, c)
                p = (i >> 4) << 1  # line r is pages 2r and 2r + 1
                x = (i & 15) << 3
                if not mask >> p & 1:
                    lo[p] = x
                    lo[p + 1] = x
                hi[p] = x + 7
                hi[p + 1] = x + 7
                mask |= 3 << p
        return mask

    def _blit(self, i, c):
        if self.lines is not None:
            g = -((c & 0x7F) << 1)
            if c & INV:
                self.lines[i >> 4].blit(self.fontfb, (i & 15) << 3, g, -1, self.inv)
            else:
                self.lines[i >> 4].blit(self.fontfb, (i & 15) << 3, g)
            return
        buf = self.buf
        f = self.font
        g = (c & 0x7F) << 4
        o = ((i >> 4) << 8) + ((i & 15) << 3)  # line r is pages 2r and 2r + 1
        inv = 0xFF if c & INV else 0
        for k in range(8):
            buf[o + k] = f[g + k] ^ inv
            buf[o + 128 + k] = f[g + 8 + k] ^ inv


def _writable(b):
    """b as a bytearray (framebuf takes no bytes): on MicroPython an alias of the constant's
    own memory, so the font is not copied to the heap (framebuf only reads it), else a copy."""
    try:
        import uctypes

        return uctypes.bytearray_at(uctypes.addressof(b), len(b))
    except (ImportError, TypeError, AttributeError):
        return bytearray(b)
