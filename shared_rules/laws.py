"""Per-edition rule tables: the decision trees of the auction laws as plain data.

Everything the two editions do differently is here, keyed by edition, so the engine (table.py)
has no `if edition == ...` branches. Sources: 2007 = Swedish 2007 Laws (S07), 2017 = Danish 2017
Laws (D17); docs/laws/ says in our words what each law requires of the engine.

Obligations are types.MustPass: NEXT_TURN = must pass at his next turn, REST = must pass for the
rest of the auction.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from shared_rules.types import LeadRestriction, MustPass

_NEXT: Final = MustPass.NEXT_TURN
_REST: Final = MustPass.REST

# Law references that exist in both editions, possibly under other numbers.
REFS: Final[dict[int, dict[str, str]]] = {
    2007: {
        "awareness": "2007 L23",
        "withdrawn_ui": "2007 L16D",
        "out_of_rotation_ui": "2007 L16D2",
        "end_bid": "2007 L22A2",
        "end_passed_out": "2007 L22A1",
        "deprived": "2007 L17E2, L34",
        "deemed_pass": "2007 L28A",
        "in_turn_calls": "2007 L28B",
        "accept_oot": "2007 L29A",
        "cancel_oot": "2007 L29B",
        "artificial_pass": "2007 L30C",
        "artificial_call": "2007 L29C",
        "simultaneous": "2007 L33",
        "change_of_call": "2007 L25",
        "unintended": "2007 L25A1, FSB L112D",
        "unintended_after_end": "2007 L25A3, L22B2",
        "lho_withdraws": "2007 L25A4, FSB L112D",
        "change_accepted": "2007 L25B1",
        "change_cancelled": "2007 L25B2",
        "insufficient_bid": "2007 L27",
        "insufficient_accepted": "2007 L27A1",
        "insufficient_replaced": "2007 L27B",
        "insufficient_b1a": "2007 L27B1(a)",
        "insufficient_b1b": "2007 L27B1(b)",
        "insufficient_b2": "2007 L27B2",
        "insufficient_b3": "2007 L27B3",
        "insufficient_b4": "2007 L27B4",
        "insufficient_replaced_early": "2007 L27C",
        "insufficient_review": "2007 L27D",
        "inadmissible_double": "2007 L36",
        "inadmissible_lho_called": "2007 L36A",
        "inadmissible_cancelled": "2007 L36B",
        "inadmissible_out_of_rotation": "2007 L36B4",
        "required_to_pass": "2007 L37",
        "required_to_pass_lho_called": "2007 L37A",
        "required_to_pass_cancelled": "2007 L37B",
        "above_seven": "2007 L38",
        "above_seven_lho_called": "2007 L38B, L38D",
        "above_seven_cancelled": "2007 L38B, L38C",
        "after_final_pass": "2007 L39",
        "after_final_pass_cancelled": "2007 L39A",
        "after_final_pass_no_rectification": "2007 L39B",
        "after_final_pass_lead": "2007 L39C",
        "repeat": "2007 L31A1, L32B1",
        "no_double": "2007 L30B2(b)",
        "out_of_rotation_inadmissible": "2007 L32 intro, L36",
        "misinformation": "2007 L21B1",
        "misinformation_review": "2007 L21B3, L40B4",
        "late_alert": "2007 L21B1(a)",
        "tempo_ui": "2007 L16B1",
        "comparable_review": "",  # 2007 has no comparable call (L23 is awareness of damage)
        "out_of_rotation_laws": "2007 L28-L32",
        "out_of_rotation": "2007 L29",
        "td_decides": "2007 L10, L81",
        # a call the Law gives no meaning while the TD is awaited: cancelled, its information
        # unauthorised to the caller's side (law9.py, docs/laws/choices.md #30)
        "awaiting_td": "2007 L9B2",
        "awaiting_td_cancelled": "2007 L9B2, L16D",
    },
    2017: {
        "awareness": "2017 L72C",
        "withdrawn_ui": "2017 L16C",
        "out_of_rotation_ui": "2017 L16C2",
        "end_bid": "2017 L22A",
        "end_passed_out": "2017 L22B",
        "deprived": "2017 L17D3, L34",
        "deemed_pass": "2017 L28A",
        "in_turn_calls": "2017 L28B",
        "accept_oot": "2017 L29A",
        "cancel_oot": "2017 L29B",
        "artificial_pass": "2017 L30C",
        "artificial_call": "2017 L29C",
        "simultaneous": "2017 L33",
        "change_of_call": "2017 L25",
        "unintended": "2017 L25A1-A4",
        "unintended_after_end": "2017 L25A5, L17D2",
        "lho_withdraws": "2017 L25A6",
        "change_accepted": "2017 L25B1",
        "change_cancelled": "2017 L25B2",
        "insufficient_bid": "2017 L27",
        "insufficient_accepted": "2017 L27A1",
        "insufficient_replaced": "2017 L27B",
        "insufficient_b1a": "2017 L27B1(a)",
        "insufficient_b1b": "2017 L27B1(b), L23A",
        "insufficient_b2": "2017 L27B2",
        "insufficient_b3": "2017 L27B3",
        "insufficient_b4": "2017 L27B4",
        "insufficient_replaced_early": "2017 L27C",
        "insufficient_review": "2017 L27D",
        "inadmissible_double": "2017 L36",
        "inadmissible_lho_called": "2017 L36A",
        "inadmissible_cancelled": "2017 L36B",
        "inadmissible_out_of_rotation": "2017 L36B4",
        "required_to_pass": "2017 L37",
        "required_to_pass_lho_called": "2017 L37A",
        "required_to_pass_cancelled": "2017 L37B",
        "above_seven": "2017 L38",
        "above_seven_lho_called": "2017 L38B, L38D",
        "above_seven_cancelled": "2017 L38B, L38C",
        "after_final_pass": "2017 L39",
        "after_final_pass_cancelled": "2017 L39A",
        "after_final_pass_no_rectification": "2017 L39B",
        "after_final_pass_lead": "2017 L39C",
        "repeat": "2017 L31A1, L32A1",
        "no_double": "",
        "out_of_rotation_inadmissible": "2017 L32 intro, L36",
        "misinformation": "2017 L21B1",
        "misinformation_review": "2017 L21B3, L40B3",
        "late_alert": "2017 L21B1(a)",
        "tempo_ui": "2017 L16B1",
        "comparable_review": "2017 L23C",
        "out_of_rotation_laws": "2017 L28-L32",
        "out_of_rotation": "2017 L29",
        "td_decides": "2017 L10, L81",
        # a call the Law gives no meaning while the TD is awaited: cancelled, its information
        # unauthorised to the caller's side (law9.py, docs/laws/choices.md #30)
        "awaiting_td": "2017 L9B2",
        "awaiting_td_cancelled": "2017 L9B2, L16C",
    },
}

# Law 26 lead restrictions, by edition (docs/laws/L26.md). `kind` names what declarer may do.
LEAD: Final[dict[int, dict[str, str]]] = {
    2007: {
        # 2007 L26A2: a withdrawn call related to a specific suit or suits
        "suit": LeadRestriction.REQUIRE_OR_PROHIBIT_SUIT,
        "suit_law": "2007 L26A2",
        # 2007 L26A1: every such suit specified by the same player in the legal auction
        "none_law": "2007 L26A1",
        "other": LeadRestriction.PROHIBIT_ANY_SUIT,  # 2007 L26B
        "other_law": "2007 L26B",
        "suits": "withdrawn",  # A2: the suit(s) of the withdrawn call; B: any suit
    },
    2017: {
        "suit": LeadRestriction.PROHIBIT_UNSHOWN_SUIT,  # 2017 L26B: one suit the offender has not shown
        "suit_law": "2017 L26B",
        # every suit shown in the legal auction: L26B leaves no suit to prohibit (2017 L26A, the
        # comparable call, records no candidate at all)
        "none_law": "2017 L26B",
        "other": LeadRestriction.PROHIBIT_UNSHOWN_SUIT,
        "other_law": "2017 L26B",
        "suits": "unshown",  # a suit the offender has not shown in the legal auction
    },
}


@dataclass(frozen=True)
class Outcome:
    """What follows when a TD answers a judgement question (or a watched call is made)."""

    partner: MustPass | None  # offender's partner must pass (next turn / rest of the auction)
    lead: bool  # a Law 26 lead restriction may follow
    law: str


@dataclass(frozen=True)
class Deferred:
    """A judgement the TD makes on the offender's next call (comparable? same denomination?)."""

    question: str  # "comparable" (2017 L23A) | "same_denomination" (2007 L31A2)
    law: str
    yes: Outcome
    no: Outcome


