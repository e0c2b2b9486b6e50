"""The real Kivy app with its link: four MicroPython boxes on the simulated link, box events handled
by the link waiter thread (not a polling clock) while the app draws. Calls keyed on the boxes reach
every box through the app; the results go through North's entry and East-West's confirmation.
(The same child is `make bench`'s real-path latency: timings are printed there, not asserted.)"""
import json
import os
import pathlib
import subprocess
import sys

import pytest

pytestmark = [pytest.mark.ui, pytest.mark.micropython]
ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_calls_keyed_on_real_boxes_reach_every_box_through_the_app(xvfb_display, micropython_bin, tmp_path):
    env = {**os.environ, "DISPLAY": xvfb_display, "KIVY_HOME": str(tmp_path / "kivy")}
    p = subprocess.run([sys.executable, str(ROOT / "bench" / "app_latency_child.py"), "24", str(tmp_path), "--gap=20"],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("{")]
    assert lines, p.stderr[-3000:]
    res = json.loads(lines[-1])
    assert "error" not in res, res.get("error")
    assert len(res["lat"]) == 24
    # Xvfb renders in software: a call arriving while the screen is drawn must not queue behind
    # llvmpipe's workers for a core (tablet_app/ui/render_priority.py)
    workers = {k: v for k, v in res["render_threads"].items() if k.startswith("llvmpipe")}
    assert workers and all(v > res["render_threads"]["app"] for v in workers.values()), res["render_threads"]
    # the built screens are out of the cycle collector's full passes (tablet_app/ui/pauses.py):
    # a Kivy app's tens of thousands of long-lived objects are not walked while a box waits
    assert res["frozen"] > 10_000, res["frozen"]
    # ...and no full pass is set off by allocation in an auction: the app runs one when an auction
    # has ended (here 0.3 s before the next board's first call)
    from tablet_app.ui.pauses import NEVER

    assert res["full_pass_threshold"] == NEVER and res["full_passes"] >= 1, res
    from tablet_app.controller import Controller

    ctl = Controller(tmp_path / "journal.db")  # the journal the app wrote: every call, replayed
    try:
        # the 24 keyed calls, each journalled once: the finished boards' auctions and the one in play
        made = sum(len(r["auction"]) for r in ctl.done) + len(ctl.estate.get("calls", []))
        assert made == 24 and ctl.done
    finally:
        ctl.close()
