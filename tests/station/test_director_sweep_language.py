"""A sweep of the director page for English left on it in Swedish and Danish: one station in as
many states as the tests can give it at once (a teams movement with a match and a TD's VP
deduction, the scoring program's own results and TD calls of every kind, a table's result, an
adjusted score, a refusal, a TD call, damaged rows of every kind), its pages fetched over HTTP in
sv and da, and their text searched for English words that are no Swedish or Danish word. Names,
keys, paths and Law numbers are the station's data: the sweep strips the ones it made. status.json
keeps its English for the API, with a code beside each text the page words from one."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from html import unescape
from urllib.parse import quote

from bridgemate_dataconnector import DataConnectorClient
from bridgemate_dataconnector.dto import ResultDTO, TdCallDTO

from .conftest import EVENT, ROOT, result_record
from .team_play import Room, teams_init
from .test_damaged_rows import progress, result_text, td, write
from .test_director_language import get
from .test_director_names import ok

SESSION = "7EA45E55000000000000000000000A04"
# English words no Swedish or Danish text of the page has (not "at", "for", "set", "to", "in":
# Danish or Swedish words too)
ENGLISH = re.compile(
    r"\b(the|of|is|not|and|by|with|from|was|were|has|have|this|that|which|table|tables|board|boards|round|"
    r"rounds|team|teams|room|rooms|played|play|result|results|scoring|none|written|missing|file|called|launched|"
    r"resolved|deferred|waiting|home|away|shown|stored|damaged|kind|key|says|payload|column|unknown|late|"
    r"expected|auction|progress|entries|numbers|no|yet|taken|read|when|complete)\b", re.I)


def scorer_results(client: DataConnectorClient) -> None:
    """The scoring program's own: a made contract, a pass-out, a board not played, an artificial
    score; and a TD call of each status."""
    def result(table: int, board: int, level: int, tricks: int = 0) -> ResultDTO:
        return ResultDTO(session_guid=SESSION, section_letters="A", table_number=table, round_number=1,
                         board_number=board, scoring_direction=3, pair_north_south=table, pair_east_west=3 - table,
                         declaring_pair=1, level=level, denomination=4 if level > 0 else 0, stake=0,
                         declarer_direction=4 if level > 0 else 0, total_tricks=tricks)

    ok(client.send_results(SESSION, [result(2, 3, 4, 10), result(2, 4, 0), result(1, 4, -10), result(1, 3, -3)]))
    ok(client.send_td_calls(SESSION, [
        TdCallDTO(session_guid=SESSION, section_letters="A", table_number=1, round_number=1, hour=20, minute=m,
                  status=s) for m, s in enumerate((TdCallDTO.TdCallStatus_Launched, 2, 3, 4))]))


def test_no_english_is_left_on_the_swedish_and_danish_director_page(sqlite_station):
    st = sqlite_station
    client = DataConnectorClient("club-9", st.token, st.url)
    ok(client.initialize(teams_init(SESSION, [Room(1, 1, 2, 2), Room(2, 2, 1, 1)], (1, 4))))
    deduct = subprocess.run([sys.executable, "-m", "station", "match", "--db", st.db, "deduct", "A1-A2:1v2", "2",
                             "1", "--reason", "sen start", "--law", "FSB L109B"], cwd=ROOT, capture_output=True,
                            text=True, timeout=60)
    assert deduct.returncode == 0, deduct.stderr
    scorer_results(client)
    assert st.post_item("result", result_record(table=1, board=1, ns_pair=1, ew_pair=2))[0] == 201
    adjusted = result_record(table=2, board=2, ns_pair=2, ew_pair=1, contract=None, declarer=None, tricks=None,
                             score_ns=None, adjusted={"kind": "artificial", "ns": "avg+", "ew": "avg-"})
    assert st.post_item("result", adjusted)[0] == 201
    assert st.post_item("result", result_record(table=1, board=20, ns_pair=1, ew_pair=2))[0] == 422
    assert st.post_item("td_call", td(1, reason="wrong_pin")[1])[0] == 201
    bad_td = td(9, status="exploded")
    bad_auction = progress(9, phase="dancing")
    bad_result = result_text(table=1, revision=5)
    bad_result[1]["table"] = 2  # the payload names another table than its key
    write(st.db, [
        {"key": bad_result[0], "kind": "result", "payload": json.dumps(bad_result[1]), "cols": {"revision": 5}},
        {"key": bad_td[0], "kind": "td_call", "payload": json.dumps(bad_td[1]), "cols": {}},
        {"key": bad_auction[0], "kind": "auction", "payload": json.dumps(bad_auction[1]), "cols": {}},
        {"key": f"{EVENT}/A/1/1/1/6", "kind": "gossip", "payload": "{}", "cols": {"revision": 6}},
        {"key": f"{EVENT}/A/1/1/1/7", "kind": "result", "payload": "[1]", "cols": {"revision": 7}}])
    english = unescape(get(st, f"/director?event={quote(EVENT)}&lang=en"))
    assert "Team 2 -1 VP (sen start; FSB L109B)" in english and "no play" in english  # the English page's words
    for lang in ("sv", "da"):
        for path in (f"/director?event={quote(EVENT)}&lang={lang}",
                     f"/director/table?event={quote(EVENT)}&section=A&table=1&lang={lang}",
                     f"/director/table?event={quote(EVENT)}&section=A&table=2&lang={lang}"):
            page = get(st, path)
            body = page.split("<body>", 1)[1]
            text = re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", body)))
            # the station's data: keys, the unknown kind stored, the link's path and the tablets' address
            text = re.sub(rf"{re.escape(EVENT)}\S*|'gossip'|gossip|https?://\S+", " ", text)
            left = sorted({m.group(0) for m in ENGLISH.finditer(text)})
            assert not left, f"{lang} {path}: {', '.join(left)} in {text[:6000]}"
    code, doc = st.request("GET", "/director/status.json", headers={"Authorization": f"Bearer {st.token}"})
    assert code == 200
    # the API keeps its English, and beside each text the page words from a code the page reads
    assert doc["damaged"] and all(d["why"] and d["notice"]["code"].startswith("stored.") for d in doc["damaged"])
    assert doc["refusals"] and all(r["error"] and r["refused"]["code"] for r in doc["refusals"])
    assert all(t["phase"] and t["phase_label"] for t in doc["tables"])
