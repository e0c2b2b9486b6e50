"""Scoring bench: time to score a 100-table pairs session of 27 boards by matchpoints.

Results are drawn with a fixed seed from realistic contracts (Law 77 via shared_rules.scoring
.score), with about 2% of results missing and a few artificial scores so Neuberg (FSB 98C)
and the 12C2(c) cap run as they would at a real club. Prints figures, never pass/fail.
"""
from __future__ import annotations

import pathlib
import random
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from shared_rules.boards import vulnerability  # noqa: E402
from shared_rules.scoring import score, score_pairs_session  # noqa: E402
from shared_rules.types import SEATS

TABLES = 100
BOARDS = 27
REPEATS = 7
GOAL_S = 1.0


def make_session(seed: int = 2026) -> dict[int, list[dict]]:
    rng = random.Random(seed)
    boards: dict[int, list[dict]] = {}
    for b in range(1, BOARDS + 1):
        vul = vulnerability(b)
        # A few likely contracts per board, as in a real field.
        options = [(f"{rng.randint(1, 6)}{rng.choice('CDHSN').replace('N', 'NT')}", rng.choice(SEATS))
                   for _ in range(4)]
        rows = []
        for t in range(1, TABLES + 1):
            rec: dict = {"ns_pair": f"NS{t}", "ew_pair": f"EW{(t + b) % TABLES + 1}", "vulnerability": vul}
            r = rng.random()
            if r < 0.02:
                rec["score_ns"] = None  # board not played at this table: Neuberg for the rest
            elif r < 0.025:
                rec["score_ns"] = None
                rec["adjusted"] = {"kind": "artificial", "ns": "avg+", "ew": "avg-"}
            elif r < 0.035:
                rec["score_ns"] = 0  # passed out
            else:
                contract, declarer = rng.choice(options)
                stake = "X" if rng.random() < 0.05 else ""
                level = int(contract[0])
                tricks = max(0, min(13, level + 6 + round(rng.gauss(0, 1.2))))
                rec["score_ns"] = score(contract + stake, declarer, tricks, vul)
            rows.append(rec)
        boards[b] = rows
    return boards


def main() -> int:
    session = make_session()
    results = sum(len(v) for v in session.values())
    times = []
    out = None
    for _ in range(REPEATS):
        start = time.perf_counter()
        out = score_pairs_session(session, expected=TABLES)
        times.append(time.perf_counter() - start)
    assert out is not None
    median = statistics.median(times)
    print(f"pairs session: {TABLES} tables x {BOARDS} boards = {results} results, "
          f"{len(out['pairs'])} pairs, Neuberg N={TABLES}")
    print(f"score_pairs_session: median {median * 1000:.1f} ms over {REPEATS} runs "
          f"(min {min(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms); "
          f"goal < {GOAL_S:.0f} s: median is {median / GOAL_S:.1%} of the goal")
    print(f"per result: {median / results * 1e6:.1f} us")
    # Law 77 alone, for scale: every contract x stake x vulnerability x tricks.
    calls = 0
    start = time.perf_counter()
    for level in range(1, 8):
        for strain in ("C", "D", "H", "S", "NT"):
            for stake in ("", "X", "XX"):
                for vul in ("None", "NS", "EW", "All"):
                    for tricks in range(14):
                        score(f"{level}{strain}{stake}", "S", tricks, vul)
                        calls += 1
    law77 = time.perf_counter() - start
    print(f"Law 77 score(): {calls} calls in {law77 * 1000:.1f} ms ({law77 / calls * 1e6:.2f} us per call)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
