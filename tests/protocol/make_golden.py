"""Regenerate tests/protocol/golden.jsonl: `python -m tests.protocol.make_golden`.

Run only when SPEC.md changes on purpose (then bump the protocol version): the vectors freeze the
byte layout, and both interpreters are checked against them. Independent anchors (the CRC check
value, COBS vectors from the COBS paper) are in test_codec.py."""
import binascii
import json
import pathlib

from protocol import messages as M
from protocol.frame_tools import wire_from_payload

OUT = pathlib.Path(__file__).with_name("golden.jsonl")

FULL_VIEW = {"turn": "W", "frozen": False, "over": False, "prevent": True, "screens": False,
             "stop_triggers": ["jump", "opening_two_level"],
             "lowest": "2D", "allowed": ["P", "X", "2D", "2H", "2S", "2NT", "3C", "7NT"],
             "stop_ms": 10000, "board": 17, "dealer": "N", "vul": "All",
             "auction": [{"call": "1H", "alert": False, "stop": False},
                         {"call": "P", "alert": False, "stop": False},
                         {"call": "2C", "alert": True, "stop": True}],
             "message": "Stop: vänta 10 s"}
SCREEN_VIEW = {"turn": None, "frozen": True, "over": False, "prevent": False, "screens": True,
               "stop_triggers": ["jump"],
               "lowest": None, "allowed": [], "stop_ms": 0, "board": 255, "dealer": "S",
               "vul": "EW",
               "auction": [{"call": None, "alert": False, "stop": False},
                           {"call": "7NT", "alert": True, "stop": True},
                           {"call": "XX", "alert": False, "stop": False}],
               "message": "TD called (Law 9B)"}
EMPTY_VIEW = {"turn": "N", "frozen": False, "over": False, "prevent": False, "screens": False,
              "stop_triggers": [],
              "lowest": "1C", "allowed": [], "stop_ms": 0, "board": 0, "dealer": "N",
              "vul": "None", "auction": [], "message": ""}

