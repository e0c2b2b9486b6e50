# Random frames at both decoders on MicroPython: no exception, no hang, no state change.
from hardware.sim.lossy import Lcg, Link
from protocol import messages as M
from protocol.crc16 import crc16
from protocol.frame_tools import wire_from_payload


def _snap(lk):
    b, t = lk.box, lk.tab
    return (b.session, b.tablet_epoch, b.rx_next, b.state_seq, b.head_seq, b.q_count, b.version,
            t.session, t.box_epoch, t.rx_next, t.state_seq, t.state_unacked, len(t.events))


def _garbage(rng, i):
    n = rng.below(60)
    raw = bytes([rng.below(256) for _ in range(n)])
    if i % 3 == 0:
        return raw
    # a CRC-valid payload of random content: gets past framing into the message decoders
    p = bytearray(raw[:M.MAX_PAYLOAD - 2] + b"\x00\x00")
    if i % 3 == 2 and len(p) > 6:
        p[0] = rng.below(2) * 0x80 | rng.below(4)
        p[1] = (M.HELLO, M.ACK, M.CALL, M.TD, M.WELCOME, M.PING, M.NAK, M.STATE)[rng.below(8)]
    c = crc16(p, 0, len(p) - 2)
    p[-2] = c >> 8
    p[-1] = c & 0xFF
    return wire_from_payload(bytes(p))


def test_random_frames_change_nothing_on_either_end():
    lk = Link(41)
    lk.tab.set_view({"turn": "N"})
    assert lk.run_until(lambda: M.box_state(lk.box) is not None and lk.tab.state_acked(), 2000)
    lk.tab.take_events()
    rng = Lcg(43)
    before = _snap(lk)
    for i in range(3000):
        g = _garbage(rng, i)
        lk.box.receive(g, lk.now)
        lk.tab.receive(g, lk.now)
    assert _snap(lk) == before
    assert lk.tab.take_events() == []
