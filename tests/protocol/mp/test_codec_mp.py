# Codec anchors and round trips on MicroPython.
from hardware.sim.lossy import Lcg
from protocol import cobs
from protocol import messages as M
from protocol.crc16 import crc16
from protocol.frame_tools import max_encoded


def test_crc16_check_value():
    assert crc16(b"123456789") == 0x29B1


def test_cobs_vectors_and_random_round_trips():
    out = bytearray(8)
    n = cobs.encode(b"\x11\x22\x00\x33", 4, out)
    assert bytes(out[:n]) == b"\x03\x11\x22\x02\x33"
    rng = Lcg(3)
    for size in (0, 1, 2, 253, 254, 255, 400, 508):
        raw = bytes([rng.below(4) and rng.below(256) for _ in range(size)])
        enc = bytearray(max_encoded(size))
        n = cobs.encode(raw, size, enc)
        for i in range(n):
            assert enc[i] != 0
        back = bytearray(size + 1)
        m = cobs.decode(enc, n, back)
        assert bytes(back[:m]) == raw


def test_state_round_trip_with_a_long_auction_and_utf8_message():
    names = M.calls.NAMES
    view = {"turn": "S", "frozen": True, "over": False, "prevent": True, "screens": True,
            "stop_triggers": ["opening_two_level"],
            "lowest": "3C", "allowed": ["P", "X", "3C", "7NT"], "stop_ms": 65535, "board": 32,
            "dealer": "W", "vul": "EW",
            "auction": [{"call": names[i % 38] if i % 7 else None, "alert": i % 3 == 0,
                         "stop": i % 5 == 0} for i in range(319)],
            "message": "Tävlingsledare: vänta"}
    m = {"type": "state", "seat": "S", "epoch": 513, "seq": 200, "ack": 1, "view": view}
    p = M.encode_payload(m)
    assert len(p) <= M.MAX_PAYLOAD
    assert M.decode_payload(p) == m
