"""`python -m hardware.pcb [box|hub ...] [--out build/pcb]` (the `make pcb` target): writes each
board's netlist from hardware/schematic.py, then lays the board out, routes and checks it with
KiCad's Python module (hardware/pcb/build.py, run by /usr/bin/python3, the interpreter Debian's
`kicad` package builds `pcbnew` for), and renders docs/pcb-BOARD.png."""
from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

from hardware import schematic

ROOT = pathlib.Path(__file__).resolve().parents[2]
KICAD_PYTHON = os.environ.get("KICAD_PYTHON", "/usr/bin/python3")


def make(name: str, out: pathlib.Path) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    net = out / f"{name}.net"
    net.write_text(schematic.netlist(schematic.BOARDS[name]()))
    r = subprocess.run([KICAD_PYTHON, "-m", "hardware.pcb.build", name, str(net), str(out / name)],
                       cwd=ROOT, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    if r.returncode != 0:
        raise RuntimeError(f"{name}: KiCad build failed (is Debian's kicad installed? scripts/setup-system.sh):\n"
                           f"{r.stderr[-3000:]}")
    return json.loads((out / name / f"{name}-summary.json").read_text())


def main(argv: list[str]) -> int:
    out = pathlib.Path("build/pcb")
    if "--out" in argv:
        out = pathlib.Path(argv[argv.index("--out") + 1])
        argv = [a for i, a in enumerate(argv) if a != "--out" and argv[i - 1] != "--out"]
    for name in argv or ["box", "hub"]:
        s = make(name, out)
        print(f"{name}: {s['size_mm'][0]:g} x {s['size_mm'][1]:g} mm, DRC {s['drc']['violations']} violations, "
              f"{s['drc']['unconnected']} unconnected, {s['pad_holes']} pad holes, {s['vias']} vias")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
