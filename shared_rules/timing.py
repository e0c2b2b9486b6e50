"""Timing and alerts: the stop wait (FSB L116B, 2017 L73A1), long thought after a stop (L16B1),
alerts, who alerts and when alerting stops (FSB L115, 2017 L40B2) (docs/laws/timing-box-screens.md).
The missing stop is found where a bid stands (table_base._stand).
"""
from __future__ import annotations

from shared_rules.calls import (
    SEATS,
    call_name,
    level,
    partner,
)
from shared_rules.table_base import (
    EventError,
    Rec,
    TableBase,
)


class Timing(TableBase):
    def _check_stop_wait(self, rec: Rec) -> None:
        assert self._stop_from is not None
        waited = rec.acted - self._stop_from[0]
        stop = self.profile.stop
        if waited < stop.wait_s - stop.tolerance_s:
            self._timing.append({
                "kind": "stop_wait_short", "seat": SEATS[rec.seat], "t": rec.t, "waited": round(waited, 3),
                "wait": stop.wait_s, "law": stop.law,
            })
        elif waited > stop.long_thought_s:
            self._timing.append({
                "kind": "long_thought_after_stop", "seat": SEATS[rec.seat], "t": rec.t,
                "waited": round(waited, 3), "threshold": stop.long_thought_s, "law": f"{stop.law}, {self.refs['tempo_ui']}",
            })

    def _on_alert(self, seat: int, t: float) -> None:
        """An alert names the last call of the alerter's partner, or his own if that is later
        (self-alert). Who may alert, and when alerting stops, is profile data (FSB L115B)."""
        screens = self.profile.screens.enabled
        mate = partner(seat)
        # Behind screens the alerter's partner sits on the other side: the alerter knows a call
        # of his partner only once the tray has carried it across (docs/laws/choices.md #23), so
        # the alert is about the last call of his side he has seen.
        idx = next((i for i in range(len(self._calls) - 1, -1, -1)
                    if not self._calls[i].deemed and (self._calls[i].seat == seat or (
                        self._calls[i].seat == mate and (not screens or i < self._tray_calls)))), None)
        if idx is None:
            unseen = next((c for c in reversed(self._calls) if c.seat == mate and not c.deemed), None)
            if unseen is not None:
                raise EventError(
                    f"{SEATS[seat]} alerted, but {SEATS[mate]}'s {call_name(unseen.code)} is still on the other side "
                    f"of the screen: the tray has not brought it to {SEATS[seat]} ({self.profile.screens.law})")
            raise EventError(f"{SEATS[seat]} alerted, but neither {SEATS[seat]} nor partner has made a call to alert")
        target = self._calls[idx]
        rules = self.profile.alert
        who = "self" if target.seat == seat else "partner"
        # index: which standing call the flag is about (the tempo view hangs it on that row)
        base = {"seat": SEATS[seat], "t": t, "call": call_name(target.code), "of": SEATS[target.seat], "index": idx}
        if who not in rules.by:
            self._timing.append({"kind": "alert_by_wrong_player", **base, "law": rules.law,
                                 "expected": "partner" if "partner" in rules.by else "self"})
        if not rules.enabled:
            self._timing.append({"kind": "alert_not_permitted", **base, "law": rules.law})
        elif ("NS" if seat % 2 == 0 else "EW") in self.no_alerts_by:
            self._timing.append({"kind": "alert_not_permitted", **base, "law": rules.pair_may_decline,
                                 "reason": "the opponents asked this pair not to alert"})
        elif rules.cutoff_level is not None and not self.profile.screens.enabled:
            first_bid = next((i for i, c in enumerate(self._calls) if 0 <= c.code), None)
            exempt = rules.cutoff_exempts_opening and idx == first_bid
            if not exempt and any(0 <= c.code and level(c.code) >= rules.cutoff_level for c in self._calls[: idx + 1]):
                self._timing.append({"kind": "alert_not_permitted", **base, "law": rules.law,
                                     "cutoff": f"{rules.cutoff_level}C"})
        # Late: a call was made after the alerter knew of the call and before he alerted it, so
        # the opponent called without the alert ("underlåtenhet att omedelbart alertera", 2007
        # L21B1(a); "undladelse af omgående alert", 2017 L21B1(a)). Without screens that is any
        # later call. Behind screens the partner learns of the call only when the tray brings it,
        # always after his screenmate has called on the other side; his alert to his screenmate
        # is then due at once, so only a later call on the alerter's own side of the screen (his
        # own, or his screenmate's) makes it late (WBF screen regulations; FSB L115B with screens).
        later = idx + 1
        if screens:
            side = (seat, self._screenmate(seat))
            later = next((j for j in range(idx + 1, len(self._calls)) if self._calls[j].seat in side), len(self._calls))
        if later < len(self._calls):
            self._timing.append({"kind": "alert_late", **base, "law": self.refs["late_alert"],
                                 "after": SEATS[self._calls[later].seat]})
        if screens:
            # Behind screens each player alerts to his screenmate, an opponent: the alert reaches
            # only that opponent (WBF screen regulations; FSB L115B alerts every alertable call).
            screenmate = self._screenmate(seat)
            if screenmate not in target.alerted_to:
                target.alerted_to.append(screenmate)
                target._view = None
                del self._views[idx:]
        if target.alerted_by is None:
            target.alerted_by = seat
            target.alert_t = t
            target._view = None
            del self._views[idx:]



