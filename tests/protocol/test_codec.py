"""The codec's building blocks against independent anchors, and round trips (hypothesis)."""
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import calls, cobs
from protocol import messages as M
from protocol.crc16 import crc16
from protocol.frame_tools import max_encoded, payloads, wire_from_payload
from protocol.framing import Deframer, FrameWriter
from tests.hypothesis_profiles import examples


def test_crc16_ccitt_false_check_value():
    # The catalogue check value of CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF).
    assert crc16(b"123456789") == 0x29B1
    assert crc16(b"") == 0xFFFF


def test_crc16_table_constant_is_the_polynomial_0x1021_table():
    from protocol import crc16 as C

    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) & 0xFFFF if c & 0x8000 else (c << 1) & 0xFFFF
        assert (C._HI[i] << 8) | C._LO[i] == c, i
    assert len(C._HI) == len(C._LO) == 256


def test_crc16_bitwise_equals_table_on_random_frames():
    import random

    rnd = random.Random(5)
    for _ in range(200):
        data = bytes(rnd.randrange(256) for _ in range(rnd.randrange(0, 80)))
        crc = 0xFFFF
        for byte in data:
            crc ^= byte << 8
            for _ in range(8):
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
        assert crc16(data) == crc


def test_crc16_of_a_slice_equals_crc_of_the_sliced_bytes():
    data = b"xx123456789yy"
    assert crc16(data, 2, 11) == 0x29B1