MESSAGES = [
    {"type": "hello", "seat": "N", "epoch": 0x1234, "seq": 0, "ack": 0, "ver_min": 1, "ver_max": 1,
     "base_seq": 0, "bus": False, "fw": 1},
    {"type": "hello", "seat": "W", "epoch": 0xFFFF, "seq": 9, "ack": 200, "ver_min": 1, "ver_max": 3,
     "base_seq": 7, "bus": True, "fw": 0x0102},
    {"type": "ack", "seat": "E", "epoch": 0x00FF, "seq": 3, "ack": 0},
    {"type": "call", "seat": "S", "epoch": 0xBEEF, "seq": 4, "ack": 2, "box_ms": 123456, "call": "1NT"},
    {"type": "call", "seat": "E", "epoch": 0x0100, "seq": 255, "ack": 255, "box_ms": 0xFFFFFFFF,
     "call": "P"},
    {"type": "call", "seat": "W", "epoch": 0x0001, "seq": 0, "ack": 0, "box_ms": 0, "call": "XX"},
    {"type": "call", "seat": "N", "epoch": 0x0A0B, "seq": 12, "ack": 5, "box_ms": 65536, "call": "7NT"},
    {"type": "stop", "seat": "N", "epoch": 0x1234, "seq": 1, "ack": 1, "box_ms": 5000},
    {"type": "alert", "seat": "E", "epoch": 0x4321, "seq": 2, "ack": 1, "box_ms": 6000, "index": 4},
    {"type": "alert", "seat": "E", "epoch": 0x4321, "seq": 3, "ack": 1, "box_ms": 6001, "index": None},
    {"type": "undo", "seat": "S", "epoch": 0x0077, "seq": 8, "ack": 3, "box_ms": 7000, "index": None},
    {"type": "undo", "seat": "S", "epoch": 0x0077, "seq": 9, "ack": 3, "box_ms": 7001, "index": 0},
    {"type": "review", "seat": "W", "epoch": 0x5555, "seq": 0, "ack": 0, "box_ms": 1},
    {"type": "td", "seat": "N", "epoch": 0xAAAA, "seq": 128, "ack": 127, "box_ms": 86400000},
    {"type": "welcome", "seat": "S", "epoch": 0x9999, "seq": 0, "ack": 0, "version": 1, "base_seq": 0,
     "box_epoch": 0xBEEF},
    {"type": "ping", "seat": "N", "epoch": 0x9999, "seq": 5, "ack": 6},
    {"type": "nak", "seat": "E", "epoch": 0x9999, "seq": 5, "ack": 6, "reason": "bad_frame", "detail": 6},
    {"type": "nak", "seat": "E", "epoch": 0x9999, "seq": 5, "ack": 6, "reason": "out_of_sequence",
     "detail": 6},
    {"type": "nak", "seat": "W", "epoch": 0x9999, "seq": 0, "ack": 0, "reason": "version", "detail": 1},
    {"type": "nak", "seat": "S", "epoch": 0x9999, "seq": 0, "ack": 0, "reason": "no_session",
     "detail": 0},
    {"type": "nak", "seat": "N", "epoch": 0x9999, "seq": 0, "ack": 0, "reason": "malformed",
     "detail": 16},
    {"type": "box_nak", "seat": "N", "epoch": 0x1234, "seq": 2, "ack": 5, "reason": "bad_frame",
     "of_type": 0, "of_seq": 0, "detail": 0xFF},
    {"type": "box_nak", "seat": "E", "epoch": 0x1234, "seq": 2, "ack": 5, "reason": "out_of_sequence",
     "of_type": 0x30, "of_seq": 9, "detail": 0xFF},
    {"type": "box_nak", "seat": "S", "epoch": 0x1234, "seq": 0, "ack": 0, "reason": "version",
     "of_type": 0x21, "of_seq": 0, "detail": 2},
    {"type": "box_nak", "seat": "W", "epoch": 0x1234, "seq": 0, "ack": 0, "reason": "no_session",
     "of_type": 0x22, "of_seq": 3, "detail": 0xFF},
    {"type": "box_nak", "seat": "N", "epoch": 0x1234, "seq": 1, "ack": 1, "reason": "malformed",
     "of_type": 0x30, "of_seq": 4, "detail": 0xFF},
    {"type": "box_nak", "seat": "N", "epoch": 0x1234, "seq": 1, "ack": 1, "reason": "unknown_type",
     "of_type": 0x7E, "of_seq": 4, "detail": 0xFF},
    {"type": "box_nak", "seat": "N", "epoch": 0x1234, "seq": 1, "ack": 1, "reason": "bad_length",
     "of_type": 0x22, "of_seq": 4, "detail": 0xFF},
    {"type": "box_nak", "seat": "N", "epoch": 0x1234, "seq": 1, "ack": 1, "reason": "bad_field",
     "of_type": 0x30, "of_seq": 4, "detail": 11},
    {"type": "box_nak", "seat": "N", "epoch": 0x1234, "seq": 1, "ack": 1, "reason": "bad_epoch",
     "of_type": 0x21, "of_seq": 0, "detail": 0xFF},
    # the reference box's CAPS (firmware/app.py; tests/firmware/mp/fw_fuzz_checks.py checks the
    # box sends exactly these bytes): 4 lines of 12 with the suit symbols (firmware/font16.py)
    {"type": "caps", "seat": "N", "epoch": 0x1234, "seq": 0, "ack": 0, "vendor": 0, "fw": 1,
     "bus": False, "suits": True, "latin1": False, "lines": 4, "cols": 12, "keys": 0x7FFFFE,
     "name": "ref-box"},
    {"type": "caps", "seat": "S", "epoch": 0x0042, "seq": 17, "ack": 3, "vendor": 0x7F01,
     "fw": 0x0310, "bus": True, "suits": True, "latin1": True, "lines": 4, "cols": 20,
     "keys": 0x7FFFFE, "name": "Åbo BB-4"},
    {"type": "caps", "seat": "W", "epoch": 0x0042, "seq": 0, "ack": 0, "vendor": 0xFFFF,
     "fw": 0, "bus": False, "suits": False, "latin1": False, "lines": 0, "cols": 0,
     "keys": 0x0001FFFE, "name": ""},
    {"type": "state", "seat": "W", "epoch": 0x9999, "seq": 7, "ack": 3, "view": FULL_VIEW},
    {"type": "state", "seat": "N", "epoch": 0x9999, "seq": 0, "ack": 0, "view": SCREEN_VIEW},
    {"type": "state", "seat": "N", "epoch": 0x0001, "seq": 1, "ack": 0, "view": EMPTY_VIEW},
]

