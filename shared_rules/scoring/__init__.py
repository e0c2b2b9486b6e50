"""Scoring: Law 77 score table, Law 78 scoring methods and the FSB scoring supplements.

Pure functions over plain data; no I/O. `docs/scoring.md` describes the API and the choices made
where the laws are silent.
"""
from shared_rules.scoring.score_table import (
    PASSED_OUT,
    Contract,
    declarer_score,
    parse_contract,
    parse_declarer,
    parse_vulnerability,
    score,
)

__all__ = [
    "PASSED_OUT",
    "Contract",
    "declarer_score",
    "parse_contract",
    "parse_declarer",
    "parse_vulnerability",
    "score",
]
