import copy
import json

import pytest

from shared_rules.types import SEATS
from tablet_app.controller import PinError, Refused
from tablet_app.results import ResultError
from tablet_app.session import SetupError
from tests.tablet.conftest import SESSION
from tests.tablet.outbox_rows import outbox_items


def table_view(ctl):
    """The table as the players see it: a wrong PIN is journalled and queued for the station
    (tests/tablet/test_pin.py), but changes nothing at the table."""
    snap = copy.deepcopy(ctl.snapshot())
    for k in ("pin", "delivery"):
        snap.pop(k)
    return snap


def only_wrong_pins(ctl, n):
    """Since record n the journal holds only wrong PIN tries."""
    return [kind for seq, kind, _ in ctl.journal.records() if seq > n] and all(
        kind == "pin_wrong" for seq, kind, _ in ctl.journal.records() if seq > n)


def bid(ctl, clock, seat, call, think=2.0, seq=None):
    clock.advance(think)
    return ctl.box_event(seat, "call", call=call, seq=seq, box_ms=None if seq is None else seq * 1000)


def auction(ctl, clock, calls, dealer="N"):
    i = SEATS.index(dealer)
    for k, c in enumerate(calls):
        r = bid(ctl, clock, SEATS[(i + k) % 4], c)
        assert r["ok"], r


def test_2017_L17_L22_normal_board_contract_result_and_outbox(make_controller, clock):
    ctl = make_controller()
    ctl.setup(SESSION)
    assert ctl.board == 1 and ctl.phase == "auction"
    auction(ctl, clock, ["1H", "P", "4H", "P", "P", "P"])
    assert ctl.phase == "play"
    preview = ctl.enter_result(10, "SA")
    assert preview["contract"] == "4H" and preview["declarer"] == "N"
    assert preview["score_ns"] == 420 and preview["label"] == "="
    assert ctl.phase == "confirm"
    rec = ctl.ew_confirm(True)
    assert rec["key"] == "club-2026-11-22/A/3/2/1/1"
    assert rec["score_ns"] == 420 and rec["ew_confirmed"] and rec["lead"] == "SA"
    assert [c["call"] for c in rec["auction"]] == ["1H", "P", "4H", "P", "P", "P"]
    items = [i for i in outbox_items(ctl.outbox) if i[1] == "result"]
    assert [(k, kind) for k, kind, _ in items] == [("club-2026-11-22/A/3/2/1/1", "result")]
    assert ctl.board == 2 and ctl.phase == "auction"


def test_2017_L22A_passed_out_board_scores_zero(make_controller, clock):
    ctl = make_controller()
    ctl.setup(SESSION)
    auction(ctl, clock, ["P", "P", "P", "P"])
    assert ctl.phase == "play"
    with pytest.raises(ResultError):
        ctl.enter_result(7)
    ctl.enter_result(None)
    rec = ctl.ew_confirm()
    assert rec["contract"] == "PASS" and rec["declarer"] is None and rec["score_ns"] == 0


def test_fsb_98A_ew_dispute_sends_the_result_back_to_north(make_controller, clock):
    ctl = make_controller()
    ctl.setup(SESSION)
    auction(ctl, clock, ["1NT", "P", "3NT", "P", "P", "P"])
    ctl.enter_result(8)
    assert ctl.ew_confirm(False) is None
    assert ctl.phase == "play" and [i for i in outbox_items(ctl.outbox) if i[1] == "result"] == []
    ctl.enter_result(9)
    assert ctl.ew_confirm()["score_ns"] == 400


def test_bad_result_entry_is_refused_and_changes_nothing(make_controller, clock):
    ctl = make_controller()
    ctl.setup(SESSION)
    with pytest.raises(Refused):
        ctl.enter_result(9)  # auction not over
    auction(ctl, clock, ["1S", "P", "P", "P"])
    n = ctl.journal.count()
    for tricks, lead in [(14, None), (-1, None), ("nine", None), (True, None), (9, "ZZ"), (9, "S1")]:
        with pytest.raises(ResultError):
            ctl.enter_result(tricks, lead)
    assert ctl.journal.count() == n and ctl.phase == "play"


