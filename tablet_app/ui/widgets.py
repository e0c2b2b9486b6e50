"""Widgets the screens share: panels, text, buttons, the auction cell, the top bar, the call picker."""
from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.graphics import PopMatrix, PushMatrix, Rotate
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.dropdown import DropDown
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

from tablet_app import i18n, present, station_texts
from tablet_app.ui.theme import (
    ALERT_BG,
    BG,
    BTN,
    BTN_LIGHT,
    INK,
    NAVY,
    RED_SUIT,
    STOP_RED,
    TURN,
    WHITE,
    _bg,
    set_bg,
)


class _BarStaysStill:
    """Kivy's ScrollView shows its bar on every scroll or content change and, half a second later,
    fades it out over half a second by an Animation: about 40 frames of the whole window, drawn
    after every call on the auction screen. Without a GPU each frame is 10-20 ms of CPU, which a
    box's next call then waits behind. The bar takes its resting colour at once instead."""

    def _bind_inactive_bar_color(self, *_a: Any) -> None:  # overrides Kivy 2.3's ScrollView
        view: Any = self  # a ScrollView (Kivy has no type information)
        view.funbind("bar_color", view._change_bar_color)
        view.fbind("bar_inactive_color", view._change_bar_color)
        view._bar_color = view.bar_inactive_color


class StillScrollView(_BarStaysStill, ScrollView):
    pass


class StillDropDown(_BarStaysStill, DropDown):
    """A Spinner's list (a DropDown is a ScrollView): `Spinner(dropdown_cls=StillDropDown)`."""


class Panel(BoxLayout):
    def __init__(self, color: tuple[float, ...] = WHITE, radius: float = 12, **kw: Any):
        super().__init__(**kw)
        _bg(self, color, radius)


class Text(Label):
    def __init__(self, text: str = "", size: float = 22, color: tuple[float, ...] = INK, bold: bool = False,
                 halign: str = "left", **kw: Any):
        super().__init__(text=text, font_size=size, color=color, bold=bold, halign=halign, valign="middle",
                         markup=True, **kw)
        self.bind(size=lambda *_: setattr(self, "text_size", self.size))


class BigButton(Button):
    def __init__(self, text: str = "", color: tuple[float, ...] = BTN, size: float = 24, **kw: Any):
        super().__init__(text=text, font_size=size, bold=True, background_normal="", background_down="",
                         background_color=color, color=WHITE if color not in (BTN_LIGHT, WHITE) else INK,
                         markup=True, **kw)
        self.base_color = color
        self.bind(state=self._pressed)

    def _pressed(self, _w: Any, state: str) -> None:
        c = self.base_color
        self.background_color = tuple(x * 0.8 for x in c[:3]) + (1,) if state == "down" else c


def call_markup(call: str | None, lang: str) -> str:
    text = present.call_text(call, lang)
    if present.is_red(call):
        return f"[color=cc141f]{text}[/color]"
    return text


class CallCell(BoxLayout):
    """One call in the auction grid: big, with its alert and stop marks."""

    def __init__(self, **kw: Any):
        super().__init__(orientation="vertical", padding=(6, 4), **kw)
        _bg(self, WHITE, 10)
        self.label = Text("", size=40, bold=True, halign="center")
        self.mark = Text("", size=16, bold=True, halign="center", size_hint_y=0.32)
        self.add_widget(self.label)
        self.add_widget(self.mark)

    def show(self, cell: dict[str, Any] | None, lang: str) -> None:
        if cell is None:
            self.opacity = 0.0
            return
        self.opacity = 1.0
        if cell.get("turn"):
            set_bg(self, TURN)
            self.label.text = "?"
            self.mark.text = ""
            return
        marks = []
        if cell.get("alerted"):
            marks.append(i18n.tr("alert", lang).upper())
        if cell.get("stop"):
            marks.append(f"[color=d92626]{i18n.tr('stop', lang)}[/color]")
        set_bg(self, ALERT_BG if cell.get("alerted") else WHITE)
        self.label.text = call_markup(cell.get("call"), lang) if cell.get("call") else "\u2014"
        self.mark.text = "  ".join(marks)


