"""The director console's player numbers: after the round's first call the players' own entry
is closed (tablet_app/control/player_numbers.py, "players.too_late"), and the director, signed
in with the PIN, enters or corrects a seat's member number here. The same keypad as the players'
(ui/member_keypad.py), the station's names shown back, then Confirm: journalled as entered by
the director and queued as the round's next `players` item (docs/tablet.md "Player numbers")."""
from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from shared_rules.types import SEATS
from tablet_app import i18n
from tablet_app.ui.member_keypad import MemberKeypad, Typing
from tablet_app.ui.theme import BTN, BTN_LIGHT, BTN_OK, BTN_WARN, INK, MUTED, TURN, WHITE
from tablet_app.ui.widgets import BigButton, Panel, Text


class TdPlayersPanel:
    """Draws into the console's side panel; what is typed lives in the console's draft."""

    def __init__(self, screen: Any):
        self.screen = screen
        self.keypad: MemberKeypad | None = None

    def start(self) -> None:
        entered = (self.screen.app.snap.get("players") or {}).get("entered") or {}
        self.screen._enter("players", typing=Typing({s: (entered.get(s) or {}).get("number") or "" for s in SEATS}))

    @property
    def typing(self) -> Typing:
        return self.screen.draft["typing"]

    def draw(self, snap: dict[str, Any], lang: str) -> None:
        side, names = self.screen.side, self.screen.tool_buttons
        waiting = (snap.get("players") or {}).get("waiting")
        side.add_widget(Text(i18n.tr("players_check" if waiting else "players_by_td", lang), size=18, bold=True,
                             size_hint_y=None, height=48))
        body = BoxLayout(spacing=10, size_hint_y=None, height=4 * 62 + 3 * 8 + 70)
        rows = BoxLayout(orientation="vertical", spacing=8)
        for seat in SEATS:
            row = BoxLayout(spacing=8, size_hint_y=None, height=62)
            b = BigButton(i18n.seat_name(seat, lang), BTN if seat == self.typing.seat and not waiting else BTN_LIGHT,
                          size=18, size_hint_x=None, width=96)
            b.bind(on_release=lambda _b, seat=seat: self._pick(seat))
            names[f"pseat{seat}"] = b
            box = Panel(TURN if seat == self.typing.seat and not waiting else WHITE, 8, padding=(6, 2))
            shown = (waiting["numbers"].get(seat, "") if waiting else self.typing.numbers[seat])
            name = self._name(seat, waiting, lang)
            box.add_widget(Text(f"{shown}" + (f"  [color=66727f]{name}[/color]" if name else ""), size=18,
                                bold=True, color=INK if shown else MUTED))
            row.add_widget(b)
            row.add_widget(box)
            rows.add_widget(row)
        rows.add_widget(Widget())
        body.add_widget(rows)
        self.keypad = MemberKeypad(self._press, size_hint_x=None, width=300)
        self.keypad.refresh(self.typing, lang, disabled=bool(waiting))
        body.add_widget(self.keypad)
        side.add_widget(body)
        row = BoxLayout(spacing=8, size_hint_y=None, height=64)
        back = BigButton(i18n.tr("back", lang), BTN_LIGHT, size=18)
        back.bind(on_release=lambda *_: self._back())
        names["pback"] = back
        row.add_widget(back)
        buttons = (("pconfirm", "players_confirm", BTN_OK, self._confirm), ("pcorrect", "players_correct", BTN_WARN,
                                                                             self._correct)) \
            if waiting else (("pshow", "players_show", BTN, self._show),)
        for name, key, color, act in buttons:
            b = BigButton(i18n.tr(key, lang), color, size=18)
            b.bind(on_release=lambda _b, act=act: act())
            names[name] = b
            row.add_widget(b)
        side.add_widget(row)
        side.add_widget(Widget())

    @staticmethod
    def _name(seat: str, waiting: dict[str, Any] | None, lang: str) -> str:
        if waiting is None or seat not in waiting["numbers"]:
            return ""
        name = waiting["names"].get(seat)
        return str(name) if name else i18n.tr("players_unknown" if waiting["looked_up"] else "players_no_station", lang)

    # -- what the director does ------------------------------------------------------------------------
    def _pick(self, seat: str) -> None:
        self.typing.seat, self.typing.letters = seat, False
        self.screen.app.refresh()

    def _press(self, key: str) -> None:
        why = self.typing.press(key)
        self.screen.say((lambda lang: i18n.tr(why, lang)) if why else None)
        self.screen.app.refresh()

    def _show(self) -> None:
        numbers = dict(self.typing.numbers)
        self.screen._td(lambda pin: self.screen.app.controller.enter_player_numbers(numbers, pin) and None)

    def _confirm(self) -> None:
        def saved(lang: str) -> str:
            return f"[color=2a8c4d]{i18n.tr('players_saved', lang)}[/color]"

        if self.screen._td(lambda _pin: self.screen.app.controller.confirm_player_numbers() and saved, refresh=False):
            self.screen._enter(None, refresh=False)
        self.screen.app.refresh()

    def _correct(self) -> None:
        self.screen._td(lambda _pin: self.screen.app.controller.cancel_player_numbers())

    def _back(self) -> None:
        if (self.screen.app.snap.get("players") or {}).get("waiting"):
            self.screen.app.controller.cancel_player_numbers()
        self.screen._enter(None)
