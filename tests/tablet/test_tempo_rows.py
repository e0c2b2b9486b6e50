"""The tempo view hangs each timing flag on the call it is about (FSB L116B, 2017 L73A1, L16B1).

Board 1: North deals.
"""
from shared_rules.table import Table
from tablet_app import present, views


def _state(profile, *events):
    table = Table(profile, 1, None)
    st = table.state()
    for e in events:
        st = table.apply(e)
    return st


def test_FSB_L116B_a_long_thought_after_a_stop_is_flagged_on_the_slow_call_not_the_players_last():
    # N opens 2S with the stop card; East thinks 17.6 s and passes; later East passes at once (0.8 s)
    st = _state("fsb-2007",
                {"t": 0.0, "seat": "N", "call": "2S", "stop": True},
                {"t": 17.6, "seat": "E", "call": "P"},
                {"t": 19.0, "seat": "S", "call": "3S"},
                {"t": 21.0, "seat": "W", "call": "P"},
                {"t": 22.0, "seat": "N", "call": "4S"},
                {"t": 22.8, "seat": "E", "call": "P"})
    assert [f["kind"] for f in st["timing"]] == ["long_thought_after_stop"]
    rows = views.tempo_rows(st)
    flagged = [(r["seat"], r["call"], r["think"]) for r in rows if r["flags"]]
    assert flagged == [("E", "P", 17.6)]
    assert rows[-1]["flags"] == []  # East's last pass, 0.8 s


def test_2017_L73A1_a_short_stop_wait_and_a_missing_stop_each_on_their_call():
    st = _state("fsb-2007",
                {"t": 0.0, "seat": "N", "call": "1S"},
                {"t": 1.0, "seat": "E", "call": "P"},
                {"t": 2.0, "seat": "S", "call": "3S", "stop": True},  # a jump with the stop card
                {"t": 4.0, "seat": "W", "call": "P"},  # waited 2 s
                {"t": 5.0, "seat": "N", "call": "5S"},  # a jump without the stop card
                {"t": 6.0, "seat": "E", "call": "P"},
                {"t": 7.0, "seat": "S", "call": "P"},
                {"t": 8.0, "seat": "W", "call": "P"})
    rows = views.tempo_rows(st)
    assert {(r["seat"], r["call"]): r["flags"] for r in rows if r["flags"]} == {
        ("W", "P"): ["stop_wait_short"], ("N", "5S"): ["stop_missing"]}
    assert present.flag_text("stop_wait_short", "sv") == "för kort stoppväntan"
