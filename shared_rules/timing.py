"""Timing and alerts: the stop (FSB L116B, 2017 L73A1): the missing stop, the next player's wait
and its lock, also where a skip bid obliges it without the card (EBU, ACBL), behind screens from
the tray's arrival for a waiter across the screen (profile stop.across_screen), long thought after a
stop (L16B1); alerts: who alerts and when alerting stops (FSB
L115, 2017 L40B2), the late alert (L21B1(a)) (docs/laws/timing-box-screens.md). The rules are
profile data (profiles/*.toml: [stop], [alert]).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from shared_rules.calls import SEATS, call_name, level, partner
from shared_rules.model import EventError, Rec
from shared_rules.types import FORBIDDING_ALERT, Pair, TimingKind

if TYPE_CHECKING:
    from shared_rules.fold import Fold


# ---------------------------------------------------------------- the stop
def stop_missing(f: Fold, rec: Rec) -> None:
    """A bid the profile wants a stop before (an opening at the two level, a jump) made without
    one (FSB L116B1-B2; 2017 L73A1)."""
    f.timing.append({"kind": TimingKind.STOP_MISSING, "seat": SEATS[rec.seat], "t": rec.t,
                     "call": call_name(rec.code), "law": f.profile.stop.law})


def check_stop_wait(f: Fold, rec: Rec) -> None:
    """The next player after a stop, or after a skip bid where the profile obliges the pause
    without the card (stop.pause_without_card), called: his wait, from that call to his own first
    action at this turn (a replacement the TD enters later keeps it), is reported when short or
    long; `stop_card: false` says the pause was owed without the card."""
    assert f.stop_from is not None
    start = f.stop_from[0]
    if start is None:
        # Behind screens the tray had not brought him the stop: no pause began, so none is judged
        # (the tablet takes no call from a side without the tray; profile stop.across_screen)
        return
    waited = rec.acted - start
    stop = f.profile.stop
    # FSB L116B: "about 10 s"; a wait of wait_s - tolerance_s (9.0 s) is kept
    flag: dict[str, Any] | None = None
    if waited < stop.wait_s - stop.tolerance_s:
        flag = {"kind": TimingKind.STOP_WAIT_SHORT, "seat": SEATS[rec.seat], "t": rec.t,
                "waited": round(waited, 3), "wait": stop.wait_s, "law": stop.law}
    elif waited > stop.long_thought_s:  # L16B1: a long thought is information the partner may not use
        flag = {"kind": TimingKind.LONG_THOUGHT_AFTER_STOP, "seat": SEATS[rec.seat], "t": rec.t,
                "waited": round(waited, 3), "threshold": stop.long_thought_s,
                "law": f"{stop.law}, {f.refs['tempo_ui']}"}
    if flag is not None:
        if not f.stop_from[2]:  # owed after a skip bid made without the card (EBU, ACBL)
            flag["stop_card"] = False
        f.timing.append(flag)


def lock_until(f: Fold, seat: int, t: float) -> float | None:
    """Under a profile whose stop `enforcement` is `lock` (FSB L116B), the time until which the
    next player's box is locked after a stop, if a call by `seat` at `t` falls inside it. Behind
    screens the lock of a player across the screen runs from the tray's arrival (`stop_from`)."""
    stop = f.profile.stop
    start = f.stop_from[0] if f.stop_from is not None and f.stop_from[1] == seat else None
    if stop.enforcement == "lock" and start is not None and t < start + stop.wait_s - stop.tolerance_s:
        return start + stop.wait_s
    return None


# ---------------------------------------------------------------- alerts
@dataclass(frozen=True)
class AlertJudgement:
    """What an alert is, worked out before anything changes: the standing call it names and the
    flags it raises (table.Table.step refuses an alert the profile forbids)."""

    seat: int
    t: float
    index: int  # the standing call it is about
    flags: tuple[dict[str, Any], ...]

    def forbidden(self) -> dict[str, Any] | None:
        """The first flag that says the profile's rules forbid this alert (FSB L115)."""
        return next((x for x in self.flags if x["kind"] in FORBIDDING_ALERT), None)


