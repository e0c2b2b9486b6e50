"""The box's figures, measured on the real firmware:

- on emulated RP2040s (hardware/emu, stock MicroPython as flashed) behind the real tablet, on
  one clock with it (hardware/emu/lockstep.py) and behind a model of the USB bridge
  (bench/box_chip.py): one box point to point (OK key down -> its display shows the call) and
  four boxes on one RS-485 line with the tablet as bus master (OK key down -> all four displays
  show the call), each over at least 200 timed calls a run and three runs; the bus with the
  bridge's latency timer at 1 ms (the tablet sets it) and at the FT231X's 16 ms;
- latency from the confirm key on one box to every box showing the new state, p50 / p99, at
  115200 baud over the simulated link with four MicroPython unix-port boxes and the real tablet
  (controller, laws engine, journal, runner: hardware.sim.table.RealTable), beside the physical
  floor (the wire time of the call frame plus one STATE frame: one port each);
- the heap the board's code uses after boot and during an auction (gc.mem_alloc on MicroPython:
  the unix port, 64-bit, with the ROMFS image and with .mpy files; the WebAssembly port, 32-bit
  like the RP2040, with .mpy files), and what its poll loop allocates over 1,000 idle loops;
- total size of the compiled .mpy files (what `make flash` copies, and all of them);
- a long fault soak (1% corrupted, 0.5% dropped bytes, cable pulls, box reboots): calls, lost,
  duplicated, reordered. `--soak-calls N` (default 100,000; about 23 ms per call on 4 tables with the real tablet,
  which journals every call; 15 ms with the scripted stand-in it replaced).

Usage: python bench/bench_box.py [--latency-calls 300] [--soak-calls 100000] [--soak-tables 4]
                                 [--chip-calls 200] [--chip-runs 3] [--bus-calls 200]
                                 [--bus-runs 3] [--bus-slow-runs 3] [--chip-only]
                                 [--chip-parts p2p,bus1,bus16]
"""
from __future__ import annotations

import argparse
import json
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import box_image  # noqa: E402

from bench.box_chip import on_chip, on_chip_bus, pct, print_bus, print_p2p  # noqa: E402
from hardware.sim import soak  # noqa: E402
from hardware.sim.boxes import Screen, micropython_path  # noqa: E402
from hardware.sim.table import SEATS, RealTable, tokens  # noqa: E402
from protocol import messages as M  # noqa: E402

BAUD = 115200


def turn_with_calls(sc: Screen, n: int) -> bool:
    """The box shows that it is its turn, with the auction's n calls."""
    return sc.status == "YOUR TURN" and len(sc.calls) == n



def wire_bytes(payload_len: int) -> int:
    # COBS adds 1 byte per 254 (at least 1), the 0x00 delimiter 1, and a leading flush 0x00 1
    return payload_len + payload_len // 254 + 1 + 1 + 1


