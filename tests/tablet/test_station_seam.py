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