def test_2017_L27_insufficient_bid_freezes_table_and_td_rules_with_pin(make_controller, clock):
    ctl = make_controller()
    ctl.setup({**SESSION, "policy": "record"})
    auction(ctl, clock, ["1NT"])
    r = bid(ctl, clock, "E", "1S")
    assert r["ok"]
    assert ctl.phase == "frozen"
    pending = ctl.estate["pending"]
    assert pending["kind"] == "insufficient_bid" and pending["options"]
    views = ctl.views()
    assert all(v["frozen"] and v["allowed"] == [] for v in views.values())
    n = ctl.journal.count()
    snap = table_view(ctl)
    with pytest.raises(PinError, match="wrong director PIN"):
        ctl.td_decide("0000", pending["options"][0]["id"])
    assert only_wrong_pins(ctl, n) and table_view(ctl) == snap
    n = ctl.journal.count()
    with pytest.raises(Refused):
        ctl.td_decide("4321", "no-such-option")
    assert [kind for seq, kind, _ in ctl.journal.records() if seq > n] == ["pin_ok"]  # the wrong try is forgiven
    ctl.td_decide("4321", pending["options"][0]["id"])
    assert ctl.phase == "auction" and ctl.estate["pending"] is None


def test_calls_while_frozen_are_refused_for_seats_not_asked(make_controller, clock):
    ctl = make_controller()
    ctl.setup({**SESSION, "policy": "record"})
    auction(ctl, clock, ["1NT"])
    bid(ctl, clock, "E", "1S")
    r = bid(ctl, clock, "N", "2C")
    assert not r["ok"] and "director" in r["reason"]


def test_prevent_policy_refuses_out_of_turn_call_before_anyone_sees_it(make_controller, clock):
    ctl = make_controller()
    ctl.setup({**SESSION, "policy": "prevent"})
    r = bid(ctl, clock, "S", "1C")
    assert not r["ok"] and r["reason"]
    assert ctl.estate["calls"] == [] and ctl.phase == "auction"
    assert ctl.log[-1]["what"] == "refused"


def test_duplicate_box_event_after_resend_is_not_applied_twice(make_controller, clock):
    ctl = make_controller()
    ctl.setup(SESSION)
    assert bid(ctl, clock, "N", "1C", seq=7)["ok"]
    again = bid(ctl, clock, "N", "1C", seq=7)
    assert again["duplicate"]
    assert [c["call"] for c in ctl.estate["calls"]] == ["1C"]


def test_stop_then_call_marks_the_call_with_the_stop(make_controller, clock):
    ctl = make_controller()
    ctl.setup(SESSION)
    clock.advance(1)
    ctl.box_event("N", "stop", seq=1, box_ms=100)
    assert ctl.views()["N"]["message"] == "Stop shown"
    bid(ctl, clock, "N", "2S", seq=2)
    assert ctl.estate["calls"][0]["stop"] is True
    assert ctl.tempo()[0]["stop"] is True and ctl.tempo()[0]["think"] is not None


def test_alert_reaches_the_boxes_and_tempo(make_controller, clock):
    ctl = make_controller()
    ctl.setup(SESSION)
    auction(ctl, clock, ["1NT", "P", "2C"])
    ctl.box_event("N", "alert")
    assert ctl.views()["W"]["auction"][2]["alert"] is True
    assert ctl.tempo()[2]["alerted"] is True


def test_restart_restores_the_same_table_auction_pending_and_results(make_controller, clock, tmp_path):
    db = tmp_path / "j.db"
    ctl = make_controller(db)
    ctl.setup({**SESSION, "policy": "record"})
    auction(ctl, clock, ["P", "P", "P", "P"])
    ctl.enter_result(None)
    ctl.ew_confirm()
    auction(ctl, clock, ["1NT"], dealer="E")
    bid(ctl, clock, "S", "1S")
    assert ctl.phase == "frozen"
    before = copy.deepcopy(ctl.snapshot())
    views = ctl.views()
    items = outbox_items(ctl.outbox)
    ctl.journal.conn.close()  # as if the process died: no orderly shutdown
    again = make_controller(db)
    assert again.snapshot() == before
    assert again.views() == views
    assert outbox_items(again.outbox) == items
    again.td_decide("4321", again.estate["pending"]["options"][0]["id"])
    assert again.phase == "auction"


