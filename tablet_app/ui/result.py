"""Result entry: North enters tricks and the lead, the other side confirms."""
from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from tablet_app import i18n, present
from tablet_app.ui.theme import BTN, BTN_LIGHT, BTN_OK, BTN_WARN, RED_SUIT, STOP_RED, WHITE
from tablet_app.ui.traveller import traveller_panel
from tablet_app.ui.widgets import BigButton, Panel, Text, framed


class ResultScreen(Screen):
    def __init__(self, app: Any, **kw: Any):
        super().__init__(name="result", **kw)
        self.app = app
        self.tricks: int | None = None
        self.suit: str | None = None
        self.rank: str | None = None
        # (board, text, translation key): a message belongs to its board, and a key follows a
        # language switch
        self.message: tuple[int | None, str, str | None] = (None, "", None)
        self.error: BaseException | None = None
        root = framed(self, app)
        self.body = BoxLayout(orientation="vertical", padding=(24, 14), spacing=12)
        root.add_widget(self.body)
        self.trick_buttons: dict[int, Button] = {}
        self.lead_buttons: dict[str, Button] = {}
        self.enter_btn: Button | None = None
        self.confirm_btn: Button | None = None
        self.dispute_btn: Button | None = None
        self.back_btn: Button | None = None
        self.confirmed: int | None = None  # the board just confirmed, whose results are awaited

    def _back(self) -> None:
        self.confirmed = None
        self.app.go("auction")

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
            self._say("")
        except ValueError as exc:
            self._say(i18n.error_text(exc, "en"), error=exc)
        self.app.refresh()

    def _say(self, text: str, key: str | None = None, error: BaseException | None = None) -> None:
        self.message = (self.app.snap.get("board"), text, key)
        self.error = error  # shown in the language of the moment

    def confirm(self, ok: bool) -> None:
        snap = self.app.snap
        board = snap.get("board")
        entered = snap.get("result") or {}
        rec = None
        try:
            rec = self.app.controller.ew_confirm(ok)
            if rec:
                # the table has moved on: the confirmation is shown on the next screen's bar
                self.app.notify("result_sent", board=board, score=f"{rec['score_ns']:+d}")
                self._say("")
            else:
                self._say("", "not_agreed")  # back to North, and it says so
        except ValueError as exc:
            self._say(str(exc), error=exc)
        if rec is None and not ok:
            # Not agreed: North's entry stays chosen, to correct what is wrong in it
            lead = entered.get("lead") or ""
            self.tricks = entered.get("tricks")
            self.suit, self.rank = (lead[:1], lead[1:]) if lead else (None, None)
        else:
            self.tricks = None
            self.suit = self.rank = None
        self.app.refresh()
        if rec and self.app.sm.current == "auction" and self._shows_results():
            # the club shows all results: the board's traveller right after the confirmation,
            # drawn when the station's copy arrives; Back goes on to the next board's auction
            self.confirmed = board
            self.app.go("result")

    def _shows_results(self) -> bool:
        return ((self.app.snap.get("settings") or {}).get("show_results")) == "all"

    def refresh(self, snap: dict[str, Any], lang: str) -> None:
        self.topbar.refresh(snap, lang)
        self.body.clear_widgets()
        res = snap.get("result")
        summary = Panel(WHITE, 14, size_hint_y=None, height=96, padding=(20, 8), spacing=20)
        self.body.add_widget(summary)
        board, text, key = self.message
        if board != snap.get("board"):
            text = ""
        elif key:
            text = i18n.tr(key, lang)
        elif self.error is not None:
            text = i18n.error_text(self.error, lang)
        if not res:
            trav = snap.get("traveller")
            if not text and self.confirmed is not None and (trav or {}).get("board") != self.confirmed:
                text = i18n.tr("trav_coming", lang, board=self.confirmed)  # the station's copy is on its way
            summary.add_widget(Text(text or present.status_line(snap, lang), size=26, bold=True))
            # (BigButton's `size` is its font size: the button's own size goes as width and height)
            self.back_btn = BigButton(i18n.tr("back", lang), BTN_LIGHT, size_hint=(None, None), width=220, height=70)
            self.back_btn.bind(on_release=lambda *_: self._back())
            self.body.add_widget(self.back_btn)
            if trav:  # the board just played, with the other tables' results (club's show_results)
                self.body.add_widget(traveller_panel(trav, (snap.get("session") or {}).get("table"), lang))
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
        lines = present.consequences(snap.get("state") or {}, lang)  # lead restrictions, penalty cards
        if lines:
            self.body.add_widget(Text("\n".join(lines), size=20, bold=True, color=(0.55, 0.20, 0.05, 1),
                                      size_hint_y=None, height=28 * len(lines)))
        self.message_label = Text(text, size=22, bold=True, color=STOP_RED, size_hint_y=None, height=34)
        self.body.add_widget(self.message_label)

    def _entry_panel(self, res: dict[str, Any], lang: str) -> None:
        passed = res["contract"] == "PASS"
        if not passed:
            self.body.add_widget(Text(i18n.tr("tricks", lang), size=22, bold=True, size_hint_y=None, height=34))
            grid = GridLayout(cols=7, spacing=8, size_hint_y=None, height=150)
            self.trick_buttons = {}
            for n in range(14):
                b = BigButton(str(n), BTN if self.tricks == n else BTN_LIGHT, size=30)
                b.n = n
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
                b.key = s
                b.bind(on_release=lambda btn: self.set_lead(btn.key))
                self.lead_buttons[s] = b
                lead.add_widget(b)
            lead.add_widget(Widget())
            for r in ("A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"):
                b = BigButton(present.rank_text(r, lang), BTN if self.rank == r else BTN_LIGHT, size=24)
                b.key = r
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
            lines.append(f"{i18n.tr('lead', lang).split('(')[0].strip()}: [b]{suit}{present.rank_text(lead[1:], lang)}[/b]")
        p.add_widget(Text("\n".join(lines), size=28, halign="center"))
        # East-West confirm: their own score, large; North-South's beside it (FSB 98A)
        score = res.get("score_ns", 0)
        p.add_widget(Text(i18n.tr("ew_check", lang), size=24, bold=True, halign="center"))
        p.add_widget(Text(f"{i18n.tr('score_ew', lang)}:  [b][size=72]{-score:+d}[/size][/b]      "
                          f"[color=66727f]{i18n.tr('score_ns', lang)}: {score:+d}[/color]", size=30, halign="center"))
        self.body.add_widget(p)
        bar = BoxLayout(size_hint_y=None, height=96, spacing=16)
        self.dispute_btn = BigButton(i18n.tr("ew_dispute", lang), BTN_WARN, size_hint_x=0.4)
        self.dispute_btn.bind(on_release=lambda *_: self.confirm(False))
        self.confirm_btn = BigButton(i18n.tr("ew_confirm", lang), BTN_OK)
        self.confirm_btn.bind(on_release=lambda *_: self.confirm(True))
        bar.add_widget(self.dispute_btn)
        bar.add_widget(self.confirm_btn)
        self.body.add_widget(bar)


