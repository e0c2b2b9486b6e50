# Seats and the 38 calls as one-byte codes (the same codes as firmware/calls.py): 0 pass,
# 1 double, 2 redouble, 3 + (level-1)*5 + denom for the bids (C D H S NT = 0..4), 1C = 3 .. 7NT = 37.
# The seat letters spelt out again on purpose: this runs on MicroPython, which must not import
# shared_rules (everything else takes them from shared_rules.types, defined once there).
SEATS = "NESW"
VULS = ("None", "NS", "EW", "All")
NONE = 0xFF
HIDDEN = 0x3F  # a call this seat may not see yet (screens)
COUNT = 38

from protocol.call_names import NAMES  # noqa: E402  (the box imports that module alone)


def code(name):
    """Call code of "P", "PASS", "X", "XX", "1C" .. "7NT" (also "1N"); -1 when not a call."""
    t = name.strip().upper()
    if t == "PASS":
        return 0
    if len(t) == 2 and t[1] == "N":
        t = t + "T"
    for i in range(COUNT):
        if NAMES[i] == t:
            return i
    return -1


def name(c):
    if 0 <= c < COUNT:
        return NAMES[c]
    return None


def seat_index(s):
    i = SEATS.find(s) if isinstance(s, str) and len(s) == 1 else -1
    return i
