"""The round end: where pairs and boards go next."""
from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from tablet_app import i18n, present
from tablet_app.ui.theme import BTN, BTN_OK, MUTED, WHITE
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
        # The next round as the station's movement gives it, shown for the players to confirm
        # (station_client.NextRound); None: the round's end is shown.
        self.shown: Any = None
        self.said = ""  # why the players' round change did not go (the Refused's text)

    def on_leave(self, *_: Any) -> None:
        self.shown, self.said = None, ""

    def refresh(self, snap: dict[str, Any], lang: str) -> None:
        self.topbar.refresh(snap, lang)
        self.panel.clear_widgets()
        if self.shown is not None:
            self._confirm_panel(lang)
            return
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
        self.next_btn.bind(on_release=lambda *_: self.players_next())
        self.panel.add_widget(self.next_btn)

    def players_next(self) -> None:
        """The players move on: the next round of the station's movement, shown for them to
        confirm. Without a station's movement (a setup typed in) or when the station cannot say
        (down, the last round), the next round is the director's (PIN), as it always was."""
        s = self.app.snap.get("session")
        if getattr(self.app, "next_preview", None) is not None and s is not None and s.get("movement") == "station":
            from tablet_app.station_client import StationError

            try:
                self.shown = self.app.next_preview()
            except (StationError, ValueError):
                self.shown = None
            if self.shown is not None:
                self.refresh(self.app.snap, self.app.lang)
                return
        self.app.require_pin(self.next_round, "round_end")

    def _confirm_panel(self, lang: str) -> None:
        s, names = self.shown.session, self.shown.names
        boards = ", ".join(map(str, s.boards))
        self.panel.add_widget(Text(i18n.tr("round_confirm_title", lang, round=s.round, table=s.table),
                                   size=32, bold=True, size_hint_y=None, height=60))
        lines = [i18n.tr("round_confirm_pair", lang, side=i18n.tr("setup_ns", lang), pair=s.ns_pair,
                         names=" – ".join(names[x] for x in "NS" if x in names) or "–"),
                 i18n.tr("round_confirm_pair", lang, side=i18n.tr("setup_ew", lang), pair=s.ew_pair,
                         names=" – ".join(names[x] for x in "EW" if x in names) or "–"),
                 f"{i18n.tr('boards', lang)}: {boards}"]
        self.panel.add_widget(Text("\n\n".join(lines), size=28))
        self.panel.add_widget(Text(self.said or i18n.tr("round_confirm_ask", lang), size=20, color=MUTED,
                                   size_hint_y=None, height=60))
        row = BoxLayout(size_hint_y=None, height=84, spacing=16)
        self.confirm_btn = BigButton(i18n.tr("round_confirm_ok", lang), BTN_OK)
        self.confirm_btn.bind(on_release=lambda *_: self.confirm())
        # Not the pairs the movement gives: the director's (he instructs the movement, Law 8A1)
        self.wrong_btn = BigButton(i18n.tr("round_confirm_td", lang), BTN)
        self.wrong_btn.bind(on_release=lambda *_: self.director())
        row.add_widget(self.confirm_btn)
        row.add_widget(self.wrong_btn)
        self.panel.add_widget(row)

    def confirm(self) -> None:
        """The players confirmed the pairs shown: the round starts (no PIN)."""
        assert self.app.controller is not None and self.shown is not None
        try:
            self.app.controller.next_round(self.shown.session)
        except ValueError as exc:  # Refused, SetupError, DiskFull: said, nothing changed
            self.said = i18n.error_text(exc, self.app.lang)[:200]
            self.refresh(self.app.snap, self.app.lang)
            return
        self.shown, self.said = None, ""
        self.app.refresh()  # the next round's first board: the auction screen

    def director(self) -> None:
        self.shown, self.said = None, ""
        self.refresh(self.app.snap, self.app.lang)
        self.app.require_pin(self.next_round, "round_end")

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


