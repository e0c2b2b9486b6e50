"""A test run leaves the checkout as it found it: tests write under build/ and the temporary
folders only (screenshots included: `make screenshots` is what refreshes docs/screenshots).

The state of the work tree as git sees it (`git status --porcelain`: changed tracked files and
files git does not know, each with a hash of its content) is taken when the session starts and
again when it ends; any difference fails the run and is listed. A checkout that is not a git
work tree (a tarball) is not checked. Editing a file of the tree while the suite runs trips it
too: the message says which.
"""
from __future__ import annotations

import hashlib
import pathlib
import subprocess

import pytest

_BEFORE = pytest.StashKey[dict]()
_CHANGED = pytest.StashKey[list]()


def tree_state(root: pathlib.Path) -> dict[str, str] | None:
    """{path: git status code + content hash} for every path `git status` reports, or None
    outside a git work tree."""
    try:
        r = subprocess.run(["git", "status", "--porcelain=v1", "-z", "--untracked-files=all"],
                           cwd=root, capture_output=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if r.returncode != 0:
        return None
    state: dict[str, str] = {}
    fields = r.stdout.decode("utf-8", "surrogateescape").split("\0")
    i = 0
    while i < len(fields):
        entry = fields[i]
        i += 1
        if len(entry) < 4:
            continue
        code, path = entry[:2], entry[3:]
        if code[0] in "RC":  # a rename or copy: its source path follows
            i += 1
        f = root / path
        try:
            digest = hashlib.sha256(f.read_bytes()).hexdigest() if f.is_file() else "-"
        except OSError:
            digest = "?"
        state[path] = f"{code} {digest}"
    return state


def changes(before: dict[str, str], after: dict[str, str]) -> list[str]:
    out = []
    for path in sorted(set(before) | set(after)):
        if before.get(path) != after.get(path):
            now = after.get(path)
            what = ("put back" if now is None else "new" if now.startswith("??")
                    else "deleted" if "D" in now[:2] else "changed")
            out.append(f"{path} ({what})")
    return out


def pytest_sessionstart(session: pytest.Session) -> None:
    state = tree_state(session.config.rootpath)
    if state is not None:
        session.config.stash[_BEFORE] = state


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    before = session.config.stash.get(_BEFORE, None)
    if before is None:
        return
    after = tree_state(session.config.rootpath)
    if after is None:
        return
    changed = changes(before, after)
    session.config.stash[_CHANGED] = changed
    if changed and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED



@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:  # noqa: ANN001
    changed = config.stash.get(_CHANGED, [])
    if changed:
        terminalreporter.write_line(
            f"the run changed the checkout (tests write under build/ or a temporary folder only; "
            f"`make screenshots` refreshes docs/screenshots): {', '.join(changed[:20])}", red=True)
