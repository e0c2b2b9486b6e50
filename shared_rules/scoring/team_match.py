"""A team match from the two rooms' result records: IMPs per board (2007 L78B / 2017 §78B), the
running score, and VPs at the end (L78D, `wbf_vp`): each team's VPs are those of its own net
IMPs, i.e. its margin over the other team (`team_vp`).

The score shown is what each team won, as scorers print it ("24 - 18"): the sum over boards of
the IMPs that went to that team (a board's IMPs go to one team, L78B); the margin is their
difference, which is the home team's net IMPs when every board balances.

Each board is played in two rooms; the home team sits North-South in one and East-West in the
other (FSB 104A: NS in the open room). Per board, the home team's IMPs are
imp(NS score where home sits NS - NS score where home sits EW), the visitors' the opposite.

Adjusted scores (the record's `adjusted` block, docs/scoring.md) are read per side with
`adjusted.side_values`, so the two teams may get unequal values (2007 L12C1e, 2017 §12C1e/§12C2a):
- an artificial score (2007 L12C2 with L86A, 2017 §12C2b) is the edition's IMPs for that side
  (+3 / 0 / -3 unless the TO varies them, `rules.artificial.imps`), whatever the other room did;
- an assigned score (L12C1) takes the place of the room's result and is compared as one;
- a weighted score (2007 L12C1c, 2017 §12C1c) weights the IMPs of each outcome (A07: weight the
  IMPs, not the points);
- a split score gives each side its own value, compared with the other room.
A team's won total counts its own positive IMPs of each board only (docs/laws/choices.md #37):
an adjusted score that does not balance (2007 L12C1e, 2017 L12C1e / L12C2a) adds to one team's
won total without taking from the other's, and each team's net IMPs and VPs stay its own.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from shared_rules.scoring.adjusted import Distribution, Fixed, SideValue, side_values
from shared_rules.scoring.imps import imp
from shared_rules.scoring.rounding import round_half_up, to_fraction
from shared_rules.scoring.rules import RULES, ScoringRules
from shared_rules.scoring.vp_scales import PairScale


class TeamScoreError(ValueError):
    """A room's record cannot be scored in IMPs (a percentage adjusted score, a malformed block)."""


@dataclass(frozen=True)
class BoardImps:
    home: Fraction
    away: Fraction
    adjusted: bool = False  # an adjusted score in either room (Law 12)


@dataclass
class MatchScore:
    """The match so far: `boards` holds every board of the match, None until both rooms have
    a result. IMPs are exact fractions (weighted scores). `home_won` / `away_won` are the IMPs
    each team won (the score shown, "24 - 18"); `home_imps` / `away_imps` each team's net IMPs,
    its margin over the other (home_won - away_won when every board balances), from which its
    VPs come. `vp` is set when every board is scored and a scale is given."""

    boards: dict[int, BoardImps | None] = field(default_factory=dict)
    home_imps: Fraction = Fraction(0)
    away_imps: Fraction = Fraction(0)
    vp: tuple[float, float] | None = None
    home_won: Fraction = Fraction(0)
    away_won: Fraction = Fraction(0)

    @property
    def scored(self) -> int:
        return sum(1 for b in self.boards.values() if b is not None)

    @property
    def complete(self) -> bool:
        return bool(self.boards) and self.scored == len(self.boards)

    def as_dict(self, decimals: int = 2) -> dict[str, Any]:
        return {"boards": {n: None if b is None else [round_half_up(b.home, decimals), round_half_up(b.away, decimals)]
                           for n, b in sorted(self.boards.items())},
                "home_imps": round_half_up(self.home_imps, decimals),
                "away_imps": round_half_up(self.away_imps, decimals),
                "home_won": round_half_up(self.home_won, decimals),
                "away_won": round_half_up(self.away_won, decimals),
                "scored": self.scored, "total": len(self.boards), "complete": self.complete,
                "vp": list(self.vp) if self.vp else None}


def _rules(rules: ScoringRules | str) -> ScoringRules:
    return RULES[rules] if isinstance(rules, str) else rules


def _fixed_imps(value: Fixed, rules: ScoringRules) -> Fraction:
    if value.category is None:
        raise TeamScoreError("a percentage adjusted score has no IMP value: give avg+, avg or avg- "
                             "(2007 L86A, 2017 §12C2b)")
    return Fraction(str(rules.artificial.imps[value.category]))


