"""The station's notices in words, by their code (station/notices.py): what the director page
says in the TD's language, and the English the station's output, `/api/v1/health`, status.json
and the exceptions keep. `{...}` are the notice's parameters (`FIELDS`); a path, a key or a
`{detail}` (a driver's message, a check naming a field) stays as given.

The terms as the rest of the page and docs/glossary.md say them: bord, rond/runde, bricka/spil,
sektion/række, par, lag/hold, match/kamp, rörelseschema/turneringsplan for the movement,
tävlingsdatorn/regnskabsprogrammet for the scoring program, TL for the director.
tests/station/test_notice_words.py fails for a code without words in every language, or words
asking for a parameter the code does not carry.
"""
from __future__ import annotations

from typing import Final

from shared_rules.vocabulary import in_lang

from .notices import Notice, NoticeCode, Value

C = NoticeCode
_AT = {"en": "section {section} table {table} round {round}", "sv": "sektion {section} bord {table} rond {round}",
       "da": "række {section} bord {table} runde {round}"}
_BOARD = {"en": _AT["en"] + " board {board}", "sv": _AT["sv"] + " bricka {board}", "da": _AT["da"] + " spil {board}"}
_ROOM = {"en": "table {room} round {round}", "sv": "bord {room} rond {round}", "da": "bord {room} runde {round}"}
_OTHER = {"en": "table {other} round {other_round}", "sv": "bord {other} rond {other_round}",
          "da": "bord {other} runde {other_round}"}


def _w(en: str, sv: str, da: str, *, at: dict[str, str] | None = None) -> dict[str, str]:
    """Words in the three languages, each led by `at` (the place, in that language) if given."""
    words = {"en": en, "sv": sv, "da": da}
    return {k: (at[k] + v if at else v) for k, v in words.items()}


def _rooms(en: str, sv: str, da: str) -> dict[str, str]:
    """Words with `[room]` and `[other]` standing for the two rooms, in each language."""
    out = {}
    for lang, text in (("en", en), ("sv", sv), ("da", da)):
        out[lang] = text.replace("[room]", _ROOM[lang]).replace("[other]", _OTHER[lang])
    return out


