"""The traveller's lines are the station's result records read with the records package: one
per table, the latest revision (Law 79C), a withdrawn result dropped, a line that is no record
left out."""
from shared_rules.records import Result, ResultKey, TableId, Withdrawal
from tablet_app.traveller import rows

EVENT = "club-2026-11-22"


def result(table: int, contract: str, declarer: str, tricks: int, score: int, revision: int = 1) -> dict:
    return Result(ResultKey(TableId(EVENT, "A", table), 1, 1, revision), table, table + 10, "N", "None",
                  contract, declarer, tricks, None, score, "2026-11-22T19:45:12Z").to_json()


def test_2017_L79C_the_latest_revision_stands_whatever_the_order():
    corrected = result(1, "4S", "S", 11, 450, revision=2)
    lines = rows([corrected, result(2, "3NT", "N", 9, 400), result(1, "4S", "S", 10, 420)])
    assert [(r["table"], r["score_ns"]) for r in lines] == [(1, 450), (2, 400)]
    # Law 78A: 450 beats 400 (2 per result compared: top 2 on two results)
    assert (lines[0]["mp_ns"], lines[1]["mp_ns"], lines[0]["top"]) == (2.0, 0.0, 2)


def test_a_withdrawn_result_and_a_line_that_is_no_record_are_left_out():
    withdrawn = Withdrawal(ResultKey(TableId(EVENT, "A", 2), 1, 1, 2), 2, 12, "2026-11-22T19:50:00Z",
                           "entered on the wrong board").to_json()
    wrong_score = {**result(3, "3NT", "N", 9, 400), "score_ns": 600}  # not Law 77: no station stores it
    lines = rows([result(1, "4S", "S", 10, 420), result(2, "3NT", "N", 9, 400), withdrawn, wrong_score,
                  {"table": 4, "score_ns": 100}, "gossip"])
    assert [r["table"] for r in lines] == [1]
