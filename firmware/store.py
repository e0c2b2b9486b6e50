# Calls made on this box but not yet seen in the tablet's auction, kept in flash, so a box that
# reboots with a call in flight neither loses it nor sends it twice. After a reboot the tablet
# sends the auction back (SPEC.md section 4); a kept call whose place in that auction is filled
# was delivered before the reboot and is dropped; one whose place is still open, with the box
# still in turn, is sent again. Only calls are kept: stop, alert, undo, review and TD requests are
# momentary and a player repeats them if the box restarted under his hand.
#
# Why a journal and not a file rewrite: on the chip a LittleFS write may erase a 4 KB sector
# (45 ms with interrupts off), long enough to overrun the UART's 32-byte receive FIFO and miss a
# grant on the bus (a grant waited 82 ms once: the save came while the box could be granted).
# Programming one 256-byte page is 0.4 ms, in which the FIFO takes 5 bytes at 115200 baud and
# loses nothing. So the kept calls are a journal of records in one flash block that is erased
# once when the journal is made (at boot, before the link, or when the box is idle and its
# journal nearly full) and then only programmed: each record is the whole list of kept calls in
# one page of its own, with a CRC, and the last whole record is the list
# (docs: firmware/README.md "Calls kept in flash"). On the chip the box programs the block
# directly (hal_rp2.raw_block: the file's own data block, found by its content); elsewhere the
# file is written in place, the same bytes.
import calls
import view as V

from protocol.crc16 import crc16

MAX = 8
SETTLE_MS = 300  # the auction must stand this long after a reboot before a kept call is resent
PAGE = 256       # the flash's program unit (a W25Q page)
PAGES = 15       # the journal file: a header page and 14 record pages (inside one 4 KB block)
SIZE = PAGE * PAGES
MAGIC = b"BXJ1"
HEAD = 8         # MAGIC and a 4-byte nonce: the journal's block is found by these bytes
REC = 0xA5       # the first byte of a record page (0xFF: a free page)
ROTATE_AT = PAGES - 5  # record pages used from which an idle box starts a new journal
# a page as the flash holds it erased: a record is built over a copy of it, one copy in native
# code (a bytecode loop over the 256 bytes: 61 us on the unix port against 0.06 us, so some ms
# of the chip; on a bus the grant after the reply the record follows came while it ran and
# went unanswered)
ERASED = b"\xff" * PAGE


