"""Player numbers typed at the table, through the real Kivy app in Swedish:

    python -m tests.ui.drive_players OUT_DIR [SHOTS_DIR]

Round 1, board 1, before the first call: the auction screen offers "Medlemsnummer"; the players
open the keypad and type four numbers, North's "000" (only zeros: not a member number) is refused
in Swedish and nothing is journalled; North types it again, the station's names are shown back
(one number unknown to it), Rätta drops the entry, so does Tillbaka with the names shown (the
keypad opens empty again), and Godkänn journals them and queues the `players` item; opened again
before the first call, the keypad shows the round's numbers. The first call hides the button. The screen is measured with
tests/ui/fit.py in Swedish, Danish and English; checks go to OUT_DIR/checks.json.
"""
from __future__ import annotations

from typing import Any

from tests.ui.driver import Driver
from tests.ui.fit import clipped
from tests.ui.shots import texts

# the scoring program's players, as the station answers a lookup (station_client.player_lookup)
MEMBERS = {"10001": "Anna Berg", "10234": "Åke Öst", "10567": "Carl Dahl"}

drv = Driver()
ctl = drv.controller({"event": "club-2026-11-27", "section": "A", "table": 4, "round": 1, "boards": [1],
                      "ns_pair": 3, "ew_pair": 9, "profile": "fsb-2007", "policy": "record", "td_pin": "4321",
                      "tables": 5})
asked: list[list[str]] = []


def lookup(numbers: list[str]) -> dict[str, str | None]:
    asked.append(list(numbers))
    return {n: MEMBERS.get(n) for n in numbers}


ctl.player_lookup = lookup
app = drv.open_app("sv")
checks, shots = drv.checks, drv.shots


def kinds() -> list[str]:
    return [kind for _seq, kind, _body in ctl.journal.records()]


def type_number(scr: Any, digits: str) -> None:
    for d in digits:
        scr.keys[d].trigger_action(0)
    scr.keys["next"].trigger_action(0)


def one_line_width(label: Any) -> float:
    """The width `label`'s text needs on one line (tests/ui/fit.py measures it wrapped)."""
    core = label._label
    probe = type(core)(**{**core.options, "text_size": (None, None)})
    probe.text = label.text
    probe.refresh()
    return float(probe.texture.size[0])


def measure(name: str) -> None:
    """Each language in turn, measured once it is drawn (the next steps), then Swedish again."""
    def switch(lang: str) -> Any:
        def go(_dt: float) -> None:
            app.lang = lang
            app.refresh()
        return go

    def take(lang: str) -> Any:
        def go(_dt: float) -> None:
            checks.setdefault("clipped", {})[f"{name}/{lang}"] = clipped(app.sm.current_screen)
            if name == "auction":  # the button's word on one line: wrapped, it would break mid-word
                b = app.screens["auction"].players_btn
                checks.setdefault("button_fit", {})[lang] = [one_line_width(b), b.width - 16]
        return go

    steps[0:0] = [f for lang in ("sv", "da", "en") for f in (switch(lang), take(lang))] + [switch("sv")]


def step_button(_dt: float) -> None:
    a = app.screens["auction"]
    checks["button"] = [a.players_btn.text, a.players_btn.opacity, a.players_btn.disabled]
    measure("auction")
    steps.insert(7, lambda _dt: shots.shot("players-button"))


def step_open(_dt: float) -> None:
    a = app.screens["auction"]
    a.players_btn.trigger_action(0)
    scr = app.screens["players"]
    checks["opened"] = app.sm.current
    for digits in ("000", "10234", "10567", "99999"):
        type_number(scr, digits)
    before = kinds()
    scr.show_btn.trigger_action(0)  # "Visa namn"
    checks["refused"] = [scr.error.text, kinds() == before, ctl.published["players"]["waiting"], list(asked)]
    measure("refused")


def step_refused_shot(_dt: float) -> None:
    shots.shot("players-refused")


def step_names(_dt: float) -> None:
    scr = app.screens["players"]
    app.lang = "sv"
    scr.seat_btns["N"].trigger_action(0)
    scr.keys["clear"].trigger_action(0)
    type_number(scr, "10001")
    scr.show_btn.trigger_action(0)
    checks["names"] = [scr.error.text, [scr.name_labels[s].text for s in "NESW"],
                       [scr.number_labels[s].text for s in "NESW"], scr.confirm_btn.text, scr.correct_btn.text,
                       kinds().count("players")]
    measure("names")


def step_names_shot(_dt: float) -> None:
    shots.shot("players-names")


def step_correct_confirm(_dt: float) -> None:
    scr = app.screens["players"]
    app.lang = "sv"
    scr.correct_btn.trigger_action(0)  # "Rätta": nothing kept
    checks["corrected"] = [ctl.published["players"]["waiting"], kinds().count("players"),
                           [scr.number_labels[s].text for s in "NESW"]]
    scr.show_btn.trigger_action(0)
    scr.back.trigger_action(0)  # "Tillbaka" with names waiting: nothing kept
    a = app.screens["auction"]
    checks["back"] = [app.sm.current, ctl.published["players"]["waiting"], kinds().count("players")]
    a.players_btn.trigger_action(0)
    checks["reopened_empty"] = [scr.number_labels[s].text for s in "NESW"]
    for digits in ("10001", "10234", "10567", "99999"):
        type_number(scr, digits)
    scr.show_btn.trigger_action(0)
    scr.confirm_btn.trigger_action(0)  # "Godkänn"
    body = [b for _seq, kind, b in ctl.journal.records() if kind == "players"]
    checks["confirmed"] = [app.sm.current, len(body), body[-1]["numbers"] if body else None,
                           body[-1]["by"] if body else None, ctl.player_numbers(),
                           [it["key"] for it in ctl.outbox.items() if it["kind"] == "players"],
                           app.current_note()]


def step_reopen(_dt: float) -> None:
    """Before the first call the players may open it again: this round's numbers are filled in."""
    app.screens["auction"].players_btn.trigger_action(0)
    scr = app.screens["players"]
    checks["reopened"] = [app.sm.current, [scr.number_labels[s].text for s in "NESW"]]
    scr.back.trigger_action(0)


def step_first_call(_dt: float) -> None:
    assert drv.box("N", "P")["ok"]
    app.refresh()
    a = app.screens["auction"]
    checks["after_call"] = [a.players_btn.opacity, a.players_btn.disabled, a.players_btn.width,
                            ctl.published["players"]["may_enter"]]
    checks["auction_texts"] = texts(a)


steps: list[Any] = [step_button, step_open, step_refused_shot, step_names, step_names_shot, step_correct_confirm,
                    step_reopen, step_first_call]
drv.run(steps, pace=None)  # each step once the screen stands still after the last
