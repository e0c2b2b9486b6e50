"""The tablet's words in English, Swedish and Danish. Keys are stable ids; missing keys fall back to
English, then to the key itself, so a new string never crashes a screen.

Bridge terms follow the federations' own texts (the Swedish 2007 laws with FSB's supplements and
the Danish 2017 laws): bud/melding, pass/pas, dubbelt/dobling, redubbelt/redobling, skärm/skærm,
tävlingsledare/turneringsleder; docs/glossary.md lists every term with its Law, and
tests/tablet/test_glossary.py holds these texts to it.
"""
from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import TypeVar

from shared_rules.types import Decision, IrregularityKind, Resolution, Seat, TimingKind
from shared_rules.vocabulary import DECISIONS, IRREGULARITIES, TIMING_FLAGS, Words, member, say
from shared_rules.vocabulary import SEAT_NAMES as _SEAT_WORDS
from shared_rules.vocabulary import VULNERABILITY as _VUL_WORDS
from tablet_app.console_texts import CONSOLE_ERRORS, CONSOLE_T
from tablet_app.station_texts import STATION_ERRORS, reason_text

E = TypeVar("E", bound=StrEnum)

LANGS = ("en", "sv", "da")
LANG_NAMES = {"en": "English", "sv": "Svenska", "da": "Dansk"}

# language -> seat letter -> name (shared_rules/vocabulary/seats.py)
SEAT_NAMES = {lang: {seat.name: _SEAT_WORDS[seat][lang] for seat in Seat} for lang in LANGS}

# 2007 L2 "I riskzonen", 2017 § 2 "I farezonen" (docs/glossary.md): the vocabulary's, as the live page's
VUL_NAMES = {lang: {vul: words[lang] for vul, words in _VUL_WORDS.items()} for lang in LANGS}

# card ranks as the federations write them (Swedish/Danish: E K D Kn for A K Q J)
RANKS = {"sv": {"A": "E", "Q": "D", "J": "Kn"}, "da": {"A": "E", "Q": "D", "J": "Kn"}}

