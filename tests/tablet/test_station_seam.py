"""Every item the controller queues passes the station's own validation (station/records.py):
results with irregularities and TD calls, as the station will receive them."""
import pytest

from tests.tablet.conftest import SESSION
from tests.tablet.outbox_rows import outbox_items

records = pytest.importorskip("station.records", reason="the station's record checks are not available")


def test_queued_results_and_td_calls_are_valid_station_items(make_controller, clock):
    ctl = make_controller()
    ctl.setup({**SESSION, "policy": "record"})
    for seat, call in [("N", "1NT"), ("E", "1S")]:
        clock.advance(2)
        ctl.box_event(seat, "call", call=call)
    ctl.td_decide("4321", "accept")
    for seat, call in [("S", "3NT"), ("W", "P"), ("N", "P"), ("E", "P")]:
        clock.advance(2)
        ctl.box_event(seat, "call", call=call)
    clock.advance(1)
    ctl.box_event("S", "td", seq=1, box_ms=500)  # after the auction: a call in it holds the table
    ctl.enter_result(8, "CT")
    ctl.ew_confirm()
    items = outbox_items(ctl.outbox)
    assert sorted({kind for _, kind, _ in items}) == ["auction", "auction_event", "result", "round", "td_call"]
    for key, kind, payload in items:
        records.validate_item(kind, key, payload)  # raises RecordError on anything the station refuses


def test_adjusted_and_corrected_results_are_valid_station_items(make_controller, clock):
    ctl = make_controller()
    ctl.setup(SESSION)
    clock.advance(2)
    ctl.box_event("N", "call", call="1H")
    ctl.td_artificial_score("4321", "avg+", "avg-", "2017 L12C2")
    for seat, call in [("E", "1S"), ("S", "P"), ("W", "4S"), ("N", "P"), ("E", "P"), ("S", "P")]:
        clock.advance(2)
        ctl.box_event(seat, "call", call=call)
    ctl.enter_result(10)
    ctl.ew_confirm()
    ctl.td_correct_result("4321", 2, 9, "HA", reason="the table agreed 9 tricks, North entered 10")
    items = [i for i in outbox_items(ctl.outbox) if i[1] == "result"]
    assert len(items) == 3
    for key, kind, payload in items:
        records.validate_item(kind, key, payload)


def test_wbf_screens_the_live_feeds_auction_event_counts_only_the_calls_past_the_tray(make_controller, clock):
    """Behind screens (WBF screen regulations, FSB L114) the spectators' feed shows only the calls
    every seat has seen: each `auction_event` says the table plays with screens and how many calls
    the tray has brought to both sides (the engine's own tray, Table.visible_calls).
    Board 1: North deals; screenmates N-E and S-W; the tray starts on North's side (delay 15 s)."""
    ctl = make_controller()
    ctl.setup({**SESSION, "profile": "wbf-screens-2017", "policy": "record"})
    clock.advance(2)
    assert ctl.box_event("N", "call", call="1H")["ok"]
    clock.advance(2)
    assert ctl.box_event("E", "call", call="P")["ok"]  # South is next: the tray must cross first
    events = [payload for _, kind, payload in outbox_items(ctl.outbox) if kind == "auction_event"]
    assert [e["call"] for e in events] == ["1H", "P"]
    assert all(e["screens"] for e in events)
    assert [e["visible"] for e in events] == [0, 0]  # neither call has reached South-West yet
    clock.advance(20)
    ctl.tick()  # the tray passes: both calls are now seen on both sides
    clock.advance(2)
    assert ctl.box_event("S", "call", call="2H")["ok"]
    last = [payload for _, kind, payload in outbox_items(ctl.outbox) if kind == "auction_event"][-1]
    assert last["call"] == "2H" and last["visible"] == 2


def test_each_auction_event_carries_the_auction_as_it_stood_after_it(make_controller, clock):
    """The live feed's calls are logged once per call and reused at later events (control/
    station_feed.CallLog): an item must still carry each call as the engine has it after that
    event: alerted once partner alerts it (FSB L115B), and after the director's ruling on an
    insufficient bid (2007 L27) the auction the ruling left."""
    from shared_rules.records import logged_calls

    ctl = make_controller()
    ctl.setup({**SESSION, "profile": "fsb-2007", "policy": "record"})
    expected = []

    def after(seat, kind, call=None):
        clock.advance(2.0)
        r = ctl.box_event(seat, kind, call=call)
        expected.append([c.to_json() for c in logged_calls(ctl.estate["calls"])])
        return r

    for seat, kind, call in [("N", "call", "1C"), ("E", "call", "P"), ("S", "call", "1H"), ("N", "alert", None),
                             ("W", "call", "P"), ("N", "call", "1S"), ("S", "alert", None), ("E", "call", "1D")]:
        assert after(seat, kind, call)["ok"]
    assert ctl.phase == "frozen"  # 1D after 1S: insufficient
    ctl.td_decide("4321", ctl.estate["pending"]["options"][0]["id"])
    expected.append([c.to_json() for c in logged_calls(ctl.estate["calls"])])
    assert after("S", "call", "2C")["ok"]
    events = [payload for _, kind, payload in outbox_items(ctl.outbox) if kind == "auction_event"]
    assert [e["calls"] for e in events] == expected
    assert [c["alerted"] for c in events[3]["calls"]] == [False, False, True]  # N alerted S's 1H
    assert [c["alerted"] for c in events[2]["calls"]] == [False, False, False]  # ... not yet


def test_each_auction_event_is_queued_as_the_outbox_encodes_an_item(make_controller, clock):
    """The live feed puts each call's text, made once, into the item's text (control/call_log.py):
    every queued payload is byte for byte what `outbox.canonical` makes of it, and its digest holds."""
    import json

    from tablet_app.outbox import canonical, check_rows, digest

    ctl = make_controller()
    ctl.setup({**SESSION, "profile": "fsb-2007", "policy": "record"})
    for seat, kind, call, think in [("N", "call", "1C", 2), ("E", "call", "P", 2), ("S", "call", "1H", 2),
                                    ("N", "alert", None, 0.5), ("W", "stop", None, 1), ("W", "call", "3D", 1),
                                    ("N", "call", "4H", 12), ("E", "call", "P", 2), ("S", "call", "P", 2),
                                    ("W", "call", "P", 1.5)]:
        clock.advance(think)  # N waits out the stop (FSB L116B)
        assert ctl.box_event(seat, kind, call=call)["ok"]
    rows = ctl.outbox.conn.execute("SELECT kind, item_key, payload, digest FROM outbox "
                                   "WHERE kind = 'auction_event' ORDER BY id").fetchall()
    assert len(rows) == 10
    for kind, key, text, dig in rows:
        assert canonical(json.loads(text)) == text and digest(kind, key, text) == dig
    assert json.loads(rows[-1][2])["calls"][-1] == {"seat": "W", "call": "P", "alerted": False, "stop": False,
                                                    "think": 1.5}
    assert check_rows(ctl.outbox.conn) is None
