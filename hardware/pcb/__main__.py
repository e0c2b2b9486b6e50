"""`python -m hardware.pcb [box|hub ...] [--out build/pcb] [--docs docs]` (the `make pcb`
target): writes each board's netlist from hardware/schematic.py, then lays the board out, routes
and checks it with KiCad's Python module (hardware/pcb/build.py, run by /usr/bin/python3, the
interpreter Debian's `kicad` package builds `pcbnew` for), writes the assembly bill beside the
Gerbers (assembly.py) and, with --docs, copies the rendered view to DOCS/pcb-BOARD.png."""
from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import sys

from hardware import schematic
from hardware.pcb import assembly

ROOT = pathlib.Path(__file__).resolve().parents[2]
KICAD_PYTHON = os.environ.get("KICAD_PYTHON", "/usr/bin/python3")


def make(name: str, out: pathlib.Path, plans: pathlib.Path | None = None) -> dict:
    """Build one board into OUT/NAME; `plans` is where routing plans are kept (build/pcb-cache)."""
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if plans is not None:
        env["PCB_PLAN_CACHE"] = str(plans.resolve())
    net = out / f"{name}.net"
    net.write_text(schematic.netlist(schematic.BOARDS[name]()))
    r = subprocess.run([KICAD_PYTHON, "-m", "hardware.pcb.build", name, str(net), str(out / name)],
                       cwd=ROOT, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise RuntimeError(f"{name}: KiCad build failed (is Debian's kicad installed? scripts/setup-system.sh):\n"
                           f"{r.stderr[-3000:]}")
    (out / name / f"{name}-bom.csv").write_text(assembly.csv_text(name))
    return json.loads((out / name / f"{name}-summary.json").read_text())


def _option(argv: list[str], flag: str, default: str | None) -> tuple[str | None, list[str]]:
    if flag not in argv:
        return default, argv
    k = argv.index(flag)
    if k + 1 >= len(argv):
        raise SystemExit(f"{flag} needs a directory")
    return argv[k + 1], argv[:k] + argv[k + 2:]


def main(argv: list[str]) -> int:
    out, argv = _option(argv, "--out", "build/pcb")
    docs, argv = _option(argv, "--docs", None)
    for name in argv or list(schematic.BOARDS):
        if name not in schematic.BOARDS:
            raise SystemExit(f"no board {name!r}: {', '.join(schematic.BOARDS)}")
        s = make(name, pathlib.Path(str(out)))
        print(f"{name}: {s['size_mm'][0]:g} x {s['size_mm'][1]:g} mm, DRC {s['drc']['violations']} violations, "
              f"{s['drc']['unconnected']} unconnected, {s['pad_holes']} pad holes, {s['vias']} vias, "
              f"routing {'kept from ' + s['routing']['plan'] if s['routing']['reused'] else 'done'}")
        if docs:
            shutil.copyfile(pathlib.Path(str(out)) / name / f"{name}.png", pathlib.Path(docs) / f"pcb-{name}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
