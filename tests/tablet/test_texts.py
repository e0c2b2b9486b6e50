"""Every name the engine reports has the tablet's words in English, Swedish and Danish, generated
from the engine's own enums (shared_rules.types) and from the options it offers: a kind, decision,
timing flag or option the engine gains without texts here fails. The obligations and lead
restrictions, and every option text key the rules declare, are checked in
tests/tablet/test_obligation_texts.py."""
from __future__ import annotations

import gzip
import json
import pathlib
from typing import Any

import pytest

from shared_rules.outcome import Accepted
from shared_rules.table import Table
from shared_rules.types import Decision, IrregularityKind, OptionId, Resolution, TimingKind
from tablet_app import i18n

CORPUS = pathlib.Path(__file__).parents[1] / "rules" / "data" / "step_golden.json.gz"
FALLBACK = "<the engine's English>"


def _offered() -> tuple[dict[tuple[str, str, str], dict[str, Any]], set[str]]:
    """(decision, option id, text key) of every option the engine offered, with one option as
    offered (its params), and every wrong-board outcome it reported, over the rules tests' logs
    (tests/rules/data: the law cases and random sessions)."""
    options: dict[tuple[str, str, str], dict[str, Any]] = {}
    outcomes: set[str] = set()
    for case in json.loads(gzip.decompress(CORPUS.read_bytes())):
        log = case["log"]
        table = Table(log["profile"], log["board"], log.get("policy"), tuple(log.get("no_alerts_by", ())),
                      log.get("screens"))
        for ev in log["events"]:
            got = table.step(ev)
            if not isinstance(got, Accepted):
                continue
            st = got.state
            if st["pending"]:
                for o in st["pending"]["options"]:
                    options.setdefault((st["pending"]["kind"], o["id"], o["text"]), o)
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
        if lang != "en":  # said in the table's language, not left in English
            assert words != texts[member]["en"], f"{enum.__name__}.{member.name} is English in {lang}"
        assert name(member.value, lang) == words  # the state's plain string finds it too


def test_the_corpus_makes_the_engine_offer_every_decision_and_option():
    assert {d for d, _, _ in OFFERED} == set(Decision)
    assert {o for _, o, _ in OFFERED} == set(OptionId)


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_option_the_engine_offers_has_its_words_in_every_language(lang: str) -> None:
    names = {"lho": "L", "offender": "O", "partner": "P", "call": "1H"}
    missing = sorted(key for key, option in OFFERED.items()
                     if i18n.option_label(key[0], {**option, "label": FALLBACK}, lang, names) == FALLBACK)
    assert missing == []


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_wrong_board_outcome_has_its_words(lang: str) -> None:
    assert OUTCOMES and OUTCOMES <= set(Resolution)
    for outcome in OUTCOMES:
        assert i18n.wrong_board_outcome(outcome, lang) == i18n.WRONG_BOARD_OUTCOMES[Resolution(outcome)][lang]