@dataclass(frozen=True)
class OotRule:
    """Consequences of a cancelled call out of rotation (L29B -> L30/L31/L32)."""

    law: str
    offender: MustPass | None = None  # offender must pass (next turn / rest of the auction)
    partner: MustPass | None = None  # offender's partner must pass at once
    partner_no_double: bool = False  # 2007 L30B2(b)
    lead: bool = False  # L26 may apply at once
    watch_rho: bool = False  # L31A/L32 at RHO's turn: RHO's call decides (repeat or free call)
    # used when watch_rho and RHO makes an active call
    after_rho_active: Deferred | Outcome | None = None
    deferred: Deferred | None = None  # judgement on the offender's next call


_C17 = "comparable"
_SD07 = "same_denomination"
QUESTIONS: Final = (_C17, _SD07)  # the judgements a Deferred asks (texts.py words each)

# OOT[edition][(call kind, position, phase)]; call kind: pass | artificial_pass | bid | double;
# position: rho | partner | lho (the seat whose turn it was, seen from the offender); phase:
# before_bid | after_bid (only 2007 L30 distinguishes it; the other rows use "any"). An
# artificial pass, or a pass of (partner's) artificial call, is ruled under L31, not L30 (L30C,
# the TD's `cancel_artificial`: docs/laws/choices.md #6); its rows are the bid rows except where
# 2007 L31A2(b) names it.
OOT: Final[dict[int, dict[tuple[str, str, str], OotRule]]] = {
    2007: {
        ("pass", "rho", "before_bid"): OotRule("2007 L30A", offender=_NEXT),
        ("pass", "partner", "before_bid"): OotRule("2007 L30A", offender=_NEXT),
        ("pass", "lho", "before_bid"): OotRule("2007 L30A", offender=_NEXT),
        ("pass", "rho", "after_bid"): OotRule("2007 L30B1", offender=_NEXT),
        ("pass", "partner", "after_bid"):
            OotRule("2007 L30B2", offender=_REST, partner_no_double=True),
        # cannot arise: 2007 L30B3 (a change of call) applies
        ("pass", "lho", "after_bid"): OotRule("2007 L30A", offender=_NEXT),
        ("bid", "rho", "any"): OotRule(
            "2007 L31A",
            watch_rho=True,
            after_rho_active=Deferred(
                _SD07,
                "2007 L31A2",
                yes=Outcome(_NEXT, False, "2007 L31A2(a)"),
                no=Outcome(_REST, True, "2007 L31A2(b)"),
            ),
        ),
        # 2007 L31A2(b): "eller om budet utom tur var ett artificiellt pass eller ett pass på
        # partnerns artificiella bud": after RHO's active call the partner passes for the rest,
        # whatever the offender calls; no "same denomination" question (L31A2(a) is excluded).
        ("artificial_pass", "rho", "any"): OotRule(
            "2007 L31A", watch_rho=True, after_rho_active=Outcome(_REST, True, "2007 L31A2(b)")
        ),
        ("bid", "partner", "any"): OotRule("2007 L31B", partner=_REST, lead=True),
        ("bid", "lho", "any"): OotRule("2007 L31B", partner=_REST, lead=True),
        ("double", "partner", "any"): OotRule("2007 L32A", partner=_REST, lead=True),
        # not addressed by 2007 L32: read as L32A (docs/laws/choices.md #1)
        ("double", "lho", "any"): OotRule("2007 L32A", partner=_REST, lead=True),
        ("double", "rho", "any"): OotRule(
            "2007 L32B", watch_rho=True, after_rho_active=Outcome(_REST, True, "2007 L32B2")
        ),
    },
    2017: {
        ("pass", "rho", "any"): OotRule("2017 L30A", offender=_NEXT),
        ("pass", "partner", "any"): OotRule(
            "2017 L30B1",
            deferred=Deferred(
                _C17,
                "2017 L30B1(b), L23A",
                yes=Outcome(None, False, "2017 L30B1(b)(i)"),
                no=Outcome(_NEXT, True, "2017 L30B1(b)(ii)"),
            ),
        ),
        ("bid", "rho", "any"): OotRule(
            "2017 L31A",
            watch_rho=True,
            after_rho_active=Deferred(
                _C17,
                "2017 L31A2, L23A",
                yes=Outcome(None, False, "2017 L31A2(a)"),
                no=Outcome(_NEXT, True, "2017 L31A2(b)"),
            ),
        ),
        ("bid", "partner", "any"): OotRule(
            "2017 L31B",
            deferred=Deferred(
                _C17,
                "2017 L31B2, L23A",
                yes=Outcome(None, False, "2017 L31A2(a)"),
                no=Outcome(_NEXT, True, "2017 L31A2(b)"),
            ),
        ),
        ("double", "rho", "any"): OotRule(
            "2017 L32A",
            watch_rho=True,
            after_rho_active=Deferred(
                _C17,
                "2017 L32A2, L23A",
                yes=Outcome(None, False, "2017 L32A2(a)"),
                no=Outcome(_NEXT, True, "2017 L32A2(b)"),
            ),
        ),
        ("double", "partner", "any"): OotRule(
            "2017 L32B",
            deferred=Deferred(
                _C17,
                "2017 L32B2, L23A",
                yes=Outcome(None, False, "2017 L32A2(a)"),
                no=Outcome(_NEXT, True, "2017 L32A2(b)"),
            ),
        ),
    },
}
# 2017 L30B1 / L31B / L32B cover "partner's turn, or LHO's turn when the offender has not called".
OOT[2017][("pass", "lho", "any")] = OOT[2017][("pass", "partner", "any")]
OOT[2017][("bid", "lho", "any")] = OOT[2017][("bid", "partner", "any")]
OOT[2017][("double", "lho", "any")] = OOT[2017][("double", "partner", "any")]
# L30C -> L31: an artificial pass is ruled as a bid, apart from 2007 L31A2(b) above (2017 L31A2
# has no such exception: the comparable-call question stays).
for _edition, _table in OOT.items():
    for _position in ("rho", "partner", "lho"):
        _table.setdefault(("artificial_pass", _position, "any"), _table[("bid", _position, "any")])


