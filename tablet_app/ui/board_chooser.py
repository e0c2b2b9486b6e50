"""The board chooser on the auction screen: before the first call of a board the players say which
board is on the table (any of the round's boards, in any order; docs/tablet.md "Board on the
table"), by its button or by typing the number on the board in the tray.

A round may have from 1 to 36 boards (a Howell, a club's one-round evening), so the boards' buttons
wrap in a grid with as many buttons in a row as the width allows and as many rows as the screen
leaves room for, the auction's first row still in view below; boards beyond that go to pages, each
with a button of its boards ("1-18", "19-36") beside the question. The number field and *Other
number* sit beside the question too, as wide as their text needs, never squeezed by the boards.
A refusal shows under the boards, as many lines as it takes.
"""
from __future__ import annotations

import math
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.textinput import TextInput

from tablet_app import i18n
from tablet_app.ui.theme import BTN, BTN_LIGHT, INK, STOP_RED, WHITE
from tablet_app.ui.widgets import BigButton, Panel, Text

HEAD_H = 56  # the question, the pages, the number field and Other number
ROW_H = 54  # a board's button: its number, and under it "played" when it was
GAP = 6
MIN_W = 80  # a board's button is never narrower: "36" over "spillet" with room to touch
MAX_W = 150  # nor wider: a round of 2 boards gives two buttons, not two halves of the screen
PAD_Y = 6
SPACING = 4
AUCTION_ROW = 100  # what the chooser leaves the auction below it: its first row (88) and a gap


