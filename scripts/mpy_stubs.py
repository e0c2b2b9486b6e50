"""Lay out the MicroPython stubs of the board we flash (RPI_PICO, MicroPython 1.27) for mypy.

    python scripts/mpy_stubs.py [DIR]      (default build/mpy-stubs)

The stubs are PyPI packages pinned in requirements-dev.txt (`make setup` installs them): the
board's modules (machine, rp2, time with ticks_ms, micropython ...) and MicroPython's own reduced
standard library, which mypy must take as its whole typeshed when it checks the box's code
(firmware/mypy.ini: `custom_typeshed_dir`). Installed in the venv they change nothing for the
CPython checks (mypy takes the standard library from its own typeshed there), so this links their
files into one folder of their own. No network: only what is installed.
"""
from __future__ import annotations

import importlib.metadata
import pathlib
import shutil
import sys

DISTRIBUTIONS = ("micropython-rp2-rpi-pico-stubs", "micropython-stdlib-stubs")
ROOT = pathlib.Path(__file__).resolve().parent.parent


def lay_out(dest: pathlib.Path) -> int:
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    n = 0
    for name in DISTRIBUTIONS:
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            print(f"{name} is not installed: run `make setup` (pinned in requirements-dev.txt)", file=sys.stderr)
            return 2
        for f in dist.files or ():
            if f.suffix != ".pyi" and f.name != "VERSIONS":
                continue
            src = pathlib.Path(str(dist.locate_file(f)))
            out = dest / f
            out.parent.mkdir(parents=True, exist_ok=True)
            if not out.exists():
                out.symlink_to(src)
                n += 1
    print(f"mpy stubs: {n} files of {', '.join(DISTRIBUTIONS)} in {dest}")
    return 0


if __name__ == "__main__":
    sys.exit(lay_out(pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "build" / "mpy-stubs"))