def test_round_end_shows_mitchell_moves(make_controller, clock):
    ctl = make_controller()
    ctl.setup({**SESSION, "boards": [1]})
    auction(ctl, clock, ["P", "P", "P", "P"])
    ctl.enter_result(None)
    ctl.ew_confirm()
    assert ctl.phase == "round_end"
    pos = ctl.snapshot()["next_positions"]
    assert pos["ns"] == {"pair": 1, "table": 3, "seat": "NS"}
    assert pos["ew"]["table"] == 4 and pos["boards"]["table"] == 2
    assert all(v["turn"] is None for v in ctl.views().values())


@pytest.mark.parametrize("bad, msg", [
    ({"table": 0}, "Table number"), ({"boards": "3-1"}, "backwards"), ({"boards": []}, "at least one"),
    ({"ew_pair": 1, "movement": "howell"}, "cannot both be pair 1"), ({"policy": "lenient"}, "policy"),
    ({"td_pin": "12"}, "PIN"), ({"colour": "red"}, "does not know"), ({"table": 9}, "does not exist"),
])
def test_bad_setup_is_refused_with_a_clear_message(make_controller, bad, msg):
    ctl = make_controller()
    with pytest.raises(SetupError, match=msg):
        ctl.setup({**SESSION, **bad})
    assert ctl.journal.count() == 0 and ctl.phase == "setup"


def test_session_from_station_movement():
    from tablet_app.session import from_station

    mv = {"event": "e1", "section": "B", "tables": 4,
          "rounds": {"2": {"3": {"ns": 3, "ew": 6, "boards": "7-9", "next": {"ns": {"table": 3}}}}}}
    s = from_station(mv, 3, 2, td_pin="2468", profile="dbf-2017")
    assert s.boards == (7, 8, 9) and s.ns_pair == 3 and s.movement == "station"
    with pytest.raises(SetupError, match="no pairs and boards for table 4"):
        from_station(mv, 4, 2, td_pin="2468", profile="dbf-2017")


def test_unknown_box_is_refused(make_controller):
    ctl = make_controller()
    ctl.setup(SESSION)
    with pytest.raises(Refused, match="unknown box"):
        ctl.box_event("Q", "call", call="1C")


def test_2017_L25A_td_corrects_an_unintended_call_reported_with_undo(make_controller, clock):
    ctl = make_controller()
    ctl.setup(SESSION)
    auction(ctl, clock, ["1D"])
    r = ctl.box_event("N", "undo", seq=1, box_ms=10)
    assert r["ok"] and ctl.open_td_calls()[-1]["reason"] == "change_of_call"
    n = ctl.journal.count()
    with pytest.raises(PinError):
        ctl.td_correct_call("1111", "N", "1H")
    assert only_wrong_pins(ctl, n) and [c["call"] for c in ctl.estate["calls"]] == ["1D"]
    ctl.td_correct_call("4321", "N", "1H")
    assert [c["call"] for c in ctl.estate["calls"]] == ["1H"]
    assert ctl.estate["irregularities"][-1]["kind"] == "change_of_call"


def test_2017_L25A_too_late_once_partner_has_called_is_refused_unchanged(make_controller, clock):
    ctl = make_controller()
    ctl.setup(SESSION)
    auction(ctl, clock, ["1D", "P", "1S"])
    snap = copy.deepcopy(ctl.snapshot())
    with pytest.raises(Refused, match="too late"):
        ctl.td_correct_call("4321", "N", "1H")
    assert ctl.snapshot() == snap


def test_2017_L25A_correction_after_the_final_pass_reopens_the_auction(make_controller, clock):
    ctl = make_controller()
    ctl.setup(SESSION)
    auction(ctl, clock, ["1H", "P", "P", "P"])
    assert ctl.phase == "play"
    ctl.td_correct_call("4321", "W", "X")
    assert ctl.phase == "auction" and ctl.estate["next"] == "N"


