# What this repository's protocol code (protocol/) makes of each frame of a fuzzed corpus
# (tests/protocol/fuzz_corpus.py), on whichever interpreter runs this file: CPython imports
# `answers`; the MicroPython unix port runs it as a script,
#     micropython corpus_answers.py CORPUS.jsonl  ->  one JSON line of answers per corpus line.
# test_spec_decoder.py compares both with the decoder written from SPEC.md alone.
import binascii
import json

from protocol import messages as M
from protocol.frame_tools import payloads, wire_from_payload
from protocol.session import BoxEndpoint
from protocol.tablet_endpoint import TabletEndpoint

SEAT = 0
BOX_EPOCH = 0x1234
TABLET_EPOCH = 0x9999
BASE_SEQ = 5
NOW = 1000


def _welcome(version):
    b = bytearray(M.HEADER + M.WELCOME_BODY + M.CRC)
    M.put_header(b, SEAT, M.WELCOME, TABLET_EPOCH, 0, 0)
    b[M.HEADER:M.HEADER + 4] = bytes([version, 0, BOX_EPOCH >> 8, BOX_EPOCH & 0xFF])
    M.put_crc(b, M.HEADER + 4)
    return wire_from_payload(bytes(b))


def _hello():
    b = bytearray(M.HEADER + M.HELLO_BODY + M.CRC)
    M.put_header(b, M.FROM_BOX | SEAT, M.HELLO, BOX_EPOCH, BASE_SEQ, 0)
    b[M.HEADER:M.HEADER + 6] = bytes([1, 2, BASE_SEQ, 0, 0, 1])
    M.put_crc(b, M.HEADER + 6)
    return wire_from_payload(bytes(b))


WELCOME_WIRES = {2: _welcome(2), 3: _welcome(3)}
HELLO_WIRE = _hello()


def box_answer(wire, bus, session, version=2):
    """(outcome, nak) of a box of seat N (epoch BOX_EPOCH) given `wire`, in a session of `version`
    (2 or 3: a STATE's layout differs) with the tablet TABLET_EPOCH, or before any: outcome "apply", "drop" or "rehello" (the frame
    ended the session because it came from another tablet epoch), as spec_decoder.box_answer."""
    box = BoxEndpoint(SEAT, epoch=BOX_EPOCH, bus=bus, now=NOW)
    if session:
        box.receive(WELCOME_WIRES[version], NOW)
        assert box.session and box.version == version
    ps = payloads(wire)
    got = box.receive(wire, NOW + 1)
    if session and not box.session and ps and M.epoch_of(ps[0]) != TABLET_EPOCH:
        outcome = "rehello"  # (a NAK NO_SESSION of this tablet ends it too, but is applied)
    elif got:
        outcome = "apply"
    else:
        outcome = "drop"
    box.granted = True  # on a bus: the next grant, the only time it may speak
    f = box.output(NOW + 1)
    nak = None
    if f is not None:
        m = M.decode_payload(payloads(bytes(f))[0])
        if m["type"] == "box_nak":
            nak = {"reason": m["reason"], "of_type": m["of_type"], "of_seq": m["of_seq"],
                   "detail": m["detail"]}
    return [outcome, nak]


def tablet_answer(wire):
    """What a TabletEndpoint in a session with box N (epoch BOX_EPOCH, next seq BASE_SEQ) makes
    of `wire`: the events it delivers and the reports it files (NAKs, CAPS)."""
    tab = TabletEndpoint(SEAT, TABLET_EPOCH, NOW)
    tab.receive(HELLO_WIRE, NOW)
    assert tab.session
    tab.take_events()
    tab.receive(wire, NOW + 1)
    evs = [{"kind": e["kind"], "box_ms": e["box_ms"], "call": e["call"], "index": e["index"]}
           for e in tab.take_events()]
    reps = tab.take_reports()
    for r in reps:
        r.pop("seat", None)
    return {"events": evs, "reports": reps}


def answers(line):
    c = json.loads(line)
    wire = binascii.unhexlify(c["wire"])
    v = c.get("version", 2)
    return {"decoded": [M.decode_payload(p, -1, v) for p in payloads(wire)],
            "box": box_answer(wire, c["bus"], c["session"], v),
            "tablet": tablet_answer(wire)}


def main(path):
    with open(path) as f:
        for line in f:
            if line.strip():
                print(json.dumps(answers(line)))


try:
    import sys

    if __name__ == "__main__" and len(sys.argv) > 1:
        main(sys.argv[1])
except ImportError:
    pass