class TopBar(BoxLayout):
    """The navy bar on every screen: the title (board, dealer, vulnerability, table, round) and
    the language button on one line; under them, while one is shown, the notice for the table (a
    result confirmed and sent, member numbers saved, the journal recovered, the round moved on)
    on a line of its own that grows with its text. Sharing the title's line, a notice cut the
    title to the board and half the dealer; now neither is cut, in any language, upright or flat
    (tests/ui/test_topbar_fit.py measures the widest title beside the widest notice)."""

    ROW = 52  # the title's line
    PAD = 10
    GAP = 4  # between the title's line and the notice

    def __init__(self, app: Any, **kw: Any):
        super().__init__(orientation="vertical", size_hint_y=None, height=self.ROW + 2 * self.PAD,
                         padding=(18, self.PAD), spacing=0, **kw)
        _bg(self, NAVY)
        self.app = app
        row = BoxLayout(spacing=12, size_hint_y=None, height=self.ROW)
        self.title = Text("", size=26, color=WHITE, bold=True)
        self.lang = BigButton("EN", color=(0.25, 0.38, 0.56, 1), size=20, size_hint_x=None, width=90)
        self.lang.bind(on_release=lambda *_: app.next_language())
        row.add_widget(self.title)
        row.add_widget(self.lang)
        # a short notice for the table, green, for a few seconds (TabletApp.notify)
        self.note = Grow("", size=20, color=(0.65, 0.95, 0.70, 1), bold=True, height=0)
        self.note.bind(height=lambda *_: self._fit())
        self.add_widget(row)
        self.add_widget(self.note)

    def _fit(self) -> None:
        """The bar as tall as its lines: the title's, and the notice's while there is one."""
        shown = bool(self.note.text)
        self.note.opacity = 1 if shown else 0
        if not shown:
            self.note.height = 0  # an empty label keeps the size of its last text: none of it here
        # the gap under the title only with a notice: the bar without one is the one-line bar it was
        self.spacing = self.GAP if shown else 0
        self.height = self.ROW + 2 * self.PAD + (self.note.height + self.GAP if shown else 0)

    def refresh(self, snap: dict[str, Any], lang: str) -> None:
        self.title.text = present.header(snap, lang)
        self.note.text = self.app.current_note()
        self._fit()
        self.lang.text = lang.upper()
        banner = getattr(self, "banner", None)
        if banner is not None:
            # the tablet's storage refused a write: in red on every screen, until it recovers
            text = ""
            if snap.get("storage_error"):
                text = i18n.tr("storage_error_banner", lang, error=snap["storage_error"])
            if snap.get("disk_full"):
                text = i18n.tr("storage_full_banner", lang)
            height = 56
            if not text:
                # a delivery the station refused for good: the players hear of it, with what to do
                text = escape_markup(station_texts.refused_banner(snap.get("delivery") or {}, lang))
                height = 96
            banner.label.text = text
            banner.height = height if text else 0
            banner.opacity = 1 if text else 0


class Facing(Widget):
    """Text turned to face one edge of a tablet lying flat between four players: `angle` 0 reads
    from the bottom edge (South), 180 from the top (North), 90 from the right (East), 270 from the
    left (West). Its slot is a strip along that edge; the text runs along the strip."""

    def __init__(self, angle: int, **kw: Any):
        super().__init__(**kw)
        self.angle = angle
        self.label = Label(markup=True, halign="center", valign="middle", font_size=24, bold=True, color=INK,
                           size_hint=(None, None))
        with self.label.canvas.before:
            PushMatrix()
            self._rot = Rotate(angle=angle)
        with self.label.canvas.after:
            PopMatrix()
        self.add_widget(self.label)
        _bg(self, (1.0, 0.97, 0.88, 1))
        # laid out before the next frame, once the parent layout has settled position and size
        self._relayout = Clock.create_trigger(self._layout, -1)
        self.bind(pos=self._relayout, size=self._relayout)

    def _layout(self, *_: Any) -> None:
        w, h = self.size
        if self.angle % 180:
            w, h = h, w
        self.label.size = (w, h)
        self.label.text_size = (max(1, w - 16), max(1, h - 6))
        self.label.center = self.center
        self._rot.origin = self.center


class Grow(Label):
    """Text as tall as its lines (in a scrolling column): never clipped."""

    def __init__(self, text: str = "", size: float = 22, color: tuple[float, ...] = INK, **kw: Any):
        super().__init__(text=text, font_size=size, color=color, halign="left", valign="top", markup=True,
                         size_hint_y=None, **kw)
        self.bind(width=lambda *_: setattr(self, "text_size", (self.width, None)),
                  texture_size=lambda *_: setattr(self, "height", self.texture_size[1]))


class CallPicker(GridLayout):
    """The calls the TD's option allows (`calls`; default all 38), for a replacement or corrected
    call; `chosen` is highlighted until confirmed."""

    def __init__(self, on_pick: Any, calls: list[str] | None = None, chosen: str | None = None, **kw: Any):
        super().__init__(cols=8, spacing=4, **kw)
        if calls is None:
            calls = ["P", "X", "XX"] + [f"{lvl}{s}" for lvl in range(1, 8) for s in ("C", "D", "H", "S", "NT")]
        for c in calls:
            b = BigButton(present.call_text(c), BTN if c == chosen else BTN_LIGHT, size=18)
            if present.is_red(c) and c != chosen:
                b.color = RED_SUIT
            b.call = c
            b.bind(on_release=lambda btn: on_pick(btn.call))
            self.add_widget(b)




def framed(screen: Any, app: Any) -> BoxLayout:
    """A screen's frame: background, the top bar (as `screen.topbar`) and the body returned."""
    root = BoxLayout(orientation="vertical")
    _bg(root, BG)
    screen.topbar = TopBar(app)
    root.add_widget(screen.topbar)
    banner = Panel(STOP_RED, 0, size_hint_y=None, height=0, padding=(18, 4))
    banner.label = Text("", size=22, color=WHITE, bold=True)
    banner.add_widget(banner.label)
    banner.opacity = 0
    screen.topbar.banner = banner
    root.add_widget(banner)
    screen.add_widget(root)
    return root


def message_bar(screen: Any, root: BoxLayout, on_back: Any) -> None:
    """The bottom bar of the director's screens: a message (`screen.message`) and Back (`screen.back`)."""
    bar = BoxLayout(size_hint_y=None, height=84, padding=(24, 8), spacing=16)
    screen.message = Text("", size=22, bold=True, color=STOP_RED)
    screen.back = BigButton("", BTN_LIGHT, size_hint_x=None, width=220)
    screen.back.bind(on_release=lambda *_: on_back())
    bar.add_widget(screen.message)
    bar.add_widget(screen.back)
    root.add_widget(bar)
