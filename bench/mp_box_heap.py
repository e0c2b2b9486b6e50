# Runs ON MicroPython (bench/bench_box.py starts it): the heap the box's board code uses after boot
# and during an auction, and what its poll loop allocates over 1,000 idle loops (heartbeats
# flowing both ways).
#
#   micropython bench/mp_box_heap.py IMAGE PINMAP STORE
#
# Runs on the unix port (64-bit) and on the WebAssembly port (32-bit, like the RP2040's Cortex-M0+:
# 4-byte pointers, 16-byte heap blocks), see bench/bench_box.py.
#
# IMAGE is build/box.romfs (scripts/box_image.py: mounted at /rom as the board mounts its ROMFS
# partition, so bytecode runs in place) or a staged directory of the same .mpy files (imported
# from a filesystem: the bytecode is copied into the heap). The code measured is the board's own:
# main_rp2's objects (hal_rp2.Hal from the pin map, store.Store, app.BoxApp). Only `machine` is
# stood in, by objects made before the baseline: on the RP2040 machine.Pin, I2C, SPI and PWM objects
# are static in flash. The UART's receive (512, as hal_rp2 asks) and transmit (256) buffers are
# allocated after the baseline, as the rp2 driver allocates them on the heap. What stands for
# flash (the image bytes) is read before the baseline. The tablet side (protocol TabletEndpoint)
# runs in this interpreter too; its own retained heap is measured and subtracted. Prints one JSON
# line.
#
# "# --- phase ---" lines split the script for the WebAssembly port, whose gc.collect() does
# nothing inside running code (the heap is collected between top-level runs): each phase is one
# run there, and starts with its measurement. The unix port runs the file as it is.
import gc
import os
import sys

import vfs

# The unix port has sys.argv; the 32-bit WebAssembly port (bench/wasm/run.mjs) sets BOX_ARGV.
argv = sys.argv if len(getattr(sys, "argv", ())) > 1 else BOX_ARGV  # noqa: F821
image, pinmap, store_path = argv[1], argv[2], argv[3]
if not hasattr(os, "urandom"):
    # The WebAssembly port has no os.urandom (the board has): the box's epoch needs two bytes.
    import random

    class _Os:
        def urandom(self, n):
            return bytes(random.getrandbits(8) for _ in range(n))

        def rename(self, a, b):
            os.rename(a, b)

    sys.modules["os"] = _Os()
if image.endswith(".romfs"):
    with open(image, "rb") as f:
        flash = f.read()
    vfs.mount(vfs.VfsRom(flash), "/rom")
    sys.path.insert(0, "/rom")
else:
    sys.path.insert(0, image)


class Clock:
    def __init__(self):
        self.t = 1000

    def ticks_ms(self):
        return self.t

    def ticks_diff(self, a, b):
        return a - b

    def ticks_add(self, a, d):
        return a + d


class FakePin:
    def __init__(self):
        self.v = 1  # pulled up: no key pressed

    def value(self, v=None):
        if v is None:
            return self.v
        self.v = v
        return None


class Pins:
    """machine.Pin: Pin(n, ...) gives the one object of GPIO n (static in the rp2 firmware)."""
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self):
        self.gpio = [FakePin() for _ in range(30)]

    def __call__(self, n, mode=-1, pull=-1, value=None):
        return self.gpio[n]


class FakeUart:
    """machine.UART: the driver's ring buffers come from the heap (m_new in the rp2 port)."""

    def __init__(self):
        self.rx = None
        self.tx = None

    def __call__(self, uart_id, baudrate=115200, tx=None, rx=None, bits=8, parity=None, stop=1,
                 rxbuf=256, txbuf=256):
        self.rx = bytearray(rxbuf)
        self.rn = 0
        self.rpos = 0
        self.tx = bytearray(txbuf)
        self.tn = 0
        return self

    def any(self):
        return self.rn - self.rpos

    def readinto(self, buf, nbytes=-1):
        n = self.rn - self.rpos
        if n <= 0:
            return 0
        if n > len(buf):
            n = len(buf)
        if 0 <= nbytes < n:
            n = nbytes
        p = self.rpos
        for i in range(n):
            buf[i] = self.rx[p + i]
        self.rpos = p + n
        return n

    def write(self, data):
        n = len(data)
        t = self.tn
        for i in range(n):
            self.tx[t + i] = data[i]
        self.tn = t + n
        return n

    def flush(self):
        pass


class FakeI2c:
    def __init__(self):
        self.found = [0x3C]

    def __call__(self, *a, **k):
        return self

    def scan(self):
        return self.found

    def writeto(self, addr, buf):
        pass

    def writevto(self, addr, bufs):
        pass


class FakeSpi:
    """machine.SPI (the display on 4-wire SPI, the reference box): the rp2 port's SPI objects
    are static, nothing on the heap."""

    def __call__(self, *a, **k):
        return self

    def write(self, buf):
        pass


