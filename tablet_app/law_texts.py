"""What the Law imposes, in the players' words: obligations, lead restrictions and the Law's options.

Every obligation kind the engine can return (shared_rules.types.Obligation) and every lead
restriction kind (LeadRestriction) has its words here in English, Swedish and Danish: one line
for the tablet and one short message for the box of the player it binds (at most 12 columns:
hardware/display.md). The box's message is sent in English with the calls as letters, like the
table's other messages to the boxes; `BOX` holds its Swedish and Danish words. The tests
enumerate the enums, so a kind without its words fails (tests/tablet/test_obligation_texts.py).

Swedish follows the 2007 law text, Danish the 2017 one: "passa resten av budgivningen" (2007
L30B2), "passe resten af meldingsforløbet" is written "resten af meldingerne" as elsewhere on the
tablet; "upprepa" (2007 L31A1 "måste upprepa"), "gentage" (2017 § 31A1).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from shared_rules.state_view import obligation_kind
from shared_rules.types import LeadRestriction, Obligation
from tablet_app import i18n
from tablet_app.option_texts import OPTIONS_BY_KEY

SUIT: Final = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
SEATS: Final = ("N", "E", "S", "W")


def call_text(call: str | None, lang: str = "en") -> str:
    """A call as the tablet shows it: suit symbols, the pass in the player's language."""
    if call is None:
        return ""
    if call == "P":
        return i18n.tr("pass", lang)
    if call in ("X", "XX"):
        return call
    level, strain = call[0], call[1:]
    return level + ("NT" if strain == "NT" else SUIT.get(strain, strain))


# {seat} is bound; {call} the call he must repeat.
OBLIGATIONS: Final[dict[Obligation, dict[str, str]]] = {
    # 2007 L24, L30A, L30B1; 2017 L24, L30A, L31A2(b): at his next turn only
    Obligation.PASS_NEXT_TURN: {"en": "{seat} must pass at the next turn", "sv": "{seat} måste passa nästa gång",
                                "da": "{seat} skal passe næste gang"},
    # L27B2, L30B2, L31B, L32, L36, L37, L38: every turn until the auction ends
    Obligation.PASS_REST: {"en": "{seat} must pass for the rest of the auction",
                           "sv": "{seat} måste passa resten av budgivningen",
                           "da": "{seat} skal passe resten af meldingerne"},
    # 2007 L31A1, L32B1; 2017 L31A1, L32A1; 2007 L17D2: the cancelled call, made again in turn
    Obligation.REPEAT: {"en": "{seat} must repeat {call}", "sv": "{seat} måste upprepa {call}",
                        "da": "{seat} skal gentage {call}"},
    # 2007 L30B2(b): the offender's partner may not double or redouble at his next turn
    Obligation.NO_DOUBLE: {"en": "{seat} may not double or redouble at his next turn",
                           "sv": "{seat} får inte dubbla eller redubbla nästa gång",
                           "da": "{seat} må ikke doble eller redoble næste gang"},
}

# The box's line (12 columns); {call} as letters ("1H"), the box draws the suit.
BOX: Final[dict[Obligation, dict[str, str]]] = {
    Obligation.PASS_NEXT_TURN: {"en": "Must pass", "sv": "Måste passa", "da": "Skal passe"},
    Obligation.PASS_REST: {"en": "Pass to end", "sv": "Passa ut", "da": "Pas til slut"},
    Obligation.REPEAT: {"en": "Repeat {call}", "sv": "Upprepa {call}", "da": "Gentag {call}"},
    Obligation.NO_DOUBLE: {"en": "No X/XX", "sv": "Ej X/XX", "da": "Ikke X/XX"},
}

