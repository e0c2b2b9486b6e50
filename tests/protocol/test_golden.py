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
        if "to_box" in v or "index" in v:
            continue  # unusable in the box's context, not always as bytes (replayed above)
        p = binascii.unhexlify(v["payload"])
        ver = v.get("version", 2)  # the session's: it decides a STATE's layout
        if "bad" in v:
            assert M.decode_payload(p, -1, ver) is None, v["bad"]
        else:
            assert M.decode_payload(p, -1, ver) == v["msg"], v.get("decodes")


def test_golden_file_has_a_vector_for_each_reading_the_spec_once_left_open():
    """SPEC.md gave two readings of these; each now has one, and a vector that pins it."""
    vs = vectors()
    to_box = {v["to_box"] for v in vs if "to_box" in v}
    for why in ("STATE too short for its message", "STATE ending before its mlen byte",
                "STATE with a bad call byte and a trailing byte", "STATE shorter than its fixed part",
                "unknown type with epoch 0", "STATE dealer 4 from another tablet epoch",
                "STATE with call byte 240 bad", "STATE message with a surrogate"):
        assert any(t.startswith(why) for t in to_box), why
    assert any(v.get("decodes", "").startswith("STOP with arg 0x00") for v in vs)
    assert any(v.get("bad", "").startswith("state message not UTF-8: overlong") for v in vs)
    assert {(v["index"], v["n"]) for v in vs if "index" in v} >= {(0, 256), (63, 319), (64, 319)}
    ref = next(v["msg"] for v in vs if "msg" in v and v["msg"].get("name") == "ref-box")
    assert (ref["lines"], ref["cols"], ref["suits"]) == (4, 12, True)  # the reference panel


def test_an_index_names_the_latest_call_with_its_remainder_mod_255():
    """A u8 cannot count the 319 calls of the longest auction and 0xFF is taken: SPEC.md section
    3 counts `index` modulo 255, the latest call with that remainder."""
    for v in vectors():
        if "index" in v:
            assert M.index_call(v["index"], v["n"]) == v["call"], v


def test_a_state_naming_a_field_past_offset_254_is_naked_with_detail_0xff_and_the_box_survives():
    """Attack: a STATE of 300 calls whose call byte 240 is bad. The offset (255) does not fit the
    NAK's detail byte: before, building the NAK raised ValueError on the box (a crash from one
    frame); now the detail is 0xFF (SPEC.md section 3b)."""
    v = next(x for x in vectors() if x.get("to_box", "").startswith("STATE with call byte 240"))
    assert replay(v) == {"reason": "bad_field", "of_type": M.STATE, "of_seq": 4, "detail": 0xFF}


def test_golden_messages_encode_to_their_bytes():
    for v in vectors():
        if "msg" in v and "decodes" not in v:  # "decodes": no encoder writes those bytes
            assert M.encode_payload(v["msg"], v.get("version", 2)).hex() == v["payload"]
            assert wire_from_payload(binascii.unhexlify(v["payload"])).hex() == v["wire"]
            assert payloads(binascii.unhexlify(v["wire"])) == [binascii.unhexlify(v["payload"])]
