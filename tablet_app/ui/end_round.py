"""The director console's "End the round": one confirmation, then the table is on its next round.

The console asks the station for the table's next round of the movement (the players' own
round change asks the same, `station_client.next_round`), and shows one confirmation naming the
round that ends, the round that starts with its pairs (numbers and names) and boards, and what
the end leaves without a result from this table (`Controller.round_unfinished`: the board in play,
the boards not played; docs/laws/choices.md #42). Yes is `Controller.td_end_round(token,
session)`: both journalled in one transaction, the round item to the station `by: director`.
Without a next round from the station (a setup typed in, the station out of reach, the last
round) the round ends and the table waits at the round's end for the director's setup.

While a ruling is not finished (a decision the table waits for, or an adjusted score not yet
awarded) the console offers *End the round* under the Law's options too, and the confirmation
names the ruling, its Law and who it waits for, and what ending leaves: *Finish the ruling first*
goes back to the options, *End round N anyway* ends it with `leave_ruling` (the ruling journalled
with the round's end; docs/laws/choices.md #42).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from tablet_app import i18n, present
from tablet_app.ui.theme import BTN, BTN_LIGHT, BTN_OK, MUTED
from tablet_app.ui.widgets import BigButton, Grow, Text


class EndRoundTool:
    """Mixed into the DirectorScreen: uses its `app`, `side`, `draft`, `tool_buttons`, `_enter`,
    `_td` and `say`."""

    app: Any
    side: Any
    draft: dict[str, Any]
    tool_buttons: dict[str, Any]
    _enter: Callable[..., None]
    _td: Callable[..., bool]
    say: Callable[[Any], None]

    def _start_end_round(self) -> None:
        """The next round as the station's movement gives it (None: the director sets it up)."""
        shown, why = None, ""
        s = self.app.snap.get("session") or {}
        if getattr(self.app, "next_preview", None) is not None and s.get("movement") == "station":
            from tablet_app.station_client import StationError

            try:
                shown = self.app.next_preview()
            except (StationError, ValueError) as exc:  # down, or no next round: said, ended anyway
                why = str(exc)
        # what the end would leave, read once at the tap (the screen draws from the draft)
        self._enter("end_round", next=shown, why=why, left=self.app.controller.round_unfinished())

    def _end_round_button(self, snap: dict[str, Any], lang: str) -> None:
        """Under the Law's options: the round's end is the director's at any time (Law 8B1); the
        confirmation says what it does to the ruling."""
        ed = (snap.get("director_state") or snap.get("state") or {}).get("edition", 2017)
        b = BigButton(f"{i18n.tr('end_round_tool', lang)}  [size=16]{ed} L8B1[/size]", BTN_LIGHT, size=18,
                      size_hint_y=None, height=64)
        b.bind(on_release=lambda *_: self._start_end_round())
        self.tool_buttons["end_round"] = b
        self.side.add_widget(b)

    @staticmethod
    def _ruling_lines(ruling: dict[str, Any], lang: str) -> list[str]:
        """The ruling not finished: what it is with its Law, who it waits for, what the end does."""
        kind = ruling["kind"]
        what = i18n.tr("end_round_ruling_adjusted", lang) if kind == "adjusted_score" else i18n.decision_name(kind, lang)
        lines = [f"[b][color=cc141f]{i18n.tr('end_round_ruling', lang, board=ruling['board'], what=what, law=ruling['law'])}"
                 "[/color][/b]"]
        if ruling.get("asks") == "lho":
            lines.append(i18n.tr("end_round_ruling_lho", lang, seat=present.seat_names(ruling, lang)["lho"]))
        else:
            lines.append(i18n.tr("end_round_ruling_td", lang))
        lines.append(i18n.tr("end_round_ruling_left", lang, board=ruling["board"]))
        return lines

    def _end_round_panel(self, snap: dict[str, Any], lang: str) -> None:
        s = snap.get("session") or {}
        left = self.draft.get("left") or {"round": s.get("round"), "in_play": None, "without_result": []}
        ruling = left.get("ruling")
        shown = self.draft.get("next")
        lines = self._ruling_lines(ruling, lang) if ruling else []
        if shown is not None:
            nxt, names = shown.session, shown.names
            lines.append(f"[b]{i18n.tr('end_round_next', lang, round=nxt.round)}[/b]")
            for side, pair, seats in (("setup_ns", nxt.ns_pair, "NS"), ("setup_ew", nxt.ew_pair, "EW")):
                lines.append(i18n.tr("round_confirm_pair", lang, side=i18n.tr(side, lang), pair=pair,
                                     names=" – ".join(names[x] for x in seats if x in names) or "–"))
            lines.append(f"{i18n.tr('boards', lang)}: {', '.join(map(str, nxt.boards))}")
        else:
            lines.append(i18n.tr("end_round_setup", lang))
        if left["in_play"] is not None:
            lines.append(i18n.tr("end_round_in_play", lang, board=left["in_play"]))
        if left["without_result"]:
            boards = ", ".join(map(str, left["without_result"]))
            lines.append(f"[color=cc141f]{i18n.tr('end_round_left', lang, boards=boards)}[/color]")
        else:
            lines.append(i18n.tr("end_round_all_done", lang))
        self.side.add_widget(Text(i18n.tr("end_round_title", lang, ended=left["round"], table=s.get("table", "")),
                                  size=22, bold=True, size_hint_y=None, height=40))
        self.side.add_widget(Grow("\n".join(lines), size=20))
        if self.draft.get("why"):
            self.side.add_widget(Grow(self.draft["why"][:160], size=16, color=MUTED))
        row = BoxLayout(spacing=10, size_hint_y=None, height=84)
        # with a ruling not finished, finishing it is the way the Law expects: it is the bright one
        back = BigButton(i18n.tr("end_round_finish_first" if ruling else "back", lang), BTN_OK if ruling else BTN_LIGHT,
                         size=20, size_hint_x=0.45 if ruling else 0.35)
        back.halign = "center"
        back.bind(size=lambda w, *_: setattr(w, "text_size", (w.width - 16, None)))
        back.bind(on_release=lambda *_: self._leave_end_round())
        yes_key = {(False, False): "end_round_yes", (True, False): "end_round_yes_next",
                   (False, True): "end_round_yes_leave", (True, True): "end_round_yes_next_leave"}[
            (shown is not None, bool(ruling))]
        yes = BigButton(i18n.tr(yes_key, lang, ended=left["round"], round=shown.session.round if shown is not None else ""),
                        BTN if ruling else BTN_OK, size=20)
        yes.halign = "center"
        yes.bind(size=lambda w, *_: setattr(w, "text_size", (w.width - 16, None)))
        yes.bind(on_release=lambda *_: self._end_round())
        self.tool_buttons["end_round_back"], self.tool_buttons["end_round_yes"] = back, yes
        row.add_widget(back)
        row.add_widget(yes)
        self.side.add_widget(row)
        self.side.add_widget(Widget())

    def _leave_end_round(self) -> None:
        self.say(None)  # a refusal said here (a ruling raised since) is over with the panel
        self._enter(None)

    def _end_round(self) -> None:
        shown = self.draft.get("next")
        ended = (self.app.snap.get("session") or {}).get("round")
        # only a ruling the confirmation showed is left; one raised since is refused and said
        leave = bool((self.draft.get("left") or {}).get("ruling"))

        def end(token: str) -> None:
            self.app.controller.td_end_round(token, shown.session if shown is not None else None, leave_ruling=leave)

        if self._td(end, refresh=False):
            self._enter(None, refresh=False)
            if shown is not None:
                s = shown.session
                self.app.notify("round_moved", ended=ended, round=s.round, ns=s.ns_pair, ew=s.ew_pair)
        else:
            # refused (said): a ruling raised since the confirmation was drawn is shown on it now
            self.draft["left"] = self.app.controller.round_unfinished()
        self.app.refresh()  # the new round's first board (the auction), or the round's end
