"""The tablet's messages to the boxes in the table's language and in the box's 12 columns.

The table's views (tablet_app/views.py) carry short English messages for the boxes ("TD is
coming", "W 2C: wait TD", "Pass to end"); the box shows a message on its call line, capitals only,
12 characters (hardware/display.md). When the table has a language (`LinkMaster(lang=...)`,
`set_lang`) each known message goes to the boxes in it, with the seat letters and call names the
box itself uses (docs/box-language.md) and the suits as symbols, a player's obligation
(`tablet_app.law_texts.box_message`) through `law_texts.translate_box`; an unknown one goes as it
is (the box cuts it at 12). Every text here fits 12 columns (tests/link/test_box_words.py)."""
from __future__ import annotations

import re

from tablet_app.law_texts import translate_box

SEATS = {"en": "NESW", "sv": "NÖSV", "da": "NØSV"}
SUITS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
PASS = {"en": "Pass", "sv": "Pass", "da": "Pas"}
NT = {"en": "NT", "sv": "NT", "da": "UT"}
TD = {"en": "TD", "sv": "TL", "da": "TL"}

# the views' English message -> (en, sv, da), each at most 12 characters
MESSAGES: dict[str, tuple[str, str, str]] = {
    "TD is coming": ("TD is coming", "TL kommer", "TL kommer"),
    "E-W: confirm": ("E-W: confirm", "ÖV: bekräfta", "ØV: bekræft"),
    "Round over": ("Round over", "Ronden klar", "Runden slut"),
    # "budbricka": S07 has no word for the tray, and its "bricka" is the board (docs/glossary.md)
    "Tray not here": ("Wait: tray", "Ej budbricka", "Vent: bakke"),
    "Wait for TD": ("Wait for TD", "Vänta på TL", "Vent på TL"),
    "Auction over": ("Auction over", "Buden klara", "Melding slut"),
    "No board yet": ("No board yet", "Ingen bricka", "Intet spil"),
    "Wait: STOP": ("Wait: STOP", "Vänta: STOPP", "Vent: STOP"),
    "No alert here": ("No alert now", "Ej alert nu", "Ingen alert"),
    "Partner alerts": ("Only partner", "Bara partner", "Kun makker"),
    "You must pass": ("Must pass", "Måste passa", "Skal passe"),
    "Pass to end": ("Pass to end", "Passa ut", "Pas til slut"),
    "Stop shown": ("Stop shown", "Stopp visat", "Stop vist"),
    # behind screens the tray has not brought the call: the director is called
    "Not seen: TD": ("Not seen: TD", "Ej sett: TL", "Ikke set: TL"),
}
_LANG_INDEX = {"en": 0, "sv": 1, "da": 2}
# "W 2C: wait TD": the call the director rules on (tablet_app/views.py box_view)
_CALL = r"(P|X|XX|[1-7](?:C|D|H|S|NT))"
_RULING = re.compile(r"^([NESW]) " + _CALL + r": wait TD$")
_ONE_CALL = re.compile("^" + _CALL + "$")


def call_name(call: str, lang: str) -> str:
    """A call as the box shows it: 1♥, 3NT / 3UT, X, XX, Pass / Pas."""
    if call == "P":
        return PASS[lang]
    if call in ("X", "XX"):
        return call
    level, denom = call[0], call[1:]
    return level + (NT[lang] if denom == "NT" else SUITS[denom])


def box_message(message: str, lang: str | None) -> str:
    """`message` in `lang` for a box (None: as it is)."""
    if lang is None or not message:
        return message
    known = MESSAGES.get(message)
    if known is not None:
        return known[_LANG_INDEX[lang]]
    m = _RULING.match(message)
    if m:
        seat = SEATS[lang]["NESW".index(m.group(1))]
        return f"{seat} {call_name(m.group(2), lang)}: {TD[lang]}"
    # a player's obligation (law_texts.BOX: pass, pass to the end, repeat a call, no X/XX)
    # (a call the box has no name for stays as the view wrote it)
    said = translate_box(message, lang,
                         call=lambda c: call_name(c, lang) if _ONE_CALL.match(c) else c)
    return message if said is None else said