# STATEs in a session of version 3: the body ends with the player's language (SPEC.md section 3)
V3_MESSAGES = [
    {"type": "state", "seat": "W", "epoch": 0x9999, "seq": 8, "ack": 3,
     "view": dict(FULL_VIEW, lang="sv")},
    {"type": "state", "seat": "E", "epoch": 0x9999, "seq": 9, "ack": 3,
     "view": dict(SCREEN_VIEW, lang="da", message="TL tilkaldt")},
    {"type": "state", "seat": "N", "epoch": 0x0001, "seq": 1, "ack": 0,
     "view": dict(EMPTY_VIEW, lang="en")},
    {"type": "state", "seat": "N", "epoch": 0x0001, "seq": 2, "ack": 0,
     "view": dict(EMPTY_VIEW, lang=None)},
]


def hexs(b):
    return binascii.hexlify(b).decode()


def bad_vectors(good):
    """Payloads that must decode to None: one per way a frame can be wrong."""
    out = []
    call = bytearray(good)
    call[-1] ^= 0x01
    out.append(("crc flipped", bytes(call)))
    out.append(("truncated", good[:-3]))
    out.append(("too short", good[:7]))
    r = bytearray(M.encode_payload(MESSAGES[3]))
    r[0] |= 0x04
    M.put_crc(r, len(r) - 2)
    out.append(("reserved address bits", bytes(r)))
    r = bytearray(M.encode_payload(MESSAGES[3]))
    r[1] = 0x7E
    M.put_crc(r, len(r) - 2)
    out.append(("unknown type", bytes(r)))
    r = bytearray(M.encode_payload(MESSAGES[3]))
    r[M.HEADER + 4] = 38
    M.put_crc(r, len(r) - 2)
    out.append(("call code 38", bytes(r)))
    r = bytearray(M.encode_payload(MESSAGES[3]))
    r[0] &= 0x7F  # a box message type sent as from the tablet
    M.put_crc(r, len(r) - 2)
    out.append(("wrong direction", bytes(r)))
    r = bytearray(M.encode_payload(MESSAGES[3]))
    r[2] = r[3] = 0  # epoch 0 is never sent
    M.put_crc(r, len(r) - 2)
    out.append(("epoch 0", bytes(r)))
    r = bytearray(M.encode_payload(MESSAGES[16]))
    r[M.HEADER] = 9  # no such NAK reason
    M.put_crc(r, len(r) - 2)
    out.append(("unknown NAK reason", bytes(r)))
    s = bytearray(M.encode_payload(MESSAGES[-1]))
    s[M.HEADER + 11] = 4  # dealer 4
    M.put_crc(s, len(s) - 2)
    out.append(("state dealer 4", bytes(s)))
    s = bytearray(M.encode_payload(MESSAGES[-1]))
    s[M.HEADER + 14] = 1  # one call announced, none present
    M.put_crc(s, len(s) - 2)
    out.append(("state length mismatch", bytes(s)))
    s = bytearray(M.encode_payload(MESSAGES[-1]))
    s[M.HEADER + 1] |= 0x40  # a STATE flag bit no version defines
    M.put_crc(s, len(s) - 2)
    out.append(("state reserved flag bit 6", bytes(s)))
    r = bytearray(M.encode_payload(MESSAGES[16]))
    r[M.HEADER] = M.BAD_FIELD  # a reason only the box's NAK has
    M.put_crc(r, len(r) - 2)
    out.append(("tablet NAK with a box-only reason", bytes(r)))
    r = bytearray(M.encode_payload(_msg("box_nak")))
    r[M.HEADER] = 10  # no such reason
    M.put_crc(r, len(r) - 2)
    out.append(("box NAK unknown reason", bytes(r)))
    r = bytearray(M.encode_payload(_msg("caps")))
    r[M.HEADER + 12] += 1  # the name's length says one byte more than there is
    M.put_crc(r, len(r) - 2)
    out.append(("caps name length mismatch", bytes(r)))
    # valid UTF-8 is RFC 3629's (SPEC.md section 2): MicroPython's own decode takes all of these
    for why, raw in (("overlong NUL", b"\xc0\x80"), ("overlong slash", b"\xe0\x80\xaf"),
                     ("a surrogate", b"\xed\xa0\x80"), ("past U+10FFFF", b"\xf4\x90\x80\x80"),
                     ("lead byte 0xF5", b"\xf5\x80\x80\x80"), ("cut short", b"ab\xe2\x99")):
        out.append(("state message not UTF-8: " + why, _payload(M.STATE, 0, _state_body(raw))))
    out.append(("caps name with a surrogate",
                _payload(M.CAPS, M.FROM_BOX, M.caps_body(0, 1, 0, 4, 16, 0x7FFFFE, b"\xed\xbf\xbf"))))
    out.append(("call code 0xFF (none)", _payload(M.CALL, M.FROM_BOX, b"\0\0\0\x01\xff")))
    out.append(("event type 0x16 (no version defines it)",
                _payload(0x16, M.FROM_BOX, b"\0\0\0\x01\xff")))
    out.append(("state body of 15 bytes", _payload(M.STATE, 0, bytes(15))))
    b = bytearray(_state_body(b"abc"))
    b[M.S_AUCTION] = 4  # mlen says 4, 3 bytes follow: too short for its message
    out.append(("state too short for its message", _payload(M.STATE, 0, b)))
    out.append(("state with a trailing byte", _payload(M.STATE, 0, _state_body(b"abc") + b"x")))
    out.append(("tablet type sent as from a box", _payload(M.PING, M.FROM_BOX, b"")))
    return out


