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

# Each language's texts are one bytes constant, "|" after each: the words (in the order of the
# indexes above), the seats N E S W, the vulnerabilities, the calls. One constant, not one per
# word: a .mpy's constants stay in the heap as long as the module, and each costs a 16-byte
# object and a block for its bytes (firmware/README.md, "Memory"). render.py draws word i of language lg from TEXTS[lg], bytes
# AT[lg][i] up to the "|" at AT[lg][i + 1] - 1, without a slice.
SEAT = 28      # + seat 0..3: NORTH EAST SOUTH WEST, as the whose-turn and dealer lines say it
VUL_NAME = 32  # + vul 0..3: none, NS, EW, all, as boards print it
PASS = 36      # the calls: pass (on the call line), pass in an auction cell, double, redouble,
PASS_CELL = 37  # no trump
DOUBLE = 38
REDOUBLE = 39
NT = 40
COUNT = 41

_EN = (b"STARTING|NO BOARD|AUCTION OVER|WAIT FOR TD|YOUR TURN|TURN: |STOP |NO LINK|"
       b"UPDATE BOX| SENDING|BOARD |DEALER |VUL: |REVIEW |MIN |WAIT|"
       b"LEVEL FIRST|SELECT CALL|OUT OF TURN|INSUFFICIENT|NOT ALLOWED|STOP: WAIT|NOT NOW|"
       b"STOP SHOWN|ALERTED|UNDO: TD|TD CALLED| STOP?|"
       b"NORTH|EAST|SOUTH|WEST|"
       b"NONE|NS|EW|ALL|"
       b"PASS|P|X|XX|NT|")
_SV = (b"STARTAR|INGEN BRICKA|BUDEN KLARA|V\xc4NTA P\xc5 TL|DIN TUR|TUR: |STOPP |EJ KONTAKT|"
       b"UPPDATERA| SKICKAS|BRICKA |GIVARE |ZON: |UPPREPA |MINST |V\xc4NTA|"
       b"NIV\xc5 F\xd6RST|V\xc4LJ BUD|UTOM TUR|F\xd6R L\xc5GT|EJ TILL\xc5TET|STOPP: V\xc4NTA|"
       b"INTE NU|STOPP VISAT|ALERTERAT|\xc5NGRA: TL|TL KALLAD| STOPP?|"
       b"NORD|\xd6ST|SYD|V\xc4ST|"
       b"INGEN|NS|\xd6V|ALLA|"
       b"PASS|P|X|XX|NT|")
_DA = (b"STARTER|INTET SPIL|MELDING SLUT|VENT P\xc5 TL|DIN TUR|TUR: |STOP |IKKE KONTAKT|"
       b"OPDATER BOKS| SENDES|SPIL |GIVER |ZONE: |GENTAG |MINDST |VENT|"
       b"NIVEAU F\xd8RST|V\xc6LG MELDING|UDEN FOR TUR|FOR LAVT|IKKE TILLADT|STOP: VENT|"
       b"IKKE NU|STOP VIST|ALERTERET|FORTRYD: TL|TL TILKALDT| STOP?|"
       b"NORD|\xd8ST|SYD|VEST|"
       b"INGEN|NS|\xd8V|ALLE|"
       b"PAS|PAS|X|XX|UT|")


def _starts(s):
    """Where each text of s starts, and one past the last one's "|" (COUNT + 1 offsets)."""
    at = [0]
    for i in range(len(s)):
        if s[i] == 124:  # "|"
            at.append(i + 1)
    return tuple(at)


_AT_EN = _starts(_EN)
TEXTS = (_EN, _EN, _SV, _DA)  # by language code: 0 (none given) shows English
AT = (_AT_EN, _AT_EN, _starts(_SV), _starts(_DA))

# seat letters N E S W in each language (seat 0..3)
LETTERS = (b"NESW", b"NESW", b"N\xd6SV", b"N\xd8SV")


def of(code):
    """The table index of a STATE's language byte: an unknown language shows English."""
    return code if 0 <= code < 4 else 0


def text(lg, i):
    """Text i of language lg as bytes (a new object: for tests and tools, not the box's draw)."""
    return TEXTS[lg][AT[lg][i]:AT[lg][i + 1] - 1]
