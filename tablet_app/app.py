"""The table tablet's Kivy app. Widgets only render controller state and forward touches.

    python -m tablet_app.app --db table.db [--lang sv] [--setup session.json] [--ports N=/dev/..,E=...]
    python -m tablet_app.app --db table.db --station http://scoring-pc:8080 --table 3 --table-key KEY

Screens: auction (readable across the table), director console (PIN-protected), tempo, result
entry, round end. Every screen redraws from `controller.snapshot()` and `tablet_app.present`;
every button calls one controller method.
"""
from __future__ import annotations

import os
import pathlib
import sys
from typing import Any

from shared_rules import laws
from tablet_app import i18n, present
from tablet_app.controller import Controller, PinError

FONT_DIR = pathlib.Path("/usr/share/fonts/truetype/dejavu")

# Colours (RGBA 0..1): a calm light theme that reads well under club lighting.
BG = (0.95, 0.96, 0.97, 1)
NAVY = (0.11, 0.22, 0.37, 1)
WHITE = (1, 1, 1, 1)
INK = (0.10, 0.12, 0.16, 1)
MUTED = (0.40, 0.45, 0.52, 1)
RED_SUIT = (0.80, 0.08, 0.12, 1)
VUL_RED = (0.78, 0.16, 0.18, 1)
NONVUL = (0.20, 0.55, 0.33, 1)
TURN = (1.0, 0.80, 0.25, 1)
ALERT_BG = (0.56, 0.80, 1.0, 1)
STOP_RED = (0.85, 0.15, 0.15, 1)
BTN = (0.16, 0.36, 0.62, 1)
BTN_WARN = (0.80, 0.30, 0.10, 1)
BTN_OK = (0.16, 0.55, 0.30, 1)
BTN_LIGHT = (0.86, 0.89, 0.93, 1)


def _setup_kivy(width: int = 1280, height: int = 800) -> None:
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    from kivy.config import Config

    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("graphics", "resizable", "1")
    Config.set("input", "mouse", "mouse,multitouch_on_demand")
    Config.set("kivy", "exit_on_escape", "0")


_setup_kivy()

from kivy.app import App  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.core.text import LabelBase  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.graphics import Color, Rectangle, RoundedRectangle  # noqa: E402
from kivy.uix.boxlayout import BoxLayout  # noqa: E402
from kivy.uix.button import Button  # noqa: E402
from kivy.uix.gridlayout import GridLayout  # noqa: E402
from kivy.uix.label import Label  # noqa: E402
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager  # noqa: E402
from kivy.uix.scrollview import ScrollView  # noqa: E402
from kivy.uix.spinner import Spinner  # noqa: E402
from kivy.uix.textinput import TextInput  # noqa: E402
from kivy.uix.widget import Widget  # noqa: E402

if (FONT_DIR / "DejaVuSans.ttf").exists():
    # The default font has no suit symbols; DejaVu Sans has all four.
    LabelBase.register(
        name="Roboto",
        fn_regular=str(FONT_DIR / "DejaVuSans.ttf"),
        fn_bold=str(FONT_DIR / "DejaVuSans-Bold.ttf"),
    )


def _bg(widget: Widget, color: tuple[float, ...], radius: float = 0) -> None:
    with widget.canvas.before:
        c = Color(*color)
        r = RoundedRectangle(pos=widget.pos, size=widget.size, radius=[radius]) if radius else Rectangle(
            pos=widget.pos, size=widget.size)
    widget._bg_color = c  # type: ignore[attr-defined]

    def sync(*_: Any) -> None:
        r.pos, r.size = widget.pos, widget.size

    widget.bind(pos=sync, size=sync)


def set_bg(widget: Widget, color: tuple[float, ...]) -> None:
    widget._bg_color.rgba = color  # type: ignore[attr-defined]


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
    def __init__(self, app: TabletApp, **kw: Any):
        super().__init__(size_hint_y=None, height=72, padding=(18, 10), spacing=12, **kw)
        _bg(self, NAVY)
        self.app = app
        self.title = Text("", size=26, color=WHITE, bold=True)
        self.lang = BigButton("EN", color=(0.25, 0.38, 0.56, 1), size=20, size_hint_x=None, width=90)
        self.lang.bind(on_release=lambda *_: app.next_language())
        self.add_widget(self.title)
        self.add_widget(self.lang)

    def refresh(self, snap: dict[str, Any], lang: str) -> None:
        self.title.text = present.header(snap, lang)
        self.lang.text = lang.upper()


class AuctionScreen(Screen):
    ROWS = 0  # no padding rows: the grid grows downwards from the top as the auction does

    def __init__(self, app: TabletApp, **kw: Any):
        super().__init__(name="auction", **kw)
        self.app = app
        root = BoxLayout(orientation="vertical")
        _bg(root, BG)
        self.topbar = TopBar(app)
        root.add_widget(self.topbar)
        body = BoxLayout(orientation="vertical", padding=(24, 14), spacing=10)
        self.heads: dict[str, Label] = {}
        head_row = GridLayout(cols=4, spacing=12, size_hint_y=None, height=74)
        for seat in present.COLUMNS:
            p = Panel(NONVUL, 12, orientation="vertical", padding=(4, 2))
            lbl = Text("", size=28, color=WHITE, bold=True, halign="center")
            p.add_widget(lbl)
            self.heads[seat] = lbl
            lbl.panel = p  # type: ignore[attr-defined]
            head_row.add_widget(p)
        body.add_widget(head_row)
        self.scroll = ScrollView(do_scroll_x=False, bar_width=0)
        self.grid = GridLayout(cols=4, spacing=12, size_hint_y=None, row_default_height=88, row_force_default=True)
        self.grid.bind(minimum_height=self.grid.setter("height"))
        self.scroll.add_widget(self.grid)
        body.add_widget(self.scroll)
        self.status = Panel(WHITE, 12, size_hint_y=None, height=70, padding=(18, 6))
        self.status_label = Text("", size=30, bold=True, halign="center")
        self.status.add_widget(self.status_label)
        body.add_widget(self.status)
        root.add_widget(body)
        bar = BoxLayout(size_hint_y=None, height=96, padding=(24, 10), spacing=16)
        self.td_btn = BigButton("", BTN_WARN)
        self.td_btn.bind(on_release=lambda *_: app.go("director"))
        self.tempo_btn = BigButton("", BTN)
        self.tempo_btn.bind(on_release=lambda *_: app.go("tempo"))
        self.result_btn = BigButton("", BTN_OK)
        self.result_btn.bind(on_release=lambda *_: app.go("result"))
        for b in (self.td_btn, self.tempo_btn, self.result_btn):
            bar.add_widget(b)
        root.add_widget(bar)
        self.add_widget(root)
        self.cells: list[CallCell] = []

    def refresh(self, snap: dict[str, Any], lang: str) -> None:
        self.topbar.refresh(snap, lang)
        st = snap.get("state") or {}
        vul = st.get("vulnerability") or "None"
        for seat, lbl in self.heads.items():
            text = i18n.seat_name(seat, lang)
            if seat == st.get("dealer"):
                text += f"  [size=18]({i18n.tr('dealer', lang)})[/size]"
            lbl.text = text
            red = vul == "All" or (vul != "None" and seat in vul)
            set_bg(lbl.panel, VUL_RED if red else NONVUL)
        rows = present.auction_grid(st.get("calls", []), st.get("dealer", "N"),
                                    st.get("next") if snap.get("phase") == "auction" else None)
        while len(rows) < self.ROWS:
            rows.append([None] * 4)
        flat = [c for r in rows for c in r]
        while len(self.cells) < len(flat):
            cell = CallCell()
            self.cells.append(cell)
            self.grid.add_widget(cell)
        while len(self.cells) > len(flat):
            self.grid.remove_widget(self.cells.pop())
        for cell, data in zip(self.cells, flat, strict=True):
            cell.show(data, lang)
        # Newest row in view: pin the grid to the top while it fits, else scroll to the bottom.
        needed = len(rows) * (self.grid.row_default_height + 12)
        self.scroll.scroll_y = 1 if needed <= self.scroll.height else 0
        self.status_label.text = present.status_line(snap, lang)
        frozen = snap.get("phase") == "frozen"
        set_bg(self.status, (1.0, 0.88, 0.80, 1) if frozen else WHITE)
        self.td_btn.text = i18n.tr("director", lang)
        self.tempo_btn.text = i18n.tr("tempo", lang)
        self.result_btn.text = i18n.tr("result", lang)
        self.result_btn.disabled = snap.get("phase") not in ("play", "confirm")
        self.result_btn.opacity = 0.4 if self.result_btn.disabled else 1