def _payload(t, addr, body, epoch=0x1234, seq=1, ack=0):
    """A payload with a right CRC: header, body as given (no checks), CRC."""
    b = bytearray(M.HEADER + len(body) + M.CRC)
    M.put_header(b, addr, t, epoch, seq, ack)
    b[M.HEADER:M.HEADER + len(body)] = body
    M.put_crc(b, M.HEADER + len(body))
    return bytes(b)


def _state_body(message_bytes, auction=()):
    """EMPTY_VIEW's STATE body with the message bytes as given (valid UTF-8 or not)."""
    b = bytearray(M.encode_state(dict(EMPTY_VIEW, auction=list(auction))))
    del b[M.S_AUCTION + len(auction):]
    return bytes(b) + bytes([len(message_bytes)]) + message_bytes


# Payloads no encoder writes (encode_payload always writes 0xFF where a value has no meaning) that
# every receiver accepts, and the message each decodes to (SPEC.md section 3).
def decodes_vectors():
    base = {"seat": "N", "epoch": 0x1234, "seq": 1, "ack": 0, "box_ms": 0x2000}
    out = []
    for t, name in ((M.STOP, "stop"), (M.REVIEW, "review"), (M.TD, "td")):
        for arg in (0x00, 0x7E):
            out.append((f"{name.upper()} with arg 0x{arg:02x} (ignored)",
                        _payload(t, M.FROM_BOX, b"\0\0\x20\0" + bytes([arg])), dict(base, type=name)))
    out.append(("HELLO with ver_min > ver_max and flag bits 1-7 set (the tablet refuses the versions)",
                _payload(M.HELLO, M.FROM_BOX, bytes([3, 1, 0, 0xFF, 0, 1])),
                {"type": "hello", "seat": "N", "epoch": 0x1234, "seq": 1, "ack": 0, "ver_min": 3,
                 "ver_max": 1, "base_seq": 0, "bus": True, "fw": 1}))
    out.append(("CAPS with reserved flag, key and byte bits set (passed on, no meaning)",
                _payload(M.CAPS, M.FROM_BOX, bytes([0, 0, 0, 1, 0xFB, 4, 16, 0xFF, 0xFF, 0xFF, 0xFF,
                                                    0x55, 0])),
                {"type": "caps", "seat": "N", "epoch": 0x1234, "seq": 1, "ack": 0, "vendor": 0,
                 "fw": 1, "bus": True, "suits": True, "latin1": False, "lines": 4, "cols": 16,
                 "keys": 0xFFFFFFFF, "name": ""}))
    out.append(("WELCOME version 0 (the box judges it: a VERSION NAK)",
                _payload(M.WELCOME, 0, bytes([0, 5, 0xBE, 0xEF])),
                {"type": "welcome", "seat": "N", "epoch": 0x1234, "seq": 1, "ack": 0, "version": 0,
                 "base_seq": 5, "box_epoch": 0xBEEF}))
    out.append(("STATE message with a 4-byte character (U+1F0A1) and the last one, U+10FFFF",
                _payload(M.STATE, 0, _state_body("\U0001F0A1\U0010FFFF".encode())),
                {"type": "state", "seat": "N", "epoch": 0x1234, "seq": 1, "ack": 0,
                 "view": dict(EMPTY_VIEW, message="\U0001F0A1\U0010FFFF")}))
    return out


