"""Write `step_amended.json`: the logs of `step_golden.json.gz` whose answers a fix of the Laws has
changed since the baseline, with the engine's answers now and why they changed.

`step_golden.json.gz` keeps what the baseline engine (2b32f5b) said and is never rewritten: it is
the reference the refactoring to `Table.step` was checked against. When a later fix of the Laws
changes what the engine must answer for one of its logs, that log's answers are amended here,
with the reason (the Law) and the first event whose answer changed; tests/rules/test_step.py reads
the golden file with these amendments laid over it. Every amendment is printed with its first
changed event, the baseline's state beside today's where they differ, for review; an amendment
whose answers have not changed keeps its reason.

    python tests/rules/data/amend_step_golden.py --reason "2007 L31A2(b): ..." [--reasons REASONS.json] \
        [--baseline BASELINE_DIR] tests/rules/data/step_amended.json

(`--reasons`: a JSON object from log index to the reason for that log, where one fix does not
explain them all; `--reason` for the others.)

(`--baseline`: a directory holding the baseline's shared_rules, e.g. from `git archive`, to print
what changed in each state; without it only the digests are compared.)
"""
from __future__ import annotations

import argparse
import copy
import gzip
import hashlib
import json
import pathlib
import sys
from typing import Any

HERE = pathlib.Path(__file__).parent
ROOT = HERE.parents[2]


def digest(state: dict[str, Any]) -> str:
    text = json.dumps(state, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def answers(log: dict[str, Any]) -> tuple[list[Any], list[dict[str, Any]]]:
    """What the engine in this tree answers for `log`, in the golden file's format: `replay` (apply,
    event by event) and `tablet` (check's verdict, then step)."""
    from shared_rules.outcome import Refused
    from shared_rules.table import EventError, Table
    from shared_rules.types import Refusal

    def table() -> Table:
        return Table(log["profile"], log["board"], log.get("policy"), tuple(log.get("no_alerts_by", ())))

    replay_table, replay = table(), []
    for ev in log["events"]:
        try:
            replay.append(digest(replay_table.apply(copy.deepcopy(ev))))
        except EventError as exc:
            replay.append("!" + str(exc))
    tablet_table, tablet = table(), []
    for ev in log["events"]:
        try:
            verdict: Any = tablet_table.check(copy.deepcopy(ev))
        except EventError as exc:
            verdict = "!" + str(exc)
        got = tablet_table.step(copy.deepcopy(ev))
        item: dict[str, Any] = {"check": verdict}
        if isinstance(got, Refused):
            # what the baseline's tablet refused itself (check's verdict, a forbidden alert) is
            # "refused" with the kind and Law; what its apply raised is "error" with the message
            if got.kind in (Refusal.INVALID, Refusal.AWAITING_TD):
                item["error"] = got.reason
            else:
                item["refused"] = [got.kind, got.law]
        else:
            item.update(state=digest(got.state), irregularities=[dict(x) for x in got.irregularities],
                        timing=[dict(x) for x in got.timing])
        tablet.append({k: v for k, v in item.items() if v not in (None, [])})
    return replay, json.loads(json.dumps(tablet))


def first_change(case: dict[str, Any], replay: list[Any], tablet: list[dict[str, Any]]) -> int:
    return next(j for j, (a, b, c, d) in enumerate(zip(case["replay"], replay, case["tablet"], tablet, strict=True))
                if a != b or c != d)


def baseline_states(baseline: str, log: dict[str, Any], upto: int) -> tuple[Any, Any]:
    """The baseline's and today's state after event `upto` (apply), to print what changed."""
    from shared_rules.table import EventError, Table

    def run(cls: Any, error: Any) -> Any:
        t = cls(log["profile"], log["board"], log.get("policy"), tuple(log.get("no_alerts_by", ())))
        state: Any = None
        for ev in log["events"][:upto + 1]:
            try:
                state = t.apply(copy.deepcopy(ev))
            except error as exc:
                state = "!" + str(exc)
        return json.loads(json.dumps(state))

    now = run(Table, EventError)
    mods = {k: sys.modules.pop(k) for k in list(sys.modules) if k.startswith("shared_rules")}
    sys.path.insert(0, baseline)
    try:
        from shared_rules.table import EventError as BaseError
        from shared_rules.table import Table as BaseTable
        before = run(BaseTable, BaseError)
    finally:
        sys.path.remove(baseline)
        for k in [k for k in sys.modules if k.startswith("shared_rules")]:
            del sys.modules[k]
        sys.modules.update(mods)
    return before, now


def changes(a: Any, b: Any, path: str = "") -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        return [line for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)
                for line in changes(a.get(k), b.get(k), f"{path}.{k}")]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [line for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y
                for line in changes(x, y, f"{path}[{i}]")]
    return [f"{path or '.'}: {json.dumps(a)[:160]} -> {json.dumps(b)[:160]}"]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reason", required=True, help="the fix of the Laws that changed the answers")
    ap.add_argument("--reasons", help="a JSON object: log index -> the reason for that log")
    ap.add_argument("--baseline", help="a directory holding the baseline's shared_rules, to print the changes")
    ap.add_argument("out")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    cases = json.loads(gzip.decompress((HERE / "step_golden.json.gz").read_bytes()))
    out_path = pathlib.Path(args.out)
    old = json.loads(out_path.read_text()) if out_path.exists() else {"amended": {}}
    reasons: dict[str, str] = {}
    if args.reasons:
        reasons = json.loads(pathlib.Path(args.reasons).read_text())
    amended: dict[str, Any] = {}
    for i, case in enumerate(cases):
        replay, tablet = answers(case["log"])
        if replay == case["replay"] and tablet == case["tablet"]:
            continue
        j = first_change(case, replay, tablet)
        kept = old["amended"].get(str(i))
        same = kept is not None and kept["replay"] == replay and kept["tablet"] == tablet
        reason = reasons.get(str(i)) or (kept["reason"] if same else args.reason)
        amended[str(i)] = {"reason": reason, "first_changed_event": j, "replay": replay, "tablet": tablet}
        print(f"log {i} ({case['log']['profile']}), event {j} {json.dumps(case['log']['events'][j])}: {reason}")
        if args.baseline and not same:
            before, now = baseline_states(args.baseline, case["log"], j)
            for line in changes(before, now)[:10]:
                print("    " + line)
    about = ("answers of step_golden.json.gz's logs changed by fixes of the Laws since the baseline "
             "(tests/rules/data/amend_step_golden.py)")
    # one log a line: a later amendment of another log is a separate line in a merge
    lines = [f"{json.dumps(str(i))}: {json.dumps(a, sort_keys=True, separators=(',', ':'))}"
             for i, a in sorted(amended.items(), key=lambda kv: int(kv[0]))]
    text = f'{{"about": {json.dumps(about)},\n"amended": {{\n' + ",\n".join(lines) + "\n}}\n"
    json.loads(text)
    out_path.write_text(text)
    print(f"{len(amended)} of {len(cases)} logs amended -> {out_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
