# The "to_box" golden vectors (a frame a box cannot use, and the box's answer) replayed on a
# BoxEndpoint, under CPython (test_golden.py) and MicroPython (mp/test_golden_mp.py): the same
# code, so both interpreters' boxes answer the same way.
import binascii

from protocol import messages as M
from protocol.session import BoxEndpoint
from protocol.tablet_endpoint import TabletEndpoint


def box_in_session(seat, box_epoch, tablet_epoch, bus, now=1000, version=2):
    """A box of protocol `version` (it speaks 1..version) in a session of that version with a
    tablet of tablet_epoch (handshake run through a real TabletEndpoint) and nothing left to
    send: the next frame out answers what comes in."""
    box = BoxEndpoint(seat, epoch=box_epoch, bus=bus, now=now, ver_max=version)
    tab = TabletEndpoint(seat, tablet_epoch, now)
    tab.set_view({"turn": "N"})
    for _ in range(200):
        now += 5
        if bus:
            f = tab.output(now, True)
            box.receive(bytes(f), now)
        else:
            f = tab.output(now)
            if f is not None:
                box.receive(bytes(f), now)
        f = box.output(now)
        while f is not None:
            tab.receive(bytes(f), now)
            f = box.output(now)
        if box.session and tab.state_acked() and box.q_count == 0:
            break
    assert box.session and box.version == version and tab.caps is not None
    return box, now + 5


def replay(v):
    """The box's answer to vector v: its NAK as {reason, of_type, of_seq, detail}, or None when
    it sent nothing (for a bus, granted once after the bad frame: it answers with an ACK)."""
    box, now = box_in_session(v["seat"], v["box_epoch"], v["tablet_epoch"], v["bus"],
                              version=v.get("version", 2))
    box.receive(binascii.unhexlify(v["wire"]), now)
    if v["bus"]:
        box.granted = True  # the next grant: the only time a box on a bus may speak
    f = box.output(now)
    if f is None:
        return None
    m = M.decode_payload(_payload(bytes(f)))
    if m["type"] != "box_nak":
        return None
    return {"reason": m["reason"], "of_type": m["of_type"], "of_seq": m["of_seq"],
            "detail": m["detail"]}


def _payload(wire):
    from protocol.frame_tools import payloads

    ps = payloads(wire)
    assert len(ps) == 1
    return ps[0]
