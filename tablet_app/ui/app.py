"""The Kivy app: one ScreenManager, the screens, and when each is shown."""
from __future__ import annotations

import sys
import threading
import time
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.uix.screenmanager import NoTransition, ScreenManager

from tablet_app import i18n, present
from tablet_app.controller import Controller
from tablet_app.ui.auction import AuctionScreen
from tablet_app.ui.director import DirectorScreen
from tablet_app.ui.pauses import freeze_built_screens, full_pass
from tablet_app.ui.pin_gate import PinGateScreen
from tablet_app.ui.players import PlayerNumbersScreen
from tablet_app.ui.render_priority import lower_render_threads
from tablet_app.ui.result import ResultScreen
from tablet_app.ui.round_end import RoundEndScreen
from tablet_app.ui.setup import SetupScreen
from tablet_app.ui.tempo import TempoScreen
from tablet_app.ui.theme import BG

if TYPE_CHECKING:
    from tablet_app.runner import LinkWaiter

ACKED_REDRAW_S = 0.005  # after the boxes' acknowledgements: their own drawing comes first
FULL_PASS_AFTER_S = 0.02  # after the auction: the screen that follows it is drawn first


class TabletApp(App):
    title = "Bidding box - table tablet"
    # The notices the top bar shows for a few seconds (`notify`), by their i18n key: every one is
    # measured beside the widest title in each language (tests/ui/test_topbar_fit.py).
    NOTICES = ("result_sent", "players_saved", "damaged_recovered", "round_moved")

    def __init__(self, controller: Controller | None, runner: Any = None, lang: str = "en",
                 on_ready: Any = None, deliverer: Any = None, flat: bool = False, damaged: Any = None,
                 recover: Any = None, **kw: Any):
        super().__init__(**kw)
        # A journal that failed its check at start (JournalDamaged, controller None): shown on the
        # damaged screen; `recover()` returns (controller, runner, deliverer) from the records
        # before the damage (main: Controller.recover), and the table goes on from there.
        self.damaged = damaged
        self.recover = recover
        self.deliverer = deliverer  # tablet_app.outbox.Deliverer when a station is configured
        # With a station: sets the controller up for this table's next round from its movement.
        self.next_setup: Any = None
        # With a station: the next round from its movement, for the players to confirm
        # (station_client.NextRound; the round-end screen).
        self.next_preview: Any = None
        self.on_ready = on_ready  # called once, after the first frame with the auction drawn
        # The link waiter thread applies box events, the deliverer hands in travellers; the
        # controller takes its own lock for every input. The screens never read the controller
        # itself: they draw the snapshot it publishes after each change (`snap`, set by
        # `_published` on whichever thread made the change, read here on this one).
        self.controller: Controller | None = controller
        self.lock = controller.lock if controller is not None else threading.RLock()
        self.snap: Any = controller.published if controller is not None else {}
        self.runner = runner
        self.lang = lang
        self._boxes_speak(lang)
        self.flat = flat  # the auction screen with a strip turned to each seat (a tablet lying flat)
        self.last_phase: str | None = None
        self.ready = False
        self.screens: dict[str, Any] = {}
        self.waiter: LinkWaiter | None = None  # the link's waiter thread, once the table is attached
        # a notice for the table: (translation key, its fields, until monotonic time)
        self.note: tuple[str, dict[str, Any], float] = ("", {}, 0.0)

    def build(self) -> ScreenManager:
        Window.clearcolor = BG
        # the GL context (and a software renderer's worker threads) exists once the window does;
        # looked for again after the first frame, for a renderer that starts them lazily
        lower_render_threads()
        Clock.schedule_once(lambda _dt: lower_render_threads(), 0.5)
        self.sm = ScreenManager(transition=NoTransition())
        if self.damaged is not None:
            from tablet_app.ui.damaged import DamagedScreen

            self.damaged_screen = DamagedScreen(self, self.damaged)
            self.sm.add_widget(self.damaged_screen)
            self.damaged_screen.refresh({}, self.lang)
            return self.sm
        self._attach()
        return self.sm

    def recover_journal(self) -> None:
        """The director's Recover on the damaged screen: the table from the records before the
        damage; a failure is said on the same screen."""
        scr = self.damaged_screen
        try:
            controller, runner, deliverer = self.recover()
        except Exception as exc:  # noqa: BLE001 - whatever stops it is said, nothing is hidden
            scr.said = lambda lang, exc=exc: f"[color=cc141f]{i18n.tr('damaged_failed', lang, error=exc)}[/color]"
            scr.refresh({}, self.lang)
            return
        self.controller, self.lock, self.snap = controller, controller.lock, controller.published
        self.runner, self.deliverer, self.damaged = runner, deliverer, None
        done: dict[str, Any] = next((x for x in reversed(controller.log) if x.get("what") == "recovered"), {})
        self.notify("damaged_recovered", 30.0, kept=done.get("kept", "?"), aside=done.get("damaged_file", "?"))
        self._attach()

    def _attach(self) -> None:
        """The table's screens, the link thread and the clocks, once there is a controller."""
        sm = self.sm
        for cls in (AuctionScreen, DirectorScreen, TempoScreen, ResultScreen, RoundEndScreen, SetupScreen,
                    PinGateScreen, PlayerNumbersScreen):
            s = cls(self)
            self.screens[s.name] = s
            sm.add_widget(s)
        assert self.controller is not None
        self.controller.listeners.append(self._changed)
        self.controller.on_publish.append(self._published)
        self.snap = self.controller.published
        self._dirty = True
        self._redraw = Clock.create_trigger(self._redraw_now, 0.03)
        # Box events: the link's waiter thread wakes this thread at once (Kivy's interrupt clock,
        # set in tablet_app/ui/__init__.py); the tray and the views' timers need only a slow tick.
        self.waiter = None
        if self.runner is not None:
            from tablet_app.runner import LinkWaiter

            # The screen is redrawn just after every box has acknowledged its new view (the link
            # calls on_states_acked), at the latest 30 ms after the event: the link thread writing
            # the STATEs does not compete with this thread's drawing for the CPU and the GIL (whose
            # hand-over interval is shortened for the same reason; the default is 5 ms), and the
            # drawing starts as soon as the boxes are served, not a fixed time later.
            sys.setswitchinterval(0.001)
            self._push = Clock.create_trigger(self._push_now, 0)
            if hasattr(self.runner.link, "on_states_acked"):
                # a box acknowledges a STATE as it takes it, and draws it right after
                self.runner.link.on_states_acked = Clock.create_trigger(self._redraw_now, ACKED_REDRAW_S)
            self.waiter = LinkWaiter(self.runner.link, self._link_events).start()
        Clock.schedule_interval(self._tick, 0.25)
        # The deliverer works in its own thread: the director console re-reads the outbox now and then.
        Clock.schedule_interval(self._delivery_tick, 1.0)
        # the stop countdown and notices change with time alone, not with an event
        Clock.schedule_interval(self._second_tick, 0.5)
        self.last_phase = None
        self.refresh()

    def _second_tick(self, _dt: float) -> None:
        """What changes with time alone: the stop countdown (the auction screen), the PIN pads'
        "wait N s", a notice on the top bar ending. Only what changed is redrawn: rebuilding the
        director's pickers every half second would redraw them under his finger."""
        assert self.controller is not None
        d = self.screens["director"]
        if self.sm.current == "director" and d.unlocked:
            self.controller.director()  # an idle console's sitting ends: published, and closed below
        snap = self.controller.refresh_countdowns()
        if self.sm.current == "director" and d.unlocked and not (snap.get("director") or {}).get("signed_in"):
            self.refresh()
            return
        grace = (snap.get("director") or {}).get("grace_s", 0)
        if grace or self._grace:
            self._grace = grace
            if self.sm.current == "auction":  # the Director button counts the club's grace down
                self.screens["auction"].director_button(snap, self.lang)
        counting = snap.get("stop_wait") is not None
        wait = (snap.get("pin") or {}).get("wait_s", 0)
        if counting or self._counting:
            self._counting = counting
            self.refresh()
            return
        if wait != self._pin_wait:
            self._pin_wait = wait
            if self.sm.current in ("pin", "director"):
                self.refresh()
                return
        if self.note[0]:
            if time.monotonic() > self.note[2]:
                self.note = ("", {}, 0.0)
            self.screens[self.sm.current].topbar.refresh(snap, self.lang)

    _counting = False
    _pin_wait = 0
    _grace = 0

    def notify(self, key: str, seconds: float = 8.0, **fields: Any) -> None:
        if key not in self.NOTICES:
            raise ValueError(f"{key!r} is not one of the top bar's notices (TabletApp.NOTICES)")
        self.note = (key, fields, time.monotonic() + seconds)

    def current_note(self) -> str:
        key, fields, until = self.note
        return i18n.tr(key, self.lang, **fields) if key and time.monotonic() <= until else ""

    def toggle_flat(self) -> None:
        self.flat = not self.flat
        self.refresh()

    def require_pin(self, then: Any, back_to: str) -> None:
        """Open a director-only screen: `then(pin)` runs once the director PIN is given."""
        self.screens["pin"].open(then, back_to)

    def _published(self, snap: Any) -> None:
        """A new snapshot from the controller, on the thread that changed the table: kept for
        this thread's next redraw (asked for here when another thread made the change)."""
        self.snap = snap
        self._dirty = True
        if threading.current_thread() is not threading.main_thread():
            self._redraw()

    def _changed(self) -> None:
        if self.runner is not None and threading.current_thread() is threading.main_thread():
            self._push()
        if self.deliverer is not None:
            self.deliverer.wake()  # a new result leaves at once, not at the next idle poll

    def _delivery_tick(self, _dt: float) -> None:
        # Only the one label: rebuilding the console every second would redraw the TD's pickers
        # under his finger.
        if self.sm.current == "director":
            self.screens["director"].delivery.text = "\n".join(self.delivery_lines(self.lang))

    def delivery_lines(self, lang: str, snap: dict[str, Any] | None = None) -> list[str]:
        if snap is None:  # the label's tick: only what the lines read, not the whole table
            assert self.controller is not None
            snap = {"delivery": self.controller.delivery(), "station": self.snap.get("station")}
        delivery = dict(snap.get("delivery") or {})
        if self.deliverer is not None:
            # the deliverer's own word is the freshest; the outbox row is what it last wrote
            delivery["connected"] = bool(self.deliverer.connected or delivery.get("connected"))
        lines = present.delivery_report(delivery, self.deliverer is not None, snap.get("station"), lang)
        if self.runner is not None:
            lines += present.box_lines(self.runner.box_trouble, lang)
        return lines

    def _link_events(self, events: list[Any]) -> None:
        """On the link waiter's thread: journal, acknowledge, push to the boxes (the runner takes
        the controller's lock); the snapshot published at the end asks this app to redraw."""
        assert self.runner is not None
        self.runner.handle(events)
        self._redraw()

    def _redraw_now(self, _dt: float) -> None:
        if self._dirty:
            self.refresh()

    def _push_now(self, _dt: float) -> None:
        # a change made here (a TD decision, a result) reaches the boxes now, not at the next tick
        if self.runner is not None:
            self.runner.handle([])

    def _tick(self, _dt: float) -> None:
        assert self.controller is not None
        if self.controller.tick():  # the tray moves with time alone (screens)
            self._dirty = True
        if self.runner is not None:
            self.runner.handle([])  # ...and so do the boxes' refusal notes
        if self._dirty:
            self.refresh()

    def on_pause(self) -> bool:
        """The app goes to the background (Android): the director is signed out, no grace, and
        the console is drawn signed out for whoever picks the tablet up."""
        if "director" in self.screens:
            self.screens["director"].end_sitting()
            if self.sm.current == "director":
                self.refresh()
        return True

    def on_stop(self) -> None:
        if "director" in self.screens:
            self.screens["director"].end_sitting()
        if self.waiter is not None:
            self.waiter.stop()

    def go(self, name: str) -> None:
        self.sm.current = name
        self.refresh()

    def next_language(self) -> None:
        self.lang = i18n.LANGS[(i18n.LANGS.index(self.lang) + 1) % len(i18n.LANGS)]
        self._boxes_speak(self.lang)
        self.refresh()

    def _boxes_speak(self, lang: str) -> None:
        """The boxes' displays in the table's language too (protocol/SPEC.md section 3)."""
        set_lang = getattr(getattr(self.runner, "link", None), "set_lang", None)
        if set_lang is not None:
            set_lang(lang)

    def refresh(self) -> None:
        self._dirty = False
        if self.controller is None:  # the damaged journal's screen only
            self.damaged_screen.refresh({}, self.lang)
            return
        snap = self.snap
        phase = snap["phase"]
        if phase != self.last_phase:
            # The table freezes and calls the director; the end of the auction opens result entry.
            target = {"frozen": "director", "play": "result", "confirm": "result", "round_end": "round_end",
                      "auction": "auction", "setup": "setup"}.get(phase)
            if phase == "setup":
                self.screens["setup"].prefill(None)
            if target is not None and not (phase == "confirm" and self.last_phase == "play"):
                self.sm.current = target
            if phase != "auction" and self.ready:
                # no call is on its way now (result entry, the director called, the round's end):
                # the cycle collector's full pass (ui/pauses.py), once the new screen is drawn
                Clock.schedule_once(lambda _dt: full_pass(), FULL_PASS_AFTER_S)
            self.last_phase = phase
        self.screens[self.sm.current].refresh(snap, self.lang)
        if not self.ready:
            # the screens are built: what exists now lives as long as the app (tablet_app/ui/pauses.py)
            Clock.schedule_once(lambda _dt: freeze_built_screens(), 0)
            if self.on_ready is not None:
                # the frame after this refresh is the first one a player sees
                Clock.schedule_once(lambda _dt: self.on_ready(self), 0)
        self.ready = True


