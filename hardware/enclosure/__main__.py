"""`python -m hardware.enclosure --out build/enclosure --docs docs` (`make enclosure`): the printed
parts as STEP and STL, the whole box as one STEP assembly, the fit report, the views and the
key-legend sheets.

build/enclosure/: lid.step lid.stl base.step base.stl (print these), box.step (every part placed,
named and coloured), fit.txt (check.py's report). docs/: enclosure.png (closed), enclosure-exploded.png,
enclosure-section.png (cut through the gland, the display and a key column), key-legends-LANG.svg
and .pdf (legends.py).
"""
from __future__ import annotations

import argparse
import datetime
import pathlib
import sys

import numpy as np
from build123d import Solid, export_step, export_stl

from hardware.enclosure import check, design, legends, model, render

# STEP files carry a date: a fixed one keeps a rebuild from a clean tree byte for byte the same
STAMP = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
MESH = 0.05          # mm: the STL's chord tolerance (a printer's layer is 0.2)


def _mesh(solids: dict[str, Solid], offsets: dict[str, float] | None = None, tolerance: float = 0.2):
    out = []
    for name, solid in solids.items():
        verts, faces = solid.tessellate(tolerance, 0.3)
        v = np.array([[q.X, q.Y, q.Z] for q in verts], float)
        if offsets and name.split()[0] in offsets:
            v[:, 2] += offsets[name.split()[0]]
        out.append((v, np.array(faces, int).reshape(-1, 3), model.colour(name)))
    return out


def _section(solids: dict[str, Solid], x: float) -> dict[str, Solid]:
    """Every part cut at the plane x = `x`, the half towards -x kept."""
    x0, y0, x1, y1 = design.OUTSIDE
    keep = model.block(x0 - 50, y0 - 50, design.BOTTOM - 10, x, y1 + 80, design.CAP_TOP + 10)
    out = {}
    for name, solid in solids.items():
        bb = solid.bounding_box()
        if bb.min.X >= x:
            continue
        cut = solid if bb.max.X <= x else solid.intersect(keep)
        if cut is not None:
            out[name] = check.one(cut)
    return out


def build(out: pathlib.Path, docs: pathlib.Path | None) -> list[check.Check]:
    out.mkdir(parents=True, exist_ok=True)
    a = model.assembly()
    for name in ("lid", "base"):
        export_step(a.solids[name], out / f"{name}.step", timestamp=STAMP)
        export_stl(a.solids[name], out / f"{name}.stl", tolerance=MESH, angular_tolerance=0.2)
    export_step(a.compound(), out / "box.step", timestamp=STAMP)
    checks = check.all_checks(a)
    (out / "fit.txt").write_text("\n".join(str(c) for c in checks) + "\n")
    if docs is not None:
        docs.mkdir(parents=True, exist_ok=True)
        render.draw(_mesh(a.solids), (-0.9, -1.5, 1.3)).save(docs / "enclosure.png", optimize=True)
        # the lid with what is fixed to it (the gland, its nut, the cable, the inserts) lifted off,
        # the base with its screws lowered: the PCB with its parts between
        up = {"lid": 45.0, "gland": 45.0, "nut": 45.0, "cable": 45.0, "insert": 45.0, "base": -22.0, "screw": -22.0}
        render.draw(_mesh(a.solids, up), (-0.9, -1.5, 1.5), 1000, 1000).save(docs / "enclosure-exploded.png",
                                                                            optimize=True)
        render.draw(_mesh(_section(a.solids, design.GLAND_X)), (1.0, 0.0, 0.0), 1400, 300).save(
            docs / "enclosure-section.png", optimize=True)
        legends.write_all(docs)
    return checks


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m hardware.enclosure", description=__doc__)
    ap.add_argument("--out", type=pathlib.Path, default=pathlib.Path("build/enclosure"))
    ap.add_argument("--docs", type=pathlib.Path, default=None, help="also write the views and legend sheets here")
    args = ap.parse_args(argv)
    checks = build(args.out, args.docs)
    for c in checks:
        print(c)
    for (a, b), why in check.KNOWN_CLASHES.items():
        print(f"known on the PCB: {a} and {b}: {why}")
    return 0 if all(c.ok for c in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
