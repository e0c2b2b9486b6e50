"""A whole table on emulated RP2040s: four boxes flashed as `make flash` flashes them, the
tablet's real LinkMaster, controller, runner and laws engine (profile dbf-2017) on the other end,
point-to-point (a UART per box) and on one shared RS-485 line."""
import pytest

from shared_rules.types import SEATS

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]  # the timeout only ends a hang

# Board 1, dealer N: a normal auction ending in 4H by N (2017 L17-L22)
BOARD1 = [("N", "1H"), ("E", "P"), ("S", "2NT"), ("W", "P"), ("N", "4H"), ("E", "P"),
          ("S", "P"), ("W", "P")]


# after a grant the tablet waits for the reply, or 7.5 ms after the grant left the wire, before
# it sends anything else (SPEC.md section 1; tablet_app/link/master.py BUS_REPLY_S)
BUS_REPLY_US = 7500
GRANTS = ("PING to ", "WELCOME to ", "NAK to ")


def grants_not_waited_for(frames):
    """The tablet's frames on the bus line sent after a grant of its own with no reply between
    and sooner than BUS_REPLY_US after it: (grant's chip us, grant, next frame's us, next frame)."""
    out = []
    for (t, end, who, what), (t2, _, who2, what2) in zip(frames, frames[1:], strict=False):
        if who == "tablet" == who2 and what.startswith(GRANTS) and t2 - end < BUS_REPLY_US:
            out.append((t, what, t2, what2))
    return out


def play(r, script):
    for seat, call in script:
        r.call(seat, call)
    want = [c for _, c in script]
    assert r.calls() == want
    for seat in SEATS:
        r.wait_shown(seat, want, "AUCTION OVER")


def test_a_full_board_on_four_emulated_boxes_point_to_point(emu_rig):
    r = emu_rig(seats=SEATS, hold_ms=40)
    play(r, BOARD1)
    with r.paused():
        st = r.ctl.estate
        assert (st["contract"], st["declarer"]) == ("4H", "N"), st


def test_bus_four_boxes_on_one_rs485_line_take_turns_without_a_collision(emu_rig):
    """Four boxes flashed with BUS=1 share one line; the tablet is bus master and grants them in
    turn. The line model drives the line only from a box whose DE pin is high and counts two
    drivers at once as a collision, the tablet among them. The tablet runs on the chips' clock
    behind the hub's bridge (hardware/emu/lockstep.py): its bytes enter the line at its own time,
    whatever the machine's threads do."""
    r = emu_rig(seats=SEATS, bus=True, hold_ms=40, bridge_ms=1.0, lockstep=True)
    script = [("N", "1NT"), ("E", "P"), ("S", "3NT"), ("W", "P"), ("N", "P"), ("E", "P")]
    play(r, script)
    e = r.emu
    assert e.bus_bytes > 0, "no box byte reached the line"
    assert e.undriven == [], f"bytes sent with DE low (chip us, seat): {e.undriven[:5]}"
    # the tablet's side of the line: it never granted a box while another grant was unanswered
    # (two grants at once make two boxes answer at once)
    early = grants_not_waited_for(e.line_frames())
    assert early == [], (f"{len(early)} frames sent while a grant awaited its reply: {early[:4]}\n"
                         + e.line_around(early[0][0])
                         + f"\nthe tablet's writes the chips had passed: {e.one.late[:8] if e.one else None}"
                         + "\nwhat the bridge handed the tablet around it (chip us, port, hex): "
                         + repr([x for x in e.to_tablet if -12000 < x[0] - early[0][0] < 8000])
                         + "\nthe chips' stops before it (chip us, why, wall s, the tablet's CPU us by "
                         "thread, its clock ahead of the chips us): "
                         + repr([(s.at_us, s.why, round(s.wall_s, 3), s.by_thread, s.ahead_us)
                                 for s in (e.one.stops if e.one else [])
                                 if -25000 < s.at_us - early[0][0] < 1000]))
    # a box whose reply would start more than 5 ms after its grant stays silent (SPEC.md
    # section 1; firmware/app.py late_us): before, its late reply met the next box's grant
    first = e.collided[0][0] if e.collided else 0
    assert not e.collided, (f"{len(e.collided)} bytes collided on the line; the first at {first} us "
                            "of chip time. The line's frames before it (chip us, who drove the "
                            "line):\n" + e.line_around(first))
    assert e.one is not None and e.one.late == [], "the tablet wrote after the chips had passed its time"


