# The unix backend: the box's UART is a pseudo-terminal, its keypad is the terminal (or key
# tokens on stdin, one per line, when stdin is not a terminal, so tests and the demo can press
# keys), its display is drawn in the terminal and, with --screen-file, written to a file a
# program can read (replaced atomically by rename on every change).
import os
import select
import sys
import termios
import time

import keys
import textview

# Single keystrokes on a terminal (unix backend, interactive). Letters chosen so a player can
# type a call as it reads: "3", "n", Enter.
KEYSTROKES = {
    "1": keys.L1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": keys.L7,
    "c": keys.C, "d": keys.D, "h": keys.H, "s": keys.S, "n": keys.NT,
    "p": keys.PASS, "x": keys.DBL, "r": keys.RDBL,
    "\r": keys.OK, "\n": keys.OK, " ": keys.OK, "\x7f": keys.CLR, "\x08": keys.CLR, "\x1b": keys.CLR,
    "!": keys.STOP, "a": keys.ALERT, "u": keys.UNDO, "v": keys.REVIEW, "t": keys.TD,
}

_ALIASES = {"PASS": keys.PASS, "DBL": keys.DBL, "RDBL": keys.RDBL, "N": keys.NT, "ENTER": keys.OK, "CANCEL": keys.CLR,
            "ESC": keys.CLR, "BID": keys.OK}


def token_key(tok):
    k = keys.from_token(tok)
    return k if k else _ALIASES.get(tok.strip().upper(), keys.NONE)


_VMIN = 6
_VTIME = 5


def _raw_nonblocking(fd):
    termios.setraw(fd)
    a = termios.tcgetattr(fd)
    a[6][_VMIN] = 0   # read() returns what is there, possibly nothing: never blocks the loop
    a[6][_VTIME] = 0
    termios.tcsetattr(fd, termios.TCSANOW, a)


def _isatty(fd):
    try:
        termios.tcgetattr(fd)
        return True
    except OSError:
        return False


class PortGone(Exception):
    """The pseudo-terminal behind the box's UART went away: the simulated table has ended. The
    virtual box stops rather than reopen the path, which the system may by then have given to
    another table's pty."""


class Serial:
    """The box's UART on a pseudo-terminal."""

    def __init__(self, path):
        self.path = path
        self.f = open(path, "r+b")
        _raw_nonblocking(self.f.fileno())

    def readinto(self, buf):
        try:
            n = self.f.readinto(buf)
        except OSError:
            raise PortGone(self.path)
        return n or 0

    def write(self, data):
        try:
            return self.f.write(data) or 0
        except OSError:
            raise PortGone(self.path)

    def close(self):
        try:
            self.f.close()
        except OSError:
            pass


class Keys:
    """Keys from stdin: single keystrokes on a terminal, tokens one per line otherwise."""

    def __init__(self):
        self.tty = _isatty(0)
        self.eof = False
        if self.tty:
            self.saved = termios.tcgetattr(0)
            termios.setraw(0)
        self.pending = bytearray(32)  # key codes waiting to be handed out (a token line may hold several)
        self.head = 0
        self.tail = 0

    def restore(self):
        if self.tty:
            termios.tcsetattr(0, termios.TCSANOW, self.saved)

    def _push(self, code):
        if code and self.tail - self.head < len(self.pending):
            self.pending[self.tail % len(self.pending)] = code
            self.tail += 1

    def fill(self):
        """Called when stdin is readable."""
        if self.tty:
            ch = sys.stdin.read(1)
            if ch == "\x03":  # Ctrl-C in raw mode
                raise KeyboardInterrupt
            self._push(KEYSTROKES.get(ch.lower() if len(ch) == 1 and ch.isalpha() else ch, 0))
            return
        line = sys.stdin.readline()
        if not line:
            self.eof = True
            return
        for tok in line.split():
            if tok.startswith("#"):
                break
            self._push(token_key(tok))

    def get(self):
        if self.head == self.tail:
            return keys.NONE
        code = self.pending[self.head % len(self.pending)]
        self.head += 1
        return code


class Display:
    failed = False  # a terminal always answers (hal_rp2's OLED may not)
    wants_lines = True  # the screen file: the whole state as text (render.lines)
    buf = None  # no driver buffer: render.Frame keeps its own

    def __init__(self, screen_file=None, draw=True):
        self.screen_file = screen_file
        self.draw = draw

    def show(self, lines, page=-1):
        if self.screen_file:
            tmp = self.screen_file + ".tmp"
            with open(tmp, "w") as f:
                f.write("\n".join(lines) + "\n")
            os.rename(tmp, self.screen_file)

    def frame(self, fr, mask):
        """The OLED's picture in the terminal: the same 4 lines, suits and inverted cells."""
        if self.draw and mask:
            # home, clear, draw: a whole small screen per change
            sys.stdout.write("\x1b[H\x1b[2J" + "\r\n".join(textview.frame_rows(fr, True)) + "\r\n")

    def indicate(self, turn, stop, alert, link):
        pass  # the LEDs of the board; the terminal shows the same on the status line


class Buzzer:
    def __init__(self, draw):
        self.draw = draw

    def beep(self, ms=60):
        if self.draw:
            sys.stdout.write("\x07")


class Hal:
    """Everything the application needs from the board, unix flavour."""

    def __init__(self, port, screen_file=None, draw=None, exit_on_eof=True):
        if draw is None:
            draw = _isatty(1)
        self.serial = Serial(port)
        self.keys = Keys()
        self.display = Display(screen_file, draw)
        self.buzzer = Buzzer(draw)
        self.exit_on_eof = exit_on_eof
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)
        self.poller.register(self.serial.f, select.POLLIN)
        self.ticks_ms = time.ticks_ms
        self.ticks_diff = time.ticks_diff
        self.ticks_add = time.ticks_add

    def wait(self, ms):
        """Sleep until a byte or a key arrives, at most `ms`. Allocation-free (ipoll)."""
        for obj, ev in self.poller.ipoll(ms):
            if obj is sys.stdin:
                if ev & select.POLLIN:
                    self.keys.fill()
                elif ev & (select.POLLHUP | select.POLLERR):
                    self.keys.eof = True
                if self.keys.eof:
                    self.poller.unregister(sys.stdin)
                    if self.exit_on_eof:
                        # whoever fed the keys is gone (a test or the demo ended, or crashed)
                        raise SystemExit(0)
            elif ev & (select.POLLHUP | select.POLLERR) and not ev & select.POLLIN:
                raise PortGone(self.serial.path)

    def close(self):
        self.keys.restore()
        self.serial.close()
