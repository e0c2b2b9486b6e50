"""The rule objects: one per irregularity kind, each with its Law in both editions and the texts of
every option it offers, listed once in detection order; and the fold's plainly-legal shortcut,
which must agree with asking every rule."""
from __future__ import annotations

import gzip
import json
import pathlib
import random

import pytest

from shared_rules import laws, rules
from shared_rules.calls import CALL_CODE
from shared_rules.rule import DecidingRule, DetectedRule, LhoRule
from shared_rules.table import EventError, Table
from shared_rules.texts import OPTION_TEXTS, UNINTENDED
from shared_rules.types import SEATS, Decision, IrregularityKind
from tests.rules.helpers import step

EDITIONS = tuple(laws.REFS)
DATA = pathlib.Path(__file__).parent / "data" / "step_golden.json.gz"


def test_every_irregularity_kind_has_exactly_one_rule_object():
    kinds = [rule.kind for rule in rules.ALL]
    assert sorted(kinds) == sorted(IrregularityKind) and len(set(kinds)) == len(kinds)


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("rule", rules.ALL, ids=lambda r: r.kind)
def test_every_rule_cites_its_law_in_both_editions(rule, edition):
    law = rule.law_for(edition)
    assert law.startswith(f"{edition} L"), law


def test_every_decision_is_answered_by_one_rule_and_every_text_is_one_rules():
    owners = [d for rule in rules.ALL for d in rule.decisions]
    assert sorted(owners) == sorted(Decision) and len(set(owners)) == len(owners)
    declared = {t for rule in rules.ALL for t in rule.texts}
    assert declared <= set(OPTION_TEXTS)
    assert set(OPTION_TEXTS) == declared | {UNINTENDED}
    for rule in rules.ALL:
        assert isinstance(rule, DecidingRule) is bool(rule.decisions), rule.kind
        assert bool(rule.texts) is bool(rule.decisions), rule.kind


def test_the_detection_order_is_the_documented_one():
    # docs/rules-engine.md "Detection order": L39 once the auction is over; L25 at the LHO's turn;
    # L38, L36 (before L37: L37A excludes it), L37, L27 in turn; the TD decides; else L28-L32.
    assert [r.kind for r in rules.DETECTION_ORDER] == [
        "call_after_final_pass", "change_of_call", "bid_above_seven", "inadmissible_double",
        "call_when_required_to_pass", "insufficient_bid", "restricted_call", "repeat_not_made",
        "call_out_of_rotation"]
    assert all(isinstance(r, DetectedRule) for r in rules.DETECTION_ORDER)
    lho_accepts = {r.kind for r in rules.DETECTION_ORDER if isinstance(r, LhoRule)}
    assert lho_accepts == {r.kind for r in rules.DETECTION_ORDER} - {"restricted_call", "repeat_not_made"}


def test_the_texts_the_engine_offers_are_the_deciding_rules_own():
    # over the law-case logs: every option of every pending decision is worded by a text of the
    # rule that owns the decision, and every irregularity recorded cites its edition's Law
    cases = json.loads(gzip.decompress(DATA.read_bytes()))
    seen: set[str] = set()
    for case in cases:
        log = case["log"]
        table = Table(log["profile"], log["board"], log.get("policy"), tuple(log.get("no_alerts_by", ())))
        for ev in log["events"]:
            try:
                state = step(table, ev)
            except EventError:
                continue
            pending = state["pending"]
            if pending:
                owner = next(r for r in rules.ALL if pending["kind"] in r.decisions)
                for option in pending["options"]:
                    assert option["text"] in owner.texts, (pending["kind"], option)
                    seen.add(option["text"])
            for irregularity in state["irregularities"]:
                assert irregularity["law"].startswith(f"{state['edition']} L"), irregularity
    assert len(seen) >= 25


@pytest.mark.parametrize("profile", ["fsb-2007", "dbf-2017", "wbf-screens-2017"])
def test_the_plainly_legal_shortcut_agrees_with_every_rule(profile):
    # Fold.classify (and Table's per-call path) take a call in turn as plainly legal without
    # asking the rules; at random points of random auctions, for every seat and call, asking
    # every rule in detection order finds nothing whenever the shortcut says legal.
    rng = random.Random(5)
    codes = list(CALL_CODE.values())
    names = list(CALL_CODE)
    for board in range(1, 17):
        table = Table(profile, board)
        t = 0.0
        for _ in range(30):
            fold = table._f  # the engine's working state: this is the engine's own invariant
            if fold.pending is None and fold.status == "bidding":
                for seat in range(4):
                    for code in codes:
                        if seat == fold.turn and (code == -1 or fold.last_bid < code <= 34) \
                                and seat not in fold.must_pass and seat not in fold.repeat:
                            assert fold.detect(seat, code, fold.turn) is None, (board, seat, code)
                            assert fold.classify(seat, code) is None
            state = table.state()
            t += 1.0
            if state["pending"]:
                opt = rng.choice(state["pending"]["options"])
                ev = {"t": t, "td": state["pending"]["kind"], "choice": opt["id"]}
                if opt.get("needs_call"):
                    ev["call"] = rng.choice(names[:15])
            else:
                seat = state["next"] if state["next"] and rng.random() < 0.85 else rng.choice(SEATS)
                ev = {"t": t, "seat": seat, "call": rng.choice(state["legal_calls"][:8] or names)}
            try:
                step(table, ev)
            except EventError:
                pass
