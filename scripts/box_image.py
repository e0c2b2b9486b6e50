"""What goes onto a box: the compiled modules the board runs, staged as a directory or built into
a ROMFS image (the read-only filesystem MicroPython mounts at /rom and imports from *in place*:
the bytecode stays in flash and costs no heap, see docs.micropython.org reference/romfs).

    python scripts/box_image.py stage DIR        # protocol/*.mpy and the firmware's *.mpy in DIR
    python scripts/box_image.py romfs FILE       # the same tree as one ROMFS image

scripts/flash.sh deploys either; bench/bench_box.py measures the heap with the image mounted the
way the board mounts it. Expects build/mpy from scripts/mpy-check.sh.
"""
import pathlib
import shutil
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
MPY = ROOT / "build/mpy"
# Not on the board: main stays .py (MicroPython runs /main.py at boot from the filesystem), the
# unix backend, and the freeze manifest (build data for custom images).
NOT_ON_BOARD = ("main.mpy", "hal_unix.mpy", "manifest.mpy")
# The tablet's side of the protocol (the plain-dict codec and TabletEndpoint): the box imports
# neither. The heap benchmark adds them (with_tablet) because it plays the tablet in the same
# interpreter.
TABLET_ONLY = ("messages.mpy", "tablet_endpoint.mpy")


def stage(out: pathlib.Path, with_tablet: bool = False) -> list[str]:
    """Copy the board's .mpy files into out (which must not exist); returns their paths in it."""
    if not (MPY / "firmware").is_dir():
        raise SystemExit("box_image: build/mpy is missing: run scripts/mpy-check.sh first")
    (out / "protocol").mkdir(parents=True)
    names = []
    for f in sorted((MPY / "protocol").glob("*.mpy")):
        if f.name in TABLET_ONLY and not with_tablet:
            continue
        shutil.copy(f, out / "protocol" / f.name)
        names.append("protocol/" + f.name)
    for f in sorted((MPY / "firmware").glob("*.mpy")):
        if f.name not in NOT_ON_BOARD:
            shutil.copy(f, out / f.name)
            names.append(f.name)
    return names


def romfs(out_file: pathlib.Path, with_tablet: bool = False) -> int:
    """Build the ROMFS image of the staged tree; returns its size in bytes."""
    from mpremote.romfs import make_romfs

    with tempfile.TemporaryDirectory(prefix="box_image_") as tmp:
        tree = pathlib.Path(tmp) / "rom"
        stage(tree, with_tablet)
        image = make_romfs(str(tree), mpy_cross=False)
    out_file.parent.mkdir(parents=True, exist_ok=True)
    out_file.write_bytes(image)
    return len(image)


def main(argv: list[str]) -> int:
    if len(argv) != 3 or argv[1] not in ("stage", "romfs"):
        print("usage: box_image.py stage DIR | romfs FILE", file=sys.stderr)
        return 2
    target = pathlib.Path(argv[2])
    if argv[1] == "stage":
        if target.exists():
            shutil.rmtree(target)
        for name in stage(target):
            print(name)
    else:
        import contextlib
        import io

        with contextlib.redirect_stdout(io.StringIO()):  # make_romfs prints the tree
            n = romfs(target)
        print(f"box_image: {target} ({n} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
