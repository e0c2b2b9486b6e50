"""`python -m shared_rules replay LOG.json | -`: the TD's replay tool, run as a real process."""
import json
import subprocess
import sys

import pytest

from shared_rules.replay import LogError, replay

pytestmark = pytest.mark.slow  # each test runs the command line in a child Python

ISSUE_LOG = {"profile": "fsb-2007", "board": 5,
             "events": [{"t": 0.0, "seat": "N", "call": "1H"},
                        {"t": 4.1, "seat": "S", "alert": True},
                        {"t": 6.0, "seat": "E", "call": "3S", "stop": True},
                        {"t": 17.0, "seat": "S", "call": "4H"},
                        {"t": 19.0, "seat": "W", "call": "P"},
                        {"t": 21.0, "seat": "N", "call": "P"},
                        {"t": 23.0, "seat": "E", "call": "X"},
                        {"t": 24.0, "seat": "S", "call": "P"},
                        {"t": 25.0, "seat": "W", "call": "P"},
                        {"t": 26.0, "seat": "N", "call": "P"}]}


def cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "shared_rules", "replay", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_replay_file_prints_one_json_object(tmp_path):
    path = tmp_path / "log.json"
    path.write_text(json.dumps(ISSUE_LOG))
    proc = cli(str(path))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["status"] == "ended" and out["contract"] == "4HX" and out["declarer"] == "N"
    assert out["calls"][0] == {"seat": "N", "call": "1H", "alerted": True, "stop": False, "think": 0.0,
                               "t": 0.0, "alerted_by": "S", "alert_t": 4.1}
    assert out["calls"][1]["stop"] is True and out["next"] is None
    assert out == replay(ISSUE_LOG)


def test_replay_reads_stdin_with_dash():
    proc = cli("-", stdin=json.dumps(ISSUE_LOG))
    assert proc.returncode == 0 and json.loads(proc.stdout)["contract"] == "4HX"


def test_policy_override_in_log():
    log = {**ISSUE_LOG, "policy": "prevent", "events": [{"t": 0, "seat": "E", "call": "1C"}]}
    out = replay(log)
    assert out["policy"] == "prevent" and out["calls"] == [] and out["refused"][0]["kind"] == "call_out_of_rotation"


@pytest.mark.parametrize("text,match", [
    ("{not json", "not valid JSON"),
    ("[]", "must be a JSON object"),
    ('{"profile": "fsb-2007", "board": 1}', "no 'events'"),
    ('{"profile": "xx", "board": 1, "events": []}', "unknown profile"),
    ('{"profile": "fsb-2007", "board": 0, "events": []}', "board"),
    ('{"profile": "fsb-2007", "board": true, "events": []}', "board"),
    ('{"profile": "fsb-2007", "board": 1, "events": {}}', "events must be a list"),
    ('{"profile": "fsb-2007", "board": 1, "policy": "lax", "events": []}', "policy"),
    ('{"profile": "fsb-2007", "board": 1, "events": [{"t": 0, "seat": "N", "call": "1Q"}]}', "event 0"),
    ('{"profile": "fsb-2007", "board": 1, "events": [{"t": 0, "seat": "N", "call": "1C"}, {"t": 1, "seat": "W", "call": "P"}, {"t": 0.5, "seat": "S", "call": "P"}]}', "event 2"),
])
def test_malformed_log_clear_error_no_traceback(text, match):
    proc = cli("-", stdin=text)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    assert proc.stderr.startswith("error:") and any(m in proc.stderr for m in match.split("|")), proc.stderr


@pytest.mark.parametrize("profile", ["fsb-2007", "dbf-2017"])
def test_L9B2_a_log_with_a_call_made_while_the_TD_was_awaited_replays(profile):
    # W passes out of rotation; before the TD has ruled S calls too (only E, the LHO, and N, in
    # turn under L28B, may): the call happened, the log replays, the call is recorded and cancelled
    log = {"profile": profile, "board": 1, "events": [{"t": 0, "seat": "N", "call": "1C"},
                                                      {"t": 1, "seat": "W", "call": "P"},
                                                      {"t": 2, "seat": "S", "call": "P"}]}
    proc = cli("-", stdin=json.dumps(log))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["status"] == "awaiting_td" and out["pending"]["kind"] == "call_out_of_rotation"
    assert out["irregularities"][-1]["kind"] == "call_while_awaiting_td" and out["irregularities"][-1]["seat"] == "S"
    assert out["irregularities"][-1]["law"] == f"{profile[-4:]} L9B2"


def test_missing_file_and_usage(tmp_path):
    proc = cli(str(tmp_path / "nope.json"))
    assert proc.returncode == 2 and "cannot read" in proc.stderr and "Traceback" not in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "shared_rules", "replay"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "usage" in proc.stderr


