"""The pairs' running score says something a player can read: matchpoints over the boards that
could be compared (Law 78A: a board with the table's result alone has no top), the boards still
waiting for other results named apart, and "board" or "boards" as the count asks."""
from tablet_app import present, traveller


def line(table, ns, ew, score, mp_ns, mp_ew, top):
    return {"table": table, "ns_pair": ns, "ew_pair": ew, "score_ns": score, "mp_ns": mp_ns, "mp_ew": mp_ew, "top": top}


ALONE = {1: [line(3, 1, 8, 420, 0.0, 0.0, 0)], 2: [line(3, 1, 8, -50, 0.0, 0.0, 0)]}
COMPARED = {1: [line(3, 1, 8, 420, 2.0, 0.0, 2), line(1, 2, 9, 400, 1.0, 1.0, 2), line(2, 4, 5, 100, 0.0, 2.0, 2)],
            2: [line(3, 1, 8, -50, 0.0, 0.0, 0)]}


def test_L78A_a_board_with_our_result_alone_is_not_counted_as_scored():
    r = traveller.running_score(ALONE, 1, "NS", True)
    assert r["boards"] == 0 and r["top"] == 0 and r["percent"] is None and r["waiting"] == 2
    assert present.recap_lines({"ns": r}, "sv") == ["N-S par 1: inga andra resultat ännu (2 brickor)"]
    assert present.recap_lines({"ns": r}, "en") == ["N-S pair 1: no other results yet (2 boards)"]
    assert present.recap_lines({"ns": r}, "da") == ["N-S par 1: ingen andre resultater endnu (2 spil)"]


def test_L78A_the_running_score_over_the_compared_boards_and_the_waiting_one_apart():
    ns = traveller.running_score(COMPARED, 1, "NS", True)
    assert (ns["boards"], ns["mp"], ns["top"], ns["percent"], ns["waiting"]) == (1, 2.0, 2, 100.0, 1)
    assert present.recap_lines({"ns": ns}, "en") == ["N-S pair 1: 2 of 2 MP (100.0 %) on 1 board; 1 board waiting"]
    assert present.recap_lines({"ns": ns}, "sv") == ["N-S par 1: 2 av 2 MP (100.0 %) på 1 bricka; 1 bricka väntar"]
    ew = traveller.running_score(COMPARED, 8, "EW", True)
    assert present.recap_lines({"ew": ew}, "da") == ["Ø-V par 8: 0 af 2 MP (0.0 %) i 1 spil; 1 spil venter"]
    two = traveller.running_score({1: COMPARED[1], 3: COMPARED[1]}, 1, "NS", True)
    assert present.recap_lines({"ns": two}, "sv") == ["N-S par 1: 4 av 4 MP (100.0 %) på 2 brickor"]
