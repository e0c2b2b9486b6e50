"""The placement without KiCad: no courtyards overlap and every part is inside its outline, on
both boards; the box's Pico sits on the bottom with its USB socket well inside the board (only
reached with the lid off); fine-pitch parts sit where the routing grid gives each pad a track."""
import pytest

from hardware import schematic
from hardware.pcb import layout, router
from hardware.pcb.footprints import FOOTPRINTS


@pytest.mark.parametrize("name", ["box", "hub"])
def test_no_courtyards_overlap_and_every_part_is_inside_the_outline(name):
    board = schematic.BOARDS[name]()
    assert layout.overlaps(layout.LAYOUTS[name], {ref: p.footprint for ref, p in board.parts.items()}) == []
    assert set(board.parts) <= set(layout.LAYOUTS[name].places)


def test_an_overlap_is_found():
    moved = dict(layout.BOX.places, R20=layout.BOX.places["R21"])
    bad = layout.BoardLayout("box", layout.BOX.size, layout.BOX.outline, layout.BOX.holes, moved, "")
    board = schematic.box()
    assert "R20 overlaps R21" in layout.overlaps(bad, {ref: p.footprint for ref, p in board.parts.items()})


def test_the_picos_usb_socket_is_on_the_bottom_and_well_inside_the_box_board():
    pico = layout.BOX.places["U1"]
    x, y = layout.world(pico, 0.0, -25.5)       # the USB end of the module's 51 mm
    w, h = layout.BOX.size
    assert pico.side == "B"
    assert min(x, w - x, y, h - y) >= 10.0


@pytest.mark.parametrize("name, ref", [("box", "U5"), ("hub", "U1")])
def test_fine_pitch_pads_have_a_grid_row_or_column_near_their_centre(name, ref):
    part = schematic.BOARDS[name]().parts[ref]
    place = layout.LAYOUTS[name].places[ref]
    pitch = router.Rules().pitch
    for pad in FOOTPRINTS[part.footprint].pads:
        x, y = layout.world(place, pad.x, pad.y)
        narrow_along_y = (pad.h < pad.w) != (place.rot % 180 == 90)
        off = (y if narrow_along_y else x) / pitch
        assert abs(off - round(off)) * pitch <= 0.1 + 1e-9, (pad.number, x, y)
