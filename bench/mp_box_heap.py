# Runs ON MicroPython (bench/bench_box.py starts it): the box application's heap after boot and
# during an auction, and what its poll loop allocates over 1,000 idle loops (heartbeats flowing
# both ways). The HAL is a stand-in with preallocated buffers so that it allocates nothing itself;
# the tablet side (protocol TabletEndpoint) runs in this interpreter too, outside the measured
# calls, and its own retained heap is measured and subtracted. Prints one JSON line.
import gc
import sys

root = sys.argv[1]  # the repository, or build/mpy (the compiled .mpy files, as flashed)
sys.path.insert(0, root + "/firmware")
sys.path.insert(0, root)
gc.collect()
BASE = gc.mem_alloc()

import app as A  # noqa: E402
import hal_unix  # noqa: E402, F401  (the unix box loads it too; the board loads hal_rp2)

gc.collect()
MODULES = gc.mem_alloc() - BASE  # code and module globals: ~0 RAM when frozen into the image


class Clock:
    def __init__(self):
        self.t = 1000

    def ticks_ms(self):
        return self.t

    def ticks_diff(self, a, b):
        return a - b

    def ticks_add(self, a, d):
        return a + d


class Wire:
    """A UART with preallocated rx/tx buffers (readinto/write allocate nothing)."""

    def __init__(self):
        self.rx = bytearray(4096)
        self.rn = 0
        self.rpos = 0
        self.tx = bytearray(4096)
        self.tn = 0

    def readinto(self, buf):
        n = self.rn - self.rpos
        if n <= 0:
            return 0
        if n > len(buf):
            n = len(buf)
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


class Nothing:
    eof = True

    def get(self):
        return 0

    def beep(self, ms=0):
        pass

    def indicate(self, turn, stop, alert, link):
        pass

    def show(self, lines, page=-1):
        pass


class Hal:
    def __init__(self, clock):
        self.serial = Wire()
        self.keys = Nothing()
        self.display = Nothing()
        self.buzzer = Nothing()
        self.ticks_ms = clock.ticks_ms
        self.ticks_diff = clock.ticks_diff
        self.ticks_add = clock.ticks_add

    def wait(self, ms):
        pass

    def close(self):
        pass


clock = Clock()
hal = Hal(clock)
box = A.BoxApp(hal, 0)
box.step(0)  # first loop: HELLO out, first redraw
gc.collect()
after_boot = gc.mem_alloc() - BASE

from protocol import calls as PC  # noqa: E402
from protocol.session import TabletEndpoint  # noqa: E402

gc.collect()
m = gc.mem_alloc()
tab = TabletEndpoint(0, 0x4242, clock.t)
gc.collect()
tab_cost = gc.mem_alloc() - m


def pump_tablet():
    """Bytes the box wrote -> tablet; what the tablet sends -> the box's rx (outside measurement)."""
    w = hal.serial
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
    return {"turn": "NESW"[n % 4], "prevent": True, "lowest": PC.NAMES[min(37, 4 + n)],
            "allowed": ["P", "X"], "board": 1, "dealer": "N", "vul": "None", "auction": auction,
            "message": "bench"}


for n in range(0, 31):
    tab.set_view(view(n))
    for _ in range(5):
        clock.t += 1
        pump_tablet()
        box.step(0)
assert box.view.n == 30, box.view.n
tab.take_events()
gc.collect()
in_auction = gc.mem_alloc() - BASE - tab_cost


def idle_round():
    """1,000 idle poll loops, 1 ms apart: heartbeats (ACK / PING) flow, nothing else happens.
    Returns (bytes the box's step() allocated, heap growth after a collection)."""
    gc.collect()
    retained0 = gc.mem_alloc()
    alloc = 0
    gc.disable()
    for _ in range(1000):
        clock.t += 1
        pump_tablet()
        a = gc.mem_alloc()
        box.step(0)
        alloc += gc.mem_alloc() - a
    gc.enable()
    tab.take_events()
    gc.collect()
    return alloc, gc.mem_alloc() - retained0


redraws0 = box.renders
idle_round()  # warm-up: first heartbeats, the tablet's lists reach their size
alloc, retained = idle_round()
print('{"modules": %d, "after_boot": %d, "in_auction": %d, "idle_alloc_1000": %d, "idle_retained_1000": %d, '  # noqa: UP031
      '"idle_redraws": %d, "linked": %s, "tablet_retained": %d}'
      % (MODULES, after_boot, in_auction, alloc, retained, box.renders - redraws0,
         "true" if box.ep.linked(clock.t) else "false", tab_cost))