def oot_rule(edition: int, kind: str, position: str, bid_made: bool) -> OotRule:
    table = OOT[edition]
    phase = "after_bid" if bid_made else "before_bid"
    rule = table.get((kind, position, phase)) or table.get((kind, position, "any"))
    if rule is None:  # defensive: every (kind, position) has a row in both editions
        raise KeyError(f"no Law 30-32 row for {edition} {kind} at {position}'s turn")
    return rule


# Insufficient bid replacement judgements (L27B1), by edition: the questions the TD is asked.
IB_QUESTIONS: Final[dict[int, dict[str, str]]] = {
    2007: {
        "b1a": "lowest sufficient bid in the same denomination, and neither bid artificial "
               "(TD: incontrovertibly)",
        "b1b": "the replacement has the same meaning as, or a more precise meaning than, the "
               "insufficient bid",
        "none": "neither: Law 27B2/B3 applies",
    },
    2017: {
        "b1a": "lowest sufficient bid showing the same denomination(s) as the insufficient bid",
        "b1b": "the replacement is a comparable call (Law 23A)",
        "none": "neither: Law 27B2/B3 applies",
    },
}
# 2007 B1(a) is only possible for the lowest sufficient bid in the same strain; 2017 B1(a) for any
# sufficient bid (which denominations a bid shows is the TD's judgement).
IB_B1A_SAME_STRAIN_ONLY: Final[dict[int, bool]] = {2007: True, 2017: False}

