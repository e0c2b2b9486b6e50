"""The director console's assigned adjusted score (Law 12C1): which board, then each result the
score is made of (contract, declarer, tricks, its weight in percent), for both sides at once or
each side apart, then Award. One result of 100 % is an assigned score; several adding up to
100 % a weighted one, where the regulation lets the director weight (the controller decides and
says why not: tablet_app/assigned.py). A board already played this round asks why, as any
change to an agreed result does. Buttons are named in the console's `tool_buttons` (`a...`) so
the UI tests press them as the director does."""
from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from shared_rules import laws
from shared_rules.types import SEATS
from tablet_app import i18n, present
from tablet_app.ui.theme import BTN, BTN_LIGHT, BTN_OK, RED_SUIT
from tablet_app.ui.widgets import BigButton, StillScrollView, Text

DENOMS = ("C", "D", "H", "S", "NT")
IN_PLAY = ("auction", "frozen", "play", "confirm")
ROW = 46


def _blank(weight: int = 100) -> dict[str, Any]:
    return {"level": None, "denom": None, "stake": "", "declarer": None, "tricks": None, "weight": weight}


class AssignPanel:
    """Draws into the console's side panel; `draft` lives on the console (`screen.draft`)."""

    def __init__(self, screen: Any):
        self.screen = screen
        self.column = BoxLayout()  # the rows of the score being made, drawn afresh on each refresh

    @property
    def d(self) -> dict[str, Any]:
        return self.screen.draft

    def start(self) -> None:
        self.screen._enter("assign", board=None, apart=False, side="ns", lists={"ns": [], "ew": []}, cur=_blank())

    # -- drawing ---------------------------------------------------------------------------------
    def draw(self, snap: dict[str, Any], lang: str) -> None:
        if self.d.get("board") is None:
            self._boards(snap, lang)
            return
        edition = (snap.get("director_state") or snap.get("state") or {}).get("edition", 2017)
        side = self.screen.side
        law = laws.ADJUSTED_SCORE[edition]
        side.add_widget(Text(f"{i18n.tr('board', lang)} {self.d['board']}  \u00b7  {i18n.tr('tool_assigned', lang)} "
                             f"[color=66727f]({law['assigned']}, {law['weighted']}, {law['split']})[/color]",
                             size=16, bold=True, size_hint_y=None, height=44))
        # what the score is made of scrolls if the list grows; Back and Award stay in view
        column = BoxLayout(orientation="vertical", spacing=6, size_hint_y=None)
        column.bind(minimum_height=column.setter("height"))
        self.column = column
        self._sides(lang)
        self._contract_rows(lang)
        self._listed(lang)
        scroll = StillScrollView(do_scroll_x=False)
        scroll.add_widget(column)
        side.add_widget(scroll)
        row = BoxLayout(spacing=8, size_hint_y=None, height=56)
        back = BigButton(i18n.tr("back", lang), BTN_LIGHT, size=18)
        back.bind(on_release=lambda *_: self.screen._enter(None))
        award = BigButton(i18n.tr("award", lang), BTN_OK, size=20)
        award.disabled = not self._outcomes("ns")
        award.bind(on_release=lambda *_: self.award())
        self._name("aback", back)
        self._name("aaward", award)
        row.add_widget(back)
        row.add_widget(award)
        side.add_widget(row)

    def _name(self, name: str, b: BigButton) -> BigButton:
        self.screen.tool_buttons[name] = b
        return b

    def _button(self, name: str, label: str, on: bool, act: Any, size: int = 18) -> BigButton:
        b = self._name(name, BigButton(label, BTN if on else BTN_LIGHT, size=size))
        b.halign = "center"  # a long word pair ("Varje sida för sig") wraps inside its button
        b.bind(size=lambda w, *_: setattr(w, "text_size", (w.width - 6, None)))
        b.bind(on_release=lambda *_: act())
        return b

    def _boards(self, snap: dict[str, Any], lang: str) -> None:
        side = self.screen.side
        side.add_widget(Text(i18n.tr("which_board", lang), size=20, bold=True, size_hint_y=None, height=34))
        choice = snap.get("board_choice") or {}
        current, played = choice.get("current"), set(choice.get("played") or [])
        if current is not None and snap.get("phase") in IN_PLAY and current not in played:
            b = self._button(f"aboard{current}", i18n.tr("assign_on_table", lang, board=current), False,
                             lambda: self._pick_board(current), size=20)
            b.size_hint_y, b.height = None, 64
            side.add_widget(b)
        latest = {r["board"]: r for r in snap.get("done", [])}
        for board in choice.get("boards", []):
            if board in played and board in latest:
                b = self._button(f"aboard{board}", f"{i18n.tr('board', lang)} {board}: "
                                 f"{present.result_text(latest[board], lang)}", False,
                                 lambda board=board: self._pick_board(board), size=20)
                b.size_hint_y, b.height = None, 64
                side.add_widget(b)
        side.add_widget(Widget())

    def _sides(self, lang: str) -> None:
        row = GridLayout(cols=4, spacing=6, size_hint_y=None, height=ROW)
        row.add_widget(self._button("aboth", i18n.tr("assign_both", lang), not self.d["apart"],
                                    lambda: self._set(apart=False, side="ns"), 16))
        row.add_widget(self._button("aapart", i18n.tr("assign_apart", lang), self.d["apart"],
                                    lambda: self._set(apart=True), 16))
        if self.d["apart"]:
            for s in ("ns", "ew"):
                row.add_widget(self._button(f"aside_{s}", i18n.tr(f"assign_{s}", lang), self.d["side"] == s,
                                            lambda s=s: self._set(side=s), 16))
        self.column.add_widget(row)

    def _contract_rows(self, lang: str) -> None:
        cur, column = self.d["cur"], self.column
        row = GridLayout(cols=8, spacing=6, size_hint_y=None, height=ROW)
        for n in range(1, 8):
            row.add_widget(self._button(f"alevel{n}", str(n), cur["level"] == n, lambda n=n: self._cur(level=n), 22))
        row.add_widget(self._button("apass", i18n.tr("pass", lang), cur["level"] == 0,
                                    lambda: self._cur(level=0, denom=None, stake="", declarer=None, tricks=None)))
        column.add_widget(row)
        row = GridLayout(cols=7, spacing=6, size_hint_y=None, height=ROW)
        for d in DENOMS:
            b = self._button(f"adenom{d}", present.call_text("1" + d, lang)[1:], cur["denom"] == d,
                             lambda d=d: self._cur(denom=d), 22)
            if d in "DH" and cur["denom"] != d:
                b.color = RED_SUIT
            row.add_widget(b)
        for x in ("X", "XX"):
            row.add_widget(self._button(f"astake{x}", x, cur["stake"] == x,
                                        lambda x=x: self._cur(stake="" if cur["stake"] == x else x), 20))
        column.add_widget(row)
        row = GridLayout(cols=4, spacing=6, size_hint_y=None, height=ROW)
        for s in SEATS:
            row.add_widget(self._button(f"adecl{s}", i18n.seat_name(s, lang), cur["declarer"] == s,
                                        lambda s=s: self._cur(declarer=s)))
        column.add_widget(row)
        row = GridLayout(cols=14, spacing=4, size_hint_y=None, height=ROW)
        for n in range(14):
            row.add_widget(self._button(f"atricks{n}", str(n), cur["tricks"] == n, lambda n=n: self._cur(tricks=n), 18))
        column.add_widget(row)
        row = BoxLayout(spacing=6, size_hint_y=None, height=ROW)
        for label, step in (("-10", -10), ("-5", -5)):
            b = self._button(f"aweight{label}", label, False, lambda step=step: self._weigh(step))
            b.size_hint_x, b.width = None, 58
            row.add_widget(b)
        row.add_widget(Text(i18n.tr("assign_weight", lang, weight=cur["weight"]), size=17, bold=True,
                            halign="center"))
        for label, step in (("+5", 5), ("+10", 10)):
            b = self._button(f"aweight{label}", label, False, lambda step=step: self._weigh(step))
            b.size_hint_x, b.width = None, 58
            row.add_widget(b)
        add = self._button("aadd", i18n.tr("assign_add", lang), False, self.add, 17)
        add.size_hint_x, add.width = None, 190
        add.disabled = self._complete(cur) is None
        row.add_widget(add)
        column.add_widget(row)

    def _listed(self, lang: str) -> None:
        given = self.d["lists"][self.d["side"]]
        for i, o in enumerate(given):
            row = BoxLayout(spacing=6, size_hint_y=None, height=38)
            row.add_widget(Text(f"{o['weight']} %  {present.outcome_text(o, lang)}", size=18))
            b = self._button(f"aremove{i}", i18n.tr("assign_remove", lang), False, lambda i=i: self._remove(i), 16)
            b.size_hint_x, b.width = None, 120
            row.add_widget(b)
            self.column.add_widget(row)
        if given:
            total = sum(o["weight"] for o in given)
            self.column.add_widget(Text(i18n.tr("assign_total", lang, total=total), size=18, bold=True,
                                        size_hint_y=None, height=28))

    # -- what the director picks ---------------------------------------------------------------------
    def _pick_board(self, board: int) -> None:
        self.d["board"] = board
        self.screen.app.refresh()

    def _set(self, **kw: Any) -> None:
        self.d.update(kw)
        given = self.d["lists"][self.d["side"]]
        self.d["cur"] = _blank(max(5, 100 - sum(o["weight"] for o in given)))  # another side: its own
        self.screen.app.refresh()

    def _cur(self, **kw: Any) -> None:
        cur = self.d["cur"]
        if kw.get("level") and cur["level"] == 0:
            kw.setdefault("denom", None)
        cur.update(kw)
        self.screen.app.refresh()

    def _weigh(self, step: int) -> None:
        cur = self.d["cur"]
        cur["weight"] = max(5, min(100, cur["weight"] + step))
        self.screen.app.refresh()

    @staticmethod
    def _complete(cur: dict[str, Any]) -> dict[str, Any] | None:
        """The outcome being put together, once it is whole; None until then."""
        if cur["level"] == 0:
            return {"contract": "PASS", "weight": cur["weight"]}
        if None in (cur["level"], cur["denom"], cur["declarer"], cur["tricks"]):
            return None
        return {"contract": f"{cur['level']}{cur['denom']}{cur['stake']}", "declarer": cur["declarer"],
                "tricks": cur["tricks"], "weight": cur["weight"]}

    def add(self) -> None:
        whole = self._complete(self.d["cur"])
        if whole is None:
            return
        given = self.d["lists"][self.d["side"]]
        given.append(whole)
        self.d["cur"] = _blank(max(5, 100 - sum(o["weight"] for o in given)))
        self.screen.app.refresh()

    def _remove(self, i: int) -> None:
        given = self.d["lists"][self.d["side"]]
        del given[i]
        self.d["cur"]["weight"] = max(5, 100 - sum(o["weight"] for o in given))  # what is left to weigh
        self.screen.app.refresh()

    def _outcomes(self, side: str) -> list[dict[str, Any]]:
        """A side's results as the controller takes them: those added, and the one being put
        together when it is whole and nothing was added yet (one result: the assigned score)."""
        given = list(self.d["lists"][side])
        whole = self._complete(self.d["cur"]) if side == self.d["side"] else None
        if not given and whole is not None:
            given.append(whole)
        return given

    def award(self) -> None:
        d = self.d
        board, ns = d["board"], self._outcomes("ns")
        ew = self._outcomes("ew") if d["apart"] else None
        ctl = self.screen.app.controller

        def sent(lang: str) -> str:
            return f"[color=2a8c4d]{i18n.tr('assign_sent', lang, board=board)}[/color]"

        snap = self.screen.app.snap
        choice = snap.get("board_choice") or {}
        if board == choice.get("current") and snap.get("phase") in IN_PLAY and board not in (choice.get("played") or []):
            if self.screen._td(lambda pin: ctl.td_assigned_score(pin, board, ns, ew) and sent, refresh=False):
                self.screen._enter(None, refresh=False)  # a refusal keeps what he picked, to mend it
            self.screen.app.refresh()
            return

        def rule(pin: str, why: str) -> Any:
            ctl.td_assigned_score(pin, board, ns, ew, reason=why)
            return sent

        self.screen._ask_reason(lambda lang: f"{i18n.tr('tool_assigned', lang)}: {i18n.tr('board', lang)} {board}", rule)
