# The path of one call through the real box application and the real protocol endpoints, as a
# player at the table meets it: the box must not spend its chip's time twice on one call (two
# redraws, a flash write for a call the tablet already has), and a call the tablet has not
# acknowledged must still be in flash before the box says "sending".
import os

import app as A
import keys as K
import store
from fw_fuzz_checks import VIEW, Clock, Hal
from fw_fuzz_checks import pump as _pump

from protocol.tablet_endpoint import TabletEndpoint

SEAT = 1
# in the run's own scratch folder (tests/firmware/test_units.py): two runs at once must not share it
PATH = (__import__("os").getenv("FW_SCRATCH") or "/tmp") + "/fw_call_path_checks.bin"


def _clean():
    try:
        os.remove(PATH)
    except OSError:
        pass


def _journal():
    """(kept calls, record pages used) of the box's flash journal (store.py)."""
    with open(PATH, "rb") as f:
        return store.parse(f.read())


def _box_in_turn():
    _clean()
    clock = Clock()
    box = A.BoxApp(Hal(clock), SEAT, False, store.Store(PATH))
    tab = TabletEndpoint(SEAT, 0x4242, clock.t)
    view = dict(VIEW)
    view["turn"] = "E"
    view["prevent"] = False
    tab.set_view(view)
    _pump(box, tab, clock, 300)
    assert box.view.known and box.view.my_turn(), "no session"
    return box, tab, clock, view


def test_a_call_the_tablet_acknowledges_at_once_is_drawn_once_and_never_written_to_flash():
    box, tab, clock, view = _box_in_turn()
    box.key(K.L1, clock.t)
    box.key(K.NT, clock.t)
    _pump(box, tab, clock, 5)
    drawn = box.renders

    def answer(ev):
        v = dict(view)
        v["auction"] = view["auction"] + [{"call": ev[0]["call"], "alert": False, "stop": False}]
        v["turn"] = "S"
        tab.set_view(v)

    box.key(K.OK, clock.t)
    _pump(box, tab, clock, 200, answer)
    assert box.view.n == len(view["auction"]) + 1  # the tablet's STATE with the call is shown
    # one picture for the call: not one for "sending", one at the ack and one at the STATE
    assert box.renders - drawn == 1, box.renders - drawn
    # the tablet acknowledged within the hold: nothing to keep, no flash written (the journal
    # has only the empty record made at boot)
    assert box.store.k == 0 and _journal() == ([], 1), _journal()
    _clean()


def test_a_call_the_tablet_does_not_acknowledge_is_in_flash_before_the_box_shows_sending():
    box, tab, clock, view = _box_in_turn()
    for k in (2, K.C, K.OK):  # 2 clubs
        box.key(k, clock.t)
    for _ in range(A.HOLD_MS - 2):  # the tablet hears nothing: a cable pulled just now
        clock.t += 1
        box.step(0)
        box.hal.serial.tx = bytearray()
    assert box.view.sending != 0xFF
    assert box.hal.display.lines == [] or "sending" not in " ".join(box.hal.display.lines)
    for _ in range(5):
        clock.t += 1
        box.step(0)
    assert box.store.k == 1 and _journal() == ([(3 + 5, 7, 2)], 2), _journal()  # kept ...
    assert "sending" in " ".join(box.hal.display.lines)  # ... then shown as on its way
    _clean()


def test_the_tablets_language_reaches_the_display():
    """The STATE's language byte (protocol version 3, SPEC.md section 3) picks the box's words,
    seat letters and call names; the message is read before it, whatever its length."""
    box, tab, clock, view = _box_in_turn()
    assert box.ep.version == 3 and box.view.lang == 0  # no language given: English
    v = dict(view)
    v["lang"] = "sv"
    v["message"] = "v\u00e4lkommen"
    tab.set_view(v)
    _pump(box, tab, clock, 100)
    assert box.view.lang == 2 and box.view.msg == "v\u00e4lkommen"
    import textview

    rows = textview.frame_rows(box.frame)
    assert rows[0] == "DIN TUR" and rows[1] == "V\u00c4LKOMMEN", rows
    v["lang"] = "da"
    v["message"] = ""
    tab.set_view(v)
    _pump(box, tab, clock, 100)
    rows = textview.frame_rows(box.frame)
    assert box.view.lang == 3 and rows[1] == "MINDST 1\u2660" and rows[3] == "S PAS  V 1\u2665*", rows
    _clean()


def test_a_level_keyed_before_the_first_state_stays_and_a_selection_of_the_last_board_goes():
    """A box just rebooted (by its watchdog, a power cut) keeps the picture it had until it draws
    again, so a player may key on: the level pressed before the box's first STATE is no call of
    an earlier board and stays. A selection keyed on one board is disarmed by the next board's
    STATE: an OK there must not send it."""
    _clean()
    clock = Clock()
    box = A.BoxApp(Hal(clock), SEAT, False, store.Store(PATH))
    tab = TabletEndpoint(SEAT, 0x4242, clock.t)
    view = dict(VIEW)
    view["turn"] = "E"
    view["prevent"] = False
    box.key(K.L1 + 1, clock.t)  # "2", before any STATE
    tab.set_view(view)
    _pump(box, tab, clock, 300)
    assert box.view.known and box.view.my_turn(), "no session"
    assert box.entry.level == 2, box.entry.level
    box.key(K.C, clock.t)
    assert box.entry.sel != 0xFF, "2C not selected"
    nxt = dict(view)
    nxt["board"] = view["board"] + 1
    nxt["auction"] = []
    nxt["turn"] = "E"
    nxt["dealer"] = "E"
    tab.set_view(nxt)
    _pump(box, tab, clock, 300)
    assert box.view.board == nxt["board"]
    assert box.entry.sel == 0xFF and box.entry.level == 0, (box.entry.sel, box.entry.level)
    _clean()
