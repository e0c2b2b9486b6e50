"""Golden vectors (bytes <-> messages), the CPython half; the MicroPython half runs the same file
through tests/protocol/mp/test_golden_mp.py (test_micropython.py)."""
import binascii
import json
import pathlib

from protocol import messages as M
from protocol.frame_tools import payloads, wire_from_payload

GOLDEN = pathlib.Path(__file__).with_name("golden.jsonl")


def vectors():
    return [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines() if line]


def test_golden_file_covers_every_message_type_and_nak_reason():
    vs = vectors()
    types = {v["msg"]["type"] for v in vs if "msg" in v}
    assert types == set(M.BOX_TYPES.values()) | set(M.TABLET_TYPES.values())
    reasons = {v["msg"]["reason"] for v in vs if "msg" in v and v["msg"]["type"] == "nak"}
    assert reasons == set(M.NAK_REASONS.values())
    assert sum(1 for v in vs if "bad" in v) >= 8


def test_golden_vectors_decode_to_their_messages():
    for v in vectors():
        p = binascii.unhexlify(v["payload"])
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
