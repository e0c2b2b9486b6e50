# The box's flash journal of calls in flight (firmware/store.py) and when the application writes
# it: one page programmed per record, never an erase on a call's path, never between a grant and
# the box's reply on a bus; and a refused call that stays disarmed.
import os

import app as A
import calls
import entry as E
import keys as K
import store
from fw_bus_checks import grant
from fw_fuzz_checks import VIEW, Clock, Hal
from fw_fuzz_checks import pump as _pump

from protocol.tablet_endpoint import TabletEndpoint

PATH = "/tmp/fw_store_checks.bin"


def _clean():
    for p in (PATH, PATH + ".ep", PATH + ".tmp"):
        try:
            os.remove(p)
        except OSError:
            pass


def _journal():
    with open(PATH, "rb") as f:
        return store.parse(f.read())


class Counting(store.FileDev):
    """The file in place, counting the pages programmed and where (the chip's RawBlock does the
    same with the flash: no erase)."""

    def __init__(self, path, log):
        store.FileDev.__init__(self, path)
        self.log = log

    def program(self, off, buf):
        assert off % store.PAGE == 0 and len(buf) == store.PAGE
        self.log.append(off)
        store.FileDev.program(self, off, buf)


def _counting_store(log, rotations):
    def raw(path, head):
        rotations.append(head)  # a new journal: the one time the block is erased
        return Counting(path, log)

    return store.Store(PATH, raw)


class _App:
    class hal:
        @staticmethod
        def ticks_add(a, b):
            return a + b

        @staticmethod
        def ticks_diff(a, b):
            return a - b


def test_a_kept_call_comes_back_after_a_reboot_and_a_torn_record_leaves_the_one_before():
    _clean()
    st = store.Store(PATH)
    st.restore(_App)  # boot: a new journal with an empty record
    st.add(calls.bid(2, 0), 5, 7)
    st.add(calls.bid(3, 4), 9, 7)
    assert _journal() == ([(calls.bid(2, 0), 7, 5), (calls.bid(3, 4), 7, 9)], 3)
    # a power cut while the next record was being programmed: its first bytes are in, the rest
    # erased; its CRC fails and the record before it stands
    torn = bytearray(b"\xff" * store.PAGE)
    torn[0:4] = bytes((store.REC, 4, 0, 0x12))
    store.FileDev(PATH).program(4 * store.PAGE, torn)
    assert _journal() == ([(calls.bid(2, 0), 7, 5), (calls.bid(3, 4), 7, 9)], 4)
    again = store.Store(PATH)
    again.restore(_App)
    assert again.k == 2 and again.restored and again.code[1] == calls.bid(3, 4)
    assert again.index[1] == 9 and again.board[1] == 7
    assert _journal() == ([(calls.bid(2, 0), 7, 5), (calls.bid(3, 4), 7, 9)], 1)  # a new journal
    _clean()


def test_records_program_a_page_each_and_only_maintain_starts_a_new_journal():
    _clean()
    log = []
    rotations = []
    st = _counting_store(log, rotations)
    st.restore(_App)
    assert len(rotations) == 1 and log == []  # the boot's journal: written as a file
    for i in range(store.PAGES - 2):  # every record page the journal has
        st.add(calls.bid(1, i % 5), i, 3)
        st.k = 0
    assert log == [p * store.PAGE for p in range(2, store.PAGES)]  # one page each, in order
    st.add(calls.PASS, 40, 3)  # no free page: no erase here, the record waits
    assert len(rotations) == 1 and st.stale and len(log) == store.PAGES - 2
    assert _journal()[0] == [(calls.bid(1, (store.PAGES - 3) % 5), 3, store.PAGES - 3)]
    st.maintain()  # the app's safe moment: a new journal with the list
    assert len(rotations) == 2 and _journal() == ([(calls.PASS, 3, 40)], 1)
    _clean()


def test_on_a_bus_a_call_not_acknowledged_is_kept_right_after_a_reply_and_every_grant_answered():
    """The call is sent at a grant; the tablet holds its ack (its journal is slow). After
    HOLD_MS the box keeps the call: one page programmed, right after its reply to a grant (the
    next grant is another box's), never while a grant waits for its answer."""
    _clean()
    clock = Clock()
    log = []
    rotations = []
    box = A.BoxApp(Hal(clock), 2, True, _counting_store(log, rotations))
    tab = TabletEndpoint(2, 0x5151, clock.t, hold_acks=True)  # never released: never acked
    view = dict(VIEW)
    view["turn"] = "S"
    tab.set_view(view)
    for _ in range(20):
        grant(box, tab, clock)
    assert box.view.my_turn()
    at_program = []

    def program(off, buf, dev=box.store.dev):
        at_program.append(len(box.hal.serial.tx))  # the reply's bytes written this loop turn
        store.FileDev.program(dev, off, buf)

    box.store.dev.program = program
    for k in (K.L1, K.NT, K.OK):
        box.key(k, clock.t)
    answered = 0
    for _g in range(40):  # a grant every 4 ms, as the box in turn gets them: 160 ms
        for _ in range(3):
            clock.t += 1
            box.step(0)
            assert not box.hal.serial.tx, "the box spoke without a grant"
        answered += 1 if grant(box, tab, clock) else 0
    assert answered == 40  # every grant answered, the one after the save too
    assert box.view.sending == calls.bid(1, 4) and box.ep.q_count == 1  # still not acknowledged
    assert _journal()[0] == [(calls.bid(1, 4), 7, 2)] and len(at_program) == 1
    assert at_program[0] > 0, "the record was not written right after a reply"
    assert len(rotations) == 1  # no erase since boot
    _clean()


def test_a_refused_second_call_is_disarmed_and_a_later_OK_sends_nothing():
    """The cable is out: 1NT stays "sending"; the player keys 2NT and OK, refused (one call in
    flight). When the link is back the tablet gets 1NT alone, and with the turn back on this box
    an OK sends nothing: the refused 2NT was not kept armed."""
    _clean()
    clock = Clock()
    box = A.BoxApp(Hal(clock), 1, False)
    tab = TabletEndpoint(1, 0x4242, clock.t)
    view = dict(VIEW)
    view["prevent"] = False
    tab.set_view(view)
    _pump(box, tab, clock, 300)
    assert box.view.my_turn()
    tab.take_events()
    for k in (K.L1, K.NT, K.OK):
        box.key(k, clock.t)
    for _ in range(60):  # the cable is out: the tablet hears nothing
        clock.t += 1
        box.step(0)
        box.hal.serial.tx = bytearray()
    assert box.view.sending == calls.bid(1, 4)
    for k in (2, K.NT, K.OK):  # the impatient second call
        box.key(k, clock.t)
    assert box.entry.note == E.N_ONE_IN_FLIGHT and box.entry.sel == calls.NONE
    _pump(box, tab, clock, 300)  # the cable is back
    got = [e["call"] for e in tab.take_events() if e["kind"] == "call"]
    assert got == ["1NT"], got
    v = dict(view)
    v["auction"] = view["auction"] + [{"call": "1NT", "alert": False, "stop": False}]
    v["turn"] = "E"  # say the director gives the turn back to this box
    tab.set_view(v)
    _pump(box, tab, clock, 300)
    box.key(K.OK, clock.t)
    _pump(box, tab, clock, 300)
    assert [e for e in tab.take_events() if e["kind"] == "call"] == []
    assert box.entry.note == E.N_SELECT_FIRST
    _clean()
