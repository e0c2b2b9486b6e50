"""What the table hears of the station, in the players' languages (English, Swedish, Danish):

- `STATION_ERRORS`, merged into `i18n.ERRORS` (keyed refusals: "{seat}" is the seat's name in
  the language): the player-number entry (tablet_app/control/player_numbers.py) and a typed-in
  setup the station's movement does not give the table (tablet_app/control/setup_check.py);
- `refused_line`: a delivery the station refused for good (the outbox keeps the item as
  rejected), as the table's red banner says it: what was refused, the station's reason in the
  language, and what to do;
- `reason_text` (the players' notice) and `by_code` (the director console): the station's reason
  in the table's language, by the refusal's code where the station sent one this tablet knows
  (shared_rules/vocabulary/refusals.py); else `reason_text` reads an older station's words
  (`REASONS`), and both show a reason they cannot say (a newer station's code) as it was sent.
"""
from __future__ import annotations

import re
from typing import Any

from shared_rules.records import PlayersKey, RecordError, Refused, ResultKey
from shared_rules.vocabulary import refusal_text

STATION_ERRORS: dict[str, dict[str, str]] = {
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
    "setup.movement_round": {
        "en": "The station's movement has no round {round} for table {table} (rounds {rounds}): check the table "
              "and the round, or take the setup from the station",
        "sv": "Stationens rörelseschema har ingen rond {round} för bord {table} (ronder {rounds}): kontrollera "
              "bord och rond, eller hämta inställningen från stationen",
        "da": "Stationens turneringsplan har ingen runde {round} for bord {table} (runder {rounds}): kontrollér "
              "bord og runde, eller hent opsætningen fra stationen"},
    "setup.movement_boards": {
        "en": "The movement gives table {table} boards {boards} in round {round}, not {wrong}: check the boards "
              "in the tray",
        "sv": "Rörelseschemat ger bord {table} brickorna {boards} i rond {round}, inte {wrong}: kontrollera "
              "brickorna",
        "da": "Turneringsplanen giver bord {table} spillene {boards} i runde {round}, ikke {wrong}: kontrollér "
              "spillene"},
    "setup.movement_pairs": {
        "en": "The movement seats pair {ns} North-South and pair {ew} East-West at table {table} in round {round}: "
              "check the pair numbers, or call the director",
        "sv": "Rörelseschemat placerar par {ns} i Nord-Syd och par {ew} i Öst-Väst vid bord {table} i rond "
              "{round}: kontrollera parnumren, eller tillkalla tävlingsledaren",
        "da": "Turneringsplanen placerer par {ns} i Nord-Syd og par {ew} i Øst-Vest ved bord {table} i runde "
              "{round}: kontrollér parnumrene, eller tilkald turneringslederen"},
}

# The reasons of a station from before the refusal codes (station/law16.py, station/movement.py,
# the records' score check, the store), by their words, in the players' languages.
REASONS: tuple[tuple[re.Pattern[str], dict[str, str]], ...] = (
    (re.compile(r"board (?P<board>\d+) is not played at table (?P<table>\w+) in round (?P<round>\d+) "
                r"\(the movement gives boards (?P<boards>[^)]*)\)"),
     {"en": "board {board} is not played at table {table} in round {round} (the movement gives boards {boards})",
      "sv": "bricka {board} spelas inte vid bord {table} i rond {round} (rörelseschemat ger brickorna {boards})",
      "da": "spil {board} spilles ikke ved bord {table} i runde {round} (turneringsplanen giver spillene {boards})"}),
    (re.compile(r"board (?P<board>\d+) is a board of round (?P<round>\d+) at table (?P<table>\w+), and the table "
                r"is on round (?P<current>\d+)"),
     {"en": "board {board} is a board of round {round}, and table {table} is still on round {current}",
      "sv": "bricka {board} hör till rond {round}, och bord {table} är fortfarande på rond {current}",
      "da": "spil {board} hører til runde {round}, og bord {table} er stadig i runde {current}"}),
    (re.compile(r"table (?P<table>\w+) has no round (?P<round>\d+) in the scoring program's movement"),
     {"en": "table {table} has no round {round} in the scoring program's movement",
      "sv": "bord {table} har ingen rond {round} i tävlingsdatorns rörelseschema",
      "da": "bord {table} har ingen runde {round} i regnskabsprogrammets turneringsplan"}),
    (re.compile(r"table (?P<table>\w+) is not in the scoring program's movement"),
     {"en": "table {table} is not in the scoring program's movement",
      "sv": "bord {table} finns inte i tävlingsdatorns rörelseschema",
      "da": "bord {table} findes ikke i regnskabsprogrammets turneringsplan"}),
    (re.compile(r"score_ns: (?P<score>-?\d+) does not match Law 77"),
     {"en": "the score {score} is not the Law 77 score of the contract",
      "sv": "poängen {score} är inte kontraktets poäng enligt lag 77",
      "da": "scoren {score} er ikke kontraktens score efter lov 77"}),
    (re.compile(r"was already stored with different content"),
     {"en": "the station already has another result under this number",
      "sv": "stationen har redan ett annat resultat under detta nummer",
      "da": "stationen har allerede et andet resultat under dette nummer"}),
)

