"""Four real firmware boxes (MicroPython) -> simulated serial link -> LinkMaster -> controller."""
import json
import time

import pytest

from shared_rules.types import SEATS
from tests.e2e.harness import HANG_S

pytestmark = pytest.mark.micropython


def outbox(t):
    with t.lock:
        rows = t.ctl.journal.conn.execute("SELECT kind, item_key, payload FROM outbox ORDER BY id").fetchall()
    return [(k, key, json.loads(p)) for k, key, p in rows]


def test_2017_normal_board_keyed_on_boxes_result_reaches_the_outbox(table):
    t = table(policy="record")
    t.auction("N", ["1NT", "P", "3NT", "P", "P", "P"])
    t.all_boxes_show(["1NT", "P", "3NT", "P", "P", "P"])
    assert t.state()["contract"] == "3NT" and t.state()["declarer"] == "N"
    for s in SEATS:
        t.boxes.wait_screen(s, lambda sc: sc.status == "AUCTION OVER")
    with t.lock:
        t.ctl.enter_result(9, "D4")
        rec = t.ctl.ew_confirm()
    assert rec["score_ns"] == 400
    [(kind, key, payload)] = [o for o in outbox(t) if o[0] == "result"]
    assert kind == "result" and key == "club-2026-11-22/A/1/1/1/1" and payload["contract"] == "3NT"
    assert [c["think"] is not None for c in payload["auction"]] == [True] * 6
    # the next board reaches the boxes: dealer East, board 2
    for s in SEATS:
        t.boxes.wait_screen(s, lambda sc: "Bd2 DE" in sc.text)


def test_2017_L22A_passed_out_board_on_boxes(table):
    t = table()
    t.auction("N", ["P", "P", "P", "P"])
    assert t.state()["status"] == "passed_out"
    with t.lock:
        t.ctl.enter_result(None)
        rec = t.ctl.ew_confirm()
    assert rec["contract"] == "PASS" and rec["score_ns"] == 0
    assert [k for kind, k, _ in outbox(t) if kind == "result"] == ["club-2026-11-22/A/1/1/1/1"]


def test_2017_L27_insufficient_bid_record_policy_freezes_boxes_td_rules(table):
    t = table(policy="record")
    t.auction("N", ["1NT"])
    t.boxes.wait_screen("E", lambda sc: sc.status == "YOUR TURN" and len(sc.calls) == 1)
    t.key("E", "1S")
    t.wait(lambda c: c.phase == "frozen", what="table frozen")
    for s in SEATS:
        t.boxes.wait_screen(s, lambda sc: sc.status == "DIRECTOR: wait")
    with t.lock:
        assert t.ctl.estate["irregularities"][0]["kind"] == "insufficient_bid"
        t.ctl.td_decide("2468", "replace", call="2S")
        t.ctl.td_decide("2468", "b1a")
    t.wait(lambda c: c.phase == "auction")
    t.all_boxes_show(["1NT", "2S"])
    t.call("S", "P")


def test_2017_L27_insufficient_bid_prevent_policy_box_refuses_before_anyone_sees(table):
    t = table(policy="prevent")
    t.auction("N", ["1NT"])
    t.boxes.wait_screen("E", lambda sc: sc.status == "YOUR TURN" and len(sc.calls) == 1)
    t.key("E", "1S")
    t.boxes.wait_screen("E", lambda sc: "INSUFFICIENT" in sc.text)
    assert t.ncalls() == 1 and t.ctl.phase == "auction"
    t.boxes.wait_screen("W", lambda sc: sc.plain_calls == ["1NT"])  # nobody else saw the 1S
    t.call("E", "2S")


@pytest.mark.parametrize("policy", ["record", "prevent"])
def test_2017_L28_L31_call_out_of_rotation_in_both_policies(table, policy):
    t = table(policy=policy)
    t.auction("N", ["1H"])
    t.boxes.wait_screen("S", lambda sc: len(sc.calls) == 1)
    t.key("S", "2H")  # partner's turn was East's: out of rotation
    if policy == "prevent":
        t.boxes.wait_screen("S", lambda sc: "NOT YOUR TURN" in sc.text)
        assert t.ncalls() == 1 and t.ctl.phase == "auction"
    else:
        t.wait(lambda c: c.phase == "frozen" or c.estate.get("irregularities"), what="out of rotation caught")
        with t.lock:
            kinds = [i["kind"] for i in t.ctl.estate["irregularities"]]
        assert kinds == ["call_out_of_rotation"]