T = {
    "board": {"en": "Board", "sv": "Bricka", "da": "Spil"},
    "table": {"en": "Table", "sv": "Bord", "da": "Bord"},
    "round": {"en": "Round", "sv": "Rond", "da": "Runde"},
    "dealer": {"en": "Dealer", "sv": "Givare", "da": "Kortgiver"},
    "to_call": {"en": "{seat} to call", "sv": "{seat} bjuder", "da": "{seat} melder"},
    "waits_td": {"en": "Table waits for the director", "sv": "Bordet väntar på tävlingsledaren",
                 "da": "Bordet venter på turneringslederen"},
    "auction_over": {"en": "Auction over: {contract} by {declarer}", "sv": "Budgivningen klar: {contract} av {declarer}",
                     "da": "Meldingerne slut: {contract} af {declarer}"},
    "passed_out": {"en": "Passed out", "sv": "Passad bricka", "da": "Passet ud"},
    "tray_moving": {"en": "Tray with {seats}", "sv": "Budbrickan hos {seats}", "da": "Bakken hos {seats}"},
    "pass": {"en": "Pass", "sv": "Pass", "da": "Pas"},
    "double": {"en": "X", "sv": "X", "da": "X"},
    "redouble": {"en": "XX", "sv": "XX", "da": "XX"},
    "alert": {"en": "Alert", "sv": "Alert", "da": "Alert"},
    "stop": {"en": "STOP", "sv": "STOPP", "da": "STOP"},
    "director": {"en": "Director", "sv": "Tävlingsledare", "da": "Turneringsleder"},
    "call_director": {"en": "Call director", "sv": "Tillkalla TL", "da": "Tilkald TL"},
    "tempo": {"en": "Tempo", "sv": "Tempo", "da": "Tempo"},
    # player numbers typed at the table (tablet_app/ui/players.py)
    "players_btn": {"en": "Player numbers", "sv": "Medlemsnummer", "da": "Medlemsnumre"},
    "players_title": {"en": "Each player's member number (tap a seat), then Show names",
                      "sv": "Varje spelares medlemsnummer (tryck på en plats), sedan Visa namn",
                      "da": "Hver spillers medlemsnummer (tryk på en plads), derefter Vis navne"},
    "players_check": {"en": "Are these your names? Confirm, or Correct to type again",
                      "sv": "Stämmer namnen? Godkänn, eller Rätta för att skriva om",
                      "da": "Passer navnene? Godkend, eller Ret for at skrive igen"},
    "players_show": {"en": "Show names", "sv": "Visa namn", "da": "Vis navne"},
    "players_confirm": {"en": "Confirm", "sv": "Godkänn", "da": "Godkend"},
    "players_correct": {"en": "Correct", "sv": "Rätta", "da": "Ret"},
    "players_next_seat": {"en": "Next", "sv": "Nästa", "da": "Næste"},
    "players_unknown": {"en": "not known to the scoring program", "sv": "okänt för tävlingsdatorn",
                        "da": "ukendt for regnskabsprogrammet"},
    "players_no_station": {"en": "name from the scoring program later", "sv": "namnet kommer från tävlingsdatorn",
                           "da": "navnet kommer fra regnskabsprogrammet"},
    "players_saved": {"en": "Member numbers saved", "sv": "Medlemsnumren är sparade",
                      "da": "Medlemsnumrene er gemt"},
    "result": {"en": "Result", "sv": "Resultat", "da": "Resultat"},
    "back": {"en": "Back", "sv": "Tillbaka", "da": "Tilbage"},
    "pin_prompt": {"en": "Director PIN", "sv": "TL-kod", "da": "TL-kode"},
    "pin_wrong": {"en": "Wrong PIN - nothing was changed", "sv": "Fel kod - inget har ändrats",
                  "da": "Forkert kode - intet er ændret"},
    "pin_ok": {"en": "Director signed in", "sv": "TL inloggad", "da": "TL logget ind"},
    "unlock": {"en": "Sign in", "sv": "Logga in", "da": "Log ind"},
    "clear": {"en": "Clear", "sv": "Rensa", "da": "Slet"},
    "what_happened": {"en": "What happened", "sv": "Vad som hände", "da": "Hvad skete der"},
    "options": {"en": "Options of the Law", "sv": "Lagens alternativ", "da": "Lovens muligheder"},
    "consequences": {"en": "Consequences", "sv": "Följder", "da": "Konsekvenser"},
    "delivery": {"en": "Results to the station", "sv": "Resultat till stationen", "da": "Resultater til stationen"},
    "boxes_clash": {"en": "Two boxes say they are {seat} (ports {ports}): set one box's seat jumpers right",
                    "sv": "Två budlådor säger att de är {seat} (portar {ports}): ställ in rätt plats på den ena",
                    "da": "To meldebokse siger, de er {seat} (porte {ports}): indstil den enes plads rigtigt"},
    "boxes_missing": {"en": "No box found for {seats}: check its cable and that it is on",
                      "sv": "Ingen budlåda hittad för {seats}: kontrollera kabeln och att den är på",
                      "da": "Ingen meldeboks fundet for {seats}: tjek kablet, og at den er tændt"},
    "station_none": {"en": "No results station connected: {n} item(s) kept on this tablet.",
                     "sv": "Ingen resultatstation ansluten: {n} post(er) sparade på plattan.",
                     "da": "Ingen resultatstation tilsluttet: {n} post(er) gemt på tabletten."},
    "station_ok": {"en": "Station connected: {d} delivered, {p} waiting.",
                   "sv": "Stationen ansluten: {d} levererade, {p} väntar.",
                   "da": "Stationen tilsluttet: {d} leveret, {p} venter."},
    "station_down": {"en": "Station not reachable, retrying: {d} delivered, {p} waiting (nothing is lost).",
                     "sv": "Stationen nås inte, försöker igen: {d} levererade, {p} väntar (inget går förlorat).",
                     "da": "Stationen kan ikke nås, prøver igen: {d} leveret, {p} venter (intet går tabt)."},
    "box_version": {"en": "Box {seat} speaks protocol {lo}..{hi}, this tablet {tlo}..{thi}: update the box's firmware or the tablet.",
                    "sv": "Boxen {seat} talar protokoll {lo}..{hi}, plattan {tlo}..{thi}: uppdatera boxens programvara eller plattan.",
                    "da": "Boksen {seat} taler protokol {lo}..{hi}, tabletten {tlo}..{thi}: opdater boksens software eller tabletten."},
    "box_naks": {"en": "Box {seat} could not read {n} frame(s) (last: {reason}): check its cable.",
                 "sv": "Boxen {seat} kunde inte läsa {n} meddelande(n) (senast: {reason}): kontrollera kabeln.",
                 "da": "Boksen {seat} kunne ikke læse {n} meddelelse(r) (senest: {reason}): kontroller kablet."},
    "station_refused": {"en": "Refused by the station, tell the scorer: {what}: {error}",
                        "sv": "Avvisad av stationen, meddela resultatansvarig: {what}: {error}",
                        "da": "Afvist af stationen, giv resultatansvarlig besked: {what}: {error}"},
    "no_pending": {"en": "No decision is waiting.", "sv": "Inget beslut väntar.", "da": "Ingen afgørelse venter."},
    "stop_with": {"en": "Made with the stop card: yes", "sv": "Gjort med stoppkortet: ja",
                  "da": "Afgivet med stopkortet: ja"},
    "stop_without": {"en": "Made with the stop card: no", "sv": "Gjort med stoppkortet: nej",
                     "da": "Afgivet med stopkortet: nej"},
    "stop_as_made": {"en": "Stop card: as the replaced call", "sv": "Stoppkort: som det ersatta budet",
                     "da": "Stopkort: som den erstattede melding"},
    "choose_call": {"en": "Choose the replacement call", "sv": "Välj ersättningsbudet", "da": "Vælg erstatningsmeldingen"},
    "lead_restriction": {"en": "Lead restriction: {text}", "sv": "Utspelsrestriktion: {text}", "da": "Udspilsrestriktion: {text}"},
    "setup_event": {"en": "Event", "sv": "Tävling", "da": "Turnering"},
    "setup_section": {"en": "Section", "sv": "Sektion", "da": "Række"},
    "setup_tables": {"en": "Tables in section", "sv": "Bord i sektionen", "da": "Borde i rækken"},
    "setup_boards": {"en": "Boards (e.g. 1-3)", "sv": "Brickor (t.ex. 1-3)", "da": "Spil (f.eks. 1-3)"},
    "setup_ns": {"en": "N-S pair", "sv": "N-S par", "da": "N-S par"},
    "setup_ew": {"en": "E-W pair", "sv": "Ö-V par", "da": "Ø-V par"},
    "setup_profile": {"en": "Regulations", "sv": "Regelverk", "da": "Regelsæt"},
    "setup_alerts": {"en": "Alerts (FSB L115A)", "sv": "Alertering (FSB L115A)", "da": "Alertering (FSB L115A)"},
    "setup_policy": {"en": "Irregularities", "sv": "Felaktigheter", "da": "Uregelmæssigheder"},
    "setup_screens": {"en": "Screens", "sv": "Skärmar", "da": "Skærme"},
    "setup_start": {"en": "Start the round", "sv": "Starta ronden", "da": "Start runden"},
    "next_round": {"en": "Next round", "sv": "Nästa rond", "da": "Næste runde"},
    "td_called_by": {"en": "Director called by {seat}", "sv": "TL tillkallad av {seat}", "da": "TL tilkaldt af {seat}"},
    "reason_change_of_call": {"en": "wrong card", "sv": "fel kort", "da": "forkert kort"},
    "correct_call": {"en": "Correct an unintended call", "sv": "Rätta ett oavsiktligt bud",
                     "da": "Ret en utilsigtet melding"},
    "whose_call": {"en": "Whose call?", "sv": "Vems bud?", "da": "Hvis melding?"},
    # 2007 L12C2 (sv): "korrigerad poäng i form av en procentuell poängsats"; 2017 § 12C2 (da):
    # "kunstig justeret score"
    "artificial": {"en": "Artificial adjusted score", "sv": "Korrigerad poäng (procentsats)",
                   "da": "Kunstig justeret score"},
    "fix_result": {"en": "Correct an agreed result", "sv": "Rätta ett godkänt resultat", "da": "Ret et godkendt resultat"},
    "which_board": {"en": "Which board?", "sv": "Vilken bricka?", "da": "Hvilket spil?"},
    "award": {"en": "Award", "sv": "Döm", "da": "Tildel"},
    "pairs_ns": {"en": "North-South", "sv": "Nord-Syd", "da": "Nord-Syd"},
    "pairs_ew": {"en": "East-West", "sv": "Öst-Väst", "da": "Øst-Vest"},
    "none": {"en": "None", "sv": "Inga", "da": "Ingen"},
    "think": {"en": "Think (s)", "sv": "Betänketid (s)", "da": "Tænketid (s)"},
    "call": {"en": "Call", "sv": "Bud", "da": "Melding"},
    "seat": {"en": "Seat", "sv": "Plats", "da": "Plads"},
    "flags": {"en": "Timing", "sv": "Tidsavvikelse", "da": "Tidsafvigelse"},
    "contract": {"en": "Contract", "sv": "Kontrakt", "da": "Kontrakt"},
    "declarer": {"en": "Declarer", "sv": "Spelförare", "da": "Spilfører"},
    "tricks": {"en": "Tricks taken by declarer", "sv": "Stick till spelföraren", "da": "Stik til spilfører"},
    "lead": {"en": "Opening lead (optional)", "sv": "Utspel (frivilligt)", "da": "Udspil (valgfrit)"},
    "enter": {"en": "Enter result", "sv": "Registrera", "da": "Indtast"},
    "ew_confirm": {"en": "East-West: confirm", "sv": "Öst-Väst: godkänn", "da": "Øst-Vest: godkend"},
    "ew_dispute": {"en": "Not agreed", "sv": "Ej överens", "da": "Ikke enige"},
    "score_ns": {"en": "Score N-S", "sv": "Poäng N-S", "da": "Score N-S"},
    "sent": {"en": "Result queued for the scorer", "sv": "Resultatet skickas till tävlingsdatorn",
             "da": "Resultatet sendes til regnskabet"},
    "round_confirm_title": {"en": "Round {round} at table {table}: are these the pairs at this table?",
                            "sv": "Rond {round} vid bord {table}: är det här paren vid bordet?",
                            "da": "Runde {round} ved bord {table}: er det disse par ved bordet?"},
    "round_confirm_pair": {"en": "{side} {pair}: {names}", "sv": "{side} {pair}: {names}", "da": "{side} {pair}: {names}"},
    "round_confirm_ask": {"en": "Check the pair numbers and names, then start the round.",
                          "sv": "Kontrollera parnummer och namn och starta sedan ronden.",
                          "da": "Kontrollér parnumre og navne, og start så runden."},
    "round_confirm_ok": {"en": "Yes - start the round", "sv": "Ja - starta ronden", "da": "Ja - start runden"},
    "round_confirm_td": {"en": "No - call the director", "sv": "Nej - tillkalla TL", "da": "Nej - tilkald TL"},
    "round_over": {"en": "Round over - please move", "sv": "Ronden är slut - byt bord", "da": "Runden er slut - skift bord"},
    "pairs_ns_go": {"en": "N-S pair {pair}: table {table}", "sv": "N-S par {pair}: bord {table}", "da": "N-S par {pair}: bord {table}"},
    "pairs_ew_go": {"en": "E-W pair {pair}: table {table}", "sv": "Ö-V par {pair}: bord {table}", "da": "Ø-V par {pair}: bord {table}"},
    "boards_go": {"en": "Boards {boards}: to table {table}", "sv": "Brickor {boards}: till bord {table}",
                  "da": "Spil {boards}: til bord {table}"},
    "ask_td": {"en": "Ask the director", "sv": "Fråga tävlingsledaren", "da": "Spørg turneringslederen"},
    "last_round": {"en": "That was the last round.", "sv": "Det var sista ronden.", "da": "Det var sidste runde."},
    "pairs_ns_out": {"en": "N-S pair {pair}: sits out next round", "sv": "N-S par {pair}: står över nästa rond",
                     "da": "N-S par {pair}: sidder over næste runde"},
    "pairs_ew_out": {"en": "E-W pair {pair}: sits out next round", "sv": "Ö-V par {pair}: står över nästa rond",
                     "da": "Ø-V par {pair}: sidder over næste runde"},
    "as_ns": {"en": "(sit North-South)", "sv": "(sitt Nord-Syd)", "da": "(sid Nord-Syd)"},
    "as_ew": {"en": "(sit East-West)", "sv": "(sitt Öst-Väst)", "da": "(sid Øst-Vest)"},
    "boards_to_td": {"en": "Boards {boards}: to the director", "sv": "Brickor {boards}: till tävlingsledaren",
                     "da": "Spil {boards}: til turneringslederen"},
    "no_board": {"en": "No board in play", "sv": "Ingen bricka spelas", "da": "Intet spil i gang"},
    "play_in_progress": {"en": "Play in progress", "sv": "Spel pågår", "da": "Spil i gang"},
    "by": {"en": "by", "sv": "av", "da": "af"},
    # the board's traveller and the running score (Bridgemate `show_results` / `score_recap`)
    "trav_title": {"en": "Board {board}: the results so far", "sv": "Bricka {board}: resultaten hittills",
                   "da": "Spil {board}: resultaterne indtil nu"},
    "trav_ns": {"en": "N-S", "sv": "N-S", "da": "N-S"},
    "trav_ew": {"en": "E-W", "sv": "Ö-V", "da": "Ø-V"},
    "trav_tricks": {"en": "Tricks", "sv": "Stick", "da": "Stik"},
    "trav_mp": {"en": "MP", "sv": "MP", "da": "MP"},
    "trav_adjusted": {"en": "Adjusted", "sv": "Korrigerad", "da": "Justeret"},
    "trav_recap": {"en": "Running score", "sv": "Ställning hittills", "da": "Stilling indtil nu"},
    "trav_coming": {"en": "Board {board}: the other results show here once the scorer has yours",
                    "sv": "Bricka {board}: de andra resultaten visas här när resultatdatorn har ert",
                    "da": "Spil {board}: de andre resultater vises her, når regnskabet har jeres"},
    "trav_pair": {"en": "{side} pair {pair}", "sv": "{side} par {pair}", "da": "{side} par {pair}"},
    "trav_score": {"en": "{mp} of {top} MP ({percent}) on {boards}", "sv": "{mp} av {top} MP ({percent}) på {boards}",
                   "da": "{mp} af {top} MP ({percent}) i {boards}"},
    # Law 78A: a board with this table's result alone has nothing to be compared with yet
    "trav_none_yet": {"en": "no other results yet ({boards})", "sv": "inga andra resultat ännu ({boards})",
                      "da": "ingen andre resultater endnu ({boards})"},
    "trav_waiting": {"en": "{boards} waiting", "sv": "{boards} väntar", "da": "{boards} venter"},
    "trav_board_one": {"en": "{n} board", "sv": "{n} bricka", "da": "{n} spil"},
    "trav_boards": {"en": "{n} boards", "sv": "{n} brickor", "da": "{n} spil"},
    "tool_exposed": {"en": "Cards exposed or led", "sv": "Kort visade eller utspelade",
                     "da": "Kort vist eller spillet ud"},
    "tool_wrong_board_call": {"en": "Call with cards from the wrong board", "sv": "Bud med kort från fel bricka",
                              "da": "Melding med kort fra forkert spil"},
    "tool_wrong_board": {"en": "Wrong board at this table", "sv": "Fel bricka vid bordet",
                         "da": "Forkert spil ved bordet"},
    "whose_cards": {"en": "Whose cards?", "sv": "Vems kort?", "da": "Hvis kort?"},
    "which_cards": {"en": "Which cards of {seat}?", "sv": "Vilka kort av {seat}?", "da": "Hvilke kort fra {seat}?"},
    "card_led": {"en": "Led early", "sv": "Utspelat i förtid", "da": "Spillet for tidligt ud"},
    "record": {"en": "Record", "sv": "Registrera", "da": "Registrer"},
    "who_wrong_cards": {"en": "Who called with the wrong cards?", "sv": "Vem bjöd med fel kort?",
                        "da": "Hvem meldte med de forkerte kort?"},
    "played_before_q": {"en": "Has a player at this table played this board before?",
                        "sv": "Har någon spelare vid bordet spelat brickan förut?",
                        "da": "Har en spiller ved bordet spillet dette spil før?"},
    "yes": {"en": "Yes", "sv": "Ja", "da": "Ja"},
    "no": {"en": "No", "sv": "Nej", "da": "Nej"},
    "exposed_face_up": {"en": "{seat}: {cards} face up on the table", "sv": "{seat}: {cards} med framsidan upp på bordet",
                        "da": "{seat}: {cards} åbent på bordet"},
    "exposed_penalty": {"en": "{seat}: {cards} are penalty cards", "sv": "{seat}: {cards} är straffkort",
                        "da": "{seat}: {cards} er strafkort"},
    "exposed_returned": {"en": "{seat}: {cards} go back to the hand", "sv": "{seat}: {cards} tas tillbaka till handen",
                         "da": "{seat}: {cards} tages op på hånden"},
    "adjusted_required": {"en": "Auction stopped: the director awards an adjusted score",
                          "sv": "Budgivningen avbruten: tävlingsledaren utdelar korrigerad poäng",
                          "da": "Meldingerne standset: turneringslederen tildeler en justeret score"},
    "wb_differs": {"en": "Not the earlier call: {seat} {call} (was {earlier})",
                   "sv": "Inte samma bud som förut: {seat} {call} (var {earlier})",
                   "da": "Ikke samme melding som før: {seat} {call} (var {earlier})"},
    "stop_wait": {"en": "STOP: {seat} waits {s} s", "sv": "STOPP: {seat} väntar {s} s", "da": "STOP: {seat} venter {s} s"},
    "stop_wait_report": {"en": "STOP: {seat} should wait {s} s", "sv": "STOPP: {seat} bör vänta {s} s",
                         "da": "STOP: {seat} bør vente {s} s"},
    "irregular_waits": {"en": "{seat} {call}: {what}. The table waits for the director",
                        "sv": "{seat} {call}: {what}. Bordet väntar på tävlingsledaren",
                        "da": "{seat} {call}: {what}. Bordet venter på turneringslederen"},
    "held_waits": {"en": "Director called by {seat}: nobody calls until the director has come",
                   "sv": "TL tillkallad av {seat}: ingen bjuder innan tävlingsledaren kommit",
                   "da": "TL tilkaldt af {seat}: ingen melder, før turneringslederen er kommet"},
    "dismiss_calls": {"en": "Director calls seen to: the table goes on", "sv": "TL-tillkallelser klara: bordet fortsätter",
                      "da": "TL-tilkald klaret: bordet fortsætter"},
    "refuse_correct_when": {"en": "A call can be corrected during the auction, or before the opening lead",
                            "sv": "Ett bud kan rättas under budgivningen eller före utspelet",
                            "da": "En melding kan rettes under meldeforløbet eller før udspillet"},
    "refuse_result_when": {"en": "The result can be entered when the auction is over",
                           "sv": "Resultatet kan matas in när budgivningen är klar",
                           "da": "Resultatet kan indtastes, når meldingerne er slut"},
    "refuse_result_waiting": {"en": "A result is already waiting for East-West to confirm",
                              "sv": "Ett resultat väntar redan på Öst-Västs godkännande",
                              "da": "Et resultat venter allerede på Øst-Vests godkendelse"},
    "refuse_no_result": {"en": "There is no result waiting for East-West", "sv": "Inget resultat väntar på Öst-Väst",
                         "da": "Intet resultat venter på Øst-Vest"},
    "refuse_tricks": {"en": "Tricks must be a whole number from 0 to 13", "sv": "Antal stick ska vara ett heltal 0-13",
                      "da": "Antal stik skal være et helt tal fra 0 til 13"},
    "refuse_lead": {"en": "The lead must be a suit and a card", "sv": "Utspelet ska vara en färg och ett kort",
                    "da": "Udspillet skal være en farve og et kort"},
    "refuse_finish_round": {"en": "Finish the round (or have the director end it) before setting up a new one",
                            "sv": "Spela klart ronden (eller låt TL avsluta den) innan en ny ställs in",
                            "da": "Spil runden færdig (eller lad TL afslutte den), før en ny sættes op"},
    "your_turn": {"en": "your turn", "sv": "din tur att bjuda", "da": "din tur til at melde"},
    "stop_wait_you": {"en": "STOP: wait {s} s", "sv": "STOPP: vänta {s} s", "da": "STOP: vent {s} s"},
    "layout_flat": {"en": "Flat table", "sv": "Liggande platta", "da": "Liggende tablet"},
    "layout_upright": {"en": "Upright", "sv": "Stående platta", "da": "Stående tablet"},
    "other_option": {"en": "Another option", "sv": "Annat alternativ", "da": "Anden mulighed"},
    "confirm_call": {"en": "Apply {call}", "sv": "Verkställ {call}", "da": "Udfør {call}"},
    "score_ew": {"en": "Score East-West", "sv": "Poäng Öst-Väst", "da": "Score Øst-Vest"},
    "score_side": {"en": "{side}: {score}", "sv": "{side}: {score}", "da": "{side}: {score}"},
    "result_sent": {"en": "Board {board} confirmed: N-S {score}. Sent to the scorer.",
                    "sv": "Bricka {board} bekräftad: N-S {score}. Skickad till resultatansvarig.",
                    "da": "Spil {board} bekræftet: N-S {score}. Sendt til resultatansvarlig."},
    "not_agreed": {"en": "East-West did not agree: North enters the result again (call the director if you still disagree)",
                   "sv": "Öst-Väst godkände inte: Nord matar in resultatet igen (tillkalla TL om ni fortfarande är oeniga)",
                   "da": "Øst-Vest godkendte ikke: Nord indtaster resultatet igen (tilkald TL, hvis I stadig er uenige)"},
    "ew_check": {"en": "East-West: check your score and confirm", "sv": "Öst-Väst: kontrollera er poäng och bekräfta",
                 "da": "Øst-Vest: kontroller jeres score og bekræft"},
    "pin_needed": {"en": "Director only: enter the director PIN", "sv": "Endast TL: ange TL-koden",
                   "da": "Kun TL: indtast TL-koden"},
    "policy_profile": {"en": "As the regulations say", "sv": "Enligt regelverket", "da": "Som regelsættet siger"},
    # FSB L114: screens when the organiser requires them (only where the regulation has screen rules)
    "screens_profile": {"en": "As the regulations say", "sv": "Enligt regelverket", "da": "Som regelsættet siger"},
    "screens_on": {"en": "Play with screens", "sv": "Spel med skärmar", "da": "Spil med skærme"},
    "screens_off": {"en": "No screens", "sv": "Utan skärmar", "da": "Uden skærme"},
    "policy_record": {"en": "Record and rule", "sv": "Registrera och döm", "da": "Registrer og afgør"},
    "policy_prevent": {"en": "Box refuses them", "sv": "Lådan vägrar", "da": "Kassen afviser"},
    "alerts_all": {"en": "Both pairs alert", "sv": "Båda paren alerterar", "da": "Begge par alerterer"},
    "alerts_not-NS": {"en": "N-S do not alert", "sv": "N-S alerterar inte", "da": "N-S alerterer ikke"},
    "alerts_not-EW": {"en": "E-W do not alert", "sv": "Ö-V alerterar inte", "da": "Ø-V alerterer ikke"},
    "alerts_none": {"en": "Nobody alerts", "sv": "Ingen alerterar", "da": "Ingen alerterer"},
    "avg-": {"en": "Avg-", "sv": "Knappt medel", "da": "Middel minus"},
    "avg": {"en": "Avg", "sv": "Medel", "da": "Middel"},
    "avg+": {"en": "Avg+", "sv": "Drygt medel", "da": "Middel plus"},
    # the board on the table (chosen by the players before the first call, or by the director)
    "boards": {"en": "Boards", "sv": "Brickor", "da": "Spil"},
    "board_on_table": {"en": "Which board is on the table?", "sv": "Vilken bricka ligger på bordet?",
                       "da": "Hvilket spil ligger på bordet?"},
    "board_other": {"en": "Other number", "sv": "Annat nummer", "da": "Andet nummer"},
    "board_chosen": {"en": "Board {board} is on the table", "sv": "Bricka {board} ligger på bordet",
                     "da": "Spil {board} ligger på bordet"},
    "board_played_mark": {"en": "played", "sv": "spelad", "da": "spillet"},
    "tool_board": {"en": "Change the board on the table", "sv": "Byt brickan på bordet", "da": "Skift spillet på bordet"},
    "tool_withdraw": {"en": "Withdraw a result", "sv": "Dra tillbaka ett resultat", "da": "Træk et resultat tilbage"},
    "tool_move": {"en": "Move a result to another board", "sv": "Flytta ett resultat till en annan bricka",
                  "da": "Flyt et resultat til et andet spil"},
    "move_to_which": {"en": "Board {board}: the play belongs to board ...", "sv": "Bricka {board}: spelet hör till bricka ...",
                      "da": "Spil {board}: spillet hører til spil ..."},
    "withdrawn_note": {"en": "Board {board}: result withdrawn", "sv": "Bricka {board}: resultatet tillbakadraget",
                       "da": "Spil {board}: resultatet trukket tilbage"},
    "moved_note": {"en": "Result moved from board {board} to board {to}", "sv": "Resultatet flyttat från bricka {board} till bricka {to}",
                   "da": "Resultatet flyttet fra spil {board} til spil {to}"},
    "reason_q": {"en": "Why? (the scorer and the players see it)", "sv": "Varför? (tävlingsdatorn och spelarna ser det)",
                 "da": "Hvorfor? (regnskabet og spillerne ser det)"},
    "reason_for": {"en": "{what}: the reason", "sv": "{what}: skälet", "da": "{what}: begrundelsen"},
    "reason_miscounted": {"en": "Tricks were counted wrongly", "sv": "Sticken räknades fel", "da": "Stikkene blev talt forkert"},
    "reason_wrong_board": {"en": "Result entered on the wrong board", "sv": "Resultatet fördes in på fel bricka",
                           "da": "Resultatet blev indtastet på forkert spil"},
    "reason_ruling": {"en": "Director's ruling", "sv": "Tävlingsledarens beslut", "da": "Turneringslederens kendelse"},
    "reason_record": {"en": "Record with this reason", "sv": "Registrera med detta skäl", "da": "Registrer med denne begrundelse"},
    # the tablet's storage and the station, in red where the director looks
    "storage_full_banner": {"en": "Tablet storage is full: nothing more can be recorded. Call the director.",
                            "sv": "Plattans minne är fullt: inget mer kan registreras. Tillkalla tävlingsledaren.",
                            "da": "Tablettens lager er fuldt: intet mere kan registreres. Tilkald turneringslederen."},
    "storage_error_banner": {"en": "Tablet storage error: {error}. Call the director.",
                             "sv": "Fel i plattans minne: {error}. Tillkalla tävlingsledaren.",
                             "da": "Fejl i tablettens lager: {error}. Tilkald turneringslederen."},
    "station_refused_item": {"en": "Refused by the station ({status}), tell the scorer: {what}: {reason}",
                             "sv": "Nekad av stationen ({status}), meddela tävlingsdatorns ansvarige: {what}: {reason}",
                             "da": "Afvist af stationen ({status}), sig det til regnskabsføreren: {what}: {reason}"},
    "station_refused_retrying": {"en": "(tried again)", "sv": "(försöker igen)", "da": "(prøver igen)"},
    "station_held_item": {"en": "Held by the station until the table is on its round ({status}), sent again: "
                                "{what}: {reason}",
                          "sv": "Stationen håller den tills bordet är på dess rond ({status}), skickas igen: "
                                "{what}: {reason}",
                          "da": "Stationen holder den, til bordet er på dens runde ({status}), sendes igen: "
                                "{what}: {reason}"},
    "station_pin_mismatch": {
        "en": "The station's certificate is not the one this tablet was given: nothing was sent. Check the station "
              "address (its #sha256= part) against the one the station printed; if it is right, someone may be "
              "between the tablet and the station.",
        "sv": "Stationens certifikat är inte det som plattan fick: inget skickades. Jämför stationens adress "
              "(delen #sha256=) med den som stationen skrev ut; stämmer den kan någon finnas mellan plattan och "
              "stationen.",
        "da": "Stationens certifikat er ikke det, tabletten fik: intet blev sendt. Sammenlign stationens adresse "
              "(delen #sha256=) med den, stationen udskrev; passer den, kan nogen være mellem tabletten og "
              "stationen."},
    "station_pin_missing": {
        "en": "The station address starts with https:// but has no certificate fingerprint: use the whole "
              "address the station printed (ending in #sha256=...).",
        "sv": "Stationens adress börjar med https:// men saknar certifikatets fingeravtryck: använd hela adressen "
              "som stationen skrev ut (den slutar med #sha256=...).",
        "da": "Stationens adresse begynder med https://, men mangler certifikatets fingeraftryk: brug hele "
              "adressen, stationen udskrev (den slutter med #sha256=...)."},
    "station_check_failed": {"en": "Station check of table {table} failed: {message}",
                             "sv": "Stationens kontroll av bord {table} misslyckades: {message}",
                             "da": "Stationens kontrol af bord {table} mislykkedes: {message}"},
    "pin_locked_wait": {"en": "Too many wrong PINs: wait {wait_s} s", "sv": "För många felaktiga koder: vänta {wait_s} s",
                        "da": "For mange forkerte koder: vent {wait_s} s"},
    # only the director rules (tablet_app/control/director_session.py): what the players see, and
    # the club's grace after the director left the console, counting down on the Director button
    "director_called": {"en": "The director is called. The Law's options are shown to the director only.",
                        "sv": "Tävlingsledaren är tillkallad. Lagens alternativ visas bara för tävlingsledaren.",
                        "da": "Turneringslederen er tilkaldt. Lovens muligheder vises kun for turneringslederen."},
    "director_grace": {"en": "Director (open {s} s)", "sv": "TL (öppen {s} s)", "da": "TL (åben {s} s)"},
    "signed_out": {"en": "Signed out: the director PIN opens the console again",
                   "sv": "Utloggad: TL-koden öppnar konsolen igen", "da": "Logget ud: TL-koden åbner konsollen igen"},
    "setup_choose_profile": {"en": "Choose the regulations", "sv": "Välj regelverk", "da": "Vælg regelsæt"},
    # a profile whose values rest on no cited regulation text (shared_rules profiles: assumed)
    "setup_profile_assumed": {"en": "{name} (assumed)", "sv": "{name} (antagna värden)",
                              "da": "{name} (antagne værdier)"},
    # a journal that cannot be trusted (tablet_app/ui/damaged.py)
    "damaged_title": {"en": "The tablet's journal is damaged", "sv": "Plattans journal är skadad", "da": "Tablettens journal er beskadiget"},
    "damaged_where": {"en": "First bad record: {where}", "sv": "Första felaktiga post: {where}", "da": "Første fejlagtige post: {where}"},
    "damaged_record": {"en": "record {seq}", "sv": "post {seq}", "da": "post {seq}"},
    "damaged_file": {"en": "the file itself", "sv": "själva filen", "da": "selve filen"},
    "damaged_why": {"en": "Reason: {why}", "sv": "Orsak: {why}", "da": "Årsag: {why}"},
    "damaged_help": {"en": "Recover keeps the damaged file aside and goes on from the records before the damage. "
                           "Check the board in play with the station's copy.",
                     "sv": "Återställ sparar den skadade filen separat och fortsätter från posterna före skadan. "
                           "Kontrollera brickan som spelades mot stationens kopia.",
                     "da": "Gendan gemmer den beskadigede fil for sig og fortsætter fra posterne før skaden. "
                           "Kontrollér spillet i gang mod stationens kopi."},
    "damaged_recover": {"en": "Recover", "sv": "Återställ", "da": "Gendan"},
    "damaged_quit": {"en": "Quit", "sv": "Avsluta", "da": "Afslut"},
    "damaged_recovered": {"en": "Recovered: {kept} records kept; the damaged file is at {aside}",
                          "sv": "Återställd: {kept} poster behölls; den skadade filen ligger i {aside}",
                          "da": "Gendannet: {kept} poster beholdt; den beskadigede fil ligger i {aside}"},
    "damaged_failed": {"en": "Recovery failed: {error}", "sv": "Återställningen misslyckades: {error}",
                       "da": "Gendannelsen mislykkedes: {error}"},
    # the director ends the round from the console (2007/2017 Law 8B1; tablet_app/control/round_close.py)
    "end_round_tool": {"en": "End the round", "sv": "Avsluta ronden", "da": "Afslut runden"},
    "end_round_title": {"en": "End round {ended} at table {table}", "sv": "Avsluta rond {ended} vid bord {table}",
                        "da": "Afslut runde {ended} ved bord {table}"},
    "end_round_next": {"en": "Then round {round} starts:", "sv": "Sedan börjar rond {round}:",
                       "da": "Derefter begynder runde {round}:"},
    "end_round_setup": {"en": "The station gives no next round here: after the end, set the next round up",
                        "sv": "Stationen ger ingen nästa rond här: ställ in nästa rond efter avslutet",
                        "da": "Stationen giver ingen næste runde her: sæt den næste runde op efter afslutningen"},
    "end_round_left": {"en": "No result from this table for board {boards}: award the adjusted score in the scoring "
                             "program (Law 12C)",
                       "sv": "Inget resultat från bordet för bricka {boards}: korrigerad poäng ges i tävlingsdatorn "
                             "(lag 12C)",
                       "da": "Intet resultat fra bordet for spil {boards}: justeret score gives i regnskabsprogrammet "
                             "(§ 12C)"},
    "end_round_in_play": {"en": "Board {board} is in play: it is stopped without a result",
                          "sv": "Bricka {board} spelas: den avbryts utan resultat",
                          "da": "Spil {board} er i gang: det standses uden resultat"},
    "end_round_all_done": {"en": "Every board of the round has a result", "sv": "Alla brickor i ronden har resultat",
                           "da": "Alle spil i runden har et resultat"},
    "end_round_yes": {"en": "Yes - end round {ended}", "sv": "Ja - avsluta rond {ended}", "da": "Ja - afslut runde {ended}"},
    "end_round_yes_next": {"en": "Yes - end round {ended}, start round {round}",
                           "sv": "Ja - avsluta rond {ended}, starta rond {round}",
                           "da": "Ja - afslut runde {ended}, start runde {round}"},
    # a ruling not finished when the director ends the round (docs/laws/choices.md #42): shown
    # with its Law, finished first or left (journalled with the round's end)
    "end_round_ruling": {"en": "The ruling on board {board} is not finished: {what} ({law})",
                         "sv": "Domslutet på bricka {board} är inte fällt: {what} ({law})",
                         "da": "Afgørelsen på spil {board} er ikke truffet: {what} ({law})"},
    "end_round_ruling_adjusted": {"en": "the auction was stopped for an adjusted score, not yet awarded",
                                  "sv": "budgivningen stoppades för korrigerad poäng, som inte är utdelad än",
                                  "da": "meldingerne blev standset for en justeret score, som ikke er givet endnu"},
    "end_round_ruling_lho": {"en": "{seat} may still accept it by calling; else the director chooses an option",
                             "sv": "{seat} kan ännu godkänna det genom att bjuda; annars väljer tävlingsledaren",
                             "da": "{seat} kan stadig acceptere den ved at melde; ellers vælger turneringslederen"},
    "end_round_ruling_td": {"en": "It waits for the director's choice among the Law's options",
                            "sv": "Det väntar på tävlingsledarens val bland lagens alternativ",
                            "da": "Den venter på turneringslederens valg blandt lovens muligheder"},
    "end_round_ruling_left": {"en": "Ending the round now leaves the ruling unfinished: it is recorded with the "
                                    "round's end, and board {board} gets no result from this table",
                              "sv": "Avslutas ronden nu förblir domslutet ofällt: det noteras med rondens slut, "
                                    "och bricka {board} får inget resultat från bordet",
                              "da": "Afsluttes runden nu, forbliver afgørelsen utruffet: den noteres med rundens "
                                    "afslutning, og spil {board} får intet resultat fra bordet"},
    "end_round_finish_first": {"en": "Finish the ruling first", "sv": "Fäll domslutet först",
                               "da": "Træf afgørelsen først"},
    "end_round_yes_leave": {"en": "End round {ended} anyway", "sv": "Avsluta rond {ended} ändå",
                            "da": "Afslut runde {ended} alligevel"},
    "end_round_yes_next_leave": {"en": "End round {ended} anyway, start round {round}",
                                 "sv": "Avsluta rond {ended} ändå, starta rond {round}",
                                 "da": "Afslut runde {ended} alligevel, start runde {round}"},
    # the notice on the top bar once the director has moved the table on
    "round_moved": {"en": "Round {ended} ended by the director: round {round} starts (N-S pair {ns}, E-W pair {ew})",
                    "sv": "Rond {ended} avslutad av tävlingsledaren: rond {round} börjar (N-S par {ns}, Ö-V par {ew})",
                    "da": "Runde {ended} afsluttet af turneringslederen: runde {round} begynder (N-S par {ns}, "
                          "Ø-V par {ew})"},
}


