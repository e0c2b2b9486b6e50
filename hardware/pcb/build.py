"""Lay out, route and check one board with KiCad's own Python module, and write what a board
house takes: Gerbers, Excellon drill files, the pick-and-place file and the KiCad board.

Runs under the interpreter KiCad's `pcbnew` module was built for (Debian's /usr/bin/python3),
not the project's venv: `python -m hardware.pcb` (the `make pcb` target) calls it as
`/usr/bin/python3 -m hardware.pcb.build BOARD NETLIST OUTDIR`. The netlist is the one
hardware/schematic.py writes (the single source: schematic.py reads pinmap.json); footprints
come from footprints.py, placement from layout.py. It ends by writing OUTDIR/BOARD-summary.json:
KiCad's DRC figures, the board's size, the holes drilled, and every pad's net as the board has it.
"""
from __future__ import annotations

import csv
import io
import json
import os
import pathlib
import re
import sys

import pcbnew

from hardware.pcb import autoroute, render, router
from hardware.pcb import footprints as fplib
from hardware.pcb import layout as lay
from hardware.pcb import netlist as nl

RULES = router.Rules()
GND = autoroute.GND
POWER = lay.POWER
MM = pcbnew.FromMM


def pt(x: float, y: float):
    return pcbnew.wxPoint(MM(x), MM(y))


# --- the board ------------------------------------------------------------------------------

def new_board() -> pcbnew.BOARD:
    board = pcbnew.BOARD()
    ds = board.GetDesignSettings()
    ds.SetCopperLayerCount(2)
    ds.m_MinClearance = MM(RULES.clearance)
    ds.m_TrackMinWidth = MM(RULES.signal)
    ds.m_ViasMinSize = MM(RULES.via)
    ds.m_MinThroughDrill = MM(0.3)
    ds.m_HoleClearance = MM(0.25)
    ds.m_HoleToHoleMin = MM(0.25)
    ds.m_CopperEdgeClearance = MM(RULES.edge)
    nc = ds.GetNetClasses().GetDefault()
    nc.SetClearance(MM(RULES.clearance))
    nc.SetTrackWidth(MM(RULES.signal))
    nc.SetViaDiameter(MM(RULES.via))
    nc.SetViaDrill(MM(0.3))
    return board


def outline(board, layout: lay.BoardLayout) -> None:
    pts = layout.outline
    for a, b in zip(pts, pts[1:] + pts[:1], strict=True):
        seg = pcbnew.PCB_SHAPE(board)
        seg.SetShape(pcbnew.SHAPE_T_SEGMENT)
        seg.SetLayer(pcbnew.Edge_Cuts)
        seg.SetWidth(MM(0.1))
        seg.SetStart(pt(*a))
        seg.SetEnd(pt(*b))
        board.Add(seg)


def _rect(fp, layer, box, width) -> None:
    x0, y0, x1, y1 = box
    for a, b in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
        s = pcbnew.FP_SHAPE(fp)
        s.SetShape(pcbnew.SHAPE_T_SEGMENT)
        s.SetLayer(layer)
        s.SetWidth(MM(width))
        s.SetStart0(pt(*a))
        s.SetEnd0(pt(*b))
        s.SetDrawCoord()
        fp.Add(s)


