"""The director page's words on the scoring-program link (station/bws/status.py: the Data
Connector or the `.bws` file) and on the team matches (station/match_page.py), in Swedish,
Danish and English; `{...}` filled by `text()`.

Team-match terms as the federations' law texts use them: the Swedish 2007 laws with the FSB
supplements (lagtävling, match, hemmalag, öppet rum / slutet rum: FSB L107, IMP, vinstpoäng VP),
the Danish 2017 laws (hold, holdkamp, kamp: § 86B; imp), åbent / lukket rum. A detail the
station tells of its own troubles (the `.bws` bridge's error, a movement's problem) is a code
with its words in station/notice_texts.py. Texts only: the callers escape them.
"""
from __future__ import annotations

from typing import Final

from shared_rules.vocabulary import in_lang

LINK: Final[dict[str, dict[str, str]]] = {
    "dc": {"en": "Scoring program link: Bridgemate Data Connector (/dc-scoringprogram); {n} results taken by the "
                 "scoring program (times are local). {detail}.",
           "sv": "Länk till tävlingsdatorn: Bridgemate Data Connector (/dc-scoringprogram); {n} resultat hämtade "
                 "av tävlingsdatorn (lokal tid). {detail}.",
           "da": "Forbindelse til regnskabsprogrammet: Bridgemate Data Connector (/dc-scoringprogram); {n} resultater "
                 "hentet af regnskabsprogrammet (lokal tid). {detail}."},
    "dc_session": {"en": "{name}: {n} results taken by the scoring program, {took}{asked}",
                   "sv": "{name}: {n} resultat hämtade av tävlingsdatorn, {took}{asked}",
                   "da": "{name}: {n} resultater hentet af regnskabsprogrammet, {took}{asked}"},
    "dc_took": {"en": "last took one at {at}", "sv": "senast ett hämtat {at}", "da": "sidst ét hentet {at}"},
    "dc_none_taken": {"en": "none taken yet", "sv": "inget hämtat än", "da": "intet hentet endnu"},
    "dc_asked": {"en": ", last asked at {at}", "sv": ", senast frågat {at}", "da": ", sidst spurgt {at}"},
    "dc_not_polled": {"en": ", not polled yet", "sv": ", inte frågat än", "da": ", ikke spurgt endnu"},
    "dc_no_session": {"en": "the scoring program has not initialised a session yet",
                      "sv": "tävlingsdatorn har inte startat någon omgång än",
                      "da": "regnskabsprogrammet har endnu ikke startet en session"},
    "bws": {"en": "Scoring program link: .bws file {path} (Ruter, Magic Contest; the Data Connector is off); "
                  "{written} results in the file, {read} read; {when}.",
            "sv": "Länk till tävlingsdatorn: .bws-filen {path} (Ruter, Magic Contest; Data Connector är "
                  "avstängd); {written} resultat i filen, {read} lästa; {when}.",
            "da": "Forbindelse til regnskabsprogrammet: .bws-filen {path} (Ruter, Magic Contest; Data Connector er "
                  "slået fra); {written} resultater i filen, {read} læst; {when}."},
    "bws_read": {"en": "last read by the scoring program at {at} (local time)",
                 "sv": "senast läst av tävlingsdatorn {at} (lokal tid)",
                 "da": "sidst læst af regnskabsprogrammet {at} (lokal tid)"},
    "bws_not_read": {"en": "not read by the scoring program yet", "sv": "ännu inte läst av tävlingsdatorn",
                     "da": "endnu ikke læst af regnskabsprogrammet"},
    "replaced_head": {"en": "The .bws was replaced by a file the earlier results do not fit",
                      "sv": ".bws-filen har ersatts av en fil som de tidigare resultaten inte passar in i",
                      "da": ".bws-filen er erstattet af en fil, som de tidligere resultater ikke passer ind i"},
    "replaced_since": {"en": "since {at}; {why}", "sv": "sedan {at}; {why}", "da": "siden {at}; {why}"},
    "replaced_wait": {"en": "Nothing is written into it, and the tablets keep the movement they have, until you "
                            "answer:",
                      "sv": "Inget skrivs in i den, och plattorna behåller sitt rörelseschema, tills du svarar:",
                      "da": "Intet skrives ind i den, og tabletterne beholder deres turneringsplan, indtil du "
                            "svarer:"},
    "replaced_more": {"en": "and {n} more", "sv": "och {n} till", "da": "og {n} mere"},
    "replaced_write": {"en": "The same evening, the earlier results belong in it:",
                       "sv": "Samma kväll, de tidigare resultaten hör hemma i den:",
                       "da": "Samme aften, de tidligere resultater hører hjemme i den:"},
    "replaced_write_held": {"en": "(those its movement lacks are held and shown here).",
                            "sv": "(de som dess rörelseschema saknar hålls kvar och visas här).",
                            "da": "(dem, dens turneringsplan mangler, holdes tilbage og vises her)."},
    "replaced_leave": {"en": "A new session, the earlier results stay out of it:",
                       "sv": "En ny omgång, de tidigare resultaten hålls utanför den:",
                       "da": "En ny session, de tidligere resultater holdes uden for den:"},
    "replaced_leave_kept": {"en": "(they stay in the station and its exports).",
                            "sv": "(de finns kvar i stationen och dess exportfiler).",
                            "da": "(de bliver i stationen og dens eksportfiler)."},
    "taken_over": {"en": "The .bws was replaced at {at} ({why}): {what}.",
                   "sv": ".bws-filen ersattes {at} ({why}): {what}.",
                   "da": ".bws-filen blev erstattet {at} ({why}): {what}."},
    "taken_left": {"en": "the earlier results were left out of it, as you answered",
                   "sv": "de tidigare resultaten hölls utanför den, som du svarade",
                   "da": "de tidligere resultater blev holdt uden for den, som du svarede"},
    "taken_written": {"en": "{rewritten} of the {results} earlier results written into it again, {found} were in it "
                            "already",
                      "sv": "{rewritten} av de {results} tidigare resultaten skrevs in i den igen, {found} fanns redan "
                            "i den",
                      "da": "{rewritten} af de {results} tidligere resultater skrevet ind i den igen, {found} var "
                            "der allerede"},
    "scorer_head": {"en": "From the scoring program ({n}{more})", "sv": "Från tävlingsdatorn ({n}{more})",
                    "da": "Fra regnskabsprogrammet ({n}{more})"},
    "scorer_latest": {"en": ", the latest 50 shown", "sv": ", de senaste 50 visas", "da": ", de seneste 50 vises"},
    "scorer_where": {"en": "table {table}, round {round}", "sv": "bord {table}, rond {round}",
                     "da": "bord {table}, runde {round}"},
    "scorer_result": {"en": "{where}, board {board}: {result} (put {at})",
                      "sv": "{where}, bricka {board}: {result} (lagt in {at})",
                      "da": "{where}, spil {board}: {result} (lagt ind {at})"},
    "scorer_td_call": {"en": "{where}: TD call {status} at {time} (put {at})",
                       "sv": "{where}: TL-tillkallelse {status} kl. {time} (lagt in {at})",
                       "da": "{where}: TL-tilkald {status} kl. {time} (lagt ind {at})"},
    # the Data Connector's TD-call statuses (TdCallDTO Status 1-4)
    "td_launched": {"en": "launched", "sv": "tillkallad", "da": "tilkaldt"},
    "td_in_progress": {"en": "in progress", "sv": "pågår", "da": "i gang"},
    "td_resolved": {"en": "resolved", "sv": "avklarad", "da": "afklaret"},
    "td_deferred": {"en": "deferred", "sv": "uppskjuten", "da": "udsat"},
    # a ResultDTO's level 0 (passed out) and -10 (not played)
    "scorer_pass": {"en": "Pass", "sv": "Pass", "da": "Pas"},
    "scorer_no_play": {"en": "no play", "sv": "ej spelad", "da": "ikke spillet"},
}

