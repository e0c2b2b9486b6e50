"""The session state machines (SPEC.md sections 4-6) over an in-memory link with a virtual clock."""
import pytest

from hardware.sim.lossy import Link, soak
from protocol import messages as M
from protocol import session as S
from protocol.frame_tools import payloads
from protocol.tablet_endpoint import TabletEndpoint

VIEW = {"turn": "E", "lowest": "1H", "allowed": ["P", "X", "1H"], "prevent": True,
        "auction": [{"call": "1D"}], "message": "your turn"}


def up(seed=1, bus=False):
    lk = Link(seed, bus=bus)
    lk.tab.set_view(VIEW)
    assert lk.run_until(lambda: M.box_state(lk.box) is not None and lk.tab.state_acked(), 2000)
    return lk


def as_sent(sent):
    return [(M.EVENT_KINDS[c], M.calls.NAMES[a] if c == M.CALL else None, ms) for c, a, ms in sent]


def as_got(got):
    return [(e["kind"], e["call"], e["box_ms"]) for e in got]


def test_handshake_delivers_hello_once_and_the_full_state():
    lk = up()
    assert lk.box.session and lk.tab.session and lk.box.version == 3
    assert M.box_state(lk.box)["turn"] == "E" and M.box_state(lk.box)["auction"][0]["call"] == "1D"
    hellos = [e for e in lk.delivered if e["kind"] == "hello"]
    assert len(hellos) == 1 and hellos[0]["epoch"] == lk.box.epoch


def test_events_arrive_in_order_once_and_are_dropped_from_the_box_queue_when_acked():
    lk = up()
    base = lk.box.next_seq  # 1: the box's CAPS (version 2) had seq 0
    for i in range(10):
        lk.box.submit(M.CALL, i, 100 + i)
    lk.box.submit(M.ALERT, 3, 200)
    lk.box.submit(M.UNDO, 0xFF, 201)
    assert lk.run_until(lambda: lk.box.q_count == 0, 2000)
    got = lk.calls()
    assert [e["call"] for e in got[:10]] == [M.calls.NAMES[i] for i in range(10)]
    assert (got[10]["kind"], got[10]["index"]) == ("alert", 3)
    assert (got[11]["kind"], got[11]["index"]) == ("undo", None)
    assert [e["seq"] for e in got] == list(range(base, base + 12))


def test_a_lost_event_frame_is_retransmitted_after_the_timeout():
    lk = up()
    lk.cut(True)
    lk.box.submit(M.CALL, 7, 5)
    lk.step(5)
    lk.cut(False)
    assert lk.calls() == []
    assert lk.run_until(lambda: lk.calls(), 500)
    assert lk.box.retransmits >= 1 and lk.calls()[0]["call"] == "1NT"


def test_a_duplicated_event_is_acknowledged_but_not_delivered_twice():
    lk = up()
    s = lk.box.submit(M.CALL, 4, 5)
    frame = bytes(lk.box.output(lk.now))
    lk.tab.receive(frame, lk.now)
    lk.tab.receive(frame, lk.now)
    lk.tab.receive(frame, lk.now)
    evs = [e for e in lk.tab.take_events() if e["kind"] == "call"]
    assert len(evs) == 1 and lk.tab.duplicates == 2
    ack = payloads(bytes(lk.tab.output(lk.now)))[0]
    assert ack[1] == M.PING and ack[5] == s + 1  # cumulative ack: the next expected seq


def test_a_gap_is_refused_and_nakked_out_of_sequence():
    lk = up()
    s = lk.box.submit(M.CALL, 4, 5)
    lk.box.submit(M.CALL, 5, 6)
    lk.box.output(lk.now)  # the first lost on the way
    second = bytes(lk.box.output(lk.now))
    lk.tab.receive(second, lk.now)
    assert lk.tab.take_events() == [] and lk.tab.gaps == 1
    nak = M.decode_payload(payloads(bytes(lk.tab.output(lk.now)))[0])
    assert nak["type"] == "nak" and nak["reason"] == "out_of_sequence" and nak["detail"] == s


def test_state_is_latest_wins_and_resent_until_acked():
    lk = up()
    lk.cut(True)
    for i in range(5):
        lk.tab.set_view(dict(VIEW, message=f"m{i}"))
        lk.step(10)
    lk.step(100)
    lk.cut(False)
    assert lk.run_until(lambda: lk.tab.state_acked(), 1000)
    assert M.box_state(lk.box)["message"] == "m4"


