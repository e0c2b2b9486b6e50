"""The director's assigned and weighted adjusted scores at the table (Law 12C1): one outcome (an
assigned score), several with weights adding up to 100 % (weighted, where the regulation lets the
director weight: the profile's `[adjusted]`), or each side its own. On the board in play it
replaces the result and the table moves on; on a board agreed this round it is the next revision
of that board's record, the table's own result kept beside it. Journalled and queued in one
transaction, replayed after a restart, the block the station's door checks; bad input is refused
in the table's language and changes nothing.

Board 1: North deals, nobody vulnerable. Board 2: East deals, North-South vulnerable."""
from fractions import Fraction

import pytest

from shared_rules.records import Result
from shared_rules.scoring.adjusted import Distribution, side_values
from shared_rules.scoring.rules import get_rules
from station.records import validate_item
from tablet_app import i18n
from tablet_app.controller import PinError, Refused
from tests.tablet.conftest import SESSION
from tests.tablet.outbox_rows import outbox_items
from tests.tablet.test_screens_log import calls

PIN = "4321"
DBF = {**SESSION, "profile": "dbf-2017", "policy": "record"}
FSB = {**SESSION, "profile": "fsb-2007", "policy": "record"}


def four_spades(tricks, weight=None, declarer="S"):
    out = {"contract": "4S", "declarer": declarer, "tricks": tricks}
    return out if weight is None else {**out, "weight": weight}


def results_queued(ctl):
    return [(k, p) for k, kind, p in outbox_items(ctl.outbox) if kind == "result"]


def play_3nt(ctl, clock):
    """Board 1: 1NT - 3NT by North, nine tricks, agreed."""
    calls(ctl, clock, ("N", "1NT"), ("E", "P"), ("S", "3NT"), ("W", "P"), ("N", "P"), ("E", "P"))
    ctl.enter_result(9, "HT")
    return ctl.ew_confirm(True)


def test_2017_L12C1b_an_assigned_score_replaces_the_agreed_result_as_its_next_revision(make_controller, clock,
                                                                                         tmp_path):
    ctl = make_controller()
    ctl.setup(DBF)
    table = play_3nt(ctl, clock)
    rec = ctl.td_assigned_score(PIN, 1, [four_spades(9)], reason="3NT bid on UI (L16B)")
    assert rec["adjusted"] == {"kind": "assigned", "contract": "4S", "declarer": "S", "tricks": 9,
                               "law": "2017 L12C1(b)"}
    # the table's own result stays in the record, for the record; the key is the next revision
    assert (rec["contract"], rec["declarer"], rec["tricks"], rec["score_ns"]) == ("3NT", "N", 9, 400)
    assert rec["key"] == table["key"][:-1] + "2"
    assert rec["correction"] == {"by": "director", "reason": "3NT bid on UI (L16B)", "previous": table["key"],
                                 "law": "2017 L12C1(b)"}
    [_, (key, queued)] = results_queued(ctl)
    assert key == rec["key"] and queued == rec
    assert validate_item("result", key, queued)  # the station's door takes it as it is
    assert Result.from_json(queued).adjusted == rec["adjusted"]
    ns, ew = side_values(queued, get_rules("dbf-2017"))
    assert ns == ew == Distribution(((Fraction(1), -50),))  # 4S-1 by South, not vulnerable: the TD's
    assert ctl.board == 2 and ctl.phase == "auction"  # the table plays on
    ctl.close()
    again = make_controller(tmp_path / "journal.db")
    assert again.done[-1] == rec and any(e["what"] == "reruled" and e["key"] == rec["key"] for e in again.log)
    assert again.board == 2


def test_2017_L12C1c_a_weighted_score_on_the_board_in_play_and_the_table_moves_on(make_controller, clock,
                                                                                 tmp_path):
    ctl = make_controller()
    ctl.setup(DBF)
    calls(ctl, clock, ("N", "1S"), ("E", "P"))
    rec = ctl.td_assigned_score(PIN, 1, [four_spades(10, 60, "N"), four_spades(9, 40, "N")])
    assert rec["adjusted"] == {"kind": "weighted", "ruled_by": "td", "law": "2017 L12C1(c)", "outcomes": [
        {"weight": "3/5", "contract": "4S", "declarer": "N", "tricks": 10},
        {"weight": "2/5", "contract": "4S", "declarer": "N", "tricks": 9}]}
    assert rec["contract"] is None and rec["score_ns"] is None and rec["board"] == 1
    assert [c["call"] for c in rec["auction"]] == ["1S", "P"]  # the auction as it stood, for the record
    assert ctl.board == 2 and ctl.phase == "auction"
    [(key, queued)] = results_queued(ctl)
    assert validate_item("result", key, queued)
    ns, ew = side_values(queued, get_rules("dbf-2017"))
    assert ns == ew == Distribution(((Fraction(3, 5), 420), (Fraction(2, 5), -50)))
    ctl.close()
    again = make_controller(tmp_path / "journal.db")
    assert again.done == [rec] and again.board == 2 and again.phase == "auction"


def test_2017_L12C1e_each_side_gets_its_own_score(make_controller, clock):
    ctl = make_controller()
    ctl.setup(DBF)
    play_3nt(ctl, clock)
    rec = ctl.td_assigned_score(PIN, 1, [four_spades(10)], [four_spades(9)], reason="self-inflicted (L12C1e)")
    assert rec["adjusted"] == {"kind": "split", "law": "2017 L12C1(e)", "ns": four_spades(10), "ew": four_spades(9)}
    ns, ew = side_values(rec, get_rules("dbf-2017"))
    assert (ns, ew) == (Distribution(((Fraction(1), 420),)), Distribution(((Fraction(1), -50),)))
    # the same outcome for both sides is one assigned score, not a split one
    same = ctl.td_assigned_score(PIN, 1, [four_spades(10)], [four_spades(10)], reason="both alike")
    assert same["adjusted"]["kind"] == "assigned"


