"""A member number with a leading letter, and the director's player numbers after the first
call, through the real Kivy app's own buttons:

    python -m tests.ui.drive_member_letters OUT_DIR [SHOTS_DIR]

Before the first call (Swedish): the players' keypad has the letter key ("Bokstav"); North types
K, 1, 2, 3, 4 with it (the pad turns to the alphabet and back); at East, after a digit, a letter
is refused ("En bokstav får bara stå först") and the letter key is off; the station's name for
K1234 comes back and the entry is confirmed. The keypad in letters is measured for clipped texts
in sv, da and en. Then North calls: the players' own entry is closed. The director, with the PIN,
opens "Medlemsnummer" on his console, types L77 for East, sees the name, confirms: journalled as
the director's, queued as the round's second `players` item. Checks go to OUT_DIR/checks.json.
"""
from __future__ import annotations

from typing import Any

from tablet_app.controller import Refused
from tests.ui.driver import Driver
from tests.ui.fit import clipped
from tests.ui.shots import enter_pin

drv = Driver()
MEMBERS = {"K1234": "Karin Lund", "L77": "Lars Ek"}
ctl = drv.controller({"event": "club-2026-11-28", "section": "A", "table": 5, "round": 1, "boards": [1],
                      "ns_pair": 5, "ew_pair": 12, "profile": "fsb-2007", "policy": "record", "td_pin": "4321",
                      "tables": 6})
ctl.player_lookup = lambda numbers: {n: MEMBERS.get(n) for n in numbers}

app = drv.open_app("sv")
checks, shots = drv.checks, drv.shots


def items() -> list[dict[str, Any]]:
    return [it for it in ctl.outbox.items() if it["kind"] == "players"]


def fits(name: str, screen: Any) -> None:
    def switch(lang: str) -> Any:
        def go(_dt: float) -> None:
            app.lang = lang
            app.refresh()
        return go

    def take(lang: str) -> Any:
        def go(_dt: float) -> None:
            checks.setdefault("clipped", {})[f"{name}/{lang}"] = clipped(screen)
            keys = screen_keys() if name == "letters" else app.screens["director"].td_players.keypad.keys
            checks.setdefault("letter_key", {})[f"{name}/{lang}"] = keys["letter"].text
        return go

    steps[0:0] = [f for lang in ("sv", "da", "en") for f in (switch(lang), take(lang))] + [switch("sv")]


def screen_keys() -> Any:
    return app.screens["players"].keys


def step_letter(_dt: float) -> None:
    app.screens["auction"].players_btn.trigger_action(0)
    scr = app.screens["players"]
    keys = scr.keys
    pad = scr.pad

    def shown() -> list[bool]:  # [the digits and the letter key, the alphabet] on the pad now
        return [pad.digit_grid.parent is pad and pad.letter_btn.parent is pad, pad.letter_grid.parent is pad]

    checks["letter_offered"] = [keys["letter"].text, keys["letter"].disabled, shown()]
    keys["letter"].trigger_action(0)
    checks["alphabet_shown"] = shown()
    keys["K"].trigger_action(0)
    checks["back_to_digits"] = [shown(), keys["letter"].disabled, scr.numbers["N"]]
    for k in "1234":
        keys[k].trigger_action(0)
    keys["next"].trigger_action(0)
    keys["5"].trigger_action(0)  # East: a digit first ...
    checks["letter_off_after_digit"] = keys["letter"].disabled
    scr.press("A")  # ... a letter pressed now (as a stray touch on the alphabet would) is refused
    checks["letter_refused"] = [scr.error.text, scr.numbers["E"]]
    keys["clear"].trigger_action(0)
    keys["letter"].trigger_action(0)
    fits("letters", scr)


def step_confirm(_dt: float) -> None:
    scr = app.screens["players"]
    scr.keys["digits"].trigger_action(0)
    scr.show_btn.trigger_action(0)
    checks["names"] = [scr.number_labels[s].text for s in "NESW"] + [scr.name_labels["N"].text]
    scr.confirm_btn.trigger_action(0)
    body = [b for _seq, kind, b in ctl.journal.records() if kind == "players"]
    checks["confirmed"] = [[b["numbers"] for b in body], [b["by"] for b in body], [it["key"] for it in items()]]


def step_first_call(_dt: float) -> None:
    assert drv.box("N", "1C")["ok"]
    app.refresh()
    try:
        ctl.enter_player_numbers({"E": "L77"})
    except Refused as e:
        checks["players_closed"] = e.key
    app.screens["auction"].td_btn.trigger_action(0)
    d = app.screens["director"]
    enter_pin(d, "4321")
    checks["tool"] = d.tool_buttons["players"].text
    d.tool_buttons["players"].trigger_action(0)
    checks["td_panel"] = [d.mode, d.td_players.typing.numbers]
    d.tool_buttons["pseatE"].trigger_action(0)
    keys = d.td_players.keypad.keys
    keys["clear"].trigger_action(0)
    keys = d.td_players.keypad.keys  # the console draws its panel again on every touch
    keys["letter"].trigger_action(0)
    d.td_players.keypad.keys["L"].trigger_action(0)
    for k in "77":
        d.td_players.keypad.keys[k].trigger_action(0)
    d.tool_buttons["pshow"].trigger_action(0)
    checks["td_waiting"] = ctl.published["players"]["waiting"]
    checks["td_message"] = d.message.text
    fits("td_players", d)


def step_shot(_dt: float) -> None:
    shots.shot("director-players")


def step_td_confirm(_dt: float) -> None:
    d = app.screens["director"]
    d.tool_buttons["pconfirm"].trigger_action(0)
    body = [b for _seq, kind, b in ctl.journal.records() if kind == "players"]
    checks["td_confirmed"] = [[b["numbers"] for b in body], [b["by"] for b in body],
                              [it["key"] for it in items()], ctl.player_numbers()["E"], d.mode]


steps: list[Any] = [step_letter, step_confirm, step_first_call, step_shot, step_td_confirm]
drv.run(steps, pace=None)  # each step once the screen stands still after the last
