"""The printed enclosure goes together with the real parts' figures: no two solids share a volume,
the caps come through the lid with their travel, the window shows the whole active area, the
gland's thread goes through the wall and its nut, the screws hold in the inserts, and the Pico's
USB socket cannot be reached from outside. The solids are built once (model.assembly()) and the
checks are hardware/enclosure/check.py's, the same `make enclosure` prints."""
import pytest

from hardware.enclosure import design
from hardware.enclosure import parts as p

pytestmark = pytest.mark.slow  # builds the enclosure's solids and intersects them: tens of seconds


# The solids' modules are imported by the tests that use them, not at the top: importing
# OpenCascade takes seconds, and every run collects this file (`make test-fast` too).
@pytest.fixture(scope="module", name="model")
def _model():
    from hardware.enclosure import model
    return model


@pytest.fixture(scope="module", name="check")
def _check():
    from hardware.enclosure import check
    return check


@pytest.fixture(scope="module")
def box(model):
    return model.assembly()


@pytest.fixture(scope="module")
def hits(box, check):
    return check.interferences(box.solids)


@pytest.fixture(scope="module")
def report(box, hits, check):
    """What `make enclosure` prints (build/enclosure/fit.txt), computed once for these tests."""
    return check.groups(box, hits)


def _named(checks, start):
    return next(c for c in checks if c.what.startswith(start))


def test_no_two_parts_share_a_volume_but_the_clash_left_to_the_pcb(hits, report, check):
    assert report["parts"][0].ok
    assert {(a, b) for a, b, _ in hits} == set(check.KNOWN_CLASHES), hits


def test_the_interference_check_sees_a_part_in_the_wrong_place(box, model, check):
    # a cap 0.5 mm too far to the right rubs its hole: a volume shared with the lid
    solids = {"lid": box.solids["lid"], "cap": model.cap("SW5").translate((0.5, 0, 0))}
    assert [(a, b) for a, b, _ in check.interferences(solids)] == [("lid", "cap")]
    # and the switch alone stands clear of the lid
    assert check.interferences({"lid": box.solids["lid"], "sw": box.solids["switch SW5"]}) == []


def test_the_pcb_sits_clear_of_the_walls(report):
    c = report["pcb"][0]
    assert c.ok and c.have == pytest.approx(design.EDGE_GAP, abs=1e-6)


def test_every_cap_comes_through_the_lid_with_its_travel(box, report):
    checks = report["keys"]
    assert all(c.ok for c in checks), "\n".join(map(str, checks))
    assert _named(checks, "key cap to the lid's hole").have == pytest.approx(design.KEY_HOLE_GAP, abs=0.01)
    assert _named(checks, "key cap above the lid, at rest").have == pytest.approx(design.KEY_PROUD, abs=1e-6)
    pressed = _named(checks, "key cap above the lid, pressed").have
    assert pressed == pytest.approx(design.KEY_PROUD - p.SWITCH.travel, abs=1e-6)


def test_the_window_shows_the_active_area_from_above_and_from_the_seat(box, report):
    checks = report["display"]
    assert all(c.ok for c in checks), "\n".join(map(str, checks))
    # the margin is measured on the solid: the window's own margin, to the 0.1 mm step
    assert _named(checks, "display window beyond").have == pytest.approx(design.WINDOW_MARGIN, abs=0.1)


def test_the_gland_goes_through_the_wall_and_its_nut(box, report):
    checks = report["gland"]
    assert all(c.ok for c in checks), "\n".join(map(str, checks))
    assert box.solids["gland"].distance_to(box.solids["pcb"]) > 0.2


def test_the_screws_hold_in_the_inserts_and_stop_short(box, report):
    checks = report["fixings"]
    assert all(c.ok for c in checks), "\n".join(map(str, checks))
    engaged = _named(checks, "screw thread engaged").have
    assert engaged == pytest.approx(design.SCREW_TIP - design.INSERT_BOTTOM, abs=1e-6)


def test_the_usb_socket_cannot_be_reached_from_outside(box, report):
    checks = report["usb"]
    assert all(c.ok for c in checks), "\n".join(map(str, checks))
    # the socket faces a side wall with nothing cut in it, 14 mm in from the board's edge
    mx, my, mz = box.usb.mouth
    assert design.INSIDE[2] - mx > 10.0 and mz < 0.0


def test_a_usb_cut_out_would_be_seen(box, model, check):
    """The check can fail: the same wall with a 12 x 8 mm cut-out in front of the socket (the
    Hammond build's flashing hole) lets the plug in."""
    mx, my, mz = box.usb.mouth
    x1 = design.OUTSIDE[2]
    hole = model.block(design.INSIDE[2] - 1, my - 6, mz - 4, x1 + 1, my + 6, mz + 4)
    opened = model.Assembly(dict(box.solids, lid=box.solids["lid"].cut(hole)), box.usb)
    assert not _named(check.usb_checks(opened), "a plug pushed").ok


def test_the_report_make_enclosure_prints_is_all_ok(report):
    checks = [c for group in report.values() for c in group]
    assert len(checks) >= 20
    assert all(c.ok for c in checks), "\n".join(str(c) for c in checks if not c.ok)


def test_the_lid_and_base_export_as_step_and_stl(box, tmp_path):
    from build123d import export_step, export_stl, import_step
    export_step(box.solids["base"], tmp_path / "base.step")
    export_stl(box.solids["base"], tmp_path / "base.stl", tolerance=0.1)
    back = import_step(tmp_path / "base.step")
    assert back.volume == pytest.approx(box.solids["base"].volume, rel=1e-6)
    data = (tmp_path / "base.stl").read_bytes()
    assert len(data) > 84 and int.from_bytes(data[80:84], "little") * 50 + 84 == len(data)