def test_while_frozen_only_the_seats_the_law_names_may_call(make_controller, clock):
    ctl = make_controller()
    ctl.setup({**SESSION, "policy": "record"})
    auction(ctl, clock, ["1NT"])
    bid(ctl, clock, "E", "1S")
    may = ctl.estate["pending"]["may_call"]
    assert "S" in may  # the LHO accepts by calling (2017 L27A1)
    for seat in "NW":
        assert seat not in may and not bid(ctl, clock, seat, "2C")["ok"]
    assert bid(ctl, clock, "S", "P")["ok"]
    assert ctl.phase == "auction"


def test_progress_items_for_the_station_director_page(make_controller, clock):
    ctl = make_controller()
    ctl.setup({**SESSION, "policy": "record"})
    auction(ctl, clock, ["1NT"])
    bid(ctl, clock, "E", "1S")
    ctl.td_decide("4321", "accept")
    auction(ctl, clock, ["P", "P", "P"], dealer="S")
    ctl.enter_result(7)
    ctl.ew_confirm()
    prog = [(k.split("/", 4)[4], p["phase"], len(p["calls"])) for k, kind, p in outbox_items(ctl.outbox) if kind == "auction"]
    assert prog == [("1/auction/1", "bidding", 0), ("1/auction/2", "bidding", 1), ("1/auction/3", "playing", 5),
                    ("1/auction/4", "entering_result", 5), ("2/auction/1", "bidding", 0)]


def test_a_damaged_journal_is_reported_with_the_record_never_guessed_past(make_controller, clock, tmp_path):
    from tablet_app.journal import JournalDamaged, chain_of

    db = tmp_path / "bad.db"
    ctl = make_controller(db)
    ctl.setup(SESSION)
    auction(ctl, clock, ["1C"])
    bad = json.dumps({"ev": {"t": 9, "seat": "N", "call": "9Z"}})
    ctl.journal.conn.execute("INSERT INTO journal (kind, body) VALUES ('event', ?)", (bad,))
    with pytest.raises(JournalDamaged, match=r"damaged at record 4"):
        make_controller(db)
    # Even chained correctly (a newer version's record, or a forger who knows the scheme), a
    # record replay refuses is named and never guessed past.
    head = ctl.journal.conn.execute("SELECT seq, chain FROM head").fetchone()
    chain = chain_of(ctl.journal.conn.execute("SELECT chain FROM journal WHERE seq = 3").fetchone()[0], 4, "event", bad)
    ctl.journal.conn.execute("UPDATE journal SET chain = ? WHERE seq = 4", (chain,))
    ctl.journal.conn.execute("UPDATE head SET seq = 4, chain = ?", (chain,))
    assert head[0] == 3
    with pytest.raises(JournalDamaged, match=r"damaged at record 4: the 'event' record cannot be replayed"):
        make_controller(db)


def test_2017_L12C2_artificial_adjusted_score_replaces_the_result_and_moves_on(make_controller, clock):
    ctl = make_controller()
    ctl.setup(SESSION)
    auction(ctl, clock, ["1H"])
    with pytest.raises(PinError):
        ctl.td_artificial_score("0000", "avg+", "avg-", "2017 L12C2")
    with pytest.raises(ResultError):
        ctl.td_artificial_score("4321", "avg++", "avg-", "2017 L12C2")
    rec = ctl.td_artificial_score("4321", "avg+", "avg-", "2017 L12C2")
    assert rec["contract"] is None and rec["score_ns"] is None
    assert rec["adjusted"] == {"kind": "artificial", "ns": "avg+", "ew": "avg-", "law": "2017 L12C2"}
    assert ctl.board == 2 and ctl.phase == "auction"
    assert [k for k, kind, _ in outbox_items(ctl.outbox) if kind == "result"] == ["club-2026-11-22/A/3/2/1/1"]


def test_2017_L79C_corrected_score_is_a_new_revision(make_controller, clock):
    ctl = make_controller()
    ctl.setup(SESSION)
    auction(ctl, clock, ["1H", "P", "4H", "P", "P", "P"])
    ctl.enter_result(10)
    ctl.ew_confirm()
    with pytest.raises(Refused, match="no result"):
        ctl.td_correct_result("4321", 2, 9, reason="declarer conceded a trick he had")
    rec = ctl.td_correct_result("4321", 1, 9, reason="North entered 10, the table agreed 9")
    assert rec["key"] == "club-2026-11-22/A/3/2/1/2" and rec["score_ns"] == -50
    again = ctl.td_correct_result("4321", 1, 11, reason="claim ruled (L70)")
    assert again["key"].endswith("/1/3") and again["score_ns"] == 450
    keys = [k for k, kind, _ in outbox_items(ctl.outbox) if kind == "result"]
    assert keys == ["club-2026-11-22/A/3/2/1/1", "club-2026-11-22/A/3/2/1/2", "club-2026-11-22/A/3/2/1/3"]
    assert ctl.board == 2 and ctl.phase == "auction"  # the table played on meanwhile


