"""Regenerate tests/records/door_cases.jsonl: `python -m tests.records.make_door_cases`.

Each case is an item (kind, key, payload) and what the station's door answered: the routing
facts it files a good item under, or the message of the RecordError it refused a bad one with.
The items are the tablet's real ones (tests/records/tablet_items.jsonl) and the other forms the
station takes, each broken in one way per rule of docs/station.md "Checked at the door".

The file was first written by the checker the station had before the records package
(station/records.py as it stood); test_door_cases.py holds the package to every answer in it.
Regenerate only when a rule changes on purpose, and say so in the commit.
"""
from __future__ import annotations

import copy
import json
import pathlib
from typing import Any

HERE = pathlib.Path(__file__).parent
OUT = HERE / "door_cases.jsonl"
class _Drop:
    def __repr__(self) -> str:
        return "left out"


DROP = _Drop()  # a field left out


def tablet_items() -> list[dict]:
    return [json.loads(line) for line in (HERE / "tablet_items.jsonl").read_text(encoding="utf-8").splitlines()]


def _first(items: list[dict], pred: Any) -> dict:
    return copy.deepcopy(next(i for i in items if pred(i)))


def bases() -> dict[str, dict]:
    """One good item of every form, by name."""
    items = tablet_items()
    out = {
        "result": _first(items, lambda i: i["kind"] == "result" and i["payload"].get("lead")
                         and i["payload"]["irregularities"] and i["payload"]["td_calls"]),
        "passed_out": _first(items, lambda i: i["kind"] == "result" and i["payload"].get("contract") == "PASS"),
        "artificial": _first(items, lambda i: i["kind"] == "result" and i["payload"].get("adjusted")),
        "corrected": _first(items, lambda i: i["by"].endswith("td_correct_result")),
        "withdrawal": _first(items, lambda i: i["payload"].get("withdrawn")),
        "progress": _first(items, lambda i: i["kind"] == "auction" and len(i["payload"]["calls"]) > 3
                           and i["payload"]["irregularities"]),
        "td_launch": _first(items, lambda i: i["by"].endswith("_queue_td_call") and "status" not in i["payload"]),
        "td_resolved": _first(items, lambda i: i["by"].endswith("_queue_td_call") and "status" in i["payload"]),
        "storage": _first(items, lambda i: i["by"].endswith("_post_alarm")),
        "storage_resolved": _first(items, lambda i: i["by"].endswith("_queue_storage_over")
                                   and "status" in i["payload"]),
    }
    r = out["result"]["payload"]
    place = {k: r[k] for k in ("event", "section", "table", "round")}
    base = f"{r['event']}/{r['section']}/{r['table']}"
    out["numbered_td"] = {"kind": "td_call", "key": f"{base}/td/4/in_progress",
                          "payload": {**place, "board": 2, "call": 4, "status": "in_progress",
                                      "at": "2026-11-22T19:40:00Z", "note": "at the table\nruling"}}
    out["td_between_boards"] = {"kind": "td_call", "key": f"{base}/{r['round']}/None/td/1",
                                "payload": {**place, "board": None, "at": 1790000000,
                                            "key": f"{base}/{r['round']}/None/td/1"}}
    art = out["artificial"]["payload"]
    for name, block in (
            ("assigned", {"kind": "assigned", "contract": "3NT", "declarer": "N", "tricks": 9, "law": "2017 L12C1b"}),
            ("assigned_score", {"kind": "assigned", "score_ns": 400}),
            ("weighted", {"kind": "weighted", "ruled_by": "td", "outcomes": [
                {"weight": "1/2", "contract": "4S", "declarer": "N", "tricks": 10},
                {"weight": "1/2", "score_ns": -100}]}),
            ("split", {"kind": "split", "ns": {"artificial": "avg+"}, "ew": {"pct": 40}})):
        out[name] = {"kind": "result", "key": out["artificial"]["key"], "payload": {**art, "adjusted": block}}
    # A sender that leaves out what it may: no flags, no lists, a pass as PASS, an explanation.
    lean = {k: v for k, v in r.items() if k not in ("ew_confirmed", "irregularities", "td_calls", "lead")}
    lean["auction"] = [{"seat": c["seat"], "call": "PASS" if c["call"] == "P" else c["call"],
                        **({"explanation": "natural"} if i == 0 else {})} for i, c in enumerate(r["auction"])]
    out["lean_result"] = {"kind": "result", "key": out["result"]["key"], "payload": lean}
    irr = dict(r, irregularities=[{"kind": "call_out_of_rotation", "seat": "E", "turn": "S", "index": 1,
                                   "skipped": ["S"], "resolution": "accepted"}])
    out["indexed_irregularity"] = {"kind": "result", "key": out["result"]["key"], "payload": irr}
    return out