@pytest.mark.parametrize("policy", ["record", "prevent"])
def test_2017_L36_inadmissible_double_of_partner_in_both_policies(table, policy):
    t = table(policy=policy)
    t.auction("N", ["1H", "P"])
    t.boxes.wait_screen("S", lambda sc: sc.status == "YOUR TURN" and len(sc.calls) == 2)
    t.key("S", "X")  # doubling partner's bid
    if policy == "prevent":
        t.boxes.wait_screen("S", lambda sc: "not allowed" in sc.text)
        assert t.ncalls() == 2
    else:
        t.wait(lambda c: bool(c.estate.get("irregularities")), what="inadmissible double caught")
        with t.lock:
            assert t.ctl.estate["irregularities"][0]["kind"] == "inadmissible_double"


def test_fsb_L116_stop_then_jump_locks_next_box_and_alert_marks_call(table):
    t = table(profile="fsb-2007", policy="record")
    t.boxes.wait_screen("N", lambda sc: sc.status == "YOUR TURN")
    t.boxes.press("N", ["STOP"])
    t.wait(lambda c: "N" in c.stop_shown, what="stop journalled")
    t.call("N", "2S")
    with t.lock:
        assert t.ctl.estate["calls"][0]["stop"] is True
        lock = t.ctl.estate.get("stop_lock_until")
    assert lock is not None
    t.boxes.wait_screen("E", lambda sc: sc.status.startswith("STOP"))
    t.boxes.press("S", ["ALERT"])  # South alerts partner's 2S
    t.wait(lambda c: c.estate["calls"][0].get("alerted"), what="alert applied")
    t.boxes.wait_screen("W", lambda sc: sc.calls and sc.calls[0] in ("2S+", "2S*"))
    with t.lock:
        row = t.ctl.tempo()[0]
    assert row["stop"] and row["alerted"] and row["think"] is not None


def test_wbf_screens_tray_hides_other_side_until_it_passes(table):
    t = table(profile="wbf-screens-2017", policy="record", tray_delay_s=3.0)
    t.auction("N", ["1C", "P"])
    south = t.boxes.wait_screen("S", lambda sc: len(sc.calls) == 2)
    assert south.calls == ["--", "--"]  # on the tray, not yet under the screen
    t.boxes.wait_screen("N", lambda sc: sc.plain_calls == ["1C", "P"])
    # South and West see two hidden calls until the tray passes, then the calls
    t.boxes.wait_screen("S", lambda sc: sc.calls[:2] == ["1C", "P"], timeout=60)
    with t.lock:
        screen = t.ctl.screen  # the engine's tray (FSB L114): it went to South-West's side
        assert screen is not None and screen["passes"] and screen["passes"][0]["to_side"] == 1
    t.call("S", "1H")
    assert t.boxes.screen("N").calls[:3] in (["1C", "P", "--"], ["1C", "P"])


def _rule_l27b2(t):
    """N 1NT, E 1S insufficient, replaced by 2S, ruled neither (2017 L27B2): West passes throughout."""
    t.auction("N", ["1NT"])
    t.boxes.wait_screen("E", lambda sc: sc.status == "YOUR TURN" and len(sc.calls) == 1)
    t.key("E", "1S")
    t.wait(lambda c: c.phase == "frozen", what="frozen")
    with t.lock:
        t.ctl.td_decide("2468", "replace", call="2S")
        t.ctl.td_decide("2468", "none")
        assert t.ctl.estate["obligations"][0]["seat"] == "W"
    t.call("S", "P")


def test_2017_L37_call_when_required_to_pass_record_policy(table):
    t = table(policy="record")
    _rule_l27b2(t)
    t.boxes.wait_screen("W", lambda sc: sc.status == "YOUR TURN" and len(sc.calls) == 3)
    t.key("W", "3C")
    t.wait(lambda c: c.phase == "frozen", what="L37 caught")
    with t.lock:
        assert t.ctl.estate["pending"]["kind"] == "call_when_required_to_pass"


def test_2017_L37_box_allows_only_pass_to_a_player_who_must_pass(table):
    t = table(policy="record")
    _rule_l27b2(t)
    with t.lock:
        view = t.ctl.views()["W"]
        # what a prevent-policy box enforces: the tablet's allowed list holds only a pass
        assert view["allowed"] == ["P"] and view["turn"] == "W"
    t.boxes.wait_screen("W", lambda sc: "Pass to end" in sc.text)


def test_2017_L25A_wrong_card_on_box_td_corrects_through_the_tablet(table):
    t = table(policy="record")
    t.auction("N", ["1D"])
    t.boxes.press("N", ["UNDO"])
    t.wait(lambda c: bool(c.open_td_calls()), what="TD called from the box")
    with t.lock:
        assert t.ctl.open_td_calls()[-1]["reason"] == "change_of_call"
        t.ctl.td_correct_call("2468", "N", "1H")
    t.all_boxes_show(["1H"])
    [(kind, key, payload)] = [o for o in outbox(t) if o[0] == "td_call"]
    assert payload["seat"] == "N" and payload["reason"] == "change_of_call"


