"""The texts of the TD's options, by key: the state gives each option its `text` key and `params`,
so the tablet can show it in the TD's language; `label` is the English text made from them.

A key names the decision and the option; `{...}` fields are filled from the option's params
(calls as "1H", seats as "N").
"""
from __future__ import annotations

from typing import Final

from shared_rules.laws import IB_QUESTIONS

OPTION_TEXTS: Final[dict[str, str]] = {
    "unintended": "TD: the call was unintended and is replaced by the intended call",
    "insufficient_bid.accept": "LHO accepts the insufficient bid (by calling)",
    "insufficient_bid.replace": "the offender replaces it (TD then rules under L27B)",
    "call_out_of_rotation.accept": "LHO accepts the call out of rotation (by calling)",
    "call_out_of_rotation.cancel": "not accepted: the call is cancelled and the Law 30-32 rectification applies",
    "call_out_of_rotation.cancel_screen": "not accepted: the call did not pass the screen; it is cancelled with no "
                                          "further rectification",
    "call_out_of_rotation.cancel_artificial": "not accepted, and TD: the pass was artificial or passed an artificial call",
    "call_out_of_rotation.cancel_artificial_call": "not accepted, and TD: the call was artificial; Laws 30-32 apply "
                                                   "to the denominations it showed",
    "change_of_call.unintended": "TD: the first call was unintended; the new call replaces it",
    "change_of_call.accept": "LHO accepts the change (by calling)",
    "change_of_call.cancel": "the change is cancelled; the first call stands",
    "inadmissible_double.cancel": "the double/redouble is cancelled; offender's partner must pass for the rest of the auction",
    "call_when_required_to_pass.cancel": "the call is replaced by a pass; both players of the side pass for the rest",
    "bid_above_seven.cancel": "the bid is cancelled and replaced by a pass; both players of the side pass for the rest",
    "call_after_final_pass.cancel": "the call is cancelled",
    "call_after_final_pass.unintended": "TD: the final pass was unintended; the auction reopens with the intended call",
    "td_decides.stand": "TD: the call stands",
    "td_decides.cancel": "TD: the call is cancelled; the player calls again",
    "wrong_board_judgement.differs": "TD: {call} differs from the cancelled {cancelled} (very different meaning, or a "
                                     "psych): artificial adjusted score",
    "wrong_board_judgement.same": "TD: it does not differ; {lho} repeats his {lho_call}",
    "oot_judgement.comparable.yes": "TD: {call} is comparable to the cancelled {withdrawn} (Law 23A)",
    "oot_judgement.comparable.no": "TD: not comparable",
    "oot_judgement.same_denomination.yes": "TD: {call} is in the same denomination as the cancelled {withdrawn}",
    "oot_judgement.same_denomination.no": "TD: another denomination (or the cancelled call was an artificial pass)",
    **{f"insufficient_bid_judgement.{edition}.{key}": text
       for edition, questions in IB_QUESTIONS.items() for key, text in questions.items()},
}


def option_text(key: str, params: dict[str, str]) -> str:
    return OPTION_TEXTS[key].format(**params)
