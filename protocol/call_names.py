# The 38 calls' names, indexed by call code (protocol/calls.py: 0 pass, 1 double, 2 redouble,
# 3 + (level-1)*5 + denom). A module of its own because the box needs the names and nothing else
# of calls.py (its constants are folded into the box's code by scripts/fold_constants.py).
# A literal, not built in a loop: on the box a constant tuple of constant strings costs almost no
# heap, 38 strings made at import cost 38 objects.
NAMES = ("P", "X", "XX", "1C", "1D", "1H", "1S", "1NT", "2C", "2D", "2H", "2S", "2NT", "3C", "3D",
         "3H", "3S", "3NT", "4C", "4D", "4H", "4S", "4NT", "5C", "5D", "5H", "5S", "5NT", "6C",
         "6D", "6H", "6S", "6NT", "7C", "7D", "7H", "7S", "7NT")
