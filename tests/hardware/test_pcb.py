"""The box and hub PCBs build from the schematic with KiCad, pass KiCad's DRC with nothing
unconnected, carry exactly the schematic's nets, and their Gerbers read back with an
independent reader (gerbonara) with the board outline and the holes expected."""
import pathlib

import gerbonara
import pytest

from hardware import schematic
from hardware.pcb import __main__ as pcb
from hardware.pcb import layout

BUILD = pathlib.Path(pcb.ROOT) / "build" / "pcb-test"


@pytest.fixture(scope="module", params=["box", "hub"])
def built(request):
    name = request.param
    return name, pcb.make(name, BUILD)


def test_drc_is_clean_and_nothing_is_unconnected(built):
    name, s = built
    assert s["drc"] == {"violations": 0, "unconnected": 0, "footprint_errors": 0}, \
        (BUILD / name / f"{name}-drc.rpt").read_text()
    assert s["routing"]["failed_nets"] == 0


def test_every_pad_carries_the_schematics_net(built):
    name, s = built
    board = schematic.BOARDS[name]()
    want = {f"{ref}.{pin}": net for net, members in board.nets.items() for ref, pin in members}
    got = {k: v for k, v in s["pads"].items() if v}
    assert got == want


def test_the_gerbers_read_back_with_the_outline_and_the_holes(built):
    name, s = built
    out = BUILD / name
    edge = gerbonara.GerberFile.open(out / f"{name}-Edge_Cuts.gbr")
    (x0, y0), (x1, y1) = edge.bounding_box(gerbonara.utils.MM)
    w, h = layout.LAYOUTS[name].size
    assert abs((x1 - x0) - w) < 0.2 and abs((y1 - y0) - h) < 0.2
    holes = 0
    for drl in out.glob("*.drl"):
        holes += len(gerbonara.ExcellonFile.open(drl).drills())
    assert holes == s["pad_holes"] + s["vias"]
    copper = gerbonara.GerberFile.open(out / f"{name}-F_Cu.gbr")
    assert len(copper.objects) > 100
