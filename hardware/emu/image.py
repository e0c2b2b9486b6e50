"""The box's flash as `make flash` leaves it: scripts/flash.sh stages the files (FLASH_STAGE,
FLASH_DRY_RUN: nothing is sent anywhere), and they become the LittleFS filesystem the stock
MicroPython RPI_PICO build mounts as / (4096-byte blocks, prog size 256, from flash offset
0xA0000 to the end of the 2 MiB flash)."""
import os
import pathlib
import subprocess
import tempfile

from littlefs import LittleFS

ROOT = pathlib.Path(__file__).resolve().parents[2]
FLASH_SIZE = 2 * 1024 * 1024
FS_OFFSET = 0xA0000
BLOCK_SIZE = 4096
BLOCK_COUNT = (FLASH_SIZE - FS_OFFSET) // BLOCK_SIZE  # 352
PROG_SIZE = 256


def stage(out: pathlib.Path, seat: str | None = None, bus: bool = False,
          display: str = "spi") -> list[str]:
    """Run scripts/flash.sh (dry run) staging into `out`; the staged files' relative paths.
    display: how the panel is wired ("spi" or "i2c": flash.sh's DISPLAY_BUS)."""
    env = dict(os.environ, FLASH_STAGE=str(out), FLASH_DRY_RUN="1", BUS="1" if bus else "",
               DISPLAY_BUS=display)
    subprocess.run(["bash", str(ROOT / "scripts/flash.sh"), "/dev/null", seat or ""],
                   cwd=ROOT, env=env, check=True, capture_output=True)
    return sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())


def littlefs_image(tree: pathlib.Path) -> bytes:
    fs = LittleFS(block_size=BLOCK_SIZE, block_count=BLOCK_COUNT, prog_size=PROG_SIZE)
    for p in sorted(tree.rglob("*")):
        rel = "/" + str(p.relative_to(tree))
        if p.is_dir():
            fs.mkdir(rel)
        else:
            with fs.open(rel, "wb") as f:
                f.write(p.read_bytes())
    return bytes(fs.context.buffer)


def flash_file(path: pathlib.Path, seat: str | None = None, bus: bool = False,
               extra_config: dict | None = None, display: str = "spi") -> list[str]:
    """Write a 2 MiB flash file (erased, 0xFF) with the box's filesystem at FS_OFFSET; the
    emulator puts the MicroPython UF2 over it at boot. Returns the deployed files.
    extra_config: keys added to the /config.json flash.sh wrote (the bench's "heap_log")."""
    with tempfile.TemporaryDirectory(prefix="box_flash_") as tmp:
        tree = pathlib.Path(tmp) / "stage"
        files = stage(tree, seat, bus, display)
        if extra_config:
            import json

            cfg = json.loads((tree / "config.json").read_text())
            (tree / "config.json").write_text(json.dumps({**cfg, **extra_config}))
        fs = littlefs_image(tree)
    flash = bytearray(b"\xff" * FLASH_SIZE)
    flash[FS_OFFSET:FS_OFFSET + len(fs)] = fs
    path.write_bytes(bytes(flash))
    return files


def read_file(flash_path: pathlib.Path, name: str) -> bytes | None:
    """A file from a box's flash (after the emulator wrote it back), or None."""
    data = flash_path.read_bytes()[FS_OFFSET:]
    fs = LittleFS(block_size=BLOCK_SIZE, block_count=BLOCK_COUNT, prog_size=PROG_SIZE,
                  mount=False)
    fs.context.buffer = bytearray(data)
    fs.mount()
    try:
        with fs.open(name, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None
