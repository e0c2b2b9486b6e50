"""The director console's lines on the results' way to the station (present.delivery_report), from
the controller's snapshot: a table whose results never arrive is red where the director looks
(it said "Station connected: 0 delivered, 1 waiting" while every delivery was refused)."""
from tablet_app import present


def test_refused_deliveries_and_a_failed_station_check_are_red_with_status_and_reason():
    delivery = {"delivered": 0, "waiting": 1, "connected": True, "last_error": "HTTP 401: missing or malformed X-Table",
                "refused": [{"key": "club/A/3/1/2/1", "status": 401, "reason": "missing or malformed X-Table",
                             "retrying": True}]}
    station = {"ok": False, "table": "club/A/3", "reason": "unreachable", "message": "no answer from the station"}
    lines = present.delivery_report(delivery, True, station, "en")
    assert lines[0] == "Station connected: 0 delivered, 1 waiting."
    assert lines[1] == "[color=cc141f]Station check of table club/A/3 failed: no answer from the station[/color]"
    assert lines[2] == ("[color=cc141f]Refused by the station (401), tell the scorer: 1/2/1: "
                        "missing or malformed X-Table (tried again)[/color]")
    sv = present.delivery_report(delivery, True, station, "sv")
    assert sv[2].startswith("[color=cc141f]Nekad av stationen (401)") and sv[2].endswith("(försöker igen)[/color]")


def test_no_station_configured_and_a_station_check_that_passed_add_nothing_red():
    delivery = {"delivered": 0, "waiting": 2, "connected": False, "refused": [], "last_error": None}
    assert present.delivery_report(delivery, False, None) == ["No results station connected: 2 item(s) kept on this tablet."]
    ok = {"ok": True, "table": "club/A/3", "reason": None, "message": None}
    assert present.delivery_report(delivery, True, ok, "da") == [
        "Stationen kan ikke nås, prøver igen: 0 leveret, 2 venter (intet går tabt)."]
