"""The electrical budget of a table: one box's worst-case draw, the hub's supply and fuses, the
RS-485 bias and termination. Plain data and arithmetic; tests/hardware/test_power.py asserts the
margins and `python -m hardware.power` prints what hardware/hub.md quotes.

Worst case means every load at once at its data-sheet maximum (or a stated budget where the data
sheet gives none): display all pixels on, the box's driver transmitting into the terminated bus,
all three LEDs on, the buzzer sounding, the lowest supply voltage the chain can deliver.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

# --- one box ------------------------------------------------------------------------------------

V3 = 3.3               # the Pico's 3V3 OUT
PICO_3V3_LIMIT_A = 0.300   # Pico data sheet: 3V3 OUT, external load up to 300 mA
PICO_BUCK_EFF = 0.85       # RT6150B buck-boost at 100 mA, 4-5 V in (Pico data sheet curve, rounded down)


@dataclass(frozen=True)
class Load:
    ref: str
    what: str
    rail: str          # "3V3" (from the Pico's regulator) or "VSYS" (straight from the cable)
    watts: float
    source: str


def led(ref: str, what: str, vf_min: float, r: float) -> Load:
    """An LED from a 3.3 V GPIO through r: the lowest forward voltage draws the most."""
    amps = (V3 - vf_min) / r
    return Load(ref, what, "3V3", V3 * amps, f"({V3} - Vf min {vf_min}) / {r:g} ohm = {amps * 1000:.1f} mA")


BOX_LOADS = (
    Load("U1", "Raspberry Pi Pico itself (RP2040 both cores busy, flash, USB idle)", "VSYS", 5.0 * 0.100,
         "budget 100 mA at 5 V: several times the typical figures the Pico data sheet measures"),
    Load("DS1", "2.42in OLED module, all pixels on, full contrast (its own 12 V boost)", "VSYS", 12.0 * 0.040 / 0.75,
         "budget: panel 40 mA at 12 V through a 75 % boost; a screen of text lights under a third of it"),
    Load("U2", "RS-485 driver into 54 ohm (two 120 ohm terminations and the bias)", "3V3", V3 * (V3 / 54 + 0.002),
         "3.3 V / 54 ohm (rail-to-rail swing, more than the driver makes) + 2 mA supply current"),
    led("LED1", "turn LED, green", 1.9, 330),
    led("LED2", "stop LED, red", 1.8, 330),
    led("LED3", "alert LED, blue", 2.6, 150),
    Load("BZ1", "piezo through 100 ohm, PWM", "3V3", V3 * (V3 / 100),
         "3.3 V / 100 ohm = 33 mA: the peak, as if it were steady"),
    Load("SW", "keypad: five column pull-ups (RP2040 about 50 kohm) held low", "3V3", V3 * 5 * (V3 / 50e3),
         "5 x 3.3 V / 50 kohm"),
)


def rail_amps(rail: str, loads=BOX_LOADS) -> float:
    return sum(ld.watts for ld in loads if ld.rail == rail) / (V3 if rail == "3V3" else 1.0)


def box_watts(loads=BOX_LOADS) -> float:
    """Power the box takes at VSYS: 3V3 loads through the Pico's regulator, the rest direct."""
    p3 = sum(ld.watts for ld in loads if ld.rail == "3V3")
    return p3 / PICO_BUCK_EFF + sum(ld.watts for ld in loads if ld.rail == "VSYS")


# --- the path from the hub's supply to one box's VSYS ----------------------------------------

@dataclass(frozen=True)
class Path:
    v_supply_min: float = 5.0 * 0.95   # MEAN WELL GST25A05: 5 V; -5 % assumed, wider than its data sheet
    r_cable: float = 2 * 2.0 * 0.0178 / 0.25   # 2 m, two 0.25 mm^2 copper conductors (out and back)
    r_fuse: float = 0.45               # Bourns MF-MSMF075-2: resistance one hour after a trip (R1max)
    v_diode: float = 0.45              # onsemi MBR120VLSFT1G at 0.5 A, worst case
    r_connectors: float = 4 * 0.005    # two M8 matings, two contacts each
    r_efuse: float = 0.06              # TI TPS25940A's switch: 42 mohm typical, taken as 60


def vsys_and_current(path: Path = Path(), watts: float | None = None) -> tuple[float, float]:
    """(VSYS, current) at the box: a constant-power load behind a resistive path and a diode."""
    p = box_watts() if watts is None else watts
    r = path.r_cable + path.r_fuse + path.r_connectors + path.r_efuse
    v_head = path.v_supply_min - path.v_diode
    # VSYS = v_head - I r and I = P / VSYS  ->  VSYS^2 - v_head VSYS + P r = 0 (upper root).
    disc = v_head * v_head - 4 * p * r
    if disc < 0:
        raise ValueError("the path cannot deliver this power")
    vsys = (v_head + disc ** 0.5) / 2
    return vsys, p / vsys