class FakePwm:
    def __call__(self, pin):
        return self

    def freq(self, f):
        pass

    def duty_u16(self, d):
        pass


class Machine:
    def __init__(self):
        self.Pin = Pins()
        self.UART = FakeUart()
        self.I2C = FakeI2c()
        self.SPI = FakeSpi()
        self.PWM = FakePwm()


machine = Machine()
sys.modules["machine"] = machine
clock = Clock()
ticks = (clock.ticks_ms, clock.ticks_diff, clock.ticks_add)
uart = machine.UART
# every global made below exists already, so the globals dict does not grow inside a measurement
app = hal_rp2 = store = hal = box = PC = TabletEndpoint = tab = None
BASE = MODULES = after_boot = m = tab_cost = in_auction = r0 = r1 = alloc = redraws0 = 0


def pump_tablet():
    """Bytes the box wrote -> tablet; what the tablet sends -> the UART's receive buffer."""
    w = uart
    if w.tn:
        tab.receive(bytes(w.tx[0:w.tn]), clock.t)
        w.tn = 0
    if w.rpos >= w.rn:
        w.rpos = 0
        w.rn = 0
    while True:
        f = tab.output(clock.t)
        if f is None:
            break
        n = len(f)
        if w.rn + n > len(w.rx):
            break
        w.rx[w.rn:w.rn + n] = f
        w.rn += n


def view(n):
    auction = []
    for i in range(n):
        auction.append({"call": PC.NAMES[3 + i] if i % 2 == 0 else "P", "alert": i % 5 == 0,
                        "stop": False})
    # MicroPython: the seat letters of its own (protocol/calls.py), never shared_rules
    return {"turn": "NESW"[n % 4], "prevent": True, "lowest": PC.NAMES[min(37, 4 + n)],
            "allowed": ["P", "X"], "board": 1, "dealer": "N", "vul": "None", "auction": auction,
            "message": "bench"}


def idle_loops(k):
    """k idle poll loops, 1 ms apart: heartbeats (ACK / PING) flow, nothing else happens.
    Returns the bytes the box's step() allocated (collection off meanwhile)."""
    total = 0
    gc.disable()
    for _ in range(k):
        clock.t += 1
        pump_tablet()
        a = gc.mem_alloc()
        box.step(0)
        total += gc.mem_alloc() - a
    gc.enable()
    tab.take_events()
    return total


# --- phase ---
gc.collect()
BASE = gc.mem_alloc()
import app  # noqa: E402, F811
import hal_rp2  # noqa: E402, F811
import store  # noqa: E402, F811

# --- phase ---
gc.collect()
MODULES = gc.mem_alloc() - BASE  # module objects, and the bytecode when not run in place
hal = hal_rp2.Hal(pinmap)
hal.ticks_ms, hal.ticks_diff, hal.ticks_add = ticks
box = app.BoxApp(hal, 0, False, store.Store(store_path))
box.step(0)  # first loop: HELLO out, first redraw

# --- phase ---
gc.collect()
after_boot = gc.mem_alloc() - BASE
m = gc.mem_alloc()
from protocol import calls as PC  # noqa: E402, F811
from protocol.tablet_endpoint import TabletEndpoint  # noqa: E402, F811

tab = TabletEndpoint(0, 0x4242, clock.t)

# --- phase ---
gc.collect()
tab_cost = gc.mem_alloc() - m  # the tablet's modules and endpoint: not the box's
for k in range(0, 31):
    tab.set_view(view(k))
    for _ in range(5):
        clock.t += 1
        pump_tablet()
        box.step(0)
assert box.view.n == 30, box.view.n
tab.take_events()

# --- phase ---
gc.collect()
in_auction = gc.mem_alloc() - BASE - tab_cost
redraws0 = box.renders
idle_loops(1000)  # warm-up: first heartbeats, the tablet's lists reach their size

# --- phase ---
gc.collect()
r0 = gc.mem_alloc()
alloc = idle_loops(1000)

# --- phase ---
gc.collect()
r1 = gc.mem_alloc()  # this phase's code is the same size as the last's: r1 - r0 is growth alone
alloc = idle_loops(1000)

# --- phase ---
print('{"modules": %d, "after_boot": %d, "in_auction": %d, "idle_alloc_1000": %d, "idle_retained_1000": %d, '  # noqa: UP031
      '"idle_redraws": %d, "linked": %s, "tablet_retained": %d, "oled": %s, "bits": %d}'
      % (MODULES, after_boot, in_auction, alloc, r1 - r0, box.renders - redraws0,
         "true" if box.ep.linked(clock.t) else "false", tab_cost,
         "true" if hal.display.oled is not None else "false", 64 if sys.maxsize > 2**32 else 32))
