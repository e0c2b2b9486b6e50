"""pytest plugin: record the events of every Table the tests build (apply/take), for make_step_golden.py.

Run in a checkout of the baseline commit (it wraps that engine's `Table._undo`, so the tables an undo
builds are not recorded):

    LOGS_OUT=logs.json PYTHONPATH=tests/rules/data python -m pytest -p record_logs tests/rules \
        --ignore=tests/rules/test_properties.py --ignore=tests/rules/test_fuzz.py \
        --ignore=tests/rules/test_box_taken_fast_path.py --ignore=tests/rules/test_contract_reference.py
"""
import json
import os

from shared_rules import table as table_mod

LOGS: list[dict] = []
_inside_undo = [False]


def pytest_configure(config):
    T = table_mod.Table
    orig_init, orig_apply, orig_take, orig_undo = T.__init__, T.apply, T.take, T._undo

    def init(self, profile, board, policy=None, no_alerts_by=()):
        orig_init(self, profile, board, policy, no_alerts_by)
        if not _inside_undo[0]:
            self._rec_log = {"profile": profile, "board": board, "events": []}
            if policy is not None:
                self._rec_log["policy"] = policy
            if no_alerts_by:
                self._rec_log["no_alerts_by"] = list(no_alerts_by)
            LOGS.append(self._rec_log)

    def rec(self, ev):
        log = getattr(self, "_rec_log", None)
        if log is not None and not _inside_undo[0]:
            log["events"].append(ev if not isinstance(ev, dict) else dict(ev))

    def apply(self, ev):
        rec(self, ev)
        return orig_apply(self, ev)

    def take(self, ev):
        rec(self, ev)
        return orig_take(self, ev)

    def undo(self):
        _inside_undo[0] = True
        try:
            orig_undo(self)
        finally:
            _inside_undo[0] = False

    T.__init__, T.apply, T.take, T._undo = init, apply, take, undo


def pytest_unconfigure(config):
    seen, out = set(), []
    for log in LOGS:
        if not log["events"]:
            continue
        try:
            key = json.dumps(log, sort_keys=True)
        except (TypeError, ValueError):
            continue  # events that are not JSON (a test's deliberately odd objects)
        if key not in seen:
            seen.add(key)
            out.append(log)
    with open(os.environ["LOGS_OUT"], "w") as fh:
        json.dump(out, fh)
