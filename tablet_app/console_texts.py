"""Texts of the director's assigned and weighted adjusted scores (tablet_app/assigned.py, the
console's panel tablet_app/ui/assign_panel.py), the director's player-number entry and the member
keypad's letter key, in English, Swedish and Danish. Their own entries, merged into `i18n.T` and
`i18n.ERRORS`; the Law's own words where it has them (2007 S07 "tilldelade korrigerade
resultatet", "viktas"; 2017 D17 "korrigeret score", "vægtet score").
"""
from __future__ import annotations

CONSOLE_ERRORS: dict[str, dict[str, str]] = {
    "adjusted.contract": {
        "en": "{contract} is not a contract (level 1-7, clubs to no trumps, X or XX; or Pass): nothing was changed",
        "sv": "{contract} är inget kontrakt (nivå 1-7, klöver till sang, X eller XX; eller pass): inget har ändrats",
        "da": "{contract} er ingen kontrakt (trin 1-7, klør til sans, X eller XX; eller pas): intet er ændret"},
    "adjusted.declarer": {
        "en": "{contract}: choose its declarer (North, East, South or West): nothing was changed",
        "sv": "{contract}: välj spelförare (Nord, Öst, Syd eller Väst): inget har ändrats",
        "da": "{contract}: vælg spilfører (Nord, Øst, Syd eller Vest): intet er ændret"},
    "adjusted.tricks": {
        "en": "{contract}: the tricks are 0 to 13, not {tricks}: nothing was changed",
        "sv": "{contract}: antalet stick är 0 till 13, inte {tricks}: inget har ändrats",
        "da": "{contract}: antallet af stik er 0 til 13, ikke {tricks}: intet er ændret"},
    "adjusted.weight": {
        "en": "A weight is a whole percentage from 1 to 99, not {weight}: nothing was changed",
        "sv": "En vikt är en hel procentsats från 1 till 99, inte {weight}: inget har ändrats",
        "da": "En vægt er en hel procentsats fra 1 til 99, ikke {weight}: intet er ændret"},
    "adjusted.weights": {
        "en": "The weights must add up to 100 % (they add up to {total} %): nothing was changed",
        "sv": "Vikterna måste bli 100 % tillsammans (de blir {total} %): inget har ändrats",
        "da": "Vægtene skal give 100 % tilsammen (de giver {total} %): intet er ændret"},
    "adjusted.no_outcome": {
        "en": "Give at least one result: a contract, its declarer and the tricks",
        "sv": "Ange minst ett resultat: kontrakt, spelförare och stick",
        "da": "Angiv mindst ét resultat: kontrakt, spilfører og stik"},
    "adjusted.too_many": {
        "en": "At most {most} results in one score", "sv": "Högst {most} resultat i en poäng",
        "da": "Højst {most} resultater i én score"},
    "adjusted.twice": {
        "en": "The same result is given twice: give it once, with the weights added",
        "sv": "Samma resultat står två gånger: ange det en gång, med vikterna sammanlagda",
        "da": "Samme resultat står to gange: angiv det én gang, med vægtene lagt sammen"},
    "adjusted.no_weighting": {
        "en": "Under {law} the director does not weight a score (an appeals committee does): give one result",
        "sv": "Enligt {law} viktar inte tävlingsledaren resultatet (det gör en tävlingsjury eller LK): ange ett "
              "resultat",
        "da": "Efter {law} vægter turneringslederen ikke scoren (det gør en appelkomité): angiv ét resultat"},
    "adjusted.no_board": {
        "en": "Board {board} is neither on the table nor played here this round",
        "sv": "Bricka {board} ligger inte på bordet och har inte spelats här i ronden",
        "da": "Spil {board} ligger ikke på bordet og er ikke spillet her i runden"},
}

CONSOLE_T: dict[str, dict[str, str]] = {
    # the director's assigned adjusted score (Law 12C1)
    "tool_assigned": {"en": "Assigned adjusted score", "sv": "Tilldelat korrigerat resultat",
                      "da": "Tildelt justeret score"},
    "assign_on_table": {"en": "Board {board} (on the table)", "sv": "Bricka {board} (på bordet)",
                        "da": "Spil {board} (på bordet)"},
    "assign_both": {"en": "Both sides", "sv": "Båda sidor", "da": "Begge sider"},
    "assign_ns": {"en": "North-South", "sv": "Nord-Syd", "da": "Nord-Syd"},
    "assign_ew": {"en": "East-West", "sv": "Öst-Väst", "da": "Øst-Vest"},
    "assign_apart": {"en": "Each side apart", "sv": "Varje sida för sig", "da": "Hver side for sig"},
    "assign_weight": {"en": "Weight {weight} %", "sv": "Vikt {weight} %", "da": "Vægt {weight} %"},
    "assign_add": {"en": "Add result", "sv": "Lägg till resultat", "da": "Tilføj resultat"},
    "assign_total": {"en": "Total {total} %", "sv": "Summa {total} %", "da": "I alt {total} %"},
    "assign_remove": {"en": "Remove", "sv": "Ta bort", "da": "Fjern"},
    "assign_sent": {"en": "Board {board}: the adjusted score is sent",
                    "sv": "Bricka {board}: det korrigerade resultatet är skickat",
                    "da": "Spil {board}: justeret score sendt"},
    "res_weighted": {"en": "Weighted score", "sv": "Viktat resultat", "da": "Vægtet score"},
    "res_split": {"en": "Split score", "sv": "Delat resultat", "da": "Delt score"},
    "res_by_td": {"en": "(TD)", "sv": "(TL)", "da": "(TL)"},
    # the director's player numbers after the round's first call
    "tool_players": {"en": "Player numbers", "sv": "Medlemsnummer", "da": "Medlemsnumre"},
    "players_by_td": {"en": "The director enters the numbers (the auction has started)",
                      "sv": "Tävlingsledaren anger numren (budgivningen har börjat)",
                      "da": "Turneringslederen angiver numrene (meldingerne er begyndt)"},
    # the member keypad's letter key: a member number may start with one capital letter
    # (A-Z only: the station's form, shared_rules.records.check_number, has no Å, Ä, Ö, Æ or Ø)
    "players_letter": {"en": "Letter", "sv": "Bokstav", "da": "Bogstav"},
    "players_digits": {"en": "Digits", "sv": "Siffror", "da": "Cifre"},
    "players_letter_first": {"en": "A letter may only come first", "sv": "En bokstav får bara stå först",
                             "da": "Et bogstav må kun stå først"},
}
