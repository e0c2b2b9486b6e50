"""A test run that changes the checkout fails (tests/plugins/clean_tree.py): after `make test`,
`git status` shows what it showed before."""
import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.slow  # each runs pytest in a child process


def _repo(tmp_path, body: str) -> subprocess.CompletedProcess:
    repo = tmp_path / "repo"
    (repo / "docs").mkdir(parents=True)
    (repo / "docs" / "shot.png").write_bytes(b"old picture")
    (repo / "pytest.ini").write_text("[pytest]\n")
    (repo / "conftest.py").write_text('pytest_plugins = ["tests.plugins.clean_tree"]\n')
    (repo / ".gitignore").write_text("build/\n__pycache__/\n")
    (repo / "test_probe.py").write_text(body)
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    for cmd in (["git", "init", "-q"], ["git", "add", "-A"], ["git", "commit", "-q", "-m", "x"]):
        subprocess.run(cmd, cwd=repo, check=True, env=env, capture_output=True)
    (repo / "test_probe.py").write_text(body + "\n# edited before the run: not the run's doing\n")
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_probe.py"],
                          cwd=repo, capture_output=True, text=True, timeout=120,
                          env={**env, "PYTHONPATH": str(ROOT)})


def test_a_test_that_rewrites_a_tracked_file_fails_the_run(tmp_path):
    r = _repo(tmp_path, "import pathlib\n\ndef test_shot():\n"
                        "    pathlib.Path('docs/shot.png').write_bytes(b'new picture')\n")
    assert r.returncode == 1, r.stdout + r.stderr
    assert "the run changed the checkout" in r.stdout and "docs/shot.png (changed)" in r.stdout


def test_a_test_that_leaves_a_new_file_in_the_tree_fails_the_run(tmp_path):
    r = _repo(tmp_path, "import pathlib\n\ndef test_shot():\n    pathlib.Path('docs/new.png').write_bytes(b'x')\n")
    assert r.returncode == 1 and "docs/new.png (new)" in r.stdout, r.stdout + r.stderr


def test_writing_under_build_and_tmp_passes_and_earlier_edits_do_not_count(tmp_path):
    r = _repo(tmp_path, "import pathlib\n\ndef test_shot(tmp_path):\n"
                        "    pathlib.Path('build').mkdir()\n    pathlib.Path('build/shot.png').write_bytes(b'x')\n"
                        "    (tmp_path / 'y').write_bytes(b'y')\n")
    assert r.returncode == 0, r.stdout + r.stderr
