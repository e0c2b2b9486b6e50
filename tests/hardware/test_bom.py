"""Every part on the bill has a manufacturer part number, and the bill and the schematics and
the budget files name the same parts."""
import pytest

from hardware import bom, fit, power, schematic


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
    assert box["ENC1"].mpn == fit.REFERENCE.enclosure.mpn
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
