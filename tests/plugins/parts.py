"""The heavy parts a test may start, the fixture that starts each, and the marker that says so.

A test that starts MicroPython, the emulated RP2040, Kivy under Xvfb, PostgreSQL or Chromium
asks for that part's fixture (directly or through another fixture); this plugin then gives it
the part's marker at collection, so `-m "not emulator"` and `make test-fast` leave it out and the
markers cannot drift from what the tests do. A test file that starts a part some other way (its
own `shutil.which("chromium")`, a `Boxes(...)` of its own, the demo with emulated boxes, ...)
must carry the marker itself: `signatures` below recognise such starts in a test file or in the
tests' helper modules it imports, and tests/test_markers.py fails on any test that lacks it.
"""
from __future__ import annotations

import ast
import pathlib
import re
from dataclasses import dataclass

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Part:
    marker: str  # registered with its meaning in pyproject.toml
    fixtures: frozenset[str]
    starts: tuple[str, ...]  # regexes: code in a test module that starts the part itself


PARTS = (
    Part("micropython", frozenset({"micropython_bin"}),
         (r"venv_tool\(\s*[\"']micropython", r"\bmicropython_path\(", r"\bmp_tests\.run_file\(",
          r"(?<![\w.])Boxes\(", r"\bRealTable\(", r"[\"']-m[\"'],\s*[\"']demo[\"']")),
    Part("emulator", frozenset({"rp2040_emulator"}),
         (r"\bEmu(Table|Rig|Boxes)\(", r"emu\.js", r"[\"']--boxes[\"'],\s*[\"']rp2040[\"']",
          r"[\"']-m[\"'],\s*[\"']hardware\.emu[\"']")),
    Part("ui", frozenset({"xvfb_display"}),
         (r"which\(\s*[\"']Xvfb", r"\brun_driver\(")),
    Part("database", frozenset({"postgres"}),
         (r"[\"'/]initdb[\"']", r"[\"'/]pg_ctl[\"']")),
    Part("browser", frozenset({"chromium"}),
         (r"which\(\s*[\"']chromium",)),
    Part("link", frozenset({"rig", "real_table"}),
         (r"\bSim(Link|Bus)\(", r"\bEndpointBox\(")),
    Part("server", frozenset({"station", "sqlite_station", "station_x"}),
         (r"\bStationProcess\(", r"[\"']-m[\"'],\s*[\"']station[\"']")),
)
BY_MARKER = {p.marker: p for p in PARTS}
PARAM_MARKS = {("db_url", "postgresql"): "database"}  # a parametrised fixture that starts a part

# Filled at collection, before `-m` deselects anything: every test seen, with what it needs
# and what it carries (tests/test_markers.py reads it).
SEEN: list[tuple[str, set[str], set[str]]] = []


def _tests_imports(path: pathlib.Path) -> list[pathlib.Path]:
    """The tests' own helper modules `path` imports (tests.e2e.harness ...)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names = []
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = path.parent
                for _ in range(node.level - 1):
                    base = base.parent
                mod = base.relative_to(ROOT).as_posix().replace("/", ".") + ("." + node.module if node.module else "")
                names = [mod] + [f"{mod}.{a.name}" for a in node.names]
            elif node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for name in names:
            if not name.startswith("tests.") or name.startswith("tests.plugins"):
                continue
            f = ROOT / (name.replace(".", "/") + ".py")
            # helpers only: a conftest's parts come with its fixtures, and another test module's
            # with its own markers
            if f.is_file() and f.name != "conftest.py" and not f.name.startswith("test_") and f != path:
                out.append(f)
    return out


_signature_cache: dict[pathlib.Path, frozenset[str]] = {}


def signatures(path: pathlib.Path) -> frozenset[str]:
    """The markers of the parts a test module starts by itself (or through a tests helper)."""
    if path not in _signature_cache:
        _signature_cache[path] = frozenset()  # an import cycle ends here
        text = path.read_text()
        found = {p.marker for p in PARTS if any(re.search(rx, text) for rx in p.starts)}
        for helper in _tests_imports(path):
            found |= signatures(helper)
        _signature_cache[path] = frozenset(found)
    return _signature_cache[path]


def needs(item: pytest.Item) -> set[str]:
    """The parts a collected test starts: by its fixtures (their whole closure), a fixture
    parameter, or its module's own code."""
    fixtures = set(getattr(item, "fixturenames", ()))
    out = {p.marker for p in PARTS if p.fixtures & fixtures}
    params = getattr(getattr(item, "callspec", None), "params", {})
    out |= {m for (name, value), m in PARAM_MARKS.items() if params.get(name) == value}
    path = pathlib.Path(str(item.fspath))
    if path.suffix == ".py" and path.is_file():
        out |= signatures(path)
    return out


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects: markers added here count for it
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    SEEN.clear()
    for item in items:
        need = needs(item)
        fixtures = set(getattr(item, "fixturenames", ()))
        for p in PARTS:
            if p.fixtures & fixtures and not item.get_closest_marker(p.marker):
                item.add_marker(p.marker)
        have = {m.name for m in item.iter_markers()}
        SEEN.append((item.nodeid, need, have))