def parse(data):
    """(kept calls, record pages used) of a journal's bytes: the calls of its last whole record
    as (code, board, index) tuples; ([], 0) for no journal. A record torn by a power cut fails
    its CRC and the one before it stands. Pure: the tests read a box's flash with it."""
    if data is None or len(data) < PAGE or bytes(data[0:4]) != MAGIC:
        return [], 0
    best = []
    used = 0
    for p in range(1, len(data) // PAGE):
        o = p * PAGE
        if data[o] == 0xFF:
            break  # pages are programmed in order: the rest are free
        used = p
        k = data[o + 2]
        if data[o] != REC or k > MAX:
            continue
        end = o + 3 + 4 * k
        if crc16(data, o, end) != (data[end] << 8) | data[end + 1]:
            continue
        best = [(data[i], data[i + 1], (data[i + 2] << 8) | data[i + 3])
                for i in range(o + 3, end, 4)]
    return best, used


class FileDev:
    """The journal's bytes written in place in its file: the unix port's flash, and the chip's
    when its block cannot be found (then LittleFS may erase: the old cost, never the call)."""

    def __init__(self, path):
        self.path = path

    def program(self, off, buf):
        with open(self.path, "r+b") as f:
            f.seek(off)
            f.write(buf)


class Store:
    def __init__(self, path, raw=None):
        """raw(path, head): where the journal's block can be programmed directly (hal_rp2), or
        None: the file in place."""
        self.path = path
        self.raw = raw
        self.dev = None
        self.code = bytearray(MAX)
        self.board = bytearray(MAX)
        self.index = [0] * MAX
        self.k = 0
        self.used = 0  # record pages used in the journal
        self.page = bytearray(PAGE)  # a record is built here: the call path allocates nothing
        self.restored = False
        self.settle_at = 0
        self.stale = False  # the journal's last record is not the list: write one when idle

    def boot_epoch(self, next_epoch):
        """This boot's protocol epoch, the one after the last boot's (kept in a 2-byte file
        beside the journal): a box never reuses its previous epoch (SPEC.md section 4). A file
        that cannot be read or written leaves the random draw of next_epoch(0)."""
        p = self.path + ".ep"
        prev = 0
        try:
            with open(p, "rb") as f:
                b = f.read(2)
            if len(b) == 2:
                prev = (b[0] << 8) | b[1]
        except OSError:
            pass
        e = next_epoch(prev)
        try:
            with open(p, "wb") as f:
                f.write(bytes((e >> 8, e & 0xFF)))
        except OSError:
            pass
        return e

    def restore(self, app):
        """At boot: the kept calls of the journal, then a new journal holding them (the box is
        not linked yet: the erase costs nobody a frame)."""
        try:
            with open(self.path, "rb") as f:
                kept, _ = parse(f.read())
        except OSError:
            kept = []
        k = 0
        for c, b, i in kept:
            if k < MAX and c < calls.COUNT:
                self.code[k] = c
                self.board[k] = b
                self.index[k] = i
                k += 1
        self.k = k
        self.restored = k > 0
        self.rotate()

    def rotate(self):
        """A new journal (erased once, through the file system: tens of ms with interrupts off on
        the chip) whose first record is the list. The app calls this only when a missed byte
        costs nothing: at boot, or idle with the journal nearly full (maintain)."""
        import os

        b = bytearray(b"\xff" * SIZE)
        b[0:4] = MAGIC
        b[4:HEAD] = os.urandom(HEAD - 4)
        self._build()
        b[PAGE:2 * PAGE] = self.page
        tmp = self.path + ".tmp"
        try:
            with open(tmp, "wb") as f:
                f.write(b)
            os.rename(tmp, self.path)
        except OSError:
            self.dev = None
            return
        self.used = 1
        self.stale = False
        self.dev = self.raw(self.path, bytes(b[0:HEAD])) if self.raw is not None else None
        if self.dev is None:
            self.dev = FileDev(self.path)

    def maintain(self):
        """At a moment the app knows is safe for an erase: a new journal if this one is nearly
        full, or if a record was due and found no free page."""
        if self.used >= ROTATE_AT or (self.stale and self.used >= PAGES - 1):
            self.rotate()

    def _build(self):
        p = self.page
        p[:] = ERASED
        p[0] = REC
        p[1] = self.used + 1
        p[2] = self.k
        o = 3
        for i in range(self.k):
            p[o] = self.code[i]
            p[o + 1] = self.board[i]
            p[o + 2] = self.index[i] >> 8
            p[o + 3] = self.index[i] & 0xFF
            o += 4
        c = crc16(p, 0, o)
        p[o] = c >> 8
        p[o + 1] = c & 0xFF

    def _record(self):
        """The list as the journal's next record: one page programmed, no erase. With no free
        page the record waits (stale) for the next safe moment's new journal."""
        if self.dev is None or self.used >= PAGES - 1:
            self.stale = True
            return
        self._build()
        self.used += 1
        self.stale = False
        try:
            self.dev.program(self.used * PAGE, self.page)
        except OSError:
            self.stale = True

    def add(self, code, index, board):
        if self.restored:
            # the player keyed a new call before a kept one was resent: the box was in turn at
            # that place, so the new call is the one he means; the kept ones are void
            self.restored = False
            self.settle_at = 0
            self.k = 0
        if self.k == MAX:
            self._drop(0)
        self.code[self.k] = code
        self.board[self.k] = board & 0xFF
        self.index[self.k] = index
        self.k += 1
        self._record()

    def _drop(self, i):
        for j in range(i, self.k - 1):
            self.code[j] = self.code[j + 1]
            self.board[j] = self.board[j + 1]
            self.index[j] = self.index[j + 1]
        self.k -= 1

    def reconcile(self, app, now):
        """After each STATE: forget kept calls the auction now holds (or that belong to another
        board); after a reboot, once the auction has stood still SETTLE_MS, resend the rest."""
        v = app.view
        changed = False
        i = 0
        while i < self.k:
            if self.board[i] != v.board & 0xFF or v.n > self.index[i] or v.phase != V.AUCTION:
                self._drop(i)
                changed = True
            else:
                i += 1
        if changed:
            # written when the box is idle (flush), not on the path of the STATE's redraw: until
            # then the journal lists a call the auction holds, which a reboot drops again here
            self.stale = True
        if self.k == 0:
            self.restored = False
        if self.restored:
            self.settle_at = app.hal.ticks_add(now, SETTLE_MS) or 1

    def flush(self):
        """Record what reconcile dropped (the app calls this when nothing waits)."""
        if self.stale:
            self._record()

    def tick(self, app, now):
        if not self.restored or not self.settle_at:
            return
        if app.hal.ticks_diff(now, self.settle_at) < 0:
            return
        self.restored = False
        self.settle_at = 0
        v = app.view
        for i in range(self.k):
            if self.index[i] == v.n and v.my_turn():
                app.resend_call(self.code[i], now)
                return
