"""A fork server for the kill -9 tests: one interpreter with the code under test imported forks a
child per start, so a restart after a kill costs no interpreter start and no imports, while each
child is still a process of its own that opens its journal and is killed with SIGKILL
(tests/tablet/crash_child.py, tests/e2e/kill_probe.py; docs/testing.md)."""
from __future__ import annotations

import os
import select
import signal
import sys
import traceback
from collections.abc import Callable


def serve(run: Callable[[str], None]) -> None:
    """The server's loop: each line on stdin forks a child that runs `run(line)` and ends; the
    server answers the child's pid. The kernel reaps the children (killed or done)."""
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    for line in sys.stdin:
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                run(line)
            except BaseException:  # noqa: BLE001 - said on stderr; the child ends either way
                traceback.print_exc()
                code = 1
            finally:
                os._exit(code)
        print(pid, flush=True)


def wait_ended(pidfd: int, pid: int, timeout: float) -> None:
    """Wait for a forked child (not ours to wait for: the server's) to end, by its pidfd; closes it."""
    ready, _, _ = select.select([pidfd], [], [], timeout)
    assert ready, f"the child {pid} did not end"
    os.close(pidfd)