# The engine's names, keyed by its enums (shared_rules.types): one vocabulary with the director
# page's (shared_rules/vocabulary); tests/rules/test_vocabulary_words.py requires a text in every
# language for every member (Swedish and Danish not left in English), so a kind the engine gains
# without words fails.
Text = Words  # language -> words

# What the TD's wrong-board finding led to (the state's `wrong_board.outcome`: 2007 L15C, 2017 L15B).
WRONG_BOARD_OUTCOMES: dict[Resolution, Text] = {
    Resolution.AUCTION_RESTARTED: {"en": "Wrong board: a new auction; the players must repeat their calls",
                                   "sv": "Fel bricka: ny budgivning; spelarna måste upprepa sina bud",
                                   "da": "Forkert spil: nye meldinger; spillerne skal gentage deres meldinger"},
    Resolution.AUCTION_CONTINUES: {"en": "Wrong board: auction and play go on, the result stands",
                                   "sv": "Fel bricka: budgivning och spel fortsätter, resultatet står",
                                   "da": "Forkert spil: meldinger og spil fortsætter, resultatet står ved magt"},
    Resolution.BOARD_CANCELLED: {"en": "Wrong board, played before: cancelled for all four",
                                 "sv": "Fel bricka, spelad förut: stryks för alla fyra",
                                 "da": "Forkert spil, spillet før: annulleres for alle fire"},
}

