# Key codes of the box keypad. The same codes come from the rp2 matrix (via the pin map's
# "keys" table) and from the unix backend (tokens on stdin or keystrokes), so the application
# never knows which backend it runs on.
NONE = 0
L1 = 1  # L1..L7 are 1..7: the level keys
L7 = 7
C = 8   # C D H S NT are 8..12: the denomination keys, in rank order
D = 9
H = 10
S = 11
NT = 12
PASS = 13
DBL = 14
RDBL = 15
OK = 16      # confirm: the call is made (FSB L112C), like taking the card out with intent
CLR = 17     # cancel the selection (nothing was made yet, nobody saw it: FSB L112A)
STOP = 18
ALERT = 19
UNDO = 20    # "wrong card": the player says the call made was unintended (Law 25A, FSB L112D)
REVIEW = 21  # review of the auction (Law 20B/20C)
TD = 22      # call the director (Law 9B)
COUNT = 23


TOKENS = ("", "1", "2", "3", "4", "5", "6", "7", "C", "D", "H", "S", "NT",
          "P", "X", "XX", "OK", "CLR", "STOP", "ALERT", "UNDO", "REVIEW", "TD")

def from_token(tok):
    """Key code of a token ("3", "NT", "OK", ...), NONE when unknown. (The unix backend adds
    aliases such as PASS and ENTER: the board needs none, and every dict costs RAM.)"""
    t = tok.strip().upper()
    for i in range(1, COUNT):
        if TOKENS[i] == t:
            return i
    return NONE
