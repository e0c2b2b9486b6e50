"""The director page's words in the TD's language (Swedish, Danish, English): headings, the
tables' progress, what a TD call is about, the ruling made, seats as each country's bidding boxes
print them (Swedish N Ö S V, Danish N Ø S V), the Laws with their edition.

The names of the engine's enums (irregularity kinds, decisions, auction statuses, rulings, seats)
are the tablet's too: one vocabulary, shared_rules/vocabulary, which has words in all three
languages for every member (tests/rules/test_vocabulary_words.py). The page's own words are here.
Texts only: `station/director.py` fills them in and escapes them.
"""
from __future__ import annotations

import re
import time
from collections.abc import Mapping
from enum import StrEnum
from typing import Final, TypeVar

from shared_rules import vocabulary
from shared_rules.types import Seat
from shared_rules.vocabulary import Words

LANGUAGES: Final = vocabulary.LANGUAGES
DEFAULT: Final = vocabulary.DEFAULT


K = TypeVar("K", bound=StrEnum)


def _by_value(table: Mapping[K, Words]) -> dict[str, Words]:
    """A vocabulary table keyed by the names as the items carry them (the enums' values)."""
    return {str(member): words for member, words in table.items()}


# Seats as the national bidding boxes print them, in seat order N E S W (Law 17C).
SEAT_LETTERS: Final[dict[str, tuple[str, ...]]] = {
    lang: tuple(vocabulary.SEAT_LETTERS[s][lang] for s in Seat) for lang in LANGUAGES}
