"""`make uf2` in the field: it provides the stock UF2 and the RP2040 boot ROM where the emulator
looks for them, downloads only what no searched directory holds, and keeps a download only if it
is what it should be (hardware/emu/check_assets.py: by content, not by the hash of one copy).
Downloads here are file:// URLs or a closed port on 127.0.0.1 (no network needed); the script
runs from a copy of the repository's files in tmp_path, with a user cache of its own, so the
machine's own copies are not in its search path."""
import shutil
import socket
import struct
import subprocess

import pytest

from tests.box_rp2040.test_bootrom_from_ts import as_ts
from tests.conftest import ROOT

UF2 = "micropython-v1.27.0-RPI_PICO.uf2"
ROM = "rp2040-bootrom-b1.bin"


def unreachable_url():
    """An http URL on 127.0.0.1 where nothing listens: what a machine without network gets."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return f"http://127.0.0.1:{port}/bootrom.ts"


def fetch(tmp_path, uf2_url, rom_url, assets_dir=""):
    repo = tmp_path / "repo"
    (repo / "hardware/emu").mkdir(parents=True, exist_ok=True)
    for f in ("fetch_uf2.sh", "bootrom_from_ts.py", "check_assets.py"):
        shutil.copy(ROOT / "hardware/emu" / f, repo / "hardware/emu" / f)
    env = {"PATH": "/usr/bin:/bin", "BOX_RP2040_ASSETS": str(assets_dir),
           "XDG_CACHE_HOME": str(tmp_path / "cache"), "UF2_URL": uf2_url, "BOOTROM_URL": rom_url}
    return repo, subprocess.run(["bash", str(repo / "hardware/emu/fetch_uf2.sh")], env=env,
                                capture_output=True, text=True)


@pytest.fixture
def real():
    from hardware.emu.harness import assets

    a = assets()
    if a is None:  # no copy at hand: nothing to serve as the download (the chip tests skip too)
        pytest.skip("RP2040 assets not found: set BOX_RP2040_ASSETS")
    return a


@pytest.fixture
def uf2_only(tmp_path, real):
    """A directory holding the UF2 but no boot ROM: the field before this change."""
    d = tmp_path / "assets"
    d.mkdir()
    shutil.copy(real / UF2, d / UF2)
    return d


def left_in(repo):
    d = repo / "build/rp2040"
    return sorted(p.name for p in d.iterdir()) if d.exists() else []


def test_a_download_that_is_no_uf2_is_refused_and_not_kept(tmp_path):
    bad = tmp_path / "tampered.uf2"
    bad.write_bytes(b"UF2\n" + b"\0" * 508)
    repo, p = fetch(tmp_path, bad.as_uri(), (tmp_path / "absent.ts").as_uri())
    assert p.returncode != 0
    assert "uf2: refused: not a UF2: block 0 lacks the UF2 magic numbers" in p.stderr
    assert left_in(repo) == []


def test_micropython_s_own_download_is_taken_as_well_as_a_build_from_the_tag(tmp_path, real):
    """The official file differs from the local build in its build date and banner: both are
    MicroPython v1.27.0 for the Pico, both are kept (a sha256 pin refused the official one)."""
    from tests.box_rp2040.test_check_assets import as_official

    served = tmp_path / "RPI_PICO-20251209-v1.27.0.uf2"
    served.write_bytes(as_official((real / UF2).read_bytes()))
    repo, p = fetch(tmp_path, served.as_uri(), (real / ROM).as_uri())
    assert p.returncode == 0, p.stderr
    assert "MicroPython v1.27.0 of 2025-12-09" in p.stdout
    assert (repo / "build/rp2040" / UF2).read_bytes() == served.read_bytes()


def test_the_pinned_uf2_is_kept_where_the_emulator_looks_for_it(tmp_path, real):
    src = tmp_path / "served"
    src.mkdir()
    (src / "bootrom.ts").write_text(as_ts(struct.unpack("<4096I", (real / ROM).read_bytes())))
    repo, p = fetch(tmp_path, (real / UF2).as_uri(), (src / "bootrom.ts").as_uri())
    assert p.returncode == 0, p.stderr
    assert (repo / "build/rp2040" / UF2).read_bytes() == (real / UF2).read_bytes()


def test_with_both_files_at_hand_nothing_is_fetched_or_copied(tmp_path, real):
    repo, p = fetch(tmp_path, unreachable_url(), unreachable_url(), assets_dir=real)
    assert p.returncode == 0, p.stderr
    assert "fetching" not in p.stdout
    assert f"bootrom: {real}/{ROM}" in p.stdout
    assert left_in(repo) == []


def test_the_boot_rom_is_fetched_as_rp2040js_ships_it_and_set_beside_the_uf2(tmp_path, real, uf2_only):
    # The club's machine has the UF2 (fetched before the boot ROM was) and no boot ROM: `make uf2`
    # gets the ROM from the pinned bootrom.ts, and puts a copy of the UF2 beside it, since the
    # emulator takes the two from one directory.
    served = tmp_path / "bootrom.ts"
    served.write_text(as_ts(struct.unpack("<4096I", (real / ROM).read_bytes())))
    repo, p = fetch(tmp_path, unreachable_url(), served.as_uri(), assets_dir=uf2_only)
    assert p.returncode == 0, p.stderr
    assert "uf2: fetching" not in p.stdout
    assert (repo / "build/rp2040" / ROM).read_bytes() == (real / ROM).read_bytes()
    assert (repo / "build/rp2040" / UF2).read_bytes() == (real / UF2).read_bytes()
    assert left_in(repo) == [UF2, ROM]


def test_a_mirror_of_the_plain_binary_is_taken_too(tmp_path, real, uf2_only):
    repo, p = fetch(tmp_path, unreachable_url(), (real / ROM).as_uri(), assets_dir=uf2_only)
    assert p.returncode == 0, p.stderr
    assert (repo / "build/rp2040" / ROM).read_bytes() == (real / ROM).read_bytes()


def test_offline_without_a_boot_rom_it_says_where_to_put_one_and_leaves_nothing_half_written(
        tmp_path, uf2_only):
    url = unreachable_url()
    repo, p = fetch(tmp_path, unreachable_url(), url, assets_dir=uf2_only)
    assert p.returncode == 1
    assert f"bootrom: could not download {url} (no network?): put {ROM} in build/rp2040/" in p.stderr
    assert ROM not in left_in(repo)
    assert [n for n in left_in(repo) if n.startswith(".")] == []


@pytest.mark.parametrize("tamper", ["one word", "not a rom"])
def test_a_boot_rom_other_than_the_pinned_one_is_refused_and_not_kept(tmp_path, real, uf2_only, tamper):
    words = list(struct.unpack("<4096I", (real / ROM).read_bytes()))
    words[0x14] ^= 1  # pico-bootrom's git revision (data table entry GR)
    served = tmp_path / "bootrom.ts"
    served.write_text(as_ts(words) if tamper == "one word" else "<html>404: Not Found</html>\n")
    repo, p = fetch(tmp_path, unreachable_url(), served.as_uri(), assets_dir=uf2_only)
    assert p.returncode == 1
    assert "bootrom: refused:" in p.stderr
    assert ("git revision 0x00a4a190, not B1's" if tamper == "one word" else "found 0") in p.stderr
    assert ROM not in left_in(repo)
    assert [n for n in left_in(repo) if n.startswith(".")] == []


def test_a_copy_with_the_wrong_sha256_is_not_taken_for_the_rom(tmp_path, real, uf2_only):
    (uf2_only / ROM).write_bytes(b"\xff" * 16384)
    repo, p = fetch(tmp_path, unreachable_url(), unreachable_url(), assets_dir=uf2_only)
    assert p.returncode == 1
    assert f"bootrom: ignored {uf2_only}/{ROM}: not the RP2040's boot ROM" in p.stderr
    assert ROM not in left_in(repo)


def test_what_is_fetched_is_kept_for_the_machines_other_checkouts(tmp_path, real):
    src = tmp_path / "served"
    src.mkdir()
    (src / "bootrom.ts").write_text(as_ts(struct.unpack("<4096I", (real / ROM).read_bytes())))
    repo, p = fetch(tmp_path, (real / UF2).as_uri(), (src / "bootrom.ts").as_uri())
    assert p.returncode == 0, p.stderr
    cache = tmp_path / "cache" / "bidding-box" / "rp2040"
    assert sorted(x.name for x in cache.iterdir()) == sorted([ROM, UF2])
    # another checkout (offline) finds the pair there and fetches nothing
    other = tmp_path / "other" / "hardware/emu"
    other.mkdir(parents=True)
    for f in ("fetch_uf2.sh", "bootrom_from_ts.py", "check_assets.py"):
        shutil.copy(ROOT / "hardware/emu" / f, other / f)
    r = subprocess.run(["bash", str(other / "fetch_uf2.sh")], capture_output=True, text=True,
                       env={"PATH": "/usr/bin:/bin", "XDG_CACHE_HOME": str(tmp_path / "cache"),
                            "UF2_URL": unreachable_url(), "BOOTROM_URL": unreachable_url()})
    assert r.returncode == 0, r.stderr
    assert f"uf2: {cache}/{UF2}" in r.stdout and "fetching" not in r.stdout
