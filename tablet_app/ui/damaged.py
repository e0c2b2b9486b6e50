"""A journal the tablet cannot trust (`tablet_app.journal.JournalDamaged`): said on the screen,
where the director is, with its reason and a way on (`Controller.recover`), instead of an app
that exits with nothing shown."""
from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from tablet_app import i18n
from tablet_app.ui.theme import BTN_LIGHT, BTN_OK, STOP_RED, WHITE
from tablet_app.ui.widgets import BigButton, Grow, Panel, Text, framed


class DamagedScreen(Screen):
    def __init__(self, app: Any, damaged: Any, **kw: Any):
        super().__init__(name="damaged", **kw)
        self.app = app
        self.damaged = damaged  # the JournalDamaged exception
        self.said: Any = None
        root = framed(self, app)
        wrap = BoxLayout(padding=(60, 24))
        panel = Panel(WHITE, 14, orientation="vertical", padding=(28, 18), spacing=12)
        self.title = Text("", size=30, bold=True, color=STOP_RED, size_hint_y=None, height=52)
        self.where = Text("", size=22, bold=True, size_hint_y=None, height=36)
        self.why = Grow("", size=20)
        self.help = Grow("", size=20)
        self.message = Grow("", size=22)
        for w in (self.title, self.where, self.why, self.help, self.message):
            panel.add_widget(w)
        panel.add_widget(Widget())
        row = BoxLayout(spacing=16, size_hint_y=None, height=96)
        self.quit_btn = BigButton("", BTN_LIGHT)
        self.quit_btn.bind(on_release=lambda *_: app.stop())
        self.recover_btn = BigButton("", BTN_OK)
        self.recover_btn.bind(on_release=lambda *_: app.recover_journal())
        row.add_widget(self.quit_btn)
        row.add_widget(self.recover_btn)
        panel.add_widget(row)
        wrap.add_widget(panel)
        root.add_widget(wrap)

    def refresh(self, snap: dict[str, Any], lang: str) -> None:
        self.topbar.refresh(snap, lang)
        d = self.damaged
        self.title.text = i18n.tr("damaged_title", lang)
        seq = getattr(d, "seq", None)
        where = i18n.tr("damaged_record", lang, seq=seq) if seq is not None else i18n.tr("damaged_file", lang)
        self.where.text = i18n.tr("damaged_where", lang, where=where)
        self.why.text = i18n.tr("damaged_why", lang, why=i18n.damage_reason(str(getattr(d, "why", d)), lang))
        self.help.text = i18n.tr("damaged_help", lang)
        self.message.text = self.said(lang) if self.said is not None else ""
        self.recover_btn.text = i18n.tr("damaged_recover", lang)
        self.quit_btn.text = i18n.tr("damaged_quit", lang)
