"""The tablet's STATE on an RS-485 bus (SPEC.md sections 1 and 5): the box can acknowledge a STATE
only in its reply to a grant, so a STATE is sent again when the box answered a grant after it
without acknowledging it (it lost it), never because time passed. Found on four emulated RP2040s
(bench_box.on_chip_bus): boxes drawing a new screen let grants pass for a few tens of ms; the
tablet re-sent the STATE every 40 ms (48 re-sends in a 16-call auction), each one costing every
box on the line another receive in Python and taking the seat's grant slot."""
from protocol import messages as M
from protocol.session import BoxEndpoint
from protocol.tablet_endpoint import TabletEndpoint


def types(frames):
    return [f[1] for f in frames]


class Bus:
    """One box and the tablet's endpoint for its seat, the tablet as bus master (poll=True)."""

    def __init__(self):
        self.now = 1000
        self.box = BoxEndpoint("E", bus=True, now=self.now)
        self.tab = TabletEndpoint("E", 4321, self.now)
        self.tab.bus = True
        self.sent = []  # payloads the tablet put on the line

    def tablet_frame(self, poll=True):
        f = self.tab.output(self.now, poll)
        if f is None:
            return None
        f = bytes(f)
        from protocol.framing import Deframer
        d = Deframer()
        d.feed(f, 0, len(f))
        self.sent.append(bytes(d.payload[:d.length]))
        return f

    def grant(self, answer=True):
        """The master addresses the seat: a due STATE, or the grant; the box replies if it can."""
        f = self.tablet_frame()
        if answer or self.sent[-1][1] == M.STATE:
            self.box.receive(f, self.now)
        if answer and self.sent[-1][1] != M.STATE:
            out = self.box.output(self.now)
            if out is not None:
                self.tab.receive(bytes(out), self.now)
        return self.sent[-1][1]

    def run(self, ms):
        self.now += ms


def linked():
    b = Bus()
    for _ in range(6):
        b.grant()
        b.run(3)
    assert b.tab.session and b.box.session
    return b


def test_a_box_busy_drawing_is_not_sent_its_state_again_while_it_lets_grants_pass():
    b = linked()
    b.tab.set_view({"turn": "E", "message": "your turn"})
    assert b.grant() == M.STATE
    first = len([p for p in b.sent if p[1] == M.STATE])
    # the box draws the new screen for 120 ms: the grants in that time get no reply
    for _ in range(12):
        b.run(10)
        t = b.grant(answer=False)
        assert t != M.STATE, "the tablet sent the STATE again to a box that had no grant to ack it"
    assert len([p for p in b.sent if p[1] == M.STATE]) == first
    # the box is back: its reply to the next grant acknowledges the STATE
    b.run(10)
    assert b.grant() == M.PING
    assert b.tab.state_acked()


def test_a_state_the_box_lost_is_sent_again_at_the_next_grant_after_its_reply():
    b = linked()
    b.tab.set_view({"turn": "N", "message": "lost on the line"})
    f = b.tablet_frame()  # the STATE: noise eats it, the box never sees it
    assert b.sent[-1][1] == M.STATE
    del f
    b.run(5)
    assert b.grant() == M.PING  # the box answers the grant without the STATE's ack
    assert not b.tab.state_acked()
    b.run(1)
    assert b.grant() == M.STATE, "the box showed it lacks the STATE: send it again at once"
    b.run(3)
    b.grant()
    assert b.tab.state_acked()
    assert M.box_state(b.box)["message"] == "lost on the line"
