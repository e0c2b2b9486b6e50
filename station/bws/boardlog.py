"""What one board at one table adds to the `.bws`, item by item, as BCS would have written it
while the board was played (pure: a fold over the station's items of that board, in order).

- An auction snapshot (the tablet's "auction" item, sent when bidding starts, when the table
  freezes on an irregularity, when play starts) adds the calls made since the last one to
  BiddingData, each at its own moment (the snapshot's time less the think times of the calls
  after it). A call the table froze on sits at the counter where it was made (a call out of
  rotation in the offender's own turn); if the Law then withdraws it (an insufficient bid
  replaced, a call out of rotation cancelled) it gets an `Erased` row at that counter and the
  call that stands takes the counter. A standing call the Law later replaces (L25 change of
  call, a call made with the wrong board's cards) is erased the same way. A call withdrawn
  before the station saw it (a TD's L25A correction, which does not stop the table) is written
  and erased at the turn of the call that replaced it, so the file has it as BCS would.
- Counters start at the turn of the seat the auction began with: the board's dealer, or for a
  result moved to another board (2007/2017 L15) the dealer the table bid with
  (shared_rules.records.auction_dealer): no turn is invented before the first call.
- The first result of the board adds the rest of the auction, the opening lead to PlayData
  (counter 0, the declarer's LHO) and the ReceivedData row. Snapshots after it are ignored.
- A correction (a later revision, Law 79C) is made as BCS makes it: the result in the file is
  erased (an `Erased` copy), then the auction and lead are written again (readers drop bidding
  older than an erased result) from one second later, then the new result.
- A withdrawal (a result recorded on the wrong board, taken back) is the `Erased` copy alone, as
  BCS deletes a result. A result for the board after it is written as a new one.

Rows are ("BiddingData" | "PlayData" | "ReceivedData", values); `BoardLog.apply(item)` returns
the rows that item adds, so the same items always give the same rows (the writer's
idempotency rests on that).
"""
from __future__ import annotations

from typing import Any

from shared_rules.records import RecordError, ResultKey, auction_dealer
from shared_rules.types import Seat

from .formats import (
    SEATS,
    bid_text,
    counter_for,
    epoch,
    play_card_text,
    received_values,
    stamp_at,
    turn_times,
    turns,
)

Row = tuple[str, dict[str, Any]]
Call = tuple[str, str]  # (Direction, Bid)
# Resolutions under which the irregular call stands (nothing is withdrawn).
STANDS = {None, "accepted", "stands", "reordered", "adjusted_score", "in_turn_called"}


def _irr_id(irr: dict) -> tuple:
    return (irr.get("kind"), irr.get("seat"), irr.get("call"), irr.get("t"))


