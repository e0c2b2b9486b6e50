# Keypad debounce with fake pins, the display layout, and the pin map data file.
import json

import entry as E
import keypad
import keys as K
import textview
import view as V

from protocol import layout as L
from protocol.calls import HIDDEN, code


def diff(a, b):
    return a - b


class Out:
    def __init__(self):
        self.v = 1

    def value(self, v=None):
        if v is None:
            return self.v
        self.v = v


class In:
    """Column input: reads low when the active row (driven low) has the key pressed."""

    def __init__(self, rows, col, pressed):
        self.rows = rows
        self.col = col
        self.pressed = pressed  # set of (row, col)

    def value(self):
        for r in range(len(self.rows)):
            if self.rows[r].v == 0 and (r, self.col) in self.pressed:
                return 0
        return 1


def make_matrix():
    rows = [Out(), Out()]
    pressed = set()
    cols = [In(rows, 0, pressed), In(rows, 1, pressed)]
    codes = keypad.codes_from_layout([["1", "C"], ["OK", ""]])
    return keypad.Matrix(rows, cols, codes, 20, True), pressed


def test_keypad_bounce_shorter_than_debounce_gives_no_key():
    m, pressed = make_matrix()
    t = 0
    for _ in range(5):  # 5 ms of chatter
        pressed.add((0, 1))
        m.scan(t, diff)
        t += 1
        pressed.discard((0, 1))
        m.scan(t, diff)
        t += 1
    for _ in range(40):
        m.scan(t, diff)
        t += 1
    assert m.get() == K.NONE


def test_keypad_stable_press_gives_one_key_and_holding_repeats_nothing():
    m, pressed = make_matrix()
    pressed.add((1, 0))
    for t in range(0, 200, 2):
        m.scan(t, diff)
    assert m.get() == K.OK
    assert m.get() == K.NONE
    pressed.discard((1, 0))
    for t in range(200, 260, 2):
        m.scan(t, diff)
    pressed.add((0, 0))
    for t in range(260, 300, 2):
        m.scan(t, diff)
    assert m.get() == K.L1


def test_keypad_empty_position_gives_nothing():
    m, pressed = make_matrix()
    pressed.add((1, 1))
    for t in range(0, 100, 2):
        m.scan(t, diff)
    assert m.get() == K.NONE


def pinmap(root):
    with open(root + "/hardware/pinmap.json") as f:
        return json.load(f)


def test_pin_map_has_every_key_once_and_no_gpio_twice():
    import sys

    root = sys.path[1]
    pm = pinmap(root)
    codes = keypad.codes_from_layout(pm["keypad"]["keys"])
    present = set(c for c in codes if c)
    assert present == set(range(1, K.COUNT)), sorted(present)
    used = [pm["uart"]["tx"], pm["uart"]["rx"], pm["uart"]["de"], pm["buzzer"]["pin"]]
    used += pm["keypad"]["rows"] + pm["keypad"]["cols"] + pm["seat_jumpers"]["pins"]
    used += [pm["leds"][k] for k in pm["leds"]]
    # the display on SPI (MISO too: machine.SPI claims it though nothing is wired), or the same
    # module wired for I2C instead: each way clashes with nothing else
    spi = pm["display"]["spi"]
    i2c = pm["display"]["i2c"]
    for display in ([spi[k] for k in ("sck", "mosi", "miso", "cs", "dc", "res")],
                    [i2c["sda"], i2c["scl"]]):
        both = used + display
        assert len(both) == len(set(both)), both
    # and they are pins of the SPI block named (RP2040: SPI0 on GP0-7 and 16-23; SCK at 2 mod
    # 4, TX (MOSI) at 3, RX (MISO) at 0)
    assert all((spi[k] >> 3 & 1) == spi["id"] for k in ("sck", "mosi", "miso"))
    assert (spi["sck"] & 3, spi["mosi"] & 3, spi["miso"] & 3) == (2, 3, 0)
    assert len(pm["keypad"]["rows"]) * len(pm["keypad"]["cols"]) == len(codes)


def view_with(auction, dealer=0, seat=0, turn=0):
    v = V.BoxView(seat)
    v.known = True
    v.phase = V.AUCTION
    v.board = 3
    v.dealer = dealer
    v.vul = 2
    v.turn = turn
    for i in range(len(auction)):
        c, f = auction[i]
        v.auction[i] = code(c) | f
    v.n = len(auction)
    return v


def test_view_call_bytes_are_the_state_bodys_own():
    # the box's view reads the STATE body's call bytes in place (app.BoxApp), so its flag bits
    # and call mask must be the wire's (SPEC.md section 3)
    assert (V.F_ALERT, V.F_STOP) == (L.C_ALERT, L.C_STOP)
    assert V.CALL_MASK & (L.C_ALERT | L.C_STOP) == 0 and V.CALL_MASK >= HIDDEN