# The Law's options are worded by the engine's text key (tablet_app/option_texts.py), the
# obligations and lead restrictions by their kinds (tablet_app/law_texts.py).


def option_label(kind: str, option: dict[str, object], lang: str = "en", names: dict[str, str] | None = None) -> str:
    """The Law's option in the player's language, by the engine's text key (tablet_app/law_texts.py;
    `kind`, the pending decision, is implied by the key)."""
    from tablet_app import law_texts  # law_texts words its texts with this module's names

    return law_texts.option_label(option, lang, names)


PROFILE_NAMES = {
    "fsb-2007": {"en": "Sweden (FSB, 2007 Laws)", "sv": "Sverige (FSB, 2007 års lagar)", "da": "Sverige (FSB, lovene fra 2007)"},
    "dbf-2017": {"en": "Denmark (DBF, 2017 Laws)", "sv": "Danmark (DBF, 2017 års lagar)", "da": "Danmark (DBF, lovene fra 2017)"},
    "wbf-screens-2017": {"en": "WBF with screens (2017 Laws)", "sv": "WBF med skärmar (2017 års lagar)",
                         "da": "WBF med skærme (lovene fra 2017)"},
    "ebu": {"en": "England (EBU)", "sv": "England (EBU)", "da": "England (EBU)"},
    "acbl": {"en": "North America (ACBL)", "sv": "Nordamerika (ACBL)", "da": "Nordamerika (ACBL)"},
}


