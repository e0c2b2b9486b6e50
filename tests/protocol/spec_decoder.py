"""A second decoder of the bidding-box protocol, written from protocol/SPEC.md alone (it was
written reading the SPEC and the golden file, never protocol/*.py, and it imports nothing of
`protocol/`), kept in the tests as the reference that both ends' decoders must agree with: on every
golden vector and on a seeded corpus of fuzzed frames (test_spec_decoder.py), under CPython and
on the MicroPython unix port.

Where this file makes a choice, it cites the SPEC's words for it ("SPEC 3a: ..."); a choice the
SPEC did not make was a gap in the SPEC, closed there first, then here. Its first draft and the
code disagreed on: the order of the STATE checks (which field a NAK names), MicroPython taking
overlong and surrogate UTF-8, STOP/REVIEW/TD's last byte, a STATE checked before or after the
session's epoch, and a BAD_FIELD offset past 254 (the box crashed building that NAK).

What it answers:
- `decode(payload, version)`: the message a receiver in a session of `version` accepts (a dict
  in the golden file's form), or None for a payload every such receiver discards (sections 2
  and 3; the version decides a STATE's layout); `frames(wire)` splits a byte stream;
- `box_answer(payload, ...)`: what a box does with one frame (section 3a's rows in their order,
  3b for its NAK): ("apply" | "drop" | "rehello", nak or None);
- `tablet_answer(payload, ...)`: the events a tablet in session delivers and the reports it files;
- `index_call(k, n)`: the call an ALERT's or UNDO's index names (section 3).
"""
from __future__ import annotations

from shared_rules.types import SEATS

# SPEC 2: payload = addr(1) type(1) epoch(2) seq(1) ack(1) body crc(2)
HEADER = 6
CRC_LEN = 2
MIN_PAYLOAD = HEADER + CRC_LEN
MAX_BODY = 400
MAX_PAYLOAD = HEADER + MAX_BODY + CRC_LEN
MAX_WIRE = 411          # SPEC 2: the largest wire frame, its delimiter included

# SPEC 3 message catalogue
BOX_TYPES = {0x01: "hello", 0x02: "ack", 0x03: "box_nak", 0x04: "caps", 0x10: "call",
             0x11: "stop", 0x12: "alert", 0x13: "undo", 0x14: "review", 0x15: "td"}
TABLET_TYPES = {0x21: "welcome", 0x22: "ping", 0x23: "nak", 0x30: "state"}
WELCOME, PING, NAK, STATE = 0x21, 0x22, 0x23, 0x30
REASONS = {1: "bad_frame", 2: "out_of_sequence", 3: "version", 4: "no_session", 5: "malformed",
           6: "unknown_type", 7: "bad_length", 8: "bad_field", 9: "bad_epoch"}
TABLET_REASON_MAX = 5
FIXED_LEN = {"hello": 6, "ack": 0, "box_nak": 4, "call": 5, "stop": 5, "alert": 5, "undo": 5,
             "review": 5, "td": 5, "welcome": 4, "ping": 0, "nak": 2}
EVENTS_WITH_INDEX = ("alert", "undo")
MAX_CALL = 37            # SPEC 3: 1C = 3 .. 7NT = 37
HIDDEN = 0x3F            # SPEC 3 STATE: call byte bits 0-5 0x3F hidden from this seat
MAX_CALLS = 319          # SPEC 3 STATE: n <= 319
MAX_MESSAGE = 64         # SPEC 3 STATE: mlen <= 64
MAX_NAME = 16            # SPEC 3c: nlen 0..16
STATE_FIXED = 16         # SPEC 3a: STATE 16..400 (turn .. n, then mlen)
STOP_TRIGGERS = ((4, "jump"), (5, "opening_two_level"))
VULS = ("None", "NS", "EW", "All")
LANG_VERSION = 3         # SPEC 3 STATE: "lang u8 (version 3 and later)"
LANGS = {1: "en", 2: "sv", 3: "da"}  # SPEC 3 STATE: the language codes; 0 and others: none

# STATE body offsets (SPEC 3, "STATE body", and the BAD_FIELD detail list)
S_TURN, S_FLAGS, S_LOWEST, S_ALLOWED, S_STOP_MS, S_BOARD, S_DEALER, S_VUL, S_N, S_CALLS = (
    0, 1, 2, 3, 8, 10, 11, 12, 13, 15)


def crc16(data: bytes) -> int:
    """SPEC 2: CRC-16/CCITT-FALSE, poly 0x1021, init 0xFFFF, no reflection, no final xor."""
    crc = 0xFFFF
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def cobs_decode(frame: bytes) -> bytes | None:
    """SPEC 2: COBS (Cheshire & Baker) without the 0x00 delimiter; None when the code is broken."""
    out = bytearray()
    i = 0
    while i < len(frame):
        code = frame[i]
        if code == 0 or i + code > len(frame):
            return None
        out += frame[i + 1:i + code]
        i += code
        if code < 0xFF and i < len(frame):
            out.append(0)
    return bytes(out)


