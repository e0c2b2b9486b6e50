"""The engine's names in words: every member of the enums the engine reports (shared_rules.types)
that a screen or page shows by its name, in English, Swedish and Danish, one table per enum.

- `IRREGULARITIES`: an irregularity kind (a state's `irregularities[].kind`), as a name that
  stands alone (a heading, a cell): capitalised;
- `DECISIONS`: what the table waits for (`pending.kind`): the irregularity's name, or the
  director's question;
- `TIMING_FLAGS`: the engine's timing flags (the tablet's tempo screen), lower case;
- `AUCTION_STATUSES`: where the auction stopped (`status`), lower case (a TD call's reason);
- `RULINGS`: how an irregularity was resolved (`resolution`), lower case, followed by its Law.

tests/rules/test_vocabulary_words.py fails for a member without words in every language (Swedish and
Danish not left in English). The tablet (tablet_app/i18n.py) and the director page
(station/director_texts.py) both read these tables; sentences built around a name (an
obligation, the Law's options, the wrong-board outcome) stay with the screen that says them.
"""
from __future__ import annotations

from shared_rules.types import Decision, IrregularityKind, Resolution, Status, TimingKind

from .words import Words

IRREGULARITIES: dict[IrregularityKind, Words] = {
    IrregularityKind.INSUFFICIENT_BID: {"en": "Insufficient bid", "sv": "Otillräckligt bud", "da": "Utilstrækkeligt bud"},
    IrregularityKind.CALL_OUT_OF_ROTATION: {"en": "Call out of rotation", "sv": "Bud utom tur", "da": "Melding uden for tur"},
    IrregularityKind.CHANGE_OF_CALL: {"en": "Change of call", "sv": "Ändrat bud", "da": "Ændret melding"},
    IrregularityKind.SIMULTANEOUS_CALLS: {"en": "Simultaneous calls", "sv": "Samtidiga bud", "da": "Samtidige meldinger"},
    IrregularityKind.INADMISSIBLE_DOUBLE: {"en": "Inadmissible double or redouble", "sv": "Otillåten dubbling eller redubbling", "da": "Utilladelig dobling eller redobling"},
    IrregularityKind.CALL_WHEN_REQUIRED_TO_PASS: {"en": "Call when required to pass", "sv": "Bud när passningsplikt gällde",
                                                  "da": "Melding under pastvang"},
    IrregularityKind.BID_ABOVE_SEVEN: {"en": "Bid above seven", "sv": "Bud över sju", "da": "Melding over syv"},
    IrregularityKind.CALL_AFTER_FINAL_PASS: {"en": "Call after the final pass", "sv": "Bud efter sista pass", "da": "Melding efter sidste pas"},
    IrregularityKind.CARDS_EXPOSED: {"en": "Cards exposed", "sv": "Visade kort", "da": "Viste kort"},
    IrregularityKind.WRONG_BOARD_CALL: {"en": "Call with cards from the wrong board", "sv": "Bud med kort från fel bricka",
                                        "da": "Melding med kort fra forkert spil"},
    IrregularityKind.WRONG_BOARD: {"en": "Wrong board", "sv": "Fel bricka", "da": "Forkert spil"},
    # 2007 L31A1, L32B1; 2017 L31A1, L32A1: the call he had to repeat was not the one he made
    IrregularityKind.REPEAT_NOT_MADE: {"en": "Required call not repeated", "sv": "Budet upprepades inte",
                                       "da": "Meldingen blev ikke gentaget"},
    # 2007 L30B2(b): a double or redouble by the partner who may not double at this turn
    IrregularityKind.RESTRICTED_CALL: {"en": "Double when not allowed", "sv": "Dubbling när det inte var tillåtet",
                                       "da": "Dobling når det ikke var tilladt"},
    # 2007/2017 L9B2: nobody calls until the director has ruled (in a log it is recorded and cancelled)
    IrregularityKind.CALL_WHILE_AWAITING_TD: {"en": "Call while the table waits for the director",
                                              "sv": "Bud medan bordet väntar på tävlingsledaren",
                                              "da": "Melding mens bordet venter på turneringslederen"},
}