def profile_name(profile: str, lang: str = "en") -> str:
    """A rule set by its human name; an unknown one by its id (it is what the TD configured)."""
    names = PROFILE_NAMES.get(profile)
    return names.get(lang, names["en"]) if names else profile


# The controller's and the result checks' refusals (plain English, with the law where there is
# one) in the player's language: by the start of the message; anything else is shown as it is.
REFUSALS = (
    ("wrong director PIN", "pin_wrong"),
    ("there is no decision waiting", "no_pending"),
    ("a call can be corrected during the auction", "refuse_correct_when"),
    ("the result can be entered when the auction is over", "refuse_result_when"),
    ("a result is already waiting", "refuse_result_waiting"),
    ("there is no result waiting", "refuse_no_result"),
    ("tricks must be a whole number", "refuse_tricks"),
    ("the lead must be a card", "refuse_lead"),
    ("finish the round", "refuse_finish_round"),
)


# Keyed errors (SetupError, Refused, PinError carry `key` and `params`): "{field}" is the field's
# label on the setup screen.
ERRORS: dict[str, dict[str, str]] = {
    "round.not_over": {"en": "The round is not over: the director moves the table to the next round",
                       "sv": "Ronden är inte slut: tävlingsledaren flyttar bordet till nästa rond",
                       "da": "Runden er ikke slut: turneringslederen flytter bordet til næste runde"},
    "round.not_next": {"en": "Round {round} does not follow round {now}: call the director",
                       "sv": "Rond {round} följer inte på rond {now}: tillkalla tävlingsledaren",
                       "da": "Runde {round} følger ikke efter runde {now}: tilkald turneringslederen"},
    "round.none": {"en": "There is no round to end: set the table up first", "sv": "Det finns ingen rond att avsluta: ställ in bordet först",
                   "da": "Der er ingen runde at afslutte: sæt bordet op først"},
    "round.ended": {"en": "The round is over already: set up the next round", "sv": "Ronden är redan slut: ställ in nästa rond",
                    "da": "Runden er allerede slut: sæt den næste runde op"},
    "round.ruling_pending": {"en": "The ruling on board {board} ({law}) is not finished: finish it first, or end the "
                                   "round leaving it",
                             "sv": "Domslutet på bricka {board} ({law}) är inte fällt: fäll det först, eller avsluta "
                                   "ronden utan det",
                             "da": "Afgørelsen på spil {board} ({law}) er ikke truffet: træf den først, eller afslut "
                                   "runden uden den"},
    "round.other_table": {"en": "That is another table's round: call the director",
                          "sv": "Det är ett annat bords rond: tillkalla tävlingsledaren",
                          "da": "Det er et andet bords runde: tilkald turneringslederen"},
    "setup.whole_number": {"en": "{field}: give a whole number from 1 up", "sv": "{field}: ange ett heltal från 1",
                           "da": "{field}: angiv et helt tal fra 1"},
    "setup.board_range": {"en": "{field}: {value} runs backwards or is too long",
                          "sv": "{field}: {value} går baklänges eller är för lång",
                          "da": "{field}: {value} går baglæns eller er for lang"},
    "setup.board_list": {"en": "{field}: write e.g. 1-3 or 1,2,5", "sv": "{field}: skriv t.ex. 1-3 eller 1,2,5",
                         "da": "{field}: skriv f.eks. 1-3 eller 1,2,5"},
    "setup.board_number": {"en": "{field}: board numbers are whole numbers from 1 up",
                           "sv": "{field}: bricknummer är heltal från 1", "da": "{field}: spilnumre er hele tal fra 1"},
    "setup.board_twice": {"en": "{field}: board {board} is listed twice", "sv": "{field}: bricka {board} står två gånger",
                          "da": "{field}: spil {board} står to gange"},
    "setup.no_boards": {"en": "{field}: the round needs at least one board", "sv": "{field}: ronden behöver minst en bricka",
                        "da": "{field}: runden skal have mindst ét spil"},
    "setup.same_pair": {"en": "North-South and East-West cannot both be pair {pair}",
                        "sv": "Nord-Syd och Öst-Väst kan inte båda vara par {pair}",
                        "da": "Nord-Syd og Øst-Vest kan ikke begge være par {pair}"},
    "setup.section": {"en": "{field}: give 1 to 3 letters (e.g. A)", "sv": "{field}: ange 1 till 3 bokstäver (t.ex. A)",
                      "da": "{field}: angiv 1 til 3 bogstaver (f.eks. A)"},
    "setup.event": {"en": "{field}: letters, digits, '.', '_' or '-'", "sv": "{field}: bokstäver, siffror, '.', '_' eller '-'",
                    "da": "{field}: bogstaver, cifre, '.', '_' eller '-'"},
    "setup.profile": {"en": "{field}: choose the club's regulations", "sv": "{field}: välj klubbens regelverk",
                      "da": "{field}: vælg klubbens regelsæt"},
    "setup.pin_format": {"en": "{field}: give 4 to 8 digits", "sv": "{field}: ange 4 till 8 siffror",
                         "da": "{field}: angiv 4 til 8 cifre"},
    "setup.pin_missing": {"en": "{field}: type 4 to 8 digits", "sv": "{field}: skriv 4 till 8 siffror",
                          "da": "{field}: skriv 4 til 8 cifre"},
    "setup.table_not_in_section": {"en": "{field}: table {table} is not in a section of {tables} tables",
                                   "sv": "{field}: bord {table} finns inte i en sektion med {tables} bord",
                                   "da": "{field}: bord {table} findes ikke i en række med {tables} borde"},
    "setup.no_alerts": {"en": "{field}: these regulations have no such choice", "sv": "{field}: regelverket har inget sådant val",
                        "da": "{field}: regelsættet har intet sådant valg"},
    "setup.engine": {"en": "{field}: the rules engine cannot run this setup ({detail})",
                     "sv": "{field}: regelmotorn kan inte köra denna inställning ({detail})",
                     "da": "{field}: regelmotoren kan ikke køre denne opsætning ({detail})"},
    "setup.choice": {"en": "{field}: choose one of the offered values", "sv": "{field}: välj ett av de erbjudna värdena",
                     "da": "{field}: vælg en af de tilbudte værdier"},
    "setup.round_open": {"en": "Finish the round (or have the director end it) before setting up a new one",
                         "sv": "Avsluta ronden (eller låt tävlingsledaren avsluta den) innan en ny ställs in",
                         "da": "Afslut runden (eller lad turneringslederen afslutte den) før en ny sættes op"},
    "setup.missing": {"en": "Fill in every field", "sv": "Fyll i alla fält", "da": "Udfyld alle felter"},
    "result.lead_missing": {"en": "Enter the opening lead", "sv": "Ange utspelet", "da": "Angiv udspillet"},
    "pin.wrong": {"en": "Wrong PIN - nothing was changed", "sv": "Fel kod - inget har ändrats",
                  "da": "Forkert kode - intet er ændret"},
    "pin.locked": {"en": "Too many wrong PINs: wait {wait_s} s", "sv": "För många felaktiga koder: vänta {wait_s} s",
                   "da": "For mange forkerte koder: vent {wait_s} s"},
    "pin.not_set": {"en": "No director PIN is set for this table yet", "sv": "Ingen TL-kod är inställd för bordet än",
                    "da": "Der er endnu ingen TL-kode for bordet"},
    "pin.signed_out": {"en": "Signed out: give the director PIN again - nothing was changed",
                       "sv": "Utloggad: ange TL-koden igen - inget har ändrats",
                       "da": "Logget ud: angiv TL-koden igen - intet er ændret"},
    "pin.offline_unknown": {"en": "The station cannot check the PIN now, and has not confirmed it on this tablet "
                                  "yet: connect the tablet to the station - nothing was changed",
                            "sv": "Stationen kan inte kontrollera koden nu och har inte bekräftat den på den här "
                                  "plattan än: anslut plattan till stationen - inget har ändrats",
                            "da": "Stationen kan ikke kontrollere koden nu og har ikke bekræftet den på denne "
                                  "tablet endnu: forbind tabletten med stationen - intet er ændret"},
    "pin.station_stale": {"en": "The station's answer came too late: sign in again - nothing was changed",
                          "sv": "Stationens svar kom för sent: logga in igen - inget har ändrats",
                          "da": "Stationens svar kom for sent: log ind igen - intet er ændret"},
    "setup.grace": {"en": "Director's grace: 0 to 120 seconds", "sv": "Tävlingsledarens frist: 0 till 120 sekunder",
                    "da": "Turneringslederens frist: 0 til 120 sekunder"},
    "board.not_in_round": {"en": "Board {board} is not one of this round's boards ({boards}): check the board in the tray, "
                                 "or call the director (2017 L15A, 2007 L15)",
                           "sv": "Bricka {board} hör inte till ronden ({boards}): kontrollera brickan, "
                                 "eller tillkalla tävlingsledaren (2017 L15A, 2007 L15)",
                           "da": "Spil {board} hører ikke til runden ({boards}): kontrollér spillet, "
                                 "eller tilkald turneringslederen (2017 L15A, 2007 L15)"},
    "board.played": {"en": "Board {board} already has a result at this table", "sv": "Bricka {board} har redan ett resultat vid bordet",
                     "da": "Spil {board} har allerede et resultat ved bordet"},
    "board.started": {"en": "The auction has started: only the director can change the board",
                      "sv": "Budgivningen har börjat: bara tävlingsledaren kan byta bricka",
                      "da": "Meldingerne er begyndt: kun turneringslederen kan skifte spil"},
    "board.result_waiting": {"en": "A result is waiting for East-West: confirm it first",
                             "sv": "Ett resultat väntar på Öst-Väst: godkänn det först",
                             "da": "Et resultat venter på Øst-Vest: godkend det først"},
    "board.in_play": {"en": "Board {board} is being bid at the table", "sv": "Bricka {board} budas just nu vid bordet",
                      "da": "Spil {board} meldes netop nu ved bordet"},
    "board.no_result": {"en": "Board {board} has no result at this table this round",
                        "sv": "Bricka {board} har inget resultat vid bordet i denna rond",
                        "da": "Spil {board} har intet resultat ved bordet i denne runde"},
    "td.reason_missing": {"en": "Say why (a few words for the scorer and the players)",
                          "sv": "Ange varför (några ord till tävlingsdatorn och spelarna)",
                          "da": "Angiv hvorfor (nogle ord til regnskabet og spillerne)"},
    "storage.full": {"en": "Tablet storage is full: nothing was recorded", "sv": "Plattans minne är fullt: inget registrerades",
                     "da": "Tablettens lager er fuldt: intet blev registreret"},
    "setup.station_refused": {"en": "The station refused table {table}: {reason}", "sv": "Stationen nekade bord {table}: {reason}",
                              "da": "Stationen afviste bord {table}: {reason}"},
}
ERRORS.update(STATION_ERRORS)  # player numbers, the movement check (tablet_app/station_texts.py)
ERRORS.update(CONSOLE_ERRORS)  # the director's assigned adjusted score (tablet_app/console_texts.py)
T.update(CONSOLE_T)  # ... its console panel, the director's player numbers, the keypad's letter key
# the setup screen's field labels, for "{field}"
FIELD_KEYS = {"event": "setup_event", "section": "setup_section", "table": "table", "round": "round",
              "boards": "boards", "ns_pair": "setup_ns", "ew_pair": "setup_ew", "td_pin": "pin_prompt",
              "tables": "setup_tables", "profile": "setup_profile", "policy": "setup_policy",
              "no_alerts_by": "setup_alerts", "screens": "setup_screens"}