class CallPicker(GridLayout):
    """Every call, for a replacement call the TD's option asks for."""

    def __init__(self, on_pick: Any, **kw: Any):
        super().__init__(cols=8, spacing=4, **kw)
        calls = ["P", "X", "XX"] + [f"{lvl}{s}" for lvl in range(1, 8) for s in ("C", "D", "H", "S", "NT")]
        for c in calls:
            b = BigButton(present.call_text(c), BTN_LIGHT, size=18)
            if present.is_red(c):
                b.color = RED_SUIT
            b.call = c  # type: ignore[attr-defined]
            b.bind(on_release=lambda btn: on_pick(btn.call))
            self.add_widget(b)


class DirectorScreen(Screen):
    def __init__(self, app: TabletApp, **kw: Any):
        super().__init__(name="director", **kw)
        self.app = app
        self.pin = ""
        self.unlocked = False
        self.chosen: dict[str, Any] | None = None
        self.correcting: dict[str, Any] | None = None
        self.adjusting: dict[str, Any] | None = None
        self.fixing: dict[str, Any] | None = None
        self.exposing: dict[str, Any] | None = None  # Law 24: {"seat", "cards", "led"}
        self.wrong_calling = False  # 2007 L17D / 2017 L15A: picking the seat
        self.wrong_boarding = False  # 2007 L15C / 2017 L15B
        self.tool_buttons: dict[str, Button] = {}
        root = BoxLayout(orientation="vertical")
        _bg(root, BG)
        self.topbar = TopBar(app)
        root.add_widget(self.topbar)
        body = BoxLayout(padding=(24, 16), spacing=20)
        left = Panel(WHITE, 14, orientation="vertical", padding=(20, 14), spacing=8, size_hint_x=0.48)
        self.title = Text("", size=30, bold=True, size_hint_y=None, height=46)
        self.happened_head = Text("", size=20, color=MUTED, bold=True, size_hint_y=None, height=30)
        self.happened = Text("", size=22)
        self.happened.valign = "top"
        self.conseq_head = Text("", size=20, color=MUTED, bold=True, size_hint_y=None, height=30)
        self.conseq = Text("", size=22)
        self.conseq.valign = "top"
        # Where the results stand: the TD is the one who tells the scorer about a refused item.
        self.delivery_head = Text("", size=20, color=MUTED, bold=True, size_hint_y=None, height=30)
        self.delivery = Text("", size=18, size_hint_y=0.45)
        self.delivery.valign = "top"
        for w in (self.title, self.happened_head, self.happened, self.conseq_head, self.conseq,
                  self.delivery_head, self.delivery):
            left.add_widget(w)
        body.add_widget(left)
        self.side = Panel(WHITE, 14, orientation="vertical", padding=(20, 14), spacing=10)
        body.add_widget(self.side)
        root.add_widget(body)
        bar = BoxLayout(size_hint_y=None, height=84, padding=(24, 8), spacing=16)
        self.message = Text("", size=22, bold=True, color=STOP_RED)
        self.back = BigButton("", BTN_LIGHT, size_hint_x=None, width=220)
        self.back.bind(on_release=lambda *_: self.leave())
        bar.add_widget(self.message)
        bar.add_widget(self.back)
        root.add_widget(bar)
        self.add_widget(root)
        self.pin_buttons: dict[str, Button] = {}
        self.option_buttons: list[Button] = []
        self.picker: CallPicker | None = None

    # -- PIN ---------------------------------------------------------------------------------------
    def press_digit(self, d: str) -> None:
        if len(self.pin) < 8:
            self.pin += d
        self.app.refresh()

    def press_clear(self) -> None:
        self.pin = ""
        self.app.refresh()

    def press_unlock(self) -> None:
        lang = self.app.lang
        if self.app.controller.check_pin(self.pin):
            self.unlocked = True
            # the director is at the table: the boxes' calls for him are attended to
            self.app.controller.td_attended(self.pin)
            self.message.text = f"[color=2a8c4d]{i18n.tr('pin_ok', lang)}[/color]"
        else:
            self.message.text = i18n.tr("pin_wrong", lang)
        self.pin = ""
        self.app.refresh()

    def choose(self, option: dict[str, Any]) -> None:
        if option.get("needs_call"):
            self.chosen = option
            self.app.refresh()
            return
        self._decide(option["id"], None)

    def pick_call(self, call: str) -> None:
        if self.chosen is not None:
            self._decide(self.chosen["id"], call)

    def _decide(self, choice: str, call: str | None) -> None:
        self._td(lambda pin: self.app.controller.td_decide(pin, choice, call), refresh=False)
        self.chosen = None
        if not self.app.controller.estate.get("pending"):
            self.unlocked = False
        self.app.refresh()

    def _pin_pad(self, lang: str) -> None:
        self.side.add_widget(Text(i18n.tr("pin_prompt", lang), size=24, bold=True, size_hint_y=None, height=40))
        shown = Panel(BG, 8, size_hint_y=None, height=60)
        shown.add_widget(Text("\u25cf " * len(self.pin) or " ", size=30, halign="center"))
        self.side.add_widget(shown)
        pad = GridLayout(cols=3, spacing=10)
        self.pin_buttons = {}
        for key in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "clear", "0", "unlock"):
            if key == "clear":
                b = BigButton(i18n.tr("clear", lang), BTN_LIGHT, size=22)
                b.bind(on_release=lambda *_: self.press_clear())
            elif key == "unlock":
                b = BigButton(i18n.tr("unlock", lang), BTN_OK, size=22)
                b.bind(on_release=lambda *_: self.press_unlock())
            else:
                b = BigButton(key, BTN_LIGHT, size=32)
                b.digit = key  # type: ignore[attr-defined]
                b.bind(on_release=lambda btn: self.press_digit(btn.digit))
            self.pin_buttons[key] = b
            pad.add_widget(b)
        self.side.add_widget(pad)

    def _options(self, pending: dict[str, Any], lang: str) -> None:
        self.side.add_widget(Text(i18n.tr("options", lang), size=24, bold=True, size_hint_y=None, height=40))
        self.option_buttons = []
        if self.chosen is not None:
            self.side.add_widget(Text(f"{self.chosen.get('label', '')}  [color=66727f]({self.chosen.get('law', '')})[/color]",
                                       size=20, size_hint_y=None, height=56))
            self.side.add_widget(Text(i18n.tr("choose_call", lang), size=20, bold=True, size_hint_y=None, height=34))
            self.picker = CallPicker(self.pick_call)
            self.side.add_widget(self.picker)
            return
        for opt in pending.get("options", []):
            b = BigButton(f"{opt.get('label', opt.get('id'))}\n[size=16]{opt.get('law', '')}[/size]", BTN, size=20)
            b.halign = "center"
            b.bind(size=lambda w, *_: setattr(w, "text_size", (w.width - 20, None)))
            b.option = opt  # type: ignore[attr-defined]
            b.bind(on_release=lambda btn: self.choose(btn.option))
            self.option_buttons.append(b)
            self.side.add_widget(b)

    def refresh(self, snap: dict[str, Any], lang: str) -> None:
        self.topbar.refresh(snap, lang)
        st = snap.get("state") or {}
        pending = st.get("pending")
        self.title.text = i18n.tr("director", lang) + (f"  \u00b7  {pending.get('law', '')}" if pending else "")
        self.happened_head.text = i18n.tr("what_happened", lang).upper()
        lines = present.what_happened(st, lang)
        self.happened.text = "\n".join(lines[-5:]) or i18n.tr("none", lang)
        self.conseq_head.text = i18n.tr("consequences", lang).upper()
        self.conseq.text = "\n".join(present.consequences(st, lang)) or i18n.tr("none", lang)
        self.delivery_head.text = i18n.tr("delivery", lang).upper()
        self.delivery.text = "\n".join(self.app.delivery_lines(lang))
        self.back.text = i18n.tr("back", lang)
        self.side.clear_widgets()
        self.option_buttons = []
        calls = self.app.controller.open_td_calls()
        if calls:
            lines += [i18n.tr("td_called_by", lang, seat=i18n.seat_name(c.get("seat"), lang))
                      + (f" ({i18n.tr('reason_' + c['reason'], lang)})" if c.get("reason") else "")
                      for c in calls[-3:]]
            self.happened.text = "\n".join(lines[-6:])
        if not self.unlocked:
            if not pending:
                self.side.add_widget(Text(i18n.tr("no_pending", lang), size=22, halign="center",
                                          size_hint_y=None, height=40))
            self._pin_pad(lang)
        elif pending:
            self._options(pending, lang)
        else:
            self._tools(snap, lang)

    # -- without a pending decision: the TD's own actions --------------------------------------------
    def _tools(self, snap: dict[str, Any], lang: str) -> None:
        self.side.add_widget(Text(i18n.tr("no_pending", lang), size=22, halign="center", size_hint_y=None, height=40))
        self.tool_buttons: dict[str, Button] = {}
        phase = snap.get("phase")
        if self.adjusting is not None:
            self._adjust_panel(lang)
            return
        if self.fixing is not None:
            self._fix_panel(snap, lang)
            return
        if self.exposing is not None:
            self._exposed_panel(lang)
            return
        if self.wrong_calling:
            self._seat_row(lang, "who_wrong_cards", self._wrong_board_call)
            return
        if self.wrong_boarding:
            self._wrong_board_panel(snap, lang)
            return
        if self.correcting is None:
            tools = []
            ed = (snap.get("state") or {}).get("edition", 2017)
            if phase in ("auction", "play"):
                tools.append(("correct", f"{i18n.tr('correct_call', lang)}\n[size=16]L25A[/size]", self._start_correct))
                tools.append(("exposed", f"{i18n.tr('tool_exposed', lang)}\n[size=16]{laws.EXPOSED[ed]['law']}[/size]",
                              self._start_exposed))
                tools.append(("wrong_call", f"{i18n.tr('tool_wrong_board_call', lang)}\n"
                              f"[size=16]{laws.WRONG_BOARD_CALL[ed].law}[/size]", self._start_wrong_call))
            if phase == "auction":
                tools.append(("wrong_board", f"{i18n.tr('tool_wrong_board', lang)}\n[size=16]{laws.WRONG_BOARD[ed]['law']}[/size]",
                              self._start_wrong_board))
            if phase in ("auction", "frozen", "play", "confirm"):
                tools.append(("artificial", f"{i18n.tr('artificial', lang)}\n[size=16]L12C2[/size]", self._start_adjust))
            if snap.get("done"):
                tools.append(("fix", f"{i18n.tr('fix_result', lang)}\n[size=16]L79C[/size]", self._start_fix))
            for name, label, fn in tools:
                b = BigButton(label, BTN, size=20, size_hint_y=None, height=84)
                b.bind(on_release=lambda _b, fn=fn: fn())
                self.tool_buttons[name] = b
                self.side.add_widget(b)
            self.side.add_widget(Widget())
            return
        if self.correcting.get("seat") is None:
            self._seat_row(lang, "whose_call", self._pick_seat)
            return
        self.side.add_widget(Text(i18n.tr("choose_call", lang) + f": {i18n.seat_name(self.correcting['seat'], lang)}",
                                  size=20, bold=True, size_hint_y=None, height=34))
        self.picker = CallPicker(self._correct)
        self.side.add_widget(self.picker)

    # -- Law 24 and the wrong-board laws: TD findings the boxes cannot see ----------------------------
    def _seat_row(self, lang: str, prompt: str, on_pick: Any) -> None:
        self.side.add_widget(Text(i18n.tr(prompt, lang), size=20, bold=True, size_hint_y=None, height=34))
        row = GridLayout(cols=4, spacing=10, size_hint_y=None, height=90)
        for seat in ("N", "E", "S", "W"):
            b = BigButton(i18n.seat_name(seat, lang), BTN_LIGHT, size=22)
            b.bind(on_release=lambda _b, seat=seat: on_pick(seat))
            self.tool_buttons[seat] = b
            row.add_widget(b)
        self.side.add_widget(row)
        self.side.add_widget(Widget())

    def _start_exposed(self) -> None:
        self.exposing = {"seat": None, "cards": [], "led": False}
        self.app.refresh()

    def _exposed_panel(self, lang: str) -> None:
        assert self.exposing is not None
        if self.exposing["seat"] is None:
            self._seat_row(lang, "whose_cards", self._expose_seat)
            return
        self.side.add_widget(Text(i18n.tr("which_cards", lang, seat=i18n.seat_name(self.exposing["seat"], lang)),
                                  size=20, bold=True, size_hint_y=None, height=34))
        grid = GridLayout(cols=13, spacing=3, size_hint_y=None, height=4 * 50)
        for suit in "SHDC":
            for rank in "AKQJT98765432":
                card = suit + rank
                on = card in self.exposing["cards"]
                b = BigButton(present.card_text(card), BTN if on else BTN_LIGHT, size=16)
                if suit in present.RED and not on:
                    b.color = RED_SUIT
                b.bind(on_release=lambda _b, card=card: self._toggle_card(card))
                self.tool_buttons[card] = b
                grid.add_widget(b)
        self.side.add_widget(grid)
        row = BoxLayout(spacing=10, size_hint_y=None, height=80)
        led = BigButton(("\u2713 " if self.exposing["led"] else "") + i18n.tr("card_led", lang),
                        BTN if self.exposing["led"] else BTN_LIGHT, size=20)
        led.bind(on_release=lambda *_: self._toggle_led())
        ok = BigButton(i18n.tr("record", lang), BTN_OK, size=22)
        ok.disabled = not self.exposing["cards"]
        ok.bind(on_release=lambda *_: self._record_exposed())
        self.tool_buttons["led"], self.tool_buttons["record"] = led, ok
        row.add_widget(led)
        row.add_widget(ok)
        self.side.add_widget(row)
        self.side.add_widget(Widget())

    def _expose_seat(self, seat: str) -> None:
        if self.exposing is not None:
            self.exposing["seat"] = seat
        self.app.refresh()

    def _toggle_card(self, card: str) -> None:
        if self.exposing is not None:
            cards = self.exposing["cards"]
            if card in cards:
                cards.remove(card)
            else:
                cards.append(card)
        self.app.refresh()

    def _toggle_led(self) -> None:
        if self.exposing is not None:
            self.exposing["led"] = not self.exposing["led"]
        self.app.refresh()

    def _record_exposed(self) -> None:
        x, self.exposing = self.exposing or {}, None
        self._td(lambda pin: self.app.controller.td_exposed_cards(pin, x.get("seat"), x.get("cards", []), x.get("led", False)))

    def _start_wrong_call(self) -> None:
        self.wrong_calling = True
        self.app.refresh()

    def _wrong_board_call(self, seat: str) -> None:
        self.wrong_calling = False
        self._td(lambda pin: self.app.controller.td_wrong_board_call(pin, seat))

    def _start_wrong_board(self) -> None:
        self.wrong_boarding = True
        self.app.refresh()

    def _wrong_board_panel(self, snap: dict[str, Any], lang: str) -> None:
        ed = (snap.get("state") or {}).get("edition", 2017)
        rule = laws.WRONG_BOARD[ed]
        row = BoxLayout(spacing=10, size_hint_y=None, height=90)
        if rule["restart"]:
            # 2007 L15C: the auction is made again whoever has played the board before
            self.side.add_widget(Text(i18n.tr("wb_auction_restarted", lang), size=20, bold=True, size_hint_y=None, height=60))
            answers = [("record", i18n.tr("record", lang), False)]
        else:
            self.side.add_widget(Text(i18n.tr("played_before_q", lang), size=20, bold=True, size_hint_y=None, height=60))
            answers = [("played_yes", i18n.tr("yes", lang), True), ("played_no", i18n.tr("no", lang), False)]
        for name, label, played in answers:
            b = BigButton(f"{label}\n[size=16]{rule['law']}[/size]", BTN, size=22)
            b.bind(on_release=lambda _b, played=played: self._wrong_board(played))
            self.tool_buttons[name] = b
            row.add_widget(b)
        self.side.add_widget(row)
        self.side.add_widget(Widget())

    def _wrong_board(self, played_before: bool) -> None:
        self.wrong_boarding = False
        self._td(lambda pin: self.app.controller.td_wrong_board(pin, played_before))

    def _td(self, act: Any, refresh: bool = True) -> None:
        """Run one TD action with the signed-in PIN; `act(pin)` may return a message to show.
        The PIN was checked at sign-in; the controller checks it again (it trusts no widget)."""
        try:
            said = act(self.app.controller.session.td_pin if self.unlocked else "")
            self.message.text = said if isinstance(said, str) else ""
        except PinError:
            self.message.text = i18n.tr("pin_wrong", self.app.lang)
        except ValueError as exc:  # Refused, SetupError: said, nothing changed
            self.message.text = str(exc)[:120]
        if refresh:
            self.app.refresh()

    # -- artificial adjusted score (L12C2) --------------------------------------------------------
    def _start_adjust(self) -> None:
        self.adjusting = {"ns": None, "ew": None}
        self.app.refresh()

    def _adjust_panel(self, lang: str) -> None:
        assert self.adjusting is not None
        for side in ("ns", "ew"):
            self.side.add_widget(Text(i18n.tr("pairs_" + side, lang), size=20, bold=True, size_hint_y=None, height=34))
            row = GridLayout(cols=3, spacing=10, size_hint_y=None, height=80)
            for v in ("avg-", "avg", "avg+"):
                b = BigButton(v.capitalize().replace("Avg", "Avg "), BTN if self.adjusting[side] == v else BTN_LIGHT, size=22)
                b.bind(on_release=lambda _b, side=side, v=v: self._set_adjust(side, v))
                self.tool_buttons[f"{side}{v}"] = b
                row.add_widget(b)
            self.side.add_widget(row)
        ok = BigButton(i18n.tr("award", lang), BTN_OK, size=22, size_hint_y=None, height=90)
        ok.disabled = None in self.adjusting.values()
        ok.bind(on_release=lambda *_: self._award())
        self.tool_buttons["award"] = ok
        self.side.add_widget(ok)
        self.side.add_widget(Widget())

    def _set_adjust(self, side: str, v: str) -> None:
        if self.adjusting is not None:
            self.adjusting[side] = v
        self.app.refresh()

    def _award(self) -> None:
        a, self.adjusting = self.adjusting or {}, None
        edition = (self.app.controller.estate or {}).get("edition", 2017)
        self._td(lambda pin: self.app.controller.td_artificial_score(pin, a.get("ns"), a.get("ew"), f"{edition} L12C2"))

    # -- corrected score (L79C) ------------------------------------------------------------------
    def _start_fix(self) -> None:
        self.fixing = {"board": None}
        self.app.refresh()

    def _fix_panel(self, snap: dict[str, Any], lang: str) -> None:
        assert self.fixing is not None
        if self.fixing["board"] is None:
            self.side.add_widget(Text(i18n.tr("which_board", lang), size=20, bold=True, size_hint_y=None, height=34))
            seen: dict[int, dict[str, Any]] = {}
            for r in snap.get("done", []):
                if r.get("contract") not in (None, "PASS"):
                    seen[r["board"]] = r
            for board, r in seen.items():
                b = BigButton(f"{i18n.tr('board', lang)} {board}: {present.contract_text(r['contract'], r['declarer'], lang)}"
                              f"  {r['tricks']}  ({r['score_ns']:+d})", BTN_LIGHT, size=20, size_hint_y=None, height=70)
                b.bind(on_release=lambda _b, board=board: self._fix_board(board))
                self.tool_buttons[f"board{board}"] = b
                self.side.add_widget(b)
            self.side.add_widget(Widget())
            return
        self.side.add_widget(Text(f"{i18n.tr('board', lang)} {self.fixing['board']}: {i18n.tr('tricks', lang)}",
                                  size=20, bold=True, size_hint_y=None, height=34))
        grid = GridLayout(cols=7, spacing=8, size_hint_y=None, height=150)
        for n in range(14):
            b = BigButton(str(n), BTN_LIGHT, size=26)
            b.bind(on_release=lambda _b, n=n: self._fix_tricks(n))
            self.tool_buttons[f"tricks{n}"] = b
            grid.add_widget(b)
        self.side.add_widget(grid)
        self.side.add_widget(Widget())

    def _fix_board(self, board: int) -> None:
        self.fixing = {"board": board}
        self.app.refresh()

    def _fix_tricks(self, n: int) -> None:
        board = (self.fixing or {}).get("board")
        self.fixing = None

        def fix(pin: str) -> str:
            rec = self.app.controller.td_correct_result(pin, board, n)
            return f"[color=2a8c4d]{i18n.tr('sent', self.app.lang)}: {rec['score_ns']:+d}[/color]"

        self._td(fix)

    def _start_correct(self) -> None:
        self.correcting = {"seat": None}
        self.app.refresh()

    def _pick_seat(self, seat: str) -> None:
        self.correcting = {"seat": seat}
        self.app.refresh()

    def _correct(self, call: str) -> None:
        seat = (self.correcting or {}).get("seat")
        self.correcting = None
        self._td(lambda pin: self.app.controller.td_correct_call(pin, seat, call))

    def leave(self) -> None:
        self.unlocked = False
        self.correcting = self.adjusting = self.fixing = self.exposing = None
        self.wrong_calling = self.wrong_boarding = False
        self.chosen = None
        self.message.text = ""
        self.app.go("auction")


