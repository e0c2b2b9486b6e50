# Seats and the 38 calls as one-byte codes (the same codes as firmware/calls.py): 0 pass,
# 1 double, 2 redouble, 3 + (level-1)*5 + denom for the bids (C D H S NT = 0..4), 1C = 3 .. 7NT = 37.
SEATS = "NESW"
VULS = ("None", "NS", "EW", "All")
NONE = 0xFF
HIDDEN = 0x3F  # a call this seat may not see yet (screens)
COUNT = 38

# A literal, not built in a loop: on the box a constant tuple of constant strings costs almost no
# heap, 38 strings made at import cost 38 objects.
NAMES = ("P", "X", "XX", "1C", "1D", "1H", "1S", "1NT", "2C", "2D", "2H", "2S", "2NT", "3C", "3D",
         "3H", "3S", "3NT", "4C", "4D", "4H", "4S", "4NT", "5C", "5D", "5H", "5S", "5NT", "6C",
         "6D", "6H", "6S", "6NT", "7C", "7D", "7H", "7S", "7NT")


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
