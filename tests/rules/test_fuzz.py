"""Robustness: any sequence of calls, alerts and TD answers by anyone, in any state, either applies
or is refused with EventError and leaves the state exactly as it was; the state is always plain
JSON; replaying the accepted events gives the same state (the engine is a deterministic fold)."""
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared_rules.calls import CALL_CODE
from shared_rules.replay import replay
from shared_rules.table import EventError, Table
from tests.hypothesis_profiles import examples

ALL_CALLS = sorted(CALL_CODE, key=CALL_CODE.__getitem__)[:40]  # up to 8C..., enough for L38
SEATS = ["N", "E", "S", "W"]
CARDS = [s + r for s in "SHDC" for r in "AKQJT98765432"]


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), profile=st.sampled_from(["fsb-2007", "dbf-2017", "wbf-screens-2017"]),
       board=st.integers(1, 16), policy=st.sampled_from(["record", "record", "prevent"]))
def test_any_event_sequence_is_applied_or_refused_cleanly(data, profile, board, policy):
    table = Table(profile, board, policy)
    accepted = []
    t = 0.0
    for _ in range(data.draw(st.integers(5, 40), label="steps")):
        state = table.state()
        t += data.draw(st.sampled_from([0.0, 0.2, 1.0, 11.0]), label="dt")
        pending = state["pending"]
        roll = data.draw(st.integers(0, 9), label="roll")
        if pending and roll < 5:
            option = data.draw(st.sampled_from(pending["options"]), label="option")
            event = {"t": t, "td": pending["kind"], "choice": option["id"]}
            if option.get("needs_call") or data.draw(st.booleans(), label="extra call"):
                event["call"] = data.draw(st.sampled_from(ALL_CALLS), label="td call")
        elif roll == 5:
            event = {"t": t, "seat": data.draw(st.sampled_from(SEATS)), "alert": True}
        elif roll == 6:
            kind = data.draw(st.sampled_from(["correct_call", "misinformation_change", "exposed_cards",
                                              "wrong_board_call", "wrong_board"]), label="direct td")
            event = {"t": t, "td": kind, "seat": data.draw(st.sampled_from(SEATS))}
            if kind in ("correct_call", "misinformation_change"):
                event["call"] = data.draw(st.sampled_from(ALL_CALLS))
            elif kind == "exposed_cards":
                event["cards"] = data.draw(st.lists(st.sampled_from(CARDS), min_size=1, max_size=3), label="cards")
                event["led"] = data.draw(st.booleans(), label="led")
            elif kind == "wrong_board":
                del event["seat"]
                event["played_before"] = data.draw(st.booleans(), label="played before")
        elif state["next"] and roll < 9:
            event = {"t": t, "seat": state["next"], "call": data.draw(st.sampled_from(state["legal_calls"] or ["P"]))}
        else:
            event = {"t": t, "seat": data.draw(st.sampled_from(SEATS)), "call": data.draw(st.sampled_from(ALL_CALLS))}
        try:
            after = table.apply(event)
        except EventError:
            assert table.state() == state
            continue
        accepted.append(event)
        json.dumps(after)
        assert after["status"] in ("bidding", "awaiting_td", "ended", "passed_out", "adjusted_score")
        assert (after["status"] == "awaiting_td") == (after["pending"] is not None)
        if after["status"] == "bidding":
            assert after["next"] in SEATS
        for irr in after["irregularities"]:
            assert irr["law"][:4] in ("2007", "2017")
    assert replay({"profile": profile, "board": board, "policy": policy, "events": accepted}) == table.state()