def cobs_encode(data: bytes) -> bytes:
    out = bytearray()
    block = bytearray()
    for b in data:
        if b == 0:
            out += bytes([len(block) + 1]) + block
            block = bytearray()
        else:
            block.append(b)
            if len(block) == 0xFE:
                out += bytes([0xFF]) + block
                block = bytearray()
    out += bytes([len(block) + 1]) + block
    return bytes(out)


def wire(payload: bytes) -> bytes:
    return cobs_encode(payload) + b"\x00"


def frames(data: bytes) -> list[bytes | None]:
    """Each non-empty frame between 0x00 delimiters: its payload when it is one (COBS sound,
    8..408 bytes, CRC right), None for a garbled one (SPEC 2). Bytes after the last delimiter are
    a frame not yet ended and are not returned."""
    out: list[bytes | None] = []
    for chunk in data.split(b"\x00")[:-1]:
        if not chunk:
            continue  # SPEC 2: an empty frame is ignored
        if len(chunk) > MAX_WIRE - 1:
            out.append(None)  # SPEC 2: more than 411 bytes between delimiters
            continue
        p = cobs_decode(chunk)
        if p is None or not MIN_PAYLOAD <= len(p) <= MAX_PAYLOAD:
            out.append(None)
        elif crc16(p[:-CRC_LEN]) != (p[-2] << 8) | p[-1]:
            out.append(None)
        else:
            out.append(p)
    return out


def _call_name(code: int) -> str:
    if code < 3:
        return ("P", "X", "XX")[code]
    return f"{(code - 3) // 5 + 1}{('C', 'D', 'H', 'S', 'NT')[(code - 3) % 5]}"


def _utf8(b: bytes) -> str | None:
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        return None


def sound(payload: bytes) -> bool:
    """SPEC 2: the size and CRC of a payload (what the deframer checks)."""
    return (MIN_PAYLOAD <= len(payload) <= MAX_PAYLOAD
            and crc16(payload[:-CRC_LEN]) == (payload[-2] << 8) | payload[-1])


def state_bad_field(body: bytes, version: int = 2) -> int | None:
    """SPEC 3a, the STATE checks a-j in their order: None for a body the box applies, else the
    offset the first failing check names. The caller has checked 16 <= len(body) <= 400 (row 4).
    From version 3 the body ends one byte after the message (SPEC 3, `lang`, any value)."""
    lang = 1 if version >= LANG_VERSION else 0
    if not (body[S_TURN] <= 3 or body[S_TURN] == 0xFF):                  # a
        return S_TURN
    if body[S_FLAGS] & 0xC0:                                              # b
        return S_FLAGS
    if not (3 <= body[S_LOWEST] <= MAX_CALL or body[S_LOWEST] == 0xFF):  # c
        return S_LOWEST
    if body[S_ALLOWED + 4] & 0xC0:                                        # d
        return S_ALLOWED + 4
    if body[S_DEALER] > 3:                                                # e
        return S_DEALER
    if body[S_VUL] > 3:                                                   # f
        return S_VUL
    n = (body[S_N] << 8) | body[S_N + 1]
    if n > MAX_CALLS or len(body) < 16 + n:                               # g
        return S_N
    m = S_CALLS + n
    mlen = body[m]
    if mlen > MAX_MESSAGE or len(body) != 16 + n + mlen + lang:           # h
        return m
    for i in range(n):                                                    # i
        code = body[S_CALLS + i] & 0x3F
        if code > MAX_CALL and code != HIDDEN:
            return S_CALLS + i
    if _utf8(bytes(body[m + 1:m + 1 + mlen])) is None:                    # j
        return m + 1
    return None


def _allowed(body: bytes) -> list[str]:
    return [_call_name(c) for c in range(MAX_CALL + 1)
            if body[S_ALLOWED + (c >> 3)] & (1 << (c & 7))]


