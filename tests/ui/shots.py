"""What the UI drivers (tests/ui/drive_*.py, started by driver.py) share: a settable clock, the
texts on a screen, screenshots in English, Swedish and Danish, the step loop on Kivy's clock that
writes checks.json at the end, and the PIN pad."""
from __future__ import annotations

import json
import pathlib
import time
import traceback
from typing import Any


class Clock:
    def __init__(self) -> None:
        self.t = 1_795_339_000.0

    def __call__(self) -> float:
        return self.t


def texts(widget: Any) -> list[str]:
    out = []
    for w in widget.walk():
        t = getattr(w, "text", None)
        if isinstance(t, str) and t:
            out.append(t)
    return out


STILL_TICKS = 3  # Kivy clock ticks with nothing changed before a screenshot is taken
HANG_S = 60.0
PACE_S = 0.3  # the drivers' pace by default: seconds from one step to the next


class Shots:
    def __init__(self, app: Any, checks: dict[str, Any], shots_dir: pathlib.Path | None):
        self.checks, self.dir = checks, shots_dir
        self.pending: list[tuple[str | None, str]] = []
        self.refreshes = 0
        self.still = 0  # clock ticks the window has stood still ...
        self.last: tuple | None = None  # ... and how it stood
        self._app: Any = None
        self.app = app

    @property
    def app(self) -> Any:
        return self._app

    @app.setter
    def app(self, app: Any) -> None:
        # A screenshot is taken only once the screen has stood still: the app redraws by itself (a
        # notice, a countdown), and a picture taken in the frame after a redraw shows new widgets
        # not yet laid out. So the app's redraws are counted (`settled`).
        self._app = app
        if app is not None:
            redraw = app.refresh

            def refresh() -> None:
                self.refreshes += 1
                redraw()

            app.refresh = refresh

    def layout(self) -> tuple:
        """Every widget in the window: where it is, its size and its text as drawn."""
        from kivy.core.window import Window

        return tuple((id(w), tuple(w.pos), tuple(w.size), getattr(w, "text", None),
                      tuple(getattr(w, "texture_size", ()) or ()))
                     for root in Window.children for w in root.walk())

    def settled(self) -> bool:
        """Called once a clock tick: true once STILL_TICKS ticks in a row have passed with no redraw
        of the app and nothing in the window moved, resized or changed its text (what a layout
        still under way does). It waits for that, not for a time: a loaded machine only spaces the
        ticks further apart."""
        now = (self.refreshes, self.layout())
        self.still = self.still + 1 if now == self.last else 0
        self.last = now
        return self.still >= STILL_TICKS

    def current(self) -> Any:
        app = self.app
        return app.sm.current_screen

    def shot(self, name: str) -> None:
        """Screenshots in English, Swedish and Danish, each one frame after the language is switched
        (the screen must be laid out and drawn first); the Swedish and Danish texts are kept for the
        check that no English is left on them."""
        keep = self.app.lang
        self.app.lang = "en"
        self.app.refresh()
        self.pending.extend([(name, "en"), (name, "sv"), (name, "da"), (None, keep)])

    def take(self, item: tuple[str | None, str]) -> None:
        name, lang = item
        app = self.app
        if name is not None:
            if self.dir is not None:
                self.dir.mkdir(parents=True, exist_ok=True)
                app.sm.export_to_png(str(self.dir / (f"{name}.png" if lang == "en" else f"{name}-{lang}.png")))
            self.checks.setdefault("shots", []).append(f"{name}/{lang}")
            if lang != "en":
                self.checks.setdefault(f"texts_{lang}", {})[name] = texts(self.current())
        app.lang = self.pending[0][1] if self.pending else lang
        app.refresh()

    def run(self, steps: list[Any], out: pathlib.Path, on_end: Any = None, pace: float | None = PACE_S) -> None:
        """The steps, one at a time on Kivy's clock, each after the screenshots the last one asked
        for; with no app given, the running one (an app `tablet_app.app.main` started). A step
        that returns False is a wait: it is called again on the next tick until it returns
        anything else (another thread's change drawn; HANG_S only ends a hang). `pace`:
        seconds from one step to the next; None: the next step once the screen has stood still
        (`settled`) after the last, as a screenshot waits: as soon as the app is done with a step,
        however busy the machine."""
        from kivy.app import App
        from kivy.clock import Clock as KClock

        waiting = [0.0]  # since when a screenshot (or with pace None, a step) waits for the screen to stand still

        def go(_dt: float) -> None:
            if self.app is None:
                self.app = App.get_running_app()
            try:
                # a screenshot, or a step that measures the screen (`on_still`), or with no pace
                # any step, waits for it to stand still: a layout or a scroll still under way would
                # be measured half-done
                wants_still = bool(self.pending) or pace is None or \
                    bool(steps and getattr(steps[0], "on_still", False))
                if wants_still and not self.settled():
                    if not waiting[0]:
                        waiting[0] = time.monotonic()
                    elif time.monotonic() - waiting[0] > HANG_S:  # only ends a hang
                        what = self.pending[0] if self.pending else getattr(steps[0], "__name__", steps[0])
                        raise RuntimeError(f"the screen never stood still for {what}")
                    KClock.schedule_once(go, 0)  # the next tick
                    return
                if self.pending:
                    self.take(self.pending.pop(0))
                else:
                    step = steps.pop(0)  # before it runs: a step may put the next ones first
                    if step(_dt) is False:
                        # a wait: what the app has not yet done (another thread's change drawn),
                        # tried again on the next tick
                        steps.insert(0, step)
                        if not waiting[0]:
                            waiting[0] = time.monotonic()
                        elif time.monotonic() - waiting[0] > HANG_S:  # only ends a hang
                            raise RuntimeError(f"waited in vain: {step.__doc__ or step}")
                        KClock.schedule_once(go, 0)
                        return
                waiting[0] = 0.0
                self.still = 0  # what it changed is seen from the next tick on
            except Exception:
                self.checks["error"] = traceback.format_exc()
                steps.clear()
                self.pending.clear()
            if steps or self.pending:
                # a screenshot as soon as the screen stands still (`settled`); the next step after
                # the driver's pace (0.3 s by default: the test of a screen at rest counts frames
                # over it), or with none, also once the screen stands still
                KClock.schedule_once(go, 0 if self.pending or pace is None else pace)
            else:
                (out / "checks.json").write_text(json.dumps(self.checks, indent=1, ensure_ascii=False, default=str))
                if on_end is not None:
                    on_end()
                self.app.stop()

        KClock.schedule_once(go, 1.5 if pace is not None else 0)


def on_still(step: Any) -> Any:
    """Marks a step that measures the screen: `Shots.run` runs it once the screen stands still
    (`Shots.settled`), as it takes a screenshot, not a fixed time after the step before."""
    step.on_still = True
    return step


def enter_pin(pad: Any, pin: str) -> None:
    """Type `pin` on a screen's PIN pad (the director console's or the PIN screen's) and unlock."""
    for k in pin:
        pad.pin_buttons[k].trigger_action(0)
    pad.pin_buttons["unlock"].trigger_action(0)


def sign_in(app: Any, pin: str) -> Any:
    """Open the director console and sign in with `pin` through its own pad; the console."""
    app.go("director")
    d = app.screens["director"]
    enter_pin(d, pin)
    return d
