"""The engine's domain values, defined once: seats and pairs, and the names of what it reports.

Seats are an `IntEnum` (N=0, E=1, S=2, W=3, clockwise: the definition of rotation, Law 17C), so a
seat is also the small integer the per-call path indexes with. Everything the engine names in its
state, journal or log (an irregularity's kind, a decision the table waits for, an option the Law
offers, a timing flag, a status) is a `StrEnum`: a member is the string itself (`==`, hashing and
JSON give the value), so every log and state the engine writes stays as it was, and a typo in
the code is an AttributeError instead of a silently unknown kind.

Importing this module has no side effects: the tablet and the station may import it freely.
"""
from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import Final


class Seat(IntEnum):
    """A seat at the table, clockwise from North (Law 17C: rotation is clockwise)."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def letter(self) -> str:
        return self.name

    @property
    def lho(self) -> Seat:
        return Seat((self + 1) & 3)

    @property
    def partner(self) -> Seat:
        return Seat((self + 2) & 3)

    @property
    def rho(self) -> Seat:
        return Seat((self + 3) & 3)

    @property
    def pair(self) -> Pair:
        return Pair.NS if self % 2 == 0 else Pair.EW

    @classmethod
    def of(cls, letter: str) -> Seat:
        """The seat named by its letter; ValueError for anything else."""
        try:
            return cls[letter]
        except (KeyError, TypeError):
            raise ValueError(f"seat must be one of N, E, S, W (got {letter!r})") from None


# The seat letters in seat order, and back: the only place they are spelt out is the enum above.
SEATS: Final[tuple[str, ...]] = tuple(s.name for s in Seat)
SEAT_INDEX: Final[dict[str, int]] = {s.name: s.value for s in Seat}


class Pair(StrEnum):
    NS = "NS"
    EW = "EW"


class Vulnerability(StrEnum):
    """Law 2: who is vulnerable on a board."""

    NONE = "None"
    NS = "NS"
    EW = "EW"
    ALL = "All"


class Status(StrEnum):
    """Where the auction is (the state's `status`)."""

    BIDDING = "bidding"
    AWAITING_TD = "awaiting_td"  # a decision is pending (L9B2: nobody acts until the TD has ruled)
    ENDED = "ended"  # L22: three passes after a bid
    PASSED_OUT = "passed_out"  # L22: four passes
    ADJUSTED_SCORE = "adjusted_score"  # stopped: the TD awards an adjusted score


class IrregularityKind(StrEnum):
    """What an entry of the state's `irregularities` is; each kind has one rule object
    (shared_rules.rules.ALL) that says which Law governs it."""

    CHANGE_OF_CALL = "change_of_call"  # L25 (and the L21B1 change after misinformation)
    INSUFFICIENT_BID = "insufficient_bid"  # L27
    CALL_OUT_OF_ROTATION = "call_out_of_rotation"  # L28-L32 (and the deprived player, L34)
    SIMULTANEOUS_CALLS = "simultaneous_calls"  # L33
    INADMISSIBLE_DOUBLE = "inadmissible_double"  # L36
    CALL_WHEN_REQUIRED_TO_PASS = "call_when_required_to_pass"  # L37
    BID_ABOVE_SEVEN = "bid_above_seven"  # L38
    CALL_AFTER_FINAL_PASS = "call_after_final_pass"  # L39
    REPEAT_NOT_MADE = "repeat_not_made"  # L31A1, L32: the Laws are silent, the TD decides
    RESTRICTED_CALL = "restricted_call"  # 2007 L30B2(b), L27B3: the TD decides
    CARDS_EXPOSED = "cards_exposed"  # L24 (a TD finding)
    WRONG_BOARD_CALL = "wrong_board_call"  # 2007 L17D, 2017 L15A (a TD finding)
    WRONG_BOARD = "wrong_board"  # 2007 L15C, 2017 L15B (a TD finding)
    CALL_WHILE_AWAITING_TD = "call_while_awaiting_td"  # L9B2: a call made before the TD has ruled


class Decision(StrEnum):
    """What the table waits for (the state's `pending.kind`; a TD event's `td` answering it)."""

    CHANGE_OF_CALL = "change_of_call"
    INSUFFICIENT_BID = "insufficient_bid"
    INSUFFICIENT_BID_JUDGEMENT = "insufficient_bid_judgement"
    CALL_OUT_OF_ROTATION = "call_out_of_rotation"
    OOT_JUDGEMENT = "oot_judgement"
    INADMISSIBLE_DOUBLE = "inadmissible_double"
    CALL_WHEN_REQUIRED_TO_PASS = "call_when_required_to_pass"
    BID_ABOVE_SEVEN = "bid_above_seven"
    CALL_AFTER_FINAL_PASS = "call_after_final_pass"
    REPEAT_NOT_MADE = "repeat_not_made"
    RESTRICTED_CALL = "restricted_call"
    WRONG_BOARD_JUDGEMENT = "wrong_board_judgement"
    WRONG_BOARD_REPEAT = "wrong_board_repeat"  # 2007 L15C: a repeated call differs


class Finding(StrEnum):
    """A TD event that answers no pending decision: what the TD found at the table. In the order
    the engine's messages list them."""

    WRONG_BOARD_CALL = "wrong_board_call"  # 2007 L17D, 2017 L15A
    WRONG_BOARD = "wrong_board"  # 2007 L15C, 2017 L15B
    CANCEL_BOARD = "cancel_board"  # 2007 L15C
    EXPOSED_CARDS = "exposed_cards"  # L24
    CORRECT_CALL = "correct_call"  # L25A
    MISINFORMATION_CHANGE = "misinformation_change"  # L21B1


class OptionId(StrEnum):
    """The id of an option the Law gives (`pending.options[].id`; a TD event's `choice`)."""

    ACCEPT = "accept"
    REPLACE = "replace"
    UNINTENDED = "unintended"
    CANCEL = "cancel"
    CANCEL_ARTIFICIAL = "cancel_artificial"
    B1A = "b1a"
    B1B = "b1b"
    NONE = "none"
    YES = "yes"
    NO = "no"
    STAND = "stand"
    DIFFERS = "differs"
    SAME = "same"


class Asks(StrEnum):
    """Who acts next on a pending decision."""

    LHO = "lho"  # the offender's LHO may call over the irregularity (the Law gives that a meaning)
    TD = "td"  # only the TD can answer


class MustPass(StrEnum):
    """A pass obligation (the state's `obligations[].must_pass`)."""

    NEXT_TURN = "next_turn"
    REST = "rest_of_auction"


class Obligation(StrEnum):
    """What an entry of the state's `obligations` binds its seat to (`state_view.obligation_kind`
    reads it from the entry). The tablet and the box word every member in each language."""

    PASS_NEXT_TURN = "pass_next_turn"  # must_pass "next_turn": L24, L30A, L30B1, L31A2(b) (2017)
    PASS_REST = "pass_rest_of_auction"  # must_pass "rest_of_auction": L27B2, L30B2, L31B, L32, L36-L38
    REPEAT = "repeat"  # must_repeat: 2007 L31A1, L32B1, L17D2; 2017 L31A1, L32A1
    NO_DOUBLE = "no_double"  # may_not_double: 2007 L30B2(b), at his next turn


class LeadRestriction(StrEnum):
    """What declarer may do about the opening lead after a withdrawn call (a `lead_restrictions`
    entry's `kind`, shared_rules/law26.py)."""

    REQUIRE_OR_PROHIBIT_SUIT = "require_or_prohibit_suit"  # 2007 L26A2
    PROHIBIT_ANY_SUIT = "prohibit_any_suit"  # 2007 L26B
    PROHIBIT_UNSHOWN_SUIT = "prohibit_unshown_suit"  # 2017 L26B
    NONE = "none"  # 2007 L26A1; 2017 L26B with every suit shown: no restriction


class TimingKind(StrEnum):
    """What an entry of the state's `timing` is (FSB L115-L116, 2017 L73A1, L16B1, L21B1(a))."""

    STOP_MISSING = "stop_missing"
    STOP_WAIT_SHORT = "stop_wait_short"
    LONG_THOUGHT_AFTER_STOP = "long_thought_after_stop"
    ALERT_LATE = "alert_late"
    ALERT_NOT_PERMITTED = "alert_not_permitted"
    ALERT_BY_WRONG_PLAYER = "alert_by_wrong_player"


# The alert flags that mean the profile's rules forbid the alert (FSB L115): `Table.step`
# refuses such an alert; a late alert is still an alert.
FORBIDDING_ALERT: Final[tuple[TimingKind, ...]] = (
    TimingKind.ALERT_BY_WRONG_PLAYER, TimingKind.ALERT_NOT_PERMITTED)


class Refusal(StrEnum):
    """Why `Table.step` refused an event, when it was not for an irregularity or a timing rule."""

    INVALID = "invalid_event"  # malformed, or nothing the table can take in its state
    AWAITING_TD = "awaiting_td"  # L9B2: the table waits for the TD
    AUCTION_STOPPED = "auction_stopped"  # the TD awards an adjusted score: no more calls
    NOT_SEEN = "not_seen"  # behind screens: the tray has not brought the call to the caller's side


class Resolution(StrEnum):
    """How an irregularity was resolved (its `resolution`)."""

    ACCEPTED = "accepted"
    UNINTENDED = "unintended"
    MISINFORMATION = "misinformation"
    CANCELLED = "cancelled"
    CANCELLED_BEHIND_SCREEN = "cancelled_behind_screen"
    CORRECTED_BEHIND_SCREEN = "corrected_behind_screen"
    CANCELLED_WITH_LATER_CALLS = "cancelled_with_later_calls"
    REPLACED_INSUFFICIENT = "replaced_insufficient"
    REPLACED_BY_PASS = "replaced_by_pass"
    B1A = "b1a"
    B1B = "b1b"
    B2 = "b2"
    B3 = "b3"
    IN_TURN_CALLED = "in_turn_called"
    REORDERED = "reordered"
    STANDS = "stands"
    STAND = "stand"
    CANCEL = "cancel"
    AUCTION_CONTINUES = "auction_continues"
    AUCTION_RESTARTED = "auction_restarted"
    BOARD_CANCELLED = "board_cancelled"
    ADJUSTED_SCORE = "adjusted_score"
    OFFENDER_CALLS_AGAIN = "offender_calls_again"
    OFFENDER_CALLED_AGAIN = "offender_called_again"
    PARTNER_PASSES_NEXT_TURN = "partner_passes_next_turn"
    NO_FURTHER_RECTIFICATION = "no_further_rectification"


class Policy(StrEnum):
    """What the table does with an irregular call (a profile's `policy`, a log's override)."""

    RECORD = "record"  # the call is made and the Law applied, as with cardboard boxes
    PREVENT = "prevent"  # refused before anyone sees it
