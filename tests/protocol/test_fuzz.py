"""Fuzzing both decoders with hypothesis: garbage bytes and CRC-valid random payloads change
nothing on either end and raise nothing (SPEC.md section 2: discarding changes no state)."""
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.sim.lossy import Link
from protocol import messages as M
from protocol.crc16 import crc16
from protocol.frame_tools import payloads, wire_from_payload
from tests.hypothesis_profiles import examples


def snapshot(lk):
    b, t = lk.box, lk.tab
    return (b.session, b.tablet_epoch, b.rx_next, b.state_seq, b.head_seq, b.q_count, b.send_seq,
            b.version, b.stop_until, repr(M.box_state(b)), t.session, t.box_epoch, t.rx_next, t.state_seq,
            t.state_unacked, len(t.events))


def established():
    lk = Link(99)
    lk.tab.set_view({"turn": "N", "message": "x"})
    assert lk.run_until(lambda: M.box_state(lk.box) is not None and lk.tab.state_acked(), 2000)
    lk.tab.take_events()
    return lk


LK = established()


def with_crc(raw, addr, t):
    p = bytearray(raw + b"\x00\x00\x00\x00\x00\x00\x00\x00")
    p[0] = addr
    p[1] = t
    c = crc16(p, 0, len(p) - 2)
    p[-2], p[-1] = c >> 8, c & 0xFF
    return bytes(p)


garbage = st.one_of(
    st.binary(max_size=600),
    st.builds(lambda raw, a, t: wire_from_payload(with_crc(raw, a, t)),
              st.binary(max_size=420), st.integers(0, 255),
              st.sampled_from([M.HELLO, M.ACK, M.CALL, M.ALERT, M.TD, M.WELCOME, M.PING, M.NAK,
                               M.STATE, 0, 0x7F, 0xFF])),
)


def is_garbage(data):
    """True unless the bytes hold a well-formed message (a message from a tablet or box with
    another epoch is not garbage: it may legitimately reset a session)."""
    return all(M.decode_payload(p) is None for p in payloads(data))


@settings(max_examples=examples(400), deadline=None)
@given(garbage)
def test_garbage_changes_nothing_on_either_end(data):
    lk = LK if is_garbage(data) else established()
    before = snapshot(lk)
    lk.box.receive(data, lk.now)
    lk.tab.receive(data, lk.now)
    if lk is LK:
        assert snapshot(lk) == before
        assert lk.tab.take_events() == []


@settings(max_examples=examples(500), deadline=None)
@given(st.binary(max_size=402), st.integers(0, 255),
       st.sampled_from([M.HELLO, M.ACK, M.CALL, M.STOP, M.UNDO, M.WELCOME, M.PING, M.NAK, M.STATE]))
def test_decode_payload_never_raises_and_what_it_accepts_re_encodes_to_the_same_message(raw, a, t):
    p = with_crc(raw, a, t)
    m = M.decode_payload(p)
    if m is not None:
        assert M.decode_payload(M.encode_payload(m)) == m
    bad = bytearray(p)
    bad[-1] ^= 0x80
    assert M.decode_payload(bytes(bad)) is None


@settings(max_examples=examples(200), deadline=None)
@given(st.binary(max_size=2000))
def test_deframer_only_yields_crc_checked_payloads(data):
    for p in payloads(data):
        assert crc16(p, 0, len(p) - 2) == (p[-2] << 8) | p[-1]
