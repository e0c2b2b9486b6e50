"""The Kivy app: one ScreenManager, the screens, and when each is shown."""
from __future__ import annotations

import time
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.uix.screenmanager import NoTransition, ScreenManager

from tablet_app import i18n, present
from tablet_app.controller import Controller
from tablet_app.ui.auction import AuctionScreen
from tablet_app.ui.director import DirectorScreen
from tablet_app.ui.pin_gate import PinGateScreen
from tablet_app.ui.result import ResultScreen
from tablet_app.ui.round_end import RoundEndScreen
from tablet_app.ui.setup import SetupScreen
from tablet_app.ui.tempo import TempoScreen
from tablet_app.ui.theme import BG


class TabletApp(App):
    title = "Bidding box - table tablet"

    def __init__(self, controller: Controller, runner: Any = None, lang: str = "en",
                 on_ready: Any = None, deliverer: Any = None, **kw: Any):
        super().__init__(**kw)
        self.deliverer = deliverer  # tablet_app.outbox.Deliverer when a station is configured
        # With a station: sets the controller up for this table's next round from its movement.
        self.next_setup: Any = None
        self.on_ready = on_ready  # called once, after the first frame with the auction drawn
        self.controller = controller
        self.runner = runner
        self.lang = lang
        self.last_phase: str | None = None
        self.ready = False
        self.screens: dict[str, Any] = {}
        # a notice for the table: (translation key, its fields, until monotonic time)
        self.note: tuple[str, dict[str, Any], float] = ("", {}, 0.0)

    def build(self) -> ScreenManager:
        Window.clearcolor = BG
        sm = ScreenManager(transition=NoTransition())
        for cls in (AuctionScreen, DirectorScreen, TempoScreen, ResultScreen, RoundEndScreen, SetupScreen,
                    PinGateScreen):
            s = cls(self)
            self.screens[s.name] = s
            sm.add_widget(s)
        self.sm = sm
        self.controller.listeners.append(self._changed)
        self._dirty = True
        # Box events wait in the link for at most one tick before they are journalled: keep it short.
        Clock.schedule_interval(self._tick, 0.02)
        # The deliverer works in its own thread: the director console re-reads the outbox now and then.
        Clock.schedule_interval(self._delivery_tick, 1.0)
        # the stop countdown and notices change with time alone, not with an event
        Clock.schedule_interval(self._second_tick, 0.5)
        self.refresh()
        return sm

    def _second_tick(self, _dt: float) -> None:
        if self.controller.stop_wait() is not None or self.note[0] or self._counting:
            self._counting = self.controller.stop_wait() is not None
            if self.note[0] and time.monotonic() > self.note[2]:
                self.note = ("", {}, 0.0)
            self.refresh()

    _counting = False

    def notify(self, key: str, seconds: float = 8.0, **fields: Any) -> None:
        self.note = (key, fields, time.monotonic() + seconds)

    def current_note(self) -> str:
        key, fields, until = self.note
        return i18n.tr(key, self.lang, **fields) if key and time.monotonic() <= until else ""

    def require_pin(self, then: Any, back_to: str) -> None:
        """Open a director-only screen: `then(pin)` runs once the director PIN is given."""
        self.screens["pin"].open(then, back_to)

    def _changed(self) -> None:
        self._dirty = True
        if self.deliverer is not None:
            self.deliverer.wake()  # a new result leaves at once, not at the next idle poll

    def _delivery_tick(self, _dt: float) -> None:
        # Only the one label: rebuilding the console every second would redraw the TD's pickers
        # under his finger.
        if self.sm.current == "director":
            self.screens["director"].delivery.text = "\n".join(self.delivery_lines(self.lang))

    def delivery_lines(self, lang: str) -> list[str]:
        ob = self.controller.outbox
        station = None if self.deliverer is None else {"connected": self.deliverer.connected}
        return present.delivery_lines(ob.counts(), ob.items("rejected"), station, lang)

    def _tick(self, _dt: float) -> None:
        if self.runner is not None:
            self.runner.step(0)
        if self.controller.tick():
            self._dirty = True
        if self._dirty:
            self.refresh()

    def go(self, name: str) -> None:
        self.sm.current = name
        self.refresh()

    def next_language(self) -> None:
        self.lang = i18n.LANGS[(i18n.LANGS.index(self.lang) + 1) % len(i18n.LANGS)]
        self.refresh()

    def refresh(self) -> None:
        self._dirty = False
        snap = self.controller.snapshot()
        phase = snap["phase"]
        if phase != self.last_phase:
            # The table freezes and calls the director; the end of the auction opens result entry.
            target = {"frozen": "director", "play": "result", "confirm": "result", "round_end": "round_end",
                      "auction": "auction", "setup": "setup"}.get(phase)
            if phase == "setup":
                self.screens["setup"].prefill(None)
            if target is not None and not (phase == "confirm" and self.last_phase == "play"):
                self.sm.current = target
            self.last_phase = phase
        self.screens[self.sm.current].refresh(snap, self.lang)
        if not self.ready and self.on_ready is not None:
            # the frame after this refresh is the first one a player sees
            Clock.schedule_once(lambda _dt: self.on_ready(self), 0)
        self.ready = True