# Vectors from Cheshire & Baker's COBS paper / the Wikipedia COBS table.
COBS_VECTORS = [
    (b"\x00", b"\x01\x01"),
    (b"\x00\x00", b"\x01\x01\x01"),
    (b"\x00\x11\x00", b"\x01\x02\x11\x01"),
    (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
    (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
    (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
    (bytes(range(1, 255)), b"\xff" + bytes(range(1, 255)) + b"\x01"),
    (bytes(range(0, 255)), b"\x01\xff" + bytes(range(1, 255)) + b"\x01"),
]


def test_cobs_encodes_the_published_vectors():
    for raw, enc in COBS_VECTORS:
        out = bytearray(len(enc) + 2)
        n = cobs.encode(raw, len(raw), out)
        assert bytes(out[:n]) == enc, raw


def test_cobs_decodes_the_published_vectors():
    for raw, enc in COBS_VECTORS:
        out = bytearray(len(raw) + 2)
        n = cobs.decode(enc, len(enc), out)
        assert bytes(out[:n]) == raw, raw


def test_cobs_decode_rejects_zero_bytes_overlong_codes_and_small_buffers():
    out = bytearray(16)
    assert cobs.decode(b"\x03\x11\x00", 3, out) == -1
    assert cobs.decode(b"\x05\x11\x22", 3, out) == -1
    assert cobs.decode(b"\x05\x11\x22\x33\x44", 5, bytearray(3)) == -1


@given(st.binary(max_size=600))
def test_cobs_round_trip_and_no_zero_on_the_wire(raw):
    out = bytearray(max_encoded(len(raw)))
    n = cobs.encode(raw, len(raw), out)
    assert 0 not in out[:n]
    back = bytearray(len(raw) + 1)
    m = cobs.decode(out, n, back)
    assert bytes(back[:m]) == raw


def test_call_codes_match_the_firmware_table():
    assert calls.code("P") == 0 and calls.code("PASS") == 0
    assert calls.code("X") == 1 and calls.code("XX") == 2
    assert calls.code("1C") == 3 and calls.code("1N") == 7 and calls.code("7NT") == 37
    assert calls.code("8C") == -1 and calls.code("") == -1
    assert [calls.name(i) for i in range(38)] == list(calls.NAMES)
    # rank order, level first, then C < D < H < S < NT (Law 18D): the box's sufficiency test
    assert calls.NAMES == ("P", "X", "XX") + tuple(f"{lv}{d}" for lv in range(1, 8)
                                                  for d in ("C", "D", "H", "S", "NT"))


views = st.fixed_dictionaries({
    "turn": st.one_of(st.none(), st.sampled_from("NESW")),
    "frozen": st.booleans(), "over": st.booleans(), "prevent": st.booleans(),
    "screens": st.booleans(),
    "stop_triggers": st.sampled_from([[], ["jump"], ["opening_two_level"], ["jump", "opening_two_level"]]),
    "lowest": st.one_of(st.none(), st.sampled_from(calls.NAMES[3:])),
    "allowed": st.lists(st.sampled_from(calls.NAMES), unique=True).map(
        lambda xs: sorted(xs, key=calls.code)),
    "stop_ms": st.integers(0, 65535), "board": st.integers(0, 255),
    "dealer": st.sampled_from("NESW"), "vul": st.sampled_from(calls.VULS),
    "auction": st.lists(st.fixed_dictionaries({
        "call": st.one_of(st.none(), st.sampled_from(calls.NAMES)),
        "alert": st.booleans(), "stop": st.booleans()}), max_size=319),
    "message": st.text(max_size=20).filter(lambda s: len(s.encode()) <= 64),
})


@settings(max_examples=examples(150), deadline=None)
@given(views, st.sampled_from("NESW"), st.integers(1, 0xFFFF), st.integers(0, 255), st.integers(0, 255))
def test_state_round_trips_through_payload_and_wire(view, seat, epoch, seq, ack):
    m = {"type": "state", "seat": seat, "epoch": epoch, "seq": seq, "ack": ack, "view": view}
    p = M.encode_payload(m)
    assert len(p) <= M.MAX_PAYLOAD
    assert M.decode_payload(p) == m
    assert payloads(b"\x00garbage\x00" + wire_from_payload(p) + wire_from_payload(p)) == [p, p]


def test_encode_state_refuses_views_it_cannot_carry():
    import pytest

    for bad in ({"turn": "Q"}, {"allowed": ["8C"]}, {"message": "x" * 65}, {"stop_ms": 70000},
                {"vul": "Both"}, {"auction": [{"call": "1C"}] * 320}, {"board": 256},
                {"stop_triggers": ["psych"]}):
        with pytest.raises(ValueError):
            M.encode_state(bad)


def test_frame_writer_matches_the_dict_encoder_and_the_deframer_reads_it():
    w = FrameWriter()
    body = bytes([0, 1, 0xE2, 0x40, 7])
    n = w.build(0x82, M.CALL, 0xBEEF, 4, 2, body, 5, flush=True)
    f = bytes(w.wire[:n])
    m = {"type": "call", "seat": "S", "epoch": 0xBEEF, "seq": 4, "ack": 2, "box_ms": 123456,
         "call": "1NT"}
    assert f == b"\x00" + wire_from_payload(M.encode_payload(m))
    d = Deframer()
    i = 0
    got = []
    while i < len(f):
        i = d.feed(f, i, len(f))
        if d.length:
            got.append(M.decode_payload(d.payload, d.length))
    assert got == [m]


def test_deframer_discards_an_overlong_frame_and_resynchronises():
    p = M.encode_payload({"type": "ping", "seat": "N", "epoch": 1, "seq": 0, "ack": 0})
    d = Deframer()
    data = b"\x01" * 1000 + b"\x00" + wire_from_payload(p)
    i, got = 0, []
    while i < len(data):
        i = d.feed(data, i, len(data))
        if d.length:
            got.append(bytes(d.payload[:d.length]))
    assert got == [p] and d.bad_size == 1


def test_state_call_table_matches_the_call_codes():
    from protocol import layout

    assert len(layout._BAD_CALL) == 64
    for c in range(64):
        assert layout._BAD_CALL[c] == (c != calls.HIDDEN and c >= calls.COUNT), c


def test_deframer_matches_cobs_decode_and_crc16_of_whole_frames_on_any_bytes():
    # the one-pass Deframer against the reference: collect to each 0, cobs.decode, size, crc16
    import random

    from protocol.layout import MAX_PAYLOAD, MAX_WIRE, MIN_PAYLOAD

    def reference(data):
        out, counts, raw = [], [0, 0, 0], bytearray()
        for byte in data:
            if byte:
                raw.append(byte)
                continue
            if not raw:
                continue
            frame, raw = raw, bytearray()
            dst = bytearray(MAX_WIRE)
            m = -2 if len(frame) > MAX_WIRE else cobs.decode(frame, len(frame), dst)
            if m == -1:
                counts[1] += 1
            elif m < MIN_PAYLOAD or m > MAX_PAYLOAD:
                counts[2] += 1
            elif crc16(dst, 0, m - 2) != (dst[m - 2] << 8) | dst[m - 1]:
                counts[0] += 1
            else:
                out.append(bytes(dst[:m]))
        return out, counts

    rnd = random.Random(7)
    ping = M.encode_payload({"type": "ping", "seat": "N", "epoch": 1, "seq": 3, "ack": 0})
    for _ in range(1500):
        parts = []
        for _ in range(rnd.randrange(1, 6)):
            r = rnd.random()
            if r < 0.5:
                p = bytearray(ping if r < 0.2 else bytes(rnd.randrange(256)
                                                         for _ in range(rnd.randrange(6, 60))))
                if rnd.random() < 0.5:
                    c = crc16(p, 0, len(p) - 2)
                    p[-2:] = bytes([c >> 8, c & 0xFF])
                w = bytearray(wire_from_payload(bytes(p)))
                if rnd.random() < 0.3:
                    w[rnd.randrange(len(w) - 1)] = rnd.randrange(256)  # a line error
                parts.append(bytes(w))
            elif r < 0.7:
                parts.append(bytes(rnd.randrange(256) for _ in range(rnd.randrange(30))))
            elif r < 0.75:
                parts.append(bytes([rnd.randrange(1, 256)]) * rnd.randrange(MAX_WIRE - 5, 1000))
            else:
                parts.append(b"\x00")
        data = b"".join(parts)
        d = Deframer()
        got = []
        pos = 0
        while pos < len(data):  # in chunks, as a UART delivers them
            e = min(len(data), pos + rnd.randrange(1, 80))
            i = pos
            while i < e:
                i = d.feed(data, i, e)
                if d.length:
                    got.append(bytes(d.payload[:d.length]))
            pos = e
        want, (bad_crc, bad_cobs, bad_size) = reference(data + b"\x00")
        if d.w:  # an unfinished frame at the end: the reference saw its closing 0 too
            i = d.feed(b"\x00", 0, 1)
            if d.length:
                got.append(bytes(d.payload[:d.length]))
        assert got == want
        assert (d.bad_crc, d.bad_cobs, d.bad_size) == (bad_crc, bad_cobs, bad_size)
