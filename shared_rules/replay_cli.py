"""`python -m shared_rules replay LOG.json` (or `-` for stdin): print the replayed state as JSON.

Exit codes: 0 done; 1 the log is malformed (not JSON, a key written twice, a bad field) or an event
cannot be applied (stderr says which);
2 usage error or unreadable file. Never a traceback for bad input.
"""
from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from shared_rules.replay import LogError, loads, replay

USAGE = "usage: python -m shared_rules replay LOG.json | -   (reads the log from stdin with -)"


def _read(path: str, stdin: TextIO) -> str:
    if path == "-":
        return stdin.read()
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


def main(argv: list[str], stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    out = stdout or sys.stdout
    if len(argv) != 1 or argv[0] in ("-h", "--help"):
        print(USAGE, file=sys.stderr if len(argv) != 1 else out)
        return 0 if argv in (["-h"], ["--help"]) else 2
    try:
        text = _read(argv[0], stdin or sys.stdin)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"error: cannot read {argv[0]}: {exc}", file=sys.stderr)
        return 2
    try:
        log: Any = loads(text)
    except LogError as exc:  # valid JSON, but a key written twice
        print(f"error: {argv[0]}: {_one_line(exc)}", file=sys.stderr)
        return 1
    except (ValueError, RecursionError) as exc:  # ValueError: bad JSON, or a number of > 4300 digits
        print(f"error: {argv[0]} is not valid JSON: {_one_line(exc)}", file=sys.stderr)
        return 1
    try:
        state = replay(log)
    except LogError as exc:
        print(f"error: {argv[0]}: {_one_line(exc)}", file=sys.stderr)
        return 1
    except Exception as exc:  # a bug in the engine: still no traceback for the TD, but say so
        print(f"error: {argv[0]}: internal error in the rules engine, please report it with this log: {exc!r}",
              file=sys.stderr)
        return 3
    try:
        json.dump(state, out, indent=2)
        out.write("\n")
        out.flush()
    except BrokenPipeError:  # e.g. piped into `head`: the reader has gone, nothing to report
        return 0
    return 0
