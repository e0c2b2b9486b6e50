"""The engine's vocabulary of what a ruling imposes (shared_rules.types): every obligation the
state lists is one `Obligation` kind, every kind is one the engine gives, and every lead
restriction kind is one of `LeadRestriction`. The tablet words each kind (tablet_app/law_texts.py),
so a kind outside the enums would reach the table unworded."""
import pytest

from shared_rules import laws
from shared_rules.state_view import obligation_kind
from shared_rules.types import LeadRestriction, Obligation
from tests.rules.helpers import run, td


def _cancel(*specs):
    return [*specs, td("call_out_of_rotation", "cancel")]


# one auction per kind, each with the Law that gives it (board 1: North deals)
GIVES = [
    (Obligation.PASS_NEXT_TURN, "fsb-2007", _cancel("N 1S", "S P"), "2007 L30B1"),
    (Obligation.PASS_REST, "fsb-2007", _cancel("N 1S", "W P"), "2007 L30B2"),
    (Obligation.NO_DOUBLE, "fsb-2007", _cancel("N 1S", "W P"), "2007 L30B2(b)"),
    (Obligation.REPEAT, "fsb-2007", [*_cancel("E 1H"), "N P"], "2007 L31A1, L32B1"),
    (Obligation.REPEAT, "dbf-2017", [*_cancel("E 1H"), "N P"], "2017 L31A1, L32A1"),
    (Obligation.PASS_NEXT_TURN, "dbf-2017", _cancel("N 1S", "S P"), "2017 L30A"),
]


@pytest.mark.parametrize("kind,profile,specs,law", GIVES)
def test_each_obligation_kind_is_given_by_its_law(kind, profile, specs, law):
    state = run(profile, *specs)
    assert (kind, law) in [(obligation_kind(o), o["law"]) for o in state["obligations"]]


def test_every_obligation_kind_is_given_by_some_auction():
    assert {kind for kind, *_ in GIVES} == set(Obligation)


def test_an_entry_that_is_no_obligation_is_refused():
    with pytest.raises(ValueError, match="not an obligation"):
        obligation_kind({"seat": "N", "must_pass": None, "law": "2007 L30A"})


def test_every_lead_restriction_kind_of_the_edition_tables_is_a_member():
    kinds = {v for table in laws.LEAD.values() for k, v in table.items() if k in ("suit", "other")}
    assert kinds | {LeadRestriction.NONE} == set(LeadRestriction)
