"""Every part on the bill has a manufacturer part number and its dimensions with their source
(or what is still to be confirmed), and the bill, the schematics, the budget files and the
enclosure's parts name the same parts with the same figures."""
import dataclasses
import re

import pytest

from hardware import bom, fit, power, schematic
from hardware.enclosure import parts


@pytest.fixture(scope="module")
def lines():
    return bom.load()


def test_every_line_has_a_manufacturer_and_a_part_number_and_its_count(lines):
    for line in lines:
        assert line.manufacturer and line.mpn, line
        assert "generic" not in line.mpn.lower() and "generic" not in line.manufacturer.lower(), line
        assert line.qty == len(line.refs), line
        assert line.description, line


def test_a_bad_reference_list_is_refused():
    assert bom.expand("SW1-SW3 SW5") == ("SW1", "SW2", "SW3", "SW5")
    for bad in ("SW3-SW1", "SW1-D3", "sw1", "SW"):
        with pytest.raises(ValueError):
            bom.expand(bad)


@pytest.mark.parametrize("name", ["box", "hub"])
def test_every_schematic_part_is_on_the_bill_and_every_bill_part_in_the_schematic(lines, name):
    board = schematic.BOARDS[name]()
    on_bill = bom.by_ref(lines, name)
    ordered = {ref for ref, part in board.parts.items() if not bom.pads_only(part.footprint)}
    assert sorted(ordered - set(on_bill)) == []
    electrical = {ref for ref in on_bill if not bom.is_off_board(ref)}
    assert sorted(electrical - ordered) == []


@pytest.mark.parametrize("name", ["box", "hub"])
def test_the_schematic_value_is_the_part_the_bill_orders(lines, name):
    on_bill = bom.by_ref(lines, name)
    for ref, part in schematic.BOARDS[name]().parts.items():
        if ref.startswith(("U", "D", "F")) and not bom.pads_only(part.footprint):
            line = on_bill[ref]
            assert line.mpn.startswith(part.value) or line.value == part.value, (ref, part.value, line.mpn)


def test_the_budget_files_use_the_parts_the_bill_orders(lines):
    hub = bom.by_ref(lines, "hub")
    box = bom.by_ref(lines, "box")
    assert hub["F1"].mpn == "MF-MSMF075-2" and power.FUSE_HOLD_A == 0.75
    assert hub["PSU1"].mpn.startswith("GST25A05") and power.SUPPLY_A == 4.0
    assert box["ENC1"].mpn == fit.reference().enclosure.mpn
    assert box["SW1"].mpn == "B3F-4055" and box["KC1"].mpn == "B32-1000"
    assert "SSD1309" in box["DS1"].description and "2.42" in box["DS1"].description
    # One key cap and one diode per fitted switch.
    assert len(box["SW1"].refs) == len(box["KC1"].refs) == len(box["D1"].refs)


def test_each_hub_port_has_its_panel_receptacle_on_the_bill_and_the_box_cable_no_connector(lines):
    hub = schematic.hub()
    ports = [ref for ref, part in hub.parts.items() if part.value == "M8 receptacle pads"]
    assert all(bom.pads_only(hub.parts[ref].footprint) for ref in ports)
    assert len(bom.by_ref(lines, "hub")["X1"].refs) == len(ports) == schematic.PORTS
    assert bom.pads_only(schematic.box().parts["J1"].footprint)
    assert "open end" in bom.by_ref(lines, "cable")["W1"].description


def test_every_line_has_its_dimensions_and_where_they_come_from(lines):
    for line in lines:
        assert re.search(r"\d", line.dimensions), line
        src = line.dimension_source
        assert src, line
        if bom.TO_CONFIRM in src:
            # say what to check: a maker's document or the part itself, not just the words
            what = src.split(bom.TO_CONFIRM, 1)[1]
            assert len(what) > 30, line
        else:
            assert len(src) > 20, line


def test_a_line_without_dimensions_is_refused(tmp_path):
    text = bom.BOM_CSV.read_text().splitlines()
    head, first = text[0], text[1]
    bad = tmp_path / "bom.csv"
    bad.write_text(head.rsplit(",", 2)[0] + "\n" + first + "\n")   # the two new columns missing
    with pytest.raises(ValueError, match="columns"):
        bom.load(bad)


def _figures(spec) -> list[str]:
    out = []
    for f in dataclasses.fields(spec):
        value = getattr(spec, f.name)
        values = value if isinstance(value, tuple) else (value,)
        out += [f"{v:g}" for v in values if isinstance(v, float)]
    return out


@pytest.mark.parametrize("spec", [parts.SWITCH, parts.KEYCAP, parts.DISPLAY, parts.PICO, parts.LED, parts.BUZZER,
                                  parts.HEADER, parts.GLAND, parts.CABLE, parts.SCREW, parts.INSERT],
                         ids=lambda s: s.mpn)
def test_the_enclosure_uses_the_figures_the_bill_cites(lines, spec):
    """Every figure the CAD model takes from a bought part is on that part's bill line, and a
    figure still to be confirmed is marked so on the bill too."""
    matches = [line for line in lines if line.mpn.startswith(spec.mpn)]
    assert matches, spec.mpn
    line = matches[0]
    for figure in _figures(spec):
        assert re.search(rf"(?<![\d.]){re.escape(figure)}(?![\d])", line.dimensions), (spec.mpn, figure, line.dimensions)
    assert (bom.TO_CONFIRM in line.dimension_source) == bool(spec.confirm), spec.mpn
    assert spec.source in line.dimension_source


def test_the_issue_s_parts_are_cited_or_marked_to_be_confirmed(lines):
    """The parts the review could not find dimensions for: the display module's outline, the M8
    connectors and cordset, the adapter, the PTC fuse; the Hammond 1553D and the PicoBlade cable
    are off the bill (the board is too long for the one; the display is soldered in, no cable)."""
    by_mpn = {line.mpn: line for line in lines}
    for mpn in ("2.42inch OLED Module", "M8S-04PFFR-SF8001", "SAC-4P-M 8MS/2.0-PUR", "GST25A05-P1J", "MF-MSMF075-2"):
        assert bom.TO_CONFIRM in by_mpn[mpn].dimension_source, mpn
    assert not any(m.startswith("1553D") for m in by_mpn)
    assert not any("picoblade" in (line.description + line.mpn).lower() or line.mpn.startswith("53261")
                   for line in lines)