class TempoScreen(Screen):
    def __init__(self, app: TabletApp, **kw: Any):
        super().__init__(name="tempo", **kw)
        self.app = app
        root = BoxLayout(orientation="vertical")
        _bg(root, BG)
        self.topbar = TopBar(app)
        root.add_widget(self.topbar)
        self.panel = Panel(WHITE, 14, orientation="vertical", padding=(20, 12))
        wrap = BoxLayout(padding=(24, 16))
        wrap.add_widget(self.panel)
        root.add_widget(wrap)
        bar = BoxLayout(size_hint_y=None, height=84, padding=(24, 8))
        bar.add_widget(Widget())
        self.back = BigButton("", BTN_LIGHT, size_hint_x=None, width=220)
        self.back.bind(on_release=lambda *_: app.go("auction"))
        bar.add_widget(self.back)
        root.add_widget(bar)
        self.add_widget(root)

    def refresh(self, snap: dict[str, Any], lang: str) -> None:
        self.topbar.refresh(snap, lang)
        self.back.text = i18n.tr("back", lang)
        self.panel.clear_widgets()
        grid = GridLayout(cols=6, spacing=4, size_hint_y=None, row_default_height=44, row_force_default=True)
        grid.bind(minimum_height=grid.setter("height"))
        for h in ("#", i18n.tr("seat", lang), i18n.tr("call", lang), i18n.tr("think", lang),
                  f"{i18n.tr('stop', lang)} / {i18n.tr('alert', lang)}", i18n.tr("flags", lang)):
            grid.add_widget(Text(h, size=20, bold=True, color=MUTED))
        for row in self.app.controller.tempo():
            think = row.get("think")
            marks = " ".join(x for x, on in ((i18n.tr("stop", lang), row["stop"]), (i18n.tr("alert", lang), row["alerted"])) if on)
            flags = ", ".join(str(f).replace("_", " ") for f in row["flags"])
            long = isinstance(think, int | float) and think >= 10
            grid.add_widget(Text(str(row["index"] + 1), size=22))
            grid.add_widget(Text(i18n.seat_name(row["seat"], lang), size=22))
            grid.add_widget(Text(call_markup(row["call"], lang), size=24, bold=True))
            grid.add_widget(Text(("[b][color=cc5a1a]" if long else "") + (f"{think:.1f}" if isinstance(think, int | float) else "-")
                                 + ("[/color][/b]" if long else ""), size=22))
            grid.add_widget(Text(marks, size=20))
            grid.add_widget(Text(f"[color=cc141f]{flags}[/color]" if flags else "", size=20))
        sv = ScrollView()
        sv.add_widget(grid)
        self.panel.add_widget(Text(i18n.tr("tempo", lang), size=28, bold=True, size_hint_y=None, height=46))
        self.panel.add_widget(sv)