def footprint(board, ref: str, value: str, spec: fplib.Footprint, place: lay.Place, nets: dict[tuple[str, str], object]):
    fp = pcbnew.FOOTPRINT(board)
    fp.SetFPID(pcbnew.LIB_ID("bidbox", spec.name))
    fp.SetReference(ref)
    fp.SetValue(value)
    for text in (fp.Reference(), fp.Value()):
        text.SetLayer(pcbnew.F_Fab)
        text.SetTextSize(pcbnew.wxSizeMM(0.8, 0.8))
        text.SetTextThickness(MM(0.12))
        text.SetPos0(pt(0, 0))
        text.SetDrawCoord()
    fp.Value().SetVisible(False)
    smd = all(p.kind == "smd" for p in spec.pads)
    fp.SetAttributes(pcbnew.FP_SMD if smd else pcbnew.FP_THROUGH_HOLE)
    if not spec.pads or spec.name.startswith(fplib.PCB_ONLY):
        # copper only (fixing holes, pads for wires or a module's header): nothing to place
        fp.SetAttributes(fp.GetAttributes() | pcbnew.FP_EXCLUDE_FROM_POS_FILES | pcbnew.FP_EXCLUDE_FROM_BOM)
    for p in spec.pads:
        pad = pcbnew.PAD(fp)
        pad.SetNumber(p.number)
        pad.SetSize(pcbnew.wxSizeMM(p.w, p.h))
        shape = {"rect": pcbnew.PAD_SHAPE_RECT, "roundrect": pcbnew.PAD_SHAPE_ROUNDRECT,
                 "circle": pcbnew.PAD_SHAPE_CIRCLE, "oval": pcbnew.PAD_SHAPE_OVAL}[p.shape]
        pad.SetShape(shape)
        if p.shape == "roundrect":
            pad.SetRoundRectRadiusRatio(0.25)
        if p.kind == "smd":
            pad.SetAttribute(pcbnew.PAD_ATTRIB_SMD)
            pad.SetLayerSet(pad.SMDMask())
        elif p.kind == "tht":
            pad.SetAttribute(pcbnew.PAD_ATTRIB_PTH)
            pad.SetLayerSet(pad.PTHMask())
            pad.SetDrillSize(pcbnew.wxSizeMM(p.drill, p.drill))
        else:
            pad.SetAttribute(pcbnew.PAD_ATTRIB_NPTH)
            pad.SetLayerSet(pad.UnplatedHoleMask())
            pad.SetDrillSize(pcbnew.wxSizeMM(p.drill, p.drill))
        pad.SetPos0(pt(p.x, p.y))
        pad.SetPosition(pt(p.x, p.y))
        if (ref, p.number) in nets:
            pad.SetNet(nets[(ref, p.number)])
        fp.Add(pad)
    _rect(fp, pcbnew.F_CrtYd, spec.courtyard, 0.05)
    _rect(fp, pcbnew.F_Fab, spec.courtyard, 0.1)
    fp.SetPosition(pt(place.x, place.y))
    if place.rot:
        fp.SetOrientationDegrees(place.rot)
    if place.side == "B":
        fp.Flip(fp.GetPosition(), True)
    board.Add(fp)
    return fp


# --- routing --------------------------------------------------------------------------------

def _shape_of(pad, net_id: int) -> router.Shape:
    bb = pad.GetBoundingBox()
    x, y = pcbnew.ToMM(pad.GetPosition().x), pcbnew.ToMM(pad.GetPosition().y)
    hw, hh = pcbnew.ToMM(bb.GetWidth()) / 2, pcbnew.ToMM(bb.GetHeight()) / 2
    layers = tuple(i for i, layer in enumerate((pcbnew.F_Cu, pcbnew.B_Cu)) if pad.IsOnLayer(layer))
    if pad.GetAttribute() == pcbnew.PAD_ATTRIB_NPTH:
        r = pcbnew.ToMM(pad.GetDrillSize().x) / 2 + 0.1
        return router.Shape(router.BLOCKED, (0, 1), "circle", x, y, r=r)
    if pad.GetShape() == pcbnew.PAD_SHAPE_CIRCLE:
        return router.Shape(net_id, layers, "circle", x, y, r=hw)
    return router.Shape(net_id, layers, "rect", x, y, hw=hw, hh=hh)


def add_track(board, net, route: router.Route) -> None:
    for (xa, ya, la), (xb, yb, lb) in zip(route.points, route.points[1:], strict=False):
        if la != lb or (xa, ya) == (xb, yb):
            continue
        t = pcbnew.PCB_TRACK(board)
        t.SetStart(pt(xa, ya))
        t.SetEnd(pt(xb, yb))
        t.SetWidth(MM(route.width))
        t.SetLayer(pcbnew.F_Cu if la == 0 else pcbnew.B_Cu)
        t.SetNet(net)
        board.Add(t)
    for x, y in route.vias:
        add_via(board, net, x, y)


def add_via(board, net, x: float, y: float) -> None:
    v = pcbnew.PCB_VIA(board)
    v.SetPosition(pt(x, y))
    v.SetWidth(MM(RULES.via))
    v.SetDrill(MM(0.3))
    v.SetViaType(pcbnew.VIATYPE_THROUGH)
    v.SetLayerPair(pcbnew.F_Cu, pcbnew.B_Cu)
    v.SetNet(net)
    board.Add(v)


