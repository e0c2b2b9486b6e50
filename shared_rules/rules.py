"""Every irregularity's rule object, once: the ones found in a call in detection order, then the
ones the TD finds or a reordering records. The order is docs/rules-engine.md "Detection order":
the first rule that finds a call wins (docs/laws/choices.md #13).
"""
from __future__ import annotations

from typing import Final

from shared_rules import law9, law15_17, law24, law25, law27, law28_33, law34_39
from shared_rules.rule import DetectedRule, Rule
from shared_rules.types import IrregularityKind

# Asked for a call the fold does not find plainly legal (fold.Fold.classify), in this order.
# Before them: L28A (the caller's RHO is in turn and must pass: his pass is deemed made first).
DETECTION_ORDER: Final[tuple[DetectedRule, ...]] = (
    law34_39.CALL_AFTER_FINAL_PASS,  # L39: the auction is over
    law25.CHANGE_OF_CALL,  # L25: the caller called again before his LHO
    law34_39.BID_ABOVE_SEVEN,  # L38, in turn or not
    law34_39.INADMISSIBLE_DOUBLE,  # L36, in turn or not; before L37 (L37A excludes it)
    law34_39.CALL_WHEN_REQUIRED_TO_PASS,  # L37, in turn
    law27.INSUFFICIENT_BID,  # L27, in turn
    law28_33.RESTRICTED_CALL,  # 2007 L30B2(b), L27B3: the TD decides
    law28_33.REPEAT_NOT_MADE,  # L31A1, L32: the TD decides
    law28_33.CALL_OUT_OF_ROTATION,  # L28-L32: any other call out of turn
)

# Not found in a call: the TD reports them (L24, the wrong boards), L33 reorders two calls, or a
# call came while the TD was awaited (L9B2).
OTHERS: Final[tuple[Rule, ...]] = (
    law28_33.SIMULTANEOUS_CALLS,  # L33
    law24.CARDS_EXPOSED,  # L24
    law15_17.WRONG_BOARD_CALL,  # 2007 L17D, 2017 L15A
    law15_17.WRONG_BOARD,  # 2007 L15C, 2017 L15B
    law9.CALL_WHILE_AWAITING_TD,  # L9B2
)

ALL: Final[tuple[Rule, ...]] = DETECTION_ORDER + OTHERS
BY_KIND: Final[dict[IrregularityKind, Rule]] = {rule.kind: rule for rule in ALL}
