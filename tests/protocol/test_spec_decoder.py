"""The decoder written from SPEC.md alone (spec_decoder.py) is the reference: the tablet's decoder
(protocol.messages, TabletEndpoint) and the box's (BoxEndpoint) must agree with it on every golden
vector and on a seeded corpus of 3,000 fuzzed frames, under CPython and on the real MicroPython
unix port (the interpreter the box runs). A disagreement is a place where SPEC.md has two
readings or the code does not do what it says; the failure names the frame."""
import binascii
import json
import subprocess
from typing import Any

import pytest

from tests.conftest import ROOT
from tests.protocol import corpus_answers as A
from tests.protocol import fuzz_corpus
from tests.protocol import spec_decoder as S
from tests.protocol.test_golden import vectors

CTX: dict[str, Any] = {"seat": 0, "box_epoch": A.BOX_EPOCH, "tablet_epoch": A.TABLET_EPOCH}


def spec_answers(c: dict) -> dict:
    wire = binascii.unhexlify(c["wire"])
    fr = S.frames(wire)
    first = fr[0] if fr else None
    v = c.get("version", 2)
    outcome, nak = S.box_answer(first, bus=c["bus"], session=c["session"], version=v, **CTX)
    return {"decoded": [S.decode(p, v) for p in fr if p is not None],
            "box": [outcome, nak],
            "tablet": S.tablet_answer(first, seat=0, box_epoch=A.BOX_EPOCH, next_seq=A.BASE_SEQ)}


def _disagreements(corpus: list[dict], got: list[dict]) -> list[str]:
    out = []
    for c, g in zip(corpus, got, strict=True):
        want = spec_answers(c)
        for k in ("decoded", "box", "tablet"):
            if g[k] != want[k]:
                out.append(f"{k}: wire {c['wire']} bus={c['bus']} session={c['session']} "
                           f"version={c['version']}: "
                           f"code {g[k]!r}, SPEC {want[k]!r}")
    return out


def test_the_spec_decoder_reads_every_golden_vector_as_the_golden_file_says():
    n = 0
    for v in vectors():
        if "index" in v:
            assert S.index_call(v["index"], v["n"]) == v["call"], v
            continue
        p = binascii.unhexlify(v["payload"])
        if "to_box" in v:
            fr = S.frames(binascii.unhexlify(v["wire"]))
            ver = v.get("version", 2)  # a box of that version in a session of it
            _, nak = S.box_answer(fr[0], bus=v["bus"], version=ver, versions=(1, ver), **CTX)
            assert nak == v["nak"], v["to_box"]
        elif "bad" in v:
            assert S.decode(p, v.get("version", 2)) is None, v["bad"]
        else:
            assert S.decode(p, v.get("version", 2)) == v["msg"], v.get("decodes", v["msg"]["type"])
            if "wire" in v:
                assert S.frames(binascii.unhexlify(v["wire"])) == [p]
                assert S.wire(p).hex() == v["wire"]
        n += 1
    assert n >= 110


def test_the_corpus_reaches_every_outcome_and_reason():
    """The corpus is no test if it only ever makes good frames or garbage: it must make the box
    apply, drop, re-HELLO, and NAK with every reason, and the tablet deliver and report."""
    corpus = fuzz_corpus.corpus()
    got = [spec_answers(c) for c in corpus]
    outcomes = {g["box"][0] for g in got}
    reasons = {g["box"][1]["reason"] for g in got if g["box"][1]}
    details = {g["box"][1]["detail"] for g in got if g["box"][1] and g["box"][1]["reason"] == "bad_field"}
    assert outcomes == {"apply", "drop", "rehello"}
    assert reasons == {"bad_frame", "unknown_type", "bad_length", "bad_field", "bad_epoch", "version"}
    assert {0, 1, 2, 7, 11, 12, 13} <= details and 0xFF in details
    assert sum(1 for g in got if g["tablet"]["events"]) > 100
    assert sum(1 for g in got if any(x["kind"] == "caps" for x in g["tablet"]["reports"])) > 20
    assert sum(1 for g in got if g["decoded"] and g["decoded"][0] is None) > 300  # CRC right, rejected
    # STATEs applied in sessions of both layouts (version 3: with the language byte), and some
    # refused at mlen for a body whose length breaks its session's layout (SPEC.md 3a, check h)
    states = [(c["version"], g) for c, g in zip(corpus, got, strict=True)
              if c["session"] and g["decoded"] and g["decoded"][0]
              and g["decoded"][0]["type"] == "state"]
    for v in (2, 3):
        assert sum(1 for ver, g in states if ver == v and g["box"][0] == "apply") > 20, v
    langs = {g["decoded"][0]["view"]["lang"] for ver, g in states if ver == 3}
    assert langs == {None, "en", "sv", "da"}


def test_the_tablet_and_box_code_agree_with_the_spec_decoder_on_a_fuzzed_corpus_cpython():
    corpus = fuzz_corpus.corpus()
    got = [A.answers(json.dumps(c)) for c in corpus]
    bad = _disagreements(corpus, got)
    assert not bad, f"{len(bad)} of {len(corpus)} frames differ; first: " + "\n".join(bad[:5])


@pytest.mark.micropython
def test_the_box_code_on_micropython_agrees_with_the_spec_decoder_on_a_fuzzed_corpus(
        tmp_path, micropython_bin):
    """The same corpus through protocol/ on the MicroPython unix port: its UTF-8, its integer
    and bytes semantics are the box's."""
    path = tmp_path / "corpus.jsonl"
    corpus = fuzz_corpus.write(path)
    r = subprocess.run([micropython_bin, "-X", "heapsize=8M", str(ROOT / "tests/protocol/corpus_answers.py"),
                        str(path)], cwd=ROOT, capture_output=True, text=True, timeout=300,
                       env={"MICROPYPATH": str(ROOT) + ":.frozen"})
    assert r.returncode == 0, r.stderr[-2000:]
    got = [json.loads(line) for line in r.stdout.splitlines() if line]
    assert len(got) == len(corpus)
    bad = _disagreements(corpus, got)
    assert not bad, f"{len(bad)} of {len(corpus)} frames differ; first: " + "\n".join(bad[:5])