# routing plans kept between runs, named by autoroute.key (PCB_PLAN_CACHE moves them: the tests
# plan from scratch in a folder of their own)
CACHE = pathlib.Path(os.environ.get("PCB_PLAN_CACHE", pathlib.Path(__file__).resolve().parents[2] / "build" / "pcb-cache"))


def route_board(board, layout: lay.BoardLayout, netinfo: dict[str, object]) -> dict:
    """Route the board (autoroute.py) or take the plan kept from a run with the same inputs,
    and add its tracks and vias to the board."""
    names = list(netinfo)
    ids = {name: i for i, name in enumerate(names)}
    pads, holes = [], []
    for fp in sorted(board.GetFootprints(), key=lambda f: f.GetReference()):
        for pad in sorted(fp.Pads(), key=lambda p: p.GetNumber()):
            shape = _shape_of(pad, ids.get(pad.GetNetname(), router.BLOCKED))
            pads.append((pad.GetNetname(), shape))
            if pad.GetDrillSize().x > 0:
                holes.append((shape.x, shape.y, pcbnew.ToMM(pad.GetDrillSize().x)))
    args = (layout.size, layout.outline, names, pads, holes, POWER, RULES)
    cached = CACHE / f"{layout.name}-{autoroute.key(*args)}.json"
    if cached.exists():
        result = autoroute.Plan.from_json(cached.read_text())
        reused = True
    else:
        result = autoroute.plan(*args)
        reused = False
        if not result.failed:
            CACHE.mkdir(parents=True, exist_ok=True)
            cached.write_text(result.to_json())
    for r in result.routes:
        add_track(board, netinfo[names[r.net]], r)
    for x, y in result.stitches:
        add_via(board, netinfo[GND], x, y)
    return {"routed_nets": result.nets - len(result.failed), "failed_nets": len(result.failed),
            "failed": result.failed, "attempts": result.attempts, "stitching_vias": len(result.stitches),
            "plan": cached.name, "reused": reused}


def ground_zones(board, layout: lay.BoardLayout, gnd) -> None:
    for layer in (pcbnew.F_Cu, pcbnew.B_Cu):
        z = pcbnew.ZONE(board)
        z.SetLayer(layer)
        z.SetNet(gnd)
        z.SetLocalClearance(MM(0.3))
        z.SetMinThickness(MM(0.25))
        z.SetThermalReliefGap(MM(0.3))
        z.SetThermalReliefSpokeWidth(MM(0.4))
        z.SetPadConnection(pcbnew.ZONE_CONNECTION_THT_THERMAL)
        z.SetIslandRemovalMode(pcbnew.ISLAND_REMOVAL_MODE_ALWAYS)
        ol = z.Outline()
        ol.NewOutline()
        for x, y in layout.outline:
            ol.Append(MM(x), MM(y))
        board.Add(z)


# --- checks and outputs ---------------------------------------------------------------------

def drc(board, path: pathlib.Path) -> dict[str, int]:
    pcbnew.WriteDRCReport(board, str(path), pcbnew.EDA_UNITS_MILLIMETRES, True)
    text = path.read_text()
    found = {k: int(v) for v, k in re.findall(r"\*\* Found (\d+) (DRC violations|unconnected pads|Footprint errors)", text)}
    return {"violations": found.get("DRC violations", -1), "unconnected": found.get("unconnected pads", -1),
            "footprint_errors": found.get("Footprint errors", 0)}


def _loose_vias(report: pathlib.Path) -> set[tuple[float, float]]:
    """Ground vias the DRC report names as dangling or as an unconnected item."""
    found = set()
    for block in report.read_text().split("\n["):
        if block.startswith(("via_dangling", "unconnected_items")):
            for x, y in re.findall(r"@\(([-\d.]+) mm, ([-\d.]+) mm\): Via \[GND\]", block):
                found.add((round(float(x), 3), round(float(y), 3)))
    return found


GERBER_LAYERS = (("F_Cu", "F.Cu"), ("B_Cu", "B.Cu"), ("F_Mask", "F.Mask"), ("B_Mask", "B.Mask"),
                 ("F_Paste", "F.Paste"), ("B_Paste", "B.Paste"), ("F_SilkS", "F.SilkS"),
                 ("B_SilkS", "B.SilkS"), ("Edge_Cuts", "Edge.Cuts"), ("F_Fab", "F.Fab"), ("B_Fab", "B.Fab"))


