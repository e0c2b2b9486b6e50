# Calls made on this box but not yet seen in the tablet's auction, kept in a small file (the
# board's flash; a file beside the virtual box on unix), so a box that reboots with a call still
# in flight neither loses it nor sends it twice. After a reboot the tablet sends the auction back
# (SPEC.md section 4); a kept call whose place in that auction is filled was delivered before the
# reboot and is dropped; one whose place is still open, with the box still in turn, is sent again.
# Only calls are kept: stop, alert, undo, review and TD requests are momentary and a player
# repeats them if the box restarted under his hand.
import calls
import view as V

MAX = 8
REC = 4  # code u8, board u8, auction index u16
SETTLE_MS = 300  # the auction must stand this long after a reboot before a kept call is resent


class Store:
    def __init__(self, path):
        self.path = path
        self.code = bytearray(MAX)
        self.board = bytearray(MAX)
        self.index = [0] * MAX
        self.k = 0
        self.restored = False
        self.settle_at = 0
        self.stale = False  # the file still lists calls the auction now holds

    def _save(self):
        self.stale = False
        b = bytearray(self.k * REC)
        for i in range(self.k):
            b[i * REC] = self.code[i]
            b[i * REC + 1] = self.board[i]
            b[i * REC + 2] = self.index[i] >> 8
            b[i * REC + 3] = self.index[i] & 0xFF
        tmp = self.path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(b)
        import os

        os.rename(tmp, self.path)

    def boot_epoch(self, next_epoch):
        """This boot's protocol epoch, the one after the last boot's (kept in a 2-byte file
        beside the outbox): a box never reuses its previous epoch (SPEC.md section 4). A file
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
        try:
            with open(self.path, "rb") as f:
                b = f.read()
        except OSError:
            return
        k = 0
        for i in range(0, len(b) - REC + 1, REC):
            if k < MAX and b[i] < calls.COUNT:
                self.code[k] = b[i]
                self.board[k] = b[i + 1]
                self.index[k] = (b[i + 2] << 8) | b[i + 3]
                k += 1
        self.k = k
        self.restored = k > 0

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
        self._save()

    def forget_last(self):
        if self.k:
            self.k -= 1
            self._save()

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
            # then the file lists a call the auction holds, which a reboot drops again here
            self.stale = True
        if self.k == 0:
            self.restored = False
        if self.restored:
            self.settle_at = app.hal.ticks_add(now, SETTLE_MS) or 1

    def flush(self):
        """Write what reconcile dropped (the app calls this when nothing waits)."""
        if self.stale:
            self._save()

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
