# The plain-dict form of frames and STATE bodies (SPEC.md sections 2-3): the tablet, golden
# vectors, tests and tools. The byte layouts themselves are protocol/layout.py, re-exported here so
# `messages.CALL`, `messages.HEADER` ... keep working; the box imports layout alone.
from protocol import calls
from protocol.crc16 import crc16
from protocol.layout import *  # noqa: F403  (the layout constants are part of this module's API)

# ruff: noqa: F405  (names from the star import above)

EVENT_KINDS = {CALL: "call", STOP: "stop", ALERT: "alert", UNDO: "undo", REVIEW: "review", TD: "td"}
BOX_TYPES = {HELLO: "hello", ACK: "ack", BNAK: "box_nak", CAPS: "caps", CALL: "call", STOP: "stop",
             ALERT: "alert", UNDO: "undo", REVIEW: "review", TD: "td"}
TABLET_TYPES = {WELCOME: "welcome", PING: "ping", NAK: "nak", STATE: "state"}
# the profile's [stop] triggers the box knows, and the STATE flag bit of each (a tuple: the
# order of decode_state's list is fixed on MicroPython too)
STOP_TRIGGER_FLAGS = (("jump", F_STOP_JUMP), ("opening_two_level", F_STOP_OPENING2))
STOP_TRIGGERS = tuple(t for t, _ in STOP_TRIGGER_FLAGS)
NAK_REASONS = {BAD_FRAME: "bad_frame", OUT_OF_SEQUENCE: "out_of_sequence", VERSION: "version",
               NO_SESSION: "no_session", MALFORMED: "malformed", UNKNOWN_TYPE: "unknown_type",
               BAD_LENGTH: "bad_length", BAD_FIELD: "bad_field", BAD_EPOCH: "bad_epoch"}
# the STATE's language byte (version 3, SPEC.md section 3) by code: 0 none given (the box shows
# its own default, the reference box English); a box shows its default for a code it lacks
LANGS = ("", "en", "sv", "da")
# the CAPS flag bits by name (SPEC.md section 3c)
CAPS_FLAGS = (("bus", K_BUS), ("suits", K_SUITS), ("latin1", K_LATIN1))


def epoch_of(p):
    return (p[2] << 8) | p[3]


# --- STATE body -------------------------------------------------------------------------------

def encode_state(view, out=None, version=2):
    """STATE body (bytes, or written into bytearray out: returns its length) from a view dict
    (SPEC.md section 3), for a session of `version`: from version 3 it ends with the language
    byte (the view's "lang": None, "en", "sv", "da"). Raises ValueError on a view that cannot be
    encoded."""
    turn = view.get("turn")
    flags = 0
    if view.get("frozen"):
        flags |= F_FROZEN
    if view.get("over"):
        flags |= F_OVER
    if view.get("prevent"):
        flags |= F_PREVENT
    if view.get("screens"):
        flags |= F_SCREENS
    triggers = view.get("stop_triggers") or ()
    for t in triggers:
        if t not in STOP_TRIGGERS:
            raise ValueError("unknown stop trigger " + repr(t))
    for t, f in STOP_TRIGGER_FLAGS:
        if t in triggers:
            flags |= f
    lowest = view.get("lowest")
    auction = view.get("auction") or []
    msg = view.get("message") or ""
    mb = msg.encode("utf-8") if isinstance(msg, str) else bytes(msg)
    if len(mb) > MAX_MESSAGE:
        raise ValueError("message longer than 64 bytes in UTF-8")
    if len(auction) > MAX_AUCTION:
        raise ValueError("auction longer than 319 calls")
    lang = 1 if version >= LANG_VERSION else 0
    code = _lang(view.get("lang"))
    n = STATE_FIXED + len(auction) + 1 + len(mb) + lang
    b = bytearray(n)
    b[0] = calls.NONE if turn is None else _seat(turn)
    b[1] = flags
    b[2] = calls.NONE if lowest is None else _call(lowest)
    for c in view.get("allowed") or []:
        k = _call(c)
        b[3 + (k >> 3)] |= 1 << (k & 7)
    stop_ms = int(view.get("stop_ms") or 0)
    if not 0 <= stop_ms <= 0xFFFF:
        raise ValueError("stop_ms out of range 0..65535")
    b[8] = stop_ms >> 8
    b[9] = stop_ms & 0xFF
    board = int(view.get("board") or 0)
    if not 0 <= board <= 255:
        raise ValueError("board out of range 0..255")
    b[10] = board
    b[11] = _seat(view.get("dealer") or "N")
    vul = view.get("vul") or "None"
    if vul not in calls.VULS:
        raise ValueError("unknown vulnerability " + repr(vul))
    b[12] = calls.VULS.index(vul)
    b[13] = len(auction) >> 8
    b[14] = len(auction) & 0xFF
    i = 15
    for e in auction:
        c = e.get("call")
        v = calls.HIDDEN if c is None else _call(c)
        if e.get("alert"):
            v |= 0x40
        if e.get("stop"):
            v |= 0x80
        b[i] = v
        i += 1
    b[i] = len(mb)
    b[i + 1:i + 1 + len(mb)] = mb
    if lang:
        b[n - 1] = code
    if out is None:
        return bytes(b)
    out[0:n] = b
    return n


