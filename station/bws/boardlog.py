"""What one board at one table adds to the `.bws`, item by item, as BCS would have written it
while the board was played (pure: a fold over the station's items of that board, in order).

- An auction snapshot (the tablet's "auction" item, sent when bidding starts, when the table
  freezes on an irregularity, when play starts) adds the calls made since the last one to
  BiddingData. A call the table froze on sits at the counter where it was made (a call out of
  rotation in the offender's own turn); if the Law then withdraws it (an insufficient bid
  replaced, a call out of rotation cancelled) it gets an `Erased` row at that counter and the
  call that stands takes the counter. A standing call the Law later replaces (L25 change of
  call, a call made with the wrong board's cards) is erased the same way.
- The first result of the board adds the rest of the auction, the opening lead to PlayData
  (counter 0, the declarer's LHO) and the ReceivedData row. Snapshots after it are ignored.
- A correction (a later revision, Law 79C) is made as BCS makes it: the result in the file is
  erased (an `Erased` copy), then the auction and lead are written again (readers drop bidding
  older than an erased result) one second later, then the new result.

Rows are ("BiddingData" | "PlayData" | "ReceivedData", values); `BoardLog.apply(item)` returns
the rows that item adds, so the same items always give the same rows (the writer's
idempotency rests on that).
"""
from __future__ import annotations

from typing import Any

from shared_rules.records import RecordError, ResultKey

from .formats import SEATS, bid_text, card_text, counter_for, lho, received_values, slots, stamp

Row = tuple[str, dict[str, Any]]


def _irr_id(irr: dict) -> tuple:
    return (irr.get("kind"), irr.get("seat"), irr.get("call"), irr.get("t"))


class BoardLog:
    def __init__(self, section_id: int, table: int, round_no: int, board: int, dealer: str):
        self.where = {"Section": section_id, "Table": table, "Round": round_no, "Board": board}
        self.section_id = section_id
        self.dealer = dealer
        self.logged: dict[int, tuple[str, str]] = {}   # counter -> (seat, Bid) standing in the file
        self.pending: dict[tuple, int] = {}            # irregular call awaiting the TD -> its counter
        self.seen: set[tuple] = set()
        self.result: dict[str, Any] | None = None     # the ReceivedData row now in force
        self.revision = 0
        self.lead: tuple[str, str] | None = None

    def apply(self, item: dict) -> list[Row]:
        p = item["payload"]
        if item["kind"] == "auction":
            if self.result is not None:
                return []
            return self._snapshot(p.get("calls") or [], p.get("irregularities") or [], p.get("at"))
        if item["kind"] != "result":
            return []
        revision = _revision(item["key"])
        if revision <= self.revision:
            return []
        self.revision = revision
        if self.result is None:
            rows = self._snapshot(p.get("auction") or [], p.get("irregularities") or [], p.get("entered_at"))
            return rows + self._lead(p, p.get("entered_at"), 0) + self._received(p, p.get("entered_at"), 0)
        # Correction: erase the result in force, then write the board again one second later.
        date, tod = stamp(p.get("entered_at"))
        rows: list[Row] = [("ReceivedData", {**self.result, "Erased": True, "Processed": False,
                                             "Processed1": False, "Processed2": False, "Processed3": False,
                                             "Processed4": False, "DateLog": date, "TimeLog": tod})]
        self.logged = {}
        self.lead = None
        rows += self._snapshot(p.get("auction") or [], p.get("irregularities") or [], p.get("entered_at"), 1)
        return rows + self._lead(p, p.get("entered_at"), 1) + self._received(p, p.get("entered_at"), 1)

    # -- pieces ---------------------------------------------------------------------------------
    def _snapshot(self, calls: list[dict], irregularities: list[dict], at: Any, shift: int = 0) -> list[Row]:
        turns = slots(calls, self.dealer)
        new = dict(enumerate(turns))
        for irr in irregularities:
            iid = _irr_id(irr)
            if iid in self.pending:
                if irr.get("resolution") is None and self.pending[iid] in self.logged:
                    new.setdefault(self.pending[iid], self.logged[self.pending[iid]])
                else:
                    del self.pending[iid]
            elif iid not in self.seen and irr.get("resolution") is None and irr.get("call") \
                    and irr.get("seat") in SEATS:
                counter = counter_for(irr["seat"], len(turns), self.dealer)
                if irr.get("kind") == "change_of_call":
                    # An attempt to change the call just made (L25): it is about that turn.
                    counter = max((k for k, (seat, _) in enumerate(turns) if seat == irr["seat"]), default=counter)
                if counter not in new:
                    new[counter] = (irr["seat"], bid_text(irr["call"]))
                    self.pending[iid] = counter
            self.seen.add(iid)
        date, tod = stamp(at, shift)
        rows: list[Row] = []
        for k in sorted(set(self.logged) | set(new)):
            old, now = self.logged.get(k), new.get(k)
            if old == now:
                continue
            if old is not None:
                rows.append(("BiddingData", self._bid(k, old, True, date, tod)))
            if now is not None:
                rows.append(("BiddingData", self._bid(k, now, False, date, tod)))
        self.logged = new
        return rows

    def _bid(self, counter: int, call: tuple[str, str], erased: bool, date: Any, tod: Any) -> dict[str, Any]:
        return {**self.where, "Counter": counter, "Direction": call[0], "Bid": call[1],
                "DateLog": date, "TimeLog": tod, "Erased": erased}

    def _lead(self, rec: dict, at: Any, shift: int) -> list[Row]:
        if rec.get("contract") in (None, "PASS") or not rec.get("lead") or not rec.get("declarer"):
            return []
        lead = (lho(rec["declarer"]), card_text(rec["lead"]))
        if lead == self.lead:
            return []
        date, tod = stamp(at, shift)
        rows: list[Row] = []
        if self.lead is not None:
            rows.append(("PlayData", {**self.where, "Counter": 0, "Direction": self.lead[0], "Card": self.lead[1],
                                      "DateLog": date, "TimeLog": tod, "Erased": True}))
        rows.append(("PlayData", {**self.where, "Counter": 0, "Direction": lead[0], "Card": lead[1],
                                  "DateLog": date, "TimeLog": tod, "Erased": False}))
        self.lead = lead
        return rows

    def _received(self, rec: dict, at: Any, shift: int) -> list[Row]:
        date, tod = stamp(at, shift)
        row = {**received_values(rec, self.section_id), "DateLog": date, "TimeLog": tod}
        self.result = row
        return [("ReceivedData", row)]


def _revision(key: str) -> int:
    """The revision of a result's key (shared_rules.records); 0 for a key that is not one."""
    try:
        return ResultKey.parse(key).revision
    except RecordError:
        return 0
