"""The box figures of issue 3, measured on the real firmware (MicroPython unix port):

- latency from the confirm key on one box to every box showing the new state, p50 / p99, at
  115200 baud over the simulated link with four boxes and the real tablet (controller, laws
  engine, journal, runner: hardware.sim.table.RealTable), beside the physical floor (the wire time
  of the call frame plus one STATE frame: the four STATEs go out in parallel, one port each);
- on emulated RP2040s (hardware/emu, stock MicroPython as flashed) behind the real tablet: one box
  point to point (OK key down -> its display shows the call), and four boxes on one RS-485 line
  with the tablet as bus master (OK key down -> all four displays show the call, beside the wire
  floor of the call frame and four STATEs, and the collisions the line model counts), on the
  chip's clock;
- the heap the board's code uses after boot and during an auction (gc.mem_alloc on MicroPython:
  the unix port, 64-bit, with the ROMFS image and with .mpy files; the WebAssembly port, 32-bit
  like the RP2040, with .mpy files), and what its poll loop allocates over 1,000 idle loops;
- total size of the compiled .mpy files (what `make flash` copies, and all of them);
- a long fault soak (1% corrupted, 0.5% dropped bytes, cable pulls, box reboots): calls, lost,
  duplicated, reordered. `--soak-calls N` (default 100,000; about 23 ms per call on 4 tables with the real tablet,
  which journals every call; 15 ms with the scripted stand-in it replaced).

Usage: python bench/bench_box.py [--latency-calls 300] [--soak-calls 100000] [--soak-tables 4]
                                 [--bus-bids 13]
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

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import box_image  # noqa: E402

from hardware.sim import soak  # noqa: E402
from hardware.sim.boxes import micropython_path  # noqa: E402
from hardware.sim.table import SEATS, RealTable, tokens  # noqa: E402
from protocol import messages as M  # noqa: E402

BAUD = 115200


def wire_bytes(payload_len: int) -> int:
    # COBS adds 1 byte per 254 (at least 1), the 0x00 delimiter 1, and a leading flush 0x00 1
    return payload_len + payload_len // 254 + 1 + 1 + 1


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    k = min(len(xs) - 1, max(0, round(p / 100 * (len(xs) - 1))))
    return xs[k]


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
            t.boxes.wait_screen(seat, lambda sc, n=n: sc.status == "YOUR TURN" and len(sc.calls) == n)
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


def on_chip(workdir: pathlib.Path) -> dict | None:
    """The box on an emulated RP2040 (hardware/emu: stock MicroPython v1.27.0, flashed as `make
    flash` flashes it) behind the real tablet (LinkMaster, controller, laws engine), point to
    point, one box (N) keying its calls on the matrix, E/S/W bidding through the controller: a
    35-bid auction (38 calls). Times are on the chip's clock: from the OK key going down (the
    20 ms debounce, the flash write, the frame, the tablet's turn, the STATE, the display push
    included) to the last byte of the frame that shows the call reaching the display.
    Caveat: the emulated chip runs several times slower than real time while the tablet runs at
    wall speed, so the tablet's share looks smaller on the chip's clock than it is."""
    from hardware.emu.harness import missing

    why = missing()
    if why:
        print("on the chip: not run:", why)
        return None
    from hardware.emu.rig import EmuRig
    from protocol.calls import NAMES

    r = EmuRig(workdir, "N", frames=True, extra_config={"heap_log": True, "trace": True})
    try:
        e = r.emu
        boot = e.wait_console("N", r"box boot .* heap (\d+)", 180)
        e.wait_screen("N", lambda sc: "YOUR TURN" in sc.status, 180)
        prog0, erased0 = e.flash_bytes()
        lat: list[float] = []
        floor: list[float] = []
        taken: list[float] = []  # OK key down -> the firmware takes it (debounce, scan period)
        own: list[float] = []  # the box's own share: taken + frame out + STATE in -> shown
        made: list[str] = []
        failure = ""
        try:
            for rank in range(35):
                name = NAMES[3 + rank]
                seat = SEATS[rank % 4]
                if seat == "N":
                    e.wait_screen("N", lambda sc: "YOUR TURN" in sc.status, 180)
                    kd = len(e.key_downs["N"])
                    e.press("N", f"{name[0]} {name[1:]} OK")
                    made.append(name)
                    r.wait_calls(made, 120)
                    e.wait(lambda k=kd: len(e.key_downs["N"]) >= k + 3, 60, "keys down")
                    t_ok = e.key_downs["N"][kd + 2][0]

                    def shown(t0=t_ok, c=name) -> list[int]:
                        return [t for t, f in e.frames["N"] if t > t0 and c in [x.rstrip("!") for x in f.auction.split()]]

                    e.wait(lambda: bool(shown()), 180, f"N's display showing {name}")
                    t_show = min(shown())
                    lat.append((t_show - t_ok) / 1000)
                    n_tr = len(taken)

                    def traced(k=n_tr) -> bool:
                        return len(_traces(e)) > k

                    e.wait(traced, 60, "trace")
                    taken.append((_traces(e)[-1][5] - t_ok) / 1000)
                    x = _traces(e)[-1]
                    own.append(taken[-1] + x[0] / 1000 + (x[4] - x[3]) / 1000)
                    with r.lock:
                        st = M.encode_state(r.ctl.views()["N"])  # the STATE that showed it
                    floor.append((wire_bytes(M.HEADER + M.EVENT_BODY + M.CRC)
                                  + wire_bytes(M.HEADER + len(st) + M.CRC)) * 10 / BAUD * 1000)
                else:
                    with r.lock:
                        r.ctl.box_event(seat, "call", call=name)
                    made.append(name)
            for seat in "WNE":  # three passes end the auction (S bid 7NT)
                if seat == "N":
                    e.wait_screen("N", lambda sc: "YOUR TURN" in sc.status, 180)
                    e.press("N", "P OK")
                    made.append("P")
                    r.wait_calls(made, 180)
                else:
                    with r.lock:
                        r.ctl.box_event(seat, "call", call="P")
                    made.append("P")
            e.wait_screen("N", lambda sc: "AUCTION OVER" in sc.status, 180)
        except TimeoutError as exc:
            # what the chip did instead is the figure: say it
            resets = [t for k, t in e.resets["N"] if k == "D"]
            why = str(exc).splitlines()[0]
            failure = (f"stopped after {len(made)} calls: {why[:60]}...{why[-90:]}; "
                       f"watchdog resets at chip ms {[t // 1000 for t in resets]}")
        prog1, erased1 = e.flash_bytes()
        heaps = [int(t.split()[1]) for _, t in e.console["N"] if t.startswith("heap ")]
        sim, wall, _ = e.clock()
        if not lat:
            lat = [float("nan")]
        tr = _traces(e)
        # from the key taken (chip ms): the frame written; the tablet's turn and the wire up to
        # the read that ends the STATE; its receive (COBS, CRC, checks); apply + render + draw;
        # the push of the changed pages
        parts = {"sent": lambda x: x[0], "away": lambda x: x[3] - x[0],
                 "receive": lambda x: x[8] - x[3], "draw": lambda x: x[7] - x[8],
                 "push": lambda x: x[4] - x[7]}
        steps = {k: statistics.median(f(x) / 1000 for x in tr) if tr else float("nan")
                 for k, f in parts.items()}
        steps["kept"] = sum(1 for x in tr if x[1] >= 0)
        return {"n": len(lat), "p50": statistics.median(lat), "p99": pct(lat, 99), "max": max(lat),
                "failure": failure, "steps": steps, "traces": tr,
                "taken_p50": statistics.median(taken) if taken else float("nan"),
                "own_p50": statistics.median(own) if own else float("nan"),
                "own_p99": pct(own, 99) if own else float("nan"),
                "floor_mean": statistics.mean(floor) if floor else float("nan"),
                "heap_boot": int(boot.group(1)), "heap_peak": max(heaps) if heaps else 0,
                "calls": len(made), "programmed": prog1[0] - prog0[0], "erased": erased1[0] - erased0[0],
                "speed": sim / max(wall, 1)}
    finally:
        r.close()


def on_chip_bus(workdir: pathlib.Path, bids: int = 13) -> dict | None:
    """Four boxes on emulated RP2040s (flashed with BUS=1) on one RS-485 line, the real tablet as
    bus master (LinkMaster granting in turn, controller, laws engine): every call keyed on its
    box's matrix, `bids` rising bids then three passes. Per call, on the chip's clock: from the OK
    key going down on the box whose turn it is to the last of the four boxes' displays showing the
    call (debounce, the wait for the grant, the frame, the tablet's turn, the four STATEs one
    after the other on the shared line, each box's display push). Floor: the wire time of the
    call frame and the four STATE frames, without the grant wait. The line model counts two
    drivers at once (collisions) and bytes sent with DE low; the line's frames give the grants
    the boxes let pass."""
    from hardware.emu.harness import missing

    why = missing()
    if why:
        print("on the chip, bus: not run:", why)
        return None
    from hardware.emu.rig import EmuRig, last_round, round_shown
    from protocol.calls import NAMES

    r = EmuRig(workdir, SEATS, bus=True, frames=True, hold_ms=40)
    try:
        e = r.emu
        with r.lock:
            dealer = r.ctl.estate["dealer"]
        lat: list[float] = []
        to_line: list[float] = []  # OK key down -> the call frame starts on the line
        # per call, chip ms: key down -> call frame starts (debounce, grant wait); the call frame;
        # -> the tablet writes the STATEs; -> the last display shows the call
        split: list[tuple[float, ...]] = []
        resent = 0
        floor: list[float] = []
        made: list[str] = []
        failure = ""
        script = [NAMES[3 + i] for i in range(bids)] + ["P"] * 3
        first = SEATS.index(dealer)
        t_first = e.sim_us
        try:
            for i, call in enumerate(script):
                seat = SEATS[(first + i) % 4]
                keys = tokens(call)
                e.wait_screen(seat, lambda sc: "YOUR TURN" in sc.status, 180)
                kd = len(e.key_downs[seat])
                e.press(seat, " ".join(keys), hold_ms=r.hold_ms, gap_ms=r.hold_ms)
                made.append(call)
                r.wait_calls(made, 180)
                n_down = kd + len(keys)
                e.wait(lambda k=n_down, s=seat: len(e.key_downs[s]) >= k, 60, "keys down")
                t_ok = e.key_downs[seat][n_down - 1][0]
                cells = last_round(made, dealer)

                def shown(s: str, t0=t_ok, want=cells) -> list[int]:
                    return [t for t, f in e.frames[s] if t > t0 and round_shown(f) == want]

                e.wait(lambda: all(shown(s) for s in SEATS), 180, f"all boxes showing {call}")
                lat.append((max(min(shown(s)) for s in SEATS) - t_ok) / 1000)
                fr = [f for f in e.line_frames() if f[0] > t_ok]
                sent = [(a, z) for a, z, _, what in fr if what == f"CALL from {seat}"]
                if sent:
                    to_line.append((sent[0][0] - t_ok) / 1000)
                    # the tablet writes the four STATEs in one go (the line model logs them at
                    # that moment; the line then carries them one after the other)
                    t_st = [a for a, _, _, what in fr if a >= sent[0][1] and what.startswith("STATE to ")]
                    t_last = t_ok + lat[-1] * 1000
                    resent += max(0, sum(1 for a in t_st if a <= t_last) - 4)  # STATEs sent again
                    if t_st:
                        split.append(((sent[0][0] - t_ok) / 1000, (sent[0][1] - sent[0][0]) / 1000,
                                      (t_st[0] - sent[0][1]) / 1000,
                                      (t_ok + lat[-1] * 1000 - t_st[0]) / 1000))
                with r.lock:
                    views = r.ctl.views()  # the STATEs that showed it
                wire = wire_bytes(M.HEADER + M.EVENT_BODY + M.CRC) + sum(
                    wire_bytes(M.HEADER + len(M.encode_state(v)) + M.CRC) for v in views.values())
                floor.append(wire * 10 / BAUD * 1000)
        except TimeoutError as exc:
            why = str(exc).splitlines()[0]
            failure = f"stopped after {len(made)} calls: {why[:120]}"
        sim, wall, _ = e.clock()
        answered, missed = e.grants(t_first)
        if not lat:
            lat = [float("nan")]
        return {"n": len(lat), "p50": statistics.median(lat), "p99": pct(lat, 99), "max": max(lat),
                "grants": len(answered) + len(missed), "grants_passed": len(missed),
                "line_p50": statistics.median(to_line) if to_line else float("nan"),
                "line_max": max(to_line) if to_line else float("nan"),
                "floor_mean": statistics.mean(floor) if floor else float("nan"),
                "collisions": e.collisions, "resent": resent, "undriven": len(e.undriven), "calls": len(made),
                "event_ms": wire_bytes(M.HEADER + M.EVENT_BODY + M.CRC) * 10 / BAUD * 1000,
                "failure": failure, "speed": sim / max(wall, 1), "wall": wall / 1e6,
                "each": list(zip(made, lat, strict=False)),
                "split": [statistics.median(x) for x in zip(*split, strict=True)] if split else [],
                "slowest": max(split, key=sum) if split else []}
    finally:
        r.close()


def print_bus(b: dict) -> None:
    print(f"on the chip, RS-485 bus (four emulated RP2040s flashed with BUS=1 on one line, "
          f"the real tablet as bus master; {b['calls']}-call auction, every call keyed on "
          f"its box; chip clock, emulation at {b['speed']:.2f}x real time, {b['wall']:.0f} s):")
    print(f"  OK key down -> all 4 boxes' displays show the call ({b['n']} calls): p50 "
          f"{b['p50']:.1f} ms, p99 {b['p99']:.1f} ms, max {b['max']:.1f} ms (goal p99 <= 60 ms); "
          f"wire floor (call frame + four STATE frames on the one line at {BAUD} baud, "
          f"grant wait not included) {b['floor_mean']:.1f} ms, p50 / floor = "
          f"{b['p50'] / b['floor_mean']:.1f}x; OK key down -> the call frame on the line "
          f"(debounce, scan, grant wait) p50 {b['line_p50']:.1f} ms, max {b['line_max']:.1f} ms; "
          f"line: {b['collisions']} collisions, {b['undriven']} bytes sent with DE low; "
          f"grants: {b['grants']}, of which the box let {b['grants_passed']} pass (busy drawing "
          f"or pushing, or read too late to answer within 5 ms: 7.5 ms of line each)")
    if b["split"]:
        k = b["split"]
        print(f"  where it goes (medians, chip ms): key down -> the call frame starts on the "
              f"line {k[0]:.1f} (debounce, scan, the wait for the grant); the call frame "
              f"{k[1]:.1f}; -> the tablet writes the four STATEs {k[2]:.1f} (its turn, on the "
              f"wall clock: it weighs {1 / max(b['speed'], 1e-9):.0f}x on the chip's clock); "
              f"-> the last box's display shows the call {k[3]:.1f} (the four STATEs one "
              f"after the other on the line, {b['floor_mean'] - b['event_ms']:.1f} ms of wire; the "
              f"box's receive, draw and push)")
        w = b["slowest"]
        print(f"  the slowest call ({sum(w):.1f} ms): to the line {w[0]:.1f}, the call frame {w[1]:.1f}, "
              f"the tablet {w[2]:.1f}, STATEs to the last display {w[3]:.1f}; STATE frames the "
              f"tablet sent again before the last display showed a call: {b['resent']} in all")
    if b["failure"]:
        print(f"  FAILED on the bus: {b['failure']}")


def _traces(e) -> list[list[int]]:
    """The box's "trace" lines (firmware/app.py, config "trace"): us from the OK key taken to
    the frame written, the call kept in flash, the ack, the STATE in, the call shown; and the
    chip's ticks_us when the key was taken."""
    return [[int(x) for x in t.split()[1:]] for _, t in e.console["N"] if t.startswith("trace ")]


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
    ap.add_argument("--bus-bids", type=int, default=13,
                    help="rising bids keyed on the four boxes on the bus (then three passes)")
    a = ap.parse_args()
    # The simulated link, LinkMaster and the tablet (controller, runner) share this one CPython process (on a
    # real table they are a kernel UART driver and a tablet): a short GIL switch interval keeps
    # them from queueing behind each other for the default 5 ms.
    sys.setswitchinterval(0.0005)
    print(f"micropython: {micropython_path()}  baud {BAUD}, 4 boxes per table, simulated link (hardware/sim)")
    with tempfile.TemporaryDirectory(prefix="bench_box_") as tmp:
        tmp = pathlib.Path(tmp)
        c = on_chip(tmp / "chip")
        if c is not None:
            print(f"on the chip (emulated RP2040, stock MicroPython v1.27.0, as flashed; one box "
                  f"point-to-point, the real tablet; {c['calls']}-call auction; chip clock, "
                  f"emulation at {c['speed']:.2f}x real time):")
            print(f"  OK key down -> the box's display shows the call ({c['n']} calls): p50 "
                  f"{c['p50']:.1f} ms, p99 {c['p99']:.1f} ms, max {c['max']:.1f} ms (goal p99 <= 30 ms); "
                  f"wire floor (call frame + STATE frame at {BAUD} baud) {c['floor_mean']:.1f} ms, "
                  f"p50 / floor = {c['p50'] / c['floor_mean']:.1f}x")
            s = c["steps"]
            print(f"  where it goes (medians, chip ms): key down -> taken {c['taken_p50']:.1f} "
                  f"(press_ms + scan); frame written {s['sent']:.1f}; tablet and wire until the "
                  f"STATE's last bytes are read {s['away']:.1f}; receive {s['receive']:.1f} "
                  f"(COBS and CRC in native code, checks in Python); apply + render + draw "
                  f"{s['draw']:.1f}; push of the changed pages {s['push']:.1f} (SPI 8.9 MHz: "
                  f"hardware/display.md); calls kept in flash "
                  f"(unacknowledged after 40 ms) {s['kept']}")
            print(f"  the box's own share (key down -> taken, -> frame out, STATE in -> shown): p50 "
                  f"{c['own_p50']:.1f} ms, p99 {c['own_p99']:.1f} ms; with the wire floor "
                  f"{c['own_p50'] + c['floor_mean']:.1f} / {c['own_p99'] + c['floor_mean']:.1f} ms is what "
                  f"a tablet answering at once would give (the emulated chip runs at "
                  f"{c['speed']:.2f}x real time, so the real tablet's wall-clock turn weighs "
                  f"{1 / max(c['speed'], 1e-9):.0f}x on the chip's clock)")
            print(f"  heap in use (gc.mem_alloc, main.py included): after boot "
                  f"{c['heap_boot'] / 1024:.1f} KB, highest in the auction (before each collection) "
                  f"{c['heap_peak'] / 1024:.1f} KB (goal < 64 KB)")
            print(f"  flash written in the board: {c['programmed']} B programmed, "
                  f"{c['erased'] / 1024:.0f} KB erased (LittleFS /outbox.bin: only calls "
                  f"unacknowledged after 40 ms)")
            if c["failure"]:
                print(f"  FAILED on the chip: {c['failure']}")
        b = on_chip_bus(tmp / "chip_bus", a.bus_bids)
        if b is not None:
            print_bus(b)
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
              "constants folded; `machine` stood in), goal < 32 KB after boot and in an auction:")
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
