# Golden vectors on MicroPython: the same file as tests/protocol/test_golden.py checks on CPython.
import binascii
import json

from protocol import messages as M
from protocol.frame_tools import payloads, wire_from_payload

GOLDEN = "tests/protocol/golden.jsonl"


def _vectors():
    out = []
    with open(GOLDEN) as f:
        for line in f:
            line = line.strip()
            if line:
                out.append(json.loads(line))
    return out


def test_golden_vectors_decode_on_micropython():
    n = 0
    for v in _vectors():
        if "to_box" in v or "index" in v:
            continue  # test_box_answers_on_micropython, test_index_on_micropython
        p = binascii.unhexlify(v["payload"])
        ver = v.get("version", 2)  # the session's: it decides a STATE's layout
        if "bad" in v:
            assert M.decode_payload(p, -1, ver) is None, v["bad"]
        else:
            got = M.decode_payload(p, -1, ver)
            assert got == v["msg"], (got, v["msg"])
        n += 1
    assert n >= 30


def test_golden_messages_encode_on_micropython():
    for v in _vectors():
        if "msg" in v and "decodes" not in v:
            p = M.encode_payload(v["msg"], v.get("version", 2))
            assert binascii.hexlify(p).decode() == v["payload"], v["msg"]["type"]
            assert binascii.hexlify(wire_from_payload(p)).decode() == v["wire"]
            assert payloads(binascii.unhexlify(v["wire"])) == [p]


def test_box_answers_to_unusable_frames_on_micropython():
    from tests.protocol.box_replay import replay

    n = 0
    for v in _vectors():
        if "to_box" in v:
            assert replay(v) == v["nak"], v["to_box"]
            n += 1
    assert n >= 20


def test_index_on_micropython():
    n = 0
    for v in _vectors():
        if "index" in v:
            assert M.index_call(v["index"], v["n"]) == v["call"], v
            n += 1
    assert n >= 10