def _side(mine_ns: SideValue, mine_ew: SideValue, rules: ScoringRules) -> Fraction:
    """One team's IMPs on the board: `mine_ns` its value in the room where it sits NS (an NS
    score), `mine_ew` its value where it sits EW (also an NS score)."""
    fixed = [v for v in (mine_ns, mine_ew) if isinstance(v, Fixed)]
    if fixed:
        # An artificial score stands for the board in IMPs (L86A / §12C2b); no comparison.
        return sum((_fixed_imps(v, rules) for v in fixed), Fraction(0))
    assert isinstance(mine_ns, Distribution) and isinstance(mine_ew, Distribution)
    return sum((w1 * w2 * imp(s1 - s2) for w1, s1 in mine_ns.outcomes for w2, s2 in mine_ew.outcomes),
               Fraction(0))


def board_imps(home_ns_room: Mapping[str, Any], home_ew_room: Mapping[str, Any],
               rules: ScoringRules | str = "fsb-2007") -> BoardImps:
    """IMPs for (home, away) on one board from the two rooms' result records: `home_ns_room`
    the record of the room where the home team sits NS. TeamScoreError when a record cannot be
    scored in IMPs."""
    r = _rules(rules)
    values = []
    for rec in (home_ns_room, home_ew_room):
        try:
            v = side_values(rec, r)
        except ValueError as e:
            raise TeamScoreError(str(e)) from e
        if v is None:
            raise TeamScoreError("a room has no score on this board (no result and no adjusted score)")
        values.append(v)
    (x_ns, x_ew), (y_ns, y_ew) = values
    home = _side(x_ns, y_ew, r)
    # The visitors sit NS in the second room: their gain is that room's NS score minus the first.
    away = _side(y_ns, x_ew, r)
    adjusted = bool(home_ns_room.get("adjusted") or home_ew_room.get("adjusted"))
    return BoardImps(home, away, adjusted)


def score_match(boards: Mapping[int, tuple[Mapping[str, Any] | None, Mapping[str, Any] | None]],
                rules: ScoringRules | str = "fsb-2007", scale: PairScale | None = None) -> MatchScore:
    """`boards`: board number -> (record where home sits NS, record where home sits EW), None
    for a room without a result yet. A board is scored once both rooms have one; VPs when all
    are (`scale`, one of `vp_scales.SCALES`, over the number of boards of the match)."""
    out = MatchScore()
    for number in sorted(boards):
        a, b = boards[number]
        out.boards[number] = None if a is None or b is None else board_imps(a, b, rules)
    add_up(out)
    if scale is not None and out.complete:
        out.vp = (team_vp(scale, out.home_imps, len(out.boards)), team_vp(scale, out.away_imps, len(out.boards)))
    return out


def add_up(out: MatchScore) -> None:
    """Sets `out`'s totals from its scored boards. A board's IMPs go to the team that gained
    them (L78B): each team wins its own positive IMPs of the board, so +10 and -4 for the home
    team is 10 - 4, a margin of 6. An adjusted score that does not balance (2007 L12C1e,
    2017 L12C1e / L12C2a) counts
    each side's own value: a gain is won by that team, a loss is won by nobody
    (docs/laws/choices.md #37)."""
    done = [b for b in out.boards.values() if b is not None]
    out.home_imps = sum((b.home for b in done), Fraction(0))
    out.away_imps = sum((b.away for b in done), Fraction(0))
    out.home_won = sum((max(b.home, Fraction(0)) for b in done), Fraction(0))
    out.away_won = sum((max(b.away, Fraction(0)) for b in done), Fraction(0))


def deduct_vp(vp: tuple[float, float], home: float | Fraction = 0, away: float | Fraction = 0) -> tuple[float, float]:
    """Each team's VPs less its own VP deduction (FSB L109B, lateness: "ett avdrag av 1 VP för
    varje påbörjad 5-minutersperiod"; L109C, time overrun; 2007/2017 L90 procedural penalties the
    conditions give in VPs). A deduction comes off the offending team alone (FSB L109D: it
    "påverkar aldrig det icke-felande lagets vunna VP"), so the two need not add up to 20 any
    more; and off the VPs the scale gave, whatever they were: a team with 0 VPs that is docked 1
    VP has -1 (no text stops a deduction at nothing: docs/laws/choices.md #40). A negative
    deduction (a bonus) is refused. Exact to 2 decimals, as the scale's VPs are."""
    out = []
    for got, less in zip(vp, (home, away), strict=True):
        docked = to_fraction(less)
        if docked < 0:
            raise ValueError(f"a VP deduction is a number of VPs taken off, not {less!r}")
        out.append(round_half_up(to_fraction(got) - docked, 2))
    return out[0], out[1]


