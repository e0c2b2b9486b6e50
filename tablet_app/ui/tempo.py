"""The tempo screen: think times, stop and alert marks, timing flags (director only)."""
from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from tablet_app import i18n, present
from tablet_app.ui.theme import BTN_LIGHT, INK, MUTED, WHITE
from tablet_app.ui.widgets import BigButton, Panel, StillScrollView, Text, call_markup, framed
from tablet_app.views import tempo_rows

ROW = 44  # a row's height with one line of text


class _Growing(Label):
    """A cell that wraps its text at its width and grows to the lines it needs (the grid's row
    grows with it), so a flag in a long language is never cut."""

    def __init__(self, text: str):
        super().__init__(text=text, font_size=20, color=INK, halign="left", valign="middle", markup=True,
                         size_hint_y=None, height=ROW)
        self.bind(width=lambda *_: setattr(self, "text_size", (self.width, None)),
                  texture_size=lambda *_: setattr(self, "height", max(ROW, self.texture_size[1] + 8)))


def _same_height(cells: list[Any], height: float) -> None:
    for c in cells:
        c.height = height


class TempoScreen(Screen):
    def __init__(self, app: Any, **kw: Any):
        super().__init__(name="tempo", **kw)
        self.app = app
        root = framed(self, app)
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

    def refresh(self, snap: dict[str, Any], lang: str) -> None:
        self.topbar.refresh(snap, lang)
        self.back.text = i18n.tr("back", lang)
        self.panel.clear_widgets()
        # A row is as tall as its flags need: a Swedish or Danish flag wraps, and is never cut.
        grid = GridLayout(cols=6, spacing=4, size_hint_y=None, row_default_height=ROW)
        grid.bind(minimum_height=grid.setter("height"))
        for h in ("#", i18n.tr("seat", lang), i18n.tr("call", lang), i18n.tr("think", lang),
                  f"{i18n.tr('stop', lang)} / {i18n.tr('alert', lang)}", i18n.tr("flags", lang)):
            grid.add_widget(Text(h, size=20, bold=True, color=MUTED, size_hint_y=None, height=ROW))
        for row in tempo_rows(snap.get("state") or {}):
            think = row.get("think")
            marks = " ".join(x for x, on in ((i18n.tr("stop", lang), row["stop"]), (i18n.tr("alert", lang), row["alerted"])) if on)
            flags = ", ".join(present.flag_text(str(f), lang) for f in row["flags"])
            long = isinstance(think, int | float) and think >= 10
            cell: dict[str, Any] = {"size_hint_y": None, "height": ROW}
            cells = [Text(str(row["index"] + 1), size=22, **cell), Text(i18n.seat_name(row["seat"], lang), size=22, **cell),
                     Text(call_markup(row["call"], lang), size=24, bold=True, **cell),
                     Text(("[b][color=cc5a1a]" if long else "") + (f"{think:.1f}" if isinstance(think, int | float) else "-")
                          + ("[/color][/b]" if long else ""), size=22, **cell),
                     Text(marks, size=20, **cell)]
            grow = _Growing(f"[color=cc141f]{flags}[/color]" if flags else "")
            # the row's other cells take the flags' height, so the row reads on one middle line
            grow.bind(height=lambda _w, h, cells=cells: _same_height(cells, h))
            for c in [*cells, grow]:
                grid.add_widget(c)
        sv = StillScrollView()
        sv.add_widget(grid)
        self.panel.add_widget(Text(i18n.tr("tempo", lang), size=28, bold=True, size_hint_y=None, height=46))
        self.panel.add_widget(sv)