def test_hundreds_of_states_made_while_the_cable_is_out_still_reach_the_box():
    # 200 states: the tablet's seq runs more than half the 8-bit space ahead of the box.
    lk = up()
    lk.cut(True)
    for i in range(200):
        lk.tab.set_view(dict(VIEW, message=f"m{i}"))
        lk.step(3)
    lk.cut(False)
    assert lk.run_until(lambda: lk.tab.state_acked(), 2000)
    assert M.box_state(lk.box)["message"] == "m199"


def test_box_reboot_new_epoch_gets_the_full_state_again_and_a_hello_event():
    lk = up()
    lk.box.submit(M.CALL, 3, 5)
    assert lk.run_until(lambda: lk.box.q_count == 0, 1000)
    old = lk.box.epoch
    lk.box = S.BoxEndpoint("E", epoch=old ^ 0x5A5A, now=lk.now)
    assert lk.run_until(lambda: M.box_state(lk.box) is not None, 2000)
    assert M.box_state(lk.box)["message"] == "your turn"
    hellos = [e for e in lk.delivered if e["kind"] == "hello"]
    assert [h["epoch"] for h in hellos] == [old, old ^ 0x5A5A]
    s = lk.box.submit(M.CALL, 9, 77)
    assert lk.run_until(lambda: lk.box.q_count == 0, 1000)
    last = lk.calls()[-1]
    assert (last["epoch"], last["seq"], last["call"]) == (old ^ 0x5A5A, 1, "2D") and s == 1  # 0: CAPS


def test_tablet_reboot_makes_the_box_resend_its_unacked_events_to_the_new_session():
    lk = up()
    lk.cut(True)
    lk.box.submit(M.CALL, 3, 5)
    lk.box.submit(M.STOP, 0xFF, 6)
    lk.step(50)
    lk.tab = TabletEndpoint("E", epoch=lk.tab.epoch ^ 0x1111, now=lk.now)
    lk.tab.set_view(dict(VIEW, message="after restart"))
    lk.cut(False)
    assert lk.run_until(lambda: lk.box.q_count == 0 and M.box_state(lk.box)["message"] == "after restart", 3000)
    assert [e["kind"] for e in lk.calls()] == ["call", "stop"]


def test_heartbeats_keep_an_idle_link_up_and_silence_is_link_loss():
    lk = up()
    lk.step(3000)
    assert lk.box.linked(lk.now) and lk.tab.connected(lk.now)
    lk.cut(True)
    lk.step(S.LINK_LOSS_MS + 50)
    assert not lk.box.linked(lk.now) and not lk.tab.connected(lk.now)
    lk.box.submit(M.TD, 0xFF, 9)  # queued while the link is down
    lk.cut(False)
    assert lk.run_until(lambda: lk.box.linked(lk.now) and lk.tab.connected(lk.now), 1000)
    assert lk.run_until(lambda: lk.box.q_count == 0, 1000)
    assert lk.calls()[-1]["kind"] == "td"


def test_version_negotiation_refuses_a_box_with_no_common_version():
    lk = Link(5)
    lk.box = S.BoxEndpoint("E", epoch=77, now=lk.now, ver_min=4, ver_max=5)
    lk.step(300)
    assert lk.box.version_error and not lk.box.session and not lk.tab.session
    assert [e for e in lk.delivered if e["kind"] == "hello"] == []


def test_version_negotiation_picks_the_highest_common_version():
    lk = Link(5)
    lk.box = S.BoxEndpoint("E", epoch=77, now=lk.now, ver_min=1, ver_max=5)  # tablet: 1..3
    assert lk.run_until(lambda: lk.box.session, 1000)
    assert lk.box.version == 3 and lk.tab.version == 3


def test_bus_mode_box_talks_only_when_granted():
    lk = up(bus=True)
    lk.box.submit(M.CALL, 5, 1)
    assert lk.box.output(lk.now) is None  # no grant yet
    assert lk.run_until(lambda: lk.box.q_count == 0, 500)
    assert lk.calls()[0]["call"] == "1H"


def test_box_queue_is_bounded_and_refuses_when_full():
    lk = up()
    lk.cut(True)
    base = lk.box.next_seq
    seqs = [lk.box.submit(M.CALL, 0, i) for i in range(S.QUEUE + 1)]
    assert seqs[:S.QUEUE] == list(range(base, base + S.QUEUE)) and seqs[-1] == -1
    lk.cut(False)
    assert lk.run_until(lambda: lk.box.q_count == 0, 2000)
    assert len(lk.calls()) == S.QUEUE


