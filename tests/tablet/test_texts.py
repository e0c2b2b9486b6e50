"""Every name the engine reports has the tablet's words in English, Swedish and Danish, generated
from the engine's own enums (shared_rules.types) and from the options it offers: a kind, decision,
timing flag, obligation or option the engine gains without texts here fails."""
from __future__ import annotations

import gzip
import json
import pathlib
from typing import Any

import pytest

from shared_rules.outcome import Accepted
from shared_rules.table import Table
from shared_rules.types import Decision, IrregularityKind, MustPass, OptionId, Resolution, TimingKind
from tablet_app import i18n

CORPUS = pathlib.Path(__file__).parents[1] / "rules" / "data" / "step_golden.json.gz"
FALLBACK = "<the engine's English>"


def _offered() -> tuple[set[tuple[str, str]], set[str]]:
    """(decision, option id) of every option the engine offered, and every wrong-board outcome it
    reported, over the rules tests' logs (tests/rules/data: the law cases and random sessions)."""
    options: set[tuple[str, str]] = set()
    outcomes: set[str] = set()
    for case in json.loads(gzip.decompress(CORPUS.read_bytes())):
        log = case["log"]
        table = Table(log["profile"], log["board"], log.get("policy"), tuple(log.get("no_alerts_by", ())))
        for ev in log["events"]:
            got = table.step(ev)
            if not isinstance(got, Accepted):
                continue
            st = got.state
            if st["pending"]:
                options |= {(st["pending"]["kind"], o["id"]) for o in st["pending"]["options"]}
            if st["wrong_board"]:
                outcomes.add(st["wrong_board"]["outcome"])
    return options, outcomes


OFFERED, OUTCOMES = _offered()


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize(("texts", "enum", "name"), [
    (i18n.IRREGULARITIES, IrregularityKind, i18n.irregularity_name),
    (i18n.DECISIONS, Decision, i18n.decision_name),
    (i18n.TIMING_FLAGS, TimingKind, i18n.flag_name),
], ids=["irregularities", "decisions", "timing_flags"])
def test_every_engine_name_has_its_words_in_every_language(texts: dict[Any, dict[str, str]], enum: Any,
                                                             name: Any, lang: str) -> None:
    for member in enum:
        words = texts.get(member, {}).get(lang)
        assert words, f"{enum.__name__}.{member.name} has no text in {lang}"
        assert name(member.value, lang) == words  # the state's plain string finds it too


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_obligation_has_its_words_in_every_language(lang: str) -> None:
    for must in MustPass:
        words = i18n.OBLIGATIONS[must][lang].format(seat=i18n.seat_name("E", lang))
        assert i18n.obligation_text({"seat": "E", "must_pass": must.value}, lang) == words
    repeat = i18n.obligation_text({"seat": "E", "must_pass": None, "must_repeat": "1H"}, lang)
    no_double = i18n.obligation_text({"seat": "E", "must_pass": None, "may_not_double": True}, lang)
    assert i18n.seat_name("E", lang) in repeat and "1H" in repeat
    assert len({repeat, no_double, *(i18n.OBLIGATIONS[m][lang] for m in MustPass)}) == 2 + len(MustPass)


def test_the_corpus_makes_the_engine_offer_every_decision_and_option():
    assert {d for d, _ in OFFERED} == set(Decision)
    assert {o for _, o in OFFERED} == set(OptionId)


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_option_the_engine_offers_has_its_words_in_every_language(lang: str) -> None:
    names = {"lho": "L", "offender": "O", "partner": "P", "call": "1H"}
    missing = sorted((d, o) for d, o in OFFERED
                     if i18n.option_label(d, {"id": o, "label": FALLBACK}, lang, names) == FALLBACK)
    assert missing == []


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_wrong_board_outcome_has_its_words(lang: str) -> None:
    assert OUTCOMES and OUTCOMES <= set(Resolution)
    for outcome in OUTCOMES:
        assert i18n.wrong_board_outcome(outcome, lang) == i18n.WRONG_BOARD_OUTCOMES[Resolution(outcome)][lang]
