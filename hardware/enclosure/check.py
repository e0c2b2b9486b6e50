"""Does the modelled box go together? Checks on the solids of model.assembly(), each a
fit.Check (need, have): no two parts share volume, the clearances a builder relies on, and the
Pico's USB socket out of reach from outside.

Volumes and distances are OpenCascade's (BRepAlgoAPI_Common through build123d's `intersect`,
BRepExtrema through `distance_to`). Two parts that touch by design (the boss on the PCB, a cap on
its plunger, the screw in its insert) share a face, not a volume.
"""
from __future__ import annotations

import math

from build123d import Axis, Compound, Edge, Solid, Vector

from hardware.enclosure import design as d
from hardware.enclosure import model
from hardware.enclosure import parts as p
from hardware.fit import Check

VOLUME_TOL = 1e-3        # mm^3: what OpenCascade leaves of two faces that touch

KNOWN_CLASHES = d.KNOWN_CLASHES
REACH = 40.0             # how far a plug or a tool is followed from the USB socket's mouth
MICRO_USB_PLUG = (6.9, 1.8)   # the micro-B plug's metal shell (6.85 x 1.8 mm in the USB Micro-USB specification)


def _volume(shape) -> float:
    if shape is None:
        return 0.0
    if isinstance(shape, list):
        return sum(s.volume for s in shape)
    return shape.volume


def one(shape):
    """A boolean's result as one shape (build123d returns a list when it falls apart in pieces)."""
    return Compound(children=list(shape)) if isinstance(shape, list) else shape


def _boxes_overlap(a, b) -> bool:
    ba, bb = a.bounding_box(), b.bounding_box()
    return (ba.min.X < bb.max.X and bb.min.X < ba.max.X and ba.min.Y < bb.max.Y and bb.min.Y < ba.max.Y
            and ba.min.Z < bb.max.Z and bb.min.Z < ba.max.Z)


def _inside(bb, box: tuple[float, float, float, float, float, float]) -> bool:
    x0, y0, z0, x1, y1, z1 = box
    return x0 < bb.min.X and bb.max.X < x1 and y0 < bb.min.Y and bb.max.Y < y1 and z0 < bb.min.Z and bb.max.Z < z1


def _lid_cannot_meet(part: Solid) -> bool:
    """Exact, and cheaper than cutting: under the lid's plate and inside its walls the only lid
    material is the four bosses, so a part whose box lies in that hollow and meets no boss's box
    cannot share a volume with the lid."""
    x0, y0, x1, y1 = d.INSIDE
    bb = part.bounding_box()
    if not _inside(bb, (x0, y0, d.BOTTOM - 1.0, x1, y1, d.LID_UNDER)):
        return False
    bosses = [model.rod(x, y, d.PCB_TOP, d.LID_UNDER, d.BOSS) for x, y in d.HOLES]
    return not any(_boxes_overlap(part, b) for b in bosses)


def interferences(solids: dict[str, Solid]) -> list[tuple[str, str, float]]:
    """Every pair of parts that share a volume, with the volume (mm^3). Only pairs whose bounding
    boxes meet are cut, one pair at a time (OpenCascade cuts two small solids in milliseconds,
    a compound of many far more slowly)."""
    names = list(solids)
    found = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if not _boxes_overlap(solids[a], solids[b]):
                continue
            if "lid" in (a, b) and _lid_cannot_meet(solids[b if a == "lid" else a]):
                continue
            v = _volume(solids[a].intersect(solids[b]))
            if v > VOLUME_TOL:
                found.append((a, b, v))
    return found


def _clear_of(solid: Solid, other: Solid) -> bool:
    return _volume(solid.intersect(other)) <= VOLUME_TOL


def key_checks(a: model.Assembly) -> list[Check]:
    """The caps in their holes, at rest and pressed to the switch's full travel."""
    lid = a.solids["lid"]
    gaps, proud_rest, proud_pressed, skirt = [], [], [], []
    body_top = d.PCB_TOP + p.SWITCH.body_height
    for ref in d.fitted_keys():
        rest, pressed = model.cap(ref), model.cap(ref, p.SWITCH.travel)
        x, y = d.key_centre(ref)
        # the lid round this key only: a distance to the whole lid costs a hundred times more
        local = one(lid.intersect(model.centred(x, y, 2 * p.KEYCAP.side, 2 * p.KEYCAP.side, d.BOTTOM, d.LID_TOP + 1)))
        gaps.append(min(rest.distance_to(local), pressed.distance_to(local)))
        proud_rest.append(rest.bounding_box().max.Z - d.LID_TOP)
        proud_pressed.append(pressed.bounding_box().max.Z - d.LID_TOP)
        skirt.append(pressed.bounding_box().min.Z - body_top)
    return [
        Check("key cap to the lid's hole, at rest and pressed (each of 23)", 0.25, min(gaps)),
        Check("key cap above the lid, at rest", 2.0, min(proud_rest)),
        Check("key cap above the lid, pressed to the full travel", 1.5, min(proud_pressed)),
        Check("key cap's skirt over the switch body, pressed", 0.2, min(skirt)),
    ]


