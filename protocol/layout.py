# The byte layouts of SPEC.md sections 2-3: frame header, message types, body lengths, the STATE
# body's fields. Everything the box needs to read and write frames, and nothing that builds
# dicts or strings (that is protocol/messages.py, for the tablet, tests and tools): on the box
# every function and name loaded costs heap, so the box imports this module, not messages.
from protocol import calls
from protocol.crc16 import crc16

HEADER = 6
CRC = 2
MAX_BODY = 400
MAX_PAYLOAD = HEADER + MAX_BODY + CRC
MIN_PAYLOAD = HEADER + CRC
MAX_WIRE = MAX_PAYLOAD + MAX_PAYLOAD // 254 + 2  # COBS overhead + delimiter

FROM_BOX = 0x80

# box -> tablet
HELLO = 0x01
ACK = 0x02
CALL = 0x10
STOP = 0x11
ALERT = 0x12
UNDO = 0x13
REVIEW = 0x14
TD = 0x15
# tablet -> box
WELCOME = 0x21
PING = 0x22
NAK = 0x23
STATE = 0x30

EVENT_BODY = 5
HELLO_BODY = 6
WELCOME_BODY = 4
NAK_BODY = 2
MAX_AUCTION = 319
MAX_MESSAGE = 64

# NAK reasons (1..5)
BAD_FRAME = 1
OUT_OF_SEQUENCE = 2
VERSION = 3
NO_SESSION = 4
MALFORMED = 5

# STATE body: offsets of its fields (SPEC.md section 3)
S_TURN = 0
S_FLAGS = 1
S_LOWEST = 2
S_ALLOWED = 3    # 5 bytes: bit c of byte c >> 3 set = call code c allowed
S_STOP_MS = 8    # u16
S_BOARD = 10
S_DEALER = 11
S_VUL = 12
S_N = 13         # u16: number of calls, then one byte per call, then mlen and the message
S_AUCTION = 15
STATE_FIXED = 15
C_ALERT = 0x40   # call byte flags over the call code (calls.HIDDEN: behind the screen)
C_STOP = 0x80

# STATE flags
F_FROZEN = 1
F_OVER = 2
F_PREVENT = 4
F_SCREENS = 8
# which bids the box prompts STOP before, from the table's regulation profile (the box itself
# knows no regulation): a jump bid (2017 L73A1, FSB L116B2), an opening at the 2-level or higher
# (FSB L116B1)
F_STOP_JUMP = 16
F_STOP_OPENING2 = 32


def is_event(t):
    return 0x10 <= t <= 0x15


def nak_reason_ok(r):
    return BAD_FRAME <= r <= MALFORMED


def body_ok(from_box, t, blen):
    """Whether a body of blen bytes is well formed in length for type t in this direction."""
    if from_box:
        if t == HELLO:
            return blen == HELLO_BODY
        if t == ACK:
            return blen == 0
        if is_event(t):
            return blen == EVENT_BODY
        return False
    if t == WELCOME:
        return blen == WELCOME_BODY
    if t == PING:
        return blen == 0
    if t == NAK:
        return blen == NAK_BODY
    if t == STATE:
        return STATE_FIXED + 1 <= blen <= MAX_BODY
    return False


def put_header(buf, addr, t, epoch, seq, ack):
    buf[0] = addr
    buf[1] = t
    buf[2] = (epoch >> 8) & 0xFF
    buf[3] = epoch & 0xFF
    buf[4] = seq & 0xFF
    buf[5] = ack & 0xFF


def put_crc(buf, n):
    """Append the CRC over buf[0:n]; returns the payload length n + 2."""
    c = crc16(buf, 0, n)
    buf[n] = c >> 8
    buf[n + 1] = c & 0xFF
    return n + 2


def state_ok(b, s, end):
    """Whether b[s:end] is a well-formed STATE body. Checks everything the box relies on before
    it takes a STATE, so a malformed one changes nothing (the message's UTF-8 check makes a
    short-lived copy of at most 64 bytes; nothing is kept)."""
    n = end - s
    if n < STATE_FIXED + 1 or n > MAX_BODY:
        return False
    turn = b[s + S_TURN]
    if turn != calls.NONE and turn > 3:
        return False
    if b[s + S_FLAGS] & 0xC0:
        return False
    low = b[s + S_LOWEST]
    if low != calls.NONE and not 3 <= low < calls.COUNT:
        return False
    if b[s + S_ALLOWED + 4] & 0xC0:  # bits for codes 38, 39 do not exist
        return False
    if b[s + S_DEALER] > 3 or b[s + S_VUL] > 3:
        return False
    na = (b[s + S_N] << 8) | b[s + S_N + 1]
    if na > MAX_AUCTION or s + S_AUCTION + na + 1 > end:
        return False
    mlen = b[s + S_AUCTION + na]
    if s + S_AUCTION + 1 + na + mlen != end or mlen > MAX_MESSAGE:
        return False
    for i in range(s + S_AUCTION, s + S_AUCTION + na):
        c = b[i] & 0x3F
        if c != calls.HIDDEN and c >= calls.COUNT:
            return False
    if mlen:
        try:
            bytes(b[end - mlen:end]).decode("utf-8")
        except Exception:  # UnicodeError on CPython, UnicodeError/ValueError on MicroPython
            return False
    return True
