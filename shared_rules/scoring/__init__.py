"""Scoring: Law 77 score table, Law 78 scoring methods and the FSB scoring supplements.

Pure functions over plain data; no I/O. `docs/scoring.md` describes the API and the choices made
where the laws are silent. Modules, one job each:

- score_table: Law 77 (`score`, the seam of docs/interfaces.md section 2)
- matchpoints: L78A and Neuberg (FSB 98C); board: one board from result records;
  session: a pairs session (totals, percentages, places, byes, 12C2(c))
- imps: L78B scale, team boards, cross-IMPs, Butler; aggregate: L78C; vp: victory points
- team_match: a team match from the two rooms' records; wbf_vp: the WBF 2013 20-0 scale
- adjusted: L12 artificial / assigned / weighted / split; fouled: L87 / FSB 99
- tiebreaks: FSB 95; byes: FSB 96; tops: FSB 97; rules: edition and jurisdiction presets
"""
from shared_rules.scoring.adjusted import AdjustedError
from shared_rules.scoring.aggregate import aggregate
from shared_rules.scoring.board import score_board
from shared_rules.scoring.imps import butler, cross_imps, imp, team_board
from shared_rules.scoring.matchpoints import board_matchpoints, neuberg
from shared_rules.scoring.rules import RULES, ScoringRules, get_rules
from shared_rules.scoring.score_table import (
    PASSED_OUT,
    Contract,
    declarer_score,
    parse_contract,
    parse_declarer,
    parse_vulnerability,
    score,
)
from shared_rules.scoring.session import score_pairs_session
from shared_rules.scoring.vp import TableScale, WbfContinuousScale, victory_points

__all__ = [
    "PASSED_OUT",
    "RULES",
    "AdjustedError",
    "Contract",
    "ScoringRules",
    "TableScale",
    "WbfContinuousScale",
    "aggregate",
    "board_matchpoints",
    "butler",
    "cross_imps",
    "declarer_score",
    "get_rules",
    "imp",
    "neuberg",
    "parse_contract",
    "parse_declarer",
    "parse_vulnerability",
    "score",
    "score_board",
    "score_pairs_session",
    "team_board",
    "victory_points",
]