def test_replay_library_raises_logerror():
    with pytest.raises(LogError, match="event 0"):
        replay({"profile": "fsb-2007", "board": 1, "events": [{"t": "soon", "seat": "N", "call": "1C"}]})


@pytest.mark.parametrize("profile", ["fsb-2007", "dbf-2017"])
def test_replay_cli_round_trip_of_L24_and_wrong_board_events(tmp_path, profile):
    """The TD events for Law 24 and a call from the wrong board replay through the CLI to the same
    state as the in-process fold, twice over (deterministic)."""
    from shared_rules.table import Table

    log = {"profile": profile, "board": 3, "events": [
        {"t": 0.0, "seat": "S", "call": "1D"},
        {"t": 3.0, "seat": "W", "call": "1S"},
        {"t": 5.0, "td": "exposed_cards", "seat": "W", "cards": ["HQ"], "led": False},
        {"t": 9.0, "seat": "N", "call": "2C"},
        {"t": 20.0, "td": "wrong_board_call", "seat": "N"},
        {"t": 30.0, "seat": "N", "call": "2C"},
        {"t": 33.0, "seat": "E", "call": "P"},
        {"t": 35.0, "td": "exposed_cards", "seat": "S", "cards": ["C2", "C3"], "led": True},
    ]}
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log))
    outs = [cli(str(path)) for _ in range(2)]
    assert all(p.returncode == 0 for p in outs), outs[0].stderr
    out = json.loads(outs[0].stdout)
    assert out == json.loads(outs[1].stdout) == replay(log)
    table = Table(profile, 3)
    for e in log["events"]:
        table.apply(e)
    assert out == json.loads(json.dumps(table.state()))
    ed = profile[-4:]
    assert [x["law"] for x in out["exposed_cards"]] == [f"{ed} L24B", f"{ed} L24C"]
    assert {(o["seat"], o["law"]) for o in out["obligations"]} >= {("N", f"{ed} L24C")}
    assert [i["kind"] for i in out["irregularities"]] == ["cards_exposed", "wrong_board_call", "cards_exposed"]


@pytest.mark.parametrize("event,match", [
    ('{"t": 1, "td": "exposed_cards", "seat": "E", "cards": ["ZZ"]}', "unknown card"),
    ('{"t": 1, "td": "exposed_cards", "seat": "Q", "cards": ["SK"]}', "seat must be"),
    ('{"t": 1, "td": "wrong_board", "played_before": 1}', "played_before must be"),
])
def test_replay_cli_refuses_malformed_L24_and_wrong_board_events(event, match):
    text = '{"profile": "dbf-2017", "board": 1, "events": [{"t": 0, "seat": "N", "call": "1C"}, ' + event + "]}"
    proc = cli("-", stdin=text)
    assert proc.returncode == 1 and proc.stdout == "" and "Traceback" not in proc.stderr
    assert "event 1" in proc.stderr and match in proc.stderr, proc.stderr


def test_FSB_L115A1_no_alerts_by_in_the_log_and_malformed_values_refused(tmp_path):
    import json
    import subprocess
    import sys

    log = {"profile": "fsb-2007", "board": 1, "no_alerts_by": ["NS"],
           "events": [{"t": 1, "seat": "N", "call": "1C"}, {"t": 2, "seat": "S", "alert": True}]}
    p = subprocess.run([sys.executable, "-m", "shared_rules", "replay", "-"], input=json.dumps(log),
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert [(x["kind"], x["seat"], x["law"]) for x in out["timing"]] == [("alert_not_permitted", "S", "FSB L115A1")]
    for bad in ("NS", ["XX"]):
        p = subprocess.run([sys.executable, "-m", "shared_rules", "replay", "-"],
                           input=json.dumps({**log, "no_alerts_by": bad}), capture_output=True, text=True)
        assert p.returncode != 0 and "no_alerts_by" in p.stderr and "Traceback" not in p.stderr


# Attack logs found by a fuzzing TD tool: huge numbers must get the one-line error, not a traceback.
@pytest.mark.parametrize("text,match", [
    ('{"profile": "fsb-2007", "board": 1, "events": [{"t": 1' + "0" * 400 + ', "seat": "N", "call": "P"}]}',
     "t must be a non-negative number of seconds"),
    ('{"profile": "fsb-2007", "board": 1' + "0" * 5000 + ', "events": []}', "not valid JSON"),
])
def test_huge_numbers_get_one_line_and_exit_1(text, match):
    proc = cli("-", stdin=text)
    assert proc.returncode == 1 and proc.stdout == ""
    assert match in proc.stderr and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr

