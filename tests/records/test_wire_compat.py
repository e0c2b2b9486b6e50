"""The records package speaks the wire form tablets have always sent: real items of the tablet
code as it was before the package (tablet_items.jsonl, taken from its outboxes in the tablet,
station and evening tests; `by` names the function that queued each) read into records and
written back unchanged, byte for byte in the outbox's and the station's canonical JSON; and the
tablet's builders, now made with the package, give the same items from the same inputs."""
import calendar
import json
import pathlib
import time
import types

import pytest

from shared_rules.records import RecordError, TdCall, read_item, to_item
from station.store import canonical as station_canonical
from station.store import digest_of
from tablet_app import results, station_items
from tablet_app.outbox import canonical as outbox_canonical
from tablet_app.outbox import storage_call

ROWS = [json.loads(line) for line in
        (pathlib.Path(__file__).parent / "tablet_items.jsonl").read_text(encoding="utf-8").splitlines()]


def by(name: str) -> list[dict]:
    rows = [r for r in ROWS if r["by"].endswith(name)]
    assert rows, name
    return rows


def epoch(iso: str) -> int:
    return calendar.timegm(time.strptime(iso, "%Y-%m-%dT%H:%M:%SZ"))


def test_the_items_cover_what_the_tablet_sends():
    makers = {r["by"].rsplit(":", 1)[1] for r in ROWS}
    assert makers == {"_queue_progress", "ew_confirm", "td_artificial_score", "td_correct_result",
                      "td_move_result", "td_withdraw_result", "_queue_td_call", "_queue_storage_over", "_post_alarm"}
    results_in = [r["payload"] for r in ROWS if r["kind"] == "result"]
    assert any(p.get("contract") == "PASS" for p in results_in)
    assert any(p.get("withdrawn") for p in results_in)
    assert any(p.get("irregularities") for p in results_in) and any(p.get("td_calls") for p in results_in)
    assert {p.get("status") for r in ROWS if r["kind"] == "td_call" for p in [r["payload"]]} == {None, "resolved"}


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["key"])
def test_a_tablet_item_reads_and_writes_back_unchanged(row):
    record = read_item(row["kind"], row["key"], row["payload"])
    kind, key, payload = to_item(record)
    assert (kind, key) == (row["kind"], row["key"])
    assert payload == row["payload"]
    # what the tablet's outbox keeps and the station stores and hashes: the same bytes
    assert outbox_canonical(payload) == outbox_canonical(row["payload"])
    assert station_canonical(payload) == station_canonical(row["payload"])
    assert digest_of(payload) == digest_of(row["payload"])


def _session(p: dict) -> dict:
    return {k: p[k] for k in ("event", "section", "table", "round", "ns_pair", "ew_pair")}


def _state(p: dict, calls: list) -> dict:
    """The engine's state the record was made from: its calls, irregularities, contract."""
    return {"dealer": p["dealer"], "vulnerability": p["vulnerability"], "calls": calls,
            "irregularities": p["irregularities"],
            **({"status": "passed_out"} if p["contract"] == "PASS" else
               {"contract": p["contract"], "declarer": p["declarer"]})}


def _revision(key: str) -> int:
    return int(key.split("/")[5])


@pytest.mark.parametrize("row", by("ew_confirm"), ids=lambda r: r["key"])
def test_the_result_record_is_built_as_before(row):
    p = row["payload"]
    rec = results.record(_session(p), _state(p, p["auction"]), p["board"], p["tricks"], p["lead"],
                         epoch(p["entered_at"]), _revision(row["key"]))
    rec["td_calls"] = p["td_calls"]  # the controller adds the board's TD calls
    assert rec == p


@pytest.mark.parametrize("row", by("td_artificial_score"), ids=lambda r: r["key"])
def test_the_artificial_score_is_built_as_before(row):
    p = row["payload"]
    adj = p["adjusted"]
    rec = results.artificial_record(_session(p), _state(p, p["auction"]), p["board"],
                                    adj["ns"], adj["ew"], adj["law"], epoch(p["entered_at"]), _revision(row["key"]))
    rec["td_calls"] = p["td_calls"]
    assert rec == p


@pytest.mark.parametrize("row", by("td_correct_result"), ids=lambda r: r["key"])
def test_2017_L79C_the_correction_is_built_as_before(row):
    p = row["payload"]
    rec = results.corrected_record(row["previous"], p["tricks"], p["lead"], epoch(p["entered_at"]))
    rec["correction"] = p["correction"]  # the controller says who and why
    assert rec == p


@pytest.mark.parametrize("row", by("td_withdraw_result") + [r for r in by("td_move_result")
                                                            if r["payload"].get("withdrawn")], ids=lambda r: r["key"])
def test_the_withdrawal_is_built_as_before(row):
    p = row["payload"]
    assert results.withdrawn_record(row["previous"], p["correction"], epoch(p["entered_at"])) == p


@pytest.mark.parametrize("row", [r for r in by("td_move_result") if not r["payload"].get("withdrawn")],
                         ids=lambda r: r["key"])
def test_2017_L15_the_moved_result_is_built_as_before(row):
    p = row["payload"]
    rec = results.moved_record(row["previous"], p["board"], _revision(row["key"]), p["correction"],
                               epoch(p["entered_at"]))
    assert rec == p


@pytest.mark.parametrize("row", by("_queue_progress"), ids=lambda r: r["key"])
def test_the_auction_progress_is_built_as_before(row):
    p = row["payload"]
    session = types.SimpleNamespace(**{k: p[k] for k in ("event", "section", "table", "round")})
    item = station_items.progress(session, p["board"], p["seq"], p["phase"],
                                  {"calls": p["calls"], "irregularities": p["irregularities"]}, epoch(p["at"]))
    assert to_item(item) == (row["kind"], row["key"], p)


@pytest.mark.parametrize("row", by("_queue_td_call"), ids=lambda r: r["key"])
def test_the_td_call_is_built_as_before(row):
    p = row["payload"]
    place = (p["event"], p["section"], p["table"], p["round"])
    n = int(row["key"].split("/")[6])
    item = station_items.td_call(place, n, p, p.get("status", "launched"), p["at"])
    assert to_item(item) == (row["kind"], row["key"], p)


@pytest.mark.parametrize("row", by("_post_alarm") + by("_queue_storage_over"), ids=lambda r: r["key"])
def test_the_storage_call_is_built_as_before(row):
    p = row["payload"]
    since = {"round": p["round"], "board": p["board"], "seq": int(row["key"].split("/")[6]), "at": p["at"]}
    key, launch = storage_call(p["event"], p["section"], p["table"], since)
    if "status" not in p:
        assert (key, launch) == (row["key"], p)
    else:  # its end, queued when the tablet can write again
        end = station_items.resolved(TdCall.from_json(launch), p["at"])
        assert to_item(end) == (row["kind"], row["key"], p)


def test_an_item_of_another_kind_or_a_broken_copy_is_not_read():
    row = by("ew_confirm")[0]
    with pytest.raises(RecordError, match="key: expected"):
        read_item("result", row["key"], {**row["payload"], "board": row["payload"]["board"] + 1})
    with pytest.raises(RecordError, match="^kind"):
        read_item("score", row["key"], row["payload"])