def test_entry_events_are_in_the_order_of_the_wire_event_types():
    # app.BoxApp.key sends entry's event k as the wire type CALL + k - EV_CALL
    kinds = (E.EV_CALL, E.EV_STOP, E.EV_ALERT, E.EV_UNDO, E.EV_REVIEW, E.EV_TD)
    assert [L.CALL + k - E.EV_CALL for k in kinds] == [L.CALL, L.STOP, L.ALERT, L.UNDO, L.REVIEW, L.TD]


def test_display_rows_start_under_the_dealer_and_mark_alerts_and_stops():
    v = view_with([("1C", 0), ("P", 0), ("2D", V.F_STOP | V.F_ALERT), ("X", 0), ("P", V.F_ALERT)],
                  dealer=1, seat=2, turn=2)
    ent = E.CallEntry()
    lines = textview.lines(v, ent, 0, diff)
    assert lines[0] == "S Bd3 DE VEW", lines
    assert lines[1] == "YOUR TURN"
    head = lines.index(textview.AUCTION_HEAD)
    assert textview.AUCTION_HEAD == "W   N   E   S"  # the tablet's order
    assert lines[head + 1] == "        1C  P", lines  # East deals: West and North have no call yet
    assert lines[head + 2] == "2D+ X   P*", lines
    assert all(len(x) <= textview.WIDTH for x in lines)


def test_display_shows_selection_only_and_stop_hint_for_a_jump():
    v = view_with([("1C", 0)], dealer=0, seat=1, turn=1)
    v.lowest = code("1D")
    ent = E.CallEntry()
    ent.press(K.from_token("3"), v, 0, diff)
    ent.press(K.from_token("D"), v, 0, diff)
    lines = textview.lines(v, ent, 0, diff)
    assert lines[2] == "> 3D OK?", lines  # no trigger in the STATE: no hint
    v.stop_jump = True  # the tablet's profile names the jump bid
    lines = textview.lines(v, ent, 0, diff)
    assert lines[2] == "> 3D OK? STOP?", lines


def test_display_stop_countdown_on_the_next_box():
    v = view_with([("2S", V.F_STOP)], dealer=0, seat=1, turn=1)
    v.stop_deadline = 7500
    lines = textview.lines(v, E.CallEntry(), 1000, diff)
    assert lines[1] == "STOP 7 YOUR TURN", lines
    lines = textview.lines(v, E.CallEntry(), 8000, diff)
    assert lines[1] == "YOUR TURN", lines


def test_display_director_wait_auction_over_and_screened_calls():
    v = view_with([("1C", 0), ("P", 0)], dealer=0, seat=0, turn=2)
    v.auction[1] = HIDDEN  # behind the screen for this seat
    v.phase = V.FROZEN
    lines = textview.lines(v, E.CallEntry(), 0, diff)
    assert lines[1] == "DIRECTOR: wait"
    assert lines[lines.index(textview.AUCTION_HEAD) + 1] == "    1C  --", lines
    v.phase = V.ENDED
    assert textview.lines(v, E.CallEntry(), 0, diff)[1] == "AUCTION OVER"
    v.known = False
    assert textview.lines(v, E.CallEntry(), 0, diff)[1] == "wait for tablet"


def test_director_pending_refuses_every_call():
    v = view_with([("1C", 0)], dealer=0, seat=1, turn=1)
    v.phase = V.FROZEN
    v.prevent = False
    ent = E.CallEntry()
    for t in ("P", "OK"):
        assert ent.press(K.from_token(t), v, 0, diff) == E.EV_NONE
    assert ent.note == E.N_NO_AUCTION


def test_keypad_a_firm_press_counts_after_5_ms_and_a_bouncing_release_is_no_second_press():
    # a player's quick, firm OK: the call must not wait the whole release debounce
    rows = [Out(), Out()]
    pressed = set()
    cols = [In(rows, 0, pressed), In(rows, 1, pressed)]
    m = keypad.Matrix(rows, cols, keypad.codes_from_layout([["1", "C"], ["OK", ""]]), 20, True, 5)
    pressed.add((1, 0))
    t = 0
    got = -1
    while t <= 20:
        m.scan(t, diff)
        if got < 0 and m.get() == K.OK:
            got = t
        t += 1
    assert 5 <= got <= 6, got
    for _ in range(4):  # the contact chatters as it opens
        pressed.discard((1, 0))
        m.scan(t, diff)
        t += 1
        pressed.add((1, 0))
        m.scan(t, diff)
        t += 1
    pressed.discard((1, 0))
    for _ in range(40):
        m.scan(t, diff)
        t += 1
    assert m.get() == K.NONE
