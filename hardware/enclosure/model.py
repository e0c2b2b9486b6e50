"""The enclosure and everything in it as solids (build123d on OpenCascade).

`lid()` and `base()` are the two printed parts; `assembly()` places them with the PCB, the
switches and their caps, the display module, the Pico, the LEDs, the buzzer, the jumper headers,
every other part as a block over its courtyard, the cable gland with its locknut and the cable,
and the four screws with their inserts. Every dimension comes from design.py (which derives it
from hardware/pcb/layout.py and parts.py); nothing here is a number of its own but a shape's
detail (a chamfer's size, how far a cut runs past a face so that it goes through).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from build123d import Axis, Color, Compound, Face, Plane, Pos, Solid, Vector, Wire

from hardware.enclosure import design as d
from hardware.enclosure import parts as p
from hardware.pcb.footprints import FOOTPRINTS

THROUGH = 0.5     # a hole's cut runs this far past both faces (no face left at zero thickness)


# --- primitives ---------------------------------------------------------------------------------

def block(x0: float, y0: float, z0: float, x1: float, y1: float, z1: float) -> Solid:
    return Pos(x0, y0, z0) * Solid.make_box(x1 - x0, y1 - y0, z1 - z0)


def centred(cx: float, cy: float, w: float, h: float, z0: float, z1: float) -> Solid:
    return block(cx - w / 2, cy - h / 2, z0, cx + w / 2, cy + h / 2, z1)


def rod(cx: float, cy: float, z0: float, z1: float, dia: float) -> Solid:
    return Pos(cx, cy, z0) * Solid.make_cylinder(dia / 2, z1 - z0)


def cone(cx: float, cy: float, z0: float, z1: float, d0: float, d1: float) -> Solid:
    return Pos(cx, cy, z0) * Solid.make_cone(d0 / 2, d1 / 2, z1 - z0)


def along_y(cx: float, cz: float, y0: float, y1: float, dia: float) -> Solid:
    """A cylinder on an axis parallel to y (the gland's), from y0 to y1."""
    return Solid.make_cylinder(dia / 2, y1 - y0, Plane(origin=(cx, y0, cz), z_dir=(0, 1, 0)))


def hex_along_y(cx: float, cz: float, y0: float, y1: float, af: float) -> Solid:
    """A hexagonal prism on an axis parallel to y, flats at the top and the bottom."""
    r = af / math.sqrt(3)
    pts = [Vector(cx + r * math.cos(math.radians(a)), y0, cz + r * math.sin(math.radians(a)))
           for a in range(0, 360, 60)]
    return Solid.extrude(Face(Wire.make_polygon(pts, close=True)), Vector(0, y1 - y0, 0))


# --- the printed parts --------------------------------------------------------------------------

def shell() -> Solid:
    """The lid without its bosses and openings: plate and walls, the vertical edges rounded."""
    x0, y0, x1, y1 = d.OUTSIDE
    outer = block(x0, y0, d.BOTTOM, x1, y1, d.LID_TOP)
    outer = outer.fillet(d.CORNER, outer.edges().filter_by(Axis.Z))
    ix0, iy0, ix1, iy1 = d.INSIDE
    return outer.cut(block(ix0, iy0, d.BOTTOM - THROUGH, ix1, iy1, d.LID_UNDER))


def key_hole(ref: str) -> Solid:
    x, y = d.key_centre(ref)
    side = p.KEYCAP.side + 2 * d.KEY_HOLE_GAP
    return centred(x, y, side, side, d.LID_UNDER - THROUGH, d.LID_TOP + THROUGH)


def window() -> Solid:
    """The display window with a chamfer round its top edge."""
    x, y = d.DISPLAY_XY
    w, h = d.WINDOW
    c = d.BEZEL_CHAMFER
    straight = centred(x, y, w, h, d.LID_UNDER - THROUGH, d.LID_TOP + THROUGH)
    z0 = d.LID_TOP - c
    tapered = Solid.make_loft([Wire.make_rect(w, h, Plane(origin=(x, y, z0))),
                               Wire.make_rect(w + 2 * (c + THROUGH), h + 2 * (c + THROUGH),
                                              Plane(origin=(x, y, d.LID_TOP + THROUGH)))])
    return straight.fuse(tapered)


def boss_hole(x: float, y: float) -> list[Solid]:
    return [rod(x, y, d.PCB_TOP - THROUGH, d.INSERT_TOP, p.INSERT.outside),
            rod(x, y, d.INSERT_TOP - THROUGH, d.INSERT_HOLE_TOP, p.INSERT.hole)]


def lid_cuts() -> list[Solid]:
    """Every opening and pocket of the lid."""
    cuts = [key_hole(ref) for ref in d.fitted_keys()]
    cuts.append(window())
    x, y = d.DISPLAY_XY
    cuts.append(centred(x, y, *d.DISPLAY_POCKET, d.LID_UNDER - THROUGH, d.DISPLAY_POCKET_TOP))
    bx, by = d.BUZZER_XY
    cuts.append(rod(bx, by, d.LID_UNDER - THROUGH, d.BUZZER_POCKET_TOP, d.BUZZER_POCKET))
    for dx, dy in ((0, 0), (3, 0), (-3, 0), (0, 3), (0, -3)):
        cuts.append(rod(bx + dx, by + dy, d.BUZZER_POCKET_TOP - THROUGH, d.LID_TOP + THROUGH, d.SOUND_HOLE))
    for ref in d.LEDS:
        lx, ly = d.to_box(d.layout.BOX.places[ref].x, d.layout.BOX.places[ref].y)
        cuts.append(rod(lx, ly, d.LID_UNDER - THROUGH, d.LID_TOP + THROUGH, d.LED_HOLE))
        sink = (d.LED_SINK - d.LED_HOLE) / 2
        cuts.append(cone(lx, ly, d.LID_TOP - sink, d.LID_TOP + THROUGH, d.LED_HOLE, d.LED_SINK + 2 * THROUGH))
    for hx, hy in d.HOLES:
        cuts += boss_hole(hx, hy)
    cuts.append(along_y(d.GLAND_X, d.GLAND_Z, d.WALL_IN_Y - THROUGH, d.WALL_OUT_Y + THROUGH, p.GLAND.hole))
    return cuts


def lid() -> Solid:
    """The top shell: plate, walls, the bosses the PCB is screwed to, every opening."""
    bosses = [rod(x, y, d.PCB_TOP, d.LID_UNDER + THROUGH, d.BOSS) for x, y in d.HOLES]
    return shell().fuse(*bosses).cut(*lid_cuts()).clean()


def base() -> Solid:
    """The bottom plate, inside the walls, with a pillar under each fixing hole."""
    gap = 0.2
    x0, y0, x1, y1 = d.INSIDE
    plate = block(x0 + gap, y0 + gap, d.BOTTOM, x1 - gap, y1 - gap, d.BASE_TOP)
    pillars = [rod(x, y, d.BASE_TOP - THROUGH, 0.0, d.BOSS) for x, y in d.HOLES]
    sink = (p.SCREW.head - d.SCREW_HOLE) / 2
    holes = []
    for x, y in d.HOLES:
        holes.append(rod(x, y, d.BOTTOM - THROUGH, THROUGH, d.SCREW_HOLE))
        holes.append(cone(x, y, d.BOTTOM - THROUGH, d.BOTTOM + sink, p.SCREW.head + 2 * THROUGH, d.SCREW_HOLE))
    return plate.fuse(*pillars).cut(*holes).clean()


# --- what goes in it ----------------------------------------------------------------------------

def pcb() -> Solid:
    outline = [Vector(*d.to_box(x, y), 0.0) for x, y in d.layout.BOX.outline]
    board = Solid.extrude(Face(Wire.make_polygon(outline, close=True)), Vector(0, 0, d.PCB))
    drill = FOOTPRINTS["MountingHole_3.2mm"].pads[0].drill
    return board.cut(*[rod(x, y, -THROUGH, d.PCB + THROUGH, drill) for x, y in d.HOLES])


def switch(ref: str) -> Solid:
    x, y = d.key_centre(ref)
    s = p.SWITCH
    body = centred(x, y, s.body, s.body, d.PCB_TOP, d.PCB_TOP + s.body_height)
    return body.fuse(rod(x, y, d.PCB_TOP + s.body_height, d.PLUNGER_TOP, s.plunger))


def cap(ref: str, pressed: float = 0.0) -> Solid:
    """A key cap on its switch's plunger, `pressed` mm down."""
    x, y = d.key_centre(ref)
    c = p.KEYCAP
    z0 = d.CAP_BOTTOM - pressed
    return centred(x, y, c.side, c.side, z0, z0 + c.height).cut(
        rod(x, y, z0 - THROUGH, z0 + c.seat, p.SWITCH.plunger))


def display() -> Solid:
    x, y = d.DISPLAY_XY
    bw, bh, bt = p.DISPLAY.board
    pw, ph, pt = p.DISPLAY.panel
    board = centred(x, y, bw, bh, d.DISPLAY_BACK, d.DISPLAY_BACK + bt)
    return board.fuse(centred(x, y, pw, ph, d.DISPLAY_BOARD_TOP, d.DISPLAY_GLASS_TOP))


def display_header() -> Solid:
    j = d.layout.BOX.places["J4"]
    x, y = d.to_box(j.x, j.y)
    return centred(x, y, 7 * 2.54, 2.54, d.PCB_TOP, d.DISPLAY_BACK)


@dataclass(frozen=True)
class Usb:
    """The Pico's micro-USB receptacle: its block and its mouth (a point and the way it faces)."""
    solid: Solid
    mouth: tuple[float, float, float]
    facing: tuple[float, float, float]


def pico() -> tuple[Solid, Usb]:
    """The Pico under the PCB (its long side along the PCB's x, as layout.py turns it) and its
    USB receptacle at the end the footprint's pad 1 is at."""
    u = d.layout.BOX.places["U1"]
    cx, cy = d.to_box(u.x, u.y)
    length, width, thick = p.PICO.board
    # pad 1's end of the footprint, turned and flipped as KiCad places it (layout.world)
    ex, ey = d.layout.world(u, 0.0, -length / 2)
    ex, ey = d.to_box(ex, ey)
    along = ((ex - cx) / (length / 2), (ey - cy) / (length / 2))
    if abs(along[0]) > 0.5:
        board = centred(cx, cy, length, width, -thick, 0.0)
    else:
        board = centred(cx, cy, width, length, -thick, 0.0)
    uw, depth, over = p.PICO.usb_width, p.PICO.usb_depth, p.PICO.usb_overhang
    mx, my = ex + along[0] * over, ey + along[1] * over
    bx, by = mx - along[0] * depth / 2, my - along[1] * depth / 2
    w, h = (depth, uw) if abs(along[0]) > 0.5 else (uw, depth)
    receptacle = centred(bx, by, w, h, -p.PICO.height, -thick)
    mouth = (mx, my, (-p.PICO.height - thick) / 2)
    return board, Usb(receptacle, mouth, (along[0], along[1], 0.0))


def round_part(ref: str, part: p.Round) -> Solid:
    pl = d.layout.BOX.places[ref]
    x, y = d.to_box(pl.x, pl.y)
    return rod(x, y, d.PCB_TOP, d.PCB_TOP + part.height, part.diameter)


def part_block(part: d.Part) -> Solid:
    z0, z1 = (d.PCB_TOP, d.PCB_TOP + part.height) if part.side == "F" else (-part.height, 0.0)
    return block(part.x0, part.y0, z0, part.x1, part.y1, z1)


def gland() -> tuple[Solid, Solid, Solid]:
    """The gland (body, cap and thread, bored for the cable), its locknut inside the wall, and
    the cable from outside the box to the notch in the PCB."""
    g = p.GLAND
    x, z = d.GLAND_X, d.GLAND_Z
    y_out = d.WALL_OUT_Y
    body = hex_along_y(x, z, y_out, y_out + g.body_hex, g.body_af)
    body = body.fuse(along_y(x, z, y_out + g.body_hex, y_out + g.outside, g.cap_diameter),
                     along_y(x, z, y_out - g.thread_length, y_out, g.thread))
    body = body.cut(along_y(x, z, y_out - g.thread_length - THROUGH, y_out + g.outside + THROUGH,
                            p.CABLE.diameter))
    nut = hex_along_y(x, z, d.WALL_IN_Y - g.nut_thickness, d.WALL_IN_Y, g.nut_af)
    nut = nut.cut(along_y(x, z, d.WALL_IN_Y - g.nut_thickness - THROUGH, d.WALL_IN_Y + THROUGH, g.thread))
    inner_end = d.BOARD_L - (d.NOTCH_DEPTH - 3.0)      # the jacket ends inside the notch
    cable = along_y(x, z, inner_end, y_out + g.outside + 30.0, p.CABLE.diameter)   # and goes on outside
    return body, nut, cable


def screw(x: float, y: float) -> Solid:
    s = p.SCREW
    head = cone(x, y, d.BOTTOM, d.BOTTOM + (s.head - s.d) / 2, s.head, s.d)
    return head.fuse(rod(x, y, d.BOTTOM + (s.head - s.d) / 2 - 0.01, d.SCREW_TIP, s.d))


def insert(x: float, y: float) -> Solid:
    i = p.INSERT
    return rod(x, y, d.INSERT_BOTTOM, d.INSERT_TOP, i.outside).cut(
        rod(x, y, d.INSERT_BOTTOM - THROUGH, d.INSERT_TOP + THROUGH, i.thread))


# --- the assembly -------------------------------------------------------------------------------

@dataclass
class Assembly:
    solids: dict[str, Solid]       # name -> solid, each one physical part
    usb: Usb

    def compound(self) -> Compound:
        children = []
        for name, solid in self.solids.items():
            solid.label = name
            solid.color = Color(*colour(name))
            children.append(solid)
        return Compound(label="bidding box", children=children)


def colour(name: str) -> tuple[float, float, float]:
    kind = name.split()[0]
    return {"lid": (0.32, 0.36, 0.42), "base": (0.32, 0.36, 0.42), "pcb": (0.10, 0.35, 0.18),
            "cap": (0.12, 0.12, 0.12), "switch": (0.75, 0.75, 0.72), "display": (0.05, 0.05, 0.08),
            "gland": (0.15, 0.15, 0.15), "nut": (0.15, 0.15, 0.15), "cable": (0.20, 0.20, 0.25),
            "screw": (0.7, 0.7, 0.72), "insert": (0.80, 0.62, 0.25)}.get(kind, (0.55, 0.55, 0.50))


def assembly() -> Assembly:
    s: dict[str, Solid] = {"lid": lid(), "base": base(), "pcb": pcb()}
    for ref in d.fitted_keys():
        s[f"switch {ref}"] = switch(ref)
        s[f"cap {ref}"] = cap(ref)
    s["display module"] = display()
    s["display header J4"] = display_header()
    board, usb = pico()
    s["pico U1"] = board
    s["pico usb"] = usb.solid
    for ref in d.LEDS:
        s[f"led {ref}"] = round_part(ref, p.LED)
    s["buzzer BZ1"] = round_part("BZ1", p.BUZZER)
    for part in d.placed_parts():
        if not part.ref.startswith(d.DRAWN):
            s[f"part {part.ref}"] = part_block(part)
    s["gland"], s["nut"], s["cable"] = gland()
    for i, (x, y) in enumerate(d.HOLES, 1):
        s[f"screw H{i}"] = screw(x, y)
        s[f"insert H{i}"] = insert(x, y)
    return Assembly(s, usb)
