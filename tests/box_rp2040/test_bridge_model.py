"""The USB bridge model the emulated table puts between the boxes and the tablet
(hardware/emu/bridge.js): bytes wait for the latency timer's next tick, or leave at once when a
USB packet's worth has gathered; so the bench's 16 ms line shows what a tablet that never set the
FT231X's timer gets, and its 1 ms line what the tablet's setting gives (tablet_app/link/latency.py)."""
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT

DRIVE = r"""
const { Bridge } = require(process.argv[1]);
const out = [];
const steps = JSON.parse(process.argv[2]);
const b = new Bridge('bus', +process.argv[3], 62, (port, now, bytes) => out.push([now / 1e6, bytes.length]));
// steps: [ms, n bytes arriving then], the clock ticking every 50 us as the emulator's slices do
let k = 0;
for (let t = 0; t <= 60e6; t += 50e3) {
  while (k < steps.length && steps[k][0] * 1e6 <= t) { b.push(new Array(steps[k][1]).fill(1), t); k++; }
  b.tick(t);
}
// written to a file, not stdout: once in a full suite run node exited 0 with nothing read from its
// stdout pipe; a file written synchronously is there when node has exited
require('fs').writeFileSync(process.argv[4], JSON.stringify(out));
"""


def handed(latency_ms: float, steps: list[tuple[float, int]], tmp: Path) -> list[tuple[float, int]]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node not found (make setup)")
    out = tmp / f"handed-{latency_ms}-{len(list(tmp.iterdir()))}.json"
    r = subprocess.run([node, "-e", DRIVE, str(ROOT / "hardware/emu/bridge.js"), json.dumps(steps),
                        str(latency_ms), str(out)], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0 and out.exists(), f"node {node}: rc {r.returncode}, stderr {r.stderr!r}"
    return [tuple(x) for x in json.loads(out.read_text())]


def test_a_box_reply_waits_for_the_16_ms_tick_and_for_the_1_ms_one(tmp_path):
    reply = [(20.3, 10)]  # a 10-byte reply whose last byte arrives 20.3 ms into the run
    assert handed(16, reply, tmp_path) == [(32.0, 10)]  # 11.7 ms in the bridge
    assert handed(1, reply, tmp_path) == [(21.0, 10)]   # 0.7 ms


def test_a_full_usb_packet_leaves_at_once_and_restarts_the_timer(tmp_path):
    steps = [(3.0, 40), (3.5, 30), (10.0, 5)]
    # 62 of the 70 bytes leave when the 62nd arrives; the rest and the next 5 at the tick 16 ms
    # after that packet, not at the free-running 16 ms tick
    assert handed(16, steps, tmp_path) == [(3.5, 62), (19.5, 13)]


def test_the_timer_runs_whether_or_not_bytes_wait(tmp_path):
    assert handed(16, [(47.9, 1)], tmp_path) == [(48.0, 1)]
