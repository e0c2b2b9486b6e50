"""The cycle collector's full pass waits for a moment no call is on its way (tablet_app/ui/pauses.py).
Run in a child interpreter: freezing and the thresholds are the whole process's."""
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]

CHILD = """
import gc, json
from tablet_app.ui.pauses import freeze_built_screens, full_pass

passes = []
gc.callbacks.append(lambda phase, info: phase == "start" and passes.append(info["generation"]))

class Node:
    pass

screens = [[Node() for _ in range(50)] for _ in range(200)]   # what start-up built
frozen = freeze_built_screens()
after_freeze = len(passes)
kept = []
for refresh in range(300):   # an evening's refreshes: cycles left behind, and objects that live on
    for _ in range(1000):
        a, b = Node(), Node()
        a.b, b.a = b, a
    kept.append([Node() for _ in range(100)])
during = passes[after_freeze:]
lost = []
for _ in range(5000):   # garbage cycles that outlive the young passes, until the full pass
    a, b = Node(), Node()
    a.b, b.a = b, a
    a.big = list(range(10))
    lost.append(a)
lost.clear()
before_full = len(passes)
found = full_pass()
print(json.dumps({"frozen": frozen, "young": sum(1 for g in during if g < 2),
                  "full_by_allocation": during.count(2), "full_pass": passes[before_full:], "found": found}))
"""


def test_no_full_pass_is_set_off_by_allocation_only_the_apps_own(tmp_path):
    p = subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    r = json.loads(p.stdout.strip().splitlines()[-1])
    assert r["frozen"] >= 200 * 50, r
    assert r["young"] > 100, r  # the young generations are collected as before
    assert r["full_by_allocation"] == 0, r
    assert r["full_pass"] == [2] and r["found"] >= 5000 * 2, r
