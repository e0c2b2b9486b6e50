"""The records as values: what the station's door made of odd but harmless items before (kept),
and the one place it crashed (now a record)."""
import json
import pathlib

import pytest

from shared_rules.records import RecordError, Result, TdCall, Withdrawal, read_item, to_item

ROWS = [json.loads(line) for line in
        (pathlib.Path(__file__).parent / "tablet_items.jsonl").read_text(encoding="utf-8").splitlines()]


def first(pred):
    return next(r for r in ROWS if pred(r))


def test_a_td_call_without_a_board_field_is_a_call_between_boards():
    """The door before crashed on it (HTTP 500: the key was made from a missing field); a board
    left out is a board of null, as for every field that may be null."""
    row = first(lambda r: r["by"].endswith("_queue_td_call") and "status" not in r["payload"])
    p = {k: v for k, v in row["payload"].items() if k != "board"}
    key = row["key"].split("/")
    key[4] = "None"
    p["key"] = "/".join(key)
    call = read_item("td_call", p["key"], p)
    assert isinstance(call, TdCall) and call.board is None and call.status == "launched"


def test_fields_the_contract_does_not_name_are_kept_as_sent():
    row = first(lambda r: r["by"].endswith("ew_confirm"))
    p = {**row["payload"], "tablet_version": "2.1", "boxes": {"N": "v3"}}
    rec = Result.from_json(p)
    assert rec.extra == {"tablet_version": "2.1", "boxes": {"N": "v3"}}
    assert to_item(rec) == ("result", row["key"], p)


def test_a_result_and_a_withdrawal_are_told_apart():
    result = first(lambda r: r["by"].endswith("ew_confirm"))["payload"]
    withdrawal = first(lambda r: r["payload"].get("withdrawn"))["payload"]
    assert isinstance(Withdrawal.from_json(withdrawal), Withdrawal)
    with pytest.raises(RecordError, match="a withdrawal is not a result"):
        Result.from_json(withdrawal)
    with pytest.raises(RecordError, match="withdrawn"):
        Withdrawal.from_json(result)


def test_a_time_is_kept_in_the_form_it_came_in():
    row = first(lambda r: r["by"].endswith("_queue_td_call"))
    assert read_item("td_call", row["key"], row["payload"]).at == row["payload"]["at"]  # epoch seconds
    iso = {**row["payload"], "at": "2026-11-22T19:45:12Z"}
    assert read_item("td_call", row["key"], iso).to_json()["at"] == "2026-11-22T19:45:12Z"
