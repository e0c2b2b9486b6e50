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
BNAK = 0x03      # version 2: the box's NAK of a tablet frame it cannot use (section 3b)
CAPS = 0x04      # version 2: the box's capabilities, reliable, sent once per session (3c)
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
BNAK_BODY = 4    # reason, type, seq, where (section 3b)
CAPS_FIXED = 13  # the CAPS body without its name (section 3c)
MAX_NAME = 16
MAX_AUCTION = 319
MAX_MESSAGE = 64

# NAK reasons (1..5 both ways; 6..9 only in the box's NAK, version 2: SPEC.md section 3b)
BAD_FRAME = 1
OUT_OF_SEQUENCE = 2
VERSION = 3
NO_SESSION = 4
MALFORMED = 5
UNKNOWN_TYPE = 6
BAD_LENGTH = 7
BAD_FIELD = 8
BAD_EPOCH = 9
NAK_REASON_MAX = 9

# CAPS flags (section 3c)
K_BUS = 1
K_SUITS = 2      # the display has the four suit symbols (U+2663 U+2666 U+2665 U+2660)
K_LATIN1 = 4     # the display has the Latin-1 letters (U+00A0..U+00FF), e.g. a-ring, o-umlaut

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

# the session version from which a STATE ends with the player's language (SPEC.md section 3;
# the codes: messages.LANGS)
LANG_VERSION = 3

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
    """A reason the tablet's NAK may carry (the box's NAK has more: 1..NAK_REASON_MAX)."""
    return BAD_FRAME <= r <= MALFORMED


def body_ok(from_box, t, blen):
    """Whether a body of blen bytes is well formed in length for type t in this direction."""
    if from_box:
        if t == HELLO:
            return blen == HELLO_BODY
        if t == ACK:
            return blen == 0
        if t == BNAK:
            return blen == BNAK_BODY
        if t == CAPS:
            return CAPS_FIXED <= blen <= CAPS_FIXED + MAX_NAME
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


# by a call byte's low 6 bits: 1 where no call has that code (calls.COUNT up to, not including,
# calls.HIDDEN). A table lookup a call: the auction check is the STATE's longest loop on the box.
_BAD_CALL = b"\x00" * 38 + b"\x01" * 25 + b"\x00"


def state_fault(b, s, end, lang=0):
    """-1 if b[s:end] is a well-formed STATE body, else the body offset of the first field that
    is wrong (the `where` of the box's NAK BAD_FIELD, SPEC.md section 3b). Checks everything the
    box relies on before it takes a STATE, so a malformed one changes nothing. The checks run in
    the order of SPEC.md section 3a (the structure, then the calls, then the message's UTF-8), so
    the offset returned is the one the SPEC names. lang=1 in a session of version 3 or higher:
    the body ends with the language byte after the message (any value: SPEC.md section 3)."""
    n = end - s
    if n < STATE_FIXED + 1 or n > MAX_BODY:
        return S_N
    turn = b[s + S_TURN]
    if turn != calls.NONE and turn > 3:
        return S_TURN
    if b[s + S_FLAGS] & 0xC0:
        return S_FLAGS
    low = b[s + S_LOWEST]
    if low != calls.NONE and not 3 <= low < calls.COUNT:
        return S_LOWEST
    if b[s + S_ALLOWED + 4] & 0xC0:  # bits for codes 38, 39 do not exist
        return S_ALLOWED + 4
    if b[s + S_DEALER] > 3:
        return S_DEALER
    if b[s + S_VUL] > 3:
        return S_VUL
    na = (b[s + S_N] << 8) | b[s + S_N + 1]
    if na > MAX_AUCTION or s + S_AUCTION + na + 1 > end:
        return S_N
    mlen = b[s + S_AUCTION + na]
    if s + S_AUCTION + 1 + na + mlen + lang != end or mlen > MAX_MESSAGE:
        return S_AUCTION + na
    bad = _BAD_CALL
    for i in range(s + S_AUCTION, s + S_AUCTION + na):
        if bad[b[i] & 0x3F]:
            return i - s
    if not utf8_ok(b, end - lang - mlen, end - lang):
        return S_AUCTION + na + 1
    return -1


def utf8_ok(b, s, end):
    """Whether b[s:end] is valid UTF-8 as RFC 3629 has it (SPEC.md section 2): no overlong form,
    no surrogate, nothing above U+10FFFF. MicroPython's own decode accepts all three, CPython's
    refuses them: both ends check the bytes here, the same way, and allocate nothing."""
    i = s
    while i < end:
        c = b[i]
        i += 1
        if c < 0x80:
            continue
        if c < 0xC2 or c > 0xF4:  # a continuation byte first, an overlong lead, past U+10FFFF
            return False
        if c < 0xE0:
            k = 1
            lo = 0x80
            hi = 0xBF
        elif c < 0xF0:
            k = 2
            lo = 0xA0 if c == 0xE0 else 0x80  # E0 80..9F: overlong
            hi = 0x9F if c == 0xED else 0xBF  # ED A0..BF: surrogates
        else:
            k = 3
            lo = 0x90 if c == 0xF0 else 0x80  # F0 80..8F: overlong
            hi = 0x8F if c == 0xF4 else 0xBF  # F4 90..: past U+10FFFF
        if i + k > end:
            return False
        c = b[i]
        if c < lo or c > hi:
            return False
        j = i + 1
        i += k
        while j < i:
            if b[j] & 0xC0 != 0x80:
                return False
            j += 1
    return True


def caps_body(vendor, fw, flags, lines, cols, keys, name):
    """The CAPS body (SPEC.md section 3c), built once at boot: bytes."""
    nb = name.encode() if isinstance(name, str) else bytes(name)
    nb = nb[:MAX_NAME]
    b = bytearray(CAPS_FIXED + len(nb))
    b[0] = vendor >> 8
    b[1] = vendor & 0xFF
    b[2] = fw >> 8
    b[3] = fw & 0xFF
    b[4] = flags
    b[5] = lines
    b[6] = cols
    b[7] = (keys >> 24) & 0xFF
    b[8] = (keys >> 16) & 0xFF
    b[9] = (keys >> 8) & 0xFF
    b[10] = keys & 0xFF
    b[11] = 0  # reserved
    b[12] = len(nb)
    b[CAPS_FIXED:] = nb
    return bytes(b)