WHAT = {"result": {"en": "the result of board {board} (round {round})", "sv": "resultatet på bricka {board} (rond {round})",
                   "da": "resultatet af spil {board} (runde {round})"},
        "players": {"en": "the member numbers of round {round}", "sv": "medlemsnumren i rond {round}",
                    "da": "medlemsnumrene i runde {round}"},
        "other": {"en": "an item for the station ({tail})", "sv": "ett meddelande till stationen ({tail})",
                  "da": "en meddelelse til stationen ({tail})"}}
REFUSED = {
    "en": "The station refused {what}: {reason}. Call the director: it is kept on this tablet; the director "
          "corrects it here or enters it in the scoring program.",
    "sv": "Stationen nekade {what}: {reason}. Tillkalla tävlingsledaren: det finns kvar på plattan; "
          "tävlingsledaren rättar det här eller matar in det i tävlingsdatorn.",
    "da": "Stationen afviste {what}: {reason}. Tilkald turneringslederen: det er gemt på tabletten; "
          "turneringslederen retter det her eller indtaster det i regnskabsprogrammet.",
}


def by_code(reason: str, lang: str = "en", refusal: Any = None) -> str:
    """The station's reason in `lang` by `refusal`'s code when this tablet knows it (the
    director console), else as the station said it."""
    said = refusal_text(Refused.from_reply(refusal), lang)
    return reason if said is None else said


def reason_text(reason: str, lang: str = "en", refusal: Any = None) -> str:
    """The station's reason in `lang`: by `refusal` (the code and params the station sent, as
    the outbox keeps them) when this tablet knows the code, else by the words of an older
    station's reason, else as the station said it."""
    said = refusal_text(Refused.from_reply(refusal), lang)
    if said is not None:
        return said
    for pattern, words in REASONS:
        m = pattern.search(reason)
        if m:
            return words.get(lang, words["en"]).format(**m.groupdict())
    return reason


def _what(key: str, lang: str) -> str:
    """What the refused item was, read through the records package (the key's grammar is its)."""
    try:
        players = PlayersKey.parse(key)
        words, params = WHAT["players"], {"round": str(players.round)}
    except RecordError:
        try:
            result = ResultKey.parse(key)
            words, params = WHAT["result"], {"round": str(result.round), "board": str(result.board)}
        except RecordError:
            words, params = WHAT["other"], {"tail": key}
    return words.get(lang, words["en"]).format(**params)


def refused_line(item: dict[str, Any], lang: str = "en") -> str:
    """One refused delivery (`snapshot()["delivery"]["refused"]` entry) as the table is told it."""
    text = REFUSED.get(lang, REFUSED["en"])
    return text.format(what=_what(str(item.get("key") or ""), lang),
                       reason=reason_text(str(item.get("reason") or ""), lang, item.get("refusal")))


def refused_banner(delivery: dict[str, Any], lang: str = "en") -> str:
    """The table's red banner for deliveries refused for good ('' when none): the latest, and
    how many more there are."""
    final = [r for r in delivery.get("refused") or [] if not r.get("retrying")]
    if not final:
        return ""
    more = {"en": " (+{n} more)", "sv": " (+{n} till)", "da": " (+{n} mere)"}
    text = refused_line(final[-1], lang)
    return text + (more.get(lang, more["en"]).format(n=len(final) - 1) if len(final) > 1 else "")
