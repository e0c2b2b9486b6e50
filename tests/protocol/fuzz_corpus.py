"""A seeded corpus of frames for the decoders to agree on (test_spec_decoder.py): well-formed
frames of every type in both directions, then mutated where the SPEC's readings part (field
ranges, lengths, the STATE's structure, UTF-8 edge cases, epochs, addresses, types), most with a
right CRC so that they reach the checks after it; some garbled on the wire. The same seed gives
the same corpus, so a disagreement names a frame that can be replayed.

Context (corpus_answers.py): box N, epoch 0x1234; tablet epoch 0x9999."""
from __future__ import annotations

import json
import random

from tests.protocol import spec_decoder as S

BOX_EPOCH = 0x1234
TABLET_EPOCH = 0x9999
BASE_SEQ = 5

# byte values where the SPEC's ranges have their edges
EDGES = (0, 1, 2, 3, 4, 5, 9, 10, 0x0F, 0x10, 0x15, 0x16, 0x1F, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26,
         0x30, 0x3E, 0x3F, 0x40, 0x7E, 0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xE0, 0xED,
         0xEF, 0xF0, 0xF4, 0xF5, 0xFE, 0xFF)
UTF8_EDGES = (b"\xc0\x80", b"\xc1\xbf", b"\xc2\x80", b"\xe0\x80\xaf", b"\xe0\xa0\x80", b"\xed\x9f\xbf",
              b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xee\x80\x80", b"\xf0\x8f\xbf\xbf",
              b"\xf0\x90\x80\x80", b"\xf4\x8f\xbf\xbf", b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80",
              b"\xff", b"\x80", b"\xe2\x99", b"\xe2\x99\xa0", "\u00e5".encode(), b"\xf8\x88\x80\x80\x80")


def payload(addr: int, t: int, epoch: int, seq: int, ack: int, body: bytes, crc: bool = True) -> bytes:
    p = bytes([addr, t, epoch >> 8, epoch & 0xFF, seq & 0xFF, ack & 0xFF]) + body
    c = S.crc16(p) if crc else S.crc16(p) ^ 0x0100
    return p + bytes([c >> 8, c & 0xFF])


def _message(r: random.Random) -> bytes:
    k = r.random()
    if k < 0.5:
        return "".join(r.choice("AZaz09 ~!\u2663\u2666\u2665\u2660\u00e5\u00f6")
                       for _ in range(r.randrange(0, 20))).encode()[:64]
    if k < 0.8:
        return b"".join(r.choice(UTF8_EDGES + (b"a", b"bc")) for _ in range(r.randrange(1, 5)))
    return bytes(r.randrange(1, 256) for _ in range(r.randrange(0, 70)))


def state_body(r: random.Random, lang: int | None = None) -> bytes:
    """A STATE body, mostly well formed; with `lang` (a version 3 session's) the language byte
    after the message (SPEC.md section 3)."""
    n = r.choice((0, 1, 3, 12, r.randrange(0, 320), 239, 240, 255, 256, 300, 319))
    msg = _message(r)
    calls = bytes(r.choice((r.randrange(0, 38), r.randrange(0, 38) | 0xC0, 0x3F, 0x7F))
                  for _ in range(n))
    body = bytes([r.choice((0, 1, 2, 3, 0xFF)), r.randrange(0, 64), r.choice((3, 17, 37, 0xFF)),
                  r.randrange(256), r.randrange(256), r.randrange(256), r.randrange(256),
                  r.randrange(64), r.randrange(256), r.randrange(256), r.randrange(256),
                  r.randrange(4), r.randrange(4), n >> 8, n & 0xFF]) + calls
    body += bytes([len(msg) & 0xFF]) + msg
    if lang is not None:
        body += bytes([lang])
    return body[:400]


def tablet_frame(r: random.Random, lang: int | None = None) -> bytes:
    t = r.choice((0x21, 0x22, 0x23, 0x30, 0x30, 0x30))
    if t == 0x21:
        be = r.choice((BOX_EPOCH, BOX_EPOCH, r.randrange(65536)))
        body = bytes([r.choice((1, 2, 2, 0, 3, 9)), r.randrange(256), be >> 8, be & 0xFF])
    elif t == 0x22:
        body = b""
    elif t == 0x23:
        body = bytes([r.randrange(0, 11), r.randrange(256)])
    else:
        body = state_body(r, lang)
    return payload(0, t, TABLET_EPOCH, r.randrange(256), r.randrange(256), body)