WORDS: Final[dict[NoticeCode, dict[str, str]]] = {
    # -- the .bws file -------------------------------------------------------------------------------
    C.BWS_MISSING: _w(
        "{path}: no such file (the scoring program re-creating it?); the results are kept and written when it is back",
        "{path}: filen finns inte (skapar tävlingsdatorn den på nytt?); resultaten sparas och skrivs in när den "
        "är tillbaka",
        "{path}: filen findes ikke (er regnskabsprogrammet ved at oprette den igen?); resultaterne gemmes og "
        "skrives ind, når den er tilbage"),
    C.BWS_CHANGED_WHILE_OPEN: _w(
        "{path} was replaced while the station opened it; it looks again",
        "{path} ersattes medan stationen öppnade den; den tittar igen",
        "{path} blev erstattet, mens stationen åbnede den; den kigger igen"),
    C.BWS_LOCKED: _w(
        "{path} is locked by another program ({detail}); nothing was written, the station tries again",
        "{path} är låst av ett annat program ({detail}); inget skrevs, stationen försöker igen",
        "{path} er låst af et andet program ({detail}); intet blev skrevet, stationen prøver igen"),
    C.BWS_UNREADABLE: _w(
        "{path} cannot be read as a database ({detail}): the scoring program may be writing it; nothing was "
        "written, the station tries again",
        "{path} kan inte läsas som en databas ({detail}): tävlingsdatorn skriver kanske i den; inget skrevs, "
        "stationen försöker igen",
        "{path} kan ikke læses som en database ({detail}): regnskabsprogrammet skriver måske i den; intet blev "
        "skrevet, stationen prøver igen"),
    C.BWS_DRIVER: _w("{path}: {detail}", "{path}: {detail}", "{path}: {detail}"),
    C.BWS_NO_PYODBC: _w(
        "the .bws bridge needs the pyodbc package (requirements.txt)",
        ".bws-länken behöver paketet pyodbc (requirements.txt)",
        ".bws-forbindelsen kræver pakken pyodbc (requirements.txt)"),
    C.BWS_NO_DRIVER: _w(
        "no Microsoft Access ODBC driver is installed (the one Bridgemate Control Software needs: 'Microsoft "
        "Access Database Engine', docs/bws.md); or give --bws-odbc with a connection string for another driver",
        "ingen ODBC-drivrutin för Microsoft Access är installerad (den som Bridgemate Control Software behöver: "
        "'Microsoft Access Database Engine', docs/bws.md); eller ange --bws-odbc med en anslutningssträng för "
        "en annan drivrutin",
        "der er ingen ODBC-driver til Microsoft Access installeret (den, som Bridgemate Control Software kræver: "
        "'Microsoft Access Database Engine', docs/bws.md); eller angiv --bws-odbc med en forbindelsesstreng til "
        "en anden driver"),
    C.BWS_NOT_SESSION: _w(
        "{path} is not a Bridgemate .bws the bridge can use: missing {missing} (create the session in the scoring "
        "program first)",
        "{path} är ingen Bridgemate-.bws som länken kan använda: {missing} saknas (skapa omgången i "
        "tävlingsdatorn först)",
        "{path} er ikke en Bridgemate-.bws, som forbindelsen kan bruge: {missing} mangler (opret sessionen i "
        "regnskabsprogrammet først)"),
    C.BWS_UNPLAYABLE: _w(
        "the movement in {path} cannot be played by the tablets: {problems}{more}. Nothing was taken over or "
        "written; correct it in the scoring program.",
        "rörelseschemat i {path} kan inte spelas av plattorna: {problems}{more}. Inget togs över eller skrevs; "
        "rätta det i tävlingsdatorn.",
        "turneringsplanen i {path} kan ikke spilles af tabletterne: {problems}{more}. Intet blev overtaget eller "
        "skrevet; ret den i regnskabsprogrammet."),
    C.BWS_REPLACED: _w(
        "{path} was replaced ({why}) by a file the earlier results do not fit: {first}{more}. Nothing is written "
        "into it until the TD answers (python -m station bws-replaced)",
        "{path} har ersatts ({why}) av en fil som de tidigare resultaten inte passar in i: {first}{more}. Inget "
        "skrivs in i den förrän tävlingsledaren svarar (python -m station bws-replaced)",
        "{path} er blevet erstattet ({why}) af en fil, som de tidligere resultater ikke passer ind i: "
        "{first}{more}. Intet skrives ind i den, før turneringslederen svarer (python -m station bws-replaced)"),
    C.BWS_INTERNAL: _w(
        "internal error in the .bws bridge: {error}", "internt fel i .bws-länken: {error}",
        "intern fejl i .bws-forbindelsen: {error}"),
    C.AND_MORE: _w(" (and {n} more)", " (och {n} till)", " (og {n} mere)"),
    # -- a movement the tablets cannot play ------------------------------------------------------------
    C.MOVE_SECTION_LETTER: _w(
        "section {section} has the letter {letter}: the tablets need A-Z, AA-ZZ or AAA-ZZZ",
        "sektion {section} har bokstaven {letter}: plattorna behöver A-Z, AA-ZZ eller AAA-ZZZ",
        "række {section} har bogstavet {letter}: tabletterne kræver A-Z, AA-ZZ eller AAA-ZZZ"),
    C.MOVE_LETTER_TWICE: _w("two sections have the same letter", "två sektioner har samma bokstav",
                            "to rækker har samme bogstav"),
    C.MOVE_EMPTY: _w(
        "RoundData is empty: the scoring program has not written a movement yet",
        "RoundData är tom: tävlingsdatorn har inte skrivit något rörelseschema än",
        "RoundData er tom: regnskabsprogrammet har endnu ikke skrevet en turneringsplan"),
    C.MOVE_NO_SECTION: _w(
        "RoundData names section {section}, which the Section table does not have",
        "RoundData nämner sektion {section}, som tabellen Section inte har",
        "RoundData nævner række {section}, som tabellen Section ikke har"),
    C.MOVE_NUMBERS: _w(": table and round numbers start at 1", ": bords- och rondnummer börjar på 1",
                       ": bord- og rundenumre begynder ved 1", at=_AT),
    C.MOVE_TWICE: _w(" appears twice in RoundData", " står två gånger i RoundData", " står to gange i RoundData",
                     at=_AT),
    C.MOVE_PAIRS: _w(": pairs NS {ns} and EW {ew} cannot play each other",
                     ": par NS {ns} och ÖV {ew} kan inte spela mot varandra",
                     ": par NS {ns} og ØV {ew} kan ikke spille mod hinanden", at=_AT),
    C.MOVE_BOARDS: _w(": boards {low}-{high} are not a range the tablets can play",
                      ": brickorna {low}-{high} är ingen följd som plattorna kan spela",
                      ": spillene {low}-{high} er ikke en række, som tabletterne kan spille", at=_AT),
    C.MOVE_PAIR_TWICE: _w(": pair {side} {pair} is also at table {other} this round",
                          ": par {pair} ({side}) sitter också vid bord {other} i denna rond",
                          ": par {pair} ({side}) sidder også ved bord {other} i denne runde", at=_AT),
    # -- the .bws replaced ---------------------------------------------------------------------------
    C.FILE_WAS_MISSING: _w("it was missing or unreadable at an earlier look",
                           "den saknades eller var oläslig vid en tidigare titt",
                           "den manglede eller var ulæselig ved et tidligere kig"),
    C.FILE_OTHER: _w("the path names another file (re-created, copied in or restored)",
                     "sökvägen pekar på en annan fil (skapad på nytt, inkopierad eller återställd)",
                     "stien peger på en anden fil (oprettet igen, kopieret ind eller gendannet)"),
    C.FILE_SHORTER: _w("it got shorter ({before} -> {now} bytes)", "den blev kortare ({before} -> {now} byte)",
                       "den blev kortere ({before} -> {now} byte)"),
    C.FILE_OLDER: _w("its modification time went back (an older copy put in its place)",
                     "dess ändringstid gick bakåt (en äldre kopia lagd i dess ställe)",
                     "dens ændringstid gik tilbage (en ældre kopi lagt i dens sted)"),
    C.FILE_SESSION_ROWS: _w("its Session rows changed ({before} -> {now})",
                            "dess Session-rader ändrades ({before} -> {now})",
                            "dens Session-rækker blev ændret ({before} -> {now})"),
    C.FILE_EMPTIED: _w("it has none of the rows the station wrote", "den har inga av raderna som stationen skrev",
                       "den har ingen af de rækker, stationen skrev"),
    C.FILE_OTHER_SESSION: _w("the file names another session ({before} -> {now})",
                             "filen anger en annan omgång ({before} -> {now})",
                             "filen angiver en anden session ({before} -> {now})"),
    C.FILE_NO_TABLE: _w(": the new file has no table {table} in round {round}",
                        ": den nya filen har inget bord {table} i rond {round}",
                        ": den nye fil har intet bord {table} i runde {round}", at=_BOARD),
    C.FILE_OTHER_PAIRS: _w(": played by NS {ns} v EW {ew}, the new file has NS {new_ns} v EW {new_ew}",
                           ": spelad av NS {ns} mot ÖV {ew}, den nya filen har NS {new_ns} mot ÖV {new_ew}",
                           ": spillet af NS {ns} mod ØV {ew}, den nye fil har NS {new_ns} mod ØV {new_ew}",
                           at=_BOARD),
    C.FILE_OTHER_BOARDS: _w(": the new file has boards {low}-{high} there",
                            ": den nya filen har brickorna {low}-{high} där",
                            ": den nye fil har spillene {low}-{high} der", at=_BOARD),
    # -- held out of the .bws ------------------------------------------------------------------------
    C.HELD_NOT_IN_MOVEMENT: _w(
        ": not in the movement of the .bws, not written (it is written once the scoring program adds that round)",
        ": finns inte i .bws-filens rörelseschema, inte inskrivet (det skrivs in när tävlingsdatorn lägger till "
        "den ronden)",
        ": findes ikke i .bws-filens turneringsplan, ikke skrevet ind (det skrives ind, når regnskabsprogrammet "
        "tilføjer den runde)", at=_BOARD),
    C.HELD_CHANGED_BY_HAND: _w(
        ": the result in the .bws was changed by hand ({changed}); the station's new revision ({revision}) is not "
        "written over it. Enter it in the scoring program, or put the row back as the station wrote it",
        ": resultatet i .bws-filen har ändrats för hand ({changed}); stationens nya version ({revision}) skrivs "
        "inte över det. Skriv in det i tävlingsdatorn, eller återställ raden som stationen skrev den",
        ": resultatet i .bws-filen er ændret i hånden ({changed}); stationens nye version ({revision}) skrives "
        "ikke hen over det. Indtast det i regnskabsprogrammet, eller sæt rækken tilbage, som stationen skrev den",
        at=_BOARD),
    C.HELD_NO_RESULT: _w(
        ": the result in the .bws was changed by hand (no result in force any more); the station's new revision "
        "({revision}) is not written over it. Enter it in the scoring program, or put the row back as the station "
        "wrote it",
        ": resultatet i .bws-filen har ändrats för hand (inget gällande resultat längre); stationens nya version "
        "({revision}) skrivs inte över det. Skriv in det i tävlingsdatorn, eller återställ raden som stationen "
        "skrev den",
        ": resultatet i .bws-filen er ændret i hånden (intet gældende resultat længere); stationens nye version "
        "({revision}) skrives ikke hen over det. Indtast det i regnskabsprogrammet, eller sæt rækken tilbage, "
        "som stationen skrev den", at=_BOARD),
    C.HELD_CANNOT_WRITE: _w(
        ": its items cannot be written ({error}); the other boards are",
        ": dess poster kan inte skrivas in ({error}); de andra brickorna skrivs in",
        ": dets poster kan ikke skrives ind ({error}); de andre spil skrives ind", at=_BOARD),
    C.HELD_DAMAGED: _w(
        "stored item {key} has no section, table, round and board the .bws can take: not written",
        "den lagrade posten {key} har ingen sektion, bord, rond och bricka som .bws-filen kan ta emot: inte "
        "inskriven",
        "den gemte post {key} har ingen række, bord, runde og spil, som .bws-filen kan modtage: ikke skrevet ind"),
    C.HELD_NO_PLAYER_TABLE: _w(
        "player-number entries: {n}; the .bws has no PlayerNumbers table, not written",
        "inmatade medlemsnummer: {n}; .bws-filen har ingen tabell PlayerNumbers, inte inskrivna",
        "indtastede medlemsnumre: {n}; .bws-filen har ingen tabel PlayerNumbers, ikke skrevet ind"),
    C.HELD_PLAYERS_NOT_IN_MOVEMENT: _w(
        "player numbers of section {section} table {table} round {round}: not in the movement of the .bws, not "
        "written",
        "medlemsnummer för sektion {section} bord {table} rond {round}: finns inte i .bws-filens rörelseschema, "
        "inte inskrivna",
        "medlemsnumre for række {section} bord {table} runde {round}: findes ikke i .bws-filens turneringsplan, "
        "ikke skrevet ind"),
    # -- team matches (FSB L107, 2017 § 86B) ---------------------------------------------------------
    C.MATCH_BOARDS_DIFFER: _rooms(
        "[room] plays boards {boards} but [other], the other room of team {ns} v team {ew}, plays boards "
        "{other_boards}: the two rooms of a match play the same boards",
        "[room] spelar brickorna {boards} men [other], det andra rummet för lag {ns} mot lag {ew}, spelar "
        "brickorna {other_boards}: en matchs två rum spelar samma brickor",
        "[room] spiller spillene {boards}, men [other], det andet rum for hold {ns} mod hold {ew}, spiller "
        "spillene {other_boards}: en kamps to rum spiller de samme spil"),
    C.MATCH_ONE_ROOM: _rooms(
        "[room] seats teams {ns} (NS) and {ew} (EW) but [other], its other room, seats {other_ns} and "
        "{other_ew}: team {teams} would play in one room only",
        "vid [room] sitter lag {ns} (NS) och {ew} (ÖV) men vid [other], dess andra rum, sitter {other_ns} och "
        "{other_ew}: lag {teams} skulle spela i bara ett rum",
        "ved [room] sidder hold {ns} (NS) og {ew} (ØV), men ved [other], dets andet rum, sidder {other_ns} og "
        "{other_ew}: hold {teams} ville kun spille i ét rum"),
    C.MATCH_NS_TWICE: _rooms(
        "team {team} sits NS at both [room] and [other]: in a match each team sits NS in one room and EW in the "
        "other",
        "lag {team} sitter NS både vid [room] och vid [other]: i en match sitter varje lag NS i det ena rummet "
        "och ÖV i det andra",
        "hold {team} sidder NS både ved [room] og ved [other]: i en kamp sidder hvert hold NS i det ene rum og "
        "ØV i det andet"),
    C.MATCH_MATES_MISSING: _rooms(
        "[room]: its teammates' [other] is not in the movement",
        "[room]: lagkamraternas [other] finns inte i rörelseschemat",
        "[room]: holdkammeraternes [other] findes ikke i turneringsplanen"),
    C.MATCH_MATES_DISAGREE: _rooms(
        "[room] names [other] as its other room, which names table {third} round {third_round}",
        "[room] anger [other] som sitt andra rum, som anger bord {third} rond {third_round}",
        "[room] angiver [other] som sit andet rum, som angiver bord {third} runde {third_round}"),
    C.MATCH_NO_OTHER_ROOM: _rooms(
        "[room] seats team {ns} NS against team {ew} EW, but no table seats team {ew} NS against team {ns} EW on "
        "boards {boards}: team {ew} and team {ns} play in one room only",
        "vid [room] sitter lag {ns} NS mot lag {ew} ÖV, men vid inget bord sitter lag {ew} NS mot lag {ns} ÖV "
        "på brickorna {boards}: lag {ew} och lag {ns} spelar i bara ett rum",
        "ved [room] sidder hold {ns} NS mod hold {ew} ØV, men ved intet bord sidder hold {ew} NS mod hold {ns} ØV "
        "i spillene {boards}: hold {ew} og hold {ns} spiller kun i ét rum"),
    C.MATCH_PLAYS_ITSELF: _rooms("[room]: team {team} cannot play itself", "[room]: lag {team} kan inte möta sig själv",
                                 "[room]: hold {team} kan ikke spille mod sig selv"),
    C.MATCH_ROOM_TWICE: _rooms("[room] is the other room of two tables", "[room] är det andra rummet för två bord",
                               "[room] er det andet rum for to borde"),
    C.MATCH_BOTH_ROOMS: _w("table {table} cannot be both rooms of a match", "bord {table} kan inte vara båda rummen i en match",
                           "bord {table} kan ikke være begge rum i en kamp"),
    C.MATCH_NO_COMMON_ROUND: _w(
        "tables {open} and {closed} seat two teams in no common round of the movement: no match to set",
        "borden {open} och {closed} har två lag i ingen gemensam rond i rörelseschemat: ingen match att sätta upp",
        "bordene {open} og {closed} har to hold i ingen fælles runde i turneringsplanen: ingen kamp at sætte op"),
    C.MATCH_NO_TEAMS_IN_ROUND: _w(
        "table {table} seats no two teams in round {round} of the movement",
        "vid bord {table} sitter inte två lag i rond {round} i rörelseschemat",
        "ved bord {table} sidder ikke to hold i runde {round} i turneringsplanen"),
    C.MATCH_ROUNDS_DIFFER: _w(
        "the rounds named seat different teams at these tables: set one match per pair of teams",
        "de angivna ronderna har olika lag vid dessa bord: sätt upp en match per par av lag",
        "de angivne runder har forskellige hold ved disse borde: sæt én kamp op pr. par af hold"),
    C.MATCH_HOME_ABSENT: _w("team {team} does not play at these tables (teams {teams})",
                            "lag {team} spelar inte vid dessa bord (lagen {teams})",
                            "hold {team} spiller ikke ved disse borde (holdene {teams})"),
    C.MATCH_SET_TWICE: _rooms(
        "[room] is in two matches the TD set ({first} and {second})",
        "[room] ingår i två matcher som tävlingsledaren satt upp ({first} och {second})",
        "[room] indgår i to kampe, som turneringslederen har sat op ({first} og {second})"),
    C.MATCH_IN_SECTIONS: _w("teams sections {sections}: {why}", "lagsektionerna {sections}: {why}",
                            "holdrækkerne {sections}: {why}"),
    C.MATCH_SET_BY_TD: _w("match {open}-{closed} set by the TD: {why}",
                          "match {open}-{closed} uppsatt av tävlingsledaren: {why}",
                          "kamp {open}-{closed} sat op af turneringslederen: {why}"),
    # the scoring's own English (a percentage adjusted score, a room without a score) stays in the English
    C.MATCH_BOARD: _w("board {board}: {detail}", "bricka {board} kan inte räknas i IMP",
                      "spil {board} kan ikke regnes i IMP"),
    # -- a bye (FSB 96B) or a walk-over (FSB L109A) not scored yet ----------------------------------------
    C.BYE_NO_VALUE: _w("the VPs of a bye on the {scale} scale are not set (the {profile} profile gives none): "
                       "the bye of team {teams} is not scored until the TD gives them "
                       "(python -m station match byevp VP)",
                       "VP för frirond enligt skalan {scale} är inte angivna (profilen {profile} anger inga): "
                       "frironden för lag {teams} räknas inte förrän TL anger dem "
                       "(python -m station match byevp VP)",
                       "VP for oversidder efter skalaen {scale} er ikke angivet (profilen {profile} angiver "
                       "ingen): oversidderen hold {teams} regnes ikke, før TL angiver dem "
                       "(python -m station match byevp VP)"),
    C.BYE_VALUE_OTHER_SCALE: _w("the bye's {vp} VP were given on the {given} scale, the matches are scored on "
                                "{scale}: the TD gives them again (python -m station match byevp VP)",
                                "frirondens {vp} VP angavs enligt skalan {given}, matcherna räknas enligt "
                                "{scale}: TL anger dem på nytt (python -m station match byevp VP)",
                                "oversidderens {vp} VP blev angivet efter skalaen {given}, kampene regnes efter "
                                "{scale}: TL angiver dem igen (python -m station match byevp VP)"),
    C.BYE_TEAM_PLAYS: _w("the TD's bye for team {team} in round {round} is not counted: the movement now has "
                         "the team play in that round",
                         "TL:s frirond för lag {team} i rond {round} räknas inte: rörelseschemat låter nu "
                         "laget spela i den ronden",
                         "TL's oversidder for hold {team} i runde {round} regnes ikke: turneringsplanen lader "
                         "nu holdet spille i den runde"),
    C.WALKOVER_RESULTS: _w("match {match} is a walk-over, but its tables have sent results: the walk-over "
                           "stands until the TD withdraws it (python -m station match unwalkover {match})",
                           "match {match} är walk-over, men dess bord har skickat resultat: walk-over gäller "
                           "tills TL tar bort den (python -m station match unwalkover {match})",
                           "kamp {match} er walk-over, men dens borde har sendt resultater: walk-over gælder, "
                           "til TL fjerner den (python -m station match unwalkover {match})"),
    C.WALKOVER_OTHER_SCALE: _w("the walk-over in match {match} was given on the {given} scale, the match is "
                               "scored on {scale}: the TD awards it again",
                               "walk-over i match {match} gavs enligt skalan {given}, matchen räknas enligt "
                               "{scale}: TL dömer den på nytt",
                               "walk-over i kamp {match} blev givet efter skalaen {given}, kampen regnes efter "
                               "{scale}: TL idømmer den igen"),
    # -- a damaged stored row ------------------------------------------------------------------------
    C.STORED_KIND: _w("unknown kind {kind}", "okänt slag {kind}", "ukendt slags {kind}"),
    C.STORED_KEY_TEXT: _w("its key is not text", "dess nyckel är ingen text", "dens nøgle er ikke tekst"),
    C.STORED_TIME: _w("its received_at is not a time", "dess received_at är ingen tid",
                      "dens received_at er ikke et tidspunkt"),
    C.STORED_NOT_UTF8: _w("the payload is not UTF-8 text", "innehållet är ingen UTF-8-text",
                          "indholdet er ikke UTF-8-tekst"),
    C.STORED_NOT_TEXT: _w("the payload is not text but {type}", "innehållet är ingen text utan {type}",
                          "indholdet er ikke tekst, men {type}"),
    C.STORED_TOO_LONG: _w("the payload is {chars} characters long, over the door's {limit}",
                          "innehållet är {chars} tecken långt, över dörrens {limit}",
                          "indholdet er {chars} tegn langt, over dørens {limit}"),
    C.STORED_TOO_DEEP: _w("the payload is nested deeper than {limit} levels",
                          "innehållet är nästlat djupare än {limit} nivåer",
                          "indholdet er indlejret dybere end {limit} niveauer"),
    C.STORED_NOT_JSON: _w("the payload is not JSON: {detail}", "innehållet är ingen JSON: {detail}",
                          "indholdet er ikke JSON: {detail}"),
    C.STORED_NOT_OBJECT: _w("the payload is not a JSON object but {type}",
                            "innehållet är inget JSON-objekt utan {type}",
                            "indholdet er ikke et JSON-objekt, men {type}"),
    C.STORED_COLUMN: _w("its {column} column is {value}, its key says {want}",
                        "dess kolumn {column} är {value}, nyckeln säger {want}",
                        "dens kolonne {column} er {value}, nøglen siger {want}"),
    C.STORED_PAYLOAD: _w("{field} is {value}, its key says {want}", "{field} är {value}, nyckeln säger {want}",
                         "{field} er {value}, nøglen siger {want}"),
    C.STORED_FILED: _w("its {column} column is {value}, the payload says {want}",
                       "dess kolumn {column} är {value}, innehållet säger {want}",
                       "dens kolonne {column} er {value}, indholdet siger {want}"),
    C.STORED_TD_STATUS: _w("status: the payload says {status}, its key {key_status}",
                           "status: innehållet säger {status}, nyckeln {key_status}",
                           "status: indholdet siger {status}, nøglen {key_status}"),
    # a field's check: its English words (which name what was expected) stay in the English
    C.STORED_FIELD: _w("{field}: {detail}", "fältet {field} har ett värde som stationen inte kan läsa",
                       "feltet {field} har en værdi, som stationen ikke kan læse"),
    C.STORED_CHECK: _w("{detail}", "posten följer inte formatet", "posten følger ikke formatet"),
}


