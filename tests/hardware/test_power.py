"""One box's worst-case draw, the hub's supply and fuses, the RS-485 bias: the margins hold."""
import dataclasses

import pytest

from hardware import power


def test_the_pico_regulator_carries_the_3v3_loads():
    assert power.rail_amps("3V3") < power.PICO_3V3_LIMIT_A * 0.5   # the display runs from VSYS


def test_a_box_at_the_end_of_its_cable_still_has_vsys_for_the_pico_and_the_display():
    vsys, amps = power.vsys_and_current()
    assert vsys >= power.DISPLAY_VIN_MIN > power.VSYS_MIN
    assert 0.3 < amps < 0.45          # the sum in hub.md: about 0.39 A


def test_the_supply_runs_four_boxes_and_rides_through_one_shorted_port():
    hb = power.hub_budget()
    assert hb["supply_margin"] >= 2.0
    assert hb["one_port_faulted_A"] <= power.SUPPLY_A
    assert hb["fuse_hold_40C_A"] >= 1.5 * hb["box_A"]      # no nuisance trip at 40 C
    assert power.FUSE_TRIP_A <= power.SUPPLY_A - 3 * hb["box_A"]


def test_a_supply_too_small_or_a_path_too_long_is_caught():
    with pytest.raises(ValueError):
        power.vsys_and_current(dataclasses.replace(power.Path(), r_cable=20.0))
    assert 4 * power.hub_budget()["box_A"] > 1.0   # a 1 A adapter would not do


def test_the_idle_bus_reads_as_a_one_and_the_driver_load_is_legal():
    assert power.bus_idle_volts() >= power.V_FAILSAFE
    assert power.driver_load_ohm() >= power.R_DRIVER_MIN
    assert power.termination_watts() <= 0.125 / 1.25   # 0805, 0.125 W, with 25 % margin


def test_weaker_bias_would_leave_the_idle_bus_undefined():
    # The old wiring.md value (680 ohm from 3.3 V) gives under 200 mV across 60 ohm.
    old = power.V_BIAS * power.parallel(120, 120) / (2 * 680 + power.parallel(120, 120))
    assert old < power.V_FAILSAFE <= power.bus_idle_volts()