@pytest.mark.parametrize("bus", [False, True])
def test_soak_2000_events_with_faults_cuts_and_reboots_lose_duplicate_or_reorder_nothing(bus):
    ok, sent, got, lk = soak(11 + bus, 2000, corrupt=0.01, drop=0.005, bus=bus, cuts=4,
                             box_reboots=3, tablet_reboots=3)
    assert ok
    assert as_got(got) == as_sent(sent)
    assert lk.down.corrupted > 0 and lk.up.dropped > 0


def test_held_acks_keep_the_event_on_the_box_until_released_and_survive_a_tablet_crash():
    lk = Link(8)
    lk.tab = TabletEndpoint("E", epoch=321, now=lk.now, hold_acks=True)
    lk.tab.set_view(VIEW)
    assert lk.run_until(lambda: M.box_state(lk.box) is not None and lk.tab.state_acked(), 2000)
    lk.box.submit(M.CALL, 12, 50)
    assert lk.run_until(lambda: lk.calls(), 500)
    lk.step(300)
    assert lk.box.q_count == 1 and len(lk.calls()) == 1  # re-sent, but delivered once
    # the tablet dies before its journal commit: a new one gets the call again
    lk.tab = TabletEndpoint("E", epoch=654, now=lk.now, hold_acks=True)
    lk.tab.set_view(VIEW)
    assert lk.run_until(lambda: len(lk.calls()) == 2, 2000)
    assert lk.calls()[1]["call"] == lk.calls()[0]["call"] == "2NT"
    lk.tab.release(lk.calls()[1]["seq"] + 1)
    assert lk.run_until(lambda: lk.box.q_count == 0, 500)


def test_release_never_acknowledges_what_was_not_delivered():
    lk = Link(9)
    lk.tab = TabletEndpoint("E", epoch=321, now=lk.now, hold_acks=True)
    assert lk.run_until(lambda: lk.box.session and lk.tab.caps is not None, 2000)
    # the box's CAPS (seq 0) needs no journal: acknowledged without a release
    assert lk.tab.ack_next == 1
    lk.tab.release(5)
    assert lk.tab.ack_next == 1
    lk.box.submit(M.CALL, 0, 1)
    assert lk.run_until(lambda: lk.calls(), 500)
    lk.tab.release(200)
    assert lk.tab.ack_next == 1
    lk.tab.release(2)
    assert lk.tab.ack_next == 2


def test_the_players_language_rides_on_every_state_from_version_3_and_never_to_a_version_2_box():
    """SPEC.md section 3: from version 3 a STATE ends with the language byte; a version 2 box
    would refuse it (BAD_FIELD), so its tablet leaves it off."""
    lk = up()
    lk.tab.set_view({"turn": "E", "lang": "sv", "message": "Din tur"})
    assert lk.run_until(lambda: M.box_state(lk.box)["message"] == "Din tur", 1000)
    assert M.box_state(lk.box)["lang"] == "sv" and lk.box.version == 3
    old = Link(6)
    old.box = S.BoxEndpoint("E", epoch=78, now=old.now, ver_max=2)
    old.tab.set_view({"turn": "E", "lang": "da", "message": "Din tur"})
    assert old.run_until(lambda: M.box_state(old.box) is not None and old.tab.state_acked(), 2000)
    assert old.box.version == 2 and "lang" not in M.box_state(old.box)
    assert old.box.naks_out == 0  # nothing it had to refuse


def test_next_output_ms_says_when_the_tablet_writes_of_its_own_accord():
    """next_output_ms(now) (what a rig running the tablet on a chip's clock asks: LinkMaster
    .settled) agrees with output(): nothing before that many ms, a frame then; the heartbeat on
    an idle link, the STATE's retransmit while it is unacknowledged, 0 when something is due."""
    lk = up()
    lk.cut(True)  # the box hears nothing: only the tablet's own timers make frames
    tab = lk.tab
    now = lk.now
    seen, waits = set(), set()
    for round_ in range(12):
        if round_ == 4:
            tab.set_view(dict(VIEW, message="new"))
            assert tab.next_output_ms(now) == 0
        w = tab.next_output_ms(now)
        assert w >= 0
        for k in range(w):
            assert tab.output(now + k) is None, (round_, k, w)
        f = tab.output(now + w)
        assert f is not None, (round_, w)
        seen.add(payloads(bytes(f))[0][1])
        waits.add(w)
        now += w
    assert seen == {M.PING, M.STATE}
    assert {0, S.RTO_MS, S.HEARTBEAT_MS} <= waits  # due at once, the retransmit, the heartbeat
    assert TabletEndpoint("N").next_output_ms(0) == -1  # no session: nothing comes of itself