class ResultScreen(Screen):
    def __init__(self, app: TabletApp, **kw: Any):
        super().__init__(name="result", **kw)
        self.app = app
        self.tricks: int | None = None
        self.suit: str | None = None
        self.rank: str | None = None
        self.message = ""
        root = BoxLayout(orientation="vertical")
        _bg(root, BG)
        self.topbar = TopBar(app)
        root.add_widget(self.topbar)
        self.body = BoxLayout(orientation="vertical", padding=(24, 14), spacing=12)
        root.add_widget(self.body)
        self.add_widget(root)
        self.trick_buttons: dict[int, Button] = {}
        self.lead_buttons: dict[str, Button] = {}
        self.enter_btn: Button | None = None
        self.confirm_btn: Button | None = None
        self.dispute_btn: Button | None = None

    def set_tricks(self, n: int) -> None:
        self.tricks = n
        self.app.refresh()

    def set_lead(self, key: str) -> None:
        if key in present.SUIT:
            self.suit = None if self.suit == key else key
        else:
            self.rank = None if self.rank == key else key
        self.app.refresh()

    def enter(self) -> None:
        lead = f"{self.suit}{self.rank}" if self.suit and self.rank else None
        try:
            self.app.controller.enter_result(self.tricks, lead)
            self.message = ""
        except ValueError as exc:
            self.message = str(exc)
        self.app.refresh()

    def confirm(self, ok: bool) -> None:
        try:
            rec = self.app.controller.ew_confirm(ok)
            self.message = f"{i18n.tr('sent', self.app.lang)}: {rec['score_ns']:+d}" if rec else ""
        except ValueError as exc:
            self.message = str(exc)
        self.tricks = None
        self.suit = self.rank = None
        self.app.refresh()

    def refresh(self, snap: dict[str, Any], lang: str) -> None:
        self.topbar.refresh(snap, lang)
        self.body.clear_widgets()
        res = snap.get("result")
        summary = Panel(WHITE, 14, size_hint_y=None, height=96, padding=(20, 8), spacing=20)
        self.body.add_widget(summary)
        if not res:
            summary.add_widget(Text(self.message or present.status_line(snap, lang), size=26, bold=True))
            back = BigButton(i18n.tr("back", lang), BTN_LIGHT, size_hint=(None, None), size=(220, 70))
            back.bind(on_release=lambda *_: self.app.go("auction"))
            self.body.add_widget(back)
            self.body.add_widget(Widget())
            return
        contract = present.contract_text(res["contract"], res["declarer"], lang)
        summary.add_widget(Text(f"[size=18][color=66727f]{i18n.tr('contract', lang).upper()}[/color][/size]\n{contract}",
                                size=34, bold=True))
        summary.add_widget(Text(f"[size=18][color=66727f]{i18n.tr('board', lang).upper()}[/color][/size]\n"
                                f"{res['board']}  \u00b7  {i18n.vul_name(res['vulnerability'], lang)}", size=26))
        if snap.get("phase") == "confirm":
            self._confirm_panel(res, lang)
        else:
            self._entry_panel(res, lang)
        self.body.add_widget(Text(self.message, size=22, bold=True, color=STOP_RED, size_hint_y=None, height=34))

    def _entry_panel(self, res: dict[str, Any], lang: str) -> None:
        passed = res["contract"] == "PASS"
        if not passed:
            self.body.add_widget(Text(i18n.tr("tricks", lang), size=22, bold=True, size_hint_y=None, height=34))
            grid = GridLayout(cols=7, spacing=8, size_hint_y=None, height=150)
            self.trick_buttons = {}
            for n in range(14):
                b = BigButton(str(n), BTN if self.tricks == n else BTN_LIGHT, size=30)
                b.n = n  # type: ignore[attr-defined]
                b.bind(on_release=lambda btn: self.set_tricks(btn.n))
                self.trick_buttons[n] = b
                grid.add_widget(b)
            self.body.add_widget(grid)
            self.body.add_widget(Text(i18n.tr("lead", lang), size=22, bold=True, size_hint_y=None, height=34))
            lead = GridLayout(cols=18, spacing=6, size_hint_y=None, height=80)
            self.lead_buttons = {}
            for s in ("S", "H", "D", "C"):
                b = BigButton(present.SUIT[s], BTN if self.suit == s else BTN_LIGHT, size=30)
                if present.is_red(s) and self.suit != s:
                    b.color = RED_SUIT
                b.key = s  # type: ignore[attr-defined]
                b.bind(on_release=lambda btn: self.set_lead(btn.key))
                self.lead_buttons[s] = b
                lead.add_widget(b)
            lead.add_widget(Widget())
            for r in ("A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"):
                b = BigButton("10" if r == "T" else r, BTN if self.rank == r else BTN_LIGHT, size=24)
                b.key = r  # type: ignore[attr-defined]
                b.bind(on_release=lambda btn: self.set_lead(btn.key))
                self.lead_buttons[r] = b
                lead.add_widget(b)
            self.body.add_widget(lead)
        self.body.add_widget(Widget())
        bar = BoxLayout(size_hint_y=None, height=90, spacing=16)
        back = BigButton(i18n.tr("back", lang), BTN_LIGHT, size_hint_x=0.35)
        back.bind(on_release=lambda *_: self.app.go("auction"))
        self.enter_btn = BigButton(i18n.tr("enter", lang), BTN_OK)
        self.enter_btn.disabled = not passed and self.tricks is None
        self.enter_btn.bind(on_release=lambda *_: self.enter())
        bar.add_widget(back)
        bar.add_widget(self.enter_btn)
        self.body.add_widget(bar)

    def _confirm_panel(self, res: dict[str, Any], lang: str) -> None:
        p = Panel(WHITE, 14, orientation="vertical", padding=(20, 14), spacing=6)
        tricks = res.get("tricks")
        lines = []
        if tricks is not None:
            lines.append(f"{i18n.tr('tricks', lang)}: [b]{tricks}[/b]  ({res.get('label', '')})")
        if res.get("lead"):
            lead = res["lead"]
            suit = present.SUIT[lead[0]]
            suit = f"[color=cc141f]{suit}[/color]" if lead[0] in present.RED else suit
            lines.append(f"{i18n.tr('lead', lang).split('(')[0].strip()}: [b]{suit}{lead[1:].replace('T', '10')}[/b]")
        p.add_widget(Text("\n".join(lines), size=28, halign="center"))
        score = res.get("score_ns", 0)
        p.add_widget(Text(f"{i18n.tr('score_ns', lang)}:  [b][size=72]{score:+d}[/size][/b]", size=30, halign="center"))
        self.body.add_widget(p)
        bar = BoxLayout(size_hint_y=None, height=96, spacing=16)
        self.dispute_btn = BigButton(i18n.tr("ew_dispute", lang), BTN_WARN, size_hint_x=0.4)
        self.dispute_btn.bind(on_release=lambda *_: self.confirm(False))
        self.confirm_btn = BigButton(i18n.tr("ew_confirm", lang), BTN_OK)
        self.confirm_btn.bind(on_release=lambda *_: self.confirm(True))
        bar.add_widget(self.dispute_btn)
        bar.add_widget(self.confirm_btn)
        self.body.add_widget(bar)


