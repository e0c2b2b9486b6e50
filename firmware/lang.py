# The box's words in the player's language: English, Swedish, Danish, as the STATE's language
# byte names them (protocol/SPEC.md section 3: 0 not given, 1 English, 2 Swedish, 3 Danish; any
# other value shows English). Each text is Latin-1 bytes (font16.MAP gives the glyph of each
# byte, so the native text loop draws them: \xc4 Ä, \xc5 Å, \xc6 Æ, \xd6 Ö, \xd8 Ø), capitals
# only (the font's lowercase would be below the legibility minimum at 80 cm), at most 12
# characters: a line of the panel (hardware/display.md). Seat letters, call names and words are
# those the players' laws, boards and the box's own key legends use (hardware/enclosure.md "Key
# legends": the key says X, the display says X); the sources and the choices are in
# docs/box-language.md. tests/firmware/test_lang.py checks every text fits and decodes.

# indexes of WORDS[lang]
STARTING = 0
NO_BOARD = 1
OVER = 2
TD_WAIT = 3
YOUR_TURN = 4
TURN = 5
STOP = 6
NO_LINK = 7
UPDATE = 8
SENDING = 9
BOARD = 10
DEALER = 11
VUL = 12
REVIEW = 13
MIN = 14
WAIT = 15
# the answers to keys (render._NOTE_WORD maps an entry.N_* note to one of these)
LEVEL_FIRST = 16
SELECT = 17
OUT_OF_TURN = 18
INSUFFICIENT = 19
NOT_ALLOWED = 20
STOP_WAIT = 21
NOT_NOW = 22
STOP_SHOWN = 23
ALERTED = 24
MISTAKE = 25
TD_CALLED = 26
STOP_Q = 27  # after the selection: the regulation wants the STOP card first

_EN = (b"STARTING", b"NO BOARD", b"AUCTION OVER", b"WAIT FOR TD", b"YOUR TURN", b"TURN: ",
       b"STOP ", b"NO LINK", b"UPDATE BOX", b" SENDING", b"BOARD ", b"DEALER ", b"VUL: ",
       b"REVIEW ", b"MIN ", b"WAIT",
       b"LEVEL FIRST", b"SELECT CALL", b"OUT OF TURN", b"INSUFFICIENT", b"NOT ALLOWED",
       b"STOP: WAIT", b"NOT NOW", b"STOP SHOWN", b"ALERTED", b"UNDO: TD", b"TD CALLED",
       b" STOP?")
_SV = (b"STARTAR", b"INGEN BRICKA", b"BUDEN KLARA", b"V\xc4NTA P\xc5 TL", b"DIN TUR", b"TUR: ",
       b"STOPP ", b"EJ KONTAKT", b"UPPDATERA", b" SKICKAS", b"BRICKA ", b"GIVARE ", b"ZON: ",
       b"UPPREPA ", b"MINST ", b"V\xc4NTA",
       b"NIV\xc5 F\xd6RST", b"V\xc4LJ BUD", b"UTOM TUR", b"F\xd6R L\xc5GT", b"EJ TILL\xc5TET",
       b"STOPP: V\xc4NTA", b"INTE NU", b"STOPP VISAT", b"ALERTERAT", b"\xc5NGRA: TL",
       b"TL KALLAD", b" STOPP?")
_DA = (b"STARTER", b"INTET SPIL", b"MELDING SLUT", b"VENT P\xc5 TL", b"DIN TUR", b"TUR: ",
       b"STOP ", b"IKKE KONTAKT", b"OPDATER BOKS", b" SENDES", b"SPIL ", b"GIVER ", b"ZONE: ",
       b"GENTAG ", b"MINDST ", b"VENT",
       b"NIVEAU F\xd8RST", b"V\xc6LG MELDING", b"UDEN FOR TUR", b"FOR LAVT", b"IKKE TILLADT",
       b"STOP: VENT", b"IKKE NU", b"STOP VIST", b"ALERTERET", b"FORTRYD: TL",
       b"TL TILKALDT", b" STOP?")
WORDS = (_EN, _EN, _SV, _DA)

# seats N E S W: the letters, and the words (whose turn, the dealer)
LETTERS = (b"NESW", b"NESW", b"N\xd6SV", b"N\xd8SV")
_SEATS_EN = (b"NORTH", b"EAST", b"SOUTH", b"WEST")
SEATS = (_SEATS_EN, _SEATS_EN, (b"NORD", b"\xd6ST", b"SYD", b"V\xc4ST"),
         (b"NORD", b"\xd8ST", b"SYD", b"VEST"))
# vulnerability 0 none, 1 NS, 2 EW, 3 all, as boards print it
_VUL_EN = (b"NONE", b"NS", b"EW", b"ALL")
VULS = (_VUL_EN, _VUL_EN, (b"INGEN", b"NS", b"\xd6V", b"ALLA"), (b"INGEN", b"NS", b"\xd8V", b"ALLE"))
# calls: pass (on the call line; in the auction's cells), double, redouble, no trump
_CALLS_EN = (b"PASS", b"P", b"X", b"XX", b"NT")
CALLS = (_CALLS_EN, _CALLS_EN, _CALLS_EN, (b"PAS", b"PAS", b"X", b"XX", b"UT"))
PASS = 0
PASS_CELL = 1
DOUBLE = 2
REDOUBLE = 3
NT = 4


def of(code):
    """The table index of a STATE's language byte: an unknown language shows English."""
    return code if 0 <= code < 4 else 0
