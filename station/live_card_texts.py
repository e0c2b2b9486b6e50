"""The words of a table's card on the spectators' page (`GET /live/?lang=sv`), in English, Swedish
and Danish: its heading, the dealer and vulnerability, the players, the auction's seats and calls,
the alert, the irregularities with their rulings, the status, the contract and the result.

The events a spectator receives carry no words, only the engine's names (seats, kinds, rulings,
statuses): the page is given these words in its state block and says each event in its language.
The bridge terms are docs/glossary.md's (tests/tablet/test_glossary.py holds this module to it); the
engine's names and the seats are the vocabulary's (shared_rules/vocabulary), as on the tablet and
the director page; a call is written as the key legends write it (docs/box-language.md: Danish
"1UT", the double and redouble X and XX in every language)."""
from __future__ import annotations

from typing import Final

from shared_rules.types import Seat
from shared_rules.vocabulary import (
    AUCTION_STATUSES,
    IRREGULARITIES,
    RULINGS,
    SEAT_LETTERS,
    SEAT_NAMES,
    VULNERABILITY,
    Words,
    in_lang,
)

from .link_texts import LINK

WORDS: Final[dict[str, Words]] = {
    "heading": {"en": "Table {table}: board {board}", "sv": "Bord {table}: bricka {board}",
                "da": "Bord {table}: spil {board}"},
    "heading_match": {"en": "Table {table} ({room}, {match}): board {board}",
                      "sv": "Bord {table} ({room}, {match}): bricka {board}",
                      "da": "Bord {table} ({room}, {match}): spil {board}"},
    # a team match's rooms, as the director page names them (station/link_texts.py MATCH "rooms")
    "room_Open": {"en": "open room", "sv": "öppet rum", "da": "åbent rum"},
    "room_Closed": {"en": "closed room", "sv": "slutet rum", "da": "lukket rum"},
    # 2007 L2 "Givare", 2017 § 2 "kortgiver"
    "dealer": {"en": "Dealer {seat}", "sv": "Givare {seat}", "da": "Kortgiver {seat}"},
    "pair": {"en": "{seat} (pair {n})", "sv": "{seat} (par {n})", "da": "{seat} (par {n})"},
    "pass": LINK["scorer_pass"],  # the director page's (2007 L18 "pass", 2017 § 18A "pas")
    "nt": {"en": "NT", "sv": "NT", "da": "UT"},
    # the ranks of a deal's cards as the federations write them (the tablet's: Ess, Dam, Knekt; Es, Dame, Knægt)
    "rank_A": {"en": "A", "sv": "E", "da": "E"},
    "rank_Q": {"en": "Q", "sv": "D", "da": "D"},
    "rank_J": {"en": "J", "sv": "Kn", "da": "Kn"},
    # 2007 Definitioner "Alertering", 2017 Definitioner ALERT
    "alerted": {"en": "Alerted", "sv": "Alerterat", "da": "Alerteret"},
    "irregularity": {"en": "Irregularity: {what}", "sv": "Felaktighet: {what}", "da": "Uregelmæssighed: {what}"},
    "by": {"en": " by {seat}", "sv": " av {seat}", "da": " af {seat}"},
    "contract": {"en": "Contract {contract} by {seat}", "sv": "Kontrakt {contract}, spelförare {seat}",
                 "da": "Kontrakt {contract}, spilfører {seat}"},
    "result": {"en": "Result: {tricks} tricks, NS {score}", "sv": "Resultat: {tricks} stick, NS {score}",
               "da": "Resultat: {tricks} stik, NS {score}"},
    "result_no_tricks": {"en": "Result: NS {score}", "sv": "Resultat: NS {score}", "da": "Resultat: NS {score}"},
    # the card's status line: the auction as the vocabulary names its statuses, and the board over
    "status_bidding": {"en": "Auction in progress", "sv": "Budgivningen pågår", "da": "Meldeforløbet er i gang"},
    # 2007/2017 L9B2: nobody calls until the director has ruled
    "status_awaiting_td": {"en": "Waiting for the director", "sv": "Väntar på tävlingsledaren",
                           "da": "Venter på turneringslederen"},
    "status_finished": {"en": "Board finished", "sv": "Brickan är färdigspelad", "da": "Spillet er færdigspillet"},
}

def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _by_name(table: dict, lang: str, capital: bool = False) -> dict[str, str]:
    """An engine table (enum member -> words) as the events name its members (the member's value)."""
    return {str(key.value): (_capital if capital else str)(in_lang(words, lang))
            for key, words in table.items()}


def texts(lang: str) -> dict[str, str | dict[str, str]]:
    """Every word of a table's card in `lang` (the page's script fills in the events' values)."""
    out: dict[str, str | dict[str, str]] = {key: in_lang(words, lang) for key, words in WORDS.items()}
    out["ranks"] = {rank: str(out.pop(f"rank_{rank}")) for rank in "AQJ"}
    out["seat_letters"] = {seat.name: SEAT_LETTERS[seat][lang] for seat in Seat}
    out["seat_names"] = {seat.name: SEAT_NAMES[seat][lang] for seat in Seat}
    out["vulnerability"] = {vul: words[lang] for vul, words in VULNERABILITY.items()}
    # an irregularity's kind after "Irregularity:" (lower case, as its ruling), the ruling as named
    out["kinds"] = {kind: name[:1].lower() + name[1:] for kind, name in _by_name(IRREGULARITIES, lang).items()}
    out["rulings"] = _by_name(RULINGS, lang)
    # the statuses the vocabulary names (ended, passed out, adjusted score), as a line of their own
    for status, name in _by_name(AUCTION_STATUSES, lang, capital=True).items():
        out.setdefault(f"status_{status}", name)
    return out
