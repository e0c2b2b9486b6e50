"""The import layering of docs/architecture.md, read from the source (every `import`, also those
inside functions): the arrows point down and nothing imports upwards or in a circle."""
from __future__ import annotations

import ast
import sys

from tests.conftest import ROOT

PACKAGES = ("shared_rules", "protocol", "firmware", "tablet_app", "station", "hardware", "demo",
            "bench", "scripts", "tests")

# What each package may import of the project (besides itself). shared_rules and protocol are
# leaves; station stands on shared_rules only; the demo is above tablet_app and hardware, which
# never import it; bench and tests are on top, and bench does not lean on tests.
ALLOWED = {
    "shared_rules": set(),
    "protocol": set(),
    "scripts": set(),
    "firmware": {"protocol"},
    "station": {"shared_rules"},
    "tablet_app": {"shared_rules", "protocol"},
    "hardware": {"shared_rules", "protocol", "tablet_app"},
    "demo": {"shared_rules", "protocol", "tablet_app", "hardware"},
    "bench": {"shared_rules", "protocol", "tablet_app", "station", "hardware", "scripts"},
    "tests": {"shared_rules", "protocol", "firmware", "tablet_app", "station", "hardware", "scripts"},
}


def _module_names(folder: str) -> set[str]:
    return {p.stem for p in (ROOT / folder).glob("*.py")}


def imports_of(package: str) -> dict[str, set[str]]:
    """{project package imported: files of `package` that import it}. Firmware modules are imported
    by bare name on the box (`import render`); the scripts by bare name with scripts/ on the path."""
    firmware, scripts = _module_names("firmware"), _module_names("scripts")
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        if "node_modules" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top in PACKAGES:
                    target = top
                elif package == "firmware" and top in firmware:
                    target = "firmware"
                elif top in scripts and top not in PACKAGES:
                    target = "scripts"
                else:
                    continue
                if target != package:
                    found.setdefault(target, set()).add(str(path.relative_to(ROOT)))
    return found


GRAPH = {p: imports_of(p) for p in PACKAGES}


def test_each_package_imports_only_the_layers_below_it():
    wrong = {p: {t: sorted(files) for t, files in GRAPH[p].items() if t not in ALLOWED[p]} for p in PACKAGES}
    assert not {p: w for p, w in wrong.items() if w}, wrong


def test_shared_rules_and_protocol_import_nothing_of_the_project():
    assert GRAPH["shared_rules"] == {} and GRAPH["protocol"] == {}


def test_station_imports_only_shared_rules():
    assert set(GRAPH["station"]) <= {"shared_rules"}


def test_bench_does_not_import_tests_and_nothing_imports_the_demo():
    assert "tests" not in GRAPH["bench"]
    assert not [p for p in PACKAGES if p != "demo" and "demo" in GRAPH[p]]


def test_no_import_cycle_between_packages():
    def cycle_from(start: str, path: list[str]) -> list[str] | None:
        for nxt in GRAPH[path[-1]]:
            if nxt == start:
                return path + [nxt]
            if nxt not in path:
                found = cycle_from(start, path + [nxt])
                if found:
                    return found
        return None

    cycles = [c for p in PACKAGES if (c := cycle_from(p, [p]))]
    assert not cycles, cycles


def test_the_checker_sees_an_upward_import(tmp_path, monkeypatch):
    """The check reads function-level imports too (the demo's were inside functions)."""
    pkg = tmp_path / "protocol"
    pkg.mkdir()
    (pkg / "x.py").write_text("def f():\n    from tablet_app.runner import TableRunner\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    (tmp_path / "firmware").mkdir()
    (tmp_path / "scripts").mkdir()
    assert imports_of("protocol") == {"tablet_app": {"protocol/x.py"}}
