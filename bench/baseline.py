"""The code before the structure work (commit 2b32f5b), extracted with `git archive` into build/,
for the benches that run the same workload on it beside today's code (bench_engine.py: the
engine; bench_tablet.py: the tablet's controller and its real path)."""
from __future__ import annotations

import io
import pathlib
import shutil
import subprocess
import tarfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
BASELINE = "2b32f5b"  # main on 2026-11-25, before Table.step, the engine's tray and the controller's parts


def extract(name: str, paths: tuple[str, ...], check: str, bench_scripts: tuple[str, ...] = ()) -> pathlib.Path | None:
    """`paths` of the baseline in build/<name>-2b32f5b/ (extracted once: `check` is a file that
    is there when it was), and today's `bench_scripts` copied into its bench/ so the same driver
    runs on both. None, with the reason printed, where the repository or the commit is not at hand."""
    dest = ROOT / "build" / f"{name}-{BASELINE}"
    if not (dest / check).is_file():
        try:
            tar = subprocess.run(["git", "archive", "--format=tar", BASELINE, *paths], cwd=ROOT,
                                 capture_output=True, check=True, timeout=120).stdout
        except (OSError, subprocess.SubprocessError) as exc:
            print(f"old beside new: the baseline {BASELINE} is not available here ({exc}); comparison left out")
            return None
        dest.mkdir(parents=True, exist_ok=True)
        with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
            archive.extractall(dest, filter="data")
    for script in bench_scripts:
        (dest / "bench").mkdir(exist_ok=True)
        shutil.copyfile(ROOT / "bench" / script, dest / "bench" / script)
    return dest
