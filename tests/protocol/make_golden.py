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
    {"type": "state", "seat": "W", "epoch": 0x9999, "seq": 7, "ack": 3, "view": FULL_VIEW},
    {"type": "state", "seat": "N", "epoch": 0x9999, "seq": 0, "ack": 0, "view": SCREEN_VIEW},
    {"type": "state", "seat": "N", "epoch": 0x0001, "seq": 1, "ack": 0, "view": EMPTY_VIEW},
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
    return out


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
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("wrote", len(lines), "vectors to", OUT)


if __name__ == "__main__":
    main()
