"""The hardware documents quote the figures fit.py and power.py compute: change a part and a
stale sentence fails here instead of misleading a builder."""
from hardware import fit, power
from tests.conftest import ROOT

HW = ROOT / "hardware"


def read(name: str) -> str:
    return " ".join((HW / name).read_text().split())


def test_hub_md_quotes_the_power_budget():
    text = read("hub.md")
    vsys, amps = power.vsys_and_current()
    hb = power.hub_budget()
    for figure in (f"{amps * 1000:.0f} mA", f"{vsys:.2f} V", f"{hb['four_boxes_A']:.2f} A",
                   f"{hb['one_port_faulted_A']:.2f} A", f"{power.bus_idle_volts() * 1000:.0f} mV",
                   f"{power.driver_load_ohm():.1f} ohm", f"{power.termination_watts() * 1000:.0f} mW",
                   f"{power.rail_amps('3V3') * 1000:.0f} mA", f"x{hb['supply_margin']:.1f}"):
        assert figure in text, figure


def test_display_md_quotes_the_character_heights():
    text = read("display.md")
    for panel, font in fit.FONTS_ON_PANELS:
        h = fit.glyph_height_mm(panel, font)
        assert f"{h:.1f} mm" in text, (panel.name, font.name)
        assert f"{fit.visual_angle_arcmin(h, fit.FAR_DISTANCE_MM):.1f} arcmin" in text, font.name
    assert f"{fit.PANEL_242.pitch:.3f} mm" in text


def test_enclosure_md_quotes_the_fit():
    from hardware.enclosure import design
    text = read("enclosure.md")
    ref = fit.reference()
    for c in fit.check_enclosure(ref)[:3]:
        assert f"{c.need:g} <= {c.have:g}" in text, c.what
    assert " x ".join(f"{v:g}" for v in design.SIZE) + " mm" in text
    for name, z in design.stack():
        assert f"| {z:g}" in text or f"/ {z:g}" in text, name
    for _a, b in design.KNOWN_CLASHES:
        assert b.split()[-1] in text           # the clash left to the PCB is named


def test_the_pcb_readme_names_every_footprint_still_to_check():
    from hardware import schematic
    from hardware.pcb.footprints import FOOTPRINTS
    text = read("pcb/README.md")
    used = {part.footprint for make in schematic.BOARDS.values() for part in make().parts.values()}
    for name in sorted(used):
        if FOOTPRINTS[name].confirm:
            assert f"`{name}`" in text, name
