"""The box and hub PCBs build from the schematic with KiCad, pass KiCad's DRC with nothing
unconnected, carry exactly the schematic's nets, and what goes to the board house agrees with
the schematic: Gerbers and drill files read back with an independent reader (gerbonara) with the
board outline and the holes expected, every fitted part in the assembly bill and in the
pick-and-place file. Each board is routed from scratch here, twice: the same plan both times."""
import csv
import pathlib
import shutil

import gerbonara
import pytest

from hardware import bom, schematic
from hardware.pcb import __main__ as pcb
from hardware.pcb import layout
from hardware.pcb.footprints import FOOTPRINTS

pytestmark = pytest.mark.slow  # builds and routes the boards with KiCad: minutes

BUILD = pathlib.Path(pcb.ROOT) / "build" / "pcb-test"


@pytest.fixture(scope="module", params=["box", "hub"])
def built(request):
    name = request.param
    plans = BUILD / f"plans-{name}"
    shutil.rmtree(plans, ignore_errors=True)
    return name, pcb.make(name, BUILD, plans)


def test_drc_is_clean_and_nothing_is_unconnected(built):
    name, s = built
    assert s["drc"] == {"violations": 0, "unconnected": 0, "footprint_errors": 0}, \
        (BUILD / name / f"{name}-drc.rpt").read_text()
    assert s["routing"]["failed_nets"] == 0 and not s["routing"]["reused"]


def test_every_pad_carries_the_schematics_net(built):
    name, s = built
    board = schematic.BOARDS[name]()
    want = {f"{ref}.{pin}": net for net, members in board.nets.items() for ref, pin in members}
    got = {k: v for k, v in s["pads"].items() if v}
    assert got == want


def test_routing_again_from_scratch_gives_the_same_plan(built):
    name, s = built
    again = BUILD / f"plans-{name}-again"
    shutil.rmtree(again, ignore_errors=True)
    second = pcb.make(name, BUILD / "again", again)
    assert second["routing"]["plan"] == s["routing"]["plan"]
    first_plan = (BUILD / f"plans-{name}" / s["routing"]["plan"]).read_text()
    assert (again / second["routing"]["plan"]).read_text() == first_plan
    # and a third build with the plan kept does not route at all
    third = pcb.make(name, BUILD / "again", again)
    assert third["routing"]["reused"] and third["drc"] == s["drc"]


def test_the_parts_fitted_from_below_are_flipped_and_mirrored(built):
    """Every part the layout puts on the bottom (the box's Pico, diodes, resistors, and the jumper
    headers J2 and J3, which stand 8.5 mm with their shunts) is flipped in the finished board,
    each pad where the layout's mirror puts it: pin 1 of J2 and J3 on the other side of the
    part's centre than on top, the same holes drilled either way."""
    name, s = built
    lay = layout.LAYOUTS[name]
    parts = schematic.BOARDS[name]().parts
    bottom = {ref for ref in parts if lay.places[ref].side == "B"}
    assert set(s["bottom"]) == bottom
    if name == "box":
        assert {"J2", "J3"} <= bottom
    for ref in bottom:
        place = lay.places[ref]
        for pad in FOOTPRINTS[parts[ref].footprint].pads:
            got = s["pad_xy"][f"{ref}.{pad.number}"]
            assert got == pytest.approx(layout.world(place, pad.x, pad.y), abs=1e-3), (ref, pad.number)
            if not place.rot:  # mirrored left-right about the part's centre
                assert got[0] == pytest.approx(place.x - pad.x, abs=1e-3), (ref, pad.number)


# KiCad's Excellon writer puts G90 and G05 (absolute, drill mode) just after the header's end;
# gerbonara reads them all the same and says so
@pytest.mark.filterwarnings("ignore:.*header statement found after end of header:SyntaxWarning")
def test_the_gerbers_read_back_with_the_outline_and_the_holes(built):
    name, s = built
    out = BUILD / name
    edge = gerbonara.GerberFile.open(out / f"{name}-Edge_Cuts.gbr")
    (x0, y0), (x1, y1) = edge.bounding_box(gerbonara.utils.MM)
    w, h = layout.LAYOUTS[name].size
    # the outline's own line width (0.1 mm) on either side; the origin at the lower-left corner,
    # as the pick-and-place file has it
    assert abs((x1 - x0) - w) < 0.2 and abs((y1 - y0) - h) < 0.2
    assert abs(x0) < 0.1 and abs(y0) < 0.1
    drills = [d for drl in out.glob("*.drl") for d in gerbonara.ExcellonFile.open(drl).drills()]
    assert all(-0.1 < d.x < w + 0.1 and -0.1 < d.y < h + 0.1 for d in drills)
    holes = sum(len(list(gerbonara.ExcellonFile.open(drl).drills())) for drl in out.glob("*.drl"))
    assert holes == s["pad_holes"] + s["vias"]
    for layer in ("F_Cu", "B_Cu"):
        copper = gerbonara.GerberFile.open(out / f"{name}-{layer}.gbr")
        assert len(copper.objects) > 100


def _fitted(name: str) -> set[str]:
    return {ref for ref, part in schematic.BOARDS[name]().parts.items() if not bom.pads_only(part.footprint)}


def test_the_assembly_bill_and_the_pick_and_place_file_name_every_fitted_part_once(built):
    name, _ = built
    with (BUILD / name / f"{name}-bom.csv").open() as f:
        rows = list(csv.DictReader(f))
    on_bill = [ref for row in rows for ref in row["Designator"].split()]
    assert len(on_bill) == len(set(on_bill)) and set(on_bill) == _fitted(name)
    assert all(int(row["Quantity"]) == len(row["Designator"].split()) and row["MPN"] for row in rows)
    with (BUILD / name / f"{name}-pos.csv").open() as f:
        placed = {row["Designator"]: row for row in csv.DictReader(f)}
    assert set(placed) == _fitted(name)
    height = layout.LAYOUTS[name].size[1]
    for ref, row in placed.items():
        want = layout.LAYOUTS[name].places[ref]
        # y up from the lower-left corner
        assert (float(row["Mid X"]), height - float(row["Mid Y"])) == pytest.approx((want.x, want.y), abs=1e-3)
        assert row["Layer"] == ("bottom" if want.side == "B" else "top")
