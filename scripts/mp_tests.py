"""Run MicroPython-side test files under the real MicroPython unix port and report pass/fail.

    python scripts/mp_tests.py [FILE ...]     (default: every tests/**/mp/test_*.py)

Each file is a plain module with `test_*` functions (no pytest on the box interpreter). Every file
runs in its own `micropython` process with the repo root on sys.path; a test passes when it
returns, fails on any exception. Prints one line per test and a summary; exit status 1 on any
failure or a file that does not load. tests/protocol/test_micropython.py calls this, so
`make test` includes it.
"""
from __future__ import annotations

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

DRIVER = r"""
import sys
sys.path.insert(0, {root!r})
sys.path.insert(0, {dir!r})
failed = 0
try:
    mod = __import__({mod!r})
except Exception as e:
    print("LOADERROR", {mod!r}, repr(e))
    sys.print_exception(e)
    raise SystemExit(2)
names = sorted(n for n in dir(mod) if n.startswith("test_"))
for n in names:
    try:
        getattr(mod, n)()
        print("PASS", n)
    except Exception as e:
        failed += 1
        print("FAIL", n, repr(e))
        sys.print_exception(e)
raise SystemExit(1 if failed else 0)
"""


def micropython() -> str:
    cand = pathlib.Path(sys.executable).parent / "micropython"
    if cand.exists():
        return str(cand)
    return str(ROOT / ".venv/bin/micropython")


def run_file(path: pathlib.Path, timeout: float = 120) -> tuple[int, list[str], str]:
    """(exit status, result lines, full output) of one MicroPython test file."""
    code = DRIVER.format(root=str(ROOT), dir=str(path.parent), mod=path.stem)
    try:
        r = subprocess.run([micropython(), "-X", "heapsize=4M", "-c", code], cwd=ROOT,
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        return 124, [f"FAIL {path.name} timed out after {timeout:.0f} s"], str(e.stdout or "")
    out = r.stdout + r.stderr
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith(("PASS", "FAIL", "LOADERROR"))]
    return r.returncode, lines, out


def main(argv: list[str]) -> int:
    files = [pathlib.Path(a).resolve() for a in argv] or sorted(ROOT.glob("tests/**/mp/test_*.py"))
    passed = failed = 0
    for f in files:
        rc, lines, out = run_file(f)
        for ln in lines:
            print(f"{f.relative_to(ROOT)}: {ln}")
        p = sum(1 for ln in lines if ln.startswith("PASS"))
        passed += p
        if rc != 0:
            failed += max(1, len(lines) - p)
            print(out)
    print(f"micropython: {passed} passed, {failed} failed in {len(files)} files")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