MONTHS: Final[dict[str, tuple[str, ...]]] = {
    "sv": ("jan", "feb", "mar", "apr", "maj", "jun", "jul", "aug", "sep", "okt", "nov", "dec"),
    "da": ("jan", "feb", "mar", "apr", "maj", "jun", "jul", "aug", "sep", "okt", "nov", "dec"),
    "en": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")}
# How each language names a Law: "Lag 27B (2007)", "Lov 27B (2017)", "Law 27B (2017)".
LAW_WORD: Final = {"sv": "Lag", "da": "Lov", "en": "Law"}

# The page's own words, `{...}` filled by `text()`.
PAGE: Final[dict[str, dict[str, str]]] = {
    "director": {"sv": "Tävlingsledare", "da": "Turneringsleder", "en": "Director"},
    "updated": {"sv": "Uppdaterad {at} (stationens tid, {zone}; laddas om var 5:e s).",
                "da": "Opdateret {at} (stationens tid, {zone}; genindlæses hvert 5. s).",
                "en": "Updated {at} (station time, {zone}; refreshes every 5 s)."},
    "open_calls": {"sv": "Öppna TL-tillkallelser ({n})", "da": "Åbne TL-tilkald ({n})",
                   "en": "Open TD calls ({n})"},
    "none": {"sv": "inga", "da": "ingen", "en": "none"},
    "refused": {"sv": "Avvisade leveranser (de senaste 50 per bord)",
                "da": "Afviste leveringer (de seneste 50 pr. bord)",
                "en": "Refused deliveries (the newest 50 per table)"},
    "held_head": {
        "sv": "Väntande leveranser (resultat från en rond bordet inte har börjat: tas emot när bordet börjar "
              "ronden, 2007 lag 16C1, 2017 lag 16D1)",
        "da": "Tilbageholdte leveringer (resultat fra en runde bordet ikke er i gang med: modtages når bordet "
              "begynder runden, 2007 lov 16C1, 2017 lov 16D1)",
        "en": "Held deliveries (a result of a round the table is not on yet: taken once the table starts "
              "that round, 2017 Law 16D1, 2007 Law 16C1)"},
    "tables": {"sv": "Bord", "da": "Borde", "en": "Tables"},
    "tables_hint": {"sv": "Ett bords felaktigheter och TL-tillkallelser: klicka på dess namn.",
                    "da": "Et bords uregelmæssigheder og TL-tilkald: klik på dets navn.",
                    "en": "A table's irregularities and TD calls: click its name."},
    "results_head": {"sv": "Resultat när de kommer in ({n}{more})", "da": "Resultater når de kommer ({n}{more})",
                     "en": "Results as they arrive ({n}{more})"},
    "latest_200": {"sv": ", de senaste 200 visas", "da": ", de seneste 200 vises", "en": ", the latest 200 shown"},
    "keys": {"sv": "Bordsnycklar (skriv in en i varje platta vid start)",
             "da": "Bordnøgler (tast én ind i hver tablet ved start)",
             "en": "Table keys (type one into each tablet at setup)"},
    "address": {"sv": "Stationens adress för plattorna", "da": "Stationens adresse til tabletterne",
                "en": "Station address for the tablets"},
    "table_id": {"sv": "bords-id", "da": "bord-id", "en": "table id"},
    "section_table": {"sv": "<sektion>/<bord>", "da": "<række>/<bord>", "en": "<section>/<table>"},
    "col_table": {"sv": "Bord", "da": "Bord", "en": "Table"},
    "col_round": {"sv": "Rond", "da": "Runde", "en": "Round"},
    "col_board": {"sv": "Bricka", "da": "Spil", "en": "Board"},
    "col_players": {"sv": "Spelare", "da": "Spillere", "en": "Players"},
    "col_progress": {"sv": "Läge", "da": "Status", "en": "Progress"},
    "col_results": {"sv": "Resultat", "da": "Resultater", "en": "Results"},
    "col_td_calls": {"sv": "TL-tillk.", "da": "TL-tilkald", "en": "TD calls"},
    "col_last": {"sv": "Senast hörd", "da": "Sidst hørt", "en": "Last news"},
    "col_pairs": {"sv": "Par", "da": "Par", "en": "Pairs"},
    "col_contract": {"sv": "Kontrakt", "da": "Kontrakt", "en": "Contract"},
    "col_tricks": {"sv": "Stick", "da": "Stik", "en": "Tricks"},
    "col_score_ns": {"sv": "Poäng NS", "da": "Point NS", "en": "Score NS"},
    "col_received": {"sv": "Mottaget", "da": "Modtaget", "en": "Received"},
    "col_seat": {"sv": "Plats", "da": "Plads", "en": "Seat"},
    "col_irregularity": {"sv": "Felaktighet", "da": "Uregelmæssighed", "en": "Irregularity"},
    "col_call": {"sv": "Bud", "da": "Melding", "en": "Call"},
    "col_law": {"sv": "Lag", "da": "Lov", "en": "Law"},
    "col_ruling": {"sv": "Utslag", "da": "Kendelse", "en": "Ruling"},
    "col_status": {"sv": "Status", "da": "Status", "en": "Status"},
    "col_note": {"sv": "Anteckning", "da": "Note", "en": "Note"},
    "col_at": {"sv": "Tid", "da": "Tid", "en": "At"},
    "col_ns_pair": {"sv": "NS-par", "da": "NS-par", "en": "NS pair"},
    "col_ew_pair": {"sv": "ÖV-par", "da": "ØV-par", "en": "EW pair"},
    "late": {"sv": "SEN", "da": "FORSINKET", "en": "LATE"},
    "table_n": {"sv": "Bord {t}", "da": "Bord {t}", "en": "Table {t}"},
    "back": {"sv": "Tillbaka till alla bord", "da": "Tilbage til alle borde", "en": "Back to all tables"},
    "times": {"sv": "tider: stationens tid, {zone}", "da": "tider: stationens tid, {zone}",
              "en": "times: station time, {zone}"},
    "irregularities": {"sv": "Felaktigheter ({n})", "da": "Uregelmæssigheder ({n})",
                       "en": "Irregularities ({n})"},
    "td_calls": {"sv": "TL-tillkallelser ({n})", "da": "TL-tilkald ({n})", "en": "TD calls ({n})"},
    "called_by": {"sv": "tillkallad av {seat}", "da": "tilkaldt af {seat}", "en": "called by {seat}"},
    "called_by_table": {"sv": "bordet tillkallade (felande: {seat})", "da": "bordet tilkaldte (overtræder: {seat})",
                        "en": "the table called (offender: {seat})"},
    "table_itself": {"sv": "bordet tillkallade", "da": "bordet tilkaldte", "en": "the table called"},
    "round_board": {"sv": "rond {r}, bricka {b}", "da": "runde {r}, spil {b}", "en": "round {r}, board {b}"},
    "round_only": {"sv": "rond {r}", "da": "runde {r}", "en": "round {r}"},
    "awaiting_ruling": {"sv": "inväntar utslag", "da": "afventer kendelse", "en": "awaiting the ruling"},
    "ruled": {"sv": "utslag: {ruling}", "da": "kendelse: {ruling}", "en": "ruling: {ruling}"},
    "adjusted": {"sv": "korrigerat resultat ({kind})", "da": "justeret resultat ({kind})",
                 "en": "adjusted score ({kind})"},
    "adjusted_ns_ew": {"sv": "korrigerat resultat ({kind}) NS {ns}, ÖV {ew}", "da": "justeret resultat ({kind}) NS {ns}, ØV {ew}",
                       "en": "adjusted score ({kind}) NS {ns}, EW {ew}"},
    "passed_out": {"sv": "passat", "da": "meldt pas rundt", "en": "passed out"},
    "exports": {"sv": "Export", "da": "Eksport", "en": "Exports"},
    "exports_each": {"sv": "Export, en fil per omgång:", "da": "Eksport, én fil pr. session:",
                     "en": "Exports, one session each:"},
    "pin_head": {"sv": "Fel TL-PIN vid stationen", "da": "Forkert TL-PIN ved stationen",
                 "en": "Wrong director PINs at the station"},
    "pin_row": {"sv": "Bord {t}: {n} fel i rad", "da": "Bord {t}: {n} forkerte i træk", "en": "Table {t}: {n} wrong in a row"},
    "pin_last": {"sv": ", senast {at}", "da": ", sidst {at}", "en": ", last at {at}"},
    "pin_until": {"sv": ", inget nytt försök före {at}", "da": ", intet nyt forsøg før {at}",
                  "en": ", no try taken until {at}"},
    "damaged_head": {"sv": "Skadade lagrade poster ({n}){more}", "da": "Beskadigede gemte poster ({n}){more}",
                     "en": "Damaged stored items ({n}){more}"},
    "damaged_more": {"sv": " (de första {n} visas)", "da": " (de første {n} vises)", "en": " (the first {n} shown)"},
    "damaged_text": {
        "sv": "Stationen kan inte läsa dessa rader i sin databas: de saknas på denna sida, i bordens "
              "resultatlistor och i tävlingsdatorns hämtningar. Låt bordet skicka posten igen, eller "
              "skriv in den i tävlingsdatorn.",
        "da": "Stationen kan ikke læse disse rækker i sin database: de mangler på denne side, i bordenes "
              "resultatlister og i regnskabsprogrammets hentninger. Lad bordet sende posten igen, eller "
              "indtast den i regnskabsprogrammet.",
        "en": "The station cannot read these rows of its database: they are left out of this page, the "
              "tables' travellers and the scoring program's polls. Have the table send the item again, "
              "or enter it in the scoring program."},
}

# What a table is doing (`director.status`'s phases).
PHASES: Final[dict[str, dict[str, str]]] = {
    "bidding": {"sv": "budgivning", "da": "melding", "en": "bidding"},
    "playing": {"sv": "spel", "da": "spil", "en": "playing"},
    "entering_result": {"sv": "väntar på resultat", "da": "venter på resultat", "en": "waiting for result"},
    "result_in": {"sv": "resultat inne", "da": "resultat modtaget", "en": "result in"},
    "idle": {"sv": "ej startat", "da": "ikke startet", "en": "not started"},
    "next_board": {"sv": "spel (ingen budgivningslogg)", "da": "spil (ingen log over meldeforløbet)", "en": "playing (no auction log)"},
    "round_done": {"sv": "ronden klar, väntar på byte", "da": "runden færdig, venter på skift",
                   "en": "round done, waiting to move"},
    "in_progress": {"sv": "pågår", "da": "i gang", "en": "in progress"},
}

# A TD call's status (each change of it is an item the tablet sends).
STATUSES: Final[dict[str, dict[str, str]]] = {
    "launched": {"sv": "tillkallad", "da": "tilkaldt", "en": "called"},
    "in_progress": {"sv": "TL vid bordet", "da": "TL ved bordet", "en": "TD at the table"},
    "deferred": {"sv": "uppskjuten", "da": "udsat", "en": "deferred"},
    "resolved": {"sv": "avklarad", "da": "afklaret", "en": "resolved"},
}

# What the engine names (shared_rules/vocabulary, the tablet's words too): each irregularity kind.
IRREGULARITIES: Final[Mapping[str, Words]] = _by_value(vocabulary.IRREGULARITIES)

# What a TD call is about (its `reason`): the decision the table waits for, a status that
# stopped the auction, or the tablet's own reasons (a wrong PIN, a full disk); none: a TD key.
REASONS: Final[dict[str, Words]] = {
    **_by_value(vocabulary.DECISIONS), **_by_value(vocabulary.AUCTION_STATUSES),
    "wrong_pin": {"sv": "fel TL-PIN vid bordet", "da": "forkert TL-PIN ved bordet", "en": "wrong director PIN at the table"},
    "storage_full": {"sv": "plattans minne fullt", "da": "tablettens lager fuldt", "en": "tablet storage full"},
    "td_key": {"sv": "TL-knappen", "da": "TL-knappen", "en": "the TD key"},
}

# The ruling made (an irregularity's `resolution`), in words.
RULINGS: Final[Mapping[str, Words]] = _by_value(vocabulary.RULINGS)

# The kinds of adjusted score a result may carry (docs/scoring.md, Law 12).
ADJUSTED: Final[dict[str, dict[str, str]]] = {
    "artificial": {"sv": "konstlat", "da": "kunstigt", "en": "artificial"},
    "assigned": {"sv": "tilldelat", "da": "tildelt", "en": "assigned"},
    "weighted": {"sv": "viktat", "da": "vægtet", "en": "weighted"},
    "split": {"sv": "delat", "da": "delt", "en": "split"},
}

# What a stored item is (its kind, shared_rules.records.ItemKind), for a damaged row's line.
ITEM_KINDS: Final[dict[str, dict[str, str]]] = {
    "result": {"sv": "resultat", "da": "resultat", "en": "result"},
    "td_call": {"sv": "TL-tillkallelse", "da": "TL-tilkald", "en": "TD call"},
    "auction": {"sv": "budgivning", "da": "meldeforløb", "en": "auction"},
    "auction_event": {"sv": "budgivningshändelse", "da": "hændelse i meldeforløbet", "en": "auction event"},
    "round": {"sv": "rondstart", "da": "rundestart", "en": "round start"},
    "players": {"sv": "medlemsnummer", "da": "medlemsnumre", "en": "player numbers"},
}

TABLES: Final = {"adjusted": ADJUSTED, "kind": ITEM_KINDS, "page": PAGE, "phase": PHASES, "status": STATUSES,
                 "irregularity": IRREGULARITIES, "reason": REASONS, "ruling": RULINGS}


def language(asked: str | None, club: str | None) -> str:
    """The page's language: `?lang=` when it is one of ours, else the club's, else English."""
    for lang in (asked, club):
        if lang in LANGUAGES:
            return str(lang)
    return DEFAULT


def text(key: str, lang: str, **fields: object) -> str:
    """One of the page's texts, its `{...}` filled."""
    return PAGE[key][lang].format(**fields)


def words(table: str, key: str | None, lang: str) -> str:
    """An engine name in words (`insufficient_bid` -> "otillräckligt bud"); an unknown name (a
    newer tablet's) as itself, its underscores spaces."""
    if not key:
        return ""
    found = TABLES[table].get(key)
    return found[lang] if found else str(key).replace("_", " ")


def seat(letter: str | None, lang: str) -> str:
    """A seat's letter as the language prints it (E -> Ö in Swedish); anything else as given."""
    try:
        return SEAT_LETTERS[lang][Seat.of(str(letter))]
    except ValueError:
        return str(letter or "")


_LAW = re.compile(r"^(?:(\d{4}) )?(?:([A-Z]{2,5}) )?L(\d+[A-Za-z0-9()\-]*)$")


def law(ref: str | None, lang: str, edition: int | None = None) -> str:
    """An engine's Law reference in the language, with its edition: "2007 L27B2" -> "Lag 27B2
    (2007)", "2007 L25A1, FSB L112D" -> "Lag 25A1 (2007), FSB lag 112D"; a reference without an
    edition takes `edition` (the table's profile's). Anything it cannot read is shown as given."""
    if not ref:
        return ""
    out, year = [], None
    for part in (p.strip() for p in str(ref).split(",")):
        m = _LAW.match(part)
        if not m:
            out.append(part)
            continue
        body, regulator = m.group(3), m.group(2)
        if regulator:  # a national regulation's own numbering (FSB L112D): its name, no edition
            out.append(f"{regulator} {LAW_WORD[lang].lower()} {body}")
            continue
        year = m.group(1) or year or (str(edition) if edition else None)
        out.append(f"{LAW_WORD[lang]} {body}" + (f" ({year})" if year else ""))
    return ", ".join(out)


def clock(epoch: float, lang: str, now: float) -> str:
    """A moment in the station's local time: `19:45:12` today, `22 nov 19:45` another day."""
    t, today = time.localtime(epoch), time.localtime(now)
    if t[:3] == today[:3]:
        return time.strftime("%H:%M:%S", t)
    return f"{t.tm_mday} {MONTHS[lang][t.tm_mon - 1]} {time.strftime('%H:%M', t)}"
