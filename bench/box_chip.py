"""The box figures on emulated RP2040s (hardware/emu: stock MicroPython v1.27.0, flashed as `make
flash` flashes it) behind the real tablet (LinkMaster, controller, laws engine, journal), for
bench_box.py: point to point (one box, OK key down -> its display shows the call) and four boxes
on one RS-485 line (OK key down -> all four displays show it).

What makes these figures reproduce:
- **one clock** (hardware/emu/lockstep.py). The emulated chips run many times slower than real
  time, the tablet at wall speed. The chips stand while the tablet works (the bridge handed it
  bytes, its own next action is due, the bench keys another seat's call into it); the tablet's
  time on the chips' clock is the CPU time its threads take, and each byte it writes enters the
  line at its own clock's time: its decision time plus its compute time, never the moment a
  thread of the harness or the tablet happened to wake. The machine's load then changes how long
  a run takes, not what it measures; the tablet's turn is printed apart, on the chips' clock
  and on the wall.
- **the USB bridge modelled** (CONFIG "bridge" in emu.js): the bytes from the boxes wait for the
  bridge's latency timer, 1 ms as the tablet sets it (tablet_app/link/latency.py) or the FT231X's
  16 ms default.
- **enough calls for a percentile:** at least 200 timed calls keyed on the boxes' matrices per
  run, p99 as the 99th percentile of them (linear between ranks), over several runs with their
  spread.
"""
from __future__ import annotations

import os
import pathlib
import statistics
import time

from hardware.sim.table import tokens
from protocol import messages as M
from protocol.framing import Deframer
from shared_rules.types import SEATS

BAUD = 115200
HOLD_MS = 30  # a key held 30 ms of chip time, then released 30 ms (press 3 ms, release 20 ms)
BOARDS = {"boards": list(range(1, 49))}  # one round long enough for every board a run plays


def wire_bytes(payload_len: int) -> int:
    # COBS adds 1 byte per 254 (at least 1), the 0x00 delimiter 1, and a leading flush 0x00 1
    return payload_len + payload_len // 254 + 1 + 1 + 1


def pct(xs: list[float], p: float) -> float:
    """The p-th percentile, linear between the closest ranks (numpy's default)."""
    xs = sorted(xs)
    if not xs:
        return float("nan")
    k = (len(xs) - 1) * p / 100
    lo = int(k)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def frames_in(chunks: list[tuple[int, str]]) -> list[tuple[int, int, int, int]]:
    """(first chunk's chip us, last chunk's chip us, type, addr) of each good frame in a stream
    given as chronological (chip us, hex) chunks."""
    d = Deframer()
    out = []
    start = None
    for t, h in chunks:
        data = bytes.fromhex(h)
        i = 0
        while i < len(data):
            if start is None and data[i] != 0:
                start = t
            i = d.feed(data, i, len(data))
            if data[i - 1] == 0:
                if d.length and start is not None:
                    out.append((start, t, d.payload[1], d.payload[0]))
                start = None
    return out


def load() -> float:
    """The machine's load average over the last minute."""
    return os.getloadavg()[0]


def _turn_walls(e, t_in: list[int]) -> list[float]:
    """The wall time (ms) the chips stood for each of the tablet's turns that began at these
    chip times (the bridge handing it the call)."""
    walls = {r.at_us: r.wall_s for r in (e.one.stops if e.one else []) if r.why == "bridge"}
    return [walls[t] * 1000 for t in t_in if t in walls]


def turn_threads(e, t_in: list[int]) -> dict[str, tuple[float, float]]:
    """Where the tablet's turns went, early against late in the run: the CPU of each counted
    thread (the link's, the table loop's) over the whole stop the turn began (the STATE written,
    and what the tablet did next before it settled), and how far the
    tablet's clock stood ahead of the chips when the call came (work of its own not yet done on
    the chips' clock), the median (chip ms) over the first quarter of the turns and over the last.
    A turn that grows through the run shows here in the part that grows."""
    recs = {r.at_us: r for r in (e.one.stops if e.one else []) if r.why == "bridge"}
    turns = [recs[t] for t in t_in if t in recs]
    q = len(turns) // 4
    if not q:
        return {}
    names = sorted({n for r in turns for n in r.by_thread})
    parts = {n: [r.by_thread.get(n, 0) / 1000 for r in turns] for n in names}
    parts["clock ahead of the chips"] = [r.ahead_us / 1000 for r in turns]
    return {n: (statistics.median(xs[:q]), statistics.median(xs[-q:])) for n, xs in parts.items()}