class BoardLog:
    def __init__(self, section_id: int, table: int, round_no: int, board: int, dealer: str):
        self.where = {"Section": section_id, "Table": table, "Round": round_no, "Board": board}
        self.section_id = section_id
        self.dealer = dealer
        self.logged: dict[int, Call] = {}     # counter -> (seat, Bid) standing in the file
        self.pending: dict[tuple, int] = {}   # irregular call awaiting the TD -> its counter
        self.seen: set[tuple] = set()
        self.result: dict[str, Any] | None = None  # the ReceivedData row now in force
        self.revision = 0
        self.lead: tuple[str, str] | None = None
        self.floor = 0.0  # nothing after an erased result may be older than this (epoch seconds)

    def apply(self, item: dict) -> list[Row]:
        return [(t, {k: v for k, v in values.items() if k != "_at"}) for t, values in self._apply(item)]

    def _apply(self, item: dict) -> list[Row]:
        p = item["payload"]
        if item["kind"] == "auction":
            if self.result is not None:
                return []
            return self._snapshot(p, epoch(p.get("at")))
        if item["kind"] != "result":
            return []
        revision = _revision(item["key"])
        if revision <= self.revision:
            return []
        self.revision = revision
        at = epoch(p.get("entered_at"))
        rows: list[Row] = []
        if self.result is not None:
            # A correction or a withdrawal: erase the result in force first (BCS's way).
            rows.append(("ReceivedData", self._erased_copy(at)))
            self.result, self.logged, self.lead, self.pending, self.seen = None, {}, None, {}, set()
            self.floor = max(self.floor, at) + 1
        if p.get("withdrawn"):
            return rows
        rows += self._snapshot(p, at)
        last = max([self.floor, at] + [r[1]["_at"] for r in rows if "_at" in r[1]])
        return rows + self._lead(p, last) + self._received(p, last)

    # -- pieces ---------------------------------------------------------------------------------
    def _snapshot(self, p: dict, at: float) -> list[Row]:
        dealer = auction_dealer({**p, "dealer": p.get("dealer") or self.dealer}) or self.dealer
        calls = p.get("auction") if "auction" in p else p.get("calls")
        made = turns(list(calls or []), dealer)
        moments = turn_times([t for _, _, t in made], at)
        if moments and moments[0] < self.floor:
            shift = self.floor - moments[0]  # a rewrite after an erased result keeps the calls' spacing
            moments = [m + shift for m in moments]
        new: dict[int, Call] = {k: (seat, bid) for k, (seat, bid, _) in enumerate(made)}
        when = dict(enumerate(moments))
        withdrawn: dict[int, list[Call]] = {}
        cursor = 0
        for irr in p.get("irregularities") or []:
            iid = _irr_id(irr)
            if iid in self.pending:
                if irr.get("resolution") is None and self.pending[iid] in self.logged:
                    new.setdefault(self.pending[iid], self.logged[self.pending[iid]])
                else:
                    del self.pending[iid]
            elif iid not in self.seen and irr.get("call") and irr.get("seat") in SEATS:
                if irr.get("resolution") is None:
                    counter = counter_for(irr["seat"], len(made), dealer)
                    if irr.get("kind") == "change_of_call":
                        # An attempt to change the call just made (L25): it is about that turn.
                        counter = max((k for k, (seat, _, _) in enumerate(made) if seat == irr["seat"]),
                                      default=counter)
                    if counter not in new:
                        new[counter] = (irr["seat"], bid_text(irr["call"]))
                        when[counter] = at
                        self.pending[iid] = counter
                else:
                    placed = _late_withdrawal(irr, new, cursor)
                    if placed is not None:
                        counter, call = placed
                        cursor = counter
                        if self.logged.get(counter) != call:
                            withdrawn.setdefault(counter, []).append(call)
            self.seen.add(iid)
        rows: list[Row] = []
        for k in sorted(set(self.logged) | set(new) | set(withdrawn)):
            old, now = self.logged.get(k), new.get(k)
            moment = when.get(k, at)
            for call in withdrawn.get(k, []):
                rows.append(("BiddingData", self._bid(k, call, False, moment)))
                rows.append(("BiddingData", self._bid(k, call, True, moment)))
            if old == now:
                continue
            if old is not None:
                rows.append(("BiddingData", self._bid(k, old, True, moment)))
            if now is not None:
                rows.append(("BiddingData", self._bid(k, now, False, moment)))
        self.logged = new
        return rows

    def _bid(self, counter: int, call: Call, erased: bool, moment: float) -> dict[str, Any]:
        date, tod = stamp_at(moment)
        return {**self.where, "Counter": counter, "Direction": call[0], "Bid": call[1],
                "DateLog": date, "TimeLog": tod, "Erased": erased, "_at": moment}

    def _lead(self, rec: dict, at: float) -> list[Row]:
        # The lead of the play at the table; an adjusted score's row is the TD's, not that play.
        if rec.get("adjusted") or rec.get("contract") in (None, "PASS") or not rec.get("lead") \
                or not rec.get("declarer"):
            return []
        lead = (Seat.of(rec["declarer"]).lho.letter, play_card_text(rec["lead"]))
        if lead == self.lead:
            return []
        date, tod = stamp_at(at)
        rows: list[Row] = []
        if self.lead is not None:
            rows.append(("PlayData", {**self.where, "Counter": 0, "Direction": self.lead[0], "Card": self.lead[1],
                                      "DateLog": date, "TimeLog": tod, "Erased": True}))
        rows.append(("PlayData", {**self.where, "Counter": 0, "Direction": lead[0], "Card": lead[1],
                                  "DateLog": date, "TimeLog": tod, "Erased": False}))
        self.lead = lead
        return rows

    def _received(self, rec: dict, at: float) -> list[Row]:
        date, tod = stamp_at(at)
        row = {**received_values(rec, self.section_id), "DateLog": date, "TimeLog": tod}
        self.result = row
        return [("ReceivedData", row)]

    def _erased_copy(self, at: float) -> dict[str, Any]:
        assert self.result is not None
        date, tod = stamp_at(at)
        return {**self.result, "Erased": True, "Processed": False, "Processed1": False, "Processed2": False,
                "Processed3": False, "Processed4": False, "DateLog": date, "TimeLog": tod}


def _late_withdrawal(irr: dict, standing: dict[int, Call], cursor: int) -> tuple[int, Call] | None:
    """(counter, call) of a call the Law withdrew before the station saw it: it was made at the
    turn of the call that replaced it, the offender's first turn from `cursor` on (the
    irregularities are in the order they happened). For a change of call (L25A, L25B1) the call
    withdrawn is the one replaced, and the turn is the new call's; a change cancelled (L25B2)
    withdrew nothing that stood."""
    kind, seat, resolution = irr.get("kind"), irr["seat"], irr.get("resolution")
    if resolution in STANDS:
        return None
    if kind == "change_of_call":
        if not isinstance(irr.get("replaces"), str) or str(resolution).startswith("cancel"):
            return None
        new = (seat, bid_text(irr["call"]))
        found = next((k for k in sorted(standing) if k >= cursor and standing[k] == new), None)
        return None if found is None else (found, (seat, bid_text(irr["replaces"])))
    found = next((k for k in sorted(standing) if k >= cursor and standing[k][0] == seat), None)
    return None if found is None else (found, (seat, bid_text(irr["call"])))


def _revision(key: str) -> int:
    """The revision of a result's key (shared_rules.records); 0 for a key that is not one."""
    try:
        return ResultKey.parse(key).revision
    except RecordError:
        return 0