# The team matches (FSB L107: hemmalaget, öppet rum / slutet rum; 2017 § 86B: holdkampe).
MATCH: Final[dict[str, dict[str, str]]] = {
    "head": {"en": "Team matches ({n})", "sv": "Lagmatcher ({n})", "da": "Holdkampe ({n})"},
    "explain": {"en": "Home team first; the IMPs each team has won so far (the margin is their difference); VPs on "
                      "the WBF 2013 20-0 scale once every board is scored in both rooms.",
                "sv": "Hemmalaget först; de IMP varje lag har vunnit hittills (marginalen är skillnaden); VP "
                      "(vinstpoäng) enligt WBF:s skala 20-0 från 2013 när varje bricka är räknad i båda rummen.",
                "da": "Hjemmeholdet først; de IMP, hvert hold har vundet indtil nu (marginen er forskellen); VP "
                      "efter WBF's skala 20-0 fra 2013, når hvert spil er regnet i begge rum."},
    "col_session": {"en": "Session", "sv": "Omgång", "da": "Session"},
    "col_match": {"en": "Match", "sv": "Match", "da": "Kamp"},
    "col_rooms": {"en": "Rooms", "sv": "Rum", "da": "Rum"},
    "col_boards": {"en": "Boards scored", "sv": "Räknade brickor", "da": "Regnede spil"},
    "col_imps": {"en": "IMPs", "sv": "IMP", "da": "IMP"},
    "col_vp": {"en": "VP", "sv": "VP", "da": "VP"},
    "col_set_by": {"en": "Set by", "sv": "Satt av", "da": "Sat af"},
    "versus": {"en": "{home} v {away}", "sv": "{home} – {away}", "da": "{home} – {away}"},
    "rooms": {"en": "open {open}, closed {closed} (round {round})",
              "sv": "öppet rum {open}, slutet rum {closed} (rond {round})",
              "da": "åbent rum {open}, lukket rum {closed} (runde {round})"},
    "imps_only": {"en": "IMPs only", "sv": "bara IMP", "da": "kun IMP"},
    "when_complete": {"en": "when complete", "sv": "när matchen är klar", "da": "når kampen er færdig"},
    "by_td": {"en": "TD", "sv": "TL", "da": "TL"},
    "by_movement": {"en": "movement", "sv": "rörelseschemat", "da": "turneringsplanen"},
    # a team as the files name it ("Team 2"), and a VP deduction (FSB L109B-D) as the files show it
    "team": {"en": "Team {n}", "sv": "Lag {n}", "da": "Hold {n}"},
    "deduction": {"en": "{team} -{vp} VP ({reason}; {law})", "sv": "{team} -{vp} VP ({reason}; {law})",
                  "da": "{team} -{vp} VP ({reason}; {law})"},
    # a bye (FSB 96B: "frirond"; Danish "oversidder") and a walk-over (FSB L109A), and the VP totals
    "bye": {"en": "{team}: bye", "sv": "{team}: frirond", "da": "{team}: oversidder"},
    "bye_round": {"en": "round {round}", "sv": "rond {round}", "da": "runde {round}"},
    "bye_not_set": {"en": "VPs not set: the TD gives them", "sv": "VP ej angivna: TL anger dem",
                    "da": "VP ikke angivet: TL angiver dem"},
    "walkover": {"en": "walk-over: {teams} did not appear (FSB L109A)",
                 "sv": "walk-over: {teams} ställde inte upp (FSB L109A)",
                 "da": "walk-over: {teams} mødte ikke op (FSB L109A)"},
    "totals_head": {"en": "VP totals", "sv": "Summa VP", "da": "VP i alt"},
    "col_team": {"en": "Team", "sv": "Lag", "da": "Hold"},
}

TABLES: Final = {"link": LINK, "match": MATCH}


def text(texts: dict[str, dict[str, str]], key: str, /, lang: str, **fields: object) -> str:
    """One of these texts in `lang` (English for a language not ours), its `{...}` filled (a
    field may be called `table`: the first two are positional only)."""
    words = texts[key]
    return in_lang(words, lang).format(**fields)
