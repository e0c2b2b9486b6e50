"""The board chooser for rounds of BOARDS boards each (1 to 36 a round can have), on the real Kivy
app, started once for all of them:

    python -m tests.ui.drive_board_chooser OUT_DIR [SHOTS_DIR] BOARDS [BOARDS...]

The table plays one round per BOARDS, in the order given: the first set up, each next one started
by the director ending the round before it (`td_end_round`). For each, in en/sv/da, upright and flat: the auction screen before the first call, every label measured
with tests/ui/fit.py, the chooser and the status line below it inside the screen's body, the
auction's first row in view under the chooser, and every button of the page shown inside the
chooser, also with a refusal shown (a board of no round typed); then every board chosen by its own button (the board on
the table becomes that board), and a board typed and chosen by *Other number*. The chooser is
shot in both layouts as board-chooser-BOARDS(-flat). Last, the round's last board is played
(passed out) and the chooser, its button marked "played", measured again. Checks go to OUT_DIR/checks.json under "rounds", by BOARDS, keyed "LANG/LAYOUT".
"""
from __future__ import annotations

import dataclasses
from typing import Any

from tablet_app import i18n
from tests.ui.driver import Driver
from tests.ui.fit import clipped
from tests.ui.shots import on_still

LANGS = ("en", "sv", "da")

PIN = "4321"

drv = Driver()
counts = [int(n) for n in drv.more]
ctl = drv.controller({"event": "club-2026-11-27", "section": "A", "table": 3, "round": 1,
                      "boards": list(range(1, counts[0] + 1)), "ns_pair": 3, "ew_pair": 13, "profile": "fsb-2007",
                      "td_pin": PIN, "tables": 9})
app = drv.open_app("en")
count = counts[0]  # the round's boards in the steps running now
checks: dict[str, Any] = {}  # that round's checks, in drv.checks["rounds"]


def inside(outer: Any, w: Any) -> bool:
    """`w` is drawn within `outer` (its window coordinates)."""
    ox, oy = outer.to_window(*outer.pos)
    wx, wy = w.to_window(*w.pos)
    return ox - 0.5 <= wx and wx + w.width <= ox + outer.width + 0.5 and \
        oy - 0.5 <= wy and wy + w.height <= oy + outer.height + 0.5


def show(lang: str, flat: bool, refused: bool = False, state: str = "") -> None:
    """The chooser in `lang` and the layout; `refused`: after a board of no round typed; `state`:
    what the key says of the round (a board played)."""
    app.lang, app.flat = lang, flat
    a = app.screens["auction"]
    a.chooser.said = None
    app.go("auction")
    if refused:
        a.chooser.other_input.text = str(count + 1)
        a.chooser.buttons["other"].trigger_action(0)
    app.refresh()
    key = f"{lang}/{'flat' if flat else 'upright'}" + ("/refused" if refused else "") + state

    @on_still
    def measure(_dt: float) -> None:
        body = a.chooser.parent
        checks.setdefault("shown", {})[key] = {
            "boards": sorted(k for k in a.chooser.buttons if k != "other"),
            "marked": sorted(k for k, b in a.chooser.buttons.items()
                             if k != "other" and i18n.tr("board_played_mark", lang) in b.text),
            "on_page": len(a.chooser.grid.children),
            "pages": [b.text for b in a.chooser.page_buttons],
            "msg": a.chooser.msg.text,
            "clipped": clipped(a),
            "chooser_inside": inside(body, a.chooser),
            "status_inside": inside(body, a.status),
            "buttons_inside": all(inside(a.chooser, b) for b in a.chooser.grid.children),
            "other_width": round(a.chooser.other.width),
            "auction_height": round(a.scroll.height),
            "first_call_in_view": bool(a.cells) and inside(a.scroll, a.cells[0]),
        }

    steps.insert(0, measure)


def choose_each(_dt: float) -> None:
    """Every board by its own button, the last first, turning to its page when it is on another:
    the board on the table becomes it."""
    a = app.screens["auction"]
    a.chooser.said = None
    chosen, by_page = {}, []
    for n in range(count, 0, -1):
        for i, page in enumerate(a.chooser.page_buttons):
            if a.chooser.buttons[n].parent is a.chooser.grid:
                break
            page.trigger_action(0)
            by_page.append([n, i])
        a.chooser.buttons[n].trigger_action(0)
        chosen[n] = [ctl.board, a.chooser.msg.text]
    checks["chosen"] = chosen
    checks["by_page"] = by_page
    a.chooser.other_input.text = "1"
    a.chooser.buttons["other"].trigger_action(0)
    checks["typed"] = [ctl.board, a.chooser.msg.text, a.chooser.other_input.text]


def play_last(_dt: float) -> None:
    """The round's last board (the widest number) passed out and confirmed: its button says
    "played" under the number."""
    ctl.choose_board(count)
    order = "NESW"
    first = order.index(ctl.snapshot()["state"]["dealer"])
    for k in range(4):
        drv.box(order[(first + k) % 4], "P")
    ctl.enter_result(None)
    ctl.ew_confirm(True)
    checks["after_play"] = [ctl.phase, ctl.board_choices()["played"]]
    app.refresh()


def begin(n: int, first: bool) -> None:
    """The round of `n` boards: the steps after this one measure it. Not the first: the director
    ends the round on the table (a board in play or not) and starts this one, the table's next."""
    global count, checks
    if not first:
        s = ctl.session
        assert s is not None
        ctl.td_end_round(PIN, dataclasses.replace(s, round=s.round + 1, boards=tuple(range(1, n + 1))))
        app.go("auction")
        app.refresh()
    count = n
    checks = drv.checks.setdefault("rounds", {}).setdefault(str(n), {})
    checks["round"] = [ctl.phase, ctl.board_choices()["boards"]]


def round_steps(n: int, first: bool) -> list[Any]:
    """The steps that measure the round of `n` boards (run after `begin(n)`)."""
    out: list[Any] = [lambda _dt: begin(n, first)]
    for lang in LANGS:
        for flat in (False, True):
            for refused in (False, True):
                out.append(lambda _dt, lang=lang, flat=flat, refused=refused: show(lang, flat, refused))
    out.append(choose_each)
    if n > 1:  # a round of one board ends with it
        out.append(play_last)
        for lang in LANGS:
            for flat in (False, True):
                out.append(lambda _dt, lang=lang, flat=flat: show(lang, flat, state="/played"))
    for flat in (False, True):
        out.append(lambda _dt, flat=flat: show("en", flat, state="/played" if n > 1 else ""))
        out.append(lambda _dt, flat=flat: drv.shots.shot(f"board-chooser-{n}" + ("-flat" if flat else "")))
    return out


steps: list[Any] = [step for i, n in enumerate(counts) for step in round_steps(n, i == 0)]
drv.run(steps, pace=None)  # each step once the screen stands still after the last
