"""The member-number keypad: digits, and the one capital letter a member number may start with
(the station's form, `shared_rules.records.check_number`: A-Z then 1 to 16 digits). Used by the
players' own screen (tablet_app/ui/players.py) and the director's console (ui/td_players.py).

`Typing` is what has been typed, seat by seat, with no Kivy in it; `MemberKeypad` the keys. The
letter key turns the pad to the alphabet; a letter is typed only as the number's first character
and the pad turns back to the digits."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from shared_rules.records.players import MAX_NUMBER_CHARS
from shared_rules.types import SEATS
from tablet_app import i18n
from tablet_app.ui.theme import BTN_LIGHT
from tablet_app.ui.widgets import BigButton

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
DIGIT_KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "clear", "0", "next")


class Typing:
    """The numbers typed for the seats, the seat the keypad types into, and whether the pad
    shows the letters."""

    def __init__(self, numbers: dict[str, str] | None = None):
        self.numbers = {s: str((numbers or {}).get(s) or "") for s in SEATS}
        self.seat = SEATS[0]
        self.letters = False

    def press(self, key: str) -> str | None:
        """Apply one key; the text key of why it was not taken (None: taken)."""
        number = self.numbers[self.seat]
        if key == "clear":
            self.numbers[self.seat] = ""
        elif key == "next":
            self.seat = SEATS[(SEATS.index(self.seat) + 1) % len(SEATS)]
            self.letters = False
        elif key in ("letter", "digits"):
            self.letters = key == "letter"
        elif key in LETTERS:
            if number:
                self.letters = False
                return "players_letter_first"
            self.numbers[self.seat] = key
            self.letters = False
        elif key.isdigit() and len(number) < MAX_NUMBER_CHARS:
            self.numbers[self.seat] = number + key
        return None


class MemberKeypad(BoxLayout):
    """The keys: 1-9, Clear, 0, Next and, under them, the letter key; or the alphabet and, under
    it, the digits key.
    `keys` names every button by its key, for the screens and the UI tests."""

    def __init__(self, on_key: Callable[[str], None], **kw: Any):
        super().__init__(orientation="vertical", spacing=10, **kw)
        self.on_key = on_key
        self.keys: dict[str, BigButton] = {}
        self.digit_grid = GridLayout(cols=3, spacing=10)
        for key in DIGIT_KEYS:
            self.digit_grid.add_widget(self._key(key, 32 if key.isdigit() else 22))
        self.letter_btn = self._key("letter", 22)
        self.letter_btn.size_hint_y = 0.2
        self.letter_grid = GridLayout(cols=6, spacing=6)
        for key in LETTERS:
            self.letter_grid.add_widget(self._key(key, 24))
        self.digits_btn = self._key("digits", 22)
        self.digits_btn.size_hint_y = 0.2
        self.showing: bool | None = None

    def _key(self, key: str, size: int) -> BigButton:
        b = BigButton(key, BTN_LIGHT, size=size)
        b.bind(on_release=lambda _b, key=key: self.on_key(key))
        self.keys[key] = b
        return b

    def refresh(self, typing: Typing, lang: str, disabled: bool = False) -> None:
        if self.showing is not typing.letters:
            self.clear_widgets()
            if typing.letters:
                self.add_widget(self.letter_grid)
                self.add_widget(self.digits_btn)
            else:
                self.add_widget(self.digit_grid)
                self.add_widget(self.letter_btn)
            self.showing = typing.letters
        self.keys["clear"].text = i18n.tr("clear", lang)
        self.keys["next"].text = i18n.tr("players_next_seat", lang)
        self.keys["letter"].text = i18n.tr("players_letter", lang)
        self.keys["digits"].text = i18n.tr("players_digits", lang)
        for b in self.keys.values():
            b.disabled = disabled
        # a letter comes first only: the letter key is offered while the seat's number is empty
        self.letter_btn.disabled = disabled or bool(typing.numbers[typing.seat])