def _set(payload: dict, path: tuple, value: Any) -> dict:
    p = copy.deepcopy(payload)
    where = p
    for k in path[:-1]:
        where = where[k]
    if value is DROP:
        del where[path[-1]]
    else:
        where[path[-1]] = value
    return p


def broken(b: dict[str, dict]) -> list[tuple[str, str, Any, Any]]:
    """(what is broken, kind, key, payload): one rule each."""
    cases: list[tuple[str, str, Any, Any]] = []

    def case(why: str, name: str, path: tuple = (), value: Any = None, *, key: Any = None, kind: str | None = None,
             payload: Any = None) -> None:
        item = b[name]
        p = payload if payload is not None else (_set(item["payload"], path, value) if path else
                                                 copy.deepcopy(item["payload"]))
        k = key if key is not None else item["key"]
        if key is not None and isinstance(p, dict) and "key" in p:
            p["key"] = key
        cases.append((why, kind or item["kind"], k, p))

    # the item as a whole
    case("unknown kind", "result", kind="gossip")
    case("key not a string", "result", key=5)
    case("key empty", "result", key="")
    case("key too long", "result", key="x" * 201)
    case("payload not an object", "result", payload=[1])
    case("payload.key differs", "result", ("key",), "club/A/1/1/1/1")
    # shape
    deep: Any = "x"
    for _ in range(8):
        deep = [deep]
    case("nested too deep", "result", ("td_calls",), deep)
    case("number out of range", "result", ("ns_pair",), 2**60)
    case("text too long", "result", ("lead",), "S" * 2001)
    case("control character", "result", ("dealer",), "N\n")
    case("a tab in a note", "td_launch", ("note",), "a\tb")
    case("line break in a note", "td_launch", ("note",), "line one\nline two")
    case("line separator in a note", "td_launch", ("note",), "a\u2028b")
    case("too many entries", "progress", ("calls",), [{"seat": "N", "call": "P"}] * 401)
    case("too many fields", "result", ("adjusted",), {f"f{i}": 1 for i in range(101)})
    case("field name too long", "result", ("correction",), {"x" * 65: 1})
    case("field name with a control character", "result", ("correction",), {"a\nb": 1})
    # where it comes from
    value: Any  # each loop below breaks a field with values of any type
    for name, value in (("event", "-bad"), ("event", "x" * 65), ("event", None), ("section", "AB"),
                        ("section", "a"), ("table", 0), ("table", 1000), ("table", "3"), ("table", True)):
        case(f"{name} {value!r}", "result", (name,), value)
    # a result
    for name, value in (("round", 0), ("round", 100), ("board", 0), ("board", 1000), ("ns_pair", -1),
                        ("ew_pair", 10000), ("dealer", "X"), ("vulnerability", "Both"), ("contract", "4Z"),
                        ("contract", "8H"), ("contract", None), ("declarer", None), ("declarer", "Q"),
                        ("tricks", 14), ("tricks", None), ("tricks", 9.0), ("lead", "ZZ"), ("lead", "S1"),
                        ("score_ns", "620"), ("score_ns", None), ("score_ns", True), ("ew_confirmed", "yes"),
                        ("ew_confirmed", None), ("auction", {}), ("irregularities", {}), ("td_calls", {}),
                        ("entered_at", "2026-11-22 19:45:12"), ("entered_at", -1), ("entered_at", 5e9),
                        ("entered_at", "2101-01-01T00:00:00Z"), ("entered_at", "2026-13-40T99:99:99Z"),
                        ("entered_at", True), ("entered_at", DROP), ("round", DROP)):
        case(f"{name} {value!r}", "result", (name,), value)
    r = b["result"]["payload"]
    case("score not Law 77", "result", ("score_ns",), r["score_ns"] + 10)
    case("passed out with tricks", "passed_out", ("tricks",), 7)
    case("passed out with a declarer", "passed_out", ("declarer",), "N")
    case("not played without adjusted", "artificial", ("adjusted",), None)
    for i, (path, value) in enumerate((((0,), "x"), ((0, "seat"), "Q"), ((0, "call"), "8NT"),
                                       ((0, "call"), None), ((0, "alerted"), 1), ((0, "stop"), "no"),
                                       ((0, "think"), -1), ((0, "think"), 86401), ((0, "think"), True),
                                       ((0, "think"), "2"), ((0, "explanation"), 5))):
        case(f"auction call {i}", "result", ("auction", *path), value)
    for i, (path, value) in enumerate((((0,), "x"), ((0, "kind"), "Insufficient"), ((0, "kind"), None),
                                       ((0, "index"), 99), ((0, "index"), -1), ((0, "index"), True),
                                       ((0, "skipped"), "S"), ((0, "skipped"), ["Q"]), ((0, "seat"), "Q"),
                                       ((0, "turn"), "X"))):
        case(f"irregularity {i}", "indexed_irregularity", ("irregularities", *path), value)
    # result keys
    base = b["result"]["key"].rsplit("/", 1)[0]
    for key in (base + "/0", base + "/x", base + "/01", base, "x" + b["result"]["key"],
                base.rsplit("/", 1)[0] + "/9/1", base + "/²", base + "/٣"):
        case(f"result key {key!r}", "result", key=key)
    # adjusted scores
    for name, path, value in (("artificial", ("adjusted", "kind"), "guess"), ("artificial", ("adjusted",), "avg"),
                              ("artificial", ("adjusted", "ns"), "avg++"), ("artificial", ("adjusted", "ew"), DROP),
                              ("assigned", ("adjusted", "contract"), "3Z"),
                              ("assigned", ("adjusted", "declarer"), None),
                              ("assigned", ("adjusted", "tricks"), 14), ("assigned", ("adjusted", "tricks"), DROP),
                              ("assigned_score", ("adjusted", "score_ns"), DROP),
                              ("assigned_score", ("adjusted", "score_ns"), "400"),
                              ("weighted", ("adjusted", "outcomes", 0, "weight"), "1/3"),
                              ("weighted", ("adjusted", "outcomes"), []),
                              ("weighted", ("adjusted", "outcomes"), "many"),
                              ("split", ("adjusted", "ew"), DROP), ("split", ("adjusted", "ns"), {"pct": "lots"}),
                              ("artificial", ("score_ns",), "0"), ("artificial", ("contract",), "4H")):
        case(f"{name} {path} {value!r}", name, path, value)
    # a withdrawal
    for name, value in (("withdrawn", False), ("withdrawn", "yes"), ("contract", "4H"), ("score_ns", 0),
                        ("adjusted", {"kind": "artificial"}), ("tricks", 9), ("declarer", "N"), ("reason", 5),
                        ("entered_at", "now"), ("round", None), ("ns_pair", None)):
        case(f"withdrawal {name} {value!r}", "withdrawal", (name,), value)
    wbase = b["withdrawal"]["key"].rsplit("/", 1)[0]
    for key in (wbase + "/1", wbase + "/x", wbase + "/3"):
        case(f"withdrawal key {key!r}", "withdrawal", key=key)
    # auction progress
    for name, value in (("seq", 0), ("seq", 10**6 + 1), ("phase", "dealing"), ("phase", None), ("calls", "1NT"),
                        ("at", "yesterday"), ("at", DROP), ("board", None), ("round", 0)):
        case(f"progress {name} {value!r}", "progress", (name,), value)
    case("progress call", "progress", ("calls", 0, "call"), "0NT")
    case("progress irregularity", "progress", ("irregularities", 0, "seat"), "X")
    pkey = b["progress"]["key"]
    for key in (pkey + "0", pkey.replace("/auction/", "/bidding/"), pkey.rsplit("/", 3)[0] + "/7/1/auction/1"):
        case(f"progress key {key!r}", "progress", key=key)
    # TD calls, the tablet's form
    for name, value in (("round", -1), ("round", 100), ("board", 0), ("board", "2"), ("at", None), ("at", "soon"),
                        ("note", 5), ("reason", ["x"]), ("seat", "Q"), ("status", "done"), ("status", None),
                        ("reason", "storage_full")):
        case(f"td launch {name} {value!r}", "td_launch", (name,), value)
    tkey = b["td_launch"]["key"]
    for key in (tkey + "x", tkey.rsplit("/", 1)[0] + "/", tkey.replace("/td/", "/storage/"), tkey + "/resolved",
                tkey.rsplit("/", 1)[0] + "/07", "5", tkey.rsplit("/", 1)[0] + "/²"):
        case(f"td launch key {key!r}", "td_launch", key=key)
    for name, value in (("status", "finished"), ("status", "launched"), ("reason", "storage_full")):
        case(f"td status {name} {value!r}", "td_resolved", (name,), value)
    rkey = b["td_resolved"]["key"]
    for key in (rkey.replace("/resolved", "/deferred"), rkey.rsplit("/", 2)[0] + "/x/resolved", "resolved",
                rkey.replace("/td/", "/storage/"), rkey.rsplit("/", 2)[0] + "/²/resolved"):
        case(f"td status key {key!r}", "td_resolved", key=key)
    for name, value in (("reason", None), ("reason", "insufficient_bid")):
        case(f"storage {name} {value!r}", "storage", (name,), value)
        case(f"storage resolved {name} {value!r}", "storage_resolved", (name,), value)
    # TD calls numbered by the sender
    for name, value in (("call", -1), ("call", 10000), ("call", "4"), ("status", "gone"), ("board", None),
                        ("round", 0), ("note", 7)):
        case(f"numbered td {name} {value!r}", "numbered_td", (name,), value)
    nkey = b["numbered_td"]["key"]
    for key in (nkey.replace("/4/", "/5/"), nkey.replace("in_progress", "resolved"), nkey + "/x"):
        case(f"numbered td key {key!r}", "numbered_td", key=key)
    return cases


def outcome(validate: Any, error: type[Exception], kind: Any, key: Any, payload: Any) -> dict:
    try:
        return {"facts": validate(kind, key, payload)}
    except error as e:
        return {"error": str(e)}
    except Exception as e:  # the checker before the records package crashed on a few keys (HTTP 500)
        return {"crash": type(e).__name__}


def main() -> None:
    from station.records import RecordError, validate_item

    b = bases()
    lines = []
    for name, item in b.items():
        lines.append({"case": f"good {name}", "kind": item["kind"], "key": item["key"], "payload": item["payload"],
                      **outcome(validate_item, RecordError, item["kind"], item["key"], item["payload"])})
    for why, kind, key, payload in broken(b):
        lines.append({"case": why, "kind": kind, "key": key, "payload": payload,
                      **outcome(validate_item, RecordError, kind, key, payload)})
    with OUT.open("w", encoding="utf-8") as f:
        for line in lines:
            f.write(json.dumps(line) + "\n")  # ASCII: no line separator inside a line
    print(f"{OUT}: {len(lines)} cases, {sum('error' in x for x in lines)} refused")


if __name__ == "__main__":
    main()