def judge_alert(f: Fold, seat: int, t: float) -> AlertJudgement:
    """An alert names the last call of the alerter's partner, or his own if that is later
    (self-alert). Who may alert, and when alerting stops, is profile data (FSB L115B)."""
    screens = f.profile.screens.enabled
    mate = partner(seat)
    calls = f.calls
    # Behind screens the alerter's partner sits on the other side: the alerter knows a call
    # of his partner only once the tray has carried it across (docs/laws/choices.md #23), so
    # the alert is about the last call of his side he has seen.
    idx = next((i for i in range(len(calls) - 1, -1, -1)
                if not calls[i].deemed and (calls[i].seat == seat or (
                    calls[i].seat == mate and (not screens or i < f.tray_calls)))), None)
    if idx is None:
        unseen = next((c for c in reversed(calls) if c.seat == mate and not c.deemed), None)
        if unseen is not None:
            raise EventError(
                f"{SEATS[seat]} alerted, but {SEATS[mate]}'s {call_name(unseen.code)} is still on the other "
                f"side of the screen: the tray has not brought it to {SEATS[seat]} ({f.profile.screens.law})")
        raise EventError(f"{SEATS[seat]} alerted, but neither {SEATS[seat]} nor partner has made a call to "
                         "alert")
    target = calls[idx]
    rules = f.profile.alert
    who = "self" if target.seat == seat else "partner"
    flags: list[dict[str, Any]] = []
    # index: which standing call the flag is about (the tempo view hangs it on that row)
    base = {"seat": SEATS[seat], "t": t, "call": call_name(target.code), "of": SEATS[target.seat],
            "index": idx}
    if who not in rules.by:
        flags.append({"kind": TimingKind.ALERT_BY_WRONG_PLAYER, **base, "law": rules.law,
                      "expected": "partner" if "partner" in rules.by else "self"})
    if not rules.enabled:
        flags.append({"kind": TimingKind.ALERT_NOT_PERMITTED, **base, "law": rules.law})
    elif (Pair.NS if seat % 2 == 0 else Pair.EW) in f.no_alerts_by:  # FSB L115A1-A2
        flags.append({"kind": TimingKind.ALERT_NOT_PERMITTED, **base, "law": rules.pair_may_decline,
                      "reason": "the opponents asked this pair not to alert"})
    elif rules.cutoff_level is not None and not screens:
        first_bid = next((i for i, c in enumerate(calls) if 0 <= c.code), None)
        exempt = rules.cutoff_exempts_opening and idx == first_bid
        if not exempt and any(0 <= c.code and level(c.code) >= rules.cutoff_level for c in calls[: idx + 1]):
            flags.append({"kind": TimingKind.ALERT_NOT_PERMITTED, **base, "law": rules.law,
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
        side: tuple[int, ...] = (seat, screenmate(f, seat))
        if who == "partner" and f.profile.screens.partner_alert == "tray_passes":
            # The regulation gives the partner until the tray leaves his side: his screenmate
            # may have called meanwhile (profile screens.partner_alert; docs/laws/choices.md #35).
            side = (seat,) if _tray_still_here(f, seat, idx) else side
        later = next((j for j in range(idx + 1, len(calls)) if calls[j].seat in side), len(calls))
    if later < len(calls):
        flags.append({"kind": TimingKind.ALERT_LATE, **base, "law": f.refs["late_alert"],
                      "after": SEATS[calls[later].seat]})
    return AlertJudgement(seat, t, idx, tuple(flags))


def _tray_still_here(f: Fold, seat: int, idx: int) -> bool:
    """Is the tray that brought call `idx` to `seat`'s side still there (not passed back since)?"""
    name = SEATS[seat]
    brought = next((i for i, tp in enumerate(f.tray_passes) if tp["calls"] > idx and name in tp["to"]), None)
    return brought is not None and brought == len(f.tray_passes) - 1


def alert(f: Fold, judged: AlertJudgement) -> None:
    """The alert is made: its flags are reported, the call is marked alerted."""
    f.timing.extend(judged.flags)
    idx, seat = judged.index, judged.seat
    target = f.calls[idx]
    if f.profile.screens.enabled:
        # Behind screens each player alerts to his screenmate, an opponent: the alert reaches
        # only that opponent (WBF screen regulations; FSB L115B alerts every alertable call).
        mate = screenmate(f, seat)
        if mate not in target.alerted_to:
            target.alerted_to.append(mate)
            target.cached_view = None
            del f.views[idx:]
    if target.alerted_by is None:
        target.alerted_by = seat
        target.alert_t = judged.t
        target.cached_view = None
        del f.views[idx:]


def screenmate(f: Fold, seat: int) -> int:
    """The opponent on `seat`'s side of the screen (profile [screens] screenmates)."""
    pair = next(p for p in f.screenmates if seat in p)
    return pair[1] if pair[0] == seat else pair[0]
