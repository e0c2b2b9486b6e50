"""Wrong boards: cards from the wrong board (2007 L17D, 2017 L15A) and the wrong board found
during the auction (2007 L15C, 2017 L15B) (docs/laws/L15-L17.md). TD findings only; what the
editions do differently is data in laws.WRONG_BOARD_CALL and laws.WRONG_BOARD.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from shared_rules import laws
from shared_rules.calls import SEATS, call_name, lho, partner
from shared_rules.model import Context, EventError, Option, Pending, Rec, offer
from shared_rules.rule import DecidingRule
from shared_rules.texts import keys
from shared_rules.types import Asks, Decision, IrregularityKind, OptionId, Resolution, Status

if TYPE_CHECKING:
    from shared_rules.fold import Fold


class WrongBoardCall(DecidingRule):
    kind = IrregularityKind.WRONG_BOARD_CALL
    decisions = (Decision.WRONG_BOARD_JUDGEMENT,)
    texts = keys(Decision.WRONG_BOARD_JUDGEMENT, OptionId.DIFFERS, OptionId.SAME)

    def law_for(self, edition: int) -> str:
        return laws.WRONG_BOARD_CALL[edition].law  # 2007 L17D, 2017 L15A

    def found(self, f: Fold, seat: int, t: float) -> None:
        """2007 L17D / 2017 L15A: `seat` called with cards taken from the wrong board. His cards
        came out of the board at the start (L17A), so the cancelled call is his first one."""
        rule = laws.WRONG_BOARD_CALL[f.edition]
        if f.pending is not None:
            raise EventError(f"a decision is pending ({f.pending.kind}); answer it first")
        if f.status is Status.ADJUSTED_SCORE:
            raise EventError("the auction was already stopped for an adjusted score")
        if seat in f.wrong_board_ruled:
            raise EventError(f"{SEATS[seat]}'s wrong-board call was already ruled ({rule.law}); he now has "
                             "his own cards")
        idx = next((i for i, c in enumerate(f.calls) if c.seat == seat and not c.deemed), None)
        if idx is None:
            raise EventError(f"{SEATS[seat]} has made no call with the wrong cards: he takes his own cards, "
                             f"nothing to cancel ({rule.law})")
        cancelled = f.calls[idx]
        later = f.calls[idx + 1:]
        partner_called = any(c.seat == partner(seat) for c in later)
        lho_call = next((c for c in later if c.seat == lho(seat)), None)
        entry = f.irregularity(self.kind, cancelled, rule.law,
                               cancelled=[call_name(c.code) for c in [cancelled, *later]],
                               partner_called=partner_called)
        f.withdraw(cancelled, "made with cards from the wrong board", f"{rule.cancel}, {rule.ui}")
        for c in later:
            f.withdraw(c, "after a call made with cards from the wrong board", f"{rule.later}, {rule.ui}")
        del f.calls[idx:]
        f.rebuild()
        f.stop_from = None
        f.status = Status.BIDDING
        f.wrong_board_ruled.add(seat)
        f.review(seat, rule.later_board, f"when {SEATS[seat]} plays the board his cards came from: adjust if "
                 f"his call there differs from the cancelled {call_name(cancelled.code)}")
        if partner_called:
            entry["ruling"], entry["resolution"] = rule.partner_called, Resolution.ADJUSTED_SCORE
            f.stop_auction(rule.adjusted_kind, rule.partner_called,
                           f"{SEATS[partner(seat)]} called after {SEATS[seat]}'s call made with cards from "
                           "the wrong board")
            return
        entry["ruling"], entry["resolution"] = rule.recall, Resolution.OFFENDER_CALLS_AGAIN
        f.turn = seat
        f.turn_t = t
        if rule.lho_repeats and lho_call is not None:
            f.wrong_board_repeat[seat] = (cancelled, lho_call)

    def new_call(self, f: Fold, seat: int, rec: Rec) -> None:
        """2007 L17D2, after the offender's new call, when his LHO had called over the cancelled one:
        the same call -> the LHO repeats his call; another call -> the TD judges if it differs."""
        rule = laws.WRONG_BOARD_CALL[f.edition]
        cancelled, lho_call = f.wrong_board_repeat.pop(seat)
        if rec.code == cancelled.code:
            f.repeat[lho(seat)] = (lho_call.code, rule.lho_repeats)
            return
        judgement = Decision.WRONG_BOARD_JUDGEMENT
        opts = [
            offer(judgement, OptionId.DIFFERS, f"{rule.differs}, L12C2",
                  params={"call": call_name(rec.code), "cancelled": call_name(cancelled.code)}),
            offer(judgement, OptionId.SAME, rule.lho_repeats,
                  params={"lho": SEATS[lho(seat)], "lho_call": call_name(lho_call.code)}),
        ]
        entry = next((i for i in reversed(f.irregularities)
                      if i["kind"] == self.kind and i["seat"] == SEATS[seat]), None)
        f.pending = Pending(self, judgement, rule.differs, seat, Asks.TD, opts, rec, entry,
                            Context(lho_call=lho_call, cancelled=cancelled))

    def ruling(self, f: Fold, p: Pending, option: Option, call: Rec | None, t: float) -> None:
        f.pending = None
        if option.id is OptionId.DIFFERS:  # 2007 L17D2, L12C2
            f.resolve(p, Resolution.ADJUSTED_SCORE, option.law)
            f.stop_auction("artificial", option.law, f"{SEATS[p.seat]}'s new call differs from his call made "
                           "with cards from the wrong board, after his LHO had called")
            return
        f.resolve(p, Resolution.OFFENDER_CALLED_AGAIN, option.law)
        lho_call = p.context.lho_call
        assert lho_call is not None
        f.repeat[lho(p.seat)] = (lho_call.code, option.law)


class WrongBoard(DecidingRule):
    kind = IrregularityKind.WRONG_BOARD
    decisions = (Decision.WRONG_BOARD_REPEAT,)
    texts = keys(Decision.WRONG_BOARD_REPEAT, OptionId.CANCEL, OptionId.STAND)

    def law_for(self, edition: int) -> str:
        return str(laws.WRONG_BOARD[edition]["law"])  # 2007 L15C, 2017 L15B

    def found(self, f: Fold, played_before: bool, t: float) -> None:
        """2007 L15C / 2017 L15B: the table is playing a board it should not play this round."""
        rule = laws.WRONG_BOARD[f.edition]
        law = str(rule["law"])
        if f.pending is not None:
            raise EventError(f"a decision is pending ({f.pending.kind}); answer it first")
        if f.status is not Status.BIDDING:
            raise EventError(f"the auction is over: the TD rules on the board's result ({law}), not the "
                             "auction engine")
        if f.wrong_board is not None:
            raise EventError(f"the wrong board was already ruled ({f.wrong_board['law']})")
        entry: dict[str, Any] = {"kind": self.kind, "seat": None, "law": law, "t": t, "call": None,
                                 "played_before": played_before}
        info: dict[str, Any] = {"law": law, "played_before": played_before, "note": rule["note"] or None}
        if rule["restart"]:
            # 2007 L15C: a new auction in which the players must make the calls they made before.
            info.update(outcome=Resolution.AUCTION_RESTARTED, earlier_calls=[
                {"seat": SEATS[c.seat], "call": call_name(c.code)} for c in f.calls],
                rule="the players must repeat their earlier calls; if any call differs, the TD cancels "
                     "the board")
            for c in f.calls:
                f.withdraw(c, "wrong board: the auction is cancelled and made again", law)
            f.calls.clear()
            f.rebuild()
            # The first auction's obligations bound only that auction; it is made again from scratch.
            f.must_pass.clear()
            f.repeat.clear()
            f.no_double.clear()
            f.judge_next_call.clear()
            f.rho_watch.clear()
            f.wrong_board_repeat.clear()
            f.leads.clear()
            f.stop_from = None
            f.turn = f.dealer
            f.turn_t = t
            entry.update(ruling=law, resolution=Resolution.AUCTION_RESTARTED)
        elif played_before:
            info.update(outcome=Resolution.BOARD_CANCELLED)
            entry.update(ruling=str(rule["played_before"]), resolution=Resolution.BOARD_CANCELLED)
            f.stop_auction("artificial", str(rule["played_before"]),
                           "a player at the table has played this board before: cancelled for all four")
        else:
            info.update(outcome=Resolution.AUCTION_CONTINUES,
                        rule="the auction and play are completed normally and the result stands; the TD may "
                        "have the correct board played later")
            entry.update(ruling=str(rule["continues"]), resolution=Resolution.AUCTION_CONTINUES)
        f.add_irregularity(entry)
        f.wrong_board = info

    @staticmethod
    def differs(f: Fold) -> dict[str, Any] | None:
        """2007 L15C: the first call of the new auction that is not the call made at that point
        of the first auction."""
        wb = f.wrong_board
        if wb is None or "earlier_calls" not in wb:
            return None
        return next((
            {"index": i, "seat": SEATS[c.seat], "call": call_name(c.code), "earlier": e["call"]}
            for i, (c, e) in enumerate(zip(f.calls, wb["earlier_calls"], strict=False))
            if call_name(c.code) != e["call"] or SEATS[c.seat] != e["seat"]), None)

    def called(self, f: Fold, rec: Rec) -> None:
        """2007 L15C: a call of the new auction stood. "Om något bud skiljer sig åt från
        motsvarande bud i den första budgivningen, skall tävlingsledaren stryka brickan": the first
        call that differs from the first auction's is put to the TD at once (cancel the board, or
        let it stand where the player was newly seated: docs/laws/choices.md #26). Once he has let
        one stand, the auctions have parted and later calls are not compared."""
        wb = f.wrong_board
        if wb is None or "earlier_calls" not in wb or f.pending is not None or f.status is Status.ADJUSTED_SCORE:
            return
        index = len(f.calls) - 1
        if index >= len(wb["earlier_calls"]) or f.calls[index] is not rec:
            return
        differs = self.differs(f)
        if differs is None or differs["index"] != index:
            return
        law = str(laws.WRONG_BOARD[f.edition]["differs"])
        params = {"seat": differs["seat"], "call": differs["call"], "earlier": differs["earlier"]}
        opts = [offer(Decision.WRONG_BOARD_REPEAT, OptionId.CANCEL, law, params=params),
                offer(Decision.WRONG_BOARD_REPEAT, OptionId.STAND, law, params=params)]
        # The irregularity is recorded when the TD rules (as his cancel_board finding always was):
        # a journal written before this decision existed replays to the same record.
        f.pending = Pending(self, Decision.WRONG_BOARD_REPEAT, law, rec.seat, Asks.TD, opts, rec, None)

    def ruling(self, f: Fold, p: Pending, option: Option, call: Rec | None, t: float) -> None:
        f.pending = None
        if option.id is OptionId.CANCEL:
            self._cancel(f, t, option.law)
            return
        entry = self._entry(f, t, option.law)
        entry["ruling"], entry["resolution"] = option.law, Resolution.STANDS

    def cancel_board(self, f: Fold, t: float) -> None:
        """2007 L15C: a call in the new auction differs from the first one: the TD shall cancel
        the board (and award artificial adjusted scores). The TD's own event, also as the answer
        to the decision `called` raised."""
        rule = laws.WRONG_BOARD[f.edition]
        law = str(rule["differs"])
        if not law:
            raise EventError(f"{f.edition} Laws: no board is cancelled for a differing repeated call "
                             f"({rule['law']}); use wrong_board with played_before")
        p = f.pending
        if p is not None and p.kind is Decision.WRONG_BOARD_REPEAT:
            f.pending = None
            self._cancel(f, t, law)
            return
        if p is not None:
            raise EventError(f"a decision is pending ({p.kind}); answer it first")
        if f.wrong_board is None or self.differs(f) is None or f.status is Status.ADJUSTED_SCORE:
            raise EventError(f"{law}: the board is cancelled only when a call of the new auction differs "
                             "from the first auction's")
        self._cancel(f, t, law)

    def _entry(self, f: Fold, t: float, law: str) -> dict[str, Any]:
        """The irregularity: the first call of the new auction that differs, as the TD rules on it."""
        differs = self.differs(f)
        assert differs is not None
        entry = {"kind": self.kind, "seat": differs["seat"], "law": law, "t": t, "call": differs["call"],
                 "ruling": None, "resolution": None, "earlier": differs["earlier"]}
        f.add_irregularity(entry)
        return entry

    def _cancel(self, f: Fold, t: float, law: str) -> None:
        """The board is cancelled: artificial adjusted scores (2007 L15C)."""
        entry = self._entry(f, t, law)
        entry["ruling"], entry["resolution"] = law, Resolution.BOARD_CANCELLED
        differs = self.differs(f)
        assert f.wrong_board is not None and differs is not None
        f.wrong_board["outcome"] = Resolution.BOARD_CANCELLED
        f.stop_auction("artificial", law, f"{differs['seat']} called {differs['call']} where he had called "
                       f"{differs['earlier']} in the first auction: the board is cancelled")


WRONG_BOARD_CALL: Final = WrongBoardCall()
WRONG_BOARD: Final = WrongBoard()