VSYS_MIN = 1.8          # Pico data sheet: VSYS 1.8 to 5.5 V
VSYS_MAX = 5.5
DISPLAY_VIN_MIN = 3.3   # Waveshare 2.42in module: 3.3 to 5 V


# --- the hub ------------------------------------------------------------------------------------

BOXES = 4
SUPPLY_A = 4.0          # Mean Well GST25A05-P1J: 5 V 4 A
FUSE_HOLD_A = 0.75      # Bourns MF-MSMF075-2 at 23 C
FUSE_TRIP_A = 1.5
FUSE_DERATE_40C = 0.85  # hold current at 40 C inside the hub (Bourns derating table, rounded down)


def hub_budget() -> dict[str, float]:
    _, i_box = vsys_and_current()
    return {
        "box_A": i_box,
        "four_boxes_A": BOXES * i_box,
        "supply_margin": SUPPLY_A / (BOXES * i_box),
        # A shorted port draws up to the trip current until the fuse opens; the three other boxes
        # must keep running through that: the supply carries them and the faulted port together.
        "one_port_faulted_A": (BOXES - 1) * i_box + FUSE_TRIP_A,
        "fuse_hold_40C_A": FUSE_HOLD_A * FUSE_DERATE_40C,
    }


# --- hot plug and overvoltage: the box's eFuse U5 -------------------------------------------
# A cable plugged into a live hub port is a step through the cable's inductance into whatever
# capacitance the box has at its input: with little of it the LC rings to nearly twice the
# supply. A wrong adapter in the hub's jack (9 V and 12 V ones have the same 2.1 mm plug) is a
# steady overvoltage, and the SMAJ5.0A at the box's input conducts only from 6.4 V. The Pico takes
# 5.5 V at VSYS at most. So the cable's 5 V reaches D26 and VSYS through U5, a TI TPS25940A eFuse:
# its switch opens while its input is over the threshold R20-R22 set, and its output rises at the
# slew rate C4 sets, milliseconds where the ring lasts microseconds. Figures: the TPS2594x data
# sheet's electrical characteristics (V(OVPR), V(ENR), the dVdT current and gain), its absolute
# maximum ratings (IN 20 V).

V_SUPPLY_MAX = 5.0 * 1.05   # GST25A05 at the top of its tolerance (+5 %, as assumed for the low end)
SMAJ_VBR_MIN = 6.4          # Littelfuse SMAJ5.0A: breakdown from 6.40 V (at 10 mA)
D26_VF_MIN = 0.15           # MBR120VLSFT1G at a few mA and hot: the least it drops
C_VSYS_MIN = 10e-6 * 0.5    # C2 alone, at half its value under 5 V of DC bias (the Pico's and the
                            # display's own capacitors not counted: the fewest microfarads there can be)


@dataclass(frozen=True)
class Plug:
    """The live port, the cable and the box's input at the instant the cable goes in."""
    v: float = V_SUPPLY_MAX
    r: float = 0.15 + 2 * 2.0 * 0.0178 / 0.25 + 4 * 0.005   # the port fuse cold (MF-MSMF075-2
                                                             # Rmin 0.15 ohm), the cable, the contacts
    henry: float = 2.0 * 0.7e-6   # two 0.25 mm^2 conductors about 1.5 mm apart: some 0.7 uH per metre
    c: float = 1e-6               # C3 at U5's input


def ring_peak(v: float, r: float, henry: float, c: float) -> float:
    """The peak of a series RLC's step response (the voltage on c), no clamp: an upper bound."""
    zeta = r / 2 * (c / henry) ** 0.5
    if zeta >= 1:
        return v
    return v * (1 + math.exp(-math.pi * zeta / (1 - zeta * zeta) ** 0.5))


def ring(plug: Plug, t_end: float = 200e-6, dt: float = 5e-9) -> list[float]:
    """The input node's voltage, step by step (semi-implicit Euler)."""
    i = vc = 0.0
    out = []
    for _ in range(int(t_end / dt)):
        i += (plug.v - plug.r * i - vc) / plug.henry * dt
        vc += i / plug.c * dt
        out.append(vc)
    return out


@dataclass(frozen=True)
class EFuse:
    """U5 and the parts that set it: R20 IN to EN/UVLO, R21 EN/UVLO to OVP, R22 OVP to GND
    (0.1 %), C4 on dVdT."""
    r_top: float = 82.5e3
    r_mid: float = 7.15e3
    r_bottom: float = 20.0e3
    tol: float = 0.001
    v_ref: tuple[float, float] = (0.97, 1.01)   # V(OVPR) and V(ENR), rising: min and max
    c_dvdt: float = 22e-9
    i_dvdt: float = 1e-6       # dVdT charging current (typical)
    gain_dvdt: float = 11.9    # V(OUT) / V(dVdT)
    in_abs_max: float = 20.0

    def _ratio(self, upper: float, lower: float) -> tuple[float, float]:
        lo = 1 + upper * (1 - self.tol) / (lower * (1 + self.tol))
        hi = 1 + upper * (1 + self.tol) / (lower * (1 - self.tol))
        return lo, hi

    def trip(self) -> tuple[float, float]:
        """Input voltage at which the switch opens (overvoltage): lowest and highest."""
        lo, hi = self._ratio(self.r_top + self.r_mid, self.r_bottom)
        return self.v_ref[0] * lo, self.v_ref[1] * hi

    def uvlo(self) -> tuple[float, float]:
        """Input voltage from which the switch closes (undervoltage lockout): lowest and highest."""
        lo, hi = self._ratio(self.r_top, self.r_mid + self.r_bottom)
        return self.v_ref[0] * lo, self.v_ref[1] * hi

    def slew(self) -> float:
        """The output's rise in V/s."""
        return self.gain_dvdt * self.i_dvdt / self.c_dvdt