def _after(frames: list[tuple[int, int, int, int]], t0: int, typ: int) -> tuple[int, int, int, int] | None:
    return next((f for f in frames if f[0] >= t0 and f[2] == typ), None)


def on_chip(workdir: pathlib.Path, calls: int = 200, bridge_ms: float = 1.0) -> dict | None:
    """One box (N) point to point, keying its bids on the matrix; E, S, W bid through the
    controller: 35-bid auctions (38 calls), board after board, until `calls` of N's bids are
    timed. Per call, chip ms: OK key down -> the first display frame showing the call (debounce,
    the frame, the bridge, the tablet's turn, the STATE, the draw and the push)."""
    from hardware.emu.harness import missing

    why = missing()
    if why:
        print("on the chip: not run:", why)
        return None
    from hardware.emu.rig import EmuRig
    from protocol.calls import NAMES

    wall0 = time.monotonic()
    load0 = load()
    r = EmuRig(workdir, "N", frames=True, extra_config={"heap_log": True, "trace": True},
               hold_ms=HOLD_MS, bridge_ms=bridge_ms, lockstep=True, session=BOARDS)
    e = r.emu
    lat: list[float] = []
    own: list[float] = []      # the box's own share: key down -> frame out, STATE in -> shown
    bridge: list[float] = []   # the call frame's end on the wire -> the bridge hands it over
    tablet: list[float] = []   # the tablet has the call -> it starts writing the STATE
    t_in: list[int] = []       # chip time the bridge handed the tablet the call
    floor: list[float] = []
    boards = 0
    failure = ""
    try:
        boot = e.wait_console("N", r"box boot .* heap (\d+)", 180)
        prog0, _ = e.flash_bytes()
        while len(lat) < calls:
            with r.lock:
                dealer = r.ctl.estate["dealer"]
            made: list[str] = []
            script = [NAMES[3 + k] for k in range(35)] + ["P"] * 3
            first = SEATS.index(dealer)
            for i, name in enumerate(script):
                seat = SEATS[(first + i) % 4]
                if seat != "N":
                    with r.acting():
                        r.ctl.box_event(seat, "call", call=name)
                    made.append(name)
                    continue
                e.wait_screen("N", lambda sc: "YOUR TURN" in sc.status, 180)
                kd = len(e.key_downs["N"])
                n_tr = len(_traces(e))
                keys = tokens(name)
                e.press("N", " ".join(keys), hold_ms=HOLD_MS, gap_ms=HOLD_MS)
                made.append(name)
                r.wait_calls(made, 120)
                if name == "P":
                    continue  # a pass is not told apart on the display: not timed
                n_down = kd + len(keys)
                e.wait(lambda k=n_down: len(e.key_downs["N"]) >= k, 60, "keys down")
                t_ok = e.key_downs["N"][n_down - 1][0]

                def shown(t0=t_ok, c=name) -> list[int]:
                    return [t for t, f in e.frames["N"]
                            if t > t0 and c in [x.rstrip("!") for x in f.auction.split()]]

                e.wait(lambda: bool(shown()), 180, f"N's display showing {name}")
                lat.append((min(shown()) - t_ok) / 1000)
                e.wait(lambda k=n_tr: len(_traces(e)) > k, 60, "trace")
                x = _traces(e)[n_tr]
                taken = (x[5] - t_ok) / 1000
                own.append(taken + x[0] / 1000 + (x[4] - x[3]) / 1000)
                up = frames_in([(t, h) for t, s, h in e.wire_log if t >= t_ok])
                handed = frames_in([(t, h) for t, s, h in e.to_tablet if t >= t_ok])
                down = frames_in([(t, h) for t, s, h in e.to_boxes if t >= t_ok])
                f_up, f_in = _after(up, t_ok, M.CALL), _after(handed, t_ok, M.CALL)
                if f_up and f_in:
                    bridge.append((f_in[1] - f_up[1]) / 1000)
                    f_st = _after(down, f_in[1], M.STATE)
                    if f_st:
                        tablet.append((f_st[0] - f_in[1]) / 1000)
                        t_in.append(f_in[1])
                with r.lock:
                    st = M.encode_state(r.ctl.views()["N"])  # the STATE that showed it
                floor.append((wire_bytes(M.HEADER + M.EVENT_BODY + M.CRC)
                              + wire_bytes(M.HEADER + len(st) + M.CRC)) * 10 / BAUD * 1000)
                if len(lat) >= calls:
                    break
            if len(lat) >= calls:
                break
            e.wait_screen("N", lambda sc: "AUCTION OVER" in sc.status, 180)
            with r.acting():
                r.next_board()
            boards += 1
    except TimeoutError as exc:
        why = str(exc).splitlines()[0]
        failure = f"stopped after {len(lat)} timed calls: {why[:150]}"
    try:
        prog1, erased1 = e.flash_bytes()
        heaps = [int(t.split()[1]) for _, t in e.console["N"] if t.startswith("heap ")]
        sim, wall, _ = e.clock()
        walls = _turn_walls(e, t_in)
        threads = turn_threads(e, t_in)
    finally:
        r.close()
    if not lat:
        return {"failure": failure or "no call timed", "n": 0}
    return {"n": len(lat), "lat": lat, "turn_threads": threads, "p50": statistics.median(lat), "p99": pct(lat, 99),
            "max": max(lat), "own_p50": statistics.median(own), "own_p99": pct(own, 99),
            "bridge_p50": statistics.median(bridge) if bridge else float("nan"),
            "bridge_max": max(bridge) if bridge else float("nan"),
            "tablet_p50": statistics.median(tablet) if tablet else float("nan"),
            "tablet_p99": pct(tablet, 99), "floor_mean": statistics.mean(floor),
            "heap_boot": int(boot.group(1)), "heap_peak": max(heaps) if heaps else 0,
            "programmed": prog1[0] - prog0[0], "boards": boards + 1, "failure": failure,
            "speed": sim / max(wall, 1), "wall": time.monotonic() - wall0,
            "tablet_wall_p50": statistics.median(walls) if walls else float("nan"),
            "tablet_wall_p99": pct(walls, 99), **_clock_stats(e, load0)}


