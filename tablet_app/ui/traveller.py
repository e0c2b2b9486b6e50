"""The board's traveller and the pairs' running score, as the club's Bridgemate settings show them
(`snapshot()["traveller"]`, docs/tablet.md): drawn on the result and round-end screens."""
from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from tablet_app import i18n, present
from tablet_app.ui.theme import MUTED
from tablet_app.ui.widgets import Text

ROW_H = 30


def traveller_panel(trav: dict[str, Any], own_table: Any, lang: str, size: float = 18) -> BoxLayout:
    """The traveller as a table, this table's own line in bold; the recap lines under it. The
    panel is as tall as its lines (`height` set), so a screen can stack it."""
    head, rows = present.traveller_table(trav, lang)
    recap = present.recap_lines(trav.get("recap"), lang)
    box = BoxLayout(orientation="vertical", size_hint_y=None, spacing=4)
    box.add_widget(Text(i18n.tr("trav_title", lang, board=trav.get("board")), size=size + 4, bold=True,
                        size_hint_y=None, height=ROW_H + 6))
    grid = GridLayout(cols=len(head), spacing=(8, 0), size_hint_y=None, height=ROW_H * (len(rows) + 1))
    for h in head:
        grid.add_widget(Text(h, size=size - 2, color=MUTED, bold=True, size_hint_y=None, height=ROW_H))
    for row, r in zip(rows, trav.get("rows") or [], strict=True):
        own = r.get("table") == own_table
        for cell in row:
            grid.add_widget(Text(cell, size=size, bold=own, size_hint_y=None, height=ROW_H))
    box.add_widget(grid)
    if recap:
        box.add_widget(Text(i18n.tr("trav_recap", lang), size=size, bold=True, size_hint_y=None, height=ROW_H))
        for line in recap:
            box.add_widget(Text(line, size=size, size_hint_y=None, height=ROW_H))
    box.height = ROW_H + 6 + grid.height + (ROW_H * (len(recap) + 1) if recap else 0) + 4 * (len(box.children) - 1)
    return box
