"""`make bench`: runs every bench/bench_*.py in its own process and prints what each reports.

Each bench module is a script that prints its own figures (ratios and percentiles, never
pass/fail). Running them in separate processes keeps one bench's warm caches and heap from
flattering the next. `python -m bench NAME ...` runs only the named ones (e.g. `engine`).
"""
import pathlib
import platform
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent


def machine_line() -> str:
    try:
        cpu = next(
            line.split(":", 1)[1].strip()
            for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        )
    except (OSError, StopIteration):
        cpu = platform.processor() or "unknown cpu"
    import os

    return f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, {cpu}, Python {platform.python_version()}"


def main(argv: list[str]) -> int:
    wanted = set(argv)
    scripts = sorted(HERE.glob("bench_*.py"))
    if wanted:
        scripts = [s for s in scripts if s.stem.removeprefix("bench_") in wanted]
    print(f"# make bench — {time.strftime('%Y-%m-%d %H:%M')} — {machine_line()}")
    failed = 0
    for script in scripts:
        print(f"\n## {script.stem.removeprefix('bench_')}", flush=True)
        rc = subprocess.call([sys.executable, str(script)], cwd=HERE.parent)
        if rc:
            print(f"!! {script.name} exited with {rc}")
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