# Which call an ALERT's or UNDO's index names in an auction of n calls (SPEC.md section 3:
# the latest call i < n with i mod 255 = index; 0xFF the sender's own reading, here None).
INDEX_CASES = [(0, 1, 0), (4, 12, 4), (12, 12, None), (254, 255, 254), (254, 254, None),
               (0, 255, 0), (0, 256, 255), (1, 256, 1), (63, 319, 318), (64, 319, 64),
               (0, 319, 255), (10, 300, 265), (0xFF, 319, None)]


def v3_bad_vectors():
    """Payloads a receiver in a version 3 session discards."""
    v2_layout = M.encode_payload(MESSAGES[-1])  # no language byte
    two = bytearray(M.encode_payload(V3_MESSAGES[2], 3))
    two[-2:-2] = b"\x02"  # a second byte after the message
    M.put_crc(two, len(two) - 2)
    return [("state of version 2's layout in a version 3 session (no language byte)", v2_layout),
            ("state with two bytes after its message in a version 3 session", bytes(two))]


def v3_decodes_vectors():
    p = bytearray(M.encode_payload(V3_MESSAGES[2], 3))
    p[-3] = 9  # a language code SPEC.md does not list: accepted, shown in the box's default
    M.put_crc(p, len(p) - 2)
    m = dict(V3_MESSAGES[2], view=dict(EMPTY_VIEW, lang=None))
    return [("STATE with language code 9 (unknown: the box's default)", bytes(p), m)]


def _msg(t):
    return next(m for m in MESSAGES if m["type"] == t)


# Frames a tablet might send that a box in a version 2 session (seat N, tablet epoch 0x9999,
# box epoch BOX_EPOCH) cannot use, each with the box's answer: its NAK (reason, of_type, of_seq,
# detail) or None where the SPEC says the box stays silent (section 3b).
BOX_EPOCH = 0x1234
TABLET_EPOCH = 0x9999


def _tab(t, body, seq=4, addr=0, epoch=TABLET_EPOCH):
    b = bytearray(M.HEADER + len(body) + M.CRC)
    M.put_header(b, addr, t, epoch, seq, 0)
    b[M.HEADER:M.HEADER + len(body)] = body
    M.put_crc(b, M.HEADER + len(body))
    return b


def _state(seq=4, epoch=TABLET_EPOCH, **fix):
    b = bytearray(M.encode_payload({"type": "state", "seat": "N", "epoch": epoch or 1, "seq": seq,
                                    "ack": 0, "view": EMPTY_VIEW}))
    b[2], b[3] = epoch >> 8, epoch & 0xFF
    for off, v in fix.items():
        b[M.HEADER + int(off[1:])] = v
    M.put_crc(b, len(b) - 2)
    return b