def _view_of_active_area(grow: float, direction: tuple[float, float, float]) -> Solid:
    """The active area (grown by `grow` each side) swept from the glass along `direction`."""
    x, y = d.DISPLAY_XY
    w, h = p.DISPLAY.active
    face = model.centred(x, y, w + 2 * grow, h + 2 * grow, d.DISPLAY_GLASS_TOP, d.DISPLAY_GLASS_TOP + 0.01)
    v = Vector(*direction).normalized() * 20.0
    return Solid.extrude(face.faces().sort_by(Axis.Z)[-1], v)


def display_checks(a: model.Assembly) -> list[Check]:
    """The window over the active area: seen straight from above with a margin, and from the
    player's seat (45 degrees, from the keypad's end) without the bezel hiding a row."""
    lid = a.solids["lid"]
    margin = 0.0
    for step in (0.1 * k for k in range(1, 21)):
        if not _clear_of(_view_of_active_area(step, (0, 0, 1)), lid):
            break
        margin = step
    seat = _clear_of(_view_of_active_area(0.0, (0, -1, 1)), lid)
    return [
        Check("display window beyond the active area, each side (seen from above)", 0.5, margin),
        Check("active area seen at 45 degrees from the keypad's end (1 = nothing hidden)", 1.0, float(seat)),
        Check("display glass under the lid's pocket", d.OVER_PART - 1e-6, a.solids["display module"].distance_to(lid)),
    ]


def gland_checks(a: model.Assembly) -> list[Check]:
    g, nut, lid, pcb = a.solids["gland"], a.solids["nut"], a.solids["lid"], a.solids["pcb"]
    thread_past_nut = nut.bounding_box().min.Y - g.bounding_box().min.Y
    # the thread in its hole: the lid stays clear of a cylinder 0.2 mm larger than the thread
    sleeve = model.along_y(d.GLAND_X, d.GLAND_Z, d.WALL_IN_Y, d.WALL_OUT_Y, p.GLAND.thread + 0.4)
    return [
        Check("gland thread past the locknut (the nut fully on the thread)", 0.0, thread_past_nut),
        Check("gland thread to its hole in the wall, radial (1 = at least 0.2 mm)", 1.0, float(_clear_of(sleeve, lid))),
        Check("locknut to the PCB's notch", 0.25, nut.distance_to(pcb)),
        Check("locknut to the base plate and to the lid's plate", d.NUT_GAP - 1e-6,
              min(nut.distance_to(a.solids["base"]), d.LID_UNDER - nut.bounding_box().max.Z)),
        Check("cable jacket in the gland's clamping range (diameter)", p.GLAND.clamp[0], p.CABLE.diameter),
        Check("gland's clamping range over the cable jacket (diameter)", p.CABLE.diameter, p.GLAND.clamp[1]),
    ]


def fixing_checks(a: model.Assembly) -> list[Check]:
    """The screws: engaged in the insert, short of the blind hole's end, heads flush."""
    engaged, short, flush = [], [], []
    lid = a.solids["lid"]
    for i, (x, y) in enumerate(d.HOLES, 1):
        sb, ib = a.solids[f"screw H{i}"].bounding_box(), a.solids[f"insert H{i}"].bounding_box()
        engaged.append(min(sb.max.Z, ib.max.Z) - ib.min.Z)
        # the room beyond the tip: the hole is clear that far, and no further
        room = d.INSERT_HOLE_TOP - sb.max.Z
        probe = p.SCREW.d - 0.5
        clear = _clear_of(model.rod(x, y, sb.max.Z, sb.max.Z + room - 0.05, probe), lid)
        ends = not _clear_of(model.rod(x, y, sb.max.Z, sb.max.Z + room + 0.2, probe), lid)
        short.append(room if clear and ends else 0.0)
        flush.append(sb.min.Z - d.BOTTOM)
    return [
        Check("screw thread engaged in the insert (M3: at least one diameter)", p.SCREW.d, min(engaged)),
        Check("screw tip short of the end of the insert's hole", 0.5, min(short)),
        Check("screw head not below the base's face (countersunk flush)", 0.0, min(flush)),
        Check("plastic left over the insert's hole in the lid", d.SKIN, d.LID_TOP - d.INSERT_HOLE_TOP),
    ]