def plot(board, out: pathlib.Path, name: str, height: float) -> list[str]:
    """Gerbers and Excellon files with their origin at the board's lower-left corner, as the
    pick-and-place file has it: the three line up wherever a board house puts them."""
    pc = pcbnew.PLOT_CONTROLLER(board)
    po = pc.GetPlotOptions()
    po.SetOutputDirectory(str(out))
    po.SetPlotFrameRef(False)
    po.SetUseGerberProtelExtensions(False)
    po.SetCreateGerberJobFile(True)
    po.SetUseGerberX2format(True)
    po.SetIncludeGerberNetlistInfo(True)
    po.SetSubtractMaskFromSilk(True)
    board.GetDesignSettings().SetAuxOrigin(pt(0.0, height))
    po.SetUseAuxOrigin(True)
    po.SetDrillMarksType(pcbnew.PCB_PLOT_PARAMS.NO_DRILL_SHAPE)
    written = []
    for attr, suffix in GERBER_LAYERS:
        pc.SetLayer(getattr(pcbnew, attr))
        pc.OpenPlotfile(suffix.replace(".", "_"), pcbnew.PLOT_FORMAT_GERBER, suffix)
        pc.PlotLayer()
        written.append(pc.GetPlotFileName())
    pc.ClosePlot()
    dw = pcbnew.EXCELLON_WRITER(board)
    dw.SetOptions(False, False, pt(0.0, height), False)
    dw.SetFormat(True)
    dw.CreateDrillandMapFilesSet(str(out), True, False)
    return [pathlib.Path(w).name for w in written]


