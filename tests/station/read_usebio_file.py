"""Reads a USEBIO file with the two independent readers' logic in usebio_readers.py and prints what
each makes of it, or why it refuses it.

Files written by other programs (Compscore, EBUScore, ...) are not kept in this repository: they
hold other clubs' players. Run this by hand on such a file to see that the reader logic takes a
real writer's file, not only ours:

    .venv/bin/python -m tests.station.read_usebio_file FILE.xml
"""
from __future__ import annotations

import json
import pathlib
import sys

from .usebio_readers import Rejected, cobalt, import_usebio


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    raw = pathlib.Path(argv[0]).read_bytes()
    status = 0
    for name, read in (("cobalt", cobalt), ("ImportUsebio", import_usebio)):
        try:
            got = read(raw)
        except Rejected as exc:
            print(f"{name}: refused: {exc}")
            status = 1
            continue
        print(f"{name}: read", json.dumps(got, default=str)[:400])
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
