"""`python -m shared_rules score`: the TD's Law 77 tool, run as a real subprocess."""
import json
import subprocess
import sys

import pytest

from shared_rules import score_cli

pytestmark = pytest.mark.slow  # each test runs the command line in a child Python


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "shared_rules", "score", *args],
                          capture_output=True, text=True, timeout=60)


def test_2007_L77_cli_prints_score_from_north_souths_side():
    proc = run_cli("4HX", "S", "10", "--vul", "NS")
    assert proc.returncode == 0, proc.stderr
    first, second = proc.stdout.strip().splitlines()
    assert first == "4HX by S, 10 tricks, NS vulnerable: NS +790 (4HX=, EW -790)"
    assert second.strip() == ("trick score 4H doubled 240 + game bonus vulnerable 500 + for making a doubled "
                              "contract 50 = 790 to declarer (2007 L77 / 2017 §77)")
    assert proc.stderr == ""


def test_2007_L77_cli_json_for_scripts():
    proc = run_cli("3NT", "W", "6", "--vul", "All", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["score_ns"] == 300 and out["declarer_score"] == -300 and out["result"] == "-3"
    assert out["breakdown"] == [{"item": "3 undertricks x 100", "points": -300}]


@pytest.mark.parametrize(
    "argv,fragment",
    [
        (["4HX", "S", "14", "--vul", "NS"], "0-13"),
        (["4ZX", "S", "10", "--vul", "NS"], "not understood"),
        (["4H", "S", "10"], "--vul"),
        (["4H", "S", "ten", "--vul", "NS"], "'ten'"),
        (["4H", "Q", "10", "--vul", "NS"], "declarer"),
        (["4H", "S", "10", "--vul", "red"], "vulnerability"),
        (["4H", "--vul", "NS"], "declarer"),
        ([], "required"),
    ],
)
def test_cli_malformed_input_clear_error_nonzero_exit_no_traceback(argv, fragment, capsys):
    assert score_cli.main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert fragment in captured.err
    assert "Traceback" not in captured.err


def test_cli_malformed_input_as_subprocess_has_no_traceback():
    proc = run_cli("9H", "S", "10", "--vul", "NS")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "not understood" in proc.stderr


def test_2007_L77_cli_passed_out(capsys):
    assert score_cli.main(["PASS", "--vul", "All"]) == 0
    assert "NS 0" in capsys.readouterr().out
