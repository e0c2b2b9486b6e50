"""What each box is shown, and the tempo table for the director, both as plain data.

A box view is the Python form of the protocol's STATE message (protocol/SPEC.md section 3): the
firmware refuses nothing the tablet's data does not refuse, so the view carries the turn, the lowest
sufficient bid, the calls this seat may make, the stop wait and the auction as this seat may see it.
"""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from protocol.messages import STOP_TRIGGERS
from shared_rules.profiles import Profile
from shared_rules.types import Policy
from tablet_app import law_texts, screen_view

if TYPE_CHECKING:
    from tablet_app.control.state import ProfileLoader
    from tablet_app.controller import Controller

# The box display is 16 characters wide and shows a message on its call line when nothing is
# selected (firmware/render.py; "~ text" in its screen file, firmware/textview.py): messages are
# at most 14 characters.
MESSAGES = {
    "frozen": "TD is coming",
    "play": "",
    "confirm": "E-W: confirm",
    "round_end": "Round over",
    "setup": "",
}

SHORT_REASONS = (
    ("has not seen", "Not seen: TD"),  # behind screens: the tray has not brought it
    ("tray", "Tray not here"),
    ("director", "Wait for TD"),
    ("auction is over", "Auction over"),
    ("no board", "No board yet"),
    ("stop wait", "Wait: STOP"),  # FSB L116B: the next box is locked for the stop wait
    ("alert not permitted", "No alert here"),  # FSB L115A1, L115B cut-off
    ("alert by wrong player", "Partner alerts"),  # FSB L115B
)


def short_reason(reason: str) -> str:
    """A refusal reason cut to what a box can show."""
    for needle, text in SHORT_REASONS:
        if needle in reason:
            return text
    return reason[:14]


def stop_triggers(ctl: Controller) -> list[str]:
    """The bids the table's regulation wants STOP before (its profile's [stop] triggers), for the
    boxes to prompt: the box knows no regulation of its own."""
    session = ctl.session
    if session is None:
        return []
    return list(_triggers(ctl.profile_loader, session.profile))


@functools.lru_cache(maxsize=8)
def _triggers(loader: ProfileLoader, name: str) -> tuple[str, ...]:
    profile: Profile = loader(name)
    if not profile.stop.enabled:
        return ()
    return tuple(t for t in profile.stop.triggers if t in STOP_TRIGGERS)


def alert_seen(call: dict[str, Any], seat: str, screens: bool) -> bool:
    """Whether `seat` sees the alert of `call`. Without screens the whole table does. Behind
    screens each player alerts to his screenmate, an opponent (WBF screen regulations; FSB L115B
    with screens): only the seats in the engine's `alerted_to` see it, not the alerter's partner."""
    if not call.get("alerted"):
        return False
    return not screens or seat in (call.get("alerted_to") or ())


def _now(calls: list[dict[str, Any]], i: int, seen: dict[str, Any]) -> dict[str, Any]:
    """The standing call `seen` as it is now: an alert made after the tray carried it across
    still reaches the screenmate's box (the side sees the call as the tray left it, and the
    alert as it is made: WBF screen regulations, each player alerts to his screenmate)."""
    if i < len(calls) and calls[i].get("seat") == seen.get("seat") and calls[i].get("t") == seen.get("t"):
        return calls[i]
    return seen