def latency(n_calls: int, workdir: pathlib.Path) -> dict:
    lat: list[float] = []
    floor: list[float] = []
    up: list[float] = []  # confirm key -> call delivered at the tablet
    rng = __import__("random").Random(3)
    with RealTable(workdir, seed=3) as t:
        while len(lat) < n_calls:
            turn = t.tablet.turn()
            if turn is None:
                t.tablet.new_board()  # result entered and confirmed: the next board
                continue
            seat = SEATS[turn]
            n = len(t.tablet.calls())
            t.boxes.wait_screen(seat, partial(turn_with_calls, n=n))
            allowed = t.tablet.allowed(turn)
            bids = [c for c in allowed if c not in ("P", "X", "XX")]
            call = "P" if (n >= 8 or not bids or rng.random() < 0.4) else bids[rng.randrange(min(3, len(bids)))]
            keys = tokens(call)
            t.boxes.press(seat, keys[:-1])   # the selection, then a pause, then the confirm key
            time.sleep(0.02)
            files = [t.boxes.boxes[s].screen_file for s in SEATS]
            t0 = time.monotonic()
            t.boxes.press(seat, "OK")
            want = n + 1
            pending = set(range(4))
            deadline = t0 + 5
            while pending:
                for i in list(pending):
                    try:
                        txt = files[i].read_text()
                    except FileNotFoundError:
                        continue
                    if t.boxes.screen(SEATS[i]).text and len(_calls(txt)) == want:
                        pending.discard(i)
                if time.monotonic() > deadline:
                    raise TimeoutError("a box did not show the call in 5 s")
                time.sleep(0.0002)
            lat.append((time.monotonic() - t0) * 1000)
            up.append((t.tablet.delivered_at[-1] - t0) * 1000)
            state = M.encode_state(t.tablet.view((turn + 1) % 4))
            ev = wire_bytes(M.HEADER + M.EVENT_BODY + M.CRC)
            st = wire_bytes(M.HEADER + len(state) + M.CRC)
            floor.append((ev + st) * 10 / BAUD * 1000)
            t.tablet.wait_calls(want)
    return {"n": len(lat), "p50": pct(lat, 50), "p99": pct(lat, 99), "max": max(lat),
            "up_p50": pct(up, 50), "up_p99": pct(up, 99),
            "floor_mean": statistics.mean(floor), "floor_max": max(floor)}


def _calls(text: str) -> list[str]:
    from hardware.sim.boxes import Screen

    return Screen(text).calls


def _wasm_runner() -> list[str] | None:
    """node + the pinned 32-bit MicroPython WebAssembly port (bench/wasm), installed on first use
    from bench/wasm/package-lock.json; None (with the reason printed) where that cannot be had."""
    import shutil

    node, npm = shutil.which("node"), shutil.which("npm")
    wasm = ROOT / "bench/wasm"
    if not node or not npm:
        print("  (32-bit WebAssembly run skipped: node/npm not installed)")
        return None
    if not (wasm / "node_modules/@micropython/micropython-webassembly-pyscript").is_dir():
        r = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=wasm, capture_output=True,
                           text=True, timeout=300)
        if r.returncode:
            print("  (32-bit WebAssembly run skipped: npm ci failed: "
                  + (r.stderr.strip().splitlines() or ["?"])[-1] + ")")
            return None
    return [node, str(wasm / "run.mjs")]


def heap(tmp: pathlib.Path) -> dict:
    """The heap probe (bench/mp_box_heap.py) over the board's code, three ways: MicroPython unix
    64-bit with the ROMFS image mounted as the board mounts it (bytecode in place) and with the
    .mpy files on a filesystem (bytecode copied into the heap), and the 32-bit WebAssembly port
    with the files (no ROMFS there)."""
    import contextlib
    import io
    import shutil

    image = tmp / "box.romfs"
    tree = tmp / "tree"
    box_image.stage(tree, with_tablet=True)  # + the tablet side the probe plays
    with contextlib.redirect_stdout(io.StringIO()):  # make_romfs prints the tree
        box_image.write_romfs(tree, image)
    shutil.copy(ROOT / "hardware/pinmap.json", tree / "pinmap.json")
    probe = str(ROOT / "bench/mp_box_heap.py")
    runs = {"romfs64": [micropython_path(), probe, str(image), str(ROOT / "hardware/pinmap.json"),
                        str(tmp / "outbox.bin")],
            "files64": [micropython_path(), probe, str(tree), str(tree / "pinmap.json"),
                        str(tmp / "outbox.bin")]}
    wasm = _wasm_runner()
    if wasm:
        runs["files32"] = [*wasm, str(tree), "/box", probe, "/box", "/box/pinmap.json",
                           "/tmp/outbox.bin"]
    out = {}
    for label, cmd in runs.items():
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=ROOT)
        if r.returncode:
            raise RuntimeError(label + ": " + r.stdout + r.stderr)
        out[label] = json.loads(r.stdout.strip().splitlines()[-1])
    return out


