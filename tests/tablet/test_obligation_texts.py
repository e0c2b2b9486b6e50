"""What the table is told after a ruling: every obligation and lead restriction the engine can
return, on the tablet (the consequences, each player's strip) and in the message the tablet sends
the box, in English, Swedish and Danish; and every option of the Law worded for the call it
concerns. The check is generated from the engine's own vocabulary (shared_rules.types), so a new
kind without its texts fails here.

Board 1: North deals.
"""
import re

import pytest

from shared_rules import rules
from shared_rules.texts import OPTION_TEXTS
from shared_rules.types import Decision, IrregularityKind, LeadRestriction, Obligation, TimingKind
from tablet_app import i18n, law_texts, present, views
from tests.rules.helpers import run
from tests.tablet.conftest import SESSION
from tests.tablet.test_screens_log import calls

PIN = "4321"
FSB = {**SESSION, "profile": "fsb-2007", "policy": "record"}
DBF = {**SESSION, "profile": "dbf-2017", "policy": "record"}
BOTH = pytest.mark.parametrize("session,ed", [(FSB, 2007), (DBF, 2017)])

# The words that say what an obligation is, per language: a text for one kind says its own word
# and none of another's ("måste passa resten" is not "upprepa").
WORDS = {
    Obligation.PASS_NEXT_TURN: {"en": "next turn", "sv": "nästa gång", "da": "næste gang"},
    Obligation.PASS_REST: {"en": "rest of the auction", "sv": "resten av budgivningen", "da": "resten af meldingerne"},
    Obligation.REPEAT: {"en": "repeat", "sv": "upprepa", "da": "gentage"},
    Obligation.NO_DOUBLE: {"en": "double", "sv": "dubbla", "da": "doble"},
}
BOX_WORDS = {
    Obligation.PASS_NEXT_TURN: {"en": "Must pass", "sv": "Måste passa", "da": "Skal passe"},
    Obligation.PASS_REST: {"en": "Pass to end", "sv": "Passa ut", "da": "Pas til slut"},
    Obligation.REPEAT: {"en": "Repeat", "sv": "Upprepa", "da": "Gentag"},
    Obligation.NO_DOUBLE: {"en": "No X/XX", "sv": "Ej X/XX", "da": "Ikke X/XX"},
}
SAMPLE = {Obligation.PASS_NEXT_TURN: {"must_pass": "next_turn"}, Obligation.PASS_REST: {"must_pass": "rest_of_auction"},
          Obligation.REPEAT: {"must_pass": None, "must_repeat": "1H"},
          Obligation.NO_DOUBLE: {"must_pass": None, "may_not_double": True}}


def ob(kind, seat="E", law="2007 L31A1"):
    return {"seat": seat, **SAMPLE[kind], "law": law}


# ---------------------------------------------------------------- the vocabulary, every kind
@pytest.mark.parametrize("kind", list(Obligation))
@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_obligation_kind_is_told_on_the_tablet_in_its_own_words(kind, lang):
    text = law_texts.obligation_line(ob(kind), lang)
    assert text.startswith(i18n.seat_name("E", lang) + " ")
    assert WORDS[kind][lang] in text, text
    for other, words in WORDS.items():
        if other is not kind and not (kind is Obligation.NO_DOUBLE and other is Obligation.PASS_NEXT_TURN):
            assert words[lang] not in text, (kind, other, text)
    if kind is Obligation.REPEAT:
        assert present.call_text("1H", lang) in text


@pytest.mark.parametrize("kind", list(Obligation))
@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_obligation_kind_has_a_box_message_that_fits_and_says_the_kind(kind, lang):
    text = law_texts.box_message(ob(kind), lang)
    assert text.startswith(BOX_WORDS[kind][lang]) and len(text) <= 12, text
    for other, words in BOX_WORDS.items():
        if other is not kind:
            assert not text.startswith(words[lang]), (kind, text)
    if kind is Obligation.REPEAT:
        assert text.endswith(" 1H") and law_texts.box_message(ob(kind) | {"must_repeat": "XX"}, lang).endswith(" XX")


@pytest.mark.parametrize("kind", list(Obligation))
@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_link_can_put_every_obligations_box_message_in_the_tables_language(kind, lang):
    english = law_texts.box_message(ob(kind))
    assert law_texts.translate_box(english, lang) == law_texts.box_message(ob(kind), lang)
    assert law_texts.translate_box("TD is coming", lang) is None
    if kind is Obligation.REPEAT:
        assert law_texts.translate_box("Repeat 3NT", "da", call=lambda c: c.replace("NT", "UT")) == "Gentag 3UT"