def state_view(body: bytes, version: int = 2) -> dict:
    """SPEC 3, the Python form of a STATE, from a body state_bad_field accepted; from version 3
    with its "lang" (None for 0 and for a code SPEC 3 does not list)."""
    flags = body[S_FLAGS]
    n = (body[S_N] << 8) | body[S_N + 1]
    auction = []
    for i in range(n):
        b = body[S_CALLS + i]
        code = b & 0x3F
        auction.append({"call": None if code == HIDDEN else _call_name(code),
                        "alert": bool(b & 0x40), "stop": bool(b & 0x80)})
    m = S_CALLS + n
    view = {
        "turn": None if body[S_TURN] == 0xFF else SEATS[body[S_TURN]],
        "frozen": bool(flags & 1), "over": bool(flags & 2), "prevent": bool(flags & 4),
        "screens": bool(flags & 8),
        "stop_triggers": [name for bit, name in STOP_TRIGGERS if flags & (1 << bit)],
        "lowest": None if body[S_LOWEST] == 0xFF else _call_name(body[S_LOWEST]),
        "allowed": _allowed(body),
        "stop_ms": (body[S_STOP_MS] << 8) | body[S_STOP_MS + 1],
        "board": body[S_BOARD], "dealer": SEATS[body[S_DEALER]], "vul": VULS[body[S_VUL]],
        "auction": auction,
        "message": bytes(body[m + 1:m + 1 + body[m]]).decode("utf-8"),
    }
    if version >= LANG_VERSION:
        view["lang"] = LANGS.get(body[-1])
    return view


def _caps(body: bytes) -> dict | None:
    """SPEC 3c."""
    nlen = body[12]
    if nlen > MAX_NAME or len(body) != 13 + nlen:
        return None
    name = _utf8(bytes(body[13:]))
    if name is None:
        return None
    flags = body[4]
    return {"vendor": (body[0] << 8) | body[1], "fw": (body[2] << 8) | body[3],
            "bus": bool(flags & 1), "suits": bool(flags & 2), "latin1": bool(flags & 4),
            "lines": body[5], "cols": body[6],
            "keys": int.from_bytes(bytes(body[7:11]), "big"), "name": name}


def _body_fields(name: str, body: bytes, version: int) -> dict | None:
    if name in FIXED_LEN and len(body) != FIXED_LEN[name]:
        return None
    if name == "hello":
        return {"ver_min": body[0], "ver_max": body[1], "base_seq": body[2],
                "bus": bool(body[3] & 1), "fw": (body[4] << 8) | body[5]}
    if name == "box_nak":
        if body[0] not in REASONS:
            return None
        return {"reason": REASONS[body[0]], "of_type": body[1], "of_seq": body[2],
                "detail": body[3]}
    if name == "nak":
        if not 1 <= body[0] <= TABLET_REASON_MAX:
            return None
        return {"reason": REASONS[body[0]], "detail": body[1]}
    if name == "welcome":
        return {"version": body[0], "base_seq": body[1], "box_epoch": (body[2] << 8) | body[3]}
    if name == "caps":
        return _caps(body) if len(body) >= 13 else None
    if name == "state":
        if not STATE_FIXED <= len(body) <= MAX_BODY or state_bad_field(body, version) is not None:
            return None
        return {"view": state_view(body, version)}
    if name in ("ack", "ping"):
        return {}
    box_ms = int.from_bytes(bytes(body[0:4]), "big")
    if name == "call":
        return {"box_ms": box_ms, "call": _call_name(body[4])} if body[4] <= MAX_CALL else None
    if name in EVENTS_WITH_INDEX:
        return {"box_ms": box_ms, "index": None if body[4] == 0xFF else body[4]}
    return {"box_ms": box_ms}  # SPEC 3: STOP, REVIEW, TD: `arg` any value, ignored


def decode(payload: bytes, version: int = 2) -> dict | None:
    """The message in a payload (the golden file's dict form), or None when every receiver in a
    session of `version` discards it (SPEC 2 and 3)."""
    if not sound(payload):
        return None
    addr, t = payload[0], payload[1]
    if addr & 0x7C:
        return None
    types = BOX_TYPES if addr & 0x80 else TABLET_TYPES
    if t not in types:
        return None
    epoch = (payload[2] << 8) | payload[3]
    if epoch == 0:
        return None
    fields = _body_fields(types[t], payload[HEADER:-CRC_LEN], version)
    if fields is None:
        return None
    msg = {"type": types[t], "seat": SEATS[addr & 3], "epoch": epoch, "seq": payload[4],
           "ack": payload[5]}
    msg.update(fields)
    return msg


def index_call(k: int, n: int) -> int | None:
    """SPEC 3, `index`: the call an ALERT's or UNDO's index k names in an auction of n calls;
    None for 0xFF and for a k that names no call."""
    if k == 0xFF:
        return None
    named = [i for i in range(n) if i % 255 == k]
    return named[-1] if named else None


def _nak(reason: int, of_type: int, of_seq: int, detail: int = 0xFF) -> dict:
    return {"reason": REASONS[reason], "of_type": of_type, "of_seq": of_seq, "detail": detail}