def error_text(exc: BaseException, lang: str = "en") -> str:
    """An error for a screen, in `lang`: by its key when it has one we know, else by its start."""
    key = getattr(exc, "key", None)
    entry = ERRORS.get(key) if isinstance(key, str) else None
    if entry is not None:
        params = {k: v for k, v in (getattr(exc, "params", None) or {}).items()}
        refused = params.pop("refusal", None)  # the station's refusal: its reason by its code
        if refused is not None:
            params["reason"] = reason_text(str(params.get("reason") or ""), lang, refused)
        field = params.get("field")
        params["field"] = tr(FIELD_KEYS[field], lang) if field in FIELD_KEYS else (field or "")
        if "seat" in params:
            params["seat"] = seat_name(params["seat"], lang)
        try:
            return entry.get(lang, entry["en"]).format(**params)
        except (KeyError, IndexError):
            pass
    return refusal(str(exc), lang)


# The tablet's TLS pinning (tablet_app/http_transport.py): its errors by the words they carry
# (also inside "station unreachable: ..." as the outbox keeps them).
PIN_PROBLEMS = (("the station's certificate is not the pinned one", "station_pin_mismatch"),
                ("an https station address needs the certificate's fingerprint", "station_pin_missing"))


def station_problem(text: str, lang: str = "en") -> str | None:
    """A pinning error as a sentence in `lang`; None for any other text."""
    for words, key in PIN_PROBLEMS:
        if words in text:
            return tr(key, lang)
    return None