def walkover_score(boards: int, scale: PairScale, absent: tuple[bool, bool], present_vp: float) -> MatchScore:
    """A match not played (FSB L109A, walk-over): `absent` says which of (home, away) did not
    appear. "Det orsakande laget A får VP 0-25 med IMP-resultat som minimum för 0-25": the
    absent team gets no VPs and loses by the scale's blitz margin over the match's `boards`;
    the other team gets `present_vp` (the RA's figure, `byes.walkover_team_vp`, or the TD's) and
    wins by that margin. Both absent ("båda lagen räknas som walk-over-lämnande"): each gets no
    VPs and each loses by the blitz margin. No board is scored (`boards` stays empty)."""
    if not any(absent):
        raise ValueError("a walk-over needs the team that did not appear (FSB L109A)")
    if not 0 <= present_vp <= scale.maximum:
        raise ValueError(f"the walk-over's VPs are 0 to the scale's {scale.maximum:g}, not {present_vp:g}")
    margin = Fraction(scale.blitz(boards))
    out = walkover_imps_score(absent, margin, margin)
    home_out, away_out = absent
    out.vp = (0.0 if home_out else float(present_vp), 0.0 if away_out else float(present_vp))
    return out


def walkover_imps(boards: int, rules: ScoringRules) -> tuple[Fraction, Fraction]:
    """The IMPs of a walk-over in a match scored in IMPs only (docs/laws/choices.md #46): no board
    can be played because of the absent team, so each board is an artificial adjusted score, Avg+
    to the team that appeared and Avg- to the absent one (2007 L12C2(a)-(b) with L86A, 2017
    §12C2a-b and §86B2b: +3 / -3 IMPs unless the organiser varies them, `rules.artificial`).
    (the other team's gain, the absent team's loss) over the match's `boards`."""
    if boards < 1:
        raise ValueError("a walk-over is of a match with boards to play")
    imps = rules.artificial.imps
    return boards * to_fraction(imps["avg+"]), -boards * to_fraction(imps["avg-"])


def walkover_imps_score(absent: tuple[bool, bool], gain: Fraction, loss: Fraction) -> MatchScore:
    """A match scored in IMPs only that was not played (FSB L109A; docs/laws/choices.md #46):
    `absent` says which of (home, away) did not appear; the team that appeared gains `gain` IMPs
    and the absent team loses `loss` (`walkover_imps`, or the TD's margin for both). Both absent:
    each loses `loss`, won by nobody (choices #37: a non-balancing score adds to each team its own
    gain only). No VPs, no board scored."""
    if not any(absent):
        raise ValueError("a walk-over needs the team that did not appear (FSB L109A)")
    if gain < 0 or loss < 0:
        raise ValueError(f"a walk-over's IMPs are a gain and a loss of 0 or more, not {gain} and {loss}")
    out = MatchScore()
    home_out, away_out = absent
    out.home_imps = -loss if home_out else gain
    out.away_imps = -loss if away_out else gain
    out.home_won = Fraction(0) if home_out else gain
    out.away_won = Fraction(0) if away_out else gain
    return out


def team_vp(scale: PairScale, net_imps: Fraction, boards: int) -> float:
    """One team's VPs from its own net IMPs. A team's net IMPs are its margin over the other
    team: a board's IMPs are won by one team and lost by the other (L78B), so +6 for the home
    team and -6 for the visitors is a 6-IMP match, not the 12 between the two totals. Scored per
    team, a non-balancing adjusted score (2007 L12C1e, 2017 L12C1e / L12C2a: the two sides' scores
    need not balance; the knockout averaging of 2007 L86B / 2017 L12C4 is not applied, choices #37)
    gives each team the VPs of its own IMPs; balanced, the two add up to 20."""
    return scale.pair(net_imps, Fraction(0), boards)[0]