def test_2017_L24B_td_exposed_cards_journalled_and_replayed_after_restart(make_controller, clock, tmp_path):
    db = tmp_path / "j.db"
    ctl = make_controller(db)
    ctl.setup(SESSION)
    auction(ctl, clock, ["1H"])
    n = ctl.journal.count()
    snap = table_view(ctl)
    with pytest.raises(PinError):
        ctl.td_exposed_cards("1111", "E", ["SK"])
    assert only_wrong_pins(ctl, n) and table_view(ctl) == snap
    n = ctl.journal.count()
    ctl.td_exposed_cards("4321", "E", ["SK"])
    assert ctl.journal.count() == n + 2  # the wrong try forgiven, the TD's event
    assert ctl.estate["obligations"] == [{"seat": "W", "must_pass": "next_turn", "law": "2017 L24B"}]
    assert ctl.estate["exposed_cards"][0]["cards"] == ["SK"]
    assert ctl.log[-1]["what"] == "irregularity" and ctl.log[-1]["kind"] == "cards_exposed"
    before = copy.deepcopy(ctl.snapshot())
    ctl.journal.conn.close()  # as if the process died
    again = make_controller(db)
    assert again.snapshot() == before
    assert again.views()["W"] == ctl.views()["W"]
    bid(again, clock, "E", "P")
    bid(again, clock, "S", "2H")
    assert again.views()["W"]["allowed"] == ["P"]  # the box offers only a pass (L24B)
    assert bid(again, clock, "W", "2S")["ok"]  # recorded, as with cardboard (policy record) ...
    assert again.estate["pending"]["kind"] == "call_when_required_to_pass"  # ... and L37 applies


@pytest.mark.parametrize("seat,cards,match", [
    ("Q", ["SK"], "unknown seat"),
    ("E", ["SX"], "unknown card"),
    ("E", [], "list of 1 to 13"),
])
def test_L24_td_exposed_cards_malformed_is_refused_and_changes_nothing(make_controller, clock, seat, cards, match):
    ctl = make_controller()
    ctl.setup(SESSION)
    auction(ctl, clock, ["1H"])
    ctl.check_pin("4321")
    n = ctl.journal.count()
    snap = copy.deepcopy(ctl.snapshot())
    with pytest.raises(Refused, match=match):
        ctl.td_exposed_cards("4321", seat, cards)
    assert ctl.journal.count() == n and ctl.snapshot() == snap


def test_2017_L15A2a_td_wrong_board_call_partner_called_then_artificial_score(make_controller, clock, tmp_path):
    db = tmp_path / "j.db"
    ctl = make_controller(db)
    ctl.setup(SESSION)
    auction(ctl, clock, ["1H", "1S", "2H", "2S"])
    n = ctl.journal.count()
    with pytest.raises(PinError):
        ctl.td_wrong_board_call("0000", "E")
    assert only_wrong_pins(ctl, n) and len(ctl.estate["calls"]) == 4
    ctl.td_wrong_board_call("4321", "E")
    assert ctl.estate["status"] == "adjusted_score" and ctl.phase == "frozen"
    assert ctl.estate["adjusted_score"]["law"] == "2017 L15A2(a), L12C1"
    assert not bid(ctl, clock, "E", "P")["ok"]  # nobody calls on: the TD adjusts
    before = copy.deepcopy(ctl.snapshot())
    ctl.journal.conn.close()
    again = make_controller(db)
    assert again.snapshot() == before
    rec = again.td_artificial_score("4321", "avg", "avg", "2017 L15A2(a), L12C1")
    assert rec["adjusted"]["law"] == "2017 L15A2(a), L12C1" and again.board == 2 and again.phase == "auction"