def hotplug_vsys_peak(plug: Plug = Plug(), efuse: EFuse | None = EFuse()) -> float:
    """VSYS's highest value after a hot plug. Without the eFuse the ring reaches VSYS's capacitance
    through D26 (which then holds the peak); with it, the output follows a ramp from 0 and never
    its input, and opens whenever the input passes the lowest trip point."""
    if efuse is None:
        return ring_peak(plug.v, plug.r, plug.henry, plug.c + C_VSYS_MIN) - D26_VF_MIN
    dt = 5e-9
    slew, trip = efuse.slew(), efuse.trip()[0]
    out = peak = 0.0
    for v_in in ring(plug, dt=dt):
        if v_in < trip:
            out = min(out + slew * dt, v_in)
        peak = max(peak, out)
    # after the ring the output ramps on to the supply (U5 drops next to nothing at no load)
    return max(peak, plug.v) - D26_VF_MIN


def steady_vsys(v_in: float, efuse: EFuse | None = EFuse()) -> float:
    """VSYS with a steady input (a wrong adapter): nothing if U5 has opened."""
    if efuse is not None and v_in >= efuse.trip()[0]:
        return 0.0
    return v_in - D26_VF_MIN


# --- RS-485 bias and termination ------------------------------------------------------------

R_TERM = 120.0          # each end: the cable's characteristic impedance (about 100-120 ohm)
R_BIAS = 390.0          # hub only: A to 3.3 V, B to GND
V_BIAS = 3.3
V_FAILSAFE = 0.200      # TIA/EIA-485 receiver threshold: idle must read as a 1 even without fail-safe receivers
R_DRIVER_MIN = 54.0     # TIA/EIA-485 driver test load
UNIT_LOAD_OHM = 12e3    # 1 UL: 12 kohm from each line to ground, 24 kohm across A-B; every
                        # transceiver (box and hub) counted as a full unit load


def parallel(*rs: float) -> float:
    return 1.0 / sum(1.0 / r for r in rs)


def bus_idle_volts(boxes: int = BOXES) -> float:
    """V(A) - V(B) on an idle bus: the bias divider across both terminations and the receivers."""
    r_bus = parallel(R_TERM, R_TERM, *([2 * UNIT_LOAD_OHM] * (boxes + 1)))
    return V_BIAS * r_bus / (2 * R_BIAS + r_bus)


def driver_load_ohm() -> float:
    """What a driver sees: both terminations, the bias chain (A-3V3-GND-B) and the receivers."""
    return parallel(R_TERM, R_TERM, 2 * R_BIAS, *([2 * UNIT_LOAD_OHM] * (BOXES + 1)))


def termination_watts(v_od: float = V3) -> float:
    return v_od * v_od / R_TERM


def report() -> str:
    out = ["one box, worst case:"]
    for ld in BOX_LOADS:
        amps = ld.watts / (V3 if ld.rail == "3V3" else 5.0)
        out.append(f"  {ld.ref:5} {ld.rail:4} {amps * 1000:6.1f} mA  {ld.what} ({ld.source})")
    vsys, i_box = vsys_and_current()
    out.append(f"  3V3 rail {rail_amps('3V3') * 1000:.0f} mA of the Pico's {PICO_3V3_LIMIT_A * 1000:.0f} mA; "
               f"box power {box_watts():.2f} W; at VSYS {vsys:.2f} V the box draws {i_box * 1000:.0f} mA")
    hb = hub_budget()
    out.append(f"hub: 4 boxes {hb['four_boxes_A']:.2f} A of {SUPPLY_A:g} A (x{hb['supply_margin']:.1f}); "
               f"one port shorted until its fuse trips {hb['one_port_faulted_A']:.2f} A; "
               f"fuse hold at 40 C {hb['fuse_hold_40C_A']:.2f} A vs {hb['box_A']:.2f} A")
    out.append(f"bus: idle V(A)-V(B) {bus_idle_volts() * 1000:.0f} mV (needs {V_FAILSAFE * 1000:.0f}); "
               f"driver load {driver_load_ohm():.1f} ohm (>= {R_DRIVER_MIN:g}); "
               f"termination dissipation {termination_watts() * 1000:.0f} mW")
    return "\n".join(out)


if __name__ == "__main__":
    print(report())