def test_2017_L39_box_refuses_a_call_after_the_final_pass(table):
    t = table(policy="record")
    t.auction("N", ["1C", "P", "P", "P"])
    t.boxes.wait_screen("S", lambda sc: sc.status == "AUCTION OVER")
    with t.lock:
        before = t.ctl.journal.count()
    t.key("S", "2C")
    t.boxes.wait_screen("S", lambda sc: "no auction" in sc.text)
    with t.lock:
        assert t.ctl.journal.count() == before and t.ctl.phase == "play"


def test_tablet_restart_resynchronises_boxes_and_a_call_made_meanwhile_arrives_once(rig, tmp_path):
    """The tablet process dies (journal left as it was, serial ports dropped); a box keys a call
    while it is down; the restarted tablet replays its journal, the boxes reconnect and get the
    same table, and the call made meanwhile is applied exactly once."""
    from tablet_app.link import LinkMaster
    from tests.e2e.conftest import SESSION
    from tests.e2e.harness import E2ETable

    db = tmp_path / "restart.db"
    t = E2ETable(rig, db, {**SESSION, "policy": "record"})
    t.auction("N", ["1C", "P"])
    t.close()  # the tablet stops: no more polling, no more states
    rig.master.close()
    t.boxes.wait_screen("S", lambda sc: sc.status == "YOUR TURN" and len(sc.calls) == 2)
    t.key("S", "1H")  # keyed while the tablet is down: kept on the box until acknowledged
    t.boxes.wait_screen("S", lambda sc: "1H sending" in sc.selection)
    rig.master = LinkMaster(rig.link.tablet_ports)
    from tablet_app.controller import Controller
    from tablet_app.runner import TableRunner

    ctl = Controller(db)  # replay
    assert [c["call"] for c in ctl.estate["calls"]] == ["1C", "P"]
    runner = TableRunner(ctl, link=rig.master)
    deadline = time.monotonic() + HANG_S  # the boxes reconnect first: only ends a hang
    while len(ctl.estate["calls"]) < 3 and time.monotonic() < deadline:
        runner.step(0.02)
    assert [c["call"] for c in ctl.estate["calls"]] == ["1C", "P", "1H"]
    # any re-sent copy of 1H comes before S's next frames (the line keeps their order; the box
    # sends one at least every 200 ms): it must not be applied again
    frames = rig.master.stats()["S"]["frames"]
    while rig.master.stats()["S"]["frames"] < frames + 2:
        runner.step(0.01)
        assert time.monotonic() < deadline + HANG_S, "no frame from S's box"
    runner.step(0)  # what they delivered
    assert [c["call"] for c in ctl.estate["calls"]] == ["1C", "P", "1H"]
    for s in SEATS:
        end = time.monotonic() + HANG_S
        while t.boxes.screen(s).plain_calls != ["1C", "P", "1H"]:
            runner.step(0.01)
            assert time.monotonic() < end, t.boxes.screen(s).text
    ctl.close()


def test_2017_dbf_stop_wait_too_short_is_flagged_for_the_tempo_view(table):
    t = table(policy="record")  # dbf-2017: the stop wait is warned about, not locked
    t.boxes.wait_screen("N", lambda sc: sc.status == "YOUR TURN")
    t.boxes.press("N", ["STOP"])
    t.wait(lambda c: "N" in c.stop_shown, what="stop journalled")
    t.call("N", "2S")
    t.boxes.wait_screen("E", lambda sc: "STOP" in sc.status and len(sc.calls) == 1)
    t.key("E", "P")  # at once, inside the ten seconds
    t.wait(lambda c: len(c.estate["calls"]) == 2, what="East's pass")
    with t.lock:
        rows = t.ctl.tempo()
        kinds = [f["kind"] for f in t.ctl.estate["timing"]]
    assert "stop_wait_short" in kinds
    assert "stop_wait_short" in rows[1]["flags"] and rows[0]["stop"]


@pytest.mark.parametrize("policy", ["record", "prevent"])
def test_2017_L25_second_call_by_the_same_player_in_both_policies(table, policy):
    t = table(policy=policy)
    t.auction("N", ["1C"])
    t.boxes.wait_screen("N", lambda sc: len(sc.calls) == 1)
    t.key("N", "1D")  # North calls again before East: a change of call
    if policy == "prevent":
        t.boxes.wait_screen("N", lambda sc: "NOT YOUR TURN" in sc.text)
        assert t.ncalls() == 1 and t.ctl.phase == "auction"
    else:
        t.wait(lambda c: c.phase == "frozen", what="change of call caught")
        with t.lock:
            assert t.ctl.estate["pending"]["kind"] == "change_of_call"
            ids = [o["id"] for o in t.ctl.estate["pending"]["options"]]
            t.ctl.td_decide("2468", "cancel" if "cancel" in ids else ids[0])
        t.wait(lambda c: c.phase == "auction", what="ruled")
        t.all_boxes_show(["1C"])