def _clock_stats(e, load0: float) -> dict:
    one = e.one
    return {"holds": e.holds, "held_s": e.held_s, "late": len(one.late) if one else 0,
            "forced": one.forced if one else 0, "writes": one.writes if one else 0,
            "load0": load0, "load1": load(), "bridge_ms": e.bridge_ms}


def on_chip_bus(workdir: pathlib.Path, calls: int = 200, bridge_ms: float = 1.0,
                bids: int = 13, trace: bool = False) -> dict | None:
    """Four boxes (BUS=1) on one RS-485 line, the real tablet as bus master behind the hub's
    bridge: `bids` rising bids then three passes a board, every call keyed on its box's matrix
    and timed, board after board until `calls`. Per call, chip ms: OK key down on the box in
    turn -> the last of the four displays showing it (debounce, the wait for the grant, the
    frame, the bridge, the tablet's turn, the four STATEs one after the other on the line, each
    box's draw and push). `trace`: the boxes print each STATE's apply, draw and push (config
    "trace", firmware/app.py), summed up apart; their prints cost the chips a little time."""
    from hardware.emu.harness import missing

    why = missing()
    if why:
        print("on the chip, bus: not run:", why)
        return None
    from hardware.emu.rig import EmuRig, last_round, round_shown
    from protocol.calls import NAMES

    wall0 = time.monotonic()
    load0 = load()
    r = EmuRig(workdir, "".join(SEATS), bus=True, frames=True, hold_ms=HOLD_MS, bridge_ms=bridge_ms,
               lockstep=True, session=BOARDS, extra_config={"trace": True} if trace else None)
    e = r.emu
    lat: list[float] = []
    split: list[tuple[float, ...]] = []  # to the line, call frame, bridge, tablet, STATEs -> last
    t_in: list[int] = []  # chip time the bridge handed the tablet the call
    parts: list[dict] = []  # the four STATEs -> the last display, in parts (redraw_parts)
    resent = 0
    floor: list[float] = []
    failure = ""
    t_first = 0
    boards = 0
    try:
        while len(lat) < calls:
            with r.lock:
                dealer = r.ctl.estate["dealer"]
            made: list[str] = []
            script = [NAMES[3 + i] for i in range(bids)] + ["P"] * 3
            first = SEATS.index(dealer)
            for i, call in enumerate(script):
                seat = SEATS[(first + i) % 4]
                keys = tokens(call)
                e.wait_screen(seat, lambda sc: "YOUR TURN" in sc.status, 180)
                if not t_first:
                    t_first = e.sim_us
                kd = len(e.key_downs[seat])
                e.press(seat, " ".join(keys), hold_ms=HOLD_MS, gap_ms=HOLD_MS)
                made.append(call)
                r.wait_calls(made, 180)
                n_down = kd + len(keys)
                e.wait(lambda k=n_down, s=seat: len(e.key_downs[s]) >= k, 60, "keys down")
                t_ok = e.key_downs[seat][n_down - 1][0]
                cells = last_round(made, dealer)

                def shown(s: str, t0=t_ok, want=cells) -> list[int]:
                    return [t for t, f in e.frames[s] if t > t0 and round_shown(f) == want]

                e.wait(lambda: all(shown(s) for s in SEATS), 180, f"all boxes showing {call}")
                t_last = max(min(shown(s)) for s in SEATS)
                lat.append((t_last - t_ok) / 1000)
                with r.lock:
                    views = r.ctl.views()  # the STATEs that showed it
                st_us = {s: wire_bytes(M.HEADER + len(M.encode_state(v)) + M.CRC) * 10e6 / BAUD
                         for s, v in views.items()}
                fr = [f for f in e.line_frames() if f[0] > t_ok]
                sent = next(((a, z) for a, z, _, what in fr if what == f"CALL from {seat}"), None)
                handed = frames_in([(t, h) for t, _, h in e.to_tablet if t >= t_ok])
                f_in = _after(handed, t_ok, M.CALL)
                if sent and f_in:
                    t_st = [a for a, _, _, what in fr if a >= f_in[1] and what.startswith("STATE to ")]
                    resent += max(0, sum(1 for a in t_st if a <= t_last) - 4)  # STATEs sent again
                    if t_st:
                        split.append(((sent[0] - t_ok) / 1000, (sent[1] - sent[0]) / 1000,
                                      (f_in[1] - sent[1]) / 1000, (t_st[0] - f_in[1]) / 1000,
                                      (t_last - t_st[0]) / 1000))
                        t_in.append(f_in[1])
                        part = redraw_parts(e, fr, f_in[1], {s: min(shown(s)) for s in SEATS}, st_us)
                        if part:
                            parts.append(part)
                wire = wire_bytes(M.HEADER + M.EVENT_BODY + M.CRC) + sum(
                    wire_bytes(M.HEADER + len(M.encode_state(v)) + M.CRC) for v in views.values())
                floor.append(wire * 10 / BAUD * 1000)
                if len(lat) >= calls:
                    break
            if len(lat) >= calls:
                break
            with r.acting():
                r.next_board()
            boards += 1
    except TimeoutError as exc:
        why = str(exc).splitlines()[0]
        failure = f"stopped after {len(lat)} calls: {why[:150]}"
    try:
        sim, wall, _ = e.clock()
        answered, missed = e.grants(t_first)
        early = tablet_early(e.line_frames(), missed)
        first = e.collided[0][0] if e.collided else 0
        around = e.line_around(first, 10, 4) if e.collided else ""
        walls = _turn_walls(e, t_in)
        btrace = [[int(x) / 1000 for x in line.split()[1:4]] for s in SEATS
                  for t, line in e.console[s] if t >= t_first and line.startswith("btrace ")]
    finally:
        r.close()
    if not lat:
        return {"failure": failure or "no call timed", "n": 0}
    return {"n": len(lat), "lat": lat, "p50": statistics.median(lat), "p99": pct(lat, 99),
            "btrace": btrace, "max": max(lat), "grants": len(answered) + len(missed),
            "grants_passed": len(missed),
            "floor_mean": statistics.mean(floor), "collisions": e.collisions, "resent": resent,
            "undriven": len(e.undriven), "boards": boards + 1,
            "event_ms": wire_bytes(M.HEADER + M.EVENT_BODY + M.CRC) * 10 / BAUD * 1000,
            "failure": failure, "speed": sim / max(wall, 1), "wall": time.monotonic() - wall0,
            "split": [statistics.median(x) for x in zip(*split, strict=True)] if split else [],
            "split_p99": [pct(list(x), 99) for x in zip(*split, strict=True)] if split else [],
            "tablet_wall_p50": statistics.median(walls) if walls else float("nan"),
            "tablet_wall_p99": pct(walls, 99), "collided": list(e.collided), "around": around,
            "missed": missed, "early": early, "parts": parts, **_clock_stats(e, load0)}