def test_2007_L12C1c_the_director_assigns_but_does_not_weight_under_the_swedish_edition(make_controller, clock):
    ctl = make_controller()
    ctl.setup(FSB)
    play_3nt(ctl, clock)
    n, queued, done = ctl.journal.count(), results_queued(ctl), list(ctl.done)
    with pytest.raises(Refused) as e:
        ctl.td_assigned_score(PIN, 1, [four_spades(10, 50), four_spades(9, 50)], reason="UI")
    assert e.value.key == "adjusted.no_weighting" and e.value.params["law"] == "2007 L12C1(c)"
    assert "tävlingsjury" in i18n.error_text(e.value, "sv")
    with pytest.raises(Refused):  # a weighted side of a split score is weighting too
        ctl.td_assigned_score(PIN, 1, [four_spades(10)], [four_spades(10, 50), four_spades(9, 50)], reason="UI")
    assert (ctl.journal.count(), results_queued(ctl), ctl.done) == (n, queued, done)
    rec = ctl.td_assigned_score(PIN, 1, [four_spades(9)], reason="UI")
    assert rec["adjusted"]["law"] == "2007 L12C1(c)" and rec["adjusted"]["kind"] == "assigned"
    split = ctl.td_assigned_score(PIN, 1, [four_spades(10)], [four_spades(9)], reason="UI")
    assert split["adjusted"]["law"] == "2007 L12C1(e)"


@pytest.mark.parametrize(("ns", "key", "sv"), [
    ([four_spades(10, 60), four_spades(9, 30)], "adjusted.weights", "Vikterna måste bli 100 % tillsammans (de blir 90 %)"),
    ([four_spades(10, 60), four_spades(9, 50)], "adjusted.weights", "(de blir 110 %)"),
    ([four_spades(10, 100), four_spades(9, 0)], "adjusted.weight", "En vikt är en hel procentsats"),
    ([four_spades(10, 50), four_spades(10, 50)], "adjusted.twice", "Samma resultat står två gånger"),
    ([four_spades(10, 60)], "adjusted.weights", "(de blir 60 %)"),
    ([{"contract": "8S", "declarer": "S", "tricks": 10}], "adjusted.contract", "8S är inget kontrakt"),
    ([{"contract": "4NTXXX", "declarer": "S", "tricks": 10}], "adjusted.contract", "inget kontrakt"),
    ([{"contract": "4Z", "declarer": "S", "tricks": 10}], "adjusted.contract", "inget kontrakt"),
    ([four_spades(14)], "adjusted.tricks", "antalet stick är 0 till 13, inte 14"),
    ([four_spades(-1)], "adjusted.tricks", "inte -1"),
    ([{"contract": "4S", "tricks": 10}], "adjusted.declarer", "välj spelförare"),
    ([{"contract": "4S", "declarer": "X", "tricks": 10}], "adjusted.declarer", "välj spelförare"),
    ([], "adjusted.no_outcome", "Ange minst ett resultat"),
])
def test_2017_L12C1_bad_input_is_refused_in_the_tables_language_and_changes_nothing(make_controller, clock, ns,
                                                                                  key, sv):
    ctl = make_controller()
    ctl.setup(DBF)
    play_3nt(ctl, clock)
    n, queued, done, board = ctl.journal.count(), results_queued(ctl), list(ctl.done), ctl.board
    with pytest.raises(Refused) as e:
        ctl.td_assigned_score(PIN, 1, ns, reason="UI")
    assert e.value.key == key
    assert sv in i18n.error_text(e.value, "sv")
    assert i18n.error_text(e.value, "da") != i18n.error_text(e.value, "en")
    assert (ctl.journal.count(), results_queued(ctl), ctl.done, ctl.board) == (n, queued, done, board)


def test_2017_L12C1_a_board_neither_in_play_nor_played_the_pin_and_the_reason(make_controller, clock):
    ctl = make_controller()
    ctl.setup(DBF)
    play_3nt(ctl, clock)
    n = ctl.journal.count()
    with pytest.raises(Refused) as e:
        ctl.td_assigned_score(PIN, 3, [four_spades(10)], reason="UI")  # board 3 waits in the tray
    assert e.value.key == "adjusted.no_board" and "Bricka 3" in i18n.error_text(e.value, "sv")
    with pytest.raises(Refused, match="say why"):  # an agreed result changed: why, every time
        ctl.td_assigned_score(PIN, 1, [four_spades(10)])
    assert ctl.journal.count() == n
    with pytest.raises(PinError):
        ctl.td_assigned_score("1111", 1, [four_spades(10)], reason="UI")  # a wrong PIN is journalled, nothing else
    assert results_queued(ctl)[-1][1]["key"].endswith("/1/1")


def test_2017_L12C1_a_passed_out_outcome_and_a_short_no_trump(make_controller, clock):
    ctl = make_controller()
    ctl.setup(DBF)
    calls(ctl, clock, ("N", "P"))
    rec = ctl.td_assigned_score(PIN, 1, [{"contract": "Pass", "weight": 30},
                                         {"contract": "3n", "declarer": "N", "tricks": 9, "weight": 70}])
    assert rec["adjusted"]["outcomes"] == [{"weight": "3/10", "contract": "PASS"},
                                           {"weight": "7/10", "contract": "3NT", "declarer": "N", "tricks": 9}]
    ns, _ = side_values(rec, get_rules("dbf-2017"))
    assert ns == Distribution(((Fraction(3, 10), 0), (Fraction(7, 10), 400)))
