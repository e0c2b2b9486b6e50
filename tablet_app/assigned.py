"""The director's assigned adjusted score (Law 12C1) as the result record's `adjusted` block.

The TD gives, for both sides at once or for each side apart, one or more outcomes: a contract,
its declarer and the tricks taken, each with its weight in percent (an assigned score is one
outcome of 100 %; a weighted score several that add up to 100 %). Which Law each is, by edition,
is `shared_rules.laws.ADJUSTED_SCORE`; who may weight is the regulation profile's `adjusted`
(2017 L12C1(c): the director; the Swedish 2007 L12C1(c): an appeals committee and the Laws
Commission only). The block is the one `shared_rules.scoring.adjusted` scores and
`shared_rules.records.result.check_adjusted` checks (docs/scoring.md "Adjusted scores in the
result record"); nothing else is invented here.

Pure: every refusal is a keyed `Refused` (tablet_app/adjusted_texts.py words it for the table)
and nothing is built from input that is refused.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, TypedDict

from shared_rules import laws
from shared_rules.profiles import Profile
from shared_rules.records.fields import CONTRACT_RE
from shared_rules.types import SEATS
from tablet_app.control.errors import Refused

_SHORT_NT = re.compile(r"[1-7]N(X|XX)?")
MAX_OUTCOMES = 6  # a weighted score the director can still read back at the table


class Outcome(TypedDict, total=False):
    """One outcome as the director gives it: `weight` in whole percent (100 for an assigned score)."""

    contract: str
    declarer: str | None
    tricks: int | None
    weight: int


def _contract(value: Any) -> str:
    text = value.strip().upper().replace(" ", "") if isinstance(value, str) else value
    if isinstance(text, str) and _SHORT_NT.fullmatch(text):
        text = text[:2] + "T" + text[2:]  # 3N -> 3NT, as the scorer's command line takes it
    if text in ("P", "PASS"):
        return "PASS"
    if not isinstance(text, str) or not CONTRACT_RE.match(text):
        raise Refused(f"{value!r} is not a contract (level 1-7, C D H S or NT, X or XX; or Pass): nothing was "
                      "changed", "adjusted.contract", contract=str(value))
    return text


def outcome(given: Any) -> dict[str, Any]:
    """One outcome checked: the contract exists, a declarer for it, tricks 0-13. No points are
    kept: the scoring takes them from the contract and the board's vulnerability (Law 77)."""
    if not isinstance(given, Mapping):
        raise Refused("each outcome is a contract, its declarer and the tricks", "adjusted.no_outcome")
    contract = _contract(given.get("contract"))
    if contract == "PASS":
        return {"contract": "PASS"}
    declarer, tricks = given.get("declarer"), given.get("tricks")
    if declarer not in SEATS:
        raise Refused(f"{contract}: name its declarer (N, E, S or W): nothing was changed", "adjusted.declarer",
                      contract=contract)
    if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 <= tricks <= 13:
        raise Refused(f"{contract}: tricks are a whole number from 0 to 13, not {tricks!r}: nothing was changed",
                      "adjusted.tricks", contract=contract, tricks=str(tricks))
    return {"contract": contract, "declarer": declarer, "tricks": tricks}


def _weights(given: Sequence[Any]) -> list[int]:
    if len(given) == 1 and given[0].get("weight") in (None, 100):
        return [100]
    out = []
    for o in given:
        w = o.get("weight")
        if isinstance(w, bool) or not isinstance(w, int) or not 1 <= w <= 99:
            raise Refused(f"a weight is a whole percentage from 1 to 99, not {w!r}: nothing was changed",
                          "adjusted.weight", weight=str(w))
        out.append(w)
    if sum(out) != 100:
        raise Refused(f"the weights must add up to 100 % (they add up to {sum(out)} %): nothing was changed",
                      "adjusted.weights", total=sum(out))
    return out


def side(given: Any, profile: Profile) -> dict[str, Any]:
    """One side's score: {contract, declarer, tricks} for one outcome, {outcomes: [...]} for several
    (weights as exact fractions of 1, as the scoring reads them: "3/5")."""
    if isinstance(given, Mapping) or not isinstance(given, Sequence) or not given:
        raise Refused("give at least one outcome: a contract, its declarer and the tricks", "adjusted.no_outcome")
    if len(given) > MAX_OUTCOMES:
        raise Refused(f"at most {MAX_OUTCOMES} outcomes", "adjusted.too_many", most=MAX_OUTCOMES)
    outcomes = [outcome(o) for o in given]
    seen = [tuple(sorted(o.items())) for o in outcomes]
    if len(set(seen)) != len(seen):
        raise Refused("the same outcome is given twice: give it once with both weights added",
                      "adjusted.twice")
    weights = _weights(given)
    if len(outcomes) == 1:
        return outcomes[0]
    if not profile.adjusted.weighting_by_td:
        raise Refused(f"under {profile.adjusted.law} the director does not weight a score: give one outcome "
                      "(an appeals committee weights it)", "adjusted.no_weighting", law=profile.adjusted.law)
    return {"outcomes": [{"weight": str(Fraction(w, 100)), **o} for w, o in zip(weights, outcomes, strict=True)]}


def block(ns: Any, ew: Any, profile: Profile) -> dict[str, Any]:
    """The `adjusted` block of the TD's ruling: `ew` None (or the same as `ns`) scores both sides
    alike; otherwise each side gets its own (2007 L12C1(e), 2017 L12C1(e))."""
    law = laws.ADJUSTED_SCORE[profile.edition]
    one = side(ns, profile)
    other = one if ew is None else side(ew, profile)
    if other != one:
        return {"kind": "split", "ns": one, "ew": other, "law": law["split"]}
    if "outcomes" in one:
        return {"kind": "weighted", "ruled_by": "td", "outcomes": one["outcomes"], "law": law["weighted"]}
    return {"kind": "assigned", **one, "law": law["assigned"]}