def tablet_early(fr: list[tuple[int, int, str, str]], missed: list[tuple[int, str]]) -> int:
    """How many of the grants let pass were followed by the tablet's next frame within the
    reply window on the chips' clock (the grant's wire time and the 7.5 ms the master waits,
    tablet_app/link/master.py): the tablet's clock ran ahead of the chips (a stop of its threads
    counted as their CPU time), so the box's reply, in time on the chips' clock, came after it."""
    window = 10 * 10e6 / BAUD + 7500  # a grant is 10 bytes on the wire
    starts = sorted(a for a, _, who, _ in fr if who == "tablet")
    n = 0
    for t, _ in missed:
        nxt = next((a for a in starts if a > t), None)
        if nxt is not None and nxt - t < window:
            n += 1
    return n


def redraw_parts(e, fr: list[tuple[int, int, str, str]], t_in: int, shown: dict[str, int],
                 st_us: dict[str, float]) -> dict | None:
    """The four STATEs -> the last display of one call, in parts (chip ms), from the line and
    the panels' memory writes: the STATEs' own wire time and the line from the first STATE's
    first byte to the last STATE's last byte; per box, its STATE's last byte -> the first write
    to its panel (apply, compose, the first page pushed) and -> its panel showing the call (the
    other pages, a page a loop turn on a bus), the replies it sent meanwhile; and which box was
    last, the place of its STATE among the four. `st_us`: each seat's STATE's wire time."""
    st: dict[str, tuple[int, int]] = {}
    for a, z, _, what in fr:
        if a >= t_in and what.startswith("STATE to ") and what[-1] not in st:
            # (in lockstep the tablet's write is logged whole at its first byte's time)
            st[what[-1]] = (a, max(z, a + int(st_us.get(what[-1], 0))))
        if len(st) == len(shown):
            break
    if len(st) < len(shown):
        return None
    order = sorted(st, key=lambda s: st[s][0])
    last = max(shown, key=lambda s: shown[s])
    box = {}
    for s in order:
        end = st[s][1]
        first = next((t for t, _ in e.frames[s] if t > end), shown[s])
        writes = sum(1 for t, _ in e.frames[s] if end < t <= shown[s])
        replies = sum(1 for a, _, who, _ in fr if who == s and end < a <= shown[s])
        box[s] = ((first - end) / 1000, (shown[s] - end) / 1000, writes, replies)
    return {"wire": sum(z - a for a, z in st.values()) / 1000,
            "line": (st[order[-1]][1] - st[order[0]][0]) / 1000,
            "last": last, "place": order.index(last), "box": box,
            "from_last_state": (shown[last] - st[order[-1]][1]) / 1000}


