# Random frames into the box's receive path, on the real app and the real protocol endpoint:
# no exception, no hang, and nothing the box shows or keeps changes. Legitimate traffic from a
# tablet endpoint (heartbeats) is interleaved, so garbage is also checked not to break the
# frames around it.
import time

import app as A
import keys as K

from protocol import calls as PC
from protocol import cobs
from protocol import messages as M
from protocol.crc16 import crc16
from protocol.frame_tools import max_encoded
from protocol.tablet_endpoint import TabletEndpoint

SEAT = 1


class Rng:
    """xorshift32: the same random frames on MicroPython and CPython (MicroPython's `random`
    has no Random class)."""

    def __init__(self, seed):
        self.s = seed & 0xFFFFFFFF or 1

    def getrandbits(self, k):
        x = self.s
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.s = x
        return x >> (32 - k)

    def randint(self, a, b):
        return a + self.getrandbits(16) % (b - a + 1)

    def random(self):
        return self.getrandbits(24) / 16777216


class Clock:
    def __init__(self):
        self.t = 1000

    def ticks_ms(self):
        return self.t

    def ticks_diff(self, a, b):
        return a - b

    def ticks_add(self, a, d):
        return a + d


class Wire:
    def __init__(self):
        self.rx = bytearray()
        self.tx = bytearray()
        self.f = self

    def readinto(self, buf):
        n = min(len(buf), len(self.rx))
        buf[0:n] = self.rx[0:n]
        self.rx = self.rx[n:]
        return n

    def write(self, data):
        self.tx += bytes(data)
        return len(data)


class Nothing:
    eof = True
    failed = False

    def get(self):
        return 0

    def beep(self, ms=0):
        pass

    def indicate(self, turn, stop, alert, link):
        pass

    wants_lines = True

    def show(self, lines, page=-1):
        self.lines = lines

    def frame(self, fr, mask):
        self.mask = mask


class Hal:
    def __init__(self, clock):
        self.serial = Wire()
        self.keys = Nothing()
        self.display = Nothing()
        self.buzzer = Nothing()
        self.ticks_ms = clock.ticks_ms
        self.ticks_diff = clock.ticks_diff
        self.ticks_add = clock.ticks_add

    def wait(self, ms):
        pass

    def close(self):
        pass


VIEW = {"turn": "E", "prevent": True, "lowest": "1S", "allowed": ["P", "X", "1S", "1NT"],
        "board": 7, "dealer": "S", "vul": "All", "message": "hello",
        "auction": [{"call": "P", "alert": False, "stop": False},
                    {"call": "1H", "alert": True, "stop": False}]}


def linked_pair():
    clock = Clock()
    hal = Hal(clock)
    box = A.BoxApp(hal, SEAT)
    tab = TabletEndpoint(SEAT, 0x1234, clock.t)
    tab.set_view(VIEW)
    pump(box, tab, clock, 300)
    assert box.view.known and box.view.board == 7, "no session"
    return box, tab, clock


def pump(box, tab, clock, steps, answer=None):
    """steps ms of the table: the box's loop and the tablet's endpoint; `answer(events)`, if
    given, is the tablet taking the box's events and setting its new view."""
    for _ in range(steps):
        clock.t += 1
        box.step(0)
        if box.hal.serial.tx:
            tab.receive(bytes(box.hal.serial.tx), clock.t)
            box.hal.serial.tx = bytearray()
        if answer is not None:
            ev = tab.take_events()
            if ev:
                answer(ev)
        while True:
            f = tab.output(clock.t)
            if f is None:
                break
            box.hal.serial.rx += bytes(f)


def snapshot(box):
    v = box.view
    ep = box.ep
    return (bytes(v.auction[:v.n]), bytes(v.allowed), v.n, v.turn, v.lowest,
            v.board, v.dealer, v.vul, v.phase, v.prevent, v.msg, ep.session, ep.tablet_epoch,
            ep.state_seq, ep.rx_next, ep.q_count, ep.head_seq, ep.next_seq)


def frame_of(payload):
    out = bytearray(max_encoded(len(payload)) + 2)
    n = cobs.encode(payload, len(payload), out, 0)
    out[n] = 0
    return bytes(out[:n + 1])


