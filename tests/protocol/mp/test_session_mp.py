# The session state machines on MicroPython: the same seeded fault soak as the CPython tests.
from hardware.sim.lossy import Link, soak
from protocol import messages as M


def test_soak_with_faults_cuts_and_reboots_on_micropython():
    ok, sent, got, lk = soak(23, 400, 0.01, 0.005, False, 2, 1, 1)
    assert ok
    want = [(M.EVENT_KINDS[c], M.calls.NAMES[a] if c == M.CALL else None, ms) for c, a, ms in sent]
    have = [(e["kind"], e["call"], e["box_ms"]) for e in got]
    assert want == have, (len(want), len(have))


def test_bus_mode_soak_on_micropython():
    ok, sent, got, lk = soak(29, 200, 0.01, 0.005, True, 1, 1, 0)
    assert ok and len(got) == len(sent) == 200


def test_idle_box_poll_loop_does_not_grow_the_heap():
    import gc

    lk = Link(31)
    lk.tab.set_view({"turn": "N"})
    assert lk.run_until(lambda: M.box_state(lk.box) is not None and lk.tab.state_acked(), 2000)
    box = lk.box
    ping = bytes(lk.tab.output(lk.now + 500))  # a heartbeat as the box would receive it
    now = lk.now
    for _ in range(300):  # warm-up: the steady state starts after the first heartbeat
        now += 1
        box.receive(ping, now)
        box.output(now)
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for _ in range(1000):
        now += 1
        box.receive(ping, now)
        box.output_n(now)
        box.output(now + 100)  # heartbeats via the memoryview API too
        box.linked(now)
    grown = gc.mem_alloc() - before
    gc.enable()
    assert grown == 0, grown