def print_parts(parts: list[dict], btrace: list[list[float]]) -> None:
    """redraw_parts over a run's calls, p50 / p99; with the boxes' traces, their STATEs' apply,
    draw and push."""
    if not parts:
        return
    every = [b for p in parts for b in p["box"].values()]
    lasts = [p["box"][p["last"]] for p in parts]

    def q(xs: list[float]) -> str:
        return f"{statistics.median(xs):.1f} / {pct(xs, 99):.1f}"

    places = [sum(1 for p in parts if p["place"] == k) for k in range(4)]
    print(f"  the four STATEs -> the last display, in parts (p50 / p99, chip ms): the STATEs' own "
          f"wire time {q([p['wire'] for p in parts])}, on the line from the first's first byte to "
          f"the last's last byte {q([p['line'] for p in parts])}; a box's STATE's last byte -> its "
          f"first panel write {q([b[0] for b in every])}, -> its panel showing the call "
          f"{q([b[1] for b in every])} ({q([float(b[2]) for b in every])} panel writes, "
          f"{q([float(b[3]) for b in every])} replies on the line meanwhile); the last box: "
          f"{q([b[1] for b in lasts])} from its STATE, {q([p['from_last_state'] for p in parts])} "
          f"from the last STATE; the last box's STATE was 1st/2nd/3rd/4th on the line "
          f"{'/'.join(str(n) for n in places)} times")
    if btrace:
        a, d, u = zip(*btrace, strict=True)
        print(f"  each box's STATE on the chip ({len(btrace)} STATEs, p50 / p99, chip ms, the line "
              f"served after each step): applied {q(list(a))}; drawn (composed, the changed cells "
              f"copied) {q(list(d))}; pushed {q(list(u))}")