def box_bad_cases():
    nak = lambda r, t, seq, d=0xFF: {"reason": r, "of_type": t, "of_seq": seq, "detail": d}  # noqa: E731
    crc = _tab(M.PING, b"")
    crc[-1] ^= 0x01
    trailing = _tab(M.STATE, bytes(M.encode_state(EMPTY_VIEW)) + b"\x00")
    hidden = bytearray(M.encode_state(dict(EMPTY_VIEW, auction=[{"call": "P"}])))
    hidden[M.S_AUCTION] = 0x3E  # call code 62: neither a call nor "hidden"
    short_msg = bytearray(_state_body(b"abc"))
    short_msg[M.S_AUCTION] = 4
    bad_call_and_msg = bytearray(_state_body(b"\xff", auction=[{"call": "P"}]))
    bad_call_and_msg[M.S_AUCTION] = 0x3E
    long_msg = bytearray(M.encode_state(dict(EMPTY_VIEW, auction=[{"call": "P"}] * 319)))
    long_msg = long_msg[:-1] + bytes([65]) + b"m" * 65  # 400 bytes
    _state_epoch0 = _state(s11=4, epoch=0)
    bad_call_239 = bytearray(M.encode_state(dict(EMPTY_VIEW, auction=[{"call": "P"}] * 300)))
    bad_call_240 = bytearray(bad_call_239)
    bad_call_239[M.S_AUCTION + 239] = 0x26  # call code 38
    bad_call_240[M.S_AUCTION + 240] = 0x26
    return [
        ("crc flipped (point-to-point)", crc, False, nak("bad_frame", 0, 0)),
        ("crc flipped (bus: its address cannot be trusted)", crc, True, None),
        ("unknown type 0x7E", _tab(0x7E, b"\x01"), False, nak("unknown_type", 0x7E, 4)),
        ("a box's type sent to the box", _tab(M.CALL, b"\0\0\0\0\0"), False,
         nak("unknown_type", M.CALL, 4)),
        ("PING with a body", _tab(M.PING, b"\x00"), False, nak("bad_length", M.PING, 4)),
        ("WELCOME 3 bytes", _tab(M.WELCOME, b"\x02\x00\x12"), False,
         nak("bad_length", M.WELCOME, 4)),
        ("STATE shorter than its fixed part", _tab(M.STATE, bytes(15)), False,
         nak("bad_length", M.STATE, 4)),
        ("STATE turn 4", _state(s0=4), False, nak("bad_field", M.STATE, 4, M.S_TURN)),
        ("STATE reserved flag bit 6", _state(s1=0x40), False, nak("bad_field", M.STATE, 4, M.S_FLAGS)),
        ("STATE lowest 0 (pass is not a bid)", _state(s2=0), False,
         nak("bad_field", M.STATE, 4, M.S_LOWEST)),
        ("STATE allowed bit of call code 38", _state(s7=0x40), False,
         nak("bad_field", M.STATE, 4, M.S_ALLOWED + 4)),
        ("STATE dealer 4", _state(s11=4), False, nak("bad_field", M.STATE, 4, M.S_DEALER)),
        ("STATE vul 4", _state(s12=4), False, nak("bad_field", M.STATE, 4, M.S_VUL)),
        ("STATE n 320", _state(s13=1, s14=64), False, nak("bad_field", M.STATE, 4, M.S_N)),
        ("STATE trailing byte", trailing, False, nak("bad_field", M.STATE, 4, M.S_AUCTION)),
        ("STATE call code 62", _tab(M.STATE, hidden), False,
         nak("bad_field", M.STATE, 4, M.S_AUCTION)),
        ("STATE message not UTF-8", _tab(M.STATE, bytes(M.encode_state(EMPTY_VIEW))[:-1] + b"\x01\xff"),
         False, nak("bad_field", M.STATE, 4, M.S_AUCTION + 1)),
        ("epoch 0", _tab(M.PING, b"", epoch=0), False, nak("bad_epoch", M.PING, 4)),
        ("WELCOME for another boot of the box",
         _tab(M.WELCOME, bytes([2, 0, 0x43, 0x21]), seq=0), False, nak("bad_epoch", M.WELCOME, 0)),
        ("WELCOME version 9", _tab(M.WELCOME, bytes([9, 0, BOX_EPOCH >> 8, BOX_EPOCH & 0xFF]), seq=0),
         False, nak("version", M.WELCOME, 0, 2)),
        ("another seat's PING", _tab(M.PING, b"", addr=1), False, None),
        ("reserved address bits (a broadcast of a later version)", _tab(M.PING, b"", addr=0x7C), False,
         None),
        ("a box's frame (direction bit)", _tab(M.ACK, b"", addr=0x80), False, None),
        ("NAK with an unknown reason (never a NAK of a NAK)", _tab(M.NAK, b"\x09\x00"), False, None),
        ("NAK 3 bytes (never a NAK of a NAK)", _tab(M.NAK, b"\x01\x00\x00"), False, None),
        # one reading of the STATE checks' order (SPEC.md section 3a, checks a-j)
        ("STATE too short for its message (mlen 4, 3 bytes follow)",
         _tab(M.STATE, short_msg), False, nak("bad_field", M.STATE, 4, M.S_AUCTION)),
        ("STATE ending before its mlen byte (n 2, no call bytes)",
         _tab(M.STATE, bytes(M.encode_state(dict(EMPTY_VIEW, message="ab")))[:M.S_N] + b"\x00\x02" + b"\x41"),
         False, nak("bad_field", M.STATE, 4, M.S_N)),
        ("STATE with a bad call byte and a trailing byte (the structure first)",
         _tab(M.STATE, bytes(hidden) + b"\x00"), False, nak("bad_field", M.STATE, 4, M.S_AUCTION + 1)),
        ("STATE with a bad call byte and a bad message (the calls first)",
         _tab(M.STATE, bad_call_and_msg), False, nak("bad_field", M.STATE, 4, M.S_AUCTION)),
        ("STATE turn 4 and dealer 4 (the first field)", _state(s0=4, s11=4), False,
         nak("bad_field", M.STATE, 4, M.S_TURN)),
        ("STATE message with an overlong form", _tab(M.STATE, _state_body(b"\xc0\x80")), False,
         nak("bad_field", M.STATE, 4, M.S_AUCTION + 1)),
        ("STATE message with a surrogate", _tab(M.STATE, _state_body(b"x\xed\xa0\x80")), False,
         nak("bad_field", M.STATE, 4, M.S_AUCTION + 1)),
        ("STATE body of 400 bytes: n 319, mlen 65 (offset 334: detail 0xFF)", _tab(M.STATE, long_msg),
         False, nak("bad_field", M.STATE, 4, 0xFF)),
        ("STATE with call byte 239 bad (offset 254)", _tab(M.STATE, bad_call_239), False,
         nak("bad_field", M.STATE, 4, 254)),
        ("STATE with call byte 240 bad (offset 255: detail 0xFF)", _tab(M.STATE, bad_call_240), False,
         nak("bad_field", M.STATE, 4, 0xFF)),
        ("STATE body of 401 bytes (a payload of 409: not a frame, row 1)",
         _tab(M.STATE, long_msg + b"m"), False, nak("bad_frame", 0, 0)),
        # precedence between the rows of section 3a
        ("unknown type with epoch 0 (type before epoch)", _tab(0x7E, b"", epoch=0), False,
         nak("unknown_type", 0x7E, 4)),
        ("PING with a body and epoch 0 (length before epoch)", _tab(M.PING, b"\x00", epoch=0), False,
         nak("bad_length", M.PING, 4)),
        ("STATE dealer 4 with epoch 0 (epoch before fields)", _state_epoch0, False,
         nak("bad_epoch", M.STATE, 4)),
        ("STATE dealer 4 from another tablet epoch (the fields before the session)",
         _state(s11=4, epoch=0x7777), False, nak("bad_field", M.STATE, 4, M.S_DEALER)),
        ("WELCOME for another boot in version 9 (box epoch before version)",
         _tab(M.WELCOME, bytes([9, 0, 0x43, 0x21]), seq=0), False, nak("bad_epoch", M.WELCOME, 0)),
        ("another seat's frame of an unknown type (address first)", _tab(0x7E, b"", addr=2), False,
         None),
        ("NAK with an unknown reason and epoch 0", _tab(M.NAK, b"\x09\x00", epoch=0), False, None),
        ("garbled on a bus", crc, True, None),
    ]