def well_formed_for_us(p):
    if len(p) < M.MIN_PAYLOAD:
        return False
    return (p[0] & 0xFC) == 0 and (p[0] & 3) == SEAT and M.body_ok(False, p[1], len(p) - M.MIN_PAYLOAD)


def garbage(rng, tab_epoch, captured):
    k = rng.randint(0, 3)
    if k == 0:  # line noise, delimiters included
        return bytes(rng.getrandbits(8) if rng.random() > 0.05 else 0 for _ in range(rng.randint(1, 60)))
    if k == 1:  # a CRC-valid frame that is not a well-formed tablet frame for this seat
        while True:
            n = rng.randint(2, 40)
            p = bytearray(rng.getrandbits(8) for _ in range(n))
            c = crc16(p, 0, n)
            p.append(c >> 8)
            p.append(c & 0xFF)
            if not well_formed_for_us(p):
                return frame_of(p)
    if k == 2:  # a real frame with bits flipped (CRC must catch it)
        f = bytearray(captured[rng.randint(0, len(captured) - 1)])
        for _ in range(rng.randint(1, 3)):
            i = rng.randint(0, len(f) - 2)
            f[i] ^= 1 << rng.randint(0, 7)
        return bytes(f)
    # a STATE in this session with a malformed body (valid CRC): decode_state must refuse it
    while True:
        body = bytearray(rng.getrandbits(8) for _ in range(rng.randint(M.STATE_FIXED + 1, 60)))
        if M.decode_state(body) is None:
            break
    p = bytearray(M.HEADER)
    M.put_header(p, SEAT, M.STATE, tab_epoch, rng.getrandbits(8), 0)
    p += body
    p += b"\0\0"
    M.put_crc(p, len(p) - 2)
    return frame_of(p)


def test_random_frames_change_nothing_and_do_not_hang():
    rng = Rng(20261122)
    box, tab, clock = linked_pair()
    captured = []
    tab.set_view(VIEW)
    for _ in range(3):  # some real frames to mutate
        while True:
            f = tab.output(clock.t)
            if f is None:
                break
            captured.append(bytes(f))
        clock.t += 250
    assert captured
    pump(box, tab, clock, 50)
    before = snapshot(box)
    t0 = time.ticks_ms() if hasattr(time, "ticks_ms") else int(time.time() * 1000)
    for i in range(3000):
        box.hal.serial.rx += garbage(rng, tab.epoch, captured)
        box.hal.serial.rx += b"\0"  # a delimiter so the next real frame is not swallowed
        clock.t += 1
        box.step(0)
        if i % 50 == 0:
            pump(box, tab, clock, 3)  # legitimate heartbeats keep flowing
        assert snapshot(box) == before, "state changed after garbage frame " + str(i)
    t1 = time.ticks_ms() if hasattr(time, "ticks_ms") else int(time.time() * 1000)
    assert t1 - t0 < 60000, "too slow: a hang?"
    assert box.ep.linked(clock.t)
    d = box.ep.deframer
    rejected = d.bad_crc + d.bad_cobs + d.bad_size + box.ep.ignored
    assert rejected >= 2500, (d.bad_crc, d.bad_cobs, d.bad_size, box.ep.ignored)
    # and the box still works: a call keyed now reaches the tablet
    box.key(K.L1, clock.t)
    box.key(K.S, clock.t)
    box.key(K.OK, clock.t)
    pump(box, tab, clock, 100)
    evs = tab.take_events()
    got = [(e["kind"], e["call"]) for e in evs if e["kind"] == "call"]
    assert got == [("call", "1S")], evs
    assert PC.code("1S") == 6


def test_the_reference_box_sends_the_golden_ref_box_caps():
    """SPEC.md's golden `ref-box` CAPS is what the reference box sends: its panel's 4 lines of 16
    with the suit symbols (it once said 8 lines, ASCII only)."""
    import binascii
    import json

    want = None
    with open("tests/protocol/golden.jsonl") as f:
        for line in f:
            v = json.loads(line)
            if "msg" in v and v["msg"]["type"] == "caps" and v["msg"]["name"] == "ref-box":
                want = binascii.unhexlify(v["payload"])[M.HEADER:-M.CRC]
    assert want is not None
    box = A.BoxApp(Hal(Clock()), SEAT)
    assert bytes(box.ep.caps) == want, (box.ep.caps, want)