class RoundEndScreen(Screen):
    def __init__(self, app: TabletApp, **kw: Any):
        super().__init__(name="round_end", **kw)
        self.app = app
        root = BoxLayout(orientation="vertical")
        _bg(root, BG)
        self.topbar = TopBar(app)
        root.add_widget(self.topbar)
        self.panel = Panel(WHITE, 14, orientation="vertical", padding=(30, 20), spacing=10)
        wrap = BoxLayout(padding=(24, 16))
        wrap.add_widget(self.panel)
        root.add_widget(wrap)
        self.add_widget(root)

    def refresh(self, snap: dict[str, Any], lang: str) -> None:
        self.topbar.refresh(snap, lang)
        self.panel.clear_widgets()
        self.panel.add_widget(Text(i18n.tr("round_over", lang), size=36, bold=True, size_hint_y=None, height=60))
        lines = present.round_end_lines(snap.get("next_positions"), lang)
        self.panel.add_widget(Text("\n\n".join(lines), size=30))
        done = snap.get("done") or []
        latest = {r["board"]: r for r in done}  # a corrected result (L79C) replaces the earlier revision
        summary = "   ".join(f"{i18n.tr('board', lang)} {b}: {present.result_text(r, lang)}" for b, r in latest.items())
        self.panel.add_widget(Text(summary, size=20, color=MUTED))
        self.next_btn = BigButton(i18n.tr("next_round", lang), BTN, size_hint_y=None, height=84)
        self.next_btn.bind(on_release=lambda *_: self.next_round())
        self.panel.add_widget(self.next_btn)

    def next_round(self) -> None:
        s = self.app.controller.session
        failed = ""
        if self.app.next_setup is not None and s is not None and s.movement == "station":
            from tablet_app.station_client import StationError

            try:
                self.app.next_setup()
                self.app.refresh()  # the next round's first board: the auction screen
                return
            except (StationError, ValueError) as exc:
                # The station is down, or the movement has no next round (SetupError): the table
                # can still go on, typed in.
                failed = str(exc)
        setup = self.app.screens["setup"]
        setup.prefill(self.app.controller.snapshot().get("session"))
        setup.error.text = failed[:160]
        self.app.go("setup")