def refusal(text: str, lang: str = "en") -> str:
    """A refusal's message in `lang` when it is a known one, else the message itself."""
    for start, key in REFUSALS:
        if text.startswith(start):
            return tr(key, lang)
    return text


# Why the journal failed its check at start (tablet_app/journal.py), by the start of the reason;
# the technical detail after it stays as it is (for whoever looks at the file).
DAMAGE = (
    ("its content does not match its checksum", {"en": "a record was changed or damaged (its checksum does not match)",
                                                 "sv": "en post har ändrats eller skadats (kontrollsumman stämmer inte)",
                                                 "da": "en post er ændret eller beskadiget (kontrolsummen passer ikke)"}),
    ("SQLite finds its structure damaged", {"en": "the database file is damaged", "sv": "databasfilen är skadad",
                                            "da": "databasefilen er beskadiget"}),
    ("SQLite cannot read it", {"en": "the database file cannot be read", "sv": "databasfilen kan inte läsas",
                               "da": "databasefilen kan ikke læses"}),
    ("the journal's end marker does not match", {"en": "the journal ends before its last record (records are missing)",
                                                 "sv": "journalen slutar före sin sista post (poster saknas)",
                                                 "da": "journalen slutter før sin sidste post (poster mangler)"}),
    # the commit mark (tablet_app/journal.py): the detail after it names the file and the byte
    ("records that were committed are missing", {"en": "records that were saved are missing",
                                                 "sv": "poster som sparats saknas",
                                                 "da": "poster, der blev gemt, mangler"}),
    ("its commit mark is damaged", {"en": "the journal's save mark is damaged",
                                    "sv": "journalens sparmarkering är skadad",
                                    "da": "journalens gemmemarkering er beskadiget"}),
    ("its records are not the ones that were committed", {
        "en": "the journal's records are not the ones that were saved (the file was edited or replaced)",
        "sv": "journalens poster är inte de som sparades (filen har ändrats eller bytts ut)",
        "da": "journalens poster er ikke dem, der blev gemt (filen er ændret eller udskiftet)"}),
)
# reasons whose technical detail (file, byte) follows the translated words
DAMAGE_DETAIL = ("SQLite", "records that were committed are missing", "its commit mark is damaged")


