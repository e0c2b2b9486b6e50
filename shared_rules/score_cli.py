"""`python -m shared_rules score CONTRACT DECLARER TRICKS --vul V [--json]`: Law 77 for a TD.

Prints the score from North-South's side with the breakdown a TD reads out at the table, e.g.
`4HX by S, 10 tricks, NS vulnerable: NS +790`. Malformed input: one line on stderr, exit 2.
"""
from __future__ import annotations

import argparse
import json
import sys

from shared_rules.scoring.score_table import (
    check_tricks,
    is_vulnerable,
    parse_contract,
    parse_declarer,
    parse_vulnerability,
    score_breakdown,
)

_VUL_WORDS = {"None": "nobody vulnerable", "NS": "NS vulnerable", "EW": "EW vulnerable", "All": "both vulnerable"}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        # argparse would print the whole usage; a TD wants the one line that says what is wrong.
        raise ValueError(message)


def _parser() -> _Parser:
    parser = _Parser(
        prog="python -m shared_rules score",
        allow_abbrev=False,
        description="Score one board by Law 77 (2007 L77 = 2017 §77), from North-South's side.",
        epilog="examples: score 4HX S 10 --vul NS | score 3NT W 8 --vul All --json | score PASS --vul None",
    )
    parser.add_argument("contract", help="e.g. 4H, 3NT, 4HX, 7SXX, or PASS for a passed-out board")
    parser.add_argument("declarer", nargs="?", help="N, E, S or W (not needed for PASS)")
    parser.add_argument("tricks", nargs="?", help="tricks taken by declarer's side, 0-13")
    parser.add_argument("--vul", "-v", required=True, help="vulnerability: None, NS, EW or All")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    return parser


def _result_words(tricks: int, level: int) -> str:
    diff = tricks - (level + 6)
    return "=" if diff == 0 else f"{diff:+d}"


def run(argv: list[str]) -> tuple[dict[str, object], bool]:
    """Parse and score -> (result, as_json); ValueError with a TD-readable message on bad input."""
    args = _parser().parse_args(argv)
    return _score(args), bool(args.json)


def _score(args: argparse.Namespace) -> dict[str, object]:
    contract = parse_contract(args.contract)
    vul = parse_vulnerability(args.vul)
    if contract.passed_out:
        return {"contract": "PASS", "declarer": None, "tricks": None, "vulnerability": vul,
                "result": None, "declarer_score": 0, "score_ns": 0, "score_ew": 0, "breakdown": [],
                "text": f"Passed out, {_VUL_WORDS[vul]}: NS 0, EW 0 (2007 L77 / 2017 §77)"}
    if args.declarer is None or args.tricks is None:
        raise ValueError("give the declarer (N, E, S or W) and the tricks taken (0-13) after the contract")
    declarer = parse_declarer(args.declarer)
    try:
        tricks = int(args.tricks)
    except ValueError:
        raise ValueError(f"tricks taken must be a whole number 0-13, not {args.tricks!r}") from None
    check_tricks(tricks)
    items = score_breakdown(contract, tricks, is_vulnerable(vul, declarer))
    points = sum(p for _, p in items)
    ns = points if declarer in ("N", "S") else -points
    result = _result_words(tricks, contract.level)
    text = f"{contract} by {declarer}, {tricks} tricks, {_VUL_WORDS[vul]}: NS {ns:+d} ({contract}{result}, EW {-ns:+d})"
    to = "declarer" if points > 0 else "the defenders"
    detail = " + ".join(f"{label} {abs(p)}" for label, p in items)
    text += f"\n  {detail} = {abs(points)} to {to} (2007 L77 / 2017 §77)"
    return {"contract": str(contract), "declarer": declarer, "tricks": tricks, "vulnerability": vul,
            "result": result, "declarer_score": points, "score_ns": ns, "score_ew": -ns,
            "breakdown": [{"item": label, "points": p} for label, p in items], "text": text}


def main(argv: list[str]) -> int:
    if any(a in ("-h", "--help") for a in argv):
        _parser().print_help()
        return 0
    try:
        out, as_json = run(argv)
    except ValueError as exc:
        print(f"score: error: {exc}\n(usage: python -m shared_rules score CONTRACT DECLARER TRICKS --vul None|NS|EW|All"
              " [--json]; --help for more)", file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps(out))
    else:
        print(out["text"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