# Does Law 26 follow an intended change of call (L25B)? 2017 says so (L25B1, B2: "L26 may apply");
# 2007 L25B is silent and the L26 preamble may reach the accepted change (docs/laws/choices.md #10).
CHANGE_LEAD: Final[dict[int, dict[str, bool]]] = {
    2007: {"accept": True, "cancel": False},
    2017: {"accept": True, "cancel": True},
}

# Law 24: cards exposed or led during the auction (docs/laws/L24.md), by edition. Both count
# A K Q J 10 as honours (S07 definitions "Honnörskort"; D17p "HONNØR es, konge, dame, bonde eller
# 10"), so the 2007 "card below a ten" and the 2017 "non-honour card" are the same cards.
EXPOSED: Final[dict[int, dict[str, str]]] = {
    2007: {
        "law": "2007 L24",
        "single_low": "2007 L24A",  # one card below a ten, not prematurely led: nothing further
        "honour_or_led": "2007 L24B",  # partner passes at his next turn
        "several": "2007 L24C",  # two or more cards: partner passes at his next turn
        "honours": "AKQJT",
        "until": "end of the auction period",
        "ui": "2007 L24, L16",
        "defender": "penalty cards (2007 L24, L50)",
        "declaring_side": "returned to the hand (2007 L24)",
    },
    2017: {
        "law": "2017 L24",
        "single_low": "2017 L24A",
        "honour_or_led": "2017 L24B",
        "several": "2017 L24C",
        "honours": "AKQJT",
        "until": "end of the auction (2017 L22)",
        "ui": "2017 L24, L16C",
        "defender": "penalty cards (2017 L24E, L50, L51)",
        "declaring_side": "returned to the hand (2017 L24D)",
    },
}