def sizes() -> dict:
    """.mpy bytes: what a box is flashed with (scripts/box_image.py) and every module compiled
    plainly (scripts/mpy-check.sh)."""
    subprocess.run(["bash", "scripts/mpy-check.sh"], cwd=ROOT, check=True, capture_output=True)
    mpy = ROOT / "build/mpy"
    every = {p: p.stat().st_size for p in mpy.rglob("*.mpy")}
    every = {p: s for p, s in every.items() if p.name != "manifest.mpy"}  # build data, not code
    with tempfile.TemporaryDirectory() as t:
        board = pathlib.Path(t) / "s"
        flashed = [(board / name).stat().st_size for name in box_image.stage(board)]
    return {"all": sum(every.values()), "n_all": len(every), "flashed": sum(flashed),
            "n_flashed": len(flashed),
            "firmware": sum(s for p, s in every.items() if "firmware" in p.parts),
            "protocol": sum(s for p, s in every.items() if "protocol" in p.parts)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--latency-calls", type=int, default=300)
    ap.add_argument("--soak-calls", type=int, default=100_000)
    ap.add_argument("--soak-tables", type=int, default=4)
    ap.add_argument("--chip-calls", type=int, default=200, help="timed calls per run, point to point")
    ap.add_argument("--chip-runs", type=int, default=3)
    ap.add_argument("--bus-calls", type=int, default=200, help="timed calls per run on the bus")
    ap.add_argument("--bus-runs", type=int, default=3, help="bus runs with the bridge at 1 ms")
    ap.add_argument("--bus-slow-runs", type=int, default=3, help="bus runs with the bridge at 16 ms")
    ap.add_argument("--chip-only", action="store_true", help="only the emulated-chip figures")
    ap.add_argument("--bus-trace", action="store_true",
                    help="the bus boxes print each STATE's apply, draw and push (costs them a little)")
    ap.add_argument("--chip-parts", default="p2p,bus1,bus16",
                    help="which chip figures: p2p, bus1 (bridge at 1 ms), bus16 (at 16 ms)")
    a = ap.parse_args()
    # The simulated link, LinkMaster and the tablet (controller, runner) share this one CPython process (on a
    # real table they are a kernel UART driver and a tablet): a short GIL switch interval keeps
    # them from queueing behind each other for the default 5 ms.
    sys.setswitchinterval(0.0005)
    print(f"micropython: {micropython_path()}  baud {BAUD}, 4 boxes per table, simulated link (hardware/sim)")
    with tempfile.TemporaryDirectory(prefix="bench_box_") as tmpdir:
        tmp = pathlib.Path(tmpdir)
        t0 = time.monotonic()
        parts = set(a.chip_parts.split(","))
        runs = [on_chip(tmp / f"chip{k}", a.chip_calls, 1.0) for k in range(a.chip_runs * ("p2p" in parts))]
        if any(r is not None for r in runs):
            print_p2p([r for r in runs if r is not None])
        bus = [on_chip_bus(tmp / f"bus{k}", a.bus_calls, 1.0, trace=a.bus_trace) for k in range(a.bus_runs * ("bus1" in parts))]
        if any(r is not None for r in bus):
            print_bus([r for r in bus if r is not None], "bridge latency timer 1 ms (as the tablet sets it)")
        slow = [on_chip_bus(tmp / f"bus16_{k}", a.bus_calls, 16.0)
                for k in range(a.bus_slow_runs * ("bus16" in parts))]
        if any(r is not None for r in slow):
            print_bus([r for r in slow if r is not None],
                      "bridge latency timer 16 ms (the FT231X's default, a tablet that did not set it)")
        print(f"  the chip benches took {time.monotonic() - t0:.0f} s")
        if a.chip_only:
            return
        lat = latency(a.latency_calls, tmp / "lat")
        print(f"latency confirm key -> all 4 boxes show the call ({lat['n']} calls, no faults, the real tablet): "
              f"p50 {lat['p50']:.1f} ms, p99 {lat['p99']:.1f} ms, max {lat['max']:.1f} ms "
              f"(goal p99 < 20 ms)")
        print(f"  physical floor (wire time of call frame + STATE frame at {BAUD} baud): "
              f"mean {lat['floor_mean']:.2f} ms, max {lat['floor_max']:.2f} ms; "
              f"p50 / floor = {lat['p50'] / lat['floor_mean']:.1f}x")
        h = heap(tmp)
        names = {"romfs64": "unix 64-bit, ROMFS image (bytecode in place, as flashed with ROMFS=1)",
                 "files64": "unix 64-bit, .mpy files (bytecode copied into the heap)",
                 "files32": "WebAssembly 32-bit (the RP2040's word size), .mpy files"}
        print("heap of the board's code as `make flash` compiles it (hal_rp2, store, app, protocol; "
              "constants folded; `machine` stood in; where the heap goes: the goal, < 64 KB, is the "
              "chip's, main.py included, above):")
        for label, x in h.items():
            print(f"  {names[label]}: after boot {x['after_boot'] / 1024:.1f} KB, during a 30-call "
                  f"auction {x['in_auction'] / 1024:.1f} KB; of which modules "
                  f"{x['modules'] / 1024:.1f} KB, runtime objects "
                  f"{(x['in_auction'] - x['modules']) / 1024:.1f} KB in the auction")
        if "files32" in h:
            # not measured: MicroPython's WebAssembly port has no ROMFS. The bytecode is the same
            # bytes on both word sizes, so the 64-bit difference carries over (16-byte blocks on
            # 32-bit round it a little less: the estimate errs high).
            saved = h["files64"]["in_auction"] - h["romfs64"]["in_auction"]
            est = h["files32"]["in_auction"] - saved
            print(f"  32-bit with ROMFS, derived (not measured): {est / 1024:.1f} KB in the auction "
                  f"(the 32-bit files figure less the {saved / 1024:.1f} KB ROMFS keeps in flash on "
                  f"64-bit)")
        x = h["romfs64"]
        print(f"idle poll loop: {x['idle_alloc_1000']} B allocated by the box over 1,000 loops, "
              f"{x['idle_retained_1000']} B heap growth after gc (second round of 1,000; goal: no "
              f"growth; 32-bit: "
              f"{h['files32']['idle_retained_1000'] if 'files32' in h else 'not run'} B); "
              f"{x['idle_redraws']} redraws; link up: {x['linked']}")
        s = sizes()
        print(f".mpy size: flashed {s['flashed'] / 1024:.1f} KB in {s['n_flashed']} files "
              f"(goal < 48 KB); all {s['all'] / 1024:.1f} KB in {s['n_all']} files "
              f"(firmware {s['firmware'] / 1024:.1f} KB, protocol {s['protocol'] / 1024:.1f} KB)")
        box_image.stage(tmp / "image", unix=True)  # the soak runs the code a board is flashed with
        r = soak.run(tmp / "soak", calls=a.soak_calls, tables=a.soak_tables, corrupt=0.01, drop=0.005,
                     pull_every=60, reboot_every=45, seed=11, main=tmp / "image/main.py")
        print(f"soak ({a.soak_tables} tables, 1% corrupt, 0.5% drop, {r.pulls} cable pulls, "
              f"{r.reboots} reboots, {r.boards} boards, {r.seconds:.0f} s): calls {r.keyed}, "
              f"delivered {r.delivered}, lost {r.lost}, duplicated {r.duplicated}, reordered {r.reordered}, "
              f"boxes not showing the true auction {r.bad_screens}; "
              f"{r.keyed / max(r.seconds, 0.001):.0f} calls/s")
        for e in r.errors[:5]:
            print("  soak error:", e.splitlines()[0])


if __name__ == "__main__":
    main()
