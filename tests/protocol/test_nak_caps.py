"""Version 2 of the protocol (SPEC.md sections 3b, 3c, 4): the box's NAK with a reason, the
box's CAPS and what the tablet makes of them, a version 1 box beside a version 2 tablet, and the
boot-to-boot epoch."""
from hardware.sim.lossy import Link
from protocol import layout as L
from protocol import messages as M
from protocol import session as S
from protocol.frame_tools import payloads, wire_from_payload
from protocol.tablet_endpoint import TabletEndpoint
from tests.protocol.box_replay import box_in_session

VIEW = {"turn": "E", "lowest": "1H", "allowed": ["P", "1H"], "prevent": True,
        "message": "1\u2665 alerted"}


def _bad_state(epoch, seq):
    """A STATE with dealer 4, from a tablet of `epoch`."""
    b = bytearray(M.encode_payload({"type": "state", "seat": "N", "epoch": epoch, "seq": seq,
                                    "ack": 0, "view": {"turn": "N"}}))
    b[M.HEADER + L.S_DEALER] = 4
    M.put_crc(b, len(b) - 2)
    return wire_from_payload(bytes(b))


def _sent(box, now):
    out = []
    f = box.output(now)
    while f is not None:
        out.append(M.decode_payload(payloads(bytes(f))[0]))
        f = box.output(now)
    return out


def test_a_noisy_line_cannot_make_the_box_flood_it_with_naks():
    """Attack: 200 garbled or malformed frames within 100 ms on the box's own port. The box
    NAKs at most one per 20 ms and keeps answering nothing else but its normal traffic."""
    box, now = box_in_session("N", 0x1234, 0x9999, False)
    naks = 0
    for i in range(200):
        t = now + i // 2
        box.receive(_bad_state(0x9999, i & 0xFF) if i % 2 else b"\x05\x01\x02\x03\x04\x00", t)
        naks += sum(1 for m in _sent(box, t) if m["type"] == "box_nak")
    assert 4 <= naks <= 100 // S.NAK_GAP_MS + 1
    assert box.naks_out == naks and box.state_len  # the STATE applied at link-up is still there


def test_a_box_never_naks_a_version_1_tablet_which_would_take_the_nak_for_garbage():
    lk = Link(3)
    lk.tab = TabletEndpoint("E", epoch=4321, now=lk.now)
    lk.box = S.BoxEndpoint("E", epoch=77, now=lk.now, ver_max=2)
    lk.tab.set_view({"turn": "N"})
    # a version 1 tablet: what VERSION_MAX 1 negotiates
    import protocol.tablet_endpoint as TE

    old = TE.VERSION_MAX
    TE.VERSION_MAX = 1
    try:
        assert lk.run_until(lambda: lk.box.session and lk.tab.state_acked(), 2000)
    finally:
        TE.VERSION_MAX = old
    assert lk.box.version == 1 and lk.tab.caps is None  # no CAPS either
    lk.box.receive(_bad_state(4321, 9), lk.now)
    assert [m["type"] for m in _sent(lk.box, lk.now)] in ([], ["ack"])
    assert lk.box.naks_out == 0 and lk.box.ignored >= 1


def test_the_tablet_reports_a_box_nak_and_resends_its_state_at_once_on_a_garbled_frame():
    lk = Link(4)
    lk.tab.set_view(VIEW)
    assert lk.run_until(lambda: lk.tab.state_acked() and lk.tab.caps is not None, 2000)
    lk.tab.take_reports()
    lk.cut(True)
    lk.tab.set_view(dict(VIEW, message="next"))
    lk.step(5)  # the new STATE is lost on the way
    lk.cut(False)
    now = lk.now
    nak = M.encode_payload({"type": "box_nak", "seat": "E", "epoch": lk.box.epoch, "seq": 0,
                            "ack": lk.box.rx_next, "reason": "bad_frame", "of_type": 0,
                            "of_seq": 0, "detail": 0xFF})
    lk.tab.receive(wire_from_payload(nak), now)
    assert lk.tab.take_reports() == [{"kind": "nak", "seat": "E", "reason": "bad_frame",
                                      "of_type": 0, "of_seq": 0, "detail": 0xFF}]
    f = M.decode_payload(payloads(bytes(lk.tab.output(now)))[0], -1, lk.tab.version)  # not waiting for the RTO
    assert f["type"] == "state" and f["view"]["message"] == "next"


