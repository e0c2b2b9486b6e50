"""The bill a board house assembles from (BOARD-bom.csv beside the Gerbers): one row per part
kind fitted on the PCB, from the schematic's references and footprints and hardware/bom.csv's
makers and part numbers. Pads-only parts (wires, a module's header) have nothing to fit and are
left out, as they are from the pick-and-place file build.py writes."""
from __future__ import annotations

import csv
import io

from hardware import bom, schematic

HEADER = ("Comment", "Designator", "Footprint", "Manufacturer", "MPN", "Quantity")


def rows(name: str) -> list[tuple[str, str, str, str, str, int]]:
    board = schematic.BOARDS[name]()
    lines = bom.by_ref(bom.load(), name)
    groups: dict[tuple[str, str, str, str], list[str]] = {}
    for ref, part in board.parts.items():
        if bom.pads_only(part.footprint):
            continue
        line = lines[ref]      # every fitted part is on the bill (tests/hardware/test_bom.py)
        groups.setdefault((line.value, part.footprint, line.manufacturer, line.mpn), []).append(ref)
    out = []
    for (value, footprint, maker, mpn), refs in groups.items():
        refs.sort(key=lambda r: (r.rstrip("0123456789"), int(r[len(r.rstrip("0123456789")):])))
        out.append((value, " ".join(refs), footprint, maker, mpn, len(refs)))
    return sorted(out, key=lambda r: r[1])


def csv_text(name: str) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(HEADER)
    w.writerows(rows(name))
    return buf.getvalue()
