"""The auction screen: the calls in four columns, readable across the table."""
from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from tablet_app import i18n, present
from tablet_app.ui.board_chooser import BoardChooser
from tablet_app.ui.theme import BTN, BTN_LIGHT, BTN_OK, BTN_WARN, NONVUL, VUL_RED, WHITE, set_bg
from tablet_app.ui.widgets import BigButton, CallCell, Facing, Panel, StillScrollView, Text, framed


class AuctionScreen(Screen):
    ROWS = 0  # no padding rows: the grid grows downwards from the top as the auction does

    def __init__(self, app: Any, **kw: Any):
        super().__init__(name="auction", **kw)
        self.app = app
        root = framed(self, app)
        body = BoxLayout(orientation="vertical", padding=(24, 14), spacing=10)
        self.heads: dict[str, Label] = {}
        head_row = GridLayout(cols=4, spacing=12, size_hint_y=None, height=74)
        for seat in present.COLUMNS:
            p = Panel(NONVUL, 12, orientation="vertical", padding=(4, 2))
            lbl = Text("", size=28, color=WHITE, bold=True, halign="center")
            p.add_widget(lbl)
            self.heads[seat] = lbl
            lbl.panel = p
            head_row.add_widget(p)
        body.add_widget(head_row)
        # Before the first call of a board: the players say which board is on the table.
        self.chooser = BoardChooser(app)
        body.add_widget(self.chooser)
        # no bar, and one colour for it at rest and in use: scrolling the auction changes no pixel
        self.scroll = StillScrollView(do_scroll_x=False, bar_width=0, bar_color=(0, 0, 0, 0),
                                      bar_inactive_color=(0, 0, 0, 0))
        self.grid = GridLayout(cols=4, spacing=12, size_hint_y=None, row_default_height=88, row_force_default=True)
        self.grid.bind(minimum_height=self.grid.setter("height"))
        self.scroll.add_widget(self.grid)
        # the board chooser above takes more or less height with the layout and a refusal shown
        self.pin_rows = 0
        self.scroll.bind(height=lambda *_: self._pin())
        body.add_widget(self.scroll)
        self.status = Panel(WHITE, 12, size_hint_y=None, height=70, padding=(18, 6))
        self.status_label = Text("", size=30, bold=True, halign="center")
        self.status.add_widget(self.status_label)
        body.add_widget(self.status)
        # obligations to pass, lead restrictions, exposed cards: on view until the board ends
        self.conseq = Text("", size=20, bold=True, color=(0.55, 0.20, 0.05, 1), size_hint_y=None, height=0)
        body.add_widget(self.conseq)
        # A tablet lying flat between the four players (docs/tablet.md, "A flat table"): a strip
        # along each edge, turned to that seat, says what that player needs to know.
        self.strips = {"N": Facing(180, size_hint_y=None, height=0), "S": Facing(0, size_hint_y=None, height=0),
                       "W": Facing(270, size_hint_x=None, width=0), "E": Facing(90, size_hint_x=None, width=0)}
        middle = BoxLayout()
        middle.add_widget(self.strips["W"])
        middle.add_widget(body)
        middle.add_widget(self.strips["E"])
        root.add_widget(self.strips["N"])
        root.add_widget(middle)
        root.add_widget(self.strips["S"])
        bar = BoxLayout(size_hint_y=None, height=96, padding=(24, 10), spacing=16)
        self.td_btn = BigButton("", BTN_WARN)
        self.td_btn.bind(on_release=lambda *_: app.go("director"))
        self.tempo_btn = BigButton("", BTN)
        # partner's think times are unauthorised information: the tempo view is the director's
        self.tempo_btn.bind(on_release=lambda *_: app.require_pin(lambda _pin: app.go("tempo"), "auction"))
        self.result_btn = BigButton("", BTN_OK)
        self.result_btn.bind(on_release=lambda *_: app.go("result"))
        # the players' member numbers, while they may type them (the round's first board, before
        # its first call); no width otherwise
        self.players_btn = BigButton("", BTN, size=22, size_hint_x=None, width=0, halign="center")
        self.players_btn.bind(on_release=lambda *_: app.screens["players"].open())
        self.players_btn.bind(width=lambda b, w: setattr(b, "text_size", (max(1, w - 16), None)))
        self.flat_btn = BigButton("", BTN_LIGHT, size_hint_x=0.6, halign="center")
        self.flat_btn.bind(on_release=lambda *_: app.toggle_flat())
        # the narrowest button: "Liggande platta" wraps onto two lines rather than being cut
        self.flat_btn.bind(width=lambda b, w: setattr(b, "text_size", (max(1, w - 16), None)))
        for b in (self.td_btn, self.players_btn, self.tempo_btn, self.result_btn, self.flat_btn):
            bar.add_widget(b)
        root.add_widget(bar)
        self.cells: list[CallCell] = []

    def director_button(self, snap: dict[str, Any], lang: str) -> None:
        """`Director`, or while the club's grace after the director left the console counts
        down, `Director (open 25 s)`: everyone at the table sees that it opens without the PIN."""
        grace = (snap.get("director") or {}).get("grace_s", 0)
        self.td_btn.text = i18n.tr("director_grace", lang, s=grace) if grace else i18n.tr("director", lang)

    def _pin(self) -> None:
        """Newest row in view: pin the grid to the top while it fits, else scroll to the bottom."""
        needed = self.pin_rows * (self.grid.row_default_height + 12)
        self.scroll.scroll_y = 1 if needed <= self.scroll.height else 0

    def refresh(self, snap: dict[str, Any], lang: str) -> None:
        self.topbar.refresh(snap, lang)
        self.chooser.refresh(snap, lang)
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
        self.pin_rows = len(rows)
        self._pin()
        self.status_label.text = present.status_line(snap, lang)
        lines = present.consequences(st, lang)
        self.conseq.text = "\n".join(lines)
        self.conseq.height = 28 * len(lines)
        frozen = snap.get("phase") == "frozen" or snap.get("held")
        set_bg(self.status, (1.0, 0.88, 0.80, 1) if frozen else WHITE)
        self.director_button(snap, lang)
        self.tempo_btn.text = i18n.tr("tempo", lang)
        self.result_btn.text = i18n.tr("result", lang)
        # the result entry after the auction; during the next board the last board's results, when
        # the club shows them (docs/player-guide.md), never before the table's own is in
        self.result_btn.disabled = snap.get("phase") not in ("play", "confirm") and not snap.get("traveller")
        self.result_btn.opacity = 0.4 if self.result_btn.disabled else 1
        may_enter = bool((snap.get("players") or {}).get("may_enter"))
        self.players_btn.width = 260 if may_enter else 0
        self.players_btn.opacity = 1 if may_enter else 0
        self.players_btn.disabled = not may_enter
        self.players_btn.text = i18n.tr("players_btn", lang) if may_enter else ""
        self.flat_btn.text = i18n.tr("layout_upright" if self.app.flat else "layout_flat", lang)
        for seat, strip in self.strips.items():
            thick = 64 if self.app.flat else 0
            if seat in "NS":
                strip.height = thick
            else:
                strip.width = thick
            strip.opacity = 1 if self.app.flat else 0
            strip.label.text = present.seat_strip(snap, seat, lang) if self.app.flat else ""
            strip.label.font_size = 22