def pcb_checks(a: model.Assembly) -> list[Check]:
    walls = model.shell()
    return [Check("PCB edge to the walls", 0.5, a.solids["pcb"].distance_to(walls))]


def _segment_blocked(start: Vector, end: Vector, opaque: list[Solid]) -> bool:
    edge = Edge.make_line(start, end)
    return any(edge.distance_to(s) < 1e-6 for s in opaque)


def usb_checks(a: model.Assembly) -> list[Check]:
    """The Pico's USB socket, reached only with the base off: a plug pushed in along the socket's
    axis meets a wall, and no straight line from an opening in the closed box reaches its mouth."""
    mouth, facing = Vector(*a.usb.mouth), Vector(*a.usb.facing)
    # a micro-USB plug's shell, followed outward from the mouth along the socket
    w, h = MICRO_USB_PLUG
    end = mouth + facing * REACH
    across = (w / 2, 0.0) if abs(facing.X) < 0.5 else (0.0, w / 2)
    path = model.block(min(mouth.X, end.X) - across[0], min(mouth.Y, end.Y) - across[1], mouth.Z - h / 2,
                       max(mouth.X, end.X) + across[0], max(mouth.Y, end.Y) + across[1], mouth.Z + h / 2)
    shell = a.solids["lid"].fuse(a.solids["base"])
    blocked_plug = not _clear_of(path, shell)
    opaque = [s for n, s in a.solids.items() if n not in ("pico usb",)]
    targets = _opening_points()
    open_lines = sum(1 for t in targets if not _segment_blocked(mouth, t, opaque))
    return [
        Check("a plug pushed into the USB socket meets the enclosure (1 = yes)", 1.0, float(blocked_plug)),
        Check(f"straight lines from the {len(targets)} openings to the USB socket that are blocked",
              float(len(targets)), float(len(targets) - open_lines)),
    ]


def _opening_points() -> list[Vector]:
    """A point 1 mm outside each opening of the closed box: the key holes, the window, the LED
    and sound holes, the gland's hole, the screw holes in the base."""
    above = d.LID_TOP + 1.0
    pts = [Vector(*d.key_centre(ref), above) for ref in d.fitted_keys()]
    pts.append(Vector(*d.DISPLAY_XY, above))
    for ref in d.LEDS:
        pl = d.layout.BOX.places[ref]
        pts.append(Vector(*d.to_box(pl.x, pl.y), above))
    bx, by = d.BUZZER_XY
    pts += [Vector(bx + dx, by + dy, above) for dx, dy in ((0, 0), (3, 0), (-3, 0), (0, 3), (0, -3))]
    pts.append(Vector(d.GLAND_X, d.WALL_OUT_Y + 1.0, d.GLAND_Z))
    pts += [Vector(x, y, d.BOTTOM - 1.0) for x, y in d.HOLES]
    return pts


def groups(a: model.Assembly, found: list[tuple[str, str, float]] | None = None) -> dict[str, list[Check]]:
    """Every check by what it is about; `found`: interferences(a.solids) when the caller has it."""
    found = interferences(a.solids) if found is None else found
    hits = [h for h in found if (h[0], h[1]) not in KNOWN_CLASHES]
    out = {"parts": [Check(f"pairs of parts that share a volume, of {math.comb(len(a.solids), 2)} "
                           f"(none allowed; {len(KNOWN_CLASHES)} known on the PCB apart)", float(len(hits)), 0.0)]}
    for name, group in (("pcb", pcb_checks), ("keys", key_checks), ("display", display_checks),
                        ("gland", gland_checks), ("fixings", fixing_checks), ("usb", usb_checks)):
        out[name] = group(a)
    return out


def all_checks(a: model.Assembly, found: list[tuple[str, str, float]] | None = None) -> list[Check]:
    return [c for checks in groups(a, found).values() for c in checks]