# What the table waits for (the pending decision): an irregularity's name, or the director's question.
DECISIONS: dict[Decision, Words] = {
    **{Decision(kind.value): text for kind, text in IRREGULARITIES.items() if kind.value in set(Decision)},
    Decision.INSUFFICIENT_BID_JUDGEMENT: {"en": "Insufficient bid replaced: the director judges the replacement",
                                          "sv": "Otillräckligt bud ersatt: TL bedömer ersättningsbudet",
                                          "da": "Utilstrækkeligt bud erstattet: TL vurderer erstatningsmeldingen"},
    Decision.OOT_JUDGEMENT: {"en": "Call after a cancelled call out of rotation: the director judges it",
                             "sv": "Bud efter ett upphävt bud utom tur: TL bedömer det",
                             "da": "Melding efter en annulleret melding uden for tur: TL vurderer den"},
    Decision.WRONG_BOARD_JUDGEMENT: {"en": "New call after a call from the wrong board: the director judges it",
                                     "sv": "Nytt bud efter ett bud från fel bricka: TL bedömer det",
                                     "da": "Ny melding efter en melding fra forkert spil: TL vurderer den"},
    # 2007 L15C: a repeated call differs from the first auction (the board cancelled, or a newly seated player)
    Decision.WRONG_BOARD_REPEAT: {"en": "Repeated call differs from the first auction",
                                  "sv": "Upprepat bud skiljer sig från den första budgivningen",
                                  "da": "Gentaget melding afviger fra de første meldinger"},
}

# The engine's timing flags (the tempo screen).
TIMING_FLAGS: dict[TimingKind, Words] = {
    TimingKind.STOP_WAIT_SHORT: {"en": "stop wait short", "sv": "för kort stoppväntan", "da": "for kort stopventetid"},
    TimingKind.STOP_MISSING: {"en": "no STOP before the jump", "sv": "inget STOPP före hoppet", "da": "intet STOP før springet"},
    TimingKind.LONG_THOUGHT_AFTER_STOP: {"en": "long thought after STOP", "sv": "lång betänketid efter STOPP",
                                         "da": "lang betænkningstid efter STOP"},
    TimingKind.ALERT_LATE: {"en": "late alert", "sv": "sen alertering", "da": "sen alertering"},
    TimingKind.ALERT_NOT_PERMITTED: {"en": "alert not permitted", "sv": "alertering ej tillåten", "da": "alertering ikke tilladt"},
    TimingKind.ALERT_BY_WRONG_PLAYER: {"en": "alerted by the wrong player", "sv": "alerterad av fel spelare",
                                       "da": "alerteret af forkert spiller"},
}

# Where the auction stopped (a TD call's reason when no decision waits).
AUCTION_STATUSES: dict[Status, Words] = {
    Status.BIDDING: {"sv": "budgivning", "da": "melding", "en": "bidding"},
    Status.AWAITING_TD: {"sv": "inväntar TL", "da": "afventer TL", "en": "awaiting the TD"},
    Status.ENDED: {"sv": "budgivningen slut", "da": "meldingerne slut", "en": "auction ended"},
    Status.PASSED_OUT: {"sv": "passat", "da": "meldt pas rundt", "en": "passed out"},
    Status.ADJUSTED_SCORE: {"sv": "korrigerat resultat", "da": "justeret resultat", "en": "adjusted score"},
}

