"""The director's PIN in front of a screen players must not open (tempo: partner's think times
are unauthorised information; next round and setup: the session). The field starts empty every
time; the PIN is checked by the controller."""
from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from tablet_app import i18n
from tablet_app.ui.theme import BG, BTN_LIGHT, BTN_OK, STOP_RED, WHITE
from tablet_app.ui.widgets import BigButton, Panel, Text, framed, message_bar


def pin_pad(target: BoxLayout, pin: str, lang: str, digit: Any, clear: Any, unlock: Any,
            wait_s: int = 0) -> dict[str, Any]:
    """The PIN prompt, the dots typed so far and the keypad, added to `target`; returns the buttons.
    `wait_s` > 0: the controller takes no try for that long (`pin_state()`): said, Sign in disabled."""
    target.add_widget(Text(i18n.tr("pin_prompt", lang), size=24, bold=True, size_hint_y=None, height=40))
    if wait_s > 0:
        target.add_widget(Text(i18n.tr("pin_locked_wait", lang, wait_s=wait_s), size=22, bold=True,
                               color=STOP_RED, size_hint_y=None, height=36))
    shown = Panel(BG, 8, size_hint_y=None, height=60)
    shown.add_widget(Text("\u25cf " * len(pin) or " ", size=30, halign="center"))
    target.add_widget(shown)
    pad = GridLayout(cols=3, spacing=10)
    buttons: dict[str, Any] = {}
    for key in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "clear", "0", "unlock"):
        if key == "clear":
            b = BigButton(i18n.tr("clear", lang), BTN_LIGHT, size=22)
            b.bind(on_release=lambda *_: clear())
        elif key == "unlock":
            b = BigButton(i18n.tr("unlock", lang), BTN_OK, size=22)
            b.disabled = wait_s > 0
            b.bind(on_release=lambda *_: unlock())
        else:
            b = BigButton(key, BTN_LIGHT, size=32)
            b.bind(on_release=lambda _b, key=key: digit(key))
        buttons[key] = b
        pad.add_widget(b)
    target.add_widget(pad)
    return buttons


class PinEntry:
    """The digits typed on a PIN pad so far (at most 8), shared by the gate and the console."""

    pin = ""
    app: Any

    def press_digit(self, d: str) -> None:
        if len(self.pin) < 8:
            self.pin += d
        self.app.refresh()

    def press_clear(self) -> None:
        self.pin = ""
        self.app.refresh()


class PinGateScreen(PinEntry, Screen):
    def __init__(self, app: Any, **kw: Any):
        super().__init__(name="pin", **kw)
        self.app = app
        self.pin = ""
        self.then: Any = None
        self.back_to = "auction"
        self.pin_buttons: dict[str, Any] = {}
        root = framed(self, app)
        wrap = BoxLayout(padding=(300, 16))
        self.panel = Panel(WHITE, 14, orientation="vertical", padding=(20, 14), spacing=10)
        wrap.add_widget(self.panel)
        root.add_widget(wrap)
        message_bar(self, root, lambda: self.app.go(self.back_to))

    def open(self, then: Any, back_to: str) -> None:
        """Ask for the PIN, then call `then(pin)`; Back returns to `back_to`."""
        self.pin, self.then, self.back_to = "", then, back_to
        self.message.text = ""
        self.app.go("pin")

    def _unlock(self) -> None:
        pin, self.pin = self.pin, ""
        if self.app.controller.check_pin(pin):
            then, self.then = self.then, None
            if then is not None:
                then(pin)
        else:
            wait = (self.app.snap.get("pin") or {}).get("wait_s", 0)  # published by check_pin
            self.message.text = (i18n.tr("pin_locked_wait", self.app.lang, wait_s=wait) if wait
                                 else i18n.tr("pin_wrong", self.app.lang))
            self.app.refresh()

    def refresh(self, snap: dict[str, Any], lang: str) -> None:
        self.topbar.refresh(snap, lang)
        self.back.text = i18n.tr("back", lang)
        self.panel.clear_widgets()
        self.panel.add_widget(Text(i18n.tr("pin_needed", lang), size=22, bold=True, size_hint_y=None, height=40))
        self.pin_buttons = pin_pad(self.panel, self.pin, lang, self.press_digit, self.press_clear, self._unlock,
                                   (snap.get("pin") or {}).get("wait_s", 0))
        self.panel.add_widget(Widget(size_hint_y=None, height=4))