def box_bad_cases_v3():
    """Frames a box of version 3 in a version 3 session cannot use (or can: None)."""
    nak = lambda r, t, seq, d=0xFF: {"reason": r, "of_type": t, "of_seq": seq, "detail": d}  # noqa: E731
    with_lang = bytes(M.encode_state(dict(EMPTY_VIEW, lang="sv"), None, 3))
    unknown = bytearray(with_lang)
    unknown[-1] = 200
    return [
        ("STATE without its language byte in a version 3 session", _tab(M.STATE, bytes(M.encode_state(EMPTY_VIEW))),
         False, nak("bad_field", M.STATE, 4, M.S_AUCTION)),
        ("STATE with two bytes after its message in a version 3 session",
         _tab(M.STATE, with_lang + b"\x02"), False, nak("bad_field", M.STATE, 4, M.S_AUCTION)),
        ("STATE with language sv in a version 3 session (applied)", _tab(M.STATE, with_lang), False,
         None),
        ("STATE with language code 200 in a version 3 session (applied: the box's default)",
         _tab(M.STATE, bytes(unknown)), False, None),
        ("STATE with language sv, its message not UTF-8 (the message is checked, not the language)",
         _tab(M.STATE, bytes(M.encode_state(dict(EMPTY_VIEW, message="ab", lang="sv"), None, 3))[:-3]
              + b"\xff\xfe\x02"), False, nak("bad_field", M.STATE, 4, M.S_AUCTION + 1)),
        ("WELCOME version 9 to a version 3 box", _tab(M.WELCOME, bytes([9, 0, BOX_EPOCH >> 8, BOX_EPOCH & 0xFF]), seq=0),
         False, nak("version", M.WELCOME, 0, 3)),
    ]


