"""Every answer the station's door gave before the records package, it still gives: the good
items filed where they were, the bad ones refused with the same message (door_cases.jsonl,
written by the checker the station had before; make_door_cases.py says how)."""
import json
import pathlib

import pytest

from shared_rules.records import RecordError
from station.records import validate_item

CASES = [json.loads(line) for line in
         (pathlib.Path(__file__).parent / "door_cases.jsonl").read_text(encoding="utf-8").splitlines()]


def test_the_cases_cover_every_form_and_rule():
    goods = [c for c in CASES if "facts" in c]
    assert {c["case"] for c in goods} >= {f"good {n}" for n in (
        "result", "passed_out", "artificial", "assigned", "weighted", "split", "corrected", "withdrawal",
        "progress", "td_launch", "td_resolved", "storage", "storage_resolved", "numbered_td", "td_between_boards")}
    fields = {c["error"].split(":", 1)[0] for c in CASES if "error" in c}
    for name in ("kind", "key", "payload", "payload.key differs from the item key", "event", "section", "table",
                 "round", "board", "ns_pair", "ew_pair", "dealer", "vulnerability", "contract", "declarer",
                 "tricks", "lead", "score_ns", "ew_confirmed", "auction", "irregularities", "td_calls",
                 "entered_at", "adjusted", "adjusted.ns", "withdrawn", "reason", "seq", "phase", "calls", "at",
                 "note", "seat", "status", "call", "declarer and tricks must be null when the board was passed "
                 "out or not played"):
        assert name in fields, name


@pytest.mark.parametrize("case", [c for c in CASES if "crash" not in c], ids=lambda c: c["case"])
def test_the_door_answers_as_before(case):
    try:
        got = {"facts": validate_item(case["kind"], case["key"], case["payload"])}
    except RecordError as e:
        got = {"error": str(e)}
    assert got == {k: case[k] for k in ("facts", "error") if k in case}


@pytest.mark.parametrize("case", [c for c in CASES if "crash" in c], ids=lambda c: c["case"])
def test_a_key_the_door_crashed_on_is_refused_with_a_clear_error(case):
    """A superscript digit (`²`) in a key's number: Python calls it a digit but cannot read it;
    the checker before raised a bare ValueError there (HTTP 500)."""
    with pytest.raises(RecordError, match=r"^key: "):
        validate_item(case["kind"], case["key"], case["payload"])
