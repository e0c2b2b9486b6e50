"""The markers say what a test starts: every test that starts MicroPython, the emulated RP2040,
Kivy under Xvfb, PostgreSQL or Chromium carries that part's marker (tests/plugins/parts.py gives
it to the tests that use the part's fixture; a test module that starts a part by itself must
carry it), so `make test-fast` and `-m "not ..."` leave out exactly what they say."""
import json
import subprocess
import sys

import pytest

from tests.conftest import ROOT
from tests.plugins import parts

DUMP = """
import json, sys, pytest
from tests.plugins import parts
class Dump:
    def pytest_collection_finish(self, session):
        print("SEEN " + json.dumps([(n, sorted(a), sorted(b)) for n, a, b in parts.SEEN]))
sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", "--collect-only", "tests"], plugins=[Dump()]))
"""


@pytest.fixture(scope="module")
def seen(request) -> list[tuple[str, set[str], set[str]]]:
    """Every test of the suite with the parts it starts and the markers it carries: from this
    run's collection when it took the whole suite (make test, make test-fast), else collected
    anew in a child process (a run of one folder or file)."""
    whole = {ROOT / "tests", ROOT}
    here = request.config.invocation_params.dir
    if all((here / a.split("::")[0]).resolve() in whole for a in request.config.args):
        return list(parts.SEEN)
    r = subprocess.run([sys.executable, "-c", DUMP], cwd=ROOT, capture_output=True, text=True, timeout=300)
    line = next((x for x in r.stdout.splitlines() if x.startswith("SEEN ")), None)
    assert line, r.stdout[-3000:] + r.stderr[-3000:]
    return [(n, set(a), set(b)) for n, a, b in json.loads(line[5:])]


def test_every_collected_test_carries_the_marker_of_each_part_it_starts(seen):
    missing = {nodeid: sorted(need - have) for nodeid, need, have in seen if need - have}
    assert not missing, missing


def test_the_heavy_folders_are_marked_as_what_they_are(seen):
    """Sanity of the markers themselves: the emulated chip, the UI and MicroPython tests are
    marked (a regex or a fixture name that stopped matching would leave them in test-fast)."""
    have = {nodeid: h for nodeid, _, h in seen}
    assert have["tests/box_rp2040/test_box_on_chip.py::test_a_hang_is_caught_by_the_watchdog_and_the_box_comes_back"] >= {"emulator"}
    assert have["tests/ui/test_app_start.py::test_session_from_a_movement_takes_the_directors_profile_policy_and_pin"] >= {"ui"}
    assert have["tests/e2e/test_table.py::test_2017_normal_board_keyed_on_boxes_result_reaches_the_outbox"] >= {"micropython"}


def _probe(tmp_path, body: str) -> subprocess.CompletedProcess:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_probe.py").write_text(body)
    (tmp_path / "conftest.py").write_text(
        'import pytest\npytest_plugins = ["tests.plugins.parts"]\n\n'
        '@pytest.fixture\ndef chromium():\n    return "chromium"\n')
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    browser: b\n    micropython: m\n"
                                         "    emulator: e\n    ui: u\n    database: d\n")
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not browser",
                           str(tmp_path / "tests")], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


@pytest.mark.slow
def test_a_test_asking_for_a_parts_fixture_is_marked_and_deselected_by_it(tmp_path):
    r = _probe(tmp_path, "def test_page(chromium):\n    assert False\n\ndef test_pure():\n    assert True\n")
    assert r.returncode == 0 and "1 passed, 1 deselected" in r.stdout, r.stdout + r.stderr


def test_a_module_starting_a_part_by_itself_is_seen(tmp_path):
    src = tmp_path / "m.py"
    # (the code is put together here so that this file itself does not read as starting them)
    src.write_text('import shutil\nexe = shutil.which("' + 'chromium")\n')
    assert parts.signatures(src) == {"browser"}
    demo = tmp_path / "d.py"
    demo.write_text('import subprocess\nsubprocess.run(["python", "-m", ' + '"demo", "--boxes", ' + '"rp2040"])\n')
    assert parts.signatures(demo) == {"micropython", "emulator"}
    pure = tmp_path / "p.py"
    pure.write_text("from shared_rules import calls\n")
    assert parts.signatures(pure) == set()
