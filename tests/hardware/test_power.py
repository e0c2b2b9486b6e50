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


def test_a_hot_plug_rings_the_box_input_past_what_the_pico_takes_without_the_efuse():
    plug = power.Plug()
    # the input node alone (C3): nearly twice the supply, inside U5's absolute maximum
    assert power.VSYS_MAX < max(power.ring(plug)) < power.EFuse().in_abs_max
    assert abs(max(power.ring(plug)) - power.ring_peak(plug.v, plug.r, plug.henry, plug.c)) < 0.05
    # the same ring straight onto VSYS's capacitance through D26
    assert power.hotplug_vsys_peak(efuse=None) > power.VSYS_MAX


def test_the_efuse_keeps_vsys_within_the_picos_range_through_a_hot_plug():
    assert power.hotplug_vsys_peak() <= power.VSYS_MAX
    # the ring passes the trip point: the switch opens as well as ramping slowly
    assert max(power.ring(power.Plug())) > power.EFuse().trip()[1]


def test_the_efuse_threshold_never_trips_on_a_good_supply_and_always_before_vsys_passes_5v5():
    lo, hi = power.EFuse().trip()
    assert power.V_SUPPLY_MAX < lo
    assert hi - power.D26_VF_MIN <= power.VSYS_MAX
    # 1 % resistors would not fit the window
    assert power.EFuse(tol=0.01).trip()[0] < power.V_SUPPLY_MAX or \
        power.EFuse(tol=0.01).trip()[1] - power.D26_VF_MIN > power.VSYS_MAX


@pytest.mark.parametrize("volts", [6.0, 9.0, 12.0])
def test_a_wrong_adapter_leaves_the_pico_unpowered_not_burnt(volts):
    assert power.steady_vsys(volts) == 0.0
    assert power.steady_vsys(volts, efuse=None) > power.VSYS_MAX   # what the TVS alone lets through
    assert volts < power.EFuse().in_abs_max


def test_the_farthest_box_at_full_load_is_above_the_efuse_undervoltage_lockout():
    path = power.Path()
    _, amps = power.vsys_and_current(path)
    v_in = path.v_supply_min - amps * (path.r_cable + path.r_fuse + path.r_connectors)
    assert v_in > power.EFuse().uvlo()[1]


def test_the_soft_start_inrush_is_far_below_the_port_fuse_hold_current():
    c_load = 100e-6      # C2 and the Pico's and the display's own capacitors, generously
    assert c_load * power.EFuse().slew() < 0.1 * power.FUSE_HOLD_A
