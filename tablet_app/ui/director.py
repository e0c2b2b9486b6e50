"""The director console: PIN, the Law's options at an irregularity, the TD's own tools.

Only the director rules: the console shows the Law's options and the TD's tools only to a
director signed in with the PIN, and signs him out however it is left (Back, the ruling made and
the table back to the auction, another board or round, a timeout, the app in the background):
`on_pre_leave`. Each time it opens (`on_pre_enter`) the PIN is asked again, unless the club's
grace after the director left is still counting down (tablet_app/control/director_session.py).
Players see what happened and that the director is called."""
from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from shared_rules import laws
from shared_rules.types import SEATS, Resolution
from tablet_app import i18n, present
from tablet_app.ui.assign_panel import AssignPanel
from tablet_app.ui.end_round import EndRoundTool
from tablet_app.ui.pin_gate import PinEntry, pin_pad
from tablet_app.ui.td_players import TdPlayersPanel
from tablet_app.ui.theme import BTN, BTN_LIGHT, BTN_OK, MUTED, RED_SUIT, WHITE
from tablet_app.ui.widgets import (
    BigButton,
    CallPicker,
    Grow,
    Panel,
    StillScrollView,
    Text,
    framed,
    message_bar,
)


class DirectorScreen(EndRoundTool, PinEntry, Screen):
    def __init__(self, app: Any, **kw: Any):
        super().__init__(name="director", **kw)
        self.app = app
        self.pin = ""
        self.unlocked = False
        # What the director is doing, one thing at a time: None (the menu), "option" (a Law option
        # that needs a replacement call), "correct" (L25A), "adjust" (L12C2), "fix" (L79C),
        # "exposed" (L24), "wrong_call" (2007 L17D / 2017 L15A), "wrong_board" (2007 L15C /
        # 2017 L15B), "withdraw" and "move" (a result on the wrong board), "board" (the board on the
        # table), "reason" (why, for a change to a result), "end_round" (Law 8B1, ui/end_round.py),
        # "assign" (an assigned adjusted score, L12C1), "players" (member numbers after the first
        # call); `draft` holds what has been picked so far.
        self.mode: str | None = None
        self.draft: dict[str, Any] = {}
        self.tool_buttons: dict[str, Button] = {}
        root = framed(self, app)
        body = BoxLayout(padding=(24, 16), spacing=20)
        left = Panel(WHITE, 14, orientation="vertical", padding=(20, 14), spacing=8, size_hint_x=0.48)
        # as tall as its lines: "Tävlingsledare · 2007 L27" is wider than the panel, and a fixed
        # line showed only "L27"
        self.title = Grow("", size=24, bold=True)
        left.add_widget(self.title)
        # Every irregularity of the board and every consequence, whole: the list scrolls, it is
        # never cut to the last few lines or clipped at the panel's edge.
        column = BoxLayout(orientation="vertical", size_hint_y=None, spacing=6)
        column.bind(minimum_height=column.setter("height"))
        self.happened_head = Text("", size=20, color=MUTED, bold=True, size_hint_y=None, height=30)
        self.happened = Grow("", size=22)
        self.conseq_head = Text("", size=20, color=MUTED, bold=True, size_hint_y=None, height=30)
        self.conseq = Grow("", size=22)
        # Where the results stand: the TD is the one who tells the scorer about a refused item.
        self.delivery_head = Text("", size=20, color=MUTED, bold=True, size_hint_y=None, height=30)
        self.delivery = Grow("", size=18)
        for w in (self.happened_head, self.happened, self.conseq_head, self.conseq, self.delivery_head, self.delivery):
            column.add_widget(w)
        scroll = StillScrollView(do_scroll_x=False)
        scroll.add_widget(column)
        left.add_widget(scroll)
        body.add_widget(left)
        self.side = Panel(WHITE, 14, orientation="vertical", padding=(20, 14), spacing=10)
        body.add_widget(self.side)
        root.add_widget(body)
        message_bar(self, root, lambda: self.leave())
        self.pin_buttons: dict[str, Button] = {}
        self.option_buttons: list[Button] = []
        self.picker: CallPicker | None = None
        # the reason for a change to a result, in the director's own words (or a ready phrase)
        self.reason_input = TextInput(multiline=False, font_size=22, size_hint_y=None, height=56,
                                      padding=(10, 12), write_tab=False)
        self.assign = AssignPanel(self)  # the assigned adjusted score (Law 12C1): ui/assign_panel.py
        self.td_players = TdPlayersPanel(self)  # member numbers after the first call: ui/td_players.py

    def say(self, said: Any) -> None:
        """The console's message, as a function of the language: it follows a language switch."""
        self.said = said
        self.message.text = said(self.app.lang) if said is not None else ""

    said: Any = None

    def _enter(self, mode: str | None, refresh: bool = True, **draft: Any) -> None:
        self.mode, self.draft = mode, draft
        if refresh:
            self.app.refresh()

    # -- PIN and the director's sitting ----------------------------------------------------------------
    def on_pre_enter(self, *_: Any) -> None:
        """The console opens: signed in only if the director's sitting is on, or the club's grace
        after he left it is still counting down; else the PIN pad."""
        self.pin = ""
        self._enter(None, refresh=False)
        self.say(None)
        token = self.credential
        self.unlocked = token is not None and self.app.controller.resume(token)
        if not self.unlocked:
            self.credential = None

    def on_pre_leave(self, *_: Any) -> None:
        """However the console is left, the director is signed out (the token is kept for the
        club's grace, in which the console reopens without the PIN)."""
        if self.credential is not None and self.app.controller is not None:
            self.app.controller.sign_out(self.credential)
        self.unlocked = False
        self.pin = ""
        self._enter(None, refresh=False)

    def on_touch_down(self, touch: Any) -> bool:
        if self.unlocked and self.credential is not None:
            self.app.controller.director_touch(self.credential)  # not idle: the console stays signed in
        return bool(super().on_touch_down(touch))

    def end_sitting(self) -> None:
        """The app goes to the background: signed out, with no grace."""
        if self.credential is not None and self.app.controller is not None:
            self.app.controller.sign_out(self.credential, grace=False)
        self.unlocked, self.credential = False, None

    def _sitting_over(self, snap: dict[str, Any]) -> bool:
        """The controller ended the sitting under the console (the table moved on, the console sat
        idle): resumed within the club's grace, else signed out; True when the console closes."""
        if not self.unlocked or (snap.get("director") or {}).get("signed_in"):
            return False
        token = self.credential
        if token is not None and self.app.controller.resume(token):
            return False  # a new irregularity within the grace: still the director's
        self.unlocked, self.credential = False, None
        self._enter(None, refresh=False)
        self.say(lambda lang: i18n.tr("signed_out", lang))
        if snap.get("phase") != "frozen":
            self.app.go("auction")  # nothing waits for the director here: the table's screen
            return True
        return False

    def press_unlock(self) -> None:
        ctl = self.app.controller
        try:
            # the token the TD actions take instead of the PIN (memory only)
            self.credential = ctl.sign_in(self.pin)
        except ValueError as exc:  # PinError, PinLocked: said, in the director's language
            self.credential = None
            self.say(lambda lang, exc=exc: i18n.error_text(exc, lang))
        else:
            if self.credential is None:
                self.say(lambda lang: i18n.tr("pin_wrong", lang))
            else:
                self.say(lambda lang: f"[color=2a8c4d]{i18n.tr('pin_ok', lang)}[/color]")
        self.unlocked = self.credential is not None  # the boxes' calls stay open until he dismisses them
        self.pin = ""
        self.app.refresh()

    credential: str | None = None

    def choose(self, option: dict[str, Any]) -> None:
        if option.get("needs_call"):
            # the offender showed the stop card before the call being replaced: the replacement is
            # taken as made with it unless the director says otherwise (FSB L116B)
            snap = self.app.snap
            seat = ((snap.get("director_state") or snap.get("state") or {}).get("pending") or {}).get("seat")
            self._enter("option", option=option, call=None, stop=seat in (snap.get("stop_shown") or {}))
            return
        self._decide(option["id"], None)

    def pick_call(self, call: str) -> None:
        # one tap only picks: the call is applied when the director confirms it, and until then
        # another call or another option can be chosen (a mis-tap records nothing)
        if self.mode == "option":
            self.draft["call"] = call
            self.app.refresh()

    def confirm_call(self) -> None:
        if self.mode == "option" and self.draft.get("call"):
            self._decide(self.draft["option"]["id"], self.draft["call"], bool(self.draft.get("stop")))

    def toggle_stop(self) -> None:
        """With or without the stop card. The replacement call (option): on/off. The corrected call
        (L25A): as the replaced call was made (None), then with, then without."""
        if self.mode == "option":
            self.draft["stop"] = not self.draft.get("stop")
        elif self.mode == "correct":
            self.draft["stop"] = {None: True, True: False, False: None}[self.draft.get("stop")]
        self.app.refresh()

    def _stop_toggle(self, lang: str) -> None:
        stop = self.draft.get("stop")
        key = {None: "stop_as_made", True: "stop_with", False: "stop_without"}[stop]
        b = BigButton(i18n.tr(key, lang), BTN if stop else BTN_LIGHT, size=18, size_hint_y=None, height=56)
        b.bind(on_release=lambda *_: self.toggle_stop())
        self.tool_buttons["stop"] = b
        self.side.add_widget(b)

    def _decide(self, choice: str, call: str | None, stop: bool = False) -> None:
        # a ruling that frees the table returns it to the auction and signs the director out
        # (on_pre_leave); a follow-up question of the same Law stays here
        self._td(lambda pin: self.app.controller.td_decide(pin, choice, call, stop=stop), refresh=False)
        self._enter(None, refresh=False)
        self.app.refresh()

    def dismiss_calls(self) -> None:
        # the director has seen to the boxes' calls: they leave the list and a held auction goes on
        self._td(lambda pin: self.app.controller.td_attended(pin) and None)

    def _pin_pad(self, lang: str, wait_s: int = 0) -> None:
        self.pin_buttons = pin_pad(self.side, self.pin, lang, self.press_digit, self.press_clear, self.press_unlock,
                                   wait_s)

    def _options(self, pending: dict[str, Any], lang: str) -> None:
        self.side.add_widget(Text(i18n.tr("options", lang), size=24, bold=True, size_hint_y=None, height=40))
        self.option_buttons = []
        if self.mode == "option":
            chosen = self.draft["option"]
            label = i18n.option_label(pending.get("kind", ""), chosen, lang, present.seat_names(pending, lang))
            self.side.add_widget(Text(f"{label}  [color=66727f]({chosen.get('law', '')})[/color]",
                                      size=20, size_hint_y=None, height=56))
            self.side.add_widget(Text(i18n.tr("choose_call", lang), size=20, bold=True, size_hint_y=None, height=34))
            whole = self.app.snap.get("director_state") or self.app.snap.get("state") or {}
            self.picker = CallPicker(self.pick_call, present.replacement_calls(whole),
                                     self.draft.get("call"))
            self.side.add_widget(self.picker)
            self.draft["stop"] = bool(self.draft.get("stop"))
            self._stop_toggle(lang)
            row = BoxLayout(spacing=10, size_hint_y=None, height=80)
            cancel = BigButton(i18n.tr("other_option", lang), BTN_LIGHT, size=20)
            cancel.bind(on_release=lambda *_: self._enter(None))
            call = self.draft.get("call")
            ok = BigButton(i18n.tr("confirm_call", lang, call=present.call_text(call, lang)) if call
                           else i18n.tr("choose_call", lang), BTN_OK, size=20)
            ok.disabled = call is None
            ok.bind(on_release=lambda *_: self.confirm_call())
            self.tool_buttons["other_option"], self.tool_buttons["confirm_call"] = cancel, ok
            row.add_widget(cancel)
            row.add_widget(ok)
            self.side.add_widget(row)
            return
        names = present.seat_names(pending, lang)
        for opt in pending.get("options", []):
            label = i18n.option_label(pending.get("kind", ""), opt, lang, names)
            b = BigButton(f"{label}\n[size=16]{opt.get('law', '')}[/size]", BTN, size=20)
            b.halign = "center"
            b.bind(size=lambda w, *_: setattr(w, "text_size", (w.width - 20, None)))
            b.option = opt
            b.bind(on_release=lambda btn: self.choose(btn.option))
            self.option_buttons.append(b)
            self.side.add_widget(b)

    def refresh(self, snap: dict[str, Any], lang: str) -> None:
        if self._sitting_over(snap):
            return
        self.topbar.refresh(snap, lang)
        st = snap.get("director_state") or snap.get("state") or {}  # the TD sees the whole table
        pending = st.get("pending")
        self.title.text = i18n.tr("director", lang) + (f"  \u00b7  {pending.get('law', '')}" if pending else "")
        self.happened_head.text = i18n.tr("what_happened", lang).upper()
        lines = present.what_happened(st, lang)
        self.happened.text = "\n".join(lines) or i18n.tr("none", lang)
        self.conseq_head.text = i18n.tr("consequences", lang).upper()
        self.conseq.text = "\n".join(present.consequences(st, lang)) or i18n.tr("none", lang)
        self.delivery_head.text = i18n.tr("delivery", lang).upper()
        self.delivery.text = "\n".join(self.app.delivery_lines(lang, snap))
        self.back.text = i18n.tr("back", lang)
        self.message.text = self.said(lang) if self.said is not None else ""
        self.side.clear_widgets()
        self.option_buttons = []
        calls = snap.get("td_calls") or []
        if calls:
            lines += [i18n.tr("td_called_by", lang, seat=i18n.seat_name(c.get("seat"), lang))
                      + (f" ({i18n.tr('reason_' + c['reason'], lang)})" if c.get("reason") else "")
                      for c in calls]
            self.happened.text = "\n".join(lines)
        if not self.unlocked:
            # players see what happened and that the director is called; the options are his
            self.side.add_widget(Text(i18n.tr("director_called" if pending else "no_pending", lang), size=22,
                                      halign="center", size_hint_y=None, height=64 if pending else 40))
            self._pin_pad(lang, (snap.get("pin") or {}).get("wait_s", 0))
        elif pending and self.mode == "end_round":
            self._end_round_panel(snap, lang)  # the ruling shown with what the end does to it
        elif pending:
            self._options(pending, lang)
            if self.mode is None:
                self._end_round_button(snap, lang)
        else:
            self._tools(snap, lang)

    # -- without a pending decision: the TD's own actions --------------------------------------------
    def _tools(self, snap: dict[str, Any], lang: str) -> None:
        self.side.add_widget(Text(i18n.tr("no_pending", lang), size=22, halign="center", size_hint_y=None, height=40))
        self.tool_buttons = {}
        phase = snap.get("phase")
        if self.mode is None and snap.get("td_calls"):
            b = BigButton(i18n.tr("dismiss_calls", lang), BTN_OK, size=20, size_hint_y=None, height=84)
            b.bind(on_release=lambda *_: self.dismiss_calls())
            self.tool_buttons["dismiss"] = b
            self.side.add_widget(b)
        if self.mode == "adjust":
            self._adjust_panel(lang)
            return
        if self.mode == "assign":
            self.assign.draw(snap, lang)
            return
        if self.mode == "players":
            self.td_players.draw(snap, lang)
            return
        if self.mode == "fix":
            self._fix_panel(snap, lang)
            return
        if self.mode == "exposed":
            self._exposed_panel(lang)
            return
        if self.mode == "wrong_call":
            self._seat_row(lang, "who_wrong_cards", self._wrong_board_call)
            return
        if self.mode == "wrong_board":
            self._wrong_board_panel(snap, lang)
            return
        if self.mode == "reason":
            self._reason_panel(lang)
            return
        if self.mode in ("withdraw", "move"):
            self._revise_panel(snap, lang)
            return
        if self.mode == "board":
            self._board_panel(snap, lang)
            return
        if self.mode == "end_round":
            self._end_round_panel(snap, lang)
            return
        if self.mode != "correct":
            tools = []
            ed = (snap.get("director_state") or snap.get("state") or {}).get("edition", 2017)
            if phase in ("auction", "play"):
                tools.append(("correct", f"{i18n.tr('correct_call', lang)}\n[size=16]{laws.REFS[ed]['unintended']}[/size]",
                              self._start_correct))
                tools.append(("exposed", f"{i18n.tr('tool_exposed', lang)}\n[size=16]{laws.EXPOSED[ed]['law']}[/size]",
                              self._start_exposed))
                tools.append(("wrong_call", f"{i18n.tr('tool_wrong_board_call', lang)}\n"
                              f"[size=16]{laws.WRONG_BOARD_CALL[ed].law}[/size]", self._start_wrong_call))
            if phase == "auction":
                tools.append(("wrong_board", f"{i18n.tr('tool_wrong_board', lang)}\n[size=16]{laws.WRONG_BOARD[ed]['law']}[/size]",
                              self._start_wrong_board))
            if phase in ("auction", "frozen", "play", "confirm"):
                tools.append(("artificial", f"{i18n.tr('artificial', lang)}\n[size=16]{ed} L12C2[/size]", self._start_adjust))
            if phase in ("auction", "frozen", "play", "confirm") or (snap.get("board_choice") or {}).get("played"):
                tools.append(("assigned", f"{i18n.tr('tool_assigned', lang)}\n"
                              f"[size=16]{laws.ADJUSTED_SCORE[ed]['assigned']}[/size]", self.assign.start))
            if phase in ("auction", "frozen", "play", "confirm"):
                tools.append(("players", i18n.tr("tool_players", lang), self.td_players.start))
            if phase in ("auction", "play", "round_end"):
                tools.append(("board", f"{i18n.tr('tool_board', lang)}\n[size=16]{ed} L15[/size]",
                              lambda: self._enter("board")))
            if (snap.get("board_choice") or {}).get("played"):
                tools.append(("fix", f"{i18n.tr('fix_result', lang)}\n[size=16]{ed} L79C[/size]", self._start_fix))
                tools.append(("withdraw", i18n.tr("tool_withdraw", lang), lambda: self._enter("withdraw", board=None)))
                tools.append(("move", i18n.tr("tool_move", lang), lambda: self._enter("move", board=None)))
            if phase in ("auction", "frozen", "play", "confirm", "round_end"):
                # the round ends when the director says so (Law 8B1), also before its last board
                # (frozen: an adjusted score not yet awarded, shown as a ruling not finished)
                tools.append(("end_round", f"{i18n.tr('end_round_tool', lang)}\n[size=16]{ed} L8B1[/size]",
                              self._start_end_round))
            # two columns (three when there are many): every tool in view at once, none pushed off
            cols = 2 if len(tools) <= 8 else 3
            grid = GridLayout(cols=cols, spacing=10, size_hint_y=None, height=-(-len(tools) // cols) * 94 - 10)
            for name, label, fn in tools:
                b = BigButton(label, BTN, size=18 if cols == 2 else 16)
                b.halign = "center"
                b.bind(size=lambda w, *_: setattr(w, "text_size", (w.width - 16, None)))
                b.bind(on_release=lambda _b, fn=fn: fn())
                self.tool_buttons[name] = b
                grid.add_widget(b)
            self.side.add_widget(grid)
            self.side.add_widget(Widget())
            return
        if self.draft.get("seat") is None:
            self._seat_row(lang, "whose_call", self._pick_seat)
            return
        self.side.add_widget(Text(i18n.tr("choose_call", lang) + f": {i18n.seat_name(self.draft['seat'], lang)}",
                                  size=20, bold=True, size_hint_y=None, height=34))
        self.picker = CallPicker(self._correct)
        self.side.add_widget(self.picker)
        self._stop_toggle(lang)

    # -- Law 24 and the wrong-board laws: TD findings the boxes cannot see ----------------------------
    def _seat_row(self, lang: str, prompt: str, on_pick: Any) -> None:
        self.side.add_widget(Text(i18n.tr(prompt, lang), size=20, bold=True, size_hint_y=None, height=34))
        row = GridLayout(cols=4, spacing=10, size_hint_y=None, height=90)
        for seat in SEATS:
            b = BigButton(i18n.seat_name(seat, lang), BTN_LIGHT, size=22)
            b.bind(on_release=lambda _b, seat=seat: on_pick(seat))
            self.tool_buttons[seat] = b
            row.add_widget(b)
        self.side.add_widget(row)
        self.side.add_widget(Widget())

    def _start_exposed(self) -> None:
        self._enter("exposed", seat=None, cards=[], led=False)

    def _exposed_panel(self, lang: str) -> None:
        if self.draft["seat"] is None:
            self._seat_row(lang, "whose_cards", self._expose_seat)
            return
        self.side.add_widget(Text(i18n.tr("which_cards", lang, seat=i18n.seat_name(self.draft["seat"], lang)),
                                  size=20, bold=True, size_hint_y=None, height=34))
        grid = GridLayout(cols=13, spacing=3, size_hint_y=None, height=4 * 50)
        for suit in "SHDC":
            for rank in "AKQJT98765432":
                card = suit + rank
                on = card in self.draft["cards"]
                b = BigButton(present.card_text(card), BTN if on else BTN_LIGHT, size=16)
                if suit in present.RED and not on:
                    b.color = RED_SUIT
                b.bind(on_release=lambda _b, card=card: self._toggle_card(card))
                self.tool_buttons[card] = b
                grid.add_widget(b)
        self.side.add_widget(grid)
        row = BoxLayout(spacing=10, size_hint_y=None, height=80)
        led = BigButton(("\u2713 " if self.draft["led"] else "") + i18n.tr("card_led", lang),
                        BTN if self.draft["led"] else BTN_LIGHT, size=20)
        led.bind(on_release=lambda *_: self._toggle_led())
        ok = BigButton(i18n.tr("record", lang), BTN_OK, size=22)
        ok.disabled = not self.draft["cards"]
        ok.bind(on_release=lambda *_: self._record_exposed())
        self.tool_buttons["led"], self.tool_buttons["record"] = led, ok
        row.add_widget(led)
        row.add_widget(ok)
        self.side.add_widget(row)
        self.side.add_widget(Widget())

    def _expose_seat(self, seat: str) -> None:
        self.draft["seat"] = seat
        self.app.refresh()

    def _toggle_card(self, card: str) -> None:
        cards = self.draft["cards"]
        if card in cards:
            cards.remove(card)
        else:
            cards.append(card)
        self.app.refresh()

    def _toggle_led(self) -> None:
        self.draft["led"] = not self.draft["led"]
        self.app.refresh()

    def _record_exposed(self) -> None:
        x = self.draft
        self._enter(None, refresh=False)
        self._td(lambda pin: self.app.controller.td_exposed_cards(pin, x.get("seat"), x.get("cards", []), x.get("led", False)))

    def _start_wrong_call(self) -> None:
        self._enter("wrong_call")

    def _wrong_board_call(self, seat: str) -> None:
        self._enter(None, refresh=False)
        self._td(lambda pin: self.app.controller.td_wrong_board_call(pin, seat))

    def _start_wrong_board(self) -> None:
        self._enter("wrong_board")

    def _wrong_board_panel(self, snap: dict[str, Any], lang: str) -> None:
        ed = (snap.get("director_state") or snap.get("state") or {}).get("edition", 2017)
        rule = laws.WRONG_BOARD[ed]
        row = BoxLayout(spacing=10, size_hint_y=None, height=90)
        if rule["restart"]:
            # 2007 L15C: the auction is made again whoever has played the board before
            self.side.add_widget(Text(i18n.wrong_board_outcome(Resolution.AUCTION_RESTARTED, lang) or "", size=20, bold=True, size_hint_y=None, height=60))
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
        self._enter(None, refresh=False)
        self._td(lambda pin: self.app.controller.td_wrong_board(pin, played_before))

    def _td(self, act: Any, refresh: bool = True) -> bool:
        """Run one TD action with the signed-in PIN; `act(pin)` may return a message to show.
        The PIN was checked at sign-in; the controller checks it again (it trusts no widget).
        False (and the reason said) when the controller refused it."""
        ok = False
        try:
            said = act(self.credential if self.unlocked and self.credential else "")
            self.say(said if callable(said) else None)
            ok = True
        except ValueError as exc:  # PinError, Refused, SetupError: said, nothing changed
            self.say(lambda lang, exc=exc: i18n.error_text(exc, lang)[:200])
        if refresh:
            self.app.refresh()
        return ok

    # -- artificial adjusted score (L12C2) --------------------------------------------------------
    def _start_adjust(self) -> None:
        self._enter("adjust", ns=None, ew=None)

    def _adjust_panel(self, lang: str) -> None:
        for side in ("ns", "ew"):
            self.side.add_widget(Text(i18n.tr("pairs_" + side, lang), size=20, bold=True, size_hint_y=None, height=34))
            row = GridLayout(cols=3, spacing=10, size_hint_y=None, height=80)
            for v in ("avg-", "avg", "avg+"):
                b = BigButton(i18n.tr(v, lang), BTN if self.draft[side] == v else BTN_LIGHT, size=22)
                b.bind(on_release=lambda _b, side=side, v=v: self._set_adjust(side, v))
                self.tool_buttons[f"{side}{v}"] = b
                row.add_widget(b)
            self.side.add_widget(row)
        ok = BigButton(i18n.tr("award", lang), BTN_OK, size=22, size_hint_y=None, height=90)
        ok.disabled = None in self.draft.values()
        ok.bind(on_release=lambda *_: self._award())
        self.tool_buttons["award"] = ok
        self.side.add_widget(ok)
        self.side.add_widget(Widget())

    def _set_adjust(self, side: str, v: str) -> None:
        self.draft[side] = v
        self.app.refresh()

    def _award(self) -> None:
        a = self.draft
        self._enter(None, refresh=False)
        edition = (self.app.snap.get("state") or {}).get("edition", 2017)
        self._td(lambda pin: self.app.controller.td_artificial_score(pin, a.get("ns"), a.get("ew"), f"{edition} L12C2"))

    # -- corrected score (L79C) ------------------------------------------------------------------
    def _start_fix(self) -> None:
        self._enter("fix", board=None)

    def _fix_panel(self, snap: dict[str, Any], lang: str) -> None:
        if self.draft["board"] is None:
            self.side.add_widget(Text(i18n.tr("which_board", lang), size=20, bold=True, size_hint_y=None, height=34))
            self._result_buttons(snap, lang, self._fix_board, played_only=True)
            return
        self.side.add_widget(Text(f"{i18n.tr('board', lang)} {self.draft['board']}: {i18n.tr('tricks', lang)}",
                                  size=20, bold=True, size_hint_y=None, height=34))
        self._number_grid(range(14), "tricks", self._fix_tricks, cols=7)

    def _number_grid(self, numbers: Any, prefix: str, on_pick: Any, cols: int = 6, label: Any = str,
                     current: int | None = None) -> None:
        """A grid of number buttons (tricks, boards) named `<prefix><n>` in tool_buttons."""
        numbers = list(numbers)
        rows = max(1, -(-len(numbers) // cols))
        grid = GridLayout(cols=cols, spacing=8, size_hint_y=None, height=rows * 72 + (rows - 1) * 8)
        for n in numbers:
            b = BigButton(label(n), BTN if n == current else BTN_LIGHT, size=26)
            b.bind(on_release=lambda _b, n=n: on_pick(n))
            self.tool_buttons[f"{prefix}{n}"] = b
            grid.add_widget(b)
        self.side.add_widget(grid)
        self.side.add_widget(Widget())

    def _fix_board(self, board: int) -> None:
        self._enter("fix", board=board)

    def _fix_tricks(self, n: int) -> None:
        board = self.draft.get("board")

        def fix(pin: str, why: str) -> Any:
            rec = self.app.controller.td_correct_result(pin, board, n, reason=why)
            return lambda lang: f"[color=2a8c4d]{i18n.tr('sent', lang)}: {rec['score_ns']:+d}[/color]"

        self._ask_reason(lambda lang: f"{i18n.tr('fix_result', lang)}: {i18n.tr('board', lang)} {board}  \u00b7  "
                               f"{i18n.tr('tricks', lang)}: {n}", fix)

    # -- why a result changes (L79C corrections, withdrawals, moves): asked every time ----------------
    REASONS = ("reason_miscounted", "reason_wrong_board", "reason_ruling")

    def _ask_reason(self, title: Any, act: Any) -> None:
        """`act(pin, reason)` runs once the director has said why; the text field starts empty."""
        self.reason_input.text = ""
        self._enter("reason", title=title, act=act)

    def _reason_panel(self, lang: str) -> None:
        self.side.add_widget(Text(self.draft["title"](lang), size=20, bold=True, size_hint_y=None, height=34))
        self.side.add_widget(Text(i18n.tr("reason_q", lang), size=20, size_hint_y=None, height=34))
        if self.reason_input.parent is not None:
            self.reason_input.parent.remove_widget(self.reason_input)
        # a ready phrase follows a language switch; the director's own words stay as typed
        typed = self.reason_input.text
        for key in self.REASONS:
            if typed and typed in (i18n.T[key].values()):
                self.reason_input.text = i18n.tr(key, lang)
        self.side.add_widget(self.reason_input)
        for key in self.REASONS:
            b = BigButton(i18n.tr(key, lang), BTN_LIGHT, size=20, size_hint_y=None, height=64)
            b.bind(on_release=lambda _b, key=key: setattr(self.reason_input, "text", i18n.tr(key, self.app.lang)))
            self.tool_buttons[key] = b
            self.side.add_widget(b)
        row = BoxLayout(spacing=10, size_hint_y=None, height=80)
        cancel = BigButton(i18n.tr("back", lang), BTN_LIGHT, size=20)
        cancel.bind(on_release=lambda *_: self._enter(None))
        ok = BigButton(i18n.tr("reason_record", lang), BTN_OK, size=20)
        ok.bind(on_release=lambda *_: self._record_reason())
        self.tool_buttons["reason_cancel"], self.tool_buttons["record_reason"] = cancel, ok
        row.add_widget(cancel)
        row.add_widget(ok)
        self.side.add_widget(row)
        self.side.add_widget(Widget())

    def _record_reason(self) -> None:
        act, why = self.draft["act"], self.reason_input.text
        if self._td(lambda pin: act(pin, why), refresh=False):
            self._enter(None, refresh=False)  # a refusal (no reason given) keeps the panel open
        self.app.refresh()

    # -- a result on the wrong board: withdraw it, or move it to the board it was played on -----------
    def _result_buttons(self, snap: dict[str, Any], lang: str, on_pick: Any, played_only: bool = False) -> None:
        """One button per board of the round with a standing result at this table."""
        played = set((snap.get("board_choice") or {}).get("played") or [])
        latest: dict[int, dict[str, Any]] = {}
        for r in snap.get("done", []):
            latest[r["board"]] = r
        for board, r in latest.items():
            if board not in played or (played_only and r.get("contract") in (None, "PASS")):
                continue
            b = BigButton(f"{i18n.tr('board', lang)} {board}: {present.result_text(r, lang)}", BTN_LIGHT, size=20,
                          size_hint_y=None, height=70)
            b.bind(on_release=lambda _b, board=board: on_pick(board))
            self.tool_buttons[f"board{board}"] = b
            self.side.add_widget(b)
        self.side.add_widget(Widget())

    def _revise_panel(self, snap: dict[str, Any], lang: str) -> None:
        board = self.draft.get("board")
        if board is None:
            self.side.add_widget(Text(i18n.tr("which_board", lang), size=20, bold=True, size_hint_y=None, height=34))
            self._result_buttons(snap, lang, self._revise_board)
            return
        # move: the board the play belongs to (the round's boards without a result here)
        choice = snap.get("board_choice") or {}
        self.side.add_widget(Text(i18n.tr("move_to_which", lang, board=board), size=20, bold=True,
                                  size_hint_y=None, height=34))
        targets = [n for n in choice.get("boards", []) if n != board and n not in choice.get("played", [])]
        self._number_grid(targets, "to", lambda n: self._move_to(board, n))

    def _revise_board(self, board: int) -> None:
        if self.mode == "move":
            self._enter("move", board=board)
            return

        def withdraw(pin: str, why: str) -> Any:
            self.app.controller.td_withdraw_result(pin, board, reason=why)
            return lambda lang: f"[color=2a8c4d]{i18n.tr('withdrawn_note', lang, board=board)}[/color]"

        self._ask_reason(lambda lang: f"{i18n.tr('tool_withdraw', lang)}: {i18n.tr('board', lang)} {board}", withdraw)

    def _move_to(self, board: int, to: int) -> None:
        def move(pin: str, why: str) -> Any:
            self.app.controller.td_move_result(pin, board, to, reason=why)
            return lambda lang: f"[color=2a8c4d]{i18n.tr('moved_note', lang, board=board, to=to)}[/color]"

        self._ask_reason(lambda lang: i18n.tr("moved_note", lang, board=board, to=to), move)

    # -- the board on the table (after the first call only the director changes it) -------------------
    def _board_panel(self, snap: dict[str, Any], lang: str) -> None:
        self.side.add_widget(Text(i18n.tr("board_on_table", lang), size=20, bold=True, size_hint_y=None, height=34))
        choice = snap.get("board_choice") or {}
        played = choice.get("played", [])
        self._number_grid(choice.get("boards", []), "choose", self._choose_board,
                          label=lambda n: f"{n}" + (" \u2713" if n in played else ""), current=choice.get("current"))

    def _choose_board(self, n: int) -> None:
        def choose(pin: str) -> Any:
            self.app.controller.choose_board(n, pin)
            return lambda lang: f"[color=2a8c4d]{i18n.tr('board_chosen', lang, board=n)}[/color]"

        if self._td(choose, refresh=False):
            self._enter(None, refresh=False)
        self.app.refresh()

    def _start_correct(self) -> None:
        self._enter("correct", seat=None)

    def _pick_seat(self, seat: str) -> None:
        self._enter("correct", seat=seat, stop=None)

    def _correct(self, call: str) -> None:
        seat, stop = self.draft.get("seat"), self.draft.get("stop")
        self._enter(None, refresh=False)
        self._td(lambda pin: self.app.controller.td_correct_call(pin, seat, call, stop=stop))

    def leave(self) -> None:
        self.say(None)
        self.app.go("auction")  # on_pre_leave signs the director out


