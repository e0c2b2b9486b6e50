"""One vocabulary (shared_rules/vocabulary): every member of each enum the engine names, and every
refusal code of the station, has words in English, Swedish and Danish, generated from the enums
themselves, so a member the engine (or the station) gains without words fails here. The tablet
and the director page read these very tables (checked at the end), so neither can fall behind."""
from __future__ import annotations

import string
from enum import Enum
from typing import Any

import pytest

from shared_rules import vocabulary as v
from shared_rules.records import REFUSAL_FIELDS, RefusalCode, Refused
from shared_rules.types import Decision, IrregularityKind, Resolution, Seat, Status, TimingKind

TABLES: list[tuple[str, dict[Any, v.Words], type[Enum]]] = [
    ("irregularities", v.IRREGULARITIES, IrregularityKind),
    ("decisions", v.DECISIONS, Decision),
    ("timing_flags", v.TIMING_FLAGS, TimingKind),
    ("auction_statuses", v.AUCTION_STATUSES, Status),
    ("rulings", v.RULINGS, Resolution),
    ("seat_names", v.SEAT_NAMES, Seat),
    ("seat_letters", v.SEAT_LETTERS, Seat),
    ("refusals", v.REFUSALS, RefusalCode),
]


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


@pytest.mark.parametrize(("name", "table", "enum"), TABLES, ids=[t[0] for t in TABLES])
def test_every_member_has_words_in_every_language(name: str, table: dict[Any, v.Words], enum: type[Enum]) -> None:
    missing = [(m.name, lang) for m in enum for lang in v.LANGUAGES if not (table.get(m) or {}).get(lang, "").strip()]
    assert missing == [], f"{name}: no words for {missing}"
    assert set(table) == set(enum), f"{name}: words for something the enum does not name"
    for member, words in table.items():
        assert set(words) == set(v.LANGUAGES), (name, member)
        assert _fields(words["sv"]) == _fields(words["da"]) == _fields(words["en"]), (name, member)
        assert "_" not in "".join(words.values()).replace("{wrong_tries}", "").replace("{wait_s}", ""), (name, member)


@pytest.mark.parametrize("lang", ["sv", "da"])
def test_the_names_of_the_engine_are_said_in_the_language_not_left_in_english(lang: str) -> None:
    # A name said in English in a Swedish or Danish table is a name nobody translated (the seat
    # letters N and S are the same everywhere).
    same = sorted((name, m.name) for name, table, enum in TABLES for m in enum
                  if table[m][lang] == table[m]["en"] and name != "seat_letters")
    assert same == []


@pytest.mark.parametrize("code", list(RefusalCode))
def test_a_refusals_words_ask_only_for_the_parameters_its_code_carries(code: RefusalCode) -> None:
    assert set(REFUSAL_FIELDS) == set(RefusalCode)
    fields = set(REFUSAL_FIELDS[code])
    for lang in v.LANGUAGES:
        assert _fields(v.REFUSALS[code][lang]) <= fields, (code, lang)
        filled = v.refusal_text(Refused.of(code, **{f: f"<{f}>" for f in fields}), lang)
        assert filled is not None and "{" not in filled, (code, lang)


def test_a_refusal_without_a_parameter_its_words_need_is_no_text() -> None:
    # the caller then shows the station's own text: never a KeyError on a screen
    assert v.refusal_text(Refused.of(RefusalCode.TABLE_KEY_WRONG), "da") is None
    assert v.refusal_text(Refused.of(RefusalCode.TABLE_KEY_WRONG, table="A3"), "da") == (
        "stationen kender intet bord A3 med denne nøgle: kontrollér bordet og dets nøgle (på turneringslederens side)")
    assert v.refusal_text(None, "sv") is None
    assert v.refusal_text(Refused.of(RefusalCode.PIN_LOCKED, wrong_tries=4, wait_s=10), "xx") == (
        "too many wrong PINs: wait 10 s")  # a language not ours: English


@pytest.mark.parametrize(("reply", "read"), [
    ({"error": "x", "status": 403, "code": "table.key_wrong", "params": {"table": "A3"}},
     Refused(RefusalCode.TABLE_KEY_WRONG, {"table": "A3"})),
    ({"error": "x", "status": 422}, None),  # an older station: no code
    ({"code": "table.something_new", "params": {}}, None),  # a newer station's code
    ({"code": "table.key_wrong", "params": {"table": ["A", 3]}}, None),  # not a plain value
    ({"code": "table.key_wrong", "params": "A3"}, None),
    ({"code": ["table.key_wrong"]}, None),
    ("HTTP 403", None),
])
def test_a_reply_gives_its_refusal_only_when_this_side_knows_its_code(reply: Any, read: Refused | None) -> None:
    assert Refused.from_reply(reply) == read


def test_the_tablet_and_the_director_page_read_the_one_vocabulary() -> None:
    from station import director_texts as tx
    from tablet_app import i18n

    assert i18n.IRREGULARITIES is v.IRREGULARITIES and i18n.DECISIONS is v.DECISIONS
    assert i18n.TIMING_FLAGS is v.TIMING_FLAGS
    for kind in IrregularityKind:
        for lang in v.LANGUAGES:
            assert i18n.irregularity_name(kind.value, lang) == tx.words("irregularity", kind.value, lang) \
                == v.IRREGULARITIES[kind][lang]
    for decision in Decision:
        assert tx.words("reason", decision.value, "da") == i18n.decision_name(decision.value, "da")
    for resolution in Resolution:
        assert tx.words("ruling", resolution.value, "sv") == v.RULINGS[resolution]["sv"]
    for seat in Seat:
        assert tx.seat(seat.name, "sv") == v.SEAT_LETTERS[seat]["sv"]
        assert i18n.seat_name(seat.name, "da") == v.SEAT_NAMES[seat]["da"]