@dataclass(frozen=True)
class WrongBoardCall:
    """A call made with cards taken from the wrong board (2007 L17D, 2017 L15A)."""

    law: str
    cancel: str  # the call is cancelled
    later: str  # why the calls after it go too
    partner_called: str  # the offender's partner has called since: the TD adjusts
    # "artificial" (2007: L12C2) | "adjusted" (2017: L12C1, assigned where possible)
    adjusted_kind: str
    recall: str  # otherwise the offender calls again
    lho_repeats: str  # 2007: the LHO, who had called, repeats his call ("" = nothing of the kind)
    differs: str  # 2007: the new call differs from the cancelled one -> artificial adjusted score
    ui: str  # information from the withdrawn calls
    later_board: str  # the board the cards came from, when the offender plays it


WRONG_BOARD_CALL: Final[dict[int, WrongBoardCall]] = {
    # The S07 L17D2 text is garbled; the reading is docs/laws/choices.md #22.
    2007: WrongBoardCall(
        law="2007 L17D", cancel="2007 L17D1",
        later="2007 L17D2 (the auction proceeds from the new call)",
        partner_called="2007 L17D2, L12C2", adjusted_kind="artificial", recall="2007 L17D2",
        lho_repeats="2007 L17D2", differs="2007 L17D2", ui="2007 L16D", later_board="2007 L17D3",
    ),
    2017: WrongBoardCall(
        law="2017 L15A", cancel="2017 L15A1", later="2017 L15A1",
        partner_called="2017 L15A2(a), L12C1", adjusted_kind="adjusted", recall="2017 L15A2(b)",
        lho_repeats="", differs="", ui="2017 L15A2(c), L16C", later_board="2017 L15A3",
    ),
}

# The wrong board found during the auction (2007 L15C, 2017 L15B). `restart`: the auction is
# cancelled and begun again with the same calls (2007); otherwise it goes on, unless a player at
# the table has played the board before (2017 L15B1: cancelled for all four).
WRONG_BOARD: Final[dict[int, dict[str, str | bool]]] = {
    2007: {"law": "2007 L15C", "restart": True, "played_before": "", "continues": "",
           "differs": "2007 L15C", "note": ""},
    2017: {"law": "2017 L15B", "restart": False, "played_before": "2017 L15B1, L15B3, L12C2(a)",
           "continues": "2017 L15B2", "differs": "",
           "note": "pairs and individual events; in team events 2017 L86B applies"},
}

# An inadmissible double or redouble made out of rotation, called over by the opponent in turn (the
# offender's RHO) before any ruling. 2017: L28B, his call is in rotation and the double is treated
# as not made. 2007: the same call stands (L28B), but the FSB text of L32 says an inadmissible
# X/XX is never accepted, "om den felandes MTH trots det bjuder, se lag 36": L36B4 still applies to
# the offender's side (partner passes for the rest; L26 may apply). "" = no further rectification.
INADMISSIBLE_CALLED_OVER: Final[dict[int, str]] = {2007: "2007 L32 (se lag 36), L36B4", 2017: ""}

# The director's adjusted scores in place of the result at the table (Law 12C), by edition: the
# Law of an assigned score (one outcome), a weighted one (several, each with its likelihood; who
# may weight is the regulation profile's `adjusted`), one different for each side, and an
# artificial one (L12C2: the board could not be played).
# 2007 (S07): L12C1(c) the assigned score, "den icke-felande sidan [skall] erhålla det mest gynnsamma
# resultat som varit troligt ... Den felande sidan erhåller det mest ogynnsamma rimliga resultat",
# and its weighting; L12C1(e) "Båda sidor behöver inte få samma resultat".
# 2017 (D17): §12C1b "genskabe det sandsynlige resultat af spillet"; §12C1c "en vægtet score";
# §12C1e the two sides scored apart (the offenders as rectified, the non-offenders without the
# self-inflicted part).
ADJUSTED_SCORE: Final[dict[int, dict[str, str]]] = {
    2007: {"assigned": "2007 L12C1(c)", "weighted": "2007 L12C1(c)", "split": "2007 L12C1(e)",
           "artificial": "2007 L12C2"},
    2017: {"assigned": "2017 L12C1(b)", "weighted": "2017 L12C1(c)", "split": "2017 L12C1(e)",
           "artificial": "2017 L12C2"},
}