def test_2017_L15A2b_td_wrong_board_call_offender_calls_again(make_controller, clock):
    ctl = make_controller()
    ctl.setup(SESSION)
    auction(ctl, clock, ["1H", "1S", "2H"])
    ctl.td_wrong_board_call("4321", "E")
    assert [c["call"] for c in ctl.estate["calls"]] == ["1H"] and ctl.estate["next"] == "E"
    assert ctl.phase == "auction" and bid(ctl, clock, "E", "2C")["ok"]
    with pytest.raises(Refused, match="already ruled"):
        ctl.td_wrong_board_call("4321", "E")


def test_2007_L17D2_td_wrong_board_call_replayed_after_restart(make_controller, clock, tmp_path):
    db = tmp_path / "j.db"
    ctl = make_controller(db)
    ctl.setup({**SESSION, "profile": "fsb-2007"})
    auction(ctl, clock, ["1H", "1S", "2H"])
    ctl.td_wrong_board_call("4321", "E")
    bid(ctl, clock, "E", "2C")
    assert ctl.estate["pending"]["kind"] == "wrong_board_judgement" and ctl.phase == "frozen"
    before = copy.deepcopy(ctl.snapshot())
    ctl.journal.conn.close()
    again = make_controller(db)
    assert again.snapshot() == before
    again.td_decide("4321", "same")
    assert again.estate["obligations"] == [{"seat": "S", "must_pass": None, "must_repeat": "2H", "law": "2007 L17D2"}]


@pytest.mark.parametrize("profile,played_before,calls,phase", [
    ("fsb-2007", False, [], "auction"),  # 2007 L15C: auction made again
    ("dbf-2017", False, ["1H", "1S"], "auction"),  # 2017 L15B2: continues
    ("dbf-2017", True, ["1H", "1S"], "frozen"),  # 2017 L15B1: cancelled for all four
])
def test_td_wrong_board_outcome_by_edition_and_replay(make_controller, clock, tmp_path, profile, played_before, calls, phase):
    db = tmp_path / "j.db"
    ctl = make_controller(db)
    ctl.setup({**SESSION, "profile": profile})
    auction(ctl, clock, ["1H", "1S"])
    with pytest.raises(PinError):
        ctl.td_wrong_board("1", played_before)
    ctl.td_wrong_board("4321", played_before)
    assert [c["call"] for c in ctl.estate["calls"]] == calls and ctl.phase == phase
    assert ctl.estate["wrong_board"]["law"] == {"fsb-2007": "2007 L15C", "dbf-2017": "2017 L15B"}[profile]
    before = copy.deepcopy(ctl.snapshot())
    ctl.journal.conn.close()
    assert make_controller(db).snapshot() == before


def test_FSB_L115A1_pair_asked_not_to_alert_is_flagged_for_the_td_and_survives_a_restart(make_controller, clock, tmp_path):
    db = tmp_path / "j.db"
    ctl = make_controller(db)
    with pytest.raises(SetupError, match="no choice for a pair to decline alerts"):
        ctl.setup({**SESSION, "no_alerts_by": ["EW"]})  # dbf-2017: no such choice in Denmark
    with pytest.raises(SetupError, match="Pairs not alerting"):
        ctl.setup({**SESSION, "profile": "fsb-2007", "no_alerts_by": ["E"]})
    assert ctl.session is None and ctl.journal.count() == 0
    ctl.setup({**SESSION, "profile": "fsb-2007", "no_alerts_by": ["EW"]})
    # an event the engine refuses makes the controller rebuild its engine: the choice must survive
    r = ctl.box_event("E", "alert")  # nothing to alert yet
    assert not r["ok"] and "alerted" in r["reason"]
    auction(ctl, clock, ["1C", "1D"])
    r = ctl.box_event("W", "alert")  # East-West were asked not to alert: refused (FSB L115A1)
    assert not r["ok"] and "FSB L115A1" in r["reason"]
    ctl.box_event("S", "alert")  # ... North-South were not
    # the flag hangs on the alerted call, where the TD looks in the tempo view: South's alert of
    # 1C is allowed but late (East had called, L21B1(a)); West's alert never reached the table
    assert [r["flags"] for r in ctl.tempo()] == [["alert_late"], []]
    assert [c["alerted"] for c in ctl.estate["calls"]] == [True, False]
    ctl.journal.conn.close()
    again = make_controller(db)
    assert again.session.no_alerts_by == ("EW",)
    assert again.estate["no_alerts_by"] == ["EW"]
    r = again.box_event("W", "alert")  # the choice survives a restart: still refused
    assert not r["ok"] and "FSB L115A1" in r["reason"]


