"""The top bar's title beside a notice, on the real Kivy app, measured in every language and
both layouts:

    python -m tests.ui.drive_topbar OUT_DIR [SHOTS_DIR]

A round of 16 boards at table ABC 14, round 13. For each language the board whose title is the
widest there (its dealer and vulnerability words) is put on the table, and the widest notice
the app gives (TabletApp.NOTICES, with the widest fields it can have) is shown; the auction
screen is then measured with tests/ui/fit.py, upright and flat. Checks go to OUT_DIR/checks.json.
"""
from __future__ import annotations

from typing import Any

from tablet_app import i18n, present
from tests.ui.driver import Driver
from tests.ui.fit import clipped, needed
from tests.ui.shots import on_still

drv = Driver()
ctl = drv.controller({"event": "club-2026-11-27", "section": "ABC", "table": 14, "round": 13,
                      "boards": list(range(1, 17)), "ns_pair": 14, "ew_pair": 28, "profile": "dbf-2017",
                      "td_pin": "4321", "tables": 14})

# The widest fields each notice can carry: a board of two digits and a five-character score; a
# recovered journal's count and the place its damaged file was kept (a long path).
FIELDS: dict[str, dict[str, Any]] = {
    "result_sent": {"board": 16, "score": "-7600"},
    "players_saved": {},
    "damaged_recovered": {"kept": 123456, "aside": "/home/bridge/tablet/build/tablet.db.damaged-20261127-214305"},
    "round_moved": {"ended": 13, "round": 14, "ns": 14, "ew": 28},
}

app = drv.open_app("en")
checks, shots = drv.checks, drv.shots
checks["notices"] = sorted(app.NOTICES)


def width(label: Any, text: str) -> float:
    """How wide `text` is drawn in `label`'s font on one line."""
    keep, keep_size = label.text, label.text_size
    label.text_size = (None, None)
    label.text = text
    w = needed(label)[0]
    label.text, label.text_size = keep, keep_size
    return w


def inside(bar: Any) -> bool:
    """Every text of the bar is drawn within it (a child laid out above or below is not seen)."""
    return all(bar.y - 0.5 <= w.y and w.top <= bar.top + 0.5 for w in (bar.title, bar.lang, bar.note) if w.height)


def widest_board(lang: str) -> int:
    """The board whose title is the widest in `lang` (the dealer's and the vulnerability's words)."""
    bar = app.screens["auction"].topbar
    best, best_w = 1, -1.0
    for n in range(1, 17):
        ctl.choose_board(n)  # before the first call the players may put any of the round's boards
        w = width(bar.title, present.header(ctl.snapshot(), lang))
        if w > best_w:
            best, best_w = n, w
    return best


def widest_notice(lang: str) -> str:
    bar = app.screens["auction"].topbar
    return max(app.NOTICES, key=lambda k: width(bar.note, i18n.tr(k, lang, **FIELDS[k])))


def show(lang: str, flat: bool) -> None:
    board, notice = widest_board(lang), widest_notice(lang)
    ctl.choose_board(board)
    app.lang, app.flat = lang, flat
    app.notify(notice, 600.0, **FIELDS[notice])
    app.go("auction")
    key = f"{lang}/{'flat' if flat else 'upright'}"
    checks.setdefault("shown", {})[key] = [board, notice]

    @on_still
    def measure(_dt: float) -> None:
        bar = app.screens["auction"].topbar
        checks.setdefault("clipped", {})[key] = clipped(bar)
        checks.setdefault("inside", {})[key] = inside(bar)
        checks.setdefault("bar", {})[key] = {"title": bar.title.text, "note": bar.note.text,
                                            "header": present.header(app.snap, lang),
                                            "height": round(bar.height), "note_height": round(bar.note.height)}

    steps.insert(0, measure)


steps: list[Any] = []
for lang in ("en", "sv", "da"):
    for flat in (False, True):
        steps.append(lambda _dt, lang=lang, flat=flat: show(lang, flat))
steps.append(lambda _dt: show("da", False))
steps.append(lambda _dt: shots.shot("topbar-notice"))


def no_notice(_dt: float) -> None:
    app.note = ("", {}, 0.0)
    app.refresh()


@on_still
def measure_plain(_dt: float) -> None:
    bar = app.screens["auction"].topbar
    checks["plain"] = {"height": round(bar.height), "note_opacity": bar.note.opacity, "inside": inside(bar)}


def visit(name: str) -> None:
    """Every screen's bar, each drawn once (measured in the next step, once it is laid out)."""
    app.sm.current = name
    app.refresh()

    @on_still
    def measure(_dt: float) -> None:
        bar = app.screens[name].topbar
        checks.setdefault("screens", {})[name] = {"title": bar.title.text, "inside": inside(bar),
                                                  "clipped": clipped(bar)}

    steps.insert(0, measure)


steps += [no_notice, measure_plain]
for name in ("director", "tempo", "result", "round_end", "auction"):
    steps.append(lambda _dt, name=name: visit(name))

drv.run(steps, pace=None)  # each step once the screen stands still after the last
