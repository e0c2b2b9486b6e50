"""The round end: where pairs and boards go next."""
from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from tablet_app import i18n, present
from tablet_app.ui.theme import BTN, MUTED, WHITE
from tablet_app.ui.traveller import traveller_panel
from tablet_app.ui.widgets import BigButton, Panel, Text, framed


class RoundEndScreen(Screen):
    def __init__(self, app: Any, **kw: Any):
        super().__init__(name="round_end", **kw)
        self.app = app
        root = framed(self, app)
        self.panel = Panel(WHITE, 14, orientation="vertical", padding=(30, 20), spacing=10)
        wrap = BoxLayout(padding=(24, 16))
        wrap.add_widget(self.panel)
        root.add_widget(wrap)

    def refresh(self, snap: dict[str, Any], lang: str) -> None:
        self.topbar.refresh(snap, lang)
        self.panel.clear_widgets()
        self.panel.add_widget(Text(i18n.tr("round_over", lang), size=36, bold=True, size_hint_y=None, height=60))
        lines = present.round_end_lines(snap.get("next_positions"), lang)
        trav = snap.get("traveller")
        # with the traveller under it, the moves are set tighter so both fit
        self.panel.add_widget(Text(("\n" if trav else "\n\n").join(lines), size=24 if trav else 30))
        done = snap.get("done") or []
        latest = {r["board"]: r for r in done}  # a corrected result (L79C) replaces the earlier revision
        summary = "   ".join(f"{i18n.tr('board', lang)} {b}: {present.result_text(r, lang)}" for b, r in latest.items())
        self.panel.add_widget(Text(summary, size=20, color=MUTED))
        if trav:  # the club shows the board's other results (show_results `all` or `round_end`)
            self.panel.add_widget(traveller_panel(trav, (snap.get("session") or {}).get("table"), lang, size=17))
        self.next_btn = BigButton(i18n.tr("next_round", lang), BTN, size_hint_y=None, height=84)
        # the next round's setup (pairs, boards, the director's PIN) is the director's to start
        self.next_btn.bind(on_release=lambda *_: self.app.require_pin(self.next_round, "round_end"))
        self.panel.add_widget(self.next_btn)

    def next_round(self, pin: str = "") -> None:
        s = self.app.snap.get("session")
        failed = ""
        if self.app.next_setup is not None and s is not None and s.get("movement") == "station":
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
        setup.prefill(self.app.snap.get("session"), pin)
        setup.error.text = failed[:160]
        self.app.go("setup")