def td_items(ctl):
    return [(k.split("/", 3)[3], p.get("status", "launched"), p.get("seat"), p.get("reason"))
            for k, kind, p in outbox_items(ctl.outbox) if kind == "td_call"]


def test_2017_L9B_table_frozen_by_an_irregularity_calls_the_director_at_the_station_until_ruled(make_controller, clock):
    records = pytest.importorskip("station.records")
    ctl = make_controller()
    ctl.setup({**SESSION, "policy": "record"})
    auction(ctl, clock, ["1NT"])
    bid(ctl, clock, "E", "1S")  # insufficient (2017 L27): the table freezes
    assert td_items(ctl) == [("2/1/td/1", "launched", None, "insufficient_bid")]
    assert ctl.open_td_calls() == []  # the console shows the irregularity itself
    ctl.td_decide("4321", "accept")
    assert ctl.phase == "auction"
    assert td_items(ctl)[1:] == [("2/1/td/1/resolved", "resolved", None, "insufficient_bid")]
    for key, kind, payload in outbox_items(ctl.outbox):
        records.validate_item(kind, key, payload)  # what the station will take


def test_box_director_call_is_open_until_the_director_signs_in_at_the_table(make_controller, clock, tmp_path):
    db = tmp_path / "j.db"
    ctl = make_controller(db)
    ctl.setup(SESSION)
    auction(ctl, clock, ["1H"])
    ctl.box_event("S", "td")
    assert [c["seat"] for c in ctl.open_td_calls()] == ["S"]
    assert td_items(ctl) == [("2/1/td/1", "launched", "S", None)]
    before = ctl.journal.count()
    with pytest.raises(PinError):
        ctl.td_attended("0000")
    assert only_wrong_pins(ctl, before) and [c["seat"] for c in ctl.open_td_calls()] == ["S"]
    assert ctl.td_attended("4321") is True
    # the wrong PIN went to the director page too, and is over when the director signs in
    assert ctl.open_td_calls() == [] and td_items(ctl)[1:] == [
        ("2/1/td/2", "launched", None, "wrong_pin"), ("2/1/td/1/resolved", "resolved", "S", None),
        ("2/1/td/2/resolved", "resolved", None, "wrong_pin")]
    assert ctl.td_attended("4321") is False and len(td_items(ctl)) == 4  # nothing open: nothing journalled
    # replay after a crash: the same calls, resolved, and nothing queued twice
    n_items = len(outbox_items(ctl.outbox))
    ctl.journal.conn.close()
    again = make_controller(db)
    assert again.open_td_calls() == [] and len(outbox_items(again.outbox)) == n_items
    again.box_event("W", "td")
    assert td_items(again)[-1] == ("2/1/td/3", "launched", "W", None)  # numbering continues


def test_a_director_call_left_open_at_the_round_end_can_still_be_attended_next_round(make_controller, clock):
    ctl = make_controller()
    ctl.setup({**SESSION, "boards": [1]})
    auction(ctl, clock, ["P", "P", "P", "P"])
    ctl.box_event("E", "td")  # round 2, board 1, after the auction (a call in it holds the table)
    ctl.enter_result(None)
    ctl.ew_confirm()
    assert ctl.phase == "round_end"
    ctl.setup({**SESSION, "round": 3, "boards": [4]})
    assert ctl.open_td_calls() == []  # not this board's: the console shows the board in play
    assert ctl.td_attended("4321") is True  # ...but the TD's sign-in still closes it
    assert td_items(ctl)[-1] == ("2/1/td/1/resolved", "resolved", "E", None)  # under its own round
    ctl.box_event("S", "td")
    assert td_items(ctl)[-1] == ("3/4/td/2", "launched", "S", None)
