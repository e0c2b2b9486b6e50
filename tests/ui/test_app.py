"""The real Kivy tablet app under Xvfb, driven through its own buttons (tests/ui/drive_app.py)."""
import pathlib

import pytest

from tests.ui.conftest import SHOTS, run_driver

pytestmark = pytest.mark.ui
ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def session(xvfb_display, tmp_path_factory):
    for name in SAVED:  # so that the check below sees this run's pictures, not an earlier run's
        (SHOTS / f"{name}.png").unlink(missing_ok=True)
    return run_driver("drive_app.py", tmp_path_factory.mktemp("ui"), xvfb_display)


SAVED = ("auction", "director-console", "result-entry")


def test_auction_screen_shows_four_columns_suit_symbols_alert_and_turn(session):
    texts = session["auction_texts"]
    assert session["auction_screen"] == "auction"
    assert [t for t in texts if t in ("West", "North", "South")] == ["West", "North", "South"]
    assert any(t.startswith("East") and "Dealer" in t for t in texts)
    assert "2\u2663" in texts and "ALERT" in texts and "?" in texts
    assert "South to call" in texts
    assert any("N-S vulnerable" in t for t in texts)


def test_2017_L27_table_freezes_and_director_console_opens_with_the_law_options(session):
    assert session["frozen_screen"] == "director"
    assert session["options_shown"] == ["accept", "replace", "unintended"]
    assert any("Insufficient bid: West 2\u2663" in t for t in session["director_texts"])
    assert any("2017 L27A1" in t for t in session["director_texts"])
    # no station in this run: the console says the results are kept on the tablet
    assert any("No results station connected" in t and "kept on this tablet" in t for t in session["director_texts"])


def test_wrong_pin_gives_a_clear_message_and_changes_nothing(session):
    assert session["wrong_pin_message"] == "Wrong PIN - nothing was changed"
    # behaviour changed on purpose: a wrong PIN is journalled as one `pin_wrong` record
    # (the lockout survives a restart; the station's director page is told); nothing else changed
    assert session["wrong_pin_changed_nothing_else"] == [1, "pin_wrong", True, "frozen"]
    assert session["wrong_pin_still_locked"]


def test_2017_L27B2_consequences_shown_obligation_and_L26B_lead_restriction(session):
    assert session["judgement_options"] == ["b1a", "b1b", "none"]
    text = "\n".join(session["consequence_texts"])
    assert "East must pass for the rest of the auction" in text and "2017 L27B2" in text
    assert "2017 L26B" in text
    # behaviour changed on purpose (a club evening: players ruled after the first ruling): the
    # ruling returns the console to the auction and signs the director out; reopened, the console
    # shows the consequences and asks for the PIN again (tests/ui/test_director_pin.py)
    assert session["screen_after_last_ruling"] == "auction"
    assert session["signed_in_after_last_ruling"] is False
    # and the auction screen keeps them in view for the players
    assert "East must pass for the rest of the auction" in session["auction_consequences"]


def test_2017_L27B_replacement_picker_offers_only_legal_calls_and_a_mis_tap_records_nothing(session):
    # West's insufficient 2C over South's 2D: a pass, a double of 2D, or a sufficient bid
    calls = session["picker_calls"]
    assert calls[:2] == ["P", "X"] and calls[2] == "2H" and "2C" not in calls and "XX" not in calls
    assert len(calls) == 2 + 3 + 5 * 5  # 2H 2S 2NT, then levels 3-7
    assert session["mis_tap_recorded_nothing"] == "insufficient_bid"


