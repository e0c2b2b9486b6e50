"""PCB bench: CPU seconds to build both boards (hardware/pcb: netlist, placement, routing, zone
fill, DRC, Gerbers, drill, assembly files) from scratch and with the routing plan kept, against
the goal for the test suite (both boards from scratch well under 120 s of CPU on the 2-core CI
machine). CPU of this process and its children (the KiCad build runs in a child), so a busy
machine does not inflate it. Prints figures, never pass/fail.
"""
from __future__ import annotations

import pathlib
import resource
import shutil
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from hardware.pcb import __main__ as pcb  # noqa: E402

GOAL_S = 120.0


def cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out, plans = pathlib.Path(tmp) / "out", pathlib.Path(tmp) / "plans"
        figures = {}
        for run in ("from scratch", "plan kept"):
            total = 0.0
            for name in ("box", "hub"):
                t0 = cpu()
                s = pcb.make(name, out, plans)
                spent = cpu() - t0
                total += spent
                print(f"{name} {run}: {spent:.1f} s CPU; DRC {s['drc']['violations']} violations, "
                      f"{s['drc']['unconnected']} unconnected; {s['vias']} vias")
            figures[run] = total
            if run == "from scratch":
                shutil.rmtree(out)
        for run, total in figures.items():
            print(f"both boards {run}: {total:.1f} s CPU = {total / GOAL_S:.1%} of the {GOAL_S:g} s goal")


if __name__ == "__main__":
    main()
