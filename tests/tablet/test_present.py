from tablet_app import i18n, present


def test_every_string_exists_in_english_swedish_and_danish():
    missing = [(k, lang) for k, v in i18n.T.items() for lang in i18n.LANGS if not v.get(lang)]
    assert missing == []
    for names in (i18n.SEAT_NAMES, i18n.VUL_NAMES):
        assert set(names) == set(i18n.LANGS)


def test_calls_shown_with_suit_symbols_and_red_suits_marked():
    assert present.call_text("1H") == "1\u2665" and present.call_text("3NT") == "3NT"
    assert present.call_text("P", "sv") == "Pass" and present.call_text("P", "da") == "Pas"
    assert present.is_red("4D") and not present.is_red("4S") and not present.is_red("X")
    assert present.contract_text("4HX", "S") == "4\u2665X by South"
    assert present.contract_text("PASS") == "Passed out"


def test_law_2_auction_grid_starts_in_the_dealers_column_and_marks_the_turn():
    calls = [{"seat": "E", "call": "1C"}, {"seat": "S", "call": "P"}, {"seat": "W", "call": "1H"}]
    rows = present.auction_grid(calls, "E", "N")
    assert rows[0][:2] == [None, None] and rows[0][2]["call"] == "1C" and rows[0][3]["call"] == "P"
    assert rows[1][0]["call"] == "1H" and rows[1][1] == {"seat": "N", "turn": True}


def test_consequences_name_the_law_in_the_players_language():
    st = {"obligations": [{"seat": "E", "must_pass": "rest_of_auction", "law": "2017 L27B2"}],
          "lead_restrictions": [{"leader": "E", "kind": "prohibit_unshown_suit", "suits": ["D"], "law": "2017 L26B"}]}
    en = present.consequences(st)
    assert en[0] == "East must pass for the rest of the auction  (2017 L27B2)"
    assert "declarer may prohibit the lead of \u2666" in en[1] and "2017 L26B" in en[1]
    sv = present.consequences(st, "sv")
    assert sv[0].startswith("Öst måste passa resten av budgivningen")


def test_result_lines_for_played_passed_out_and_artificial_boards():
    assert present.result_text({"contract": "4H", "declarer": "N", "score_ns": 420}) == "4\u2665 by North +420"
    assert present.result_text({"contract": "PASS", "declarer": None, "score_ns": 0}) == "Passed out +0"
    adj = {"kind": "artificial", "ns": "avg+", "ew": "avg-", "law": "2017 L12C2"}
    assert present.result_text({"contract": None, "score_ns": None, "adjusted": adj}) == "Avg+ / Avg-"


def test_2017_L24_exposed_cards_shown_until_the_end_then_penalty_cards_L50():
    from tests.rules.helpers import run

    exposed = {"td": "exposed_cards", "seat": "E", "cards": ["SK", "HT"], "led": False}
    st = run("dbf-2017", "N 1H", exposed)
    en = present.consequences(st)
    assert "West must pass at the next turn  (2017 L24C)" in en
    assert "East: \u2660K \u266510 face up on the table  (2017 L24C)" in en
    assert "Öst: \u2660K \u266510 med framsidan upp på bordet  (2017 L24C)" in present.consequences(st, "sv")
    assert present.what_happened(st)[-1] == "Cards exposed: East \u2660K \u266510  (2017 L24)"
    st = run("dbf-2017", "N 1H", exposed, "E P", "S P", "W P")
    assert "East: \u2660K \u266510 are penalty cards  (2017 L24C)" in present.consequences(st)
    assert "Øst: \u2660K \u266510 er strafkort  (2017 L24C)" in present.consequences(st, "da")


def test_wrong_board_outcomes_shown_with_the_editions_law():
    from tests.rules.helpers import run

    st = run("fsb-2007", "N 1H", "E 1S", "S 2H", "W 2S", {"td": "wrong_board_call", "seat": "E"})
    assert present.consequences(st)[0] == ("Auction stopped: the director awards an adjusted score  "
                                           "(2007 L17D2, L12C2)")
    st = run("fsb-2007", "N 1H", "E 1S", {"td": "wrong_board"}, "N 1H", "E 2S")
    lines = present.consequences(st, "sv")
    assert lines[0].startswith("Fel bricka: ny budgivning") and lines[0].endswith("(2007 L15C)")
    assert lines[1] == "Inte samma bud som förut: Öst 2\u2660 (var 1\u2660)"
    st = run("dbf-2017", "N 1H", {"td": "wrong_board", "played_before": False})
    assert present.consequences(st)[0] == "Wrong board: auction and play go on, the result stands  (2017 L15B)"


def test_round_end_says_where_pairs_and_boards_go_with_sit_outs_direction_changes_and_last_round():
    mitchell = {"ns": {"pair": 1, "table": 1, "seat": "NS"}, "ew": {"pair": 2, "table": 2, "seat": "EW"},
                "boards": {"boards": [1, 2, 3], "table": 4}}
    assert present.round_end_lines(mitchell) == ["N-S pair 1: table 1", "E-W pair 2: table 2",
                                                 "Boards 1, 2, 3: to table 4"]
    howell = {"ns": {"pair": 5, "table": 3, "seat": "EW"}, "ew": {"pair": 2, "table": None, "seat": None, "sits_out": True},
              "boards": {"boards": [7, 8], "table": None}}
    assert present.round_end_lines(howell) == ["N-S pair 5: table 3 (sit East-West)",
                                               "E-W pair 2: sits out next round", "Boards 7, 8: to the director"]
    assert present.round_end_lines({"last_round": True}, "da") == ["Det var sidste runde."]
    assert present.round_end_lines({"unknown": "see the movement card"}) == ["Ask the director"]
    assert present.round_end_lines(None, "sv") == ["Fråga tävlingsledaren"]


def test_known_refusals_in_swedish_and_danish_unknown_ones_as_they_are():
    from tablet_app import i18n

    assert i18n.refusal("wrong director PIN: nothing was changed", "sv") == "Fel kod - inget har ändrats"
    assert i18n.refusal("tricks must be a whole number from 0 to 13, not 14", "da").startswith("Antal stik")
    assert i18n.refusal("something new", "sv") == "something new"


def test_keyed_errors_in_the_players_language_with_the_field_named():
    from tablet_app import i18n

    class Keyed(ValueError):
        def __init__(self):
            super().__init__("North-South pair number: give a whole number from 1 up, not ''")
            self.key, self.params = "setup.whole_number", {"field": "ns_pair", "value": "''"}

    assert i18n.error_text(Keyed(), "da") == "N-S par: angiv et helt tal fra 1"
    assert i18n.error_text(ValueError("no key here"), "sv") == "no key here"