def _traces(e) -> list[list[int]]:
    """The box's "trace" lines (firmware/app.py, config "trace"): us from the OK key taken to
    the frame written, the call kept in flash, the ack, the STATE in, the call shown; and the
    chip's ticks_us when the key was taken."""
    return [[int(x) for x in t.split()[1:]] for _, t in e.console["N"] if t.startswith("trace ")]


def spread(runs: list[dict], key: str, fmt: str = ".1f") -> str:
    xs = [r[key] for r in runs if r.get("n")]
    if not xs:
        return "not run"
    return " / ".join(f"{x:{fmt}}" for x in xs) + (f" (spread {max(xs) - min(xs):{fmt}})" if len(xs) > 1 else "")


def _loads(runs: list[dict]) -> str:
    return " / ".join(f"{r['load0']:.1f}-{r['load1']:.1f}" for r in runs if r.get("n"))


def _clock_line(runs: list[dict]) -> str:
    c = runs[0]
    return (f"  run time {spread(runs, 'wall', '.0f')} s (emulation at {spread(runs, 'speed', '.3f')}x real "
            f"time), load average (1 min, at start-end) {_loads(runs)}; one clock: the chips stood "
            f"{spread(runs, 'holds', '.0f')} times for the tablet, {c['writes']} tablet writes in the "
            f"first run, written after the chips had passed their time: {spread(runs, 'late', '.0f')}; "
            f"stops that never settled: {spread(runs, 'forced', '.0f')}")