def box_frame(r: random.Random) -> bytes:
    t = r.choice((0x01, 0x02, 0x03, 0x04, 0x04, 0x04, 0x10, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15))
    if t == 0x01:
        body = bytes([r.choice((0, 1, 2, 3)), r.choice((1, 2, 3, 0)), r.randrange(256),
                      r.randrange(256), r.randrange(256), r.randrange(256)])
    elif t == 0x02:
        body = b""
    elif t == 0x03:
        body = bytes([r.randrange(0, 12), r.randrange(256), r.randrange(256), r.randrange(256)])
    elif t == 0x04:
        name = (_message(r) if r.random() < 0.4 else "Åbo \u2660".encode())[:r.choice((16, 16, 20))]
        body = bytes([r.randrange(256) for _ in range(12)]) + bytes([len(name)]) + name
    else:
        arg = r.choice((r.randrange(0, 38), 0xFF, r.randrange(256)))
        body = r.randrange(1 << 32).to_bytes(4, "big") + bytes([arg])
    seq = r.choice((BASE_SEQ, BASE_SEQ, BASE_SEQ + 1, BASE_SEQ - 1))
    return payload(0x80, t, BOX_EPOCH, seq, r.randrange(256), body)


def mutate(r: random.Random, p: bytes) -> bytes:
    """Zero to three changes to a payload's fields, then (mostly) a right CRC again."""
    b = bytearray(p[:-2])
    for _ in range(r.choice((0, 1, 1, 2, 3))):
        k = r.random()
        if k < 0.35 and len(b) > 6:
            b[r.randrange(6, len(b))] = r.choice(EDGES) if r.random() < 0.7 else r.randrange(256)
        elif k < 0.45:
            b[1] = r.choice(EDGES)                                   # type
        elif k < 0.55:
            b[0] = r.choice((0, 1, 2, 3, 0x80, 0x81, 0x84, 0x7C, 0x04, 0xFC, b[0] ^ 0x80))
        elif k < 0.62:
            e = r.choice((0, 0x7777, BOX_EPOCH, TABLET_EPOCH))
            b[2], b[3] = e >> 8, e & 0xFF
        elif k < 0.75 and len(b) > 6:
            del b[r.randrange(6, len(b) + 1):]                       # a body cut short
        elif k < 0.85:
            b += bytes(r.choice(EDGES) for _ in range(r.choice((1, 1, 2, 9))))
        elif len(b) > 6:
            b[r.randrange(6, len(b))] = r.randrange(256)
    c = S.crc16(bytes(b))
    if r.random() < 0.05:
        c ^= 1 << r.randrange(16)
    return bytes(b) + bytes([c >> 8, c & 0xFF])


def wire(r: random.Random, p: bytes) -> bytes:
    w = bytearray(S.cobs_encode(p))
    k = r.random()
    if k < 0.03:
        w[r.randrange(len(w))] = r.randrange(1, 256)                  # COBS or CRC broken
    elif k < 0.04:
        w = bytearray(r.randrange(1, 256) for _ in range(r.choice((3, 7, 412, 500))))
    return bytes(w) + b"\x00"


def corpus(n: int = 3000, seed: int = 20261127) -> list[dict]:
    """n frames, each with the box's context: on a bus or not, in a session or before one, and
    the session's version: half of them 3, where a STATE ends with the language byte (most
    STATEs made for it carry one: any code, the unknown ones too), the others 2. The version is
    drawn from a generator of its own, so the frames are those of the corpus before it."""
    r = random.Random(seed)
    rv = random.Random(seed + 3)
    out = []
    for _ in range(n):
        version = 3 if rv.random() < 0.5 else 2
        lang = rv.choice((0, 1, 2, 3, 9, 255)) if version == 3 and rv.random() < 0.9 else None
        p = tablet_frame(r, lang) if r.random() < 0.6 else box_frame(r)
        out.append({"wire": wire(r, mutate(r, p)).hex(), "bus": r.random() < 0.2,
                    "session": r.random() < 0.85, "version": version})
    return out


def write(path, n: int = 3000, seed: int = 20261127) -> list[dict]:
    c = corpus(n, seed)
    with open(path, "w", encoding="utf-8") as f:
        for x in c:
            f.write(json.dumps(x) + "\n")
    return c