class SetupScreen(Screen):
    """Session setup typed in at the table (the station's movement fills it when connected)."""

    FIELDS = (("event", "setup_event"), ("section", "setup_section"), ("table", "table"),
              ("round", "round"), ("tables", "setup_tables"), ("boards", "setup_boards"),
              ("ns_pair", "setup_ns"), ("ew_pair", "setup_ew"), ("td_pin", "pin_prompt"))
    NUMBERS = ("table", "round", "tables", "ns_pair", "ew_pair")
    # the alerts choice -> the pairs that do not alert (Session.no_alerts_by)
    ALERTS = {"all": (), "not-NS": ("NS",), "not-EW": ("EW",), "none": ("NS", "EW")}

    def __init__(self, app: TabletApp, **kw: Any):
        super().__init__(name="setup", **kw)
        self.app = app
        self.message = ""
        root = BoxLayout(orientation="vertical")
        _bg(root, BG)
        self.topbar = TopBar(app)
        root.add_widget(self.topbar)
        self.body = BoxLayout(orientation="vertical", padding=(24, 14), spacing=10)
        root.add_widget(self.body)
        self.add_widget(root)
        self.inputs: dict[str, TextInput] = {}
        self.labels: dict[str, Label] = {}
        form = Panel(WHITE, 14, orientation="vertical", padding=(20, 12), spacing=6)
        grid = GridLayout(cols=4, spacing=(14, 8), row_default_height=54, row_force_default=True)
        for name, _key in self.FIELDS:
            lbl = Text("", size=20, bold=True, color=MUTED)
            self.labels[name] = lbl
            ti = TextInput(multiline=False, font_size=24, password=(name == "td_pin"),
                           input_filter="int" if name in self.NUMBERS else None,
                           padding=(10, 12), write_tab=False)
            self.inputs[name] = ti
            grid.add_widget(lbl)
            grid.add_widget(ti)
        self.labels["profile"] = Text("", size=20, bold=True, color=MUTED)
        grid.add_widget(self.labels["profile"])
        try:
            from shared_rules import profiles

            names = profiles.names()
        except Exception:  # the engine's profiles are missing: only the default is offered
            names = ["fsb-2007"]
        self.profile = Spinner(text=names[0] if names else "", values=names, font_size=22, background_normal="",
                               background_color=BTN_LIGHT, color=INK)
        grid.add_widget(self.profile)
        self.labels["policy"] = Text("", size=20, bold=True, color=MUTED)
        grid.add_widget(self.labels["policy"])
        self.policy = Spinner(text="profile", values=("profile", "record", "prevent"), font_size=22,
                              background_normal="", background_color=BTN_LIGHT, color=INK)
        grid.add_widget(self.policy)
        # FSB L115A1-A2: a pair may ask its opponents at the table not to alert
        self.labels["alerts"] = Text("", size=20, bold=True, color=MUTED)
        grid.add_widget(self.labels["alerts"])
        self.alerts = Spinner(text="all", values=tuple(self.ALERTS), font_size=22, background_normal="",
                              background_color=BTN_LIGHT, color=INK)
        grid.add_widget(self.alerts)
        form.add_widget(grid)
        self.body.add_widget(form)
        self.error = Text("", size=22, bold=True, color=STOP_RED, size_hint_y=None, height=40)
        self.body.add_widget(self.error)
        self.start = BigButton("", BTN_OK, size_hint_y=None, height=90)
        self.start.bind(on_release=lambda *_: self.submit())
        self.body.add_widget(self.start)

    def prefill(self, session: dict[str, Any] | None) -> None:
        s = dict(session or {})
        if s:
            s["round"] = s.get("round", 0) + 1
            s["boards"] = ""
            s["ns_pair"] = s["ew_pair"] = ""
        for name, _ in self.FIELDS:
            v = s.get(name, "")
            self.inputs[name].text = "" if v is None else str(v)
        if s.get("profile"):
            self.profile.text = s["profile"]
        self.policy.text = s.get("policy") or "profile"
        off = tuple(s.get("no_alerts_by") or ())
        self.alerts.text = next((k for k, v in self.ALERTS.items() if v == off), "all")

    def values(self) -> dict[str, Any]:
        d: dict[str, Any] = {}
        for name, _ in self.FIELDS:
            text = self.inputs[name].text.strip()
            if name in self.NUMBERS:
                d[name] = int(text) if text.isdigit() else text
            else:
                d[name] = text
        d["profile"] = self.profile.text
        d["policy"] = None if self.policy.text == "profile" else self.policy.text
        d["no_alerts_by"] = list(self.ALERTS.get(self.alerts.text, ()))
        return d

    def submit(self) -> None:
        try:
            self.app.controller.setup(self.values())
            self.error.text = ""
        except ValueError as exc:  # SetupError, Refused: shown, nothing changed
            self.error.text = str(exc)
        self.app.refresh()

    def refresh(self, snap: dict[str, Any], lang: str) -> None:
        self.topbar.refresh(snap, lang)
        for name, key in self.FIELDS:
            self.labels[name].text = i18n.tr(key, lang)
        self.labels["profile"].text = i18n.tr("setup_profile", lang)
        self.labels["policy"].text = i18n.tr("setup_policy", lang)
        self.labels["alerts"].text = i18n.tr("setup_alerts", lang)
        self.start.text = i18n.tr("setup_start", lang)


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

    def build(self) -> ScreenManager:
        Window.clearcolor = BG
        sm = ScreenManager(transition=NoTransition())
        for cls in (AuctionScreen, DirectorScreen, TempoScreen, ResultScreen, RoundEndScreen, SetupScreen):
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
        self.refresh()
        return sm

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