def main():
    lines = []
    for m in MESSAGES:
        p = M.encode_payload(m)
        assert M.decode_payload(p) == m, m
        lines.append(json.dumps({"msg": m, "payload": hexs(p), "wire": hexs(wire_from_payload(p))},
                                ensure_ascii=False, sort_keys=True))
    for why, p in bad_vectors(M.encode_payload(MESSAGES[3])):
        assert M.decode_payload(p) is None, why
        lines.append(json.dumps({"bad": why, "payload": hexs(p)}, sort_keys=True))
    for why, p, m in decodes_vectors():
        assert M.decode_payload(p) == m, why
        lines.append(json.dumps({"decodes": why, "payload": hexs(p), "msg": m}, ensure_ascii=False,
                                sort_keys=True))
    for m in V3_MESSAGES:
        p = M.encode_payload(m, 3)
        assert M.decode_payload(p, -1, 3) == m, m
        lines.append(json.dumps({"msg": m, "version": 3, "payload": hexs(p),
                                 "wire": hexs(wire_from_payload(p))}, ensure_ascii=False,
                                sort_keys=True))
    for why, p in v3_bad_vectors():
        assert M.decode_payload(p, -1, 3) is None, why
        lines.append(json.dumps({"bad": why, "version": 3, "payload": hexs(p)}, sort_keys=True))
    for why, p, m in v3_decodes_vectors():
        assert M.decode_payload(p, -1, 3) == m, why
        lines.append(json.dumps({"decodes": why, "version": 3, "payload": hexs(p), "msg": m},
                                ensure_ascii=False, sort_keys=True))
    for version, cases in ((2, box_bad_cases()), (3, box_bad_cases_v3())):
        for why, p, bus, nak in cases:
            v = {"to_box": why, "seat": "N", "box_epoch": BOX_EPOCH, "tablet_epoch": TABLET_EPOCH,
                 "bus": bus, "payload": hexs(p), "wire": hexs(wire_from_payload(bytes(p))),
                 "nak": nak}
            if version != 2:
                v["version"] = version  # a box of this version in a session of it
            lines.append(json.dumps(v, sort_keys=True))
    for k, n, i in INDEX_CASES:
        assert M.index_call(k, n) == i, (k, n)
        lines.append(json.dumps({"index": k, "n": n, "call": i}, sort_keys=True))
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("wrote", len(lines), "vectors to", OUT)


if __name__ == "__main__":
    main()