def box_view(ctl: Controller, seat: str) -> dict[str, Any]:
    st = ctl.estate or {}
    phase = ctl.phase
    if ctl.board is None or not st:
        return {"turn": None, "over": phase == "round_end", "board": 0, "message": MESSAGES.get(phase, "")}
    calls = st.get("calls", [])
    engine = ctl.engine if ctl.tray is not None else None  # behind screens: the engine keeps the tray
    behind = engine is not None
    if engine is None:
        # an open table: every seat sees every call and every alert as it stands
        shown = calls
        auction = [{"call": c.get("call"), "alert": bool(c.get("alerted")), "stop": bool(c.get("stop"))}
                   for c in calls]
    else:
        shown = engine.visible_calls(seat)
        auction = [
            {"call": c.get("call"), "alert": alert_seen(_now(calls, i, c), seat, behind),
             "stop": bool(c.get("stop"))}
            for i, c in enumerate(shown)
        ]
    # Behind a screen the other side's calls not yet passed on the tray are hidden (code 0x3F), so
    # the box still counts the rotation right.
    auction += [{"call": None, "alert": False, "stop": False}] * (len(calls) - len(shown))
    # held: a box called the director (TD key, UNDO); the boxes wait as for an irregularity
    frozen = phase == "frozen" or ctl.held()
    over = phase not in ("auction", "frozen")
    turn = st.get("next") if not over else None
    may_call = not behind or seat in st["tray"]["seats"]  # a box without the tray has nowhere to put a call
    mine = turn == seat and not frozen and may_call
    stop_ms = 0
    lock = st.get("stop_lock_until")
    if mine and lock is not None:
        stop_ms = max(0, int(round((float(lock) - ctl.board_time()) * 1000)))
    message = MESSAGES["frozen"] if frozen else MESSAGES.get(phase, "")
    pending = st.get("pending") or {}
    if pending.get("call") and pending.get("seat") and (
            ctl.tray is None or screen_view.sees(seat, pending["seat"], ctl.tray.screenmates)):
        # every box shows the call the table is ruling on: the player the Law lets accept it
        # must see what he would accept ("W 2C: wait TD"); behind screens only the boxes on the
        # side where it was made (the tray has not carried it: docs/laws/choices.md #34)
        message = f"{pending['seat']} {pending['call']}: wait TD"
    for ob in st.get("obligations", []):
        if ob.get("seat") == seat and mine:
            message = law_texts.box_message(ob)  # in English: the link puts it in the table's language
    if phase == "auction" and behind and not may_call:
        message = "Tray not here"
    if phase == "auction" and ctl.stop_shown.get(seat) is not None and mine:
        message = "Stop shown"
    return {
        "turn": turn if may_call else None,
        "frozen": frozen,
        "over": over,
        "prevent": st.get("policy") == Policy.PREVENT,
        "screens": behind,
        "lowest": st.get("lowest_bid"),
        "allowed": list(st.get("legal_calls", [])) if mine else [],
        "stop_ms": min(stop_ms, 65535),
        "stop_triggers": stop_triggers(ctl),
        "board": st.get("board", ctl.board),
        "dealer": st.get("dealer"),
        "vul": st.get("vulnerability"),
        "auction": auction,
        "message": message[:14],
    }


def tempo_rows(st: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per standing call: think time and the timing flags the engine reported for it."""
    rows: list[dict[str, Any]] = []
    for i, c in enumerate(st.get("calls", [])):
        rows.append(
            {
                "index": i,
                "seat": c.get("seat"),
                "call": c.get("call"),
                "think": c.get("think"),
                "stop": bool(c.get("stop")),
                "alerted": bool(c.get("alerted")),
                "flags": [],
            }
        )
    made = [c.get("t") for c in st.get("calls", [])]
    for flag in st.get("timing", []):
        target = _flagged_row(rows, made, flag)
        if target is not None:
            target["flags"].append(flag.get("kind"))
    return rows


def _flagged_row(rows: list[dict[str, Any]], made: list[Any], flag: dict[str, Any]) -> dict[str, Any] | None:
    """The row of the call a timing flag is about: the standing call it names by index (alerts),
    else the call its seat made when the flag was raised (a stop flag carries that call's time),
    else that seat's last call made by then (the call itself was withdrawn since). Never a call the
    seat made later: a long thought after a STOP belongs to the slow call (FSB L116B, L16B1)."""
    idx = flag.get("index", flag.get("call_index"))
    if isinstance(idx, int) and 0 <= idx < len(rows):
        return rows[idx]
    seat, t = flag.get("seat"), flag.get("t")
    mine = [(r, made[i]) for i, r in enumerate(rows) if r["seat"] == seat]
    if isinstance(t, int | float):
        same = [r for r, at in mine if at == t]
        if same:
            return same[-1]
        mine = [(r, at) for r, at in mine if isinstance(at, int | float) and at <= t]
    return mine[-1][0] if mine else None