def test_caps_reach_the_tablet_once_per_session_and_a_box_without_suits_gets_letters():
    lk = Link(5)
    lk.tab.set_view(VIEW)
    assert lk.run_until(lambda: lk.tab.state_acked() and lk.tab.caps is not None, 2000)
    caps = [r for r in lk.tab.take_reports() if r["kind"] == "caps"]
    assert len(caps) == 1 and caps[0]["suits"] is False and caps[0]["fw"] == 1
    assert M.box_state(lk.box)["message"] == "1H alerted"
    assert [e["kind"] for e in lk.delivered] == ["hello"]  # CAPS is no event for the laws


def test_a_box_with_suit_glyphs_gets_the_suit_symbols():
    lk = Link(6)
    caps = L.caps_body(0x7F01, 3, L.K_SUITS | L.K_LATIN1, 4, 20, 0x7FFFFE, "BB-4")
    lk.box = S.BoxEndpoint("E", epoch=99, now=lk.now, caps=caps)
    lk.tab.set_view(VIEW)
    assert lk.run_until(lambda: lk.tab.caps is not None and lk.tab.state_acked(), 2000)
    assert lk.tab.caps == {"vendor": 0x7F01, "fw": 3, "lines": 4, "cols": 20, "keys": 0x7FFFFE,
                           "name": "BB-4", "bus": False, "suits": True, "latin1": True}
    assert M.box_state(lk.box)["message"] == "1\u2665 alerted"


def test_a_version_1_box_still_works_with_a_version_2_tablet():
    lk = Link(7)
    lk.box = S.BoxEndpoint("E", epoch=55, now=lk.now, ver_max=1)
    lk.tab.set_view(VIEW)
    assert lk.run_until(lambda: lk.tab.state_acked(), 2000)
    assert lk.tab.version == 1 and lk.tab.caps is None
    assert M.box_state(lk.box)["message"] == "1H alerted"  # no CAPS: letters
    s = lk.box.submit(M.CALL, 5, 10)
    assert s == 0 and lk.run_until(lambda: lk.calls(), 500)
    assert lk.calls()[0]["call"] == "1H"


def test_a_box_whose_versions_the_tablet_does_not_speak_is_reported_once_with_a_clear_text():
    lk = Link(8)
    lk.box = S.BoxEndpoint("E", epoch=56, now=lk.now, ver_min=4, ver_max=5)
    lk.step(5000)  # HELLO retried every 2 s after the refusal
    reps = lk.tab.take_reports()
    assert len(reps) == 1 and reps[0]["kind"] == "version"
    assert "protocol 4..5" in reps[0]["text"] and "update" in reps[0]["text"]
    assert lk.box.version_error and not lk.tab.session


def test_the_epoch_of_the_next_boot_never_repeats_the_last_one():
    """Attack (SPEC.md section 4): a box that reboots and draws its previous epoch is taken for
    the same box and its first new events are dropped as duplicates. With the epoch of the last
    boot kept in flash the next one differs, whatever the random source says."""
    seen = set()
    e = 0xFFF0
    for _ in range(40):
        n = S.next_epoch(e)
        assert n != e and n != 0
        seen.add(n)
        e = n
    assert len(seen) == 40 and S.next_epoch(0xFFFF) == 1
    assert 1 <= S.next_epoch(0) <= 0xFFFF  # no earlier boot known: drawn at random


def test_a_box_that_refuses_the_tablets_version_says_so_and_the_tablet_reports_it():
    """A (broken or newer) tablet WELCOMEs with a version the box never offered: the box NAKs
    VERSION with the highest it speaks, even without a session, and the tablet reports it."""
    box = S.BoxEndpoint("N", epoch=0x1234, now=1000)
    tab = TabletEndpoint("N", 0x9999, 1000)
    hello = payloads(bytes(box.output(1000)))[0]
    tab.receive(wire_from_payload(hello), 1000)
    w = bytearray(payloads(bytes(tab.output(1001)))[0])
    assert w[1] == M.WELCOME
    w[M.HEADER] = 9
    M.put_crc(w, len(w) - 2)
    box.receive(wire_from_payload(bytes(w)), 1002)
    nak = M.decode_payload(payloads(bytes(box.output(1002)))[0])
    assert (nak["type"], nak["reason"], nak["of_type"], nak["detail"]) == ("box_nak", "version",
                                                                          M.WELCOME, 3)
    assert box.version_error and not box.session
    tab.session = False  # as a tablet that has not (yet) taken the box in
    tab.receive(wire_from_payload(M.encode_payload(nak)), 1003)
    assert [r["reason"] for r in tab.take_reports() if r["kind"] == "nak"] == ["version"]