def test_tablet_unplugged_and_back_no_second_call_and_the_pending_call_stays_in_sight(emu_rig):
    """A player keys 1NT while the cable to the tablet is out, and then, seeing nothing happen,
    2NT: the box keeps 1NT on its display as sending and refuses the second call; when the cable
    is back the tablet gets 1NT, once, and nothing else."""
    r = emu_rig(seats="N")
    e = r.emu
    e.wait_screen("N", lambda s: "YOUR TURN" in s.status, 120)
    e.unplug("N")
    e.press("N", "1 NT OK")
    sc = e.wait_screen("N", lambda s: "1NT SENDING" in s.call_line, 60)
    e.wait_console("N", r"link down", 60)
    e.press("N", "2 NT OK")  # the impatient second call
    e.wait_keys("N", 6, 60)
    sc = e.wait_screen("N", lambda s: "NO LINK" in s.status, 30)
    assert "1NT SENDING" in sc.call_line, f"the pending call left the display:\n{sc.text}"
    assert r.calls() == [], "a call crossed a pulled cable"
    e.unplug("N", False)
    r.wait_calls(["1NT"], 120)
    r.wait_shown("N", ["1NT"], "TURN: EAST", 60)
    e.wait_console("N", r"link up", 60)
    e.wait_chip(1000)  # a second call sent after the first was acknowledged would be here
    with r.paused():
        recs = list(r.ctl.journal.records())
        phase = r.ctl.phase
    made = [b["ev"]["call"] for _, k, b in recs if k == "event" and b["ev"].get("call")]
    refused = [b for _, k, b in recs if k == "refused"]
    assert made == ["1NT"], f"calls journalled: {made}"
    assert refused == [], f"the tablet refused: {refused}"
    assert phase != "frozen", "the tablet saw an irregularity (a second call?)"


def test_bus_idle_boxes_answer_their_grants(emu_rig):
    """Four boxes on the line, nobody keying, every display drawn: each grant is the box's turn
    to talk and costs the line a 7.5 ms timeout when it lets it pass. The boxes used to let
    about one grant in ten pass while idle: the garbage collector, triggered by gc.threshold at
    any point of the loop, held the chip about 4.5 ms every 25 ms, and a grant read after it
    was too old to answer. On a bus the box now collects right after a reply, when its next
    grant is another box's; the box in turn, granted every other time, does so once a second
    and lets that one grant pass. The tablet on the chips' clock (lockstep.py), so its grants go
    at its own time."""
    r = emu_rig(seats=SEATS, bus=True, hold_ms=40, bridge_ms=1.0, lockstep=True)
    e = r.emu
    for s in SEATS:
        e.wait_console(s, r"link up", 120)
    e.wait_chip(1500)  # the first STATEs drawn and pushed: nothing left to do on any box
    t0 = e.sim_us
    # the next 60 grants (about 400 ms of the chip's time; counted, not timed)
    e.wait(lambda: sum(len(x) for x in e.grants(t0)) >= 60, 10, "60 grants on the line")
    answered, missed = e.grants(t0)
    first = sorted(answered + missed)[:60]
    answered, missed = [g for g in answered if g in first], [g for g in missed if g in first]
    with r.lock:
        turn = r.ctl.views()["N"]["turn"]
    others = [m for m in missed if m[1] != turn]
    assert not others and len(missed) <= 1, (
        f"{len(missed)} of {len(answered) + len(missed)} grants to idle boxes not answered "
        f"(chip us, seat; {turn} in turn): {missed[:8]}; the line around the first:\n"
        + e.line_around(missed[0][0], 6, 4))
