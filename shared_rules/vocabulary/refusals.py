"""The station's refusals in words, by their code (shared_rules/records/refusals.py): what the
tablet's console, the players' refusal notice and the director page say in the table's or the
TD's language. `{...}` are the refusal's parameters (`FIELDS`); a `{detail}` stays the station's
English (it names a field of the item).

Swedish and Danish as the tablet says the station's words elsewhere (tablet_app/station_texts.py):
rörelseschema/turneringsplan for the movement, tävlingsdatorn/regnskabsprogrammet for the
scoring program, TL-kod/TL-kode for the director PIN. tests/rules/test_vocabulary_words.py fails for a
code without words in every language, or words asking for a parameter the code does not carry.
"""
from __future__ import annotations

from shared_rules.records.refusals import RefusalCode, Refused

from .words import Words, in_lang

C = RefusalCode

REFUSALS: dict[RefusalCode, Words] = {
    C.TABLE_ID_FORM: {
        "en": "the tablet sent no table id the station can read (event/section/table): set the table up again",
        "sv": "plattan skickade inget bords-id som stationen kan läsa (tävling/sektion/bord): ställ in bordet igen",
        "da": "tabletten sendte intet bord-id, som stationen kan læse (turnering/række/bord): sæt bordet op igen"},
    C.TABLE_KEY_MISSING: {
        "en": "the tablet sent no table key: type in the key the station printed for the table",
        "sv": "plattan skickade ingen bordsnyckel: skriv in nyckeln som stationen skrev ut för bordet",
        "da": "tabletten sendte ingen bordnøgle: indtast nøglen, som stationen udskrev til bordet"},
    C.TABLE_KEY_WRONG: {
        "en": "the station knows no table {table} with this key: check the table and its key (on the director page)",
        "sv": "stationen känner inget bord {table} med denna nyckel: kontrollera bordet och dess nyckel "
              "(på tävlingsledarens sida)",
        "da": "stationen kender intet bord {table} med denne nøgle: kontrollér bordet og dets nøgle "
              "(på turneringslederens side)"},
    C.TABLE_NOT_OWN: {
        "en": "table {table} may only send its own items",
        "sv": "bord {table} får bara skicka sina egna poster",
        "da": "bord {table} må kun sende sine egne poster"},
    C.BODY_LENGTH: {
        "en": "the request had no length: update the tablet",
        "sv": "begäran saknade längd: uppdatera plattan",
        "da": "forespørgslen manglede længde: opdater tabletten"},
    C.BODY_TOO_BIG: {
        "en": "{size} bytes is more than the station takes ({limit} bytes)",
        "sv": "{size} byte är mer än stationen tar emot ({limit} byte)",
        "da": "{size} byte er mere, end stationen modtager ({limit} byte)"},
    C.RECORD_FORM: {
        "en": "the station could not read what the tablet sent ({detail})",
        "sv": "stationen kunde inte läsa det som plattan skickade ({detail})",
        "da": "stationen kunne ikke læse det, som tabletten sendte ({detail})"},
    C.RECORD_INVALID: {
        "en": "the station does not take it as it is ({detail})",
        "sv": "stationen tar inte emot det som det är ({detail})",
        "da": "stationen modtager det ikke, som det er ({detail})"},
    # Law 77: the score the contract and tricks give
    C.RECORD_SCORE: {
        "en": "the score {score} is not the Law 77 score of the contract ({law77})",
        "sv": "poängen {score} är inte kontraktets poäng enligt lag 77 ({law77})",
        "da": "scoren {score} er ikke kontraktens score efter lov 77 ({law77})"},
    # Law 79C: a correction is a new revision, never an edit
    C.RECORD_CONFLICT: {
        "en": "the station already has another item under this number",
        "sv": "stationen har redan en annan post under detta nummer",
        "da": "stationen har allerede en anden post under dette nummer"},
    C.BATCH_SIZE: {
        "en": "a delivery holds 1 to {most} items",
        "sv": "en leverans har 1 till {most} poster",
        "da": "en levering har 1 til {most} poster"},
    C.BATCH_ITEM: {
        "en": "a part of the delivery is not an item",
        "sv": "en del av leveransen är ingen post",
        "da": "en del af leveringen er ingen post"},
    C.ROOM_FULL: {
        "en": "the station has no more room for items of this kind from table {table} (at most {items} items and "
              "{mb} MB a session): tell the director",
        "sv": "stationen har inte plats för fler poster av detta slag från bord {table} (högst {items} poster och "
              "{mb} MB per omgång): meddela tävlingsledaren",
        "da": "stationen har ikke plads til flere poster af denne slags fra bord {table} (højst {items} poster og "
              "{mb} MB pr. session): giv turneringslederen besked"},
    C.LAW16_NOT_IN_MOVEMENT: {
        "en": "table {table} is not in the scoring program's movement of section {section}",
        "sv": "bord {table} finns inte i tävlingsdatorns rörelseschema för sektion {section}",
        "da": "bord {table} findes ikke i regnskabsprogrammets turneringsplan for række {section}"},
    C.LAW16_BOARD_NOT_IN_ROUND: {
        "en": "board {board} is not played at table {table} in round {round} (the movement gives boards {boards})",
        "sv": "bricka {board} spelas inte vid bord {table} i rond {round} (rörelseschemat ger brickorna {boards})",
        "da": "spil {board} spilles ikke ved bord {table} i runde {round} (turneringsplanen giver spillene {boards})"},
    # 2017 L16D1, 2007 L16C1: the station takes a result for the round the table is on
    C.LAW16_TOO_EARLY: {
        "en": "board {board} is a board of round {round}, and table {table} is still on round {current} "
              "(boards without a result: {missing}); the tablet sends it again",
        "sv": "bricka {board} hör till rond {round}, och bord {table} är fortfarande på rond {current} "
              "(brickor utan resultat: {missing}); plattan skickar det igen",
        "da": "spil {board} hører til runde {round}, og bord {table} er stadig i runde {current} "
              "(spil uden resultat: {missing}); tabletten sender det igen"},
    C.LAW16_ROUND_NOT_IN_MOVEMENT: {
        "en": "round {round} is not a round of table {table} in the scoring program's movement (its rounds: {rounds})",
        "sv": "rond {round} är ingen rond för bord {table} i tävlingsdatorns rörelseschema (dess ronder: {rounds})",
        "da": "runde {round} er ikke en runde for bord {table} i regnskabsprogrammets turneringsplan "
              "(dets runder: {rounds})"},
    C.LAW16_READ_NOT_IN_MOVEMENT: {
        "en": "board {board} is not in the movement of table {table}",
        "sv": "bricka {board} ingår inte i rörelseschemat för bord {table}",
        "da": "spil {board} indgår ikke i turneringsplanen for bord {table}"},
    C.LAW16_READ_BEFORE_OWN: {
        "en": "board {board}: the other results are shown once this table's own result on it stands "
              "(2017 Law 16D1, 2007 Law 16C1)",
        "sv": "bricka {board}: de andra resultaten visas när bordets eget resultat på den står fast "
              "(2007 lag 16C1, 2017 lag 16D1)",
        "da": "spil {board}: de andre resultater vises, når bordets eget resultat i det står ved magt "
              "(2017 lov 16D1, 2007 lov 16C1)"},
    C.SESSION_FORM: {
        "en": "the tablet asked for a session the station cannot read: set the table up from the station again",
        "sv": "plattan frågade efter en omgång som stationen inte kan läsa: ställ in bordet från stationen igen",
        "da": "tabletten spurgte efter en session, som stationen ikke kan læse: sæt bordet op fra stationen igen"},
    C.MOVEMENT_NO_SESSION: {
        "en": "the scoring program's session has no section {section} at the station (not sent, or deleted)",
        "sv": "tävlingsdatorns omgång har ingen sektion {section} vid stationen (inte skickad, eller raderad)",
        "da": "regnskabsprogrammets session har ingen række {section} ved stationen (ikke sendt, eller slettet)"},
    C.MOVEMENT_NOT_YET: {
        "en": "no movement yet for section {section}: the scoring program has not sent it (or type the setup in "
              "at the table)",
        "sv": "inget rörelseschema för sektion {section} än: tävlingsdatorn har inte skickat det (eller skriv in "
              "inställningen vid bordet)",
        "da": "ingen turneringsplan for række {section} endnu: regnskabsprogrammet har ikke sendt den (eller "
              "indtast opsætningen ved bordet)"},
    C.MOVEMENT_NO_TABLE: {
        "en": "table {table} is not in the scoring program's movement (its tables: {tables})",
        "sv": "bord {table} finns inte i tävlingsdatorns rörelseschema (dess bord: {tables})",
        "da": "bord {table} findes ikke i regnskabsprogrammets turneringsplan (dens borde: {tables})"},
    C.PLAYERS_COUNT: {
        "en": "ask for 1 to {most} member numbers at a time",
        "sv": "fråga efter 1 till {most} medlemsnummer åt gången",
        "da": "spørg efter 1 til {most} medlemsnumre ad gangen"},
    C.PLAYERS_NUMBER: {
        "en": "{number} is not a member number (digits only, one capital letter may come first)",
        "sv": "{number} är inget medlemsnummer (bara siffror, en versal får stå först)",
        "da": "{number} er ikke et medlemsnummer (kun cifre, ét stort bogstav må stå først)"},
    C.PLAYERS_ROUND: {
        "en": "table {table} has no round {round} in the scoring program's movement: enter the numbers at the "
              "round the table is playing",
        "sv": "bord {table} har ingen rond {round} i tävlingsdatorns rörelseschema: ange numren i den rond som "
              "bordet spelar",
        "da": "bord {table} har ingen runde {round} i regnskabsprogrammets turneringsplan: angiv numrene i den "
              "runde, som bordet spiller"},
    C.PIN_REQUEST: {
        "en": "the station could not read the PIN check: update the tablet",
        "sv": "stationen kunde inte läsa kodkontrollen: uppdatera plattan",
        "da": "stationen kunne ikke læse kodekontrollen: opdater tabletten"},
    C.PIN_NOT_SET: {
        "en": "no director PIN is set at the station",
        "sv": "ingen TL-kod är inställd vid stationen",
        "da": "der er ingen TL-kode ved stationen"},
    C.PIN_WRONG: {
        "en": "wrong director PIN ({wrong_tries} in a row)",
        "sv": "fel TL-kod ({wrong_tries} i rad)",
        "da": "forkert TL-kode ({wrong_tries} i træk)"},
    C.PIN_LOCKED: {
        "en": "too many wrong PINs: wait {wait_s} s",
        "sv": "för många felaktiga koder: vänta {wait_s} s",
        "da": "for mange forkerte koder: vent {wait_s} s"},
    C.PIN_STATION_LIMIT: {
        "en": "too many wrong PINs at the station this hour: the tablet checks the PIN itself for {wait_s} s",
        "sv": "för många felaktiga koder vid stationen denna timme: plattan kontrollerar koden själv i {wait_s} s",
        "da": "for mange forkerte koder ved stationen denne time: tabletten kontrollerer selv koden i {wait_s} s"},
}


def refusal_text(refused: Refused | None, lang: str) -> str | None:
    """The refusal in `lang` (English for a language not ours), its parameters filled; None when
    there is none, or its words ask for a parameter it lacks: show the station's text then."""
    if refused is None:
        return None
    words = REFUSALS.get(refused.code)
    if words is None:
        return None
    try:
        return in_lang(words, lang).format(**refused.params)
    except (KeyError, IndexError, ValueError):
        return None
