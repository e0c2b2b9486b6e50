"""A picture of a finished board (docs/pcb-*.png): both copper layers, planes, pads, holes and
the outline, drawn from the KiCad board itself. Runs beside build.py under KiCad's Python."""
from __future__ import annotations

import pathlib

import pcbnew
from PIL import Image, ImageDraw

SCALE = 8                      # pixels per mm
COLOURS = {"board": (18, 60, 32), "B_plane": (30, 70, 130), "F_plane": (150, 60, 40),
           "B": (70, 130, 220), "F": (230, 110, 70), "pad": (212, 175, 55), "hole": (10, 10, 10),
           "edge": (240, 240, 200), "text": (255, 255, 255)}


def _poly_points(chain, ox: float, oy: float) -> list[tuple[float, float]]:
    return [((pcbnew.ToMM(chain.CPoint(k).x) - ox) * SCALE, (pcbnew.ToMM(chain.CPoint(k).y) - oy) * SCALE)
            for k in range(chain.PointCount())]


def render(board: pcbnew.BOARD, path: pathlib.Path, margin: float = 2.0) -> None:
    bb = board.GetBoardEdgesBoundingBox()
    ox, oy = pcbnew.ToMM(bb.GetX()) - margin, pcbnew.ToMM(bb.GetY()) - margin
    w, h = pcbnew.ToMM(bb.GetWidth()) + 2 * margin, pcbnew.ToMM(bb.GetHeight()) + 2 * margin
    img = Image.new("RGB", (int(w * SCALE), int(h * SCALE)), (235, 235, 235))
    draw = ImageDraw.Draw(img, "RGBA")
    P = lambda p: ((pcbnew.ToMM(p.x) - ox) * SCALE, (pcbnew.ToMM(p.y) - oy) * SCALE)  # noqa: E731
    edge = board.GetBoardPolygonOutlines if hasattr(board, "GetBoardPolygonOutlines") else None
    outline = pcbnew.SHAPE_POLY_SET()
    if edge is not None and board.GetBoardPolygonOutlines(outline):
        for i in range(outline.OutlineCount()):
            draw.polygon(_poly_points(outline.Outline(i), ox, oy), fill=COLOURS["board"])
    for layer, key, alpha in ((pcbnew.B_Cu, "B_plane", 150), (pcbnew.F_Cu, "F_plane", 110)):
        for zone in board.Zones():
            if not zone.IsOnLayer(layer):
                continue
            polys = zone.GetFilledPolysList(layer)
            for i in range(polys.OutlineCount()):
                draw.polygon(_poly_points(polys.Outline(i), ox, oy), fill=(*COLOURS[key], alpha))
                for k in range(polys.HoleCount(i)):
                    draw.polygon(_poly_points(polys.Hole(i, k), ox, oy), fill=COLOURS["board"])
    for layer, key in ((pcbnew.B_Cu, "B"), (pcbnew.F_Cu, "F")):
        for t in board.GetTracks():
            if isinstance(t, pcbnew.PCB_VIA) or t.GetLayer() != layer:
                continue
            draw.line([P(t.GetStart()), P(t.GetEnd())], fill=COLOURS[key], width=max(1, int(pcbnew.ToMM(t.GetWidth()) * SCALE)))
    for fp in board.GetFootprints():
        for pad in fp.Pads():
            bbox = pad.GetBoundingBox()
            x0, y0 = P(bbox.GetOrigin())
            x1, y1 = P(bbox.GetEnd())
            colour = COLOURS["pad"] if pad.IsOnLayer(pcbnew.F_Cu) else (180, 150, 90)
            if pad.GetAttribute() == pcbnew.PAD_ATTRIB_NPTH:
                draw.ellipse([x0, y0, x1, y1], fill=(200, 200, 200))
            elif pad.GetShape() == pcbnew.PAD_SHAPE_CIRCLE:
                draw.ellipse([x0, y0, x1, y1], fill=colour)
            else:
                draw.rectangle([x0, y0, x1, y1], fill=colour)
            if pad.GetDrillSize().x > 0:
                cx, cy = P(pad.GetPosition())
                r = pcbnew.ToMM(pad.GetDrillSize().x) / 2 * SCALE
                draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=COLOURS["hole"])
        cx, cy = P(fp.GetPosition())
        draw.text((cx + 3, cy - 12), fp.GetReference(), fill=COLOURS["text"])
    for t in board.GetTracks():
        if isinstance(t, pcbnew.PCB_VIA):
            cx, cy = P(t.GetPosition())
            r = pcbnew.ToMM(t.GetWidth()) / 2 * SCALE
            draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(200, 200, 200))
            r = 0.15 * SCALE
            draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=COLOURS["hole"])
    img.save(path, optimize=True)