# The ruling made (an irregularity's `resolution`), in words.
RULINGS: dict[Resolution, Words] = {
    Resolution.ACCEPTED: {"sv": "accepterat", "da": "accepteret", "en": "accepted"},
    Resolution.UNINTENDED: {"sv": "oavsiktligt bud ersatt med det avsedda", "da": "utilsigtet melding erstattet af den tilsigtede",
                            "en": "unintended call replaced by the intended one"},
    Resolution.MISINFORMATION: {"sv": "ändrat efter felinformation", "da": "ændret efter fejlinformation",
                                "en": "changed after misinformation"},
    Resolution.CANCELLED: {"sv": "annullerat", "da": "annulleret", "en": "cancelled"},
    Resolution.CANCELLED_BEHIND_SCREEN: {"sv": "annullerat bakom skärmen", "da": "annulleret bag skærmen",
                                         "en": "cancelled behind the screen"},
    Resolution.CORRECTED_BEHIND_SCREEN: {"sv": "rättat bakom skärmen", "da": "rettet bag skærmen",
                                         "en": "corrected behind the screen"},
    Resolution.CANCELLED_WITH_LATER_CALLS: {"sv": "annullerat med senare bud", "da": "annulleret med senere meldinger",
                                            "en": "cancelled with the later calls"},
    Resolution.REPLACED_INSUFFICIENT: {"sv": "ersatt med ett tillräckligt bud", "da": "erstattet af et tilstrækkeligt bud",
                                       "en": "replaced by a sufficient bid"},
    Resolution.REPLACED_BY_PASS: {"sv": "ersatt med pass", "da": "erstattet af pas", "en": "replaced by a pass"},
    Resolution.B1A: {"sv": "lägsta tillräckliga bud i samma färg: ingen ytterligare korrigering",
                     "da": "laveste tilstrækkelige bud i samme farve: ingen yderligere berigtigelse",
                     "en": "lowest sufficient bid in the same denomination: no further rectification"},
    Resolution.B1B: {"sv": "jämförbart bud: ingen ytterligare korrigering", "da": "sammenlignelig melding: ingen yderligere berigtigelse",
                     "en": "comparable call: no further rectification"},
    Resolution.B2: {"sv": "partnern passar resten av budgivningen", "da": "makker melder pas resten af meldingerne",
                    "en": "partner passes for the rest of the auction"},
    Resolution.B3: {"sv": "dubblingen annullerad, partnern passar resten", "da": "doblingen annulleret, makker melder pas resten",
                    "en": "double cancelled, partner passes for the rest"},
    Resolution.IN_TURN_CALLED: {"sv": "spelaren i tur budade", "da": "spilleren i tur meldte", "en": "the player in turn called"},
    Resolution.REORDERED: {"sv": "buden ordnade i tur", "da": "meldingerne sat i tur", "en": "calls put in rotation"},
    Resolution.STANDS: {"sv": "budet står", "da": "meldingen står", "en": "the call stands"},
    Resolution.STAND: {"sv": "budet står", "da": "meldingen står", "en": "the call stands"},
    Resolution.CANCEL: {"sv": "annullerat", "da": "annulleret", "en": "cancelled"},
    Resolution.AUCTION_CONTINUES: {"sv": "budgivningen fortsätter", "da": "meldingerne fortsætter",
                                   "en": "the auction continues"},
    Resolution.AUCTION_RESTARTED: {"sv": "budgivningen börjar om", "da": "meldingerne starter forfra",
                                   "en": "the auction restarts"},
    Resolution.BOARD_CANCELLED: {"sv": "brickan annullerad", "da": "spillet annulleret", "en": "board cancelled"},
    Resolution.ADJUSTED_SCORE: {"sv": "korrigerat resultat", "da": "justeret resultat", "en": "adjusted score"},
    Resolution.OFFENDER_CALLS_AGAIN: {"sv": "den felande budar om", "da": "overtræderen melder igen",
                                      "en": "the offender calls again"},
    Resolution.OFFENDER_CALLED_AGAIN: {"sv": "den felande budade om", "da": "overtræderen meldte igen",
                                       "en": "the offender called again"},
    Resolution.PARTNER_PASSES_NEXT_TURN: {"sv": "partnern passar nästa gång", "da": "makker melder pas næste gang",
                                          "en": "partner passes at the next turn"},
    Resolution.NO_FURTHER_RECTIFICATION: {"sv": "ingen ytterligare korrigering", "da": "ingen yderligere berigtigelse",
                                          "en": "no further rectification"},
}