@pytest.mark.parametrize("kind", list(LeadRestriction))
@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_lead_restriction_kind_is_told_in_every_language(kind, lang):
    text = law_texts.lead_line({"leader": "W", "kind": kind, "suits": ["H", "S"], "law": "2007 L26A2"}, lang)
    assert text.startswith(i18n.tr("lead_restriction", lang, text=i18n.seat_name("W", lang)))
    assert "_" not in text and text.endswith("(2007 L26A2)")
    if kind is LeadRestriction.NONE:  # 2007 L26A1: no restriction, and the table is told so
        assert law_texts.LEADS[kind][lang] in text
    elif kind is not LeadRestriction.PROHIBIT_ANY_SUIT:
        assert "\u2665 \u2660" in text


@pytest.mark.parametrize("lang", ("sv", "da"))
def test_every_kind_the_engine_names_has_its_words_in_swedish_and_danish(lang):
    english = {**{f"irr_{k}": k for k in IrregularityKind}, **{f"irr_{k}": k for k in Decision},
               **{f"flag_{k}": k for k in TimingKind}}
    missing = [key for key in english if i18n.T.get(key, {}).get(lang) in (None, i18n.T.get(key, {}).get("en"))]
    assert missing == []
    for k in [*IrregularityKind, *Decision]:
        assert i18n.irregularity_name(k, lang) != i18n.irregularity_name(k, "en")


# ---------------------------------------------------------------- the Law's options, every text
def _options():
    for rule in rules.ALL:
        yield from rule.texts
    yield from OPTION_TEXTS


@pytest.mark.parametrize("text_key", sorted(set(_options())))
def test_every_option_of_the_law_has_its_text_in_every_language(text_key):
    assert text_key in OPTION_TEXTS
    entry = law_texts.option_entry(text_key)
    assert entry is not None and set(entry) == set(i18n.LANGS), text_key
    fields = set(re.findall(r"{(\w+)}", entry["en"]))
    for lang in i18n.LANGS:
        assert set(re.findall(r"{(\w+)}", entry[lang])) == fields, (text_key, lang)


PASS_WORD = {"en": "pass", "sv": "pass", "da": "pas"}


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_L29C_the_artificial_option_speaks_of_the_call_that_was_made(lang):
    """2007/2017 L29C, L30C: the TD may find an artificial pass (ruled under L31); for a bid,
    double or redouble the option concerns the call and the denominations it showed."""
    bid = run("fsb-2007", "N 1D", "W 2C")["pending"]
    passed = run("fsb-2007", "N 1D", "W P")["pending"]
    label = {p["call"]: next(present_option(p, o, lang) for o in p["options"] if o["id"] == "cancel_artificial")
             for p in (bid, passed)}
    assert PASS_WORD[lang] in label["P"].lower()
    assert PASS_WORD[lang] not in label["2C"].lower(), label["2C"]


def present_option(pending, option, lang):
    return i18n.option_label(pending["kind"], option, lang, present.seat_names(pending, lang))


# ---------------------------------------------------------------- the table obeys what it is told
@BOTH
def test_L31A1_the_table_is_told_to_repeat_the_call_and_obeying_it_is_no_irregularity(
        make_controller, clock, session, ed):
    # East bids 1H at North's turn (his RHO's); not accepted; North passes: East must repeat 1H
    ctl = make_controller()
    ctl.setup(session)
    calls(ctl, clock, ("E", "1H"))
    ctl.td_decide(PIN, "cancel")
    calls(ctl, clock, ("N", "P"))
    snap = ctl.snapshot()
    lines = present.consequences(snap["state"], "sv")
    assert f"Öst måste upprepa 1\u2665  ({ed} L31A1, L32{'B' if ed == 2007 else 'A'}1)" in lines
    assert not any("resten" in line for line in lines)
    assert "Öst måste upprepa 1\u2665" in present.seat_strip(snap, "E", "sv")
    assert "Øst skal gentage 1\u2665" in present.seat_strip(snap, "E", "da")
    box = views.box_view(ctl, "E")
    assert box["message"] == "Repeat 1H" and box["allowed"] == ["1H"]
    calls(ctl, clock, ("E", "1H"))  # as told
    st = ctl.estate
    assert st["pending"] is None and st["obligations"] == [] and st["next"] == "S"
    assert [i["kind"] for i in st["irregularities"]] == ["call_out_of_rotation"]


def test_2007_L30B2_each_obligation_on_its_own_line_and_box(make_controller, clock):
    # West passes at his partner's turn after a bid: West passes for the rest, East may not double
    ctl = make_controller()
    ctl.setup(FSB)
    calls(ctl, clock, ("N", "1S"), ("W", "P"))
    ctl.td_decide(PIN, "cancel")
    lines = present.consequences(ctl.estate, "en")
    assert "West must pass for the rest of the auction  (2007 L30B2)" in lines
    assert "East may not double or redouble at his next turn  (2007 L30B2(b))" in lines
    assert views.box_view(ctl, "E")["message"] == "No X/XX"
    calls(ctl, clock, ("E", "P"), ("S", "2S"))
    assert views.box_view(ctl, "W")["message"] == "Pass to end"

