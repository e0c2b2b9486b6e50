"""The texts of the TD's options, by key: the state gives each option its `text` key and `params`,
so the tablet can show it in the TD's language; `label` is the English text made from them.

A key names the decision and the option, `<decision>.<option>` (`key()`), with a variant where
one option has two wordings (the call out of rotation behind a screen, the edition of a Law 27
question); `{...}` fields are filled from the option's params (calls as "1H", seats as "N").
"""
from __future__ import annotations

import functools
from typing import Final

from shared_rules.laws import IB_QUESTIONS
from shared_rules.types import Decision, OptionId

_D, _O = Decision, OptionId
UNINTENDED: Final = "unintended"  # L25A, offered with several decisions: one text for all
TD_DECIDES: Final = "td_decides"  # the Laws are silent (docs/laws/choices.md #8): stand or cancel


@functools.lru_cache(maxsize=256)
def key(*parts: str | int) -> str:
    """The key of an option's text: its decision (or a shared prefix), its option id, variants.
    (Cached: an option is made for every decision the table waits for.)"""
    return ".".join(map(str, parts))


def keys(prefix: str, *options: str) -> tuple[str, ...]:
    """The keys of several options of one decision."""
    return tuple(key(prefix, option) for option in options)


OPTION_TEXTS: Final[dict[str, str]] = {
    UNINTENDED: "TD: the call was unintended and is replaced by the intended call",
    key(_D.INSUFFICIENT_BID, _O.ACCEPT): "LHO accepts the insufficient bid (by calling)",
    key(_D.INSUFFICIENT_BID, _O.REPLACE): "the offender replaces it (TD then rules under L27B)",
    key(_D.INSUFFICIENT_BID, "correct_screen"):
        "the bid did not pass the screen: the offender corrects it to a legal call, with no "
        "rectification; the other side is not told",
    key(_D.CALL_OUT_OF_ROTATION, _O.ACCEPT): "LHO accepts the call out of rotation (by calling)",
    key(_D.CALL_OUT_OF_ROTATION, _O.CANCEL):
        "not accepted: the call is cancelled and the Law 30-32 rectification applies",
    key(_D.CALL_OUT_OF_ROTATION, "cancel_screen"):
        "not accepted: the call did not pass the screen; it is cancelled with no further "
        "rectification",
    key(_D.CALL_OUT_OF_ROTATION, _O.CANCEL_ARTIFICIAL):
        "not accepted, and TD: the pass was artificial or passed an artificial call",
    key(_D.CALL_OUT_OF_ROTATION, "cancel_artificial_call"):
        "not accepted, and TD: the call was artificial; Laws 30-32 apply to the denominations "
        "it showed",
    key(_D.CHANGE_OF_CALL, _O.UNINTENDED):
        "TD: the first call was unintended; the new call replaces it",
    key(_D.CHANGE_OF_CALL, _O.ACCEPT): "LHO accepts the change (by calling)",
    key(_D.CHANGE_OF_CALL, _O.CANCEL): "the change is cancelled; the first call stands",
    key(_D.INADMISSIBLE_DOUBLE, _O.CANCEL):
        "the double/redouble is cancelled; offender's partner must pass for the rest of the "
        "auction",
    key(_D.CALL_WHEN_REQUIRED_TO_PASS, _O.CANCEL):
        "the call is replaced by a pass; both players of the side pass for the rest",
    key(_D.BID_ABOVE_SEVEN, _O.CANCEL):
        "the bid is cancelled and replaced by a pass; both players of the side pass for the rest",
    key(_D.CALL_AFTER_FINAL_PASS, _O.CANCEL): "the call is cancelled",
    key(_D.CALL_AFTER_FINAL_PASS, _O.UNINTENDED):
        "TD: the final pass was unintended; the auction reopens with the intended call",
    key(TD_DECIDES, _O.STAND): "TD: the call stands",
    key(TD_DECIDES, _O.CANCEL): "TD: the call is cancelled; the player calls again",
    key(_D.WRONG_BOARD_JUDGEMENT, _O.DIFFERS):
        "TD: {call} differs from the cancelled {cancelled} (very different meaning, or a psych): "
        "artificial adjusted score",
    key(_D.WRONG_BOARD_JUDGEMENT, _O.SAME): "TD: it does not differ; {lho} repeats his {lho_call}",
    key(_D.WRONG_BOARD_REPEAT, _O.CANCEL):
        "TD: {call} differs from {earlier} in the first auction: the board is cancelled "
        "(artificial adjusted scores)",
    key(_D.WRONG_BOARD_REPEAT, _O.STAND):
        "TD: {seat} made no call in the first auction (newly seated): {call} stands, the auction goes on",
    key(_D.OOT_JUDGEMENT, "comparable", _O.YES):
        "TD: {call} is comparable to the cancelled {withdrawn} (Law 23A)",
    key(_D.OOT_JUDGEMENT, "comparable", _O.NO): "TD: not comparable",
    key(_D.OOT_JUDGEMENT, "same_denomination", _O.YES):
        "TD: {call} is in the same denomination as the cancelled {withdrawn}",
    key(_D.OOT_JUDGEMENT, "same_denomination", _O.NO): "TD: another denomination",
    **{key(_D.INSUFFICIENT_BID_JUDGEMENT, edition, option): text
       for edition, questions in IB_QUESTIONS.items() for option, text in questions.items()},
}


def option_text(text_key: str, params: dict[str, str]) -> str:
    return OPTION_TEXTS[text_key].format(**params)