def box_answer(payload: bytes | None, *, seat: int, box_epoch: int, tablet_epoch: int,
               bus: bool, session: bool = True, version: int = 2,
               versions: tuple[int, int] = (1, 3)) -> tuple[str, dict | None]:
    """What a box of `seat` speaking `versions` does with one frame (SPEC 3a, rows 1-11, in
    their order; 3b for its NAK), in a session of `version` with a tablet of `tablet_epoch`
    (session=False: before any). payload None is a garbled frame (row 1). Returns (outcome, nak): outcome "apply" (the
    frame is used), "drop" (changes nothing) or "rehello" (row 11: the session ends); nak the
    BOX_NAK it sends, or None."""
    def nak(reason: int, t: int, seq: int, detail: int = 0xFF) -> dict | None:
        # SPEC 3b: only in a session of version 2, except VERSION; never a NAK of a NAK
        if t == NAK or (reason != 3 and not session):
            return None
        return _nak(reason, t, seq, detail)

    if payload is None:                                                   # 1
        return "drop", (None if bus or not session else _nak(1, 0, 0))
    addr, t, seq = payload[0], payload[1], payload[4]
    if addr != seat:                                                      # 2
        return "drop", None
    body = payload[HEADER:-CRC_LEN]
    if t not in TABLET_TYPES:                                             # 3
        return "drop", nak(6, t, seq)
    if t == STATE:
        ok_len = STATE_FIXED <= len(body) <= MAX_BODY
    else:
        ok_len = len(body) == FIXED_LEN[TABLET_TYPES[t]]
    if not ok_len:                                                        # 4
        return "drop", nak(7, t, seq)
    epoch = (payload[2] << 8) | payload[3]
    if epoch == 0:                                                        # 5
        return "drop", nak(9, t, seq)
    if t == NAK and not 1 <= body[0] <= TABLET_REASON_MAX:                # 6
        return "drop", None
    if t == STATE:                                                        # 7
        bad = state_bad_field(body, version if session else 2)
        if bad is not None:
            return "drop", nak(8, t, seq, bad if bad < 0xFF else 0xFF)  # SPEC 3b: detail
    if t == WELCOME:
        if (body[2] << 8) | body[3] != box_epoch:                         # 8
            return "drop", nak(9, t, seq)
        if not versions[0] <= body[0] <= versions[1]:                     # 9
            return "drop", nak(3, t, seq, versions[1])
        return "apply", None
    if t == NAK and body[0] == 3:
        return "apply", None  # "update firmware", with or without a session
    if not session:                                                       # 10
        return "drop", None
    if epoch != tablet_epoch:                                             # 11
        return "rehello", None
    return "apply", None


EVENT_NAMES = ("call", "stop", "alert", "undo", "review", "td")
VERSIONS = (1, 3)  # SPEC 4: VERSION_MIN .. VERSION_MAX of this implementation


def tablet_answer(payload: bytes | None, *, seat: int, box_epoch: int, next_seq: int) -> dict:
    """What a tablet in a session with the box of `seat` (epoch box_epoch, expecting event seq
    next_seq) does with one frame from the wire: the events it delivers (SPEC 5: only seq ==
    expected) and the reports it files (SPEC 3b: every BOX_NAK; 3c: a CAPS in sequence; 4: a
    HELLO it shares no version with)."""
    none: dict = {"events": [], "reports": []}
    m = decode(payload) if payload is not None else None
    if m is None or m["type"] not in BOX_TYPES.values() or m["seat"] != SEATS[seat]:
        return none
    t = m["type"]
    if t == "box_nak":
        return {"events": [], "reports": [{"kind": "nak", "reason": m["reason"],
                                           "of_type": m["of_type"], "of_seq": m["of_seq"],
                                           "detail": m["detail"]}]}
    if t == "hello":
        lo, hi = max(m["ver_min"], VERSIONS[0]), min(m["ver_max"], VERSIONS[1])
        if lo > hi:
            text = (f"box {m['seat']} speaks protocol {m['ver_min']}..{m['ver_max']}, this tablet "
                    f"{VERSIONS[0]}..{VERSIONS[1]}: update the box's firmware or the tablet")
            return {"events": [], "reports": [{"kind": "version", "ver_min": m["ver_min"],
                                               "ver_max": m["ver_max"], "text": text}]}
        if m["epoch"] == box_epoch:
            return none  # the same box again: no new session to report
        return {"events": [{"kind": "hello", "box_ms": None, "call": None, "index": None}],
                "reports": []}
    if m["epoch"] != box_epoch or m["seq"] != next_seq:
        return none  # SPEC 4: another box epoch has no session; SPEC 5: duplicate or gap
    if t == "caps":
        rep = {k: v for k, v in m.items() if k not in ("type", "seat", "epoch", "seq", "ack")}
        rep["kind"] = "caps"
        return {"events": [], "reports": [rep]}
    if t in EVENT_NAMES:
        return {"events": [{"kind": t, "box_ms": m["box_ms"], "call": m.get("call"),
                            "index": m.get("index")}], "reports": []}
    return none
