"""The tablet's words in English, Swedish and Danish. Keys are stable ids; missing keys fall back to
English, then to the key itself, so a new string never crashes a screen.

Bridge terms follow the federations' own texts (auction-laws.md, glossary): bud/melding, pass,
kontra/dobling, rekontra/redobling, skärm/skærm, tävlingsledare/turneringsleder.
"""
from __future__ import annotations

LANGS = ("en", "sv", "da")
LANG_NAMES = {"en": "English", "sv": "Svenska", "da": "Dansk"}

SEAT_NAMES = {
    "en": {"N": "North", "E": "East", "S": "South", "W": "West"},
    "sv": {"N": "Nord", "E": "Öst", "S": "Syd", "W": "Väst"},
    "da": {"N": "Nord", "E": "Øst", "S": "Syd", "W": "Vest"},
}

VUL_NAMES = {
    "en": {"None": "Love all", "NS": "N-S vulnerable", "EW": "E-W vulnerable", "All": "Game all"},
    "sv": {"None": "Ingen i zon", "NS": "N-S i zon", "EW": "Ö-V i zon", "All": "Alla i zon"},
    "da": {"None": "Ingen i zonen", "NS": "N-S i zonen", "EW": "Ø-V i zonen", "All": "Alle i zonen"},
}

T = {
    "board": {"en": "Board", "sv": "Bricka", "da": "Spil"},
    "table": {"en": "Table", "sv": "Bord", "da": "Bord"},
    "round": {"en": "Round", "sv": "Rond", "da": "Runde"},
    "dealer": {"en": "Dealer", "sv": "Giv", "da": "Giver"},
    "to_call": {"en": "{seat} to call", "sv": "{seat} bjuder", "da": "{seat} melder"},
    "waits_td": {"en": "Table waits for the director", "sv": "Bordet väntar på tävlingsledaren",
                 "da": "Bordet venter på turneringslederen"},
    "auction_over": {"en": "Auction over: {contract} by {declarer}", "sv": "Budgivningen klar: {contract} av {declarer}",
                     "da": "Meldingerne slut: {contract} af {declarer}"},
    "passed_out": {"en": "Passed out", "sv": "Passad bricka", "da": "Passet ud"},
    "tray_moving": {"en": "Tray with {seats}", "sv": "Brickan hos {seats}", "da": "Bakken hos {seats}"},
    "pass": {"en": "Pass", "sv": "Pass", "da": "Pas"},
    "double": {"en": "X", "sv": "X", "da": "X"},
    "redouble": {"en": "XX", "sv": "XX", "da": "XX"},
    "alert": {"en": "Alert", "sv": "Alert", "da": "Alert"},
    "stop": {"en": "STOP", "sv": "STOPP", "da": "STOP"},
    "director": {"en": "Director", "sv": "Tävlingsledare", "da": "Turneringsleder"},
    "call_director": {"en": "Call director", "sv": "Tillkalla TL", "da": "Tilkald TL"},
    "tempo": {"en": "Tempo", "sv": "Tempo", "da": "Tempo"},
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
    "station_none": {"en": "No results station connected: {n} item(s) kept on this tablet.",
                     "sv": "Ingen resultatstation ansluten: {n} post(er) sparade på plattan.",
                     "da": "Ingen resultatstation tilsluttet: {n} post(er) gemt på tabletten."},
    "station_ok": {"en": "Station connected: {d} delivered, {p} waiting.",
                   "sv": "Stationen ansluten: {d} levererade, {p} väntar.",
                   "da": "Stationen tilsluttet: {d} leveret, {p} venter."},
    "station_down": {"en": "Station not reachable, retrying: {d} delivered, {p} waiting (nothing is lost).",
                     "sv": "Stationen nås inte, försöker igen: {d} levererade, {p} väntar (inget går förlorat).",
                     "da": "Stationen kan ikke nås, prøver igen: {d} leveret, {p} venter (intet går tabt)."},
    "station_refused": {"en": "Refused by the station, tell the scorer: {what}: {error}",
                        "sv": "Avvisad av stationen, meddela resultatansvarig: {what}: {error}",
                        "da": "Afvist af stationen, giv resultatansvarlig besked: {what}: {error}"},
    "no_pending": {"en": "No decision is waiting.", "sv": "Inget beslut väntar.", "da": "Ingen afgørelse venter."},
    "choose_call": {"en": "Choose the replacement call", "sv": "Välj ersättningsbudet", "da": "Vælg erstatningsmeldingen"},
    "must_pass_next": {"en": "{seat} must pass at the next turn", "sv": "{seat} måste passa nästa gång",
                       "da": "{seat} skal passe næste gang"},
    "must_pass_rest": {"en": "{seat} must pass for the rest of the auction", "sv": "{seat} måste passa resten av budgivningen",
                       "da": "{seat} skal passe resten af meldingerne"},
    "lead_restriction": {"en": "Lead restriction: {text}", "sv": "Utspelsrestriktion: {text}", "da": "Udspilsrestriktion: {text}"},
    "lead_prohibit_unshown_suit": {"en": "declarer may prohibit the lead of {suits}",
                                   "sv": "spelföraren får förbjuda utspel i {suits}",
                                   "da": "spilfører kan forbyde udspil i {suits}"},
    "lead_require_or_prohibit_suit": {"en": "declarer may require or prohibit a lead of {suits}",
                                      "sv": "spelföraren får begära eller förbjuda utspel i {suits}",
                                      "da": "spilfører kan kræve eller forbyde udspil i {suits}"},
    "lead_prohibit_any_suit": {"en": "declarer may prohibit the lead of any one suit",
                               "sv": "spelföraren får förbjuda utspel i valfri färg",
                               "da": "spilfører kan forbyde udspil i en vilkårlig farve"},
    "setup_event": {"en": "Event", "sv": "Tävling", "da": "Turnering"},
    "setup_section": {"en": "Section", "sv": "Sektion", "da": "Række"},
    "setup_tables": {"en": "Tables in section", "sv": "Bord i sektionen", "da": "Borde i rækken"},
    "setup_boards": {"en": "Boards (e.g. 1-3)", "sv": "Brickor (t.ex. 1-3)", "da": "Spil (f.eks. 1-3)"},
    "setup_ns": {"en": "N-S pair", "sv": "N-S par", "da": "N-S par"},
    "setup_ew": {"en": "E-W pair", "sv": "Ö-V par", "da": "Ø-V par"},
    "setup_profile": {"en": "Regulations", "sv": "Regelverk", "da": "Regelsæt"},
    "setup_policy": {"en": "Irregularities", "sv": "Oegentligheter", "da": "Uregelmæssigheder"},
    "setup_start": {"en": "Start the round", "sv": "Starta ronden", "da": "Start runden"},
    "next_round": {"en": "Next round", "sv": "Nästa rond", "da": "Næste runde"},
    "td_called_by": {"en": "Director called by {seat}", "sv": "TL tillkallad av {seat}", "da": "TL tilkaldt af {seat}"},
    "reason_change_of_call": {"en": "wrong card", "sv": "fel kort", "da": "forkert kort"},
    "correct_call": {"en": "Correct an unintended call", "sv": "Rätta ett oavsiktligt bud",
                     "da": "Ret en utilsigtet melding"},
    "whose_call": {"en": "Whose call?", "sv": "Vems bud?", "da": "Hvis melding?"},
    "artificial": {"en": "Artificial adjusted score", "sv": "Konstgjort justerat resultat",
                   "da": "Kunstigt justeret resultat"},
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
    "round_over": {"en": "Round over - please move", "sv": "Ronden är slut - byt bord", "da": "Runden er slut - skift bord"},
    "pairs_ns_go": {"en": "N-S pair {pair}: table {table}", "sv": "N-S par {pair}: bord {table}", "da": "N-S par {pair}: bord {table}"},
    "pairs_ew_go": {"en": "E-W pair {pair}: table {table}", "sv": "Ö-V par {pair}: bord {table}", "da": "Ø-V par {pair}: bord {table}"},
    "boards_go": {"en": "Boards {boards}: to table {table}", "sv": "Brickor {boards}: till bord {table}",
                  "da": "Spil {boards}: til bord {table}"},
    "ask_td": {"en": "Ask the director", "sv": "Fråga tävlingsledaren", "da": "Spørg turneringslederen"},
    "no_board": {"en": "No board in play", "sv": "Ingen bricka spelas", "da": "Intet spil i gang"},
    "play_in_progress": {"en": "Play in progress", "sv": "Spel pågår", "da": "Spil i gang"},
    "irr_insufficient_bid": {"en": "Insufficient bid", "sv": "Otillräckligt bud", "da": "Utilstrækkelig melding"},
    "irr_call_out_of_rotation": {"en": "Call out of rotation", "sv": "Bud i fel tur", "da": "Melding uden for tur"},
    "irr_change_of_call": {"en": "Change of call", "sv": "Ändrat bud", "da": "Ændret melding"},
    "irr_simultaneous_calls": {"en": "Simultaneous calls", "sv": "Samtidiga bud", "da": "Samtidige meldinger"},
    "irr_inadmissible_double": {"en": "Inadmissible double or redouble", "sv": "Otillåten dubbling", "da": "Uantagelig dobling"},
    "irr_call_when_required_to_pass": {"en": "Call when required to pass", "sv": "Bud när passningsplikt gällde",
                                       "da": "Melding under pastvang"},
    "irr_bid_above_seven": {"en": "Bid above seven", "sv": "Bud över sju", "da": "Melding over syv"},
    "irr_call_after_final_pass": {"en": "Call after the final pass", "sv": "Bud efter sista pass", "da": "Melding efter sidste pas"},
    "by": {"en": "by", "sv": "av", "da": "af"},
}


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


def irregularity_name(kind: str, lang: str = "en") -> str:
    key = f"irr_{kind}"
    return tr(key, lang) if key in T else kind.replace("_", " ")
