"""Wrong boards: cards from the wrong board (2007 L17D, 2017 L15A) and the wrong board found
during the auction (2007 L15C, 2017 L15B) (docs/laws/L15-L17.md). TD events only.
"""
from __future__ import annotations

from typing import Any

from shared_rules import laws
from shared_rules.calls import (
    SEATS,
    call_name,
    lho,
    partner,
)
from shared_rules.table_base import (
    ADJUSTED,
    BIDDING,
    Context,
    EventError,
    Option,
    Pending,
    Rec,
    TableBase,
)


class WrongBoards(TableBase):
    def _wrong_board_call(self, seat: int, t: float) -> None:
        """2007 L17D / 2017 L15A: `seat` called with cards taken from the wrong board. His cards
        came out of the board at the start (L17A), so the cancelled call is his first one."""
        rule = laws.WRONG_BOARD_CALL[self.edition]
        if self._pending is not None:
            raise EventError(f"a decision is pending ({self._pending.kind}); answer it first")
        if self._status == ADJUSTED:
            raise EventError("the auction was already stopped for an adjusted score")
        if seat in self._wrong_board_ruled:
            raise EventError(f"{SEATS[seat]}'s wrong-board call was already ruled ({rule.law}); he now has his own cards")
        idx = next((i for i, c in enumerate(self._calls) if c.seat == seat and not c.deemed), None)
        if idx is None:
            raise EventError(f"{SEATS[seat]} has made no call with the wrong cards: he takes his own cards, "
                             f"nothing to cancel ({rule.law})")
        cancelled = self._calls[idx]
        later = self._calls[idx + 1:]
        partner_called = any(c.seat == partner(seat) for c in later)
        lho_call = next((c for c in later if c.seat == lho(seat)), None)
        entry = self._irregularity("wrong_board_call", cancelled, rule.law,
                                   cancelled=[call_name(c.code) for c in [cancelled, *later]],
                                   partner_called=partner_called)
        self._withdraw(cancelled, "made with cards from the wrong board", f"{rule.cancel}, {rule.ui}")
        for c in later:
            self._withdraw(c, "after a call made with cards from the wrong board", f"{rule.later}, {rule.ui}")
        del self._calls[idx:]
        self._rebuild()
        self._stop_from = None
        self._status = BIDDING
        self._wrong_board_ruled.add(seat)
        self._review(seat, rule.later_board, f"when {SEATS[seat]} plays the board his cards came from: adjust if "
                     f"his call there differs from the cancelled {call_name(cancelled.code)}")
        if partner_called:
            entry["ruling"], entry["resolution"] = rule.partner_called, "adjusted_score"
            self._stop(rule.adjusted_kind, rule.partner_called,
                       f"{SEATS[partner(seat)]} called after {SEATS[seat]}'s call made with cards from the wrong board")
            return
        entry["ruling"], entry["resolution"] = rule.recall, "offender_calls_again"
        self._turn = seat
        self._turn_t = t
        if rule.lho_repeats and lho_call is not None:
            self._wrong_board_repeat[seat] = (cancelled, lho_call)

    def _wrong_board_new_call(self, s: int, rec: Rec) -> None:
        """2007 L17D2, after the offender's new call, when his LHO had called over the cancelled one:
        the same call -> the LHO repeats his call; another call -> the TD judges if it differs."""
        rule = laws.WRONG_BOARD_CALL[self.edition]
        cancelled, lho_call = self._wrong_board_repeat.pop(s)
        if rec.code == cancelled.code:
            self._repeat[lho(s)] = (lho_call.code, rule.lho_repeats)
            return
        opts = [
            Option("differs", "wrong_board_judgement.differs", f"{rule.differs}, L12C2",
                   call=call_name(rec.code), cancelled=call_name(cancelled.code)),
            Option("same", "wrong_board_judgement.same", rule.lho_repeats, lho=SEATS[lho(s)],
                   lho_call=call_name(lho_call.code)),
        ]
        entry = next((i for i in reversed(self._irregularities) if i["kind"] == "wrong_board_call" and i["seat"] == SEATS[s]), None)
        self._pending = Pending("wrong_board_judgement", rule.differs, s, "td", opts, rec, entry,
                                Context(lho_call=lho_call, cancelled=cancelled))

    def _td_wrong_board_judgement(self, p: Pending, o: Option, call: Rec | None, t: float) -> None:
        self._pending = None
        if o.id == "differs":
            self._resolve(p, "adjusted_score", o.law)
            self._stop("artificial", o.law, f"{SEATS[p.seat]}'s new call differs from his call made with "
                       "cards from the wrong board, after his LHO had called")
            return
        self._resolve(p, "offender_called_again", o.law)
        lho_call = p.context.lho_call
        assert lho_call is not None
        self._repeat[lho(p.seat)] = (lho_call.code, o.law)

    def _wrong_board_found(self, played_before: bool, t: float) -> None:
        """2007 L15C / 2017 L15B: the table is playing a board it should not play this round."""
        rule = laws.WRONG_BOARD[self.edition]
        law = str(rule["law"])
        if self._pending is not None:
            raise EventError(f"a decision is pending ({self._pending.kind}); answer it first")
        if self._status != BIDDING:
            raise EventError(f"the auction is over: the TD rules on the board's result ({law}), not the auction engine")
        if self._wrong_board is not None:
            raise EventError(f"the wrong board was already ruled ({self._wrong_board['law']})")
        entry: dict[str, Any] = {"kind": "wrong_board", "seat": None, "law": law, "t": t, "call": None,
                                 "played_before": played_before}
        info: dict[str, Any] = {"law": law, "played_before": played_before, "note": rule["note"] or None}
        if rule["restart"]:
            # 2007 L15C: a new auction in which the players must make the calls they made before.
            info.update(outcome="auction_restarted", earlier_calls=[
                {"seat": SEATS[c.seat], "call": call_name(c.code)} for c in self._calls],
                rule="the players must repeat their earlier calls; if any call differs, the TD cancels the board")
            for c in self._calls:
                self._withdraw(c, "wrong board: the auction is cancelled and made again", law)
            self._calls.clear()
            self._rebuild()
            # The first auction's obligations bound only that auction; it is made again from scratch.
            self._must_pass.clear()
            self._repeat.clear()
            self._no_double.clear()
            self._judge_next_call.clear()
            self._rho_watch.clear()
            self._wrong_board_repeat.clear()
            self._leads.clear()
            self._stop_from = None
            self._turn = self.dealer
            self._turn_t = t
            entry.update(ruling=law, resolution="auction_restarted")
        elif played_before:
            info.update(outcome="board_cancelled")
            entry.update(ruling=str(rule["played_before"]), resolution="board_cancelled")
            self._stop("artificial", str(rule["played_before"]),
                       "a player at the table has played this board before: cancelled for all four")
        else:
            info.update(outcome="auction_continues",
                        rule="the auction and play are completed normally and the result stands; the TD may "
                        "have the correct board played later")
            entry.update(ruling=str(rule["continues"]), resolution="auction_continues")
        self._irregularities.append(entry)
        self._wrong_board = info

    def _repeat_differs(self) -> dict[str, Any] | None:
        """2007 L15C: the first call of the new auction that is not the call made at that point
        of the first auction."""
        wb = self._wrong_board
        if wb is None or "earlier_calls" not in wb:
            return None
        return next((
            {"index": i, "seat": SEATS[c.seat], "call": call_name(c.code), "earlier": e["call"]}
            for i, (c, e) in enumerate(zip(self._calls, wb["earlier_calls"], strict=False))
            if call_name(c.code) != e["call"] or SEATS[c.seat] != e["seat"]), None)

    def _cancel_board(self, t: float) -> None:
        """2007 L15C: a call in the new auction differs from the first one: the TD shall cancel
        the board (and award artificial adjusted scores)."""
        rule = laws.WRONG_BOARD[self.edition]
        law = str(rule["differs"])
        if not law:
            raise EventError(f"{self.edition} Laws: no board is cancelled for a differing repeated call "
                             f"({rule['law']}); use wrong_board with played_before")
        if self._pending is not None:
            raise EventError(f"a decision is pending ({self._pending.kind}); answer it first")
        differs = self._repeat_differs()
        if self._wrong_board is None or differs is None or self._status == ADJUSTED:
            raise EventError(f"{law}: the board is cancelled only when a call of the new auction differs "
                             "from the first auction's")
        self._irregularities.append({"kind": "wrong_board", "seat": differs["seat"], "law": law, "t": t,
                             "call": differs["call"], "ruling": law, "resolution": "board_cancelled",
                             "earlier": differs["earlier"]})
        self._wrong_board["outcome"] = "board_cancelled"
        self._stop("artificial", law, f"{differs['seat']} called {differs['call']} where he had called "
                   f"{differs['earlier']} in the first auction: the board is cancelled")

    def _td_wrong_board_call(self, ev: dict[str, Any], seat: int, code: int, t: float) -> None:
        self._wrong_board_call(seat, t)

    def _td_wrong_board(self, ev: dict[str, Any], seat: int, code: int, t: float) -> None:
        self._wrong_board_found(bool(ev.get("played_before", False)), t)

    def _td_cancel_board(self, ev: dict[str, Any], seat: int, code: int, t: float) -> None:
        self._cancel_board(t)


RULINGS = {"wrong_board_judgement": WrongBoards._td_wrong_board_judgement}
DIRECT = {"wrong_board_call": WrongBoards._td_wrong_board_call, "wrong_board": WrongBoards._td_wrong_board,
          "cancel_board": WrongBoards._td_cancel_board}
DIRECT_FIELDS: dict[str, set[str]] = {"wrong_board_call": {"seat"}, "wrong_board": {"played_before"}, "cancel_board": set()}
