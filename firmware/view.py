# What the tablet last told this box (the "state" message), in preallocated fields, plus the
# checks the box makes before sending a call. The tablet is the authority: the box only refuses
# what the tablet's own data (turn, lowest sufficient bid, allowed calls, stop lock) refuses.
import calls

# The seat letters spelt out again on purpose: this runs on MicroPython, which must not import
# shared_rules (everything else takes them from shared_rules.types, defined once there).
SEATS = "NESW"
NO_SEAT = 255
MAX_CALLS = 320  # the longest legal auction has 319 calls

# phases of the board as the tablet reports them
WAITING = 0   # no board yet (box just booted, tablet not heard)
AUCTION = 1
ENDED = 2     # final pass made (or passed out)
FROZEN = 3    # the director is handling an irregularity: no calls from any box

# reasons a call is refused (or flagged) by the box
OK = 0
NOT_TURN = 1
INSUFFICIENT = 2
NOT_ALLOWED = 3
STOP_WAIT = 4
NO_AUCTION = 5

# a call of the auction is one byte, as the STATE carries it (SPEC.md section 3): the call code
# (calls.HIDDEN behind a screen) in the low 6 bits, and these flags
CALL_MASK = 0x3F
F_ALERT = 0x40
F_STOP = 0x80


class BoxView:
    def __init__(self, seat, auction=None):
        """auction: where the call bytes are; the box passes a view of its endpoint's STATE
        body, so the auction is not held twice in its RAM."""
        self.seat = seat
        self.auction = bytearray(MAX_CALLS) if auction is None else auction
        self.allowed = bytearray(calls.COUNT)
        self.sending = calls.NONE  # a call made here the tablet has not acknowledged yet
        self.stop_jump = False  # the regulation's STOP triggers, from the STATE
        self.stop_opening2 = False
        self.reset()

    def reset(self):
        self.known = False       # False until the first state message after boot
        self.version = 0         # tablet's state counter: the box ignores stale states
        self.board = 0
        self.dealer = 0
        self.vul = 0             # 0 none, 1 NS, 2 EW, 3 both
        self.phase = WAITING
        self.turn = NO_SEAT
        self.lowest = calls.FIRST_BID
        self.has_allowed = False
        self.prevent = False     # `prevent` policy: the box refuses irregular calls itself
        self.stop_lock = False   # the box enforces the stop wait (else shows a countdown only)
        self.stop_deadline = 0   # ticks_ms when the stop wait ends, 0 when none
        self.n = 0
        self.msg = ""
        self.lang = 0            # the STATE's language byte (lang.py): 0 not given, English

    def my_turn(self):
        return self.phase == AUCTION and self.turn == self.seat

    def stop_left_ms(self, now, ticks_diff):
        if not self.stop_deadline:
            return 0
        left = ticks_diff(self.stop_deadline, now)
        if left <= 0:
            self.stop_deadline = 0
            return 0
        return left

    def check(self, call, now, ticks_diff):
        """Why this call would be irregular now, from the tablet's data; OK when it is not."""
        if self.phase != AUCTION:
            return NO_AUCTION
        if self.turn != self.seat:
            return NOT_TURN
        if calls.is_bid(call) and self.lowest != calls.NONE and call < self.lowest:
            return INSUFFICIENT
        if calls.is_bid(call) and self.lowest == calls.NONE:
            return INSUFFICIENT  # 7NT (or 7NTXX) stands: no bid is sufficient
        if self.has_allowed and not self.allowed[call]:
            return NOT_ALLOWED
        if self.stop_left_ms(now, ticks_diff) > 0:
            return STOP_WAIT
        return OK
