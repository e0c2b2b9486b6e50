"""Player numbers typed at the table: each player's member number on a keypad (digits, and the
letter key for a number that starts with a capital letter: ui/member_keypad.py), the names the
station finds shown back, then Confirm (journalled, sent to the station) or Correct (nothing kept).
Opened from the auction screen while the players may enter them (the round's first board, before
its first call: `snapshot()["players"]["may_enter"]`; docs/tablet.md "Player numbers"). After
that the director enters them on his console (ui/td_players.py)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from shared_rules.types import SEATS
from tablet_app import i18n
from tablet_app.ui.member_keypad import MemberKeypad, Typing
from tablet_app.ui.theme import (
    BG,
    BTN,
    BTN_LIGHT,
    BTN_OK,
    BTN_WARN,
    INK,
    MUTED,
    STOP_RED,
    TURN,
    WHITE,
    set_bg,
)
from tablet_app.ui.widgets import BigButton, Panel, Text, framed, message_bar


class PlayerNumbersScreen(Screen):
    def __init__(self, app: Any, **kw: Any):
        super().__init__(name="players", **kw)
        self.app = app
        self.typing = Typing()  # the numbers typed, the seat the keypad types into
        self.said: Callable[[str], str] | None = None  # the last refusal, in the language shown
        root = framed(self, app)
        body = BoxLayout(padding=(24, 14), spacing=16)
        left = Panel(WHITE, 14, orientation="vertical", padding=(20, 12), spacing=8)
        self.title = Text("", size=22, bold=True, size_hint_y=None, height=56)
        left.add_widget(self.title)
        self.seat_btns: dict[str, BigButton] = {}
        self.number_boxes: dict[str, Panel] = {}
        self.number_labels: dict[str, Text] = {}
        self.name_labels: dict[str, Text] = {}
        for seat in SEATS:
            row = BoxLayout(spacing=12, size_hint_y=None, height=70)
            b = BigButton("", BTN_LIGHT, size=22, size_hint_x=None, width=130)
            b.bind(on_release=lambda _b, seat=seat: self.pick(seat))
            box = Panel(BG, 8, size_hint_x=None, width=280, padding=(10, 4))
            num = Text("", size=28, bold=True, halign="center")
            box.add_widget(num)
            name = Text("", size=22, color=INK)
            for w in (b, box, name):
                row.add_widget(w)
            self.seat_btns[seat], self.number_boxes[seat] = b, box
            self.number_labels[seat], self.name_labels[seat] = num, name
            left.add_widget(row)
        # a refusal (a number of the wrong form ...) beside the numbers it is about
        self.error = Text("", size=20, bold=True, color=STOP_RED, size_hint_y=None, height=0)
        left.add_widget(self.error)
        self.actions = actions = BoxLayout(spacing=12, size_hint_y=None, height=84)
        self.show_btn = BigButton("", BTN, size=22)
        self.show_btn.bind(on_release=lambda *_: self.show_names())
        self.confirm_btn = BigButton("", BTN_OK, size=22)
        self.confirm_btn.bind(on_release=lambda *_: self.confirm())
        self.correct_btn = BigButton("", BTN_WARN, size=22)
        self.correct_btn.bind(on_release=lambda *_: self.correct())
        left.add_widget(actions)
        left.add_widget(Widget())  # the rows stay at the top, the space left goes below them
        body.add_widget(left)
        self.pad = MemberKeypad(self.press, size_hint_x=None, width=360)
        self.keys = self.pad.keys  # every key by name: digits, clear, next, letter, A-Z, digits
        body.add_widget(self.pad)
        root.add_widget(body)
        message_bar(self, root, self.leave)

    # -- typing ------------------------------------------------------------------------------
    def open(self) -> None:
        """From the auction screen: the numbers entered this round already, for a correction."""
        entered = (self.app.snap.get("players") or {}).get("entered") or {}
        self.typing = Typing({s: (entered.get(s) or {}).get("number") or "" for s in SEATS})
        self.said = None
        self.app.go("players")

    @property
    def numbers(self) -> dict[str, str]:
        return self.typing.numbers

    @property
    def seat(self) -> str:
        return self.typing.seat

    def pick(self, seat: str) -> None:
        self.typing.seat, self.typing.letters = seat, False
        self.app.refresh()

    def press(self, key: str) -> None:
        why = self.typing.press(key)
        if why is not None:
            self.said = lambda lang, why=why: i18n.tr(why, lang)
        elif key not in ("letter", "digits"):
            self.said = None
        self.app.refresh()

    # -- the controller ----------------------------------------------------------------------
    def _ask(self, do: Callable[[], Any]) -> bool:
        try:
            do()
        except ValueError as exc:  # Refused: a number of the wrong form, too late, none typed
            self.said = lambda lang, exc=exc: i18n.error_text(exc, lang)
            seat = (getattr(exc, "params", None) or {}).get("seat")
            if seat in SEATS:  # the number refused is the one the keypad types into next
                self.typing.seat = seat
            self.app.refresh()
            return False
        self.said = None
        self.app.refresh()
        return True

    def show_names(self) -> None:
        self._ask(lambda: self.app.controller.enter_player_numbers(dict(self.numbers)))

    def confirm(self) -> None:
        if self._ask(self.app.controller.confirm_player_numbers):
            self.app.notify("players_saved")
            self.app.go("auction")

    def correct(self) -> None:
        """The names are not theirs: nothing is kept, the numbers stay typed for a correction."""
        self._ask(self.app.controller.cancel_player_numbers)

    def leave(self) -> None:
        if (self.app.snap.get("players") or {}).get("waiting"):
            self.app.controller.cancel_player_numbers()
        self.said = None
        self.app.go("auction")

    # -- drawing -----------------------------------------------------------------------------
    def _name(self, seat: str, waiting: dict[str, Any] | None, lang: str) -> str:
        if waiting is None or seat not in waiting["numbers"]:
            return ""
        name = waiting["names"].get(seat)
        if name:
            return str(name)
        return i18n.tr("players_unknown" if waiting["looked_up"] else "players_no_station", lang)

    def refresh(self, snap: dict[str, Any], lang: str) -> None:
        self.topbar.refresh(snap, lang)
        waiting = (snap.get("players") or {}).get("waiting")
        self.title.text = i18n.tr("players_check" if waiting else "players_title", lang)
        for seat in SEATS:
            self.seat_btns[seat].text = i18n.seat_name(seat, lang)
            shown = waiting["numbers"].get(seat, "") if waiting else self.numbers[seat]
            self.number_labels[seat].text = shown
            set_bg(self.number_boxes[seat], TURN if seat == self.seat and not waiting else BG)
            self.name_labels[seat].text = self._name(seat, waiting, lang)
            self.name_labels[seat].color = INK if waiting and waiting["names"].get(seat) else MUTED
        self.pad.refresh(self.typing, lang, disabled=bool(waiting))
        self.show_btn.text = i18n.tr("players_show", lang)
        self.confirm_btn.text = i18n.tr("players_confirm", lang)
        self.correct_btn.text = i18n.tr("players_correct", lang)
        shown = [self.confirm_btn, self.correct_btn] if waiting else [self.show_btn]
        if list(reversed(self.actions.children)) != shown:  # only the buttons that apply, no gaps
            self.actions.clear_widgets()
            for b in shown:
                self.actions.add_widget(b)
        self.back.text = i18n.tr("back", lang)
        self.error.text = self.said(lang) if self.said else ""
        self.error.height = 90 if self.error.text else 0