def test_fsb_98A_result_entry_confirmed_by_east_west_lands_in_the_outbox(session):
    assert session["after_auction_screen"] == "result"
    # East-West confirm their own score (-620), North-South's beside it
    assert any("-620" in t and "Score East-West" in t and "+620" in t for t in session["confirm_texts"])
    assert session["not_agreed"][0] == "play" and "did not agree" in session["not_agreed"][1]
    assert session["confirmed_note"].startswith("Board 2 confirmed: N-S +620")
    [(kind, key, rec)] = session["outbox"]
    assert kind == "result" and key == "club-2026-11-22/A/3/2/2/1"
    assert rec["contract"] == "4S" and rec["declarer"] == "N" and rec["tricks"] == 10
    assert rec["lead"] == "HK" and rec["score_ns"] == 620 and rec["ew_confirmed"] is True
    assert session["after_confirm_screen"] == "round_end"


def test_language_switch_to_swedish_round_end_and_tempo(session):
    sv = "\n".join(session["swedish_texts"])
    assert "Ronden är slut" in sv and "Ö-V par 8: bord 4" in sv
    assert session["tempo_asks_pin"] == "pin"  # partner's think times are the director's
    tempo = session["tempo_texts"]
    assert "Betänketid (s)" in tempo and "13.3" in "".join(tempo)


def test_screenshots_saved(session):
    for name in SAVED:
        p = SHOTS / f"{name}.png"
        assert p.exists() and p.stat().st_size > 10_000


def test_next_round_setup_typed_in_bad_input_refused_then_starts(session):
    assert session["next_round_asks_pin"] == "pin"
    assert session["next_round_wrong_pin"][0] == "pin" and "Fel kod" in session["next_round_wrong_pin"][1]
    assert session["setup_screen"] == "setup"
    # Mitchell: N-S 1 stay, E-W 7 come from the table below (E-W 8 moves up); the PIN field is empty
    assert session["setup_prefilled"] == {"round": "3", "ns_pair": "1", "ew_pair": "7", "td_pin": ""}
    # human names in the language shown (Swedish here); no pair-declines-alerts choice for a Danish table
    # dbf-2017 assumes values no cited regulation gives (the pause's length, its alerts): marked
    assert session["setup_choices"] == ["Danmark (DBF, 2017 års lagar) (antagna värden)", "Registrera och döm", True]
    # DBf 2017 has screen rules (2017 L80B2(e)): the TD may turn screens on for the table
    assert session["setup_screens"] == [False, "Enligt regelverket",
                                        ["Enligt regelverket", "Spel med skärmar", "Utan skärmar"]]
    assert session["setup_screens_on"] is True
    # a language switch renames the rule set, never changes it
    assert session["setup_profile_after_switch"] == ["dbf-2017", "dbf-2017"]
    # the error is in the language shown (Swedish here; it was English before the screens
    # translated SetupError's key), the field named in plain words
    assert session["setup_error"] == "Brickor: 5-3 går baklänges eller är för lång"
    assert session["setup_error_changed_nothing"]
    assert session["after_setup_screen"] == "auction"
    assert session["new_round"] == [3, [3, 4, 5], 6, 3]


def test_2017_L25A_wrong_card_reported_on_box_director_corrects_it_with_pin(session):
    assert any("Director called by East (wrong card)" in t for t in session["undo_texts"])
    assert session["after_correction"] == ["P", "1NT", "P", "2C", "P"]
    assert session["correction_kind"] == "change_of_call"
    assert session["after_correction_screen"] == "auction" and session["director_locked_again"]
    # UNDO held the auction: South's call was refused until the director dismissed East's call
    assert session["held_until_dismissed"] == [True, True]
    assert session["call_while_held"] == ["P", "1NT", "P", "2C", "P"]
    assert session["held_after_dismiss"] is False


