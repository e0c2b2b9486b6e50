"""One board of an IMP pairs event: Butler or cross-IMPs from result records (L78B, L78D).

Neither method is in the sources; L78D lets the RA approve them. Artificial scores get the
edition's IMPs (2007 L86A / 2017 §12C2b: +3 / 0 / -3) and are left out of the datum and the
comparisons; weighted scores get the weighted IMPs of their outcomes (A07: weight the IMPs).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from shared_rules.scoring.adjusted import Distribution, Fixed, SideValue, side_values
from shared_rules.scoring.imps import butler_datum, imp
from shared_rules.scoring.rounding import round_half_up
from shared_rules.scoring.rules import RULES, ScoringRules

METHODS = ("butler", "cross")


def _imps_against(value: Distribution, others: Sequence[int], sign: int) -> Fraction:
    """Mean IMPs of a (possibly weighted) NS value against each of `others`, from `sign`'s side."""
    total = Fraction(0)
    for w, s in value.outcomes:
        total += w * sum((imp(sign * (s - o)) for o in others), Fraction(0)) / len(others)
    return total


def _fixed_imps(value: Fixed, rules: ScoringRules) -> Fraction:
    if value.category is None:
        raise ValueError("a percentage adjusted score cannot be given in an IMP event; use avg+/avg/avg-")
    return Fraction(rules.artificial.imps[value.category]).limit_denominator(1000)


def score_board_imps(
    results: Sequence[Mapping[str, Any]],
    method: str = "butler",
    rules: ScoringRules | str = "fsb-2007",
    trim: int | None = None,
    decimals: int = 2,
) -> list[dict[str, Any]]:
    """Per record: `{"ns_pair", "ew_pair", "ns_imps", "ew_imps"}` (None where no result).

    Butler: against the datum of the plain table results (`butler_datum`, `trim` as there).
    Cross: the mean of the IMPs against every other plain result on the board.
    """
    if method not in METHODS:
        raise ValueError(f"IMP pairs method must be one of {', '.join(METHODS)}, not {method!r}")
    rules = RULES[rules] if isinstance(rules, str) else rules
    values = [side_values(r, rules) for r in results]
    plain = [v[0].outcomes[0][1] for v in values
             if v is not None and isinstance(v[0], Distribution) and len(v[0].outcomes) == 1 and v[0] == v[1]]
    datum = butler_datum(plain, trim) if method == "butler" and plain else None
    out = []
    for index, (r, v) in enumerate(zip(results, values, strict=True)):
        row: dict[str, Any] = {"ns_pair": r.get("ns_pair"), "ew_pair": r.get("ew_pair"), "ns_imps": None,
                               "ew_imps": None}
        if v is not None:
            for side, value, sign in (("ns", v[0], 1), ("ew", v[1], -1)):
                row[f"{side}_imps"] = round_half_up(_side_imps(value, sign, datum, plain, index, values, rules),
                                                    decimals)
        out.append(row)
    return out


def _side_imps(value: SideValue, sign: int, datum: int | None, plain: list[int], index: int,
               values: Sequence[tuple[SideValue, SideValue] | None], rules: ScoringRules) -> Fraction:
    if isinstance(value, Fixed):
        return _fixed_imps(value, rules)
    if datum is not None:
        return _imps_against(value, [datum], sign)
    # Cross-IMPs: compare with every other table's plain result (not with itself).
    others = [v[0].outcomes[0][1] for j, v in enumerate(values)
              if j != index and v is not None and isinstance(v[0], Distribution) and len(v[0].outcomes) == 1
              and v[0] == v[1]]
    if not others:
        return Fraction(0)
    return _imps_against(value, others, sign)


def score_imp_pairs_session(
    boards: Mapping[int, Sequence[Mapping[str, Any]]],
    method: str = "butler",
    rules: ScoringRules | str = "fsb-2007",
    decimals: int = 2,
) -> dict[str, Any]:
    """An IMP pairs session (Butler or cross-IMPs, L78B with L78D): every board by
    `score_board_imps`, each pair's IMPs summed over the boards it has a score on.

    Pair ids must be unique across directions (a Mitchell: "NS1", "EW1"). Returns
    `{"boards": {n: score_board_imps rows}, "pairs": {pair: {"imps", "boards"}}}`, totals
    rounded half-up to `decimals` from the board values as printed (what a reader can add up).
    """
    board_rows: dict[int, list[dict[str, Any]]] = {}
    totals: dict[Any, list[Fraction | int]] = {}
    for number in sorted(boards):
        rows = score_board_imps(boards[number], method, rules, decimals=decimals)
        board_rows[number] = rows
        for row in rows:
            for side in ("ns", "ew"):
                value = row[f"{side}_imps"]
                if value is None:
                    continue
                t = totals.setdefault(row[f"{side}_pair"], [Fraction(0), 0])
                t[0] += Fraction(str(value))
                t[1] += 1
    pairs = {p: {"imps": round_half_up(t[0], decimals), "boards": t[1]} for p, t in totals.items()}
    return {"boards": board_rows, "pairs": pairs}
