"""Law 26: the lead restriction after a withdrawn call, judged when the offender's partner leads.

Pure functions over the standing calls. The Law asks what the offender specified (2007) or showed
(2017) "in the legal auction": the auction as it ended, not as it stood when the call was
withdrawn, so a restriction is worked out from the calls standing when it is read (the state),
and a suit the offender bids after the irregularity counts. Natural suit bids are the only calls
whose suits the engine can see; what an artificial call related to or showed is the TD's
judgement, and he can adjust at the lead (docs/laws/L26.md).

2007 L26A: a withdrawn call related only to a specific suit or suits:
  A1: every such suit was specified in the legal auction by the same player -> no restriction
      (2007 L16D still applies);
  A2: otherwise declarer may require or prohibit a lead in such a suit (one he names).
2007 L26B: any other withdrawn call (notrump, pass, double, redouble) -> declarer may prohibit a
  lead in any one suit.
2017 L26B: a withdrawn call not replaced by a comparable call -> declarer may prohibit a lead in
  one suit the offender has not shown in the legal auction; when he has shown all four, there is
  none to prohibit: no restriction. (2017 L26A, the comparable call, never reaches this module:
  the engine records no candidate then.)
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from shared_rules import laws
from shared_rules.calls import STRAINS, call_name, strain
from shared_rules.types import LeadRestriction

SUITS = ("C", "D", "H", "S")


def related_suits(code: int) -> list[int]:
    """The suits a withdrawn call relates to, as far as the boxes can tell: the suit of a suit
    bid at any level (an 8S bid relates to spades as much as 7S), none for NT, P, X, XX."""
    return [strain(code)] if code >= 0 and strain(code) < 4 else []


def specified_by(seat: int, calls: Iterable[tuple[int, int]]) -> set[int]:
    """Suits `seat` named in a bid in the legal auction (2007 "specificerades"; 2017 "vist")."""
    return {strain(code) for s, code in calls if s == seat and code >= 0 and strain(code) < 4}


def restriction(edition: int, offender: int, withdrawn: int, calls: list[tuple[int, int]],
                shown: tuple[int, ...] | None = None) -> dict[str, Any]:
    """What declarer may do about the offender's partner's first lead, given the legal auction
    `calls` ((seat, code) pairs). `shown`: the denominations an artificial call showed, as the TD
    ruled (L29C), instead of the one it named. `kind` "none" means no restriction (2007 L26A1; 2017
    L26B when the offender has shown every suit)."""
    table = laws.LEAD[edition]
    related = related_suits(withdrawn) if shown is None else [i for i in shown if i < 4]
    specified = specified_by(offender, calls)
    kind: str
    if table["suits"] == "unshown":  # 2017 L26B
        suits = [i for i in range(4) if i not in specified]
        if not suits:  # every suit shown: nothing is left to prohibit (docs/laws/choices.md #28)
            kind, law = LeadRestriction.NONE, table["none_law"]
        elif related:
            kind, law = table["suit"], table["suit_law"]
        else:
            kind, law = table["other"], table["other_law"]
    elif related:  # 2007 L26A
        open_suits = [i for i in related if i not in specified]
        if not open_suits:
            kind, law, suits = LeadRestriction.NONE, table["none_law"], []
        else:
            kind, law, suits = table["suit"], table["suit_law"], open_suits
    else:  # 2007 L26B
        kind, law, suits = table["other"], table["other_law"], [0, 1, 2, 3]
    return {"kind": kind, "law": law, "suits": [STRAINS[i] for i in sorted(suits)],
            "withdrawn": call_name(withdrawn)}
