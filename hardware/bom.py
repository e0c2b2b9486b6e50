"""hardware/bom.csv as data: one line per part kind, `refs` names every placed reference."""
from __future__ import annotations

import csv
import pathlib
import re
from dataclasses import dataclass

BOM_CSV = pathlib.Path(__file__).resolve().parent / "bom.csv"
FIELDS = ("assembly", "refs", "qty", "description", "value", "manufacturer", "mpn", "package", "note",
          "dimensions", "dimension_source")
# Parts on the bill but not on a board's schematic: mechanics (the enclosure, the cable gland and
# its nut, screws, inserts, key caps), the cable, the adapter, the display module (its header
# soldered into J4, whose pads stand for it) and the hub's panel connectors (X1-X4, wired to the
# pads J3-J6).
OFF_BOARD = ("ENC", "KC", "JP", "PSU", "W", "DS", "X", "GL", "NUT", "SCR", "INS")
# What a line's dimension_source says when a figure was not read from the maker's document.
TO_CONFIRM = "to be confirmed: "


@dataclass(frozen=True)
class Line:
    assembly: str
    refs: tuple[str, ...]
    qty: int
    description: str
    value: str
    manufacturer: str
    mpn: str
    package: str
    note: str
    dimensions: str          # the figures used (mm): outline, height, what the enclosure relies on
    dimension_source: str    # the document they come from, and/or "to be confirmed: " what to check


def expand(refs: str) -> tuple[str, ...]:
    """'SW1-SW22 SW25' -> ('SW1', ..., 'SW22', 'SW25'). A range keeps one prefix."""
    out: list[str] = []
    for item in refs.split():
        m = re.fullmatch(r"([A-Z]+)(\d+)-([A-Z]+)(\d+)", item)
        if m:
            if m.group(1) != m.group(3) or int(m.group(2)) > int(m.group(4)):
                raise ValueError(f"bad reference range {item!r}")
            out += [f"{m.group(1)}{n}" for n in range(int(m.group(2)), int(m.group(4)) + 1)]
        elif re.fullmatch(r"[A-Z]+\d+", item):
            out.append(item)
        else:
            raise ValueError(f"bad reference {item!r}")
    return tuple(out)


def load(path: pathlib.Path = BOM_CSV) -> list[Line]:
    with path.open(newline="") as f:
        reader = csv.DictReader(f)
        if tuple(reader.fieldnames or ()) != FIELDS:
            raise ValueError(f"{path}: columns must be {FIELDS}")
        return [Line(row["assembly"], expand(row["refs"]), int(row["qty"]),
                     *(row[k].strip() for k in FIELDS[3:])) for row in reader]


def by_ref(lines: list[Line], assembly: str) -> dict[str, Line]:
    out: dict[str, Line] = {}
    for line in lines:
        if line.assembly != assembly:
            continue
        for ref in line.refs:
            if ref in out:
                raise ValueError(f"{assembly} {ref} is on two BOM lines")
            out[ref] = line
    return out


def pads_only(footprint: str) -> bool:
    """A schematic part that is only copper on the PCB (pads for wires or a module's header):
    nothing to order for it, and no line on the bill."""
    from hardware.pcb.footprints import PCB_ONLY
    return footprint.startswith(PCB_ONLY)


def is_off_board(ref: str) -> bool:
    return re.match(r"[A-Z]+", ref).group(0) in OFF_BOARD  # type: ignore[union-attr]