# Law 26, by the kind the engine works out (shared_rules/law26.py); {suits} as symbols.
LEADS: Final[dict[LeadRestriction, dict[str, str]]] = {
    LeadRestriction.REQUIRE_OR_PROHIBIT_SUIT: {
        "en": "declarer may require or prohibit a lead of {suits}",
        "sv": "spelföraren får begära eller förbjuda utspel i {suits}",
        "da": "spilfører kan kræve eller forbyde udspil i {suits}"},
    LeadRestriction.PROHIBIT_ANY_SUIT: {
        "en": "declarer may prohibit the lead of any one suit",
        "sv": "spelföraren får förbjuda utspel i valfri färg",
        "da": "spilfører kan forbyde udspil i en vilkårlig farve"},
    LeadRestriction.PROHIBIT_UNSHOWN_SUIT: {
        "en": "declarer may prohibit the lead of {suits}",
        "sv": "spelföraren får förbjuda utspel i {suits}",
        "da": "spilfører kan forbyde udspil i {suits}"},
    # 2007 L26A1 (and 2017 L26B with every suit shown): no restriction
    LeadRestriction.NONE: {"en": "none", "sv": "ingen", "da": "ingen"},
}


def _words(table: Mapping[Any, Mapping[str, str]], kind: Any, lang: str) -> str:
    entry = table[kind]
    return entry.get(lang) or entry["en"]


def obligation_line(ob: Mapping[str, Any], lang: str = "en") -> str:
    """One obligation of the state, as the tablet says it (without its law)."""
    kind = obligation_kind(ob)
    return _words(OBLIGATIONS, kind, lang).format(
        seat=i18n.seat_name(ob.get("seat"), lang), call=call_text(ob.get("must_repeat"), lang))


def box_message(ob: Mapping[str, Any], lang: str = "en") -> str:
    """One obligation, as the box of the player it binds shows it."""
    return _words(BOX, obligation_kind(ob), lang).format(call=ob.get("must_repeat") or "")


def translate_box(message: str, lang: str, call: Any = str) -> str | None:
    """An obligation's English box message (`box_message(ob)`, what the views send) in `lang`,
    `call` naming the call to repeat as the box writes it; None when `message` is none of them.
    For the link's translation of the views' messages into the table's language."""
    for kind, words in BOX.items():
        english = words["en"]
        if "{call}" in english:  # "Repeat {call}": the call follows the word
            head = english.split("{call}")[0]
            if message.startswith(head) and len(message) > len(head):
                return _words(BOX, kind, lang).format(call=call(message[len(head):]))
        elif message == english:
            return _words(BOX, kind, lang)
    return None


def lead_line(lr: Mapping[str, Any], lang: str = "en") -> str:
    """A Law 26 lead restriction of the state, with the seat that leads and the law."""
    suits = " ".join(SUIT.get(x, x) for x in lr.get("suits", []))
    text = _words(LEADS, LeadRestriction(str(lr.get("kind"))), lang).format(suits=suits)
    who = lr.get("leader") or lr.get("seat")
    if who:
        text = f"{i18n.seat_name(who, lang)}: {text}"
    line = i18n.tr("lead_restriction", lang, text=text)
    return f"{line}  ({lr['law']})" if lr.get("law") else line


def option_entry(text_key: str) -> dict[str, str] | None:
    """The Law's option by the engine's text key, in every language (None: not worded here)."""
    return OPTIONS_BY_KEY.get(text_key)


def _param(value: object, lang: str) -> str:
    """An option's param in the player's words: a seat by its name, a call with its symbols."""
    text = str(value)
    return i18n.seat_name(text, lang) if text in SEATS else call_text(text, lang)


def option_label(option: Mapping[str, Any], lang: str = "en", names: Mapping[str, str] | None = None) -> str:
    """The Law's option in the player's language, worded for the call it concerns."""
    entry = option_entry(str(option.get("text") or ""))
    if entry is None:  # a key this tablet does not know: the engine's English words
        return str(option.get("label") or option.get("id", ""))
    fields = {**(names or {}), **{k: _param(v, lang) for k, v in (option.get("params") or {}).items()}}
    try:
        return (entry.get(lang) or entry["en"]).format(**fields)
    except (KeyError, IndexError):
        return str(option.get("label") or option.get("id", ""))