def print_p2p(runs: list[dict]) -> None:
    ok = [r for r in runs if r.get("n")]
    if not ok:
        print("on the chip, point to point: " + "; ".join(r.get("failure", "") for r in runs))
        return
    c = ok[0]
    every = [x for r in ok for x in r["lat"]]
    print(f"on the chip, point to point (one emulated RP2040, stock MicroPython v1.27.0 as "
          f"flashed, the real tablet; bridge latency timer {c['bridge_ms']:g} ms; one clock; "
          f"{len(ok)} runs of {c['n']} timed bids of 35-bid auctions, {c['boards']} boards a run):")
    print(f"  OK key down -> the box's display shows the call: p50 {spread(ok, 'p50')} ms, p99 "
          f"{spread(ok, 'p99')} ms, max {spread(ok, 'max')} ms; all {len(every)} calls: p50 "
          f"{statistics.median(every):.1f}, p99 {pct(every, 99):.1f} ms (goal p99 <= 30 ms); wire "
          f"floor (call frame + STATE frame) {c['floor_mean']:.1f} ms")
    print(f"  its parts (p50 / p99, ms): the box's own share (key down -> frame out, STATE in -> "
          f"shown) {spread(ok, 'own_p50')} / {spread(ok, 'own_p99')}; the bridge holding the call "
          f"frame p50 {spread(ok, 'bridge_p50')}, max {spread(ok, 'bridge_max')}; the tablet's "
          f"turn (call in -> STATE out: journal, laws engine, views), on the chips' clock (its "
          f"CPU time) {spread(ok, 'tablet_p50')} / {spread(ok, 'tablet_p99')}, on the wall "
          f"{spread(ok, 'tablet_wall_p50')} / {spread(ok, 'tablet_wall_p99')}")
    for k, r in enumerate(ok):
        if r.get("turn_threads"):
            print(f"  the stops of the tablet's turns, run {k + 1}, first quarter -> last quarter of the calls "
                  f"(p50, chip ms): "
                  + ", ".join(f"{n} {a:.2f} -> {b:.2f}" for n, (a, b) in r["turn_threads"].items()))
    print(f"  heap in use (gc.mem_alloc, main.py included): after boot {c['heap_boot'] / 1024:.1f} KB, "
          f"highest in the auctions (before each collection) {c['heap_peak'] / 1024:.1f} KB "
          f"(goal < 64 KB); flash programmed {spread(ok, 'programmed', '.0f')} B (calls "
          f"unacknowledged after 40 ms)")
    print(_clock_line(ok))
    for r in runs:
        if r.get("failure"):
            print(f"  FAILED: {r['failure']}")


def print_bus(runs: list[dict], label: str) -> None:
    ok = [r for r in runs if r.get("n")]
    if not ok:
        print(f"on the chip, RS-485 bus, {label}: " + "; ".join(r.get("failure", "") for r in runs))
        return
    b = ok[0]
    every = [x for r in ok for x in r["lat"]]
    print(f"on the chip, RS-485 bus, {label} (four emulated RP2040s with BUS=1 on one line behind "
          f"the hub's bridge, the real tablet as bus master, one clock; {len(ok)} run(s) of "
          f"{b['n']} calls keyed on their boxes, 16-call auctions):")
    print(f"  OK key down -> all 4 boxes' displays show the call: p50 {spread(ok, 'p50')} ms, p99 "
          f"{spread(ok, 'p99')} ms, max {spread(ok, 'max')} ms; all {len(every)} calls: p50 "
          f"{statistics.median(every):.1f}, p99 {pct(every, 99):.1f} ms (goal p99 <= 60 ms); wire "
          f"floor (call frame + four STATE frames) {b['floor_mean']:.1f} ms")
    print(f"  line: collisions {spread(ok, 'collisions', '.0f')}, bytes sent with DE low "
          f"{spread(ok, 'undriven', '.0f')}, STATE frames sent again {spread(ok, 'resent', '.0f')}; "
          f"grants {spread(ok, 'grants', '.0f')}, let pass by the box {spread(ok, 'grants_passed', '.0f')}, "
          f"of them with the tablet's next frame inside the reply window (its clock ahead of the "
          f"chips') {spread(ok, 'early', '.0f')}")
    if b["split"]:
        k, q = b["split"], b["split_p99"]
        print(f"  where it goes (first run, p50 / p99, chip ms): key down -> the call frame on the "
              f"line {k[0]:.1f} / {q[0]:.1f} (debounce, scan, the grant); the call frame {k[1]:.1f}; "
              f"the bridge holding it {k[2]:.1f} / {q[2]:.1f}; the tablet's turn {k[3]:.1f} / "
              f"{q[3]:.1f} (on the wall {b['tablet_wall_p50']:.1f} / {b['tablet_wall_p99']:.1f}); "
              f"the four STATEs -> the last display {k[4]:.1f} / {q[4]:.1f}")
    print_parts(b.get("parts", []), b.get("btrace", []))
    print(_clock_line(ok))
    for r in runs:
        if r.get("failure"):
            print(f"  FAILED: {r['failure']}")
        if r.get("around"):
            print(f"  the line before the first collision:\n{r['around']}")
