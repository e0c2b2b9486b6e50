"""Golden vectors (bytes <-> messages), the CPython half; the MicroPython half runs the same file
through tests/protocol/mp/test_golden_mp.py (test_micropython.py)."""
import binascii
import json
import pathlib

from protocol import messages as M
from protocol.frame_tools import payloads, wire_from_payload
from tests.protocol.box_replay import replay

GOLDEN = pathlib.Path(__file__).with_name("golden.jsonl")


def vectors():
    return [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines() if line]


def test_golden_file_covers_every_message_type_and_nak_reason():
    vs = vectors()
    types = {v["msg"]["type"] for v in vs if "msg" in v}
    assert types == set(M.BOX_TYPES.values()) | set(M.TABLET_TYPES.values())
    reasons = {v["msg"]["reason"] for v in vs if "msg" in v and v["msg"]["type"] == "nak"}
    assert reasons == {M.NAK_REASONS[r] for r in range(M.BAD_FRAME, M.MALFORMED + 1)}
    box_reasons = {v["msg"]["reason"] for v in vs if "msg" in v and v["msg"]["type"] == "box_nak"}
    assert box_reasons == set(M.NAK_REASONS.values())
    assert sum(1 for v in vs if "bad" in v) >= 8
    # every reason a box NAKs with has a frame that provokes it, and the silent cases are there
    to_box = [v for v in vs if "to_box" in v]
    provoked = {v["nak"]["reason"] for v in to_box if v["nak"]}
    assert provoked == {"bad_frame", "unknown_type", "bad_length", "bad_field", "bad_epoch",
                        "version"}
    assert sum(1 for v in to_box if v["nak"] is None) >= 5


def test_a_box_answers_each_frame_it_cannot_use_as_the_golden_file_says():
    """Attack: the tablet (or a second vendor's tablet) sends a frame the box cannot use. The box
    must answer with a NAK naming the reason, the type, the seq and the offending field, and stay
    silent where the frame was not addressed to it, was a NAK, or (on a bus) failed its CRC."""
    for v in vectors():
        if "to_box" in v:
            assert replay(v) == v["nak"], v["to_box"]


def test_golden_vectors_decode_to_their_messages():
    for v in vectors():
        p = binascii.unhexlify(v["payload"])
        if "to_box" in v:
            continue  # unusable in the box's context, not always as bytes (replayed above)
        if "bad" in v:
            assert M.decode_payload(p) is None, v["bad"]
        else:
            assert M.decode_payload(p) == v["msg"]


def test_golden_messages_encode_to_their_bytes():
    for v in vectors():
        if "msg" in v:
            assert M.encode_payload(v["msg"]).hex() == v["payload"]
            assert wire_from_payload(binascii.unhexlify(v["payload"])).hex() == v["wire"]
            assert payloads(binascii.unhexlify(v["wire"])) == [binascii.unhexlify(v["payload"])]