def main(argv: list[str] | None = None) -> int:
    import argparse
    import json

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", default="build/tablet.db", help="journal file (created if missing)")
    ap.add_argument("--lang", choices=i18n.LANGS, default="en")
    ap.add_argument("--setup", help="session setup JSON file (used when the journal has none)")
    ap.add_argument("--movement", help="the station's movement JSON file; with --table and --round")
    ap.add_argument("--table", help="this table: its number (in --movement, or section A at --station), "
                                    "SECTION/N, or the station's full id EVENT/SECTION/N")
    ap.add_argument("--round", type=int, help="the round to start (default: --movement 1, --station the "
                                              "round the station says this table is on)")
    ap.add_argument("--pin", help="director PIN for a session from --movement or --station")
    ap.add_argument("--profile", help="regulation profile for a session from --movement or --station "
                                      "(fsb-2007, dbf-2017, wbf-screens-2017, ebu, acbl; default fsb-2007)")
    ap.add_argument("--policy", choices=("record", "prevent"),
                    help="irregularity policy for a session from --movement or --station (default: the profile's)")
    ap.add_argument("--ports", help="serial ports per seat: N=/dev/ttyX,E=...,S=...,W=...")
    ap.add_argument("--station", help="results station URL: start the outbox deliverer; with --table and "
                                      "--table-key, and no session yet, take the setup from it")
    ap.add_argument("--table-key", default="", help="this tablet's key at the station")
    ap.add_argument("--exit-when-ready", action="store_true",
                    help="print 'ready' once the auction screen is drawn, then quit (bench)")
    args = ap.parse_args(argv)
    pathlib.Path(args.db).parent.mkdir(parents=True, exist_ok=True)
    from tablet_app.journal import JournalError
    from tablet_app.session import SetupError

    # what the TD chooses for a session taken from a movement (the movement has pairs and boards)
    extra = {k: v for k, v in (("td_pin", args.pin), ("profile", args.profile), ("policy", args.policy)) if v}
    try:
        ctl = Controller(args.db)
        if ctl.session is None and args.setup:
            ctl.setup(json.loads(pathlib.Path(args.setup).read_text()))
        elif ctl.session is None and args.movement:
            from tablet_app.session import from_station

            if args.table is None or not args.table.isdigit():
                raise SetupError("--movement needs --table N (the table's number)")
            movement = json.loads(pathlib.Path(args.movement).read_text())
            ctl.setup(from_station(movement, int(args.table), args.round or 1, **extra))
        elif ctl.session is None and args.station and args.table is not None:
            from tablet_app.station_client import StationError, setup_from_station

            try:
                setup_from_station(ctl, args.station, args.table, args.table_key, args.round, **extra)
            except (StationError, SetupError) as exc:
                # The table can still play: the TD types the setup in on the setup screen.
                print(f"tablet: no setup from the station ({exc}); type it in", file=sys.__stderr__)
    except (JournalError, SetupError, OSError, json.JSONDecodeError) as exc:
        print(f"tablet: {exc}", file=sys.__stderr__)  # Kivy has taken over sys.stderr
        return 2
    runner = None
    if args.ports:
        from tablet_app.runner import TableRunner

        ports = dict(p.split("=", 1) for p in args.ports.split(","))
        runner = TableRunner(ctl, ports)
    deliverers: list[Any] = []

    def start_deliverer() -> Any:
        from tablet_app.outbox import Deliverer

        s = ctl.session
        deliverers.append(Deliverer(args.db, args.station, f"{s.event}/{s.section}/{s.table}",
                                    args.table_key).start())
        return deliverers[-1]

    deliverer = start_deliverer() if args.station and ctl.session is not None else None

    def ready(app: TabletApp) -> None:
        print("ready", flush=True)
        app.stop()

    app = TabletApp(ctl, runner, args.lang, on_ready=ready if args.exit_when_ready else None,
                    deliverer=deliverer)
    if args.station:
        def next_setup() -> None:
            from tablet_app.station_client import next_round_from_station

            next_round_from_station(ctl, args.station, args.table_key)

        app.next_setup = next_setup
    if args.station and deliverer is None:
        # Setup typed in at the table: results go to the station from the first board on.
        def on_setup() -> None:
            if app.deliverer is None and ctl.session is not None:
                app.deliverer = start_deliverer()

        ctl.listeners.append(on_setup)
    try:
        app.run()
    finally:
        for d in deliverers:
            d.stop()
        if runner is not None:
            runner.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