def pages(count: int, width: float, max_rows: int) -> tuple[int, int, int]:
    """(pages, columns, rows) for `count` boards' buttons across `width` pixels in at most
    `max_rows` rows a page: as few pages and rows as buttons at least MIN_W wide allow, the boards
    shared evenly between them (16 where a row holds 13 make two rows of 8, not 13 and 3; 36 where a
    page holds 24 make two pages of 18)."""
    if count <= 0:
        return 0, 0, 0
    fit = max(1, int((width + GAP) // (MIN_W + GAP)))
    n_pages = math.ceil(count / (fit * max(1, max_rows)))
    per_page = math.ceil(count / n_pages)
    rows = math.ceil(per_page / fit)
    cols = math.ceil(per_page / rows)
    return n_pages, cols, rows


class BoardChooser(Panel):
    """The chooser; `refresh` shows it before a board's first call and hides it (height 0) after.
    `buttons` maps each board number, and "other", to its button (a board's button is in `grid`
    while its page is shown); `page_buttons` are the pages' buttons, none when one page holds all."""

    def __init__(self, app: Any, **kw: Any):
        super().__init__(WHITE, 12, orientation="vertical", size_hint_y=None, height=0, padding=(14, PAD_Y),
                         spacing=SPACING, **kw)
        self.app = app
        self.head = BoxLayout(spacing=10, size_hint_y=None, height=HEAD_H, padding=(0, 4))
        self.title = Text("", size=22, bold=True)
        self.pager = BoxLayout(spacing=6, size_hint_x=None, width=0)
        self.other_input = TextInput(multiline=False, font_size=24, input_filter="int", size_hint_x=None, width=110,
                                     padding=(10, 10), write_tab=False)
        # as wide as its text in the language shown: it never gives way to the boards' buttons
        self.other = BigButton("", BTN_LIGHT, size=20, size_hint_x=None, padding=(16, 0))
        self.other.bind(texture_size=lambda b, ts: setattr(b, "width", ts[0] + 8))
        self.other.bind(on_release=lambda *_: self.choose(self.other_input.text))
        for w in (self.title, self.pager, self.other_input, self.other):
            self.head.add_widget(w)
        self.grid = GridLayout(spacing=GAP, size_hint=(None, None), row_force_default=True, row_default_height=ROW_H,
                               col_force_default=True)
        # a refusal takes the lines it needs (a board of another round names all the round's boards):
        # wrapped at the chooser's width, as tall as its text
        self.msg = Label(text="", font_size=18, bold=True, color=STOP_RED, halign="left", valign="top", markup=True,
                         size_hint_y=None, height=0)
        self.msg.bind(width=lambda m, w: setattr(m, "text_size", (max(1, w), None)),
                      texture_size=lambda m, ts: setattr(m, "height", ts[1] if m.text else 0))
        for w in (self.head, self.grid, self.msg):
            self.add_widget(w)
        self.buttons: dict[Any, Any] = {}
        self.page_buttons: list[Any] = []
        self.boards: list[int] = []
        self.page = 0
        self.n_pages = 0
        self.current: Any = None  # the board on the table
        self.key: tuple[Any, ...] | None = None  # what the board buttons show
        self.said: Any = None  # the last refusal, as a function of the language
        self.bind(width=lambda *_: self._shape(), parent=self._watch_parent)
        self.msg.bind(height=lambda *_: self._shape())

    def _watch_parent(self, _w: Any, parent: Any) -> None:
        if parent is not None:
            parent.bind(height=lambda *_: self._shape())

    def choose(self, n: Any) -> None:
        """A board picked on the tablet (or typed: the number on the board in the tray)."""
        try:
            self.app.controller.choose_board(n)
        except ValueError as exc:  # Refused: not this round's board, played already, too late
            self.said = lambda lang, exc=exc: i18n.error_text(exc, lang)
        else:
            self.said = None
            self.other_input.text = ""
        self.app.refresh()

    def refresh(self, snap: dict[str, Any], lang: str) -> None:
        st = snap.get("state") or {}
        choice = snap.get("board_choice") or {}
        shown = snap.get("phase") == "auction" and not st.get("calls") and bool(choice.get("boards"))
        self.opacity = 1 if shown else 0
        self.disabled = not shown
        if not shown:
            if self.key is not None:
                self.grid.clear_widgets()
                self.buttons, self.boards, self.key = {}, [], None
            self.height = 0
            self.said = None
            self.title.text = self.msg.text = self.other.text = ""
            return
        self.title.text = i18n.tr("board_on_table", lang)
        self.other.text = i18n.tr("board_other", lang)
        # The buttons are rebuilt only when what they say changes: this screen is refreshed after
        # every box event, and 30-odd new buttons cost the drawing thread about 15 ms (and leave
        # their widgets to the cycle collector) each time.
        key = (tuple(choice["boards"]), tuple(choice.get("played", [])), choice.get("current"), lang)
        if key != self.key:
            self._build(choice, lang)
            self.key = key
        self.msg.text = self.said(lang) if self.said is not None else ""
        self._shape()

    def _build(self, choice: dict[str, Any], lang: str) -> None:
        self.buttons = {"other": self.other}
        self.boards = list(choice["boards"])
        mark = i18n.tr("board_played_mark", lang)
        for n in self.boards:
            played = n in choice.get("played", [])
            label = f"{n}" + (f"\n[size=14]{mark}[/size]" if played else "")
            b = BigButton(label, BTN if n == choice.get("current") else BTN_LIGHT, size=24, halign="center",
                          line_height=0.9)
            b.bind(on_release=lambda _b, n=n: self.choose(n))
            self.buttons[n] = b
        self.page = -1  # the page of the board on the table, once the shape is known
        self.current = choice.get("current")

    def _max_rows(self) -> int:
        """The rows of buttons the screen has room for: the chooser's parent less its other fixed
        parts and the auction's first row."""
        parent = self.parent
        if parent is None or not parent.height:
            return 3
        fixed = sum(w.height for w in parent.children if w is not self and w.size_hint_y is None)
        gaps = parent.spacing * (len(parent.children) - 1) + parent.padding[1] + parent.padding[3]
        own = PAD_Y * 2 + HEAD_H + SPACING * 2 + self.msg.height
        room = parent.height - fixed - gaps - own - AUCTION_ROW
        return max(1, int((room + GAP) // (ROW_H + GAP)))

    def _shape(self) -> None:
        """The pages, the grid's columns and the page shown for the boards and the room there is."""
        if not self.boards:
            return
        inner = self.width - self.padding[0] - self.padding[2]
        n_pages, cols, rows = pages(len(self.boards), inner, self._max_rows())
        per_page = math.ceil(len(self.boards) / n_pages)
        if self.page < 0 or n_pages != self.n_pages:
            at = self.boards.index(self.current) if self.current in self.boards else 0
            self.page = at // per_page
        self.n_pages = n_pages
        self._pager(n_pages, per_page)
        shown = self.boards[self.page * per_page:(self.page + 1) * per_page]
        if [c for c in reversed(self.grid.children)] != [self.buttons[n] for n in shown]:
            self.grid.clear_widgets()
            for n in shown:
                self.grid.add_widget(self.buttons[n])
        w = min(MAX_W, (inner - GAP * (cols - 1)) / cols)
        rows = math.ceil(len(shown) / cols)
        self.grid.cols = cols
        self.grid.col_default_width = w
        self.grid.size = (cols * w + GAP * (cols - 1), rows * ROW_H + GAP * (rows - 1))
        for b in self.grid.children:
            b.text_size = (w - 8, None)
        self.height = PAD_Y * 2 + HEAD_H + self.grid.height + SPACING * 2 + self.msg.height

    def _pager(self, n_pages: int, per_page: int) -> None:
        """A button for each page, named by its first and last board; none for a single page."""
        spans = [self.boards[i * per_page:(i + 1) * per_page] for i in range(n_pages)] if n_pages > 1 else []
        labels = [f"{s[0]}-{s[-1]}" if len(s) > 1 else f"{s[0]}" for s in spans]
        if [b.text for b in self.page_buttons] != labels:
            self.pager.clear_widgets()
            self.page_buttons = []
            for i, label in enumerate(labels):
                b = BigButton(label, BTN_LIGHT, size=20, size_hint_x=None, width=96)
                b.bind(on_release=lambda _b, i=i: self.show_page(i))
                self.page_buttons.append(b)
                self.pager.add_widget(b)
        for i, b in enumerate(self.page_buttons):
            b.base_color = b.background_color = BTN if i == self.page else BTN_LIGHT
            b.color = WHITE if i == self.page else INK
        self.pager.width = len(self.page_buttons) * (96 + 6)

    def show_page(self, i: int) -> None:
        """The boards of page `i`."""
        self.page = i
        self._shape()