def say(notice: Notice, lang: str) -> str:
    """The notice in `lang` (English for a language not ours), its parameters filled; a notice
    inside it in the same language. KeyError for words asking a parameter it lacks."""
    words = WORDS[notice.code]
    return in_lang(words, lang).format(**{k: _value(v, lang, k) for k, v in notice.params.items()})


# A pair's side as each language writes it (docs/glossary.md: Öst-Väst / Øst-Vest); a notice keeps
# the English "NS"/"EW" so that the English, the logs and the API read as before.
_SIDES: Final[dict[str, dict[str, str]]] = {"sv": {"EW": "ÖV"}, "da": {"EW": "ØV"}}


def _value(v: Value, lang: str, key: str = "") -> str | int:
    if key == "side" and isinstance(v, str):
        return _SIDES.get(lang, {}).get(v, v)
    if isinstance(v, Notice):
        return say(v, lang)
    if isinstance(v, tuple):
        return "; ".join(say(x, lang) for x in v)
    return v


def words_for(doc: object, english: object, lang: str) -> str:
    """What a stored status or page row says, in `lang`: its notice (`doc`, as `Notice.to_json`
    wrote it) in words, or, without one this station can read (an older station's status), the
    English it holds."""
    notice = Notice.from_json(doc)
    if notice is not None:
        try:
            return say(notice, lang)
        except (KeyError, IndexError, ValueError):
            pass
    return str(english)