def test_2017_L12C2_artificial_score_and_L79C_correction_from_the_director_console(session):
    assert session["artificial"] == {"kind": "artificial", "ns": "avg+", "ew": "avg-", "law": "2017 L12C2"}
    assert session["after_artificial_board"] == 4
    # board 4 (E-W vulnerable): 4S by West made (10 tricks, -620 for N-S), then corrected to 9 tricks
    assert session["corrected"] == [["club-2026-11-22/A/3/3/4/1", -620], ["club-2026-11-22/A/3/3/4/2", 100]]
    assert "+100" in session["correction_message"]
    # L79C: the console asks why (a change to an agreed result leaves who and why);
    # without a reason nothing is changed and it says so in the director's language
    assert session["no_reason"] == ["Ange varför (några ord till tävlingsdatorn och spelarna)", True, "reason"]
    assert session["reason_typed"] == "Sticken räknades fel" == session["correction_reason"]


def test_2017_L24A_director_records_an_exposed_card_with_the_card_picker(session):
    assert {"correct", "exposed", "wrong_call", "wrong_board", "artificial"} <= set(session["tools"])
    assert session["exposed_cards"] == [["S", ["C2"], "2017 L24A"]]
    assert "South: \u26632 face up on the table  (2017 L24A)" in session["exposed_conseq"]


def english_words(lang):
    """English words of ours (and the engine's option labels) that must not be on a `lang` screen.
    Call symbols, numbers, law references and names are language-neutral."""
    import re

    from tablet_app import i18n, law_texts, option_texts

    out = set()
    for entry in list(i18n.T.values()) + list(i18n.ERRORS.values()):
        en, other = entry.get("en", ""), entry.get(lang, "")
        for part in re.split(r"\{[^}]*\}", en):
            part = part.strip(" :.,()-")
            if len(part) >= 5 and part not in other and " " in part or part in {"Director", "Result", "Round", "Board"}:
                out.add(part)
    for entry in [*option_texts.OPTIONS_BY_KEY.values(), *law_texts.OBLIGATIONS.values(), *law_texts.LEADS.values()]:
        for part in re.split(r"\{[^}]*\}", entry["en"]):
            part = part.strip(" :.,()-'s")
            if len(part) >= 8:
                out.add(part)
    out |= {"LHO", "stop wait short", "Avg+", "Avg-", "profile", "fsb-2007", "dbf-2017", "accepts", "East", "West",
            "North", "South"}
    return out


def english_left(shots, lang):
    """(screen, word) for every English word of ours on a screen shot in `lang`."""
    import re

    words = english_words(lang)
    return {(name, w) for name, texts in shots.items() for t in texts for w in words
            if re.search(r"(?<![A-Za-zÅÄÖåäöæø])" + re.escape(w) + r"(?![A-Za-zÅÄÖåäöæø])", t)}


def test_no_english_left_on_swedish_and_danish_screens(session):
    """Every screen shot in Swedish and Danish: no English text of ours (nor an engine option label)
    on it."""
    for lang in ("sv", "da"):
        shots = session[f"texts_{lang}"]
        assert {"auction", "director-console", "result-confirm", "tempo", "setup"} <= set(shots)
        left = english_left(shots, lang)
        assert not left, "\n".join(map(str, sorted(left)))


def test_flat_table_each_seat_reads_its_own_strip_turned_to_it(session):
    strips = session["flat_strips"]
    # South reads from the bottom edge, North from the top, East from the right, West from the left
    assert {seat: s[0] for seat, s in strips.items()} == {"S": 0, "N": 180, "E": 90, "W": 270}
    assert "[b]South[/b]:  your turn" in strips["S"][1]
    assert "South to call" in strips["N"][1] and "South to call" in strips["W"][1]
    assert strips["N"][2][1] > 0 and strips["E"][2][0] > 0  # the strips take room on every edge


def test_the_screen_at_rest_draws_nothing(session):
    # Kivy's ScrollView fades its bar for half a second, half a second after every scroll or content
    # change: about 40 full-window frames after each call, on a software renderer the link's CPU
    # (tablet_app/ui/widgets.py, StillScrollView). Nothing changes here, so nothing is drawn.
    before, after = session["rest_frames"]
    assert after - before == 0, f"{after - before} frames drawn on an unchanging auction screen"
