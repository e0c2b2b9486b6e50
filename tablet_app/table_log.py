"""`python -m tablet_app.table_log TABLET.db [BOARD]`: print a board's table log (docs/table-log.md)
from the tablet's journal, for `python -m shared_rules replay -` (the TD's second opinion).

The journal is replayed exactly as a restarted tablet replays it (`Controller.table_log`); boards
of the round in progress are available, the board in play by default. Exit 0 with the log as JSON;
1 when the journal has no such board or cannot be read (one line on stderr); 2 usage error.
"""
from __future__ import annotations

import json
import pathlib
import sys

USAGE = "usage: python -m tablet_app.table_log TABLET.db [BOARD]"


def main(argv: list[str]) -> int:
    if not 1 <= len(argv) <= 2 or argv[0] in ("-h", "--help") or (len(argv) == 2 and not argv[1].isdigit()):
        print(USAGE, file=sys.stderr)
        return 2
    path = pathlib.Path(argv[0])
    if not path.is_file():
        print(f"error: no tablet journal at {path}", file=sys.stderr)
        return 1
    from tablet_app.controller import Controller, Refused
    from tablet_app.journal import JournalError

    try:
        ctl = Controller(path)
    except JournalError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    try:
        log = ctl.table_log(int(argv[1]) if len(argv) == 2 else None)
    except Refused as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    finally:
        ctl.close()
    json.dump(log, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
