"""`make uf2` in the field: where no copy of the stock UF2 is at hand it downloads one and keeps it
only if its sha256 is the pinned one. The download here is a file:// URL (no network needed)."""
import shutil
import subprocess

from tests.conftest import ROOT


def fetch(tmp_path, src):
    repo = tmp_path / "repo"
    (repo / "hardware/emu").mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "hardware/emu/fetch_uf2.sh", repo / "hardware/emu/fetch_uf2.sh")
    env = {"PATH": "/usr/bin:/bin", "BOX_RP2040_ASSETS": "", "UF2_URL": src.as_uri()}
    return repo, subprocess.run(["bash", str(repo / "hardware/emu/fetch_uf2.sh")], env=env,
                                capture_output=True, text=True)


def test_a_download_whose_sha256_differs_from_the_pinned_one_is_refused_and_not_kept(tmp_path):
    bad = tmp_path / "tampered.uf2"
    bad.write_bytes(b"UF2\n" + b"\0" * 508)
    repo, p = fetch(tmp_path, bad)
    assert p.returncode != 0
    assert "refused: sha256" in p.stderr
    assert list((repo / "build/rp2040").iterdir()) == []


def test_the_pinned_uf2_is_kept_where_the_emulator_looks_for_it(tmp_path):
    from hardware.emu.harness import UF2, assets

    a = assets()
    if a is None:  # no copy at hand: nothing to serve as the download (the chip tests skip too)
        import pytest

        pytest.skip("RP2040 assets not found: set BOX_RP2040_ASSETS")
    repo, p = fetch(tmp_path, a / UF2)
    assert p.returncode == 0, p.stderr
    assert (repo / "build/rp2040" / UF2).read_bytes() == (a / UF2).read_bytes()