def box_state(box):
    """A BoxEndpoint's latest STATE as a view dict (section 3 of SPEC.md), None before the first:
    for simulations and tests. The box itself reads the bytes (box.state_body)."""
    return decode_state(box.state_body, 0, box.state_len, box.version) if box.state_len else None


def decode_state(body, start=0, end=-1, version=2):
    """View dict from a STATE body in body[start:end] of a session of `version` (from 3 it ends
    with the language byte: the dict's "lang"); None if it is malformed (no exception: garbage
    must change nothing)."""
    if end < 0:
        end = len(body)
    lang = 1 if version >= LANG_VERSION else 0
    if state_fault(body, start, end, lang) >= 0:
        return None
    b = body
    s = start
    turn = b[s + S_TURN]
    flags = b[s + S_FLAGS]
    lowest = b[s + S_LOWEST]
    na = (b[s + S_N] << 8) | b[s + S_N + 1]
    auction = []
    for i in range(na):
        v = b[s + S_AUCTION + i]
        c = v & 0x3F
        auction.append({"call": None if c == calls.HIDDEN else calls.NAMES[c],
                        "alert": bool(v & C_ALERT), "stop": bool(v & C_STOP)})
    allowed = []
    for k in range(calls.COUNT):
        if b[s + S_ALLOWED + (k >> 3)] & (1 << (k & 7)):
            allowed.append(calls.NAMES[k])
    m = s + S_AUCTION + na + 1
    v = {
        "turn": None if turn == calls.NONE else calls.SEATS[turn],
        "frozen": bool(flags & F_FROZEN), "over": bool(flags & F_OVER),
        "prevent": bool(flags & F_PREVENT), "screens": bool(flags & F_SCREENS),
        "stop_triggers": [t for t, f in STOP_TRIGGER_FLAGS if flags & f],
        "lowest": None if lowest == calls.NONE else calls.NAMES[lowest],
        "allowed": allowed,
        "stop_ms": (b[s + S_STOP_MS] << 8) | b[s + S_STOP_MS + 1],
        "board": b[s + S_BOARD], "dealer": calls.SEATS[b[s + S_DEALER]],
        "vul": calls.VULS[b[s + S_VUL]],
        "auction": auction, "message": bytes(b[m:m + b[m - 1]]).decode("utf-8"),
    }
    if lang:
        k = b[end - 1]
        v["lang"] = LANGS[k] if 0 < k < len(LANGS) else None  # a language unknown here: none
    return v


def _lang(name):
    if not name:
        return 0
    for k in range(1, len(LANGS)):
        if LANGS[k] == name:
            return k
    raise ValueError("unknown language " + repr(name))


def _seat(s):
    i = calls.seat_index(s)
    if i < 0:
        raise ValueError("unknown seat " + repr(s))
    return i


def _call(c):
    k = calls.code(c) if isinstance(c, str) else -1
    if k < 0:
        raise ValueError("unknown call " + repr(c))
    return k


# --- whole messages as dicts (golden vectors, tests, tools) -----------------------------------

def encode_payload(m, version=2):
    """Payload bytes (header + body + CRC, before COBS) of a message dict:
    {"type": "call", "seat": "N", "epoch": 4660, "seq": 3, "ack": 7, ...body fields}; a STATE
    as a session of `version` carries it."""
    tname = m["type"]
    from_box = tname in BOX_TYPES.values()
    t = _type_code(tname)
    body = bytearray()
    if t == HELLO:
        body = bytearray([m["ver_min"], m["ver_max"], m["base_seq"] & 0xFF, 1 if m.get("bus") else 0,
                          (m.get("fw", 0) >> 8) & 0xFF, m.get("fw", 0) & 0xFF])
    elif t == BNAK:
        body = bytearray([_nak_code(m["reason"]), m["of_type"], m["of_seq"] & 0xFF, m["detail"]])
    elif t == CAPS:
        flags = 0
        for k, f in CAPS_FLAGS:
            if m.get(k):
                flags |= f
        body = bytearray(caps_body(m["vendor"], m["fw"], flags, m["lines"], m["cols"], m["keys"],
                                   m["name"]))
    elif is_event(t):
        ms = m["box_ms"] & 0xFFFFFFFF
        if t == CALL:
            arg = _call(m["call"])
        elif t in (ALERT, UNDO):
            idx = m.get("index")
            arg = 0xFF if idx is None else idx
        else:
            arg = 0xFF
        body = bytearray([ms >> 24, (ms >> 16) & 0xFF, (ms >> 8) & 0xFF, ms & 0xFF, arg])
    elif t == WELCOME:
        be = m["box_epoch"]
        body = bytearray([m["version"], m["base_seq"] & 0xFF, be >> 8, be & 0xFF])
    elif t == NAK:
        body = bytearray([_nak_code(m["reason"]), m.get("detail", 0)])
    elif t == STATE:
        body = bytearray(encode_state(m["view"], None, version))
    buf = bytearray(HEADER + len(body) + CRC)
    addr = _seat(m["seat"]) | (FROM_BOX if from_box else 0)
    put_header(buf, addr, t, m["epoch"], m["seq"], m["ack"])
    buf[HEADER:HEADER + len(body)] = body
    put_crc(buf, HEADER + len(body))
    return bytes(buf)