def damage_reason(why: str, lang: str = "en") -> str:
    for start, words in DAMAGE:
        if why.startswith(start):
            rest = why[len(start):].strip(" ()")
            text = words.get(lang, words["en"])
            return f"{text} ({rest})" if rest and start.startswith(DAMAGE_DETAIL) else text
    return why


def tr(key: str, lang: str = "en", **kw: object) -> str:
    entry = T.get(key)
    text = key if entry is None else entry.get(lang) or entry.get("en") or key
    return text.format(**kw) if kw else text


def seat_name(seat: str | None, lang: str = "en") -> str:
    if seat is None:
        return "-"
    return SEAT_NAMES.get(lang, SEAT_NAMES["en"]).get(seat, seat)


def vul_name(vul: str | None, lang: str = "en") -> str:
    return VUL_NAMES.get(lang, VUL_NAMES["en"]).get(vul or "None", str(vul))


def _named(texts: Mapping[E, Text], enum: type[E], kind: object, lang: str) -> str:
    """An engine name (an enum member or its string, as the state carries it) in `lang`; a kind
    without words (never, while tests/rules/test_vocabulary_words.py passes) as the engine's own string."""
    found = say(texts, enum, kind, lang)
    return str(kind).replace("_", " ") if found is None else found


def irregularity_name(kind: object, lang: str = "en") -> str:
    return _named(IRREGULARITIES, IrregularityKind, kind, lang)


def decision_name(kind: object, lang: str = "en") -> str:
    """What the table waits for (a pending decision's kind)."""
    return _named(DECISIONS, Decision, kind, lang)


def flag_name(kind: object, lang: str = "en") -> str:
    return _named(TIMING_FLAGS, TimingKind, kind, lang)


def wrong_board_outcome(outcome: object, lang: str = "en") -> str | None:
    """The wrong board's outcome in words, None for an outcome without its own line."""
    key = member(Resolution, outcome)
    entry = WRONG_BOARD_OUTCOMES.get(key) if key is not None else None
    return None if entry is None else entry.get(lang) or entry["en"]