def positions(board, out: pathlib.Path, name: str, height: float) -> None:
    """The pick-and-place file: centres in mm from the board's lower-left corner, y up (the
    board houses' convention; the board itself has y down from its top-left corner)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(("Designator", "Val", "Package", "Mid X", "Mid Y", "Rotation", "Layer"))
    for fp in sorted(board.GetFootprints(), key=lambda f: f.GetReference()):
        if fp.GetAttributes() & pcbnew.FP_EXCLUDE_FROM_POS_FILES:
            continue
        pos = fp.GetPosition()
        w.writerow((fp.GetReference(), fp.GetValue(), fp.GetFPID().GetLibItemName(),
                    f"{pcbnew.ToMM(pos.x):.3f}", f"{height - pcbnew.ToMM(pos.y):.3f}",
                    f"{fp.GetOrientationDegrees() % 360:.1f}", "bottom" if fp.IsFlipped() else "top"))
    (out / f"{name}-pos.csv").write_text(buf.getvalue())


def build(name: str, netlist_path: pathlib.Path, out: pathlib.Path) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    layout = lay.LAYOUTS[name]
    board, netinfo = place(nl.read(netlist_path.read_text()), layout)
    routing = route_board(board, layout, netinfo)
    print("routed", routing, file=sys.stderr, flush=True)
    if GND in netinfo:
        ground_zones(board, layout, netinfo[GND])
    pcb_file = out / f"{name}.kicad_pcb"
    pcbnew.SaveBoard(str(pcb_file), board)
    # KiCad's zone filler needs a board as KiCad loads it (connectivity built): filling the
    # board built above in memory crashes KiCad 6.0.
    board = pcbnew.LoadBoard(str(pcb_file))
    result, dropped = fill_and_check(board, out / f"{name}-drc.rpt")
    routing["stitching_vias"] -= dropped
    pcbnew.SaveBoard(str(pcb_file), board)
    gerbers = plot(board, out, name, layout.size[1])
    positions(board, out, name, layout.size[1])
    render.render(board, out / f"{name}.png")
    summary = {"board": name, "drc": result, "routing": routing, "gerbers": gerbers, **figures(board)}
    (out / f"{name}-summary.json").write_text(json.dumps(summary, indent=1, sort_keys=True))
    return summary


def place(net: nl.Netlist, layout: lay.BoardLayout) -> tuple[pcbnew.BOARD, dict[str, object]]:
    """A new board with the netlist's nets, every part where the layout puts it, the fixing
    holes, the outline and the title."""
    board = new_board()
    netinfo = {}
    for net_name in net.nets:
        ni = pcbnew.NETINFO_ITEM(board, net_name)
        board.Add(ni)
        netinfo[net_name] = ni
    pin_net = {k: netinfo[v] for k, v in net.pin_net().items()}
    placed = {}
    for ref, (value, fp_name) in net.components.items():
        placed[ref] = footprint(board, ref, value, fplib.FOOTPRINTS[fp_name], layout.places[ref], pin_net)
    for i, (x, y) in enumerate(layout.holes):
        footprint(board, f"H{i + 1}", "M3", fplib.FOOTPRINTS["MountingHole_3.2mm"], lay.Place(x, y), {})
    _check_placement(placed, net, layout)
    outline(board, layout)
    title = pcbnew.PCB_TEXT(board)
    title.SetText(layout.title)
    title.SetLayer(pcbnew.F_Fab)
    title.SetPosition(pt(layout.size[0] / 2, layout.size[1] - 1.0))
    board.Add(title)
    return board, netinfo


def fill_and_check(board, report: pathlib.Path) -> tuple[dict[str, int], int]:
    """Fill the planes and run the DRC. Stitching vias that the filled planes leave hanging (a
    plane cut off on one side by tracks) are taken out, and the planes filled again, until none
    is left. Returns the DRC figures and how many vias were taken out."""
    dropped = 0
    for _ in range(4):
        board.BuildConnectivity()
        pcbnew.ZONE_FILLER(board).Fill(board.Zones())
        result = drc(board, report)
        loose = _loose_vias(report)
        stitches = [v for v in board.GetTracks() if isinstance(v, pcbnew.PCB_VIA) and v.GetNetname() == GND
                    and (round(pcbnew.ToMM(v.GetPosition().x), 3), round(pcbnew.ToMM(v.GetPosition().y), 3)) in loose]
        if not stitches:
            break
        for v in stitches:
            board.Remove(v)
        dropped += len(stitches)
    return result, dropped


def figures(board) -> dict:
    """What the summary reports of the finished board: its size, holes, vias, tracks, every
    pad's net and place as the board has it, and the footprints flipped to the bottom."""
    vias = sum(1 for t in board.GetTracks() if isinstance(t, pcbnew.PCB_VIA))
    bb = board.GetBoardEdgesBoundingBox()
    return {"size_mm": [round(pcbnew.ToMM(bb.GetWidth()), 2), round(pcbnew.ToMM(bb.GetHeight()), 2)],
            "pad_holes": sum(1 for fp in board.GetFootprints() for p in fp.Pads() if p.GetDrillSize().x > 0),
            "vias": vias, "tracks": sum(1 for t in board.GetTracks()) - vias,
            "pads": {f"{fp.GetReference()}.{p.GetNumber()}": p.GetNetname()
                     for fp in board.GetFootprints() for p in fp.Pads() if p.GetNumber()},
            "pad_xy": {f"{fp.GetReference()}.{p.GetNumber()}": [round(pcbnew.ToMM(p.GetPosition().x), 4),
                                                                 round(pcbnew.ToMM(p.GetPosition().y), 4)]
                       for fp in board.GetFootprints() for p in fp.Pads() if p.GetNumber()},
            "bottom": sorted(fp.GetReference() for fp in board.GetFootprints() if fp.IsFlipped()),
            "footprints": len(board.GetFootprints())}


def _check_placement(placed, net: nl.Netlist, layout: lay.BoardLayout) -> None:
    """KiCad put each pad where layout.world says: the pure checks and the board agree."""
    for ref, fp in placed.items():
        spec = fplib.FOOTPRINTS[net.components[ref][1]]
        by_number = {pad.GetNumber(): pad for pad in fp.Pads()}
        for p in spec.pads:
            pad = by_number[p.number]
            want = lay.world(layout.places[ref], p.x, p.y)
            got = (pcbnew.ToMM(pad.GetPosition().x), pcbnew.ToMM(pad.GetPosition().y))
            if abs(want[0] - got[0]) > 1e-3 or abs(want[1] - got[1]) > 1e-3:
                raise AssertionError(f"{ref} pad {p.number}: layout says {want}, KiCad put it at {got}")


if __name__ == "__main__":
    board_name, net_path, out_dir = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3]).resolve()
    s = build(board_name, net_path, out_dir)
    print(json.dumps({k: s[k] for k in ("board", "drc", "routing", "size_mm", "pad_holes", "vias")}))
