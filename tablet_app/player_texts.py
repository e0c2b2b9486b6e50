"""The player-number entry's messages in the players' languages (tablet_app/control/player_numbers.py),
merged into `i18n.ERRORS`: "{seat}" is the seat's name in the language, "{number}" what was typed."""
from __future__ import annotations

PLAYER_ERRORS: dict[str, dict[str, str]] = {
    "players.number_form": {
        "en": "{seat}: {number!r} is not a member number (digits only, at most 16; one capital letter may come "
              "first). Type it again - nothing was changed",
        "sv": "{seat}: {number!r} är inget medlemsnummer (bara siffror, högst 16; en versal får stå först). "
              "Skriv det igen - inget har ändrats",
        "da": "{seat}: {number!r} er ikke et medlemsnummer (kun cifre, højst 16; ét stort bogstav må stå først). "
              "Skriv det igen - intet er ændret"},
    "players.none": {"en": "Enter at least one member number, seat by seat",
                     "sv": "Ange minst ett medlemsnummer, plats för plats",
                     "da": "Angiv mindst ét medlemsnummer, plads for plads"},
    "players.too_late": {"en": "The auction has started: call the director to enter member numbers now",
                         "sv": "Budgivningen har börjat: tillkalla tävlingsledaren för att ange medlemsnummer nu",
                         "da": "Meldingerne er begyndt: tilkald turneringslederen for at angive medlemsnumre nu"},
    "players.no_round": {"en": "Member numbers are entered during a round: set up the round first",
                         "sv": "Medlemsnummer anges under en rond: ställ in ronden först",
                         "da": "Medlemsnumre angives under en runde: sæt runden op først"},
    "players.nothing_waiting": {"en": "No member numbers are waiting for confirmation",
                                "sv": "Inga medlemsnummer väntar på godkännande",
                                "da": "Ingen medlemsnumre venter på godkendelse"},
}
