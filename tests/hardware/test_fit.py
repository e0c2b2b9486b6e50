"""The box goes together: keypad, display, Pico and the cable gland inside the printed enclosure,
the key stack counted up to the caps through the lid, and call and status characters at least
4 mm tall (hardware/display.md)."""
import dataclasses

from hardware import fit
from hardware.enclosure import design, parts


def test_the_old_box_could_not_hold_a_5x5_keypad_and_its_display():
    # The review's finding: 5 keys at 15 mm pitch are 72 mm, the 100 x 70 mm box is 66 mm inside.
    failed = [c.what for c in fit.check_enclosure(fit.OLD) if not c.ok]
    assert any(w.startswith("width") for w in failed)
    assert any(w.startswith("length") for w in failed)
    assert not fit.fits(fit.OLD)


def test_the_reference_build_fits_the_printed_enclosure_with_its_clearances():
    checks = fit.check_enclosure(fit.reference())
    assert all(c.ok for c in checks), "\n".join(str(c) for c in checks)
    assert fit.KEYPAD.width == 4 * 15 + 12 == fit.KEYPAD.depth == 72


def test_the_146_mm_board_does_not_go_into_the_hammond_1553d():
    # 147 mm outside, 141 inside: the earlier choice cannot hold the board the PCB work ended on.
    length, width, _ = fit.HAMMOND_1553D.inside
    assert length < design.BOARD_L + 2 * design.EDGE_GAP
    assert fit.reference().enclosure.inside[0] >= design.BOARD_L + 2 * design.EDGE_GAP


def test_the_key_stack_adds_the_cap_and_the_lid():
    ref = fit.reference()
    stack = next(c for c in fit.check_enclosure(ref) if c.what.startswith("height at the keys"))
    # base to the lid's top, bottom up: what is under the PCB, the PCB, the switch, the cap above its
    # plunger; the cap stands KEY_PROUD out of the lid, and the lid is LID thick
    expected = (design.UNDER_PART + design.UNDER_TALLEST + design.PCB + parts.SWITCH.height
                - parts.KEYCAP.seat + parts.KEYCAP.height - design.KEY_PROUD - design.LID)
    assert abs(stack.need - expected) < 1e-9
    # a cap 1 mm taller with the same lid would stand 1 mm further out: the check sees it
    tall_cap = dataclasses.replace(ref, keypad=dataclasses.replace(fit.KEYPAD, cap_height=parts.KEYCAP.height + 1))
    assert not fit.fits(tall_cap)
    # the design puts the lid's top where the caps stand KEY_PROUD above it
    assert abs(design.CAP_TOP - design.LID_TOP - design.KEY_PROUD) < 1e-9


def test_every_dimension_is_checked_not_just_the_footprint():
    ref = fit.reference()
    # A display module 10 mm deeper, a fat gland nut, taller switches or a taller LED each break the fit.
    deeper = dataclasses.replace(ref, display=dataclasses.replace(fit.DISPLAY_242, depth=fit.DISPLAY_242.depth + 30))
    assert not fit.fits(deeper)
    fat_nut = dataclasses.replace(ref, connector=dataclasses.replace(ref.connector, height=18.0))
    assert not fit.fits(fat_nut)
    tall_keys = dataclasses.replace(ref, keypad=dataclasses.replace(fit.KEYPAD, switch_height=13.0))
    assert not fit.fits(tall_keys)
    tall_led = dataclasses.replace(ref, over_parts=ref.over_parts + 0.5)
    assert not fit.fits(tall_led)
    thick_display = dataclasses.replace(ref, display=dataclasses.replace(fit.DISPLAY_242, height=fit.DISPLAY_242.height + 0.5))
    assert not fit.fits(thick_display)


def test_the_old_display_and_font_give_characters_of_about_1_2_mm():
    # 8x8 font on the 0.96" panel: the review measured ~1.3 mm cell height; capitals are 1.2 mm.
    h = fit.glyph_height_mm(fit.PANEL_096, fit.FONT_8X8)
    assert 1.1 < h < 1.3
    assert h < fit.MIN_GLYPH_MM


def test_the_same_8x8_font_on_the_bigger_panel_is_still_too_small():
    assert fit.glyph_height_mm(fit.PANEL_242, fit.FONT_8X8) < fit.MIN_GLYPH_MM


def test_the_chosen_panel_and_font_give_at_least_4_mm_in_16_columns():
    h = fit.glyph_height_mm(fit.PANEL_242, fit.FONT_8X16)
    assert h >= fit.MIN_GLYPH_MM
    assert abs(fit.PANEL_242.pitch - 0.4295) < 0.001          # 27.49 mm / 64 rows
    assert fit.text_grid(fit.PANEL_242, fit.FONT_8X16) == (16, 4)
    # ISO 9241-303 asks 20-22 arcmin for comfortable reading; the chosen text is above it at 50 cm.
    assert fit.visual_angle_arcmin(h, fit.READING_DISTANCE_MM) >= 22


def test_the_box_font_is_legible_at_80_cm_and_the_old_one_was_not():
    # read across the table's corner at 80 cm: capitals of 10 px (4.3 mm) subtend 18.5 arcmin,
    # under the 20-22 of ISO 9241-303; 13 px (5.6 mm) subtend 24
    old = fit.glyph_height_mm(fit.PANEL_242, fit.FONT_8X16)
    assert round(fit.visual_angle_arcmin(old, fit.FAR_DISTANCE_MM), 1) == 18.5
    h = fit.glyph_height_mm(fit.PANEL_242, fit.FONT_10X16)
    assert fit.visual_angle_arcmin(h, fit.FAR_DISTANCE_MM) >= fit.MIN_ARCMIN
    assert h >= fit.MIN_GLYPH_MM
    assert fit.text_grid(fit.PANEL_242, fit.FONT_10X16) == (12, 4)
