"""The Law's options in English, Swedish and Danish, by the engine's text key.

The engine words each option it offers by a key (shared_rules/texts.py: `<decision>.<option>`,
with a variant where one option has two wordings: the call out of rotation behind a screen, an
artificial bid rather than an artificial pass (L29C), the edition of a Law 27 or Law 31
question). Keying the tablet's words by the same key keeps every variant's meaning: the option
shown is the one the Law gives for the call made. tests/tablet/test_obligation_texts.py fails on
a key of the engine without its three texts here.

Fields: {offender}, {lho}, {partner} name the seats of the pending call, {call} the call; the
engine's own params ({withdrawn}, {cancelled}, {lho_call}, {earlier}, {seat}) fill the rest.
Swedish follows the 2007 law text (S07), Danish the 2017 one (D17: "§", "melding", "pas").
"""
from __future__ import annotations

from typing import Final

_IB_NONE: Final = {"en": "Neither: Law 27B2/B3 applies", "sv": "Inget av dem: lag 27B2/B3 gäller",
                   "da": "Ingen af dem: § 27B2/B3 anvendes"}

OPTIONS_BY_KEY: Final[dict[str, dict[str, str]]] = {
    "unintended": {
        "en": "Director: the call was unintended and is replaced by the intended call",
        "sv": "TL: budet var oavsiktligt och ersätts med det avsedda budet",
        "da": "TL: meldingen var utilsigtet og erstattes af den tilsigtede melding"},
    "insufficient_bid.accept": {
        "en": "{lho} accepts the insufficient bid (by calling)",
        "sv": "{lho} godtar det otillräckliga budet (genom att bjuda)",
        "da": "{lho} accepterer det utilstrækkelige bud (ved at melde)"},
    "insufficient_bid.replace": {
        "en": "{offender} replaces it (the director then rules under L27B)",
        "sv": "{offender} ersätter budet (TL dömer sedan enligt L27B)",
        "da": "{offender} erstatter buddet (TL afgør derefter efter § 27B)"},
    # behind screens, before the tray passed (docs/laws/choices.md #36)
    "insufficient_bid.correct_screen": {
        "en": "The bid did not pass the screen: {offender} corrects it to a legal call, "
              "no rectification; the other side is not told",
        "sv": "Budet har inte passerat skärmen: {offender} rättar det till ett regelrätt bud "
              "utan korrigering; andra sidan får inte veta det",
        "da": "Buddet har ikke passeret skærmen: {offender} retter det til en lovlig "
              "melding uden berigtigelse; den anden side får det ikke at vide"},
    "call_out_of_rotation.accept": {
        "en": "{lho} accepts the call out of rotation (by calling)",
        "sv": "{lho} godtar budet utom tur (genom att bjuda)",
        "da": "{lho} accepterer meldingen uden for tur (ved at melde)"},
    "call_out_of_rotation.cancel": {
        "en": "Not accepted: the call is cancelled and Laws 30-32 apply",
        "sv": "Godtas inte: budet upphävs och lag 30-32 gäller",
        "da": "Accepteres ikke: meldingen annulleres, og § 30-32 anvendes"},
    "call_out_of_rotation.cancel_screen": {
        "en": "Not accepted: the call did not pass the screen; it is cancelled with no further rectification",
        "sv": "Godtas inte: budet passerade inte skärmen; det upphävs utan ytterligare korrigering",
        "da": "Accepteres ikke: meldingen kom ikke forbi skærmen; den annulleres uden yderligere berigtigelse"},
    # L30C: an artificial pass, or a pass of partner's artificial call, is ruled under L31
    "call_out_of_rotation.cancel_artificial": {
        "en": "Not accepted, and the pass was artificial or passed an artificial call",
        "sv": "Godtas inte, och passet var artificiellt eller ett pass på ett artificiellt bud",
        "da": "Accepteres ikke, og passet var kunstigt eller et pas på en kunstig melding"},
    # L29C: an artificial bid, double or redouble: Laws 30-32 apply to the denominations it showed
    "call_out_of_rotation.cancel_artificial_call": {
        "en": "Not accepted, and {offender}'s {call} was artificial: Laws 30-32 apply to the denominations it showed",
        "sv": "Godtas inte, och {offender}s {call} var artificiellt: lag 30-32 gäller de benämningar det visade",
        "da": "Accepteres ikke, og {offender}s {call} var kunstig: § 30-32 anvendes på de benævnelser, den viste"},
    "change_of_call.unintended": {
        "en": "Director: the first call was unintended; the new call replaces it",
        "sv": "TL: det första budet var oavsiktligt; det nya budet ersätter det",
        "da": "TL: den første melding var utilsigtet; den nye melding erstatter den"},
    "change_of_call.accept": {
        "en": "{lho} accepts the change (by calling)", "sv": "{lho} godtar ändringen (genom att bjuda)",
        "da": "{lho} accepterer ændringen (ved at melde)"},
    "change_of_call.cancel": {
        "en": "The change is cancelled; the first call stands", "sv": "Ändringen stryks; det första budet står kvar",
        "da": "Ændringen annulleres; den første melding står ved magt"},
    "inadmissible_double.cancel": {
        "en": "The double/redouble is cancelled; {partner} must pass for the rest of the auction",
        "sv": "Dubblingen/redubblingen stryks; {partner} måste passa resten av budgivningen",
        "da": "Doblingen/redoblingen annulleres; {partner} skal passe resten af meldingerne"},
    "call_when_required_to_pass.cancel": {
        "en": "The call is replaced by a pass; {offender} and {partner} pass for the rest of the auction",
        "sv": "Budet ersätts med pass; {offender} och {partner} passar resten av budgivningen",
        "da": "Meldingen erstattes af pas; {offender} og {partner} passer resten af meldingerne"},
    "bid_above_seven.cancel": {
        "en": "The bid is cancelled and replaced by a pass; {offender} and {partner} pass for the rest of the auction",
        "sv": "Budet stryks och ersätts med pass; {offender} och {partner} passar resten av budgivningen",
        "da": "Meldingen annulleres og erstattes af pas; {offender} og {partner} passer resten af meldingerne"},
    "call_after_final_pass.cancel": {"en": "The call is cancelled", "sv": "Budet stryks", "da": "Meldingen annulleres"},
    "call_after_final_pass.unintended": {
        "en": "Director: the final pass was unintended; the auction reopens with the intended call",
        "sv": "TL: det sista passet var oavsiktligt; budgivningen öppnas igen med det avsedda budet",
        "da": "TL: det sidste pas var utilsigtet; meldingerne genoptages med den tilsigtede melding"},
    "td_decides.stand": {"en": "Director: the call stands", "sv": "TL: budet står kvar",
                         "da": "TL: meldingen står ved magt"},
    "td_decides.cancel": {"en": "Director: the call is cancelled; {offender} calls again",
                          "sv": "TL: budet stryks; {offender} bjuder igen",
                          "da": "TL: meldingen annulleres; {offender} melder igen"},
    "wrong_board_judgement.differs": {
        "en": "Director: {call} differs from the cancelled {cancelled} (very different meaning, or a psych): "
              "artificial adjusted score",
        "sv": "TL: {call} skiljer sig från det strukna {cancelled} (helt annan betydelse, eller en psyk): "
              "korrigerad poäng",
        "da": "TL: {call} afviger fra den annullerede {cancelled} (helt anden betydning, eller en psyk): "
              "kunstig justeret score"},
    "wrong_board_judgement.same": {
        "en": "Director: it does not differ; {lho} repeats his {lho_call}",
        "sv": "TL: det skiljer sig inte; {lho} upprepar sitt {lho_call}",
        "da": "TL: den afviger ikke; {lho} gentager sin {lho_call}"},
    "wrong_board_repeat.cancel": {
        "en": "Director: {call} differs from {earlier} in the first auction: the board is cancelled "
              "(artificial adjusted scores)",
        "sv": "TL: {call} skiljer sig från {earlier} i den första budgivningen: brickan stryks "
              "(korrigerad poäng)",
        "da": "TL: {call} afviger fra {earlier} i de første meldinger: spillet annulleres "
              "(kunstig justeret score)"},
    "wrong_board_repeat.stand": {
        "en": "Director: {seat} made no call in the first auction (newly seated): {call} stands, the auction goes on",
        "sv": "TL: {seat} bjöd inte i den första budgivningen (nyss kommen): {call} står kvar, budgivningen fortsätter",
        "da": "TL: {seat} meldte ikke i de første meldinger (lige kommet): {call} står ved magt, meldingerne fortsætter"},
    "oot_judgement.comparable.yes": {
        "en": "Director: {call} is comparable to the cancelled {withdrawn} (Law 23A)",
        "sv": "TL: {call} är jämförbart med det upphävda {withdrawn} (lag 23A)",
        "da": "TL: {call} er sammenlignelig med den annullerede {withdrawn} (§ 23A)"},
    "oot_judgement.comparable.no": {"en": "Director: not comparable", "sv": "TL: inte jämförbart",
                                    "da": "TL: ikke sammenlignelig"},
    "oot_judgement.same_denomination.yes": {
        "en": "Director: {call} is in the same denomination as the cancelled {withdrawn}",
        "sv": "TL: {call} är i samma benämning som det upphävda {withdrawn}",
        "da": "TL: {call} er i samme benævnelse som den annullerede {withdrawn}"},
    "oot_judgement.same_denomination.no": {"en": "Director: another denomination", "sv": "TL: annan benämning",
                                           "da": "TL: anden benævnelse"},
    "insufficient_bid_judgement.2007.b1a": {
        "en": "The lowest sufficient bid in the same denomination, and neither bid artificial (Director: incontrovertibly)",
        "sv": "Lägsta tillräckliga bud i samma benämning, och inget av buden artificiellt (TL: obestridligen)",
        "da": "Laveste tilstrækkelige melding i samme benævnelse, og ingen af meldingerne kunstig (TL: uomtvisteligt)"},
    "insufficient_bid_judgement.2007.b1b": {
        "en": "The replacement has the same meaning as, or a more precise meaning than, the insufficient bid",
        "sv": "Ersättningsbudet har samma eller en mer precis betydelse än det otillräckliga budet",
        "da": "Erstatningsmeldingen har samme eller en mere præcis betydning end det utilstrækkelige bud"},
    "insufficient_bid_judgement.2007.none": _IB_NONE,
    "insufficient_bid_judgement.2017.b1a": {
        "en": "The lowest sufficient bid showing the same denomination(s) as the insufficient bid",
        "sv": "Lägsta tillräckliga bud som visar samma benämning(ar) som det otillräckliga budet",
        "da": "Laveste tilstrækkelige bud, der viser samme benævnelse(r) som det utilstrækkelige bud"},
    "insufficient_bid_judgement.2017.b1b": {
        "en": "The replacement is a comparable call (Law 23A)",
        "sv": "Ersättningsbudet är ett jämförbart bud (lag 23A)",
        "da": "Erstatningsmeldingen er en sammenlignelig melding (§ 23A)"},
    "insufficient_bid_judgement.2017.none": _IB_NONE,
}
