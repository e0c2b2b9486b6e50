# An in-memory link between a BoxEndpoint and a TabletEndpoint with a virtual millisecond clock,
# byte timing at the baud rate and seeded faults. Pure Python that runs under CPython AND
# MicroPython (its own LCG, so a seed means the same run on both).
from protocol import messages as M
from protocol.session import BoxEndpoint
from protocol.tablet_endpoint import TabletEndpoint


class Lcg:
    def __init__(self, seed):
        self.x = seed & 0x7FFFFFFF or 1

    def next(self):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return self.x

    def chance(self, p):
        return p > 0 and (self.next() % 1000000) < p * 1000000

    def below(self, n):
        return self.next() % n


class Pipe:
    """One direction: bytes arrive `delay` ms after the line is free, 10 bit times per byte."""

    def __init__(self, rng, baud=115200):
        self.rng = rng
        self.us_per_byte = 10000000 // baud
        self.q = []  # (due_us, byte)
        self.free_us = 0
        self.corrupt = 0.0
        self.drop = 0.0
        self.cut = False
        self.corrupted = 0
        self.dropped = 0

    def send(self, frame, now_ms):
        t = max(now_ms * 1000, self.free_us)
        for b in bytes(frame):
            t += self.us_per_byte
            if self.cut or self.rng.chance(self.drop):
                self.dropped += 1
                continue
            if self.rng.chance(self.corrupt):
                b ^= 1 + self.rng.below(255)
                self.corrupted += 1
            self.q.append((t, b))
        self.free_us = t

    def take(self, now_ms):
        lim = now_ms * 1000
        i = 0
        while i < len(self.q) and self.q[i][0] <= lim:
            i += 1
        if not i:
            return None
        out = bytes([b for _, b in self.q[:i]])
        self.q = self.q[i:]
        return out


class Link:
    def __init__(self, seed=1, seat="E", bus=False, baud=115200):
        self.rng = Lcg(seed)
        self.now = 1000
        self.seat = seat
        self.bus = bus
        self.box = BoxEndpoint(seat, epoch=1 + self.rng.below(65535), bus=bus, now=self.now)
        self.tab = TabletEndpoint(seat, epoch=1 + self.rng.below(65535), now=self.now)
        self.down = Pipe(self.rng, baud)
        self.up = Pipe(self.rng, baud)
        self.delivered = []
        self.states_applied = 0

    def faults(self, corrupt, drop):
        for p in (self.down, self.up):
            p.corrupt = corrupt
            p.drop = drop

    def cut(self, on):
        self.down.cut = on
        self.up.cut = on

    def step(self, ms=1):
        for _ in range(ms):
            self.now += 1
            now = self.now
            d = self.up.take(now)
            if d:
                self.tab.receive(d, now)
                self.delivered.extend(self.tab.take_events())
            d = self.down.take(now)
            if d:
                s0 = self.box.state_seq
                self.box.receive(d, now)
                self.states_applied += self.box.state_seq - s0
            while True:
                f = self.box.output(now)
                if f is None:
                    break
                self.up.send(f, now)
            if self.bus:
                # the bus master grants this seat a turn every 10 ms (four seats, 2.5 ms each)
                if now % 10 == 0:
                    f = self.tab.output(now, True)
                    self.down.send(f, now)
                    if self.tab.nak_reason:
                        pass
            else:
                while True:
                    f = self.tab.output(now)
                    if f is None:
                        break
                    self.down.send(f, now)

    def run_until(self, cond, limit_ms=20000):
        end = self.now + limit_ms
        while self.now < end:
            self.step(1)
            if cond():
                return True
        return False

    def calls(self):
        return [e for e in self.delivered if e["kind"] != "hello"]


def soak(seed, n_events, corrupt, drop, bus=False, cuts=0, box_reboots=0, tablet_reboots=0):
    """Submit n_events calls through a faulty link; returns (sent, received) lists of
    (seq, box_ms, call) so the caller checks: nothing lost, nothing duplicated, in order."""
    lk = Link(seed, bus=bus)
    lk.faults(corrupt, drop)
    sent = []
    rng = lk.rng
    specials = []
    for _ in range(cuts):
        specials.append((rng.below(n_events), "cut"))
    for _ in range(box_reboots):
        specials.append((rng.below(n_events), "box"))
    for _ in range(tablet_reboots):
        specials.append((rng.below(n_events), "tablet"))
    i = 0
    while i < n_events:
        for at, what in specials:
            if at == i:
                if what == "cut":
                    lk.cut(True)
                    lk.step(1500)
                    lk.cut(False)
                elif what == "box":
                    # a reboot loses RAM: only events already acked are safe (the firmware keeps
                    # its queue in flash; here we wait for the queue to drain first)
                    lk.run_until(lambda: lk.box.q_count == 0)
                    lk.box = BoxEndpoint(lk.seat, epoch=1 + rng.below(65535), bus=bus, now=lk.now)
                else:
                    old = lk.tab
                    lk.tab = TabletEndpoint(lk.seat, epoch=1 + rng.below(65535), now=lk.now)
                    # the tablet's journal knows what it delivered: a restarted tablet skips
                    # (epoch, seq) it has seen, as LinkMaster's user must
                    lk.tab_seen = old
        if lk.box.q_count < 16:
            ms = lk.now & 0xFFFFFFFF
            c = rng.below(M.TD - M.CALL + 1) + M.CALL if rng.below(4) == 0 else M.CALL
            arg = rng.below(38) if c == M.CALL else 0xFF
            if lk.box.submit(c, arg, ms) >= 0:
                sent.append((c, arg, ms))
                i += 1
        lk.step(1 + rng.below(20))
    ok = lk.run_until(lambda: lk.box.q_count == 0 and lk.box.session, 60000)
    got = []
    seen = {}
    for e in lk.calls():
        key = (e["epoch"], e["seq"], e["box_ms"])
        if key in seen:
            continue  # what the journal does across a tablet restart
        seen[key] = 1
        got.append(e)
    return ok, sent, got, lk