def decode_payload(p, n=-1, version=2):
    """Message dict from a payload (CRC included) p[0:n], received in a session of `version` (it
    decides a STATE's layout); None if anything is wrong."""
    if n < 0:
        n = len(p)
    if n < MIN_PAYLOAD or n > MAX_PAYLOAD:
        return None
    if crc16(p, 0, n - 2) != (p[n - 2] << 8) | p[n - 1]:
        return None
    addr = p[0]
    if addr & 0x7C or not (p[2] or p[3]):  # reserved address bits; epoch 0 is never sent
        return None
    from_box = bool(addr & FROM_BOX)
    t = p[1]
    blen = n - MIN_PAYLOAD
    if not body_ok(from_box, t, blen):
        return None
    m = {"type": (BOX_TYPES if from_box else TABLET_TYPES)[t], "seat": calls.SEATS[addr & 3],
         "epoch": epoch_of(p), "seq": p[4], "ack": p[5]}
    b = HEADER
    if t == HELLO:
        m["ver_min"] = p[b]
        m["ver_max"] = p[b + 1]
        m["base_seq"] = p[b + 2]
        m["bus"] = bool(p[b + 3] & 1)
        m["fw"] = (p[b + 4] << 8) | p[b + 5]
    elif t == BNAK:
        r = p[b]
        if r not in NAK_REASONS:
            return None
        m["reason"] = NAK_REASONS[r]
        m["of_type"] = p[b + 1]
        m["of_seq"] = p[b + 2]
        m["detail"] = p[b + 3]
    elif t == CAPS:
        c = decode_caps(p, b, n - CRC)
        if c is None:
            return None
        m.update(c)
    elif from_box and is_event(t):
        m["box_ms"] = (p[b] << 24) | (p[b + 1] << 16) | (p[b + 2] << 8) | p[b + 3]
        arg = p[b + 4]
        if t == CALL:
            if arg >= calls.COUNT:
                return None
            m["call"] = calls.NAMES[arg]
        elif t in (ALERT, UNDO):
            m["index"] = None if arg == 0xFF else arg
    elif t == WELCOME:
        m["version"] = p[b]
        m["base_seq"] = p[b + 1]
        m["box_epoch"] = (p[b + 2] << 8) | p[b + 3]
    elif t == NAK:
        r = p[b]
        if not nak_reason_ok(r):  # the reasons 6.. are the box's alone
            return None
        m["reason"] = NAK_REASONS[r]
        m["detail"] = p[b + 1]
    elif t == STATE:
        v = decode_state(p, b, n - CRC, version)
        if v is None:
            return None
        m["view"] = v
    return m


def decode_caps(p, s, end):
    """The fields of a CAPS body p[s:end] as a dict, None if it is malformed (SPEC.md 3c)."""
    if end - s < CAPS_FIXED or p[s + 12] != end - s - CAPS_FIXED:
        return None
    if not utf8_ok(p, s + CAPS_FIXED, end):  # RFC 3629 on both interpreters (SPEC.md section 2)
        return None
    name = bytes(p[s + CAPS_FIXED:end]).decode("utf-8")
    flags = p[s + 4]
    c = {"vendor": (p[s] << 8) | p[s + 1], "fw": (p[s + 2] << 8) | p[s + 3],
         "lines": p[s + 5], "cols": p[s + 6],
         "keys": (p[s + 7] << 24) | (p[s + 8] << 16) | (p[s + 9] << 8) | p[s + 10], "name": name}
    for k, f in CAPS_FLAGS:
        c[k] = bool(flags & f)
    return c


def index_call(k, n):
    """The call an ALERT's or UNDO's `index` k names in an auction of n calls (SPEC.md section
    3): None for 0xFF (the last call of partner / of the box's own seat, which the tablet finds
    itself) and for a k that names no call; else the latest i < n with i % 255 == k (one byte
    cannot count 319 calls, and 0xFF is taken)."""
    if k == 0xFF or k < 0 or k > 254 or k >= n:
        return None
    return k + (n - 1 - k) // 255 * 255


def _type_code(tname):
    for d in (BOX_TYPES, TABLET_TYPES):
        for k in d:
            if d[k] == tname:
                return k
    raise ValueError("unknown message type " + repr(tname))


def _nak_code(r):
    for k in NAK_REASONS:
        if NAK_REASONS[k] == r:
            return k
    raise ValueError("unknown NAK reason " + repr(r))
