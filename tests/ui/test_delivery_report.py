"""The director console's lines on the results' way to the station (present.delivery_report), from
the controller's snapshot: a table whose results never arrive is red where the director looks
(it said "Station connected: 0 delivered, 1 waiting" while every delivery was refused)."""
from tablet_app import present


def test_refused_deliveries_and_a_failed_station_check_are_red_with_status_and_reason():
    delivery = {"delivered": 0, "waiting": 1, "connected": True, "last_error": "HTTP 401: missing or malformed X-Table",
                "refused": [{"kind": "result", "key": "club/A/3/1/2/1", "status": 401, "reason": "missing or malformed X-Table",
                             "retrying": True}]}
    station = {"ok": False, "table": "club/A/3", "reason": "unreachable", "message": "no answer from the station"}
    lines = present.delivery_report(delivery, True, station, "en")
    assert lines[0] == "Station connected: 0 delivered, 1 waiting."
    assert lines[1] == "[color=cc141f]Station check of table club/A/3 failed: no answer from the station[/color]"
    assert lines[2] == ("[color=cc141f]Refused by the station (401), tell the scorer: 1/2/1: "
                        "missing or malformed X-Table (tried again)[/color]")
    sv = present.delivery_report(delivery, True, station, "sv")
    # a TD call's key and a key the records do not know (shown whole)
    calls = {**delivery, "refused": [{"kind": "td_call", "key": "club/A/3/1/2/td/4/resolved", "status": 422,
                                      "reason": "r", "retrying": False},
                                     {"kind": "result", "key": "not a key", "status": 422, "reason": "r",
                                      "retrying": False}]}
    assert [line.split(": ")[1] for line in present.delivery_report(calls, True, None, "en")[1:]] == [
        "1/2/td/4/resolved", "not a key"]
    assert sv[2].startswith("[color=cc141f]Nekad av stationen (401)") and sv[2].endswith("(försöker igen)[/color]")


def test_no_station_configured_and_a_station_check_that_passed_add_nothing_red():
    delivery = {"delivered": 0, "waiting": 2, "connected": False, "refused": [], "last_error": None}
    assert present.delivery_report(delivery, False, None) == ["No results station connected: 2 item(s) kept on this tablet."]
    ok = {"ok": True, "table": "club/A/3", "reason": None, "message": None}
    assert present.delivery_report(delivery, True, ok, "da") == [
        "Stationen kan ikke nås, prøver igen: 0 leveret, 2 venter (intet går tabt)."]


def test_a_result_held_by_the_stations_law16_gate_is_said_held_not_refused():
    reason = "board 7 is a board of round 2 at table A2, and the table is on round 1"
    delivery = {"delivered": 3, "waiting": 1, "connected": True, "last_error": None,
                "refused": [{"kind": "result", "key": "club/A/2/2/7/1", "status": 425, "reason": reason, "retrying": True, "held": True}]}
    lines = present.delivery_report(delivery, True, None, "en")
    assert lines[1] == ("[color=cc141f]Held by the station until the table is on its round (425), sent again: "
                        f"2/7/1: {reason}[/color]")
    assert present.delivery_report(delivery, True, None, "sv")[1].startswith(
        "[color=cc141f]Stationen håller den tills bordet är på dess rond (425)")
