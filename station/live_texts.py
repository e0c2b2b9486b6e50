"""The spectators' page's words for the team event's standing (the matches' scores, walk-overs and
byes) and its note, in English, Swedish and Danish (`GET /live/?lang=sv`). The page is given the
words of its language in its state block and fills in the numbers the events carry, so a Swedish
screen says "Lag 3 – Lag 4: walk-over: Lag 4 ställde inte upp (FSB L109A), VP 14.00 - 0.00".
Team, bye and walk-over words are the director page's (station/link_texts.py)."""
from __future__ import annotations

from typing import Final

from shared_rules.vocabulary.words import DEFAULT, LANGUAGES, Words, in_lang

from . import live_card_texts
from .link_texts import MATCH

WORDS: Final[dict[str, Words]] = {
    "team": MATCH["team"],
    "match": {"en": "{home} v {away}", "sv": "{home} – {away}", "da": "{home} – {away}"},
    "match_imps": {"en": "{home_won} - {away_won} IMPs ({scored} of {boards} boards)",
                   "sv": "{home_won} - {away_won} IMP ({scored} av {boards} brickor)",
                   "da": "{home_won} - {away_won} IMP ({scored} af {boards} spil)"},
    "match_vp": {"en": ", VP {home} - {away}", "sv": ", VP {home} - {away}", "da": ", VP {home} - {away}"},
    "deductions": {"en": "; VP deduction {list}", "sv": "; VP-avdrag {list}", "da": "; VP-fradrag {list}"},
    # FSB L109A; the director page's words
    "walkover": MATCH["walkover"],
    # a walk-over in a match scored in IMPs only: Avg+ / Avg- on each board or the TD's margin (choices #46)
    "walkover_imps": {"en": ", {home_won} - {away_won} IMPs", "sv": ", {home_won} - {away_won} IMP",
                      "da": ", {home_won} - {away_won} IMP"},
    "and": {"en": " and ", "sv": " och ", "da": " og "},
    # FSB 96B: "frirond"; Danish "oversidder" (the director page's words)
    "bye": {"en": "{team}: bye in round {round}, {vp}", "sv": "{team}: frirond i rond {round}, {vp}",
            "da": "{team}: oversidder i runde {round}, {vp}"},
    "bye_vp": {"en": "VP {vp}", "sv": "VP {vp}", "da": "VP {vp}"},
    "bye_not_set": {"en": "VPs not set yet", "sv": "VP ej angivna än", "da": "VP ikke angivet endnu"},
    "imps_only": {"en": "no VPs (IMPs only)", "sv": "inga VP (bara IMP)", "da": "ingen VP (kun IMP)"},
    # the page's title where the station has no club name (with one: "<club> live" in each language)
    "title": {"en": "Live bridge", "sv": "Bridge direkt", "da": "Bridge direkte"},
    "note_live": {"en": "Shown as the calls are made.", "sv": "Visas när buden görs.",
                  "da": "Vises, når meldingerne afgives."},
    "note_seconds": {"en": "Shown {n} seconds after each call.", "sv": "Visas {n} sekunder efter varje bud.",
                     "da": "Vises {n} sekunder efter hver melding."},
    "note_minutes": {"en": "Shown {n} minutes after each call.", "sv": "Visas {n} minuter efter varje bud.",
                     "da": "Vises {n} minutter efter hver melding."},
}


def language(asked: str | None) -> str:
    """`?lang=` when it is one of ours, else English."""
    return str(asked) if asked in LANGUAGES else DEFAULT


def texts(lang: str) -> dict[str, str | dict[str, str]]:
    """Every word of the page in `lang`, for the page's script to fill in: the standing's, and the
    tables' cards' (station/live_card_texts.py)."""
    out: dict[str, str | dict[str, str]] = {key: in_lang(words, lang) for key, words in WORDS.items()}
    return {**out, **live_card_texts.texts(lang)}


def note(delay_s: float, lang: str) -> str:
    """What the page says of the organiser's delay (Swedish and Danish write a decimal comma)."""
    def number(x: float) -> str:
        return f"{x:g}" if lang == "en" else f"{x:g}".replace(".", ",")

    if delay_s >= 60:
        return WORDS["note_minutes"][lang].format(n=number(delay_s / 60))
    if delay_s:
        return WORDS["note_seconds"][lang].format(n=number(delay_s))
    return WORDS["note_live"][lang]


def title(club_title: str, lang: str) -> str:
    """The page's title: the club's ("<club> live", station/live_http.py title_of), else ours."""
    return club_title or WORDS["title"][lang]
